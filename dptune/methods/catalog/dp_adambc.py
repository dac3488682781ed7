"""dp-adambc: DP-Adam whose second moment is corrected for the DP noise variance.

Tang, Shpilevskiy & Lécuyer, "DP-AdamBC: Your DP-Adam Is Actually DP-SGD (Unless You Apply Bias
Correction)", AAAI 2024, arXiv:2312.14334, Alg. 1. The privatized gradient
ĝ_t = (Σ clip(g_i, C) + N(0, σ²C² I)) / L adds noise of variance Φ = (σC/L)² to every coordinate, so
E[ĝ_t²] = E[(clipped mean)²] + Φ: plain Adam's √v̂_t is dominated by √Φ and the update degenerates to
DP-SGD with momentum. DP-AdamBC subtracts Φ:

    m_t = β₁ m_{t−1} + (1 − β₁) ĝ_t,        m̂_t = m_t / (1 − β₁^{t+1})
    v_t = β₂ v_{t−1} + (1 − β₂) ĝ_t²,       v̂_t = v_t / (1 − β₂^{t+1})
    direction_t = m̂_t / √max(v̂_t − Φ, γ′)

(t counts from 0 here; the paper's t from 1.) γ′ floors the corrected second moment *inside* the square
root, in units of ĝ² (v̂_t − Φ can be negative), replacing Adam's ε added to √v̂; as in the paper and the
authors' code (``adam_corr.py``: ``sqrt(max(v̂ − Φ, eps_root))``, eps_root 1e-8 by default), there is no
further ε. L is the expected batch size q·n the privatize stage divides by (the paper's B). The first
moment is written as the IIR filter a = (−β₁,), b = (1 − β₁,) (``filters.adam_moment``), so the same
stage with a DOPPLER filter is LP-DPAdamBC (``lp_dpadambc``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dptune.methods.definition import Hyper, MethodDefinition, required
from dptune.methods.filters import IIRCoefficients, adam_moment, filter_init, filter_step
from dptune.methods.params import Param
from dptune.methods.privatize import gaussian_privatize
from dptune.methods.shared_params import BETA1_PARAM, BETA2_PARAM, positive
from dptune.methods.signal import per_sample_gradient
from dptune.methods.stages import Method, PostProcessing, State, Update, chain

if TYPE_CHECKING:
    import torch

GAMMA_PARAM = Param(
    "gamma",
    "float",
    1e-8,
    positive,
    "a number > 0",
    "γ′: floor of the corrected second moment v̂ − Φ (Tang et al.; their code's default 1e-8)",
)


def noise_variance(sigma: float, h: Hyper) -> float | None:
    """Φ = (σC/L)²: the variance the privatize stage adds to each coordinate of ĝ (None where L is not
    known: a composition that only needs the privatize stage)."""
    if h.expected_batch_size is None:
        return None
    return (sigma * h.clip / h.expected_batch_size) ** 2


def noise_corrected_adam(
    coeffs: IIRCoefficients, beta2: float, variance: float | None, gamma: float
) -> PostProcessing:
    """DP-AdamBC post-processing with the first moment as an IIR filter (module docstring):

    m̂_t = m_t / c_t          (``filters.filter_step``; Adam: c_t = 1 − β₁^{t+1})
    v̂_t = v_t / (1 − β₂^{t+1}),  v_t = β₂ v_{t−1} + (1 − β₂) ĝ_t²
    direction_t = m̂_t / √max(v̂_t − Φ, γ′),  Φ = ``variance``
    """
    name = f"noise_corrected_adam(a={list(coeffs.a)}, b={list(coeffs.b)}, beta2={beta2}, gamma={gamma})"
    needs = "the noise variance (σC/L)², i.e. the expected batch size L"

    def init(params: torch.Tensor) -> State:
        import torch

        required(variance, needs, name)
        return {"filter": filter_init(params), "v": torch.zeros_like(params), "t": 0}

    def update(privatized: torch.Tensor, state: State) -> tuple[torch.Tensor, State]:
        phi = required(variance, needs, name)
        m, c, filter_state = filter_step(coeffs, privatized, state["filter"])
        t = state["t"]
        v = beta2 * state["v"] + (1.0 - beta2) * privatized.square()
        v_hat = v / (1.0 - beta2 ** (t + 1))
        direction = (m / c) / (v_hat - phi).clamp(min=gamma).sqrt()
        return direction, {"filter": filter_state, "v": v, "t": t + 1}

    return PostProcessing(name, init, update, gain=None)  # Adam's normalisation


def compose(p: dict[str, Any], sigma: float, h: Hyper) -> Method:
    return chain(
        "dp-adambc",
        per_sample_gradient(),
        gaussian_privatize(h.clip, sigma),
        noise_corrected_adam(adam_moment(p["beta1"]), p["beta2"], noise_variance(sigma, h), p["gamma"]),
        Update(h.lr),
    )


DEFINITION = MethodDefinition(
    "dp-adambc",
    "DP-Adam with the second moment corrected for the noise variance (σC/L)² (Tang et al. 2024)",
    (BETA1_PARAM, BETA2_PARAM, GAMMA_PARAM),
    compose,
)
