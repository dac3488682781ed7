"""lp-dpadam: DP-Adam with the DOPPLER filter as first moment and the second moment of the raw privatized
gradient (Zhang et al. 2024, Alg. 3 without GaLore; ``filters.filtered_adam``)."""

from __future__ import annotations

from typing import Any

from dptune.methods.definition import Hyper, MethodDefinition
from dptune.methods.filters import filtered_adam
from dptune.methods.privatize import gaussian_privatize
from dptune.methods.shared_params import (
    BETA2_PARAM,
    EPS_ADAM_PARAM,
    coefficients,
    filter_params,
    resolve_filter,
)
from dptune.methods.signal import per_sample_gradient
from dptune.methods.stages import Method, PostProcessing, Update, chain

LP_ADAM_PARAMS = (*filter_params("doppler-first-order-v1"), BETA2_PARAM, EPS_ADAM_PARAM)
"""The knobs of DOPPLER's filtered Adam: the filter's, Adam's β₂ and ε (lp-dp-galore's too)."""


def lp_adam(p: dict[str, Any]) -> PostProcessing:
    """DOPPLER's Adam (Alg. 3, lines 14–19): the IIR filter of the privatized gradient, bias-corrected by
    c_t, as the first moment; v̂_t of the raw privatized gradient as the second (``filtered_adam``)."""
    return filtered_adam(coefficients(p), p["beta2"], p["eps_adam"])


def compose(p: dict[str, Any], sigma: float, h: Hyper) -> Method:
    privatize = gaussian_privatize(h.clip, sigma)
    return chain("lp-dpadam", per_sample_gradient(), privatize, lp_adam(p), Update(h.lr))


DEFINITION = MethodDefinition(
    "lp-dpadam",
    "DP-Adam with the DOPPLER low-pass filter as first moment (Zhang et al. 2024)",
    LP_ADAM_PARAMS,
    compose,
    resolve_filter,
)
