"""Parameters several methods share, and the checks their ranges use.

* the low-pass filter: a paper preset by name (or as a search drew it), or coefficients a and b,
  resolved once to validated coefficients (``resolve_filter``);
* per-sample momentum: k and β (DP-PMLF, InnerOuter);
* Adam: β₁, β₂ and ε (DP-AdamBC, LP-DPAdam, the GaLore variants).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from dptune.base.errors import InputError
from dptune.methods.filters import DrawnFilter, IIRCoefficients, make_filter, preset
from dptune.methods.params import Param


def unit_interval(closed_right: bool) -> Callable[[float], bool]:
    return (lambda v: 0.0 <= v <= 1.0) if closed_right else (lambda v: 0.0 <= v < 1.0)


def positive(v: float) -> bool:
    return v > 0


def nonnegative(v: float) -> bool:
    return v >= 0


def in_open_closed_unit(v: float) -> bool:
    return 0 < v <= 1


def filter_params(default: str) -> tuple[Param, ...]:
    """The filter, by preset name (or as a search drew it), or as coefficients a and b."""
    return (
        Param(
            "filter",
            "filter",
            default,
            lambda v: True,
            "a preset name",
            "paper filter by name",
            searchable=False,
        ),
        Param(
            "a",
            "floats",
            None,
            lambda v: True,
            "numbers a_1..a_na",
            "feedback coefficients",
            searchable=False,
        ),
        Param(
            "b", "floats", None, lambda v: len(v) >= 1, "numbers b_0..b_nb", "feedforward", searchable=False
        ),
    )


def resolve_filter(params: dict[str, Any], prefix: str) -> dict[str, Any]:
    """Replace ``filter``/``a``/``b`` by coefficients, validated here once (the only validation a run's
    filter gets): a drawn filter as it was validated when drawn, else a and b (they win over the
    preset), else the preset."""
    chosen, a, b = params["filter"], params["a"], params["b"]
    if isinstance(chosen, DrawnFilter):
        if not chosen.valid:
            raise InputError(f"{prefix}.filter", str(chosen.problem))
        return {**params, **chosen.as_params()}
    if a is None and b is None:
        coeffs = preset(chosen, f"{prefix}.filter")
        return {**params, "a": list(coeffs.a), "b": list(coeffs.b)}
    if b is None:
        raise InputError(f"{prefix}.b", "give b together with a (or a preset via filter=NAME)")
    coeffs = make_filter(a or (), b, f"{prefix}.a/b")
    return {**params, "filter": "custom", "a": list(coeffs.a), "b": list(coeffs.b)}


def coefficients(params: dict[str, Any]) -> IIRCoefficients:
    """The coefficients ``resolve_filter`` validated (composing a method, e.g. once per σ probe of the
    calibration, does not validate them again)."""
    return IIRCoefficients(tuple(params["a"]), tuple(params["b"]))


K_PARAM = Param("k", "int", 2, lambda v: v >= 1, "an integer >= 1", "per-sample momentum length")
BETA_PARAM = Param("beta", "float", 0.1, unit_interval(True), "in [0, 1]", "per-sample momentum weight")

BETA1_PARAM = Param("beta1", "float", 0.9, unit_interval(False), "in [0, 1)", "Adam β₁ (first moment)")
BETA2_PARAM = Param("beta2", "float", 0.999, lambda v: 0 <= v < 1, "in [0, 1)", "Adam β₂")
EPS_ADAM_PARAM = Param("eps_adam", "float", 1e-8, positive, "a number > 0", "Adam ε (floor of √v̂)")
