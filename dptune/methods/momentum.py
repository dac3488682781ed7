"""Heavy-ball momentum of privatized vectors (post-processing)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from dptune.methods.stages import PostProcessing, State

if TYPE_CHECKING:
    import torch


def heavy_ball(momentum: float) -> PostProcessing:
    """m_t = μ·m_{t−1} + d_t, direction m_t, with m_{−1} = 0 and no (1 − μ) normalisation.

    Used by dpsgd-momentum (Du et al., eq. (5), μ = c ≈ 0.6) and by InnerOuter's outer momentum
    (described in DP-PMLF §2 as accumulating noisy averages "without normalization").
    """

    def init(params: torch.Tensor) -> State:
        import torch

        return {"m": torch.zeros_like(params)}

    def update(direction: torch.Tensor, state: State) -> tuple[torch.Tensor, State]:
        m = momentum * state["m"] + direction
        return m, {"m": m}

    return PostProcessing(f"heavy_ball({momentum})", init, update, gain=1.0 / (1.0 - momentum))
