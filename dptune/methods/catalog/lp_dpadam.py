"""lp-dpadam: DP-Adam with the DOPPLER filter as first moment and the second moment of the raw release
(Zhang et al. 2024, Alg. 3 without GaLore; ``filters.filtered_adam``)."""

from __future__ import annotations

from typing import Any

from dptune.methods.definition import Hyper, MethodDefinition
from dptune.methods.filters import filtered_adam
from dptune.methods.release import gaussian_release
from dptune.methods.shared_params import (
    BETA2_PARAM,
    EPS_ADAM_PARAM,
    coefficients,
    filter_params,
    resolve_filter,
)
from dptune.methods.signal import per_sample_gradient
from dptune.methods.stages import Method, Update, chain


def compose(p: dict[str, Any], sigma: float, h: Hyper) -> Method:
    return chain(
        "lp-dpadam",
        per_sample_gradient(),
        gaussian_release(h.clip, sigma),
        filtered_adam(coefficients(p), p["beta2"], p["eps_adam"]),
        Update(h.lr),
    )


DEFINITION = MethodDefinition(
    "lp-dpadam",
    "DP-Adam with the DOPPLER low-pass filter as first moment (Zhang et al. 2024)",
    (*filter_params("doppler-first-order-v1"), BETA2_PARAM, EPS_ADAM_PARAM),
    compose,
    resolve_filter,
)
