"""dp-pmlf: per-sample momentum over the last k iterates (weights β^j / c_β), clipped once, then the IIR
low-pass filter (Xiao et al., DP-PMLF, Alg. 1)."""

from __future__ import annotations

from typing import Any

from dptune.methods.definition import Hyper, MethodDefinition
from dptune.methods.filters import iir_filter
from dptune.methods.privatize import gaussian_privatize
from dptune.methods.shared_params import (
    BETA_PARAM,
    K_PARAM,
    coefficients,
    filter_params,
    resolve_filter,
)
from dptune.methods.signal import per_sample_momentum
from dptune.methods.stages import Method, Update, chain


def compose(p: dict[str, Any], sigma: float, h: Hyper) -> Method:
    return chain(
        "dp-pmlf",
        per_sample_momentum(p["k"], p["beta"]),
        gaussian_privatize(h.clip, sigma),
        iir_filter(coefficients(p)),
        Update(h.lr),
    )


DEFINITION = MethodDefinition(
    "dp-pmlf",
    "per-sample momentum + low-pass filter (Xiao et al., DP-PMLF, Alg. 1)",
    (K_PARAM, BETA_PARAM, *filter_params("pmlf-a0.9-b0.1")),
    compose,
    resolve_filter,
)
