"""Stage 2: the Gaussian release, the only stage that touches private data.

    ĝ_t = ( Σ_{i∈S_t} v_i · min(1, C_t / ‖v_i‖₂) + N(0, s_t² I) ) / L

with S_t the sampled batch, L the expected batch size q·n under Poisson sampling (the fixed batch size
under shuffling), C_t the clip bound and s_t the noise std. One sample changes the clipped sum by at
most C_t (add/remove adjacency), so the step is a subsampled Gaussian mechanism with noise multiplier
s_t / C_t. Clipping is Abadi's g·min(1, C/‖g‖), not "automatic" clipping g/(‖g‖ + γ).
"""

from __future__ import annotations

import torch

from dptune.methods.stages import Release


def gaussian_release(clip: float, noise_multiplier: float) -> Release:
    """Constant clip C and noise std σ·C (DP-SGD, Abadi et al. 2016, Alg. 1)."""
    return Release(
        f"gaussian_release(C={clip}, sigma={noise_multiplier})",
        clip=lambda t: clip,
        noise_std=lambda t: noise_multiplier * clip,
    )


def decreasing_clip_release(clip: float, noise_multiplier: float, decay_steps: int) -> Release:
    """Clip C_t = C / min(2, 1 + t/T_c) with the noise std kept at σ·C.

    Du et al., "Dynamic differential-privacy preserving SGD" (momentum and decreasing clip), eq. (6)
    and Alg. 1: the sensitivity halves linearly over T_c steps while the noise stays, so step t has
    noise multiplier σ·C/C_t = σ·min(2, 1 + t/T_c) and later steps cost less privacy.
    """

    def clip_at(t: int) -> float:
        return clip / min(2.0, 1.0 + t / decay_steps)

    return Release(
        f"decreasing_clip_release(C={clip}, sigma={noise_multiplier}, T_c={decay_steps})",
        clip=clip_at,
        noise_std=lambda t: noise_multiplier * clip,
    )


def gaussian_noise(like: torch.Tensor, noise_std: float, generator: torch.Generator) -> torch.Tensor:
    """N(0, noise_std² I) shaped, typed and placed like ``like``, drawn from ``generator``.

    The generator must live on ``like``'s device (a CUDA generator for CUDA tensors): the draw is made
    there directly, never on the CPU and copied.
    """
    return torch.normal(
        0.0, noise_std, size=like.shape, generator=generator, dtype=like.dtype, device=like.device
    )


def privatize(
    clipped: torch.Tensor,
    noise_std: float,
    expected_batch_size: float,
    generator: torch.Generator,
) -> torch.Tensor:
    """(clipped sum + N(0, noise_std² I)) / L."""
    return (clipped + gaussian_noise(clipped, noise_std, generator)) / expected_batch_size
