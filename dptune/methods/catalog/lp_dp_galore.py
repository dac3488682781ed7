"""lp-dp-galore: DP-GaLore with the DOPPLER low-pass filter as Adam's first moment in the projected space.

Zhang et al. 2024 (DOPPLER), Alg. 3 with "Use GaLore" (appendix C.2; Figure 4c, LP-DPGaLore): the
privatized gradient of each weight matrix is projected (``dp_galore.galore``), the IIR filter of line 15,
m_t = −Σ a_r m_{t−r} + Σ b_r G̃_{t−r}, bias-corrected by c_t (lines 16–17), is Adam's first moment there,
v̂_t the bias-corrected second moment of G̃ (lines 14, 18), d̃_t = m̂_t / max(√v̂_t, ε) (line 19), and
D_t = P d̃_t is projected back (line 21). The choices where the papers are silent (which tensors, conv
kernels, full rank, signs) are ``dp_galore``'s.
"""

from __future__ import annotations

from typing import Any

from dptune.methods.catalog.dp_galore import INTERVAL_PARAM, RANK_PARAM, galore
from dptune.methods.catalog.lp_dpadam import LP_ADAM_PARAMS, lp_adam
from dptune.methods.definition import Hyper, MethodDefinition
from dptune.methods.privatize import gaussian_privatize
from dptune.methods.shared_params import resolve_filter
from dptune.methods.signal import per_sample_gradient
from dptune.methods.stages import Method, Update, chain


def compose(p: dict[str, Any], sigma: float, h: Hyper) -> Method:
    return chain(
        "lp-dp-galore",
        per_sample_gradient(),
        gaussian_privatize(h.clip, sigma),
        galore(lp_adam(p), h.layout, p["rank"], p["update_interval"]),
        Update(h.lr),
    )


DEFINITION = MethodDefinition(
    "lp-dp-galore",
    "DP-GaLore with the DOPPLER low-pass filter as Adam's first moment (Zhang et al. 2024, Alg. 3)",
    (RANK_PARAM, INTERVAL_PARAM, *LP_ADAM_PARAMS),
    compose,
    resolve_filter,
)
