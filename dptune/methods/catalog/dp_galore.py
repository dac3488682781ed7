"""dp-galore: GaLore's low-rank gradient projection applied to the privatized gradient, with Adam inside.

Zhang et al. 2024 (DOPPLER), Alg. 3 (appendix C.2) with "Use GaLore", after Zhao et al., "GaLore:
Memory-Efficient LLM Training by Gradient Low-Rank Projection", 2024, arXiv:2403.03507, Alg. 2. For
each weight matrix G_t (m × n) of the privatized ĝ_t:

    if t mod I = 0:  P = FindProjector(G_t, r)                          (Alg. 3 lines 7–9)
    G̃_t = Pᵀ G_t  (r × n, P = U[:, :r]) if m ≤ n,  else  G_t Q  (m × r, Q = V[:, :r])   (line 10)
    d̃_t = Adam(G̃_t)   in the projected space                            (lines 14–19)
    D_t = P d̃_t  if m ≤ n,  else  d̃_t Qᵀ                               (line 21)

with U, V the singular vectors of G_t = U S Vᵀ, largest singular values first. Adam is Alg. 3's:
m̂_t = m_t / c_t (the first moment as an IIR filter; for dp-galore Adam's own, a = (−β₁,), b = (1 − β₁,)),
v̂_t = v_t / (1 − β₂^{t+1}), d̃_t = m̂_t / max(√v̂_t, ε) (``filters.filtered_adam``). The moments live in
the projected space and are kept when the projector is refreshed (Alg. 3 resets nothing). As in Alg. 3,
there is no GaLore scale α (it would only rescale η). Everything here reads privatized vectors only: it is
post-processing, and the privatize stage, calibration and accounting are DP-SGD's.

Choices where the papers are silent:

* **Which tensors**: every parameter tensor with two or more dimensions (linear weights, conv kernels);
  vectors (biases, norm scales) get the same Adam unprojected, as GaLore's non-GaLore parameters do.
* **Conv kernels** [c_out, c_in, k_h, k_w] are projected as the c_out × (c_in·k_h·k_w) matrix of the
  convolution as a linear map of its input patches (im2col).
* **Full rank**: a matrix with min(m, n) ≤ r is not projected. A rank-r basis of the whole space saves
  nothing and would only rotate Adam's coordinates (Adam is not rotation-invariant), so GaLore at full
  rank is the method without projection.
* **Singular vector signs** are arbitrary and Alg. 3 carries the moments across refreshes, so we fix
  them: each basis vector's entry of largest magnitude is made positive (scikit-learn's ``svd_flip``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dptune.methods.definition import Hyper, MethodDefinition, required
from dptune.methods.filters import adam_moment, filtered_adam
from dptune.methods.params import Param
from dptune.methods.privatize import gaussian_privatize
from dptune.methods.shared_params import BETA1_PARAM, BETA2_PARAM, EPS_ADAM_PARAM
from dptune.methods.signal import per_sample_gradient
from dptune.methods.stages import Method, PostProcessing, State, Update, chain

if TYPE_CHECKING:
    import torch

    from dptune.engine.persample import ParamLayout

RANK_PARAM = Param("rank", "int", 8, lambda v: v >= 1, "an integer >= 1", "GaLore rank r of the projection")
INTERVAL_PARAM = Param(
    "update_interval",
    "int",
    200,
    lambda v: v >= 1,
    "an integer >= 1",
    "I: steps between projector refreshes (GaLore's T, 200 in its paper)",
)


def matrix_shape(shape: torch.Size) -> tuple[int, int] | None:
    """(m, n) of a parameter tensor seen as a matrix: [out, in] as is, [c_out, c_in, k_h, k_w] as
    [c_out, c_in·k_h·k_w]; None for a vector."""
    if len(shape) < 2:
        return None
    return shape[0], shape.numel() // shape[0]


def projected_shapes(layout: ParamLayout, rank: int) -> list[tuple[int, int] | None]:
    """Per parameter tensor, the (m, n) it is projected as, or None where it is not projected (a vector,
    or min(m, n) ≤ r)."""
    shapes = [matrix_shape(shape) for shape in layout.shapes]
    return [s if s is not None and rank < min(s) else None for s in shapes]


def find_projector(matrix: torch.Tensor, rank: int) -> torch.Tensor:
    """FindProjector(G, r) of Alg. 3: U[:, :r] (m × r) if m ≤ n, else V[:, :r] (n × r), for G = U S Vᵀ
    with singular values in decreasing order; each column's entry of largest magnitude made positive."""
    import torch

    u, _, vh = torch.linalg.svd(matrix, full_matrices=False)
    basis = u[:, :rank] if matrix.shape[0] <= matrix.shape[1] else vh[:rank].T
    rows = basis.abs().argmax(dim=0)
    signs = torch.sign(basis[rows, torch.arange(basis.shape[1], device=basis.device)])
    signed: torch.Tensor = basis * signs
    return signed


