"""innerouter: per-sample (inner) momentum, then unnormalised heavy-ball outer momentum (described in
DP-PMLF §2; the outer momentum 0.9 is our assumption: the papers give none)."""

from __future__ import annotations

from typing import Any

from dptune.methods.definition import Hyper, MethodDefinition
from dptune.methods.momentum import heavy_ball
from dptune.methods.params import Param
from dptune.methods.privatize import gaussian_privatize
from dptune.methods.shared_params import BETA_PARAM, K_PARAM, unit_interval
from dptune.methods.signal import per_sample_momentum
from dptune.methods.stages import Method, Update, chain


def compose(p: dict[str, Any], sigma: float, h: Hyper) -> Method:
    return chain(
        "innerouter",
        per_sample_momentum(p["k"], p["beta"]),
        gaussian_privatize(h.clip, sigma),
        heavy_ball(p["outer_momentum"]),
        Update(h.lr),
    )


DEFINITION = MethodDefinition(
    "innerouter",
    "per-sample (inner) momentum + unnormalised heavy-ball outer momentum",
    (
        K_PARAM,
        BETA_PARAM,
        Param(
            "outer_momentum",
            "float",
            0.9,
            unit_interval(False),
            "in [0, 1)",
            "outer heavy-ball momentum (assumed 0.9: the papers give none)",
        ),
    ),
    compose,
)
