"""dpsgd-momentum: heavy-ball momentum c on the privatized gradient, clip bound C_t = C / min(2, 1 + t/T_c)
with the noise std kept at σC (Du et al., momentum and decreasing clip)."""

from __future__ import annotations

from typing import Any

from dptune.methods.definition import Hyper, MethodDefinition
from dptune.methods.momentum import heavy_ball
from dptune.methods.params import Param
from dptune.methods.privatize import decreasing_clip_privatize
from dptune.methods.shared_params import unit_interval
from dptune.methods.signal import per_sample_gradient
from dptune.methods.stages import Method, Update, chain


def compose(p: dict[str, Any], sigma: float, h: Hyper) -> Method:
    decay = p["clip_decay_steps"] or h.steps
    return chain(
        "dpsgd-momentum",
        per_sample_gradient(),
        decreasing_clip_privatize(h.clip, sigma, decay),
        heavy_ball(p["momentum"]),
        Update(h.lr),
    )


DEFINITION = MethodDefinition(
    "dpsgd-momentum",
    "DP-SGD with momentum c and a clip bound decreasing to C/2 (Du et al.)",
    (
        Param("momentum", "float", 0.6, unit_interval(False), "in [0, 1)", "momentum c"),
        Param(
            "clip_decay_steps",
            "int",
            None,
            lambda v: v >= 1,
            "an integer >= 1",
            "T_c: steps over which the clip halves (default: the whole run)",
            changes_noise=True,
        ),
    ),
    compose,
)
