"""lp-dpsgd: DP-SGD with the DOPPLER IIR low-pass filter (a, b) and its bias correction on the privatized
gradient (Zhang et al. 2024, Alg. 2)."""

from __future__ import annotations

from typing import Any

from dptune.methods.definition import Hyper, MethodDefinition
from dptune.methods.filters import iir_filter
from dptune.methods.privatize import gaussian_privatize
from dptune.methods.shared_params import coefficients, filter_params, resolve_filter
from dptune.methods.signal import per_sample_gradient
from dptune.methods.stages import Method, Update, chain


def compose(p: dict[str, Any], sigma: float, h: Hyper) -> Method:
    return chain(
        "lp-dpsgd",
        per_sample_gradient(),
        gaussian_privatize(h.clip, sigma),
        iir_filter(coefficients(p)),
        Update(h.lr),
    )


DEFINITION = MethodDefinition(
    "lp-dpsgd",
    "DP-SGD with the DOPPLER low-pass filter (Zhang et al. 2024, Alg. 2)",
    filter_params("doppler-first-order-v1"),
    compose,
    resolve_filter,
)
