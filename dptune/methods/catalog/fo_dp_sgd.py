"""fo-dp-sgd: fractional-order memory DP-SGD (Partohaghighi & Marcia, Alg. 1).

σ is the paper's noise multiplier: its privatized sum is β·s_t + (1−β)·u + N(0, σ²C²), so the accountant sees
σ/β (the Gaussian privatization at σ/β followed by the memory as post-processing; see ``fractional``).
"""

from __future__ import annotations

from typing import Any

from dptune.methods.definition import Hyper, MethodDefinition
from dptune.methods.fractional import fractional_memory
from dptune.methods.params import Param
from dptune.methods.privatize import gaussian_privatize
from dptune.methods.shared_params import in_open_closed_unit, nonnegative, positive
from dptune.methods.signal import per_sample_gradient
from dptune.methods.stages import Method, Update, chain


def compose(p: dict[str, Any], sigma: float, h: Hyper) -> Method:
    beta = p["beta"]
    return chain(
        "fo-dp-sgd",
        per_sample_gradient(),
        gaussian_privatize(h.clip, sigma / beta),
        fractional_memory(
            beta,
            p["alpha"],
            p["memory"],
            p["lam"],
            p["tau"],
            p["gamma"],
            p["kappa"],
            p["zeta"],
            h.clip,
        ),
        Update(h.lr),
        info={"accountant_noise_multiplier": sigma / beta},
    )


DEFINITION = MethodDefinition(
    "fo-dp-sgd",
    "fractional-order memory DP-SGD (Partohaghighi & Marcia, Alg. 1)",
    (
        Param("beta", "float", 0.9, in_open_closed_unit, "in (0, 1]", "mixing β"),
        Param("alpha", "float", 0.8, in_open_closed_unit, "in (0, 1]", "fractional order α"),
        Param("memory", "int", 8, lambda v: v >= 1, "an integer >= 1", "memory window K"),
        Param("lam", "float", 0.1, nonnegative, "a number >= 0", "baseline tempering λ"),
        Param("tau", "float", 1.0, nonnegative, "a number >= 0", "inconsistency tempering τ"),
        Param("gamma", "float", 0.1, in_open_closed_unit, "in (0, 1]", "EMA coefficient γ"),
        Param("kappa", "float", 0.01, positive, "a number > 0", "minimum scale κ (units of C)"),
        Param("zeta", "float", 0.1, positive, "a number > 0", "confidence ζ (units of C)"),
    ),
    compose,
)
