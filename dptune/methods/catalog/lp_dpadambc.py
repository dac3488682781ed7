"""lp-dpadambc: DP-AdamBC with the DOPPLER low-pass filter as its first moment.

Zhang et al. 2024 (DOPPLER), Alg. 3 without GaLore and Table 3 (LP-DPAdamBC on GLUE): line 15's IIR
filter m_t = −Σ a_r m_{t−r} + Σ b_r ĝ_{t−r}, bias-corrected by its step response c_t (line 16–17), takes
the place of Adam's first moment; the second moment is DP-AdamBC's (Tang et al. 2024, Alg. 1), corrected
for the noise variance Φ = (σC/L)² with the floor γ′:

    direction_t = (m_t / c_t) / √max(v̂_t − Φ, γ′)

(``dp_adambc.noise_corrected_adam``; DOPPLER's printed Alg. 3 shows the uncorrected v̂ of LP-DPAdam).
"""

from __future__ import annotations

from typing import Any

from dptune.methods.catalog.dp_adambc import GAMMA_PARAM, noise_corrected_adam, noise_variance
from dptune.methods.definition import Hyper, MethodDefinition
from dptune.methods.privatize import gaussian_privatize
from dptune.methods.shared_params import BETA2_PARAM, coefficients, filter_params, resolve_filter
from dptune.methods.signal import per_sample_gradient
from dptune.methods.stages import Method, Update, chain


def compose(p: dict[str, Any], sigma: float, h: Hyper) -> Method:
    return chain(
        "lp-dpadambc",
        per_sample_gradient(),
        gaussian_privatize(h.clip, sigma),
        noise_corrected_adam(coefficients(p), p["beta2"], noise_variance(sigma, h), p["gamma"]),
        Update(h.lr),
    )


DEFINITION = MethodDefinition(
    "lp-dpadambc",
    "DP-AdamBC with the DOPPLER low-pass filter as first moment (Zhang et al. 2024, Table 3)",
    (*filter_params("doppler-first-order-v1"), BETA2_PARAM, GAMMA_PARAM),
    compose,
    resolve_filter,
)