def project(matrix: torch.Tensor, projector: torch.Tensor) -> torch.Tensor:
    """G̃ = Pᵀ G (m ≤ n) or G Q (m > n)."""
    return projector.T @ matrix if matrix.shape[0] <= matrix.shape[1] else matrix @ projector


def project_back(low: torch.Tensor, projector: torch.Tensor, shape: tuple[int, int]) -> torch.Tensor:
    """D = P d̃ (m ≤ n) or d̃ Qᵀ (m > n)."""
    return projector @ low if shape[0] <= shape[1] else low @ projector.T


def projected_size(shape: tuple[int, int], rank: int) -> int:
    """Entries of G̃: r·n (m ≤ n) or m·r (m > n)."""
    return rank * shape[1] if shape[0] <= shape[1] else shape[0] * rank


def galore(inner: PostProcessing, layout: ParamLayout | None, rank: int, interval: int) -> PostProcessing:
    """Run ``inner`` (Adam, optionally with a DOPPLER filter) on the projected privatized gradient and
    project its direction back (module docstring). ``inner`` sees one flat vector: every projected
    matrix's G̃ flattened, and every unprojected tensor as it is, in the order of θ."""
    needs = "the model's parameter layout (the shape of every weight tensor)"
    name = f"galore(rank={rank}, interval={interval}, {inner.name})"

    def init(params: torch.Tensor) -> State:
        import torch

        plan = required(layout, needs, name)
        shapes = projected_shapes(plan, rank)
        sizes = [
            n if s is None else projected_size(s, rank) for s, n in zip(shapes, plan.numels, strict=True)
        ]
        low = torch.zeros(sum(sizes), dtype=params.dtype, device=params.device)
        return {"t": 0, "projectors": [None] * len(shapes), "inner": inner.init(low)}

    def update(privatized: torch.Tensor, state: State) -> tuple[torch.Tensor, State]:
        import torch

        plan = required(layout, needs, name)
        shapes = projected_shapes(plan, rank)
        pieces = torch.split(privatized, list(plan.numels))
        matrices = [p if s is None else p.reshape(s) for p, s in zip(pieces, shapes, strict=True)]
        projectors = state["projectors"]
        if state["t"] % interval == 0:
            projectors = [
                None if s is None else find_projector(g, rank) for g, s in zip(matrices, shapes, strict=True)
            ]
        low = [g if q is None else project(g, q) for g, q in zip(matrices, projectors, strict=True)]
        direction, inner_state = inner.update(torch.cat([x.reshape(-1) for x in low]), state["inner"])
        back = []
        for d, x, q, s in zip(
            torch.split(direction, [x.numel() for x in low]), low, projectors, shapes, strict=True
        ):
            back.append(d if q is None or s is None else project_back(d.reshape(x.shape), q, s).reshape(-1))
        return torch.cat(back), {"t": state["t"] + 1, "projectors": projectors, "inner": inner_state}

    return PostProcessing(name, init, update, gain=None)  # Adam in the projected space


def compose(p: dict[str, Any], sigma: float, h: Hyper) -> Method:
    return chain(
        "dp-galore",
        per_sample_gradient(),
        gaussian_privatize(h.clip, sigma),
        galore(
            filtered_adam(adam_moment(p["beta1"]), p["beta2"], p["eps_adam"]),
            h.layout,
            p["rank"],
            p["update_interval"],
        ),
        Update(h.lr),
    )


DEFINITION = MethodDefinition(
    "dp-galore",
    "GaLore low-rank projection of the privatized gradient, Adam inside (Zhang et al. 2024, Alg. 3)",
    (RANK_PARAM, INTERVAL_PARAM, BETA1_PARAM, BETA2_PARAM, EPS_ADAM_PARAM),
    compose,
)
