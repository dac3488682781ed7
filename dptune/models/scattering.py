"""ScatterNet features (Oyallon & Mallat 2015) as Tramèr & Boneh (ICLR 2021) use them for DP learning.

A 2-D scattering transform with J = 2 scales and L = 8 angles (Kymatio's ``Scattering2D``) maps each
channel of an image h×w to 1 + J·L + L²·J(J−1)/2 = 81 channels of (h/4)×(w/4): a fixed, data-independent
wavelet transform applied to each sample alone, so features cost no privacy. It has no trainable
parameters, so it is computed once per dataset (``dptune.engine.features``), never per step.
"""

from __future__ import annotations

import torch

SCALES = 2
ANGLES = 8
CHUNK = 1024
COEFFICIENTS = 1 + SCALES * ANGLES + ANGLES**2 * SCALES * (SCALES - 1) // 2
"""Scattering channels per image channel (81 for J = 2, L = 8)."""


def scattering_features(images: torch.Tensor) -> torch.Tensor:
    """``[n, c, h, w]`` images -> ``[n, 81c, h/4, w/4]`` scattering coefficients (float32), in chunks of
    ``CHUNK`` images. Kymatio's 2-D torch frontend is imported directly: ``kymatio.torch`` also imports
    its 3-D transform, which needs ``scipy.special.sph_harm`` (removed from SciPy)."""
    from kymatio.scattering2d.frontend.torch_frontend import ScatteringTorch2D

    n, c, h, w = images.shape
    transform = ScatteringTorch2D(J=SCALES, shape=(h, w), L=ANGLES)
    chunks = [transform(part.contiguous()) for part in torch.split(images, CHUNK)]
    coefficients = torch.cat(chunks) if chunks else torch.zeros(0, c, 1, h // 4, w // 4)
    return coefficients.reshape(n, -1, h // 2**SCALES, w // 2**SCALES).float().contiguous()


class ScatteringFeatures(torch.nn.Module):
    """The scattering transform as a module, images ``[n, c, h, w]`` -> ``scattering_features``: it puts
    the fixed transform in front of a released ScatterNet model, so that the model takes images."""

    def __init__(self, channels: int, height: int, width: int) -> None:
        from kymatio.scattering2d.frontend.torch_frontend import ScatteringTorch2D

        super().__init__()
        self.transform = ScatteringTorch2D(J=SCALES, shape=(height, width), L=ANGLES)
        self.out_shape = (channels * COEFFICIENTS, height // 2**SCALES, width // 2**SCALES)

    def forward(self, images: torch.Tensor) -> torch.Tensor:
        coefficients = self.transform(images.contiguous())
        return coefficients.reshape(images.shape[0], *self.out_shape).float()
