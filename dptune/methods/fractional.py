"""FO-DP-SGD's fractional memory (Partohaghighi & Marcia, Alg. 1, eqs. (4)–(12)) as post-processing.

The paper privatizes s̃_t = β·s_t + (1−β)·u_{t−1} + N(0, σ²C²I), with s_t the clipped sum and u_{t−1}
a kernel-weighted mix of past privatized sums. Only β·s_t depends on fresh data (sensitivity βC), so the
accountant sees noise multiplier σ/β (Thm B.2). Writing the noise as β·Z' with Z' ~ N(0, (σ/β)²C²I):

    s̃_t = β·(s_t + Z') + (1−β)·u_{t−1},

i.e. the standard Gaussian privatization ŝ_t = s_t + Z' at multiplier σ/β followed by a deterministic map
of privatized vectors. dptune implements it exactly that way: ``gaussian_privatize(C, σ/β)`` then this
stage, which is identical in distribution to the paper's mechanism and keeps the privacy boundary in
the privatize stage. It works on ĝ = ŝ/L (L = q·n), so every vector is the paper's divided by L.

With K_t = min(K, t+1), lags j = 1…K_t−1 and the buffer B[j] = s̃_{t−j} of past privatized sums:

    (4) EMA trend   s̄_1 = s̃_0,  s̄_{t+1} = γ·s̃_t + (1−γ)·s̄_t
    (5) ν_{t,j} = ‖s̃_{t−j} − s̄_t‖ / (max(‖s̄_t‖, κ) + ε)
    (6) χ_t = ‖s̄_t‖ / (‖s̄_t‖ + ζ)
    (7) a_{t,j} = (j+1)^{α−1} · exp(−(λ + χ_t·τ·ν_{t,j})·j)
    (8) â_{t,j} = a_{t,j} / Σ_{l=1}^{K_t−1} a_{t,l}
    (9) u_{t−1} = Σ_j â_{t,j}·s̃_{t−j}   (u = 0 when K_t = 1)
    (10–12) s̃_t = β·ĝ_t + (1−β)·u_{t−1};  direction s̃_t.

The paper gives no values for λ, τ, γ, κ, ζ, ε. κ and ζ are absolute norms in its sum units; dptune
takes them in units of C at the level of ĝ (the paper's κ is ours × C·L), so defaults carry across
models and batch sizes: our choice λ = 0.1, τ = 1, γ = 0.1, κ = 0.01, ζ = 0.1, ε = 1e-12.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from dptune.methods.stages import PostProcessing, State

if TYPE_CHECKING:
    import torch

STABILITY_EPS = 1e-12


def kernel_weights(
    lags: list[torch.Tensor],
    trend: torch.Tensor,
    alpha: float,
    lam: float,
    tau: float,
    kappa: float,
    zeta: float,
) -> torch.Tensor:
    """â_{t,1..K_t−1} from eqs. (5)–(8): ``lags[j−1]`` is s̃_{t−j}, ``trend`` is s̄_t."""
    import torch

    trend_norm = float(torch.linalg.vector_norm(trend))
    confidence = trend_norm / (trend_norm + zeta)
    scale = max(trend_norm, kappa) + STABILITY_EPS
    raw = []
    for j, past in enumerate(lags, start=1):
        inconsistency = float(torch.linalg.vector_norm(past - trend)) / scale
        raw.append((j + 1) ** (alpha - 1) * math.exp(-(lam + confidence * tau * inconsistency) * j))
    weights = torch.tensor(raw, dtype=torch.float64)
    return weights / weights.sum()


def fractional_memory(
    beta: float,
    alpha: float,
    memory: int,
    lam: float,
    tau: float,
    gamma: float,
    kappa: float,
    zeta: float,
    clip: float,
) -> PostProcessing:
    """The FO-DP-SGD memory stage (module docstring), κ and ζ given in units of ``clip``."""

    def init(params: torch.Tensor) -> State:
        return {"t": 0, "buffer": [], "trend": None}

    def update(privatized: torch.Tensor, state: State) -> tuple[torch.Tensor, State]:
        t, buffer, trend = state["t"], state["buffer"], state["trend"]
        if buffer:
            weights = kernel_weights(buffer, trend, alpha, lam, tau, kappa * clip, zeta * clip)
            memory_state = sum(float(w) * past for w, past in zip(weights, buffer, strict=True))
            query = beta * privatized + (1.0 - beta) * memory_state
        else:
            query = beta * privatized
        new_trend = query if t == 0 else gamma * query + (1.0 - gamma) * trend
        new_buffer = [query, *buffer][: memory - 1]
        return query, {"t": t + 1, "buffer": new_buffer, "trend": new_trend}

    return PostProcessing(
        f"fractional_memory(beta={beta}, alpha={alpha}, K={memory}, lam={lam}, tau={tau}, "
        f"gamma={gamma}, kappa={kappa}, zeta={zeta})",
        init,
        update,
        gain=1.0,  # s̃ = β·v + (1−β)·(a convex mix of past s̃) → v on a constant input
    )
