"""dpsgd: DP-SGD (Abadi et al. 2016, Alg. 1): per-sample gradients, clip C, noise σC, no post-processing."""

from __future__ import annotations

from typing import Any

from dptune.methods.definition import Hyper, MethodDefinition
from dptune.methods.privatize import gaussian_privatize
from dptune.methods.signal import per_sample_gradient
from dptune.methods.stages import Method, Update, chain


def compose(p: dict[str, Any], sigma: float, h: Hyper) -> Method:
    return chain("dpsgd", per_sample_gradient(), gaussian_privatize(h.clip, sigma), Update(h.lr))


DEFINITION = MethodDefinition("dpsgd", "DP-SGD (Abadi et al. 2016)", (), compose)
