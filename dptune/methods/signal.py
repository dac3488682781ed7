"""Stage 1: per-sample signals, the vectors that the privatize stage clips.

* ``per_sample_gradient``: v_i = ∇f_i(x_t) (Abadi et al. 2016).
* ``per_sample_momentum``: DP-PMLF (Xiao et al.), Alg. 1 line 5:

      v_i = Σ_{j=0}^{k−1} (β^j / c_β) ∇f_i(x_{t−j}),    c_β = Σ_{j=0}^{k−1} β^j,

  the gradient of the *same* sample i at the current and the k−1 previous iterates. Before k iterates
  exist, the sum runs over the J < k that do and c_β is renormalised over them. The combined v_i is
  clipped once, so the sensitivity stays C (clipping each snapshot separately and summing, as one
  public implementation did, has sensitivity k·C).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dptune.methods.stages import PerSampleSignal

if TYPE_CHECKING:
    import torch


def momentum_weights(beta: float, count: int) -> torch.Tensor:
    """(β^0, β^1, …, β^{count−1}) / Σ_j β^j, newest iterate first."""
    import torch

    powers = torch.tensor([beta**j for j in range(count)], dtype=torch.float64)
    return (powers / powers.sum()).to(torch.float32)


def per_sample_momentum(k: int, beta: float) -> PerSampleSignal:
    """Per-sample momentum over the last k iterates with geometric weights β^j / c_β."""
    return PerSampleSignal(
        f"per_sample_momentum(k={k}, beta={beta})", k, lambda count: momentum_weights(beta, count)
    )


def _current_iterate_only(count: int) -> torch.Tensor:
    """The weight (1,) of the current iterate alone."""
    import torch

    return torch.ones(1)


def per_sample_gradient() -> PerSampleSignal:
    """The plain per-sample gradient at the current iterate."""
    return PerSampleSignal("per_sample_gradient", 1, _current_iterate_only)
