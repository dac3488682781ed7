"""Families of IIR filters a search draws from: one registry, name -> parameters, build, invert.

A spec searches a method's filter through one family (``sweeps/filter-search.yaml``); the family's
parameters get distributions, a trial draws values, the family builds the coefficients and the draw
is validated once (``filters.drawn``) and travels as a ``DrawnFilter``:

* ``preset``: a paper filter by name (``filters.PRESETS``).
* ``first-order``: pole p, zero z: H(z) = K (1 − z·z⁻¹)/(1 − p·z⁻¹), K = (1 − p)/(1 − z) (unit DC gain),
  so a = (−p,), b = (K, −K·z). Stable and positive by construction for p ∈ [0, 1), z ∈ [−1, 1).
* ``butterworth``: ``scipy.signal.butter(order, cutoff)`` (cutoff relative to Nyquist), b rescaled to
  exact unit DC gain.
* ``raw``: a_1..a_na and b_1..b_nb drawn, b_0 = 1 + Σa − Σ_{r≥1} b_r solved from −Σa + Σb = 1; its poles
  and bias correction are not valid by construction, so a draw can be infeasible (``constrained``).

Adding a family is one entry of ``FAMILIES``: spec parsing, the search, start points and the docs of
``dptune validate`` read it from here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from dptune.base.errors import InputError
from dptune.methods.filters import PRESETS, DrawnFilter, IIRCoefficients, drawn
from dptune.methods.params import Param

Shape = tuple[int, int]
"""(n_a, n_b) of a raw family's drawn coefficients (b_0 solved); (0, 0) for the other families."""

Layout = dict[str, tuple[Any, str]]
"""A family's parameters as a spec gives them: name -> (YAML value, YAML path)."""


@dataclass(frozen=True)
class FilterFamily:
    """One family: its parameters (for a given shape), build, invert, and how a spec lays them out.
    Every field is a module-level function, so a family pickles into Tune's searcher state.

    Attributes:
        name: the spec's ``family:`` value.
        params: shape -> the family's parameters by name.
        build: (parameter values, shape) -> coefficients.
        invert: (coefficients, shape, preset name or None) -> parameter values reproducing them, or None
            where the family cannot express them (start points).
        read: (spec section without ``family``, YAML path) -> (layout, shape); None: the spec's keys are
            the parameter names, defaults fill the optional ones.
        constrained: draws may be invalid (Optuna is told through a constraint).
        label: parameter values -> the drawn filter's name; None: the family's name.
    """

    name: str
    params: Callable[[Shape], dict[str, Param]]
    build: Callable[[Mapping[str, Any], Shape], IIRCoefficients]
    invert: Callable[[IIRCoefficients, Shape, str | None], dict[str, Any] | None]
    read: Callable[[dict[str, Any], str], tuple[Layout, Shape]] | None = None
    constrained: bool = False
    label: Callable[[Mapping[str, Any]], str] | None = None

    def layout(self, section: dict[str, Any], path: str) -> tuple[Layout, Shape]:
        """The family's parameters as the spec section gives them; ``InputError`` on keys the family does
        not know or on a missing required parameter."""
        if self.read is not None:
            return self.read(section, path)
        known = self.params((0, 0))
        _unknown_keys(section, tuple(known), path)
        layout = {}
        for name, param in known.items():
            if name not in section and param.default is None:
                raise InputError(f"{path}.{name}", f"required for the {self.name} family ({param.valid})")
            layout[name] = (section.get(name, param.default), f"{path}.{name}")
        return layout, (0, 0)

    def draw(self, values: Mapping[str, Any], shape: Shape) -> DrawnFilter:
        """The filter named by ``values``, validated once."""
        label = self.label(values) if self.label is not None else self.name
        return drawn(label, self.build(values, shape))


def _unknown_keys(section: Mapping[str, Any], allowed: tuple[str, ...], path: str) -> None:
    for key in section:
        if key not in allowed:
            raise InputError(f"{path}.{key}", f"unknown key; valid keys here: {', '.join(allowed)}")


PRESET = "preset"
PRESET_PARAMS = {
    "preset": Param(
        "preset", "str", None, lambda v: v in PRESETS, f"one of {', '.join(PRESETS)}", "a paper filter"
    )
}


def _preset_params(shape: Shape) -> dict[str, Param]:
    return PRESET_PARAMS


def _build_preset(values: Mapping[str, Any], shape: Shape) -> IIRCoefficients:
    return PRESETS[values["preset"]]


def _preset_name(values: Mapping[str, Any]) -> str:
    return str(values["preset"])


def _invert_preset(coeffs: IIRCoefficients, shape: Shape, name: str | None) -> dict[str, Any] | None:
    if name is not None:
        return {"preset": name}
    match = [preset for preset, c in PRESETS.items() if c == coeffs]
    return {"preset": match[0]} if match else None


FIRST_ORDER_PARAMS = {
    "pole": Param("pole", "float", None, lambda v: 0 <= v < 1, "in [0, 1) (a low-pass pole)", "pole p"),
    "zero": Param("zero", "float", 0.0, lambda v: -1 <= v < 1, "in [-1, 1)", "zero z"),
}


def first_order(pole: float, zero: float) -> IIRCoefficients:
    """a = (−p,), b = (K, −K·z) with K = (1 − p)/(1 − z) (b = (K,) when z = 0)."""
    gain = (1.0 - pole) / (1.0 - zero)
    b = (gain,) if zero == 0 else (gain, -gain * zero)
    return IIRCoefficients((-pole,), b)


def _first_order_params(shape: Shape) -> dict[str, Param]:
    return FIRST_ORDER_PARAMS


def _build_first_order(values: Mapping[str, Any], shape: Shape) -> IIRCoefficients:
    return first_order(values["pole"], values["zero"])


def _invert_first_order(coeffs: IIRCoefficients, shape: Shape, name: str | None) -> dict[str, Any] | None:
    if len(coeffs.a) != 1 or not 1 <= len(coeffs.b) <= 2:
        return None
    zero = -coeffs.b[1] / coeffs.b[0] if len(coeffs.b) == 2 else 0.0
    return {"pole": -coeffs.a[0], "zero": zero}


BUTTERWORTH_PARAMS = {
    "order": Param("order", "int", None, lambda v: 1 <= v <= 6, "an integer in [1, 6]", "order"),
    "cutoff": Param("cutoff", "float", None, lambda v: 0 < v < 1, "in (0, 1)", "cutoff / Nyquist"),
}


def butterworth(order: int, cutoff: float) -> IIRCoefficients:
    """``scipy.signal.butter(order, cutoff)`` with b scaled so that −Σa + Σb = 1 exactly."""
    from scipy.signal import butter

    b, a = butter(order, cutoff)
    b = b / (np.sum(b) / np.sum(a))
    return IIRCoefficients(tuple(float(x) for x in a[1:]), tuple(float(x) for x in b))


def _butterworth_params(shape: Shape) -> dict[str, Param]:
    return BUTTERWORTH_PARAMS


def _build_butterworth(values: Mapping[str, Any], shape: Shape) -> IIRCoefficients:
    return butterworth(values["order"], values["cutoff"])


def _no_inverse(coeffs: IIRCoefficients, shape: Shape, name: str | None) -> dict[str, Any] | None:
    return None


COEFFICIENT = Param("coefficient", "float", None, lambda v: -4 <= v <= 4, "in [-4, 4]", "coefficient")


def _raw_params(shape: Shape) -> dict[str, Param]:
    n_a, n_b = shape
    names = [f"a{i + 1}" for i in range(n_a)] + [f"b{i + 1}" for i in range(n_b)]
    return {name: COEFFICIENT for name in names}


def _read_raw(section: dict[str, Any], path: str) -> tuple[Layout, Shape]:
    _unknown_keys(section, ("a", "b"), path)
    a_list, b_list = section.get("a", []), section.get("b", [])
    for key, items in (("a", a_list), ("b", b_list)):
        if not isinstance(items, list):
            raise InputError(f"{path}.{key}", "must be a list of values or distributions")
    if not a_list and not b_list:
        raise InputError(path, "the raw family needs at least one coefficient in a or b")
    layout = {f"a{i + 1}": (d, f"{path}.a[{i}]") for i, d in enumerate(a_list)}
    layout |= {f"b{i + 1}": (d, f"{path}.b[{i}]") for i, d in enumerate(b_list)}
    return layout, (len(a_list), len(b_list))


def raw_filter(a: list[float], b_rest: list[float]) -> IIRCoefficients:
    """b_0 = 1 + Σa − Σ_{r≥1} b_r: the coefficients with unit DC gain."""
    b0 = 1.0 + sum(a) - sum(b_rest)
    return IIRCoefficients(tuple(a), (b0, *b_rest))


def _build_raw(values: Mapping[str, Any], shape: Shape) -> IIRCoefficients:
    n_a, n_b = shape
    return raw_filter([values[f"a{i + 1}"] for i in range(n_a)], [values[f"b{i + 1}"] for i in range(n_b)])


def _invert_raw(coeffs: IIRCoefficients, shape: Shape, name: str | None) -> dict[str, Any] | None:
    if (len(coeffs.a), len(coeffs.b) - 1) != shape:
        return None
    values = {f"a{i + 1}": v for i, v in enumerate(coeffs.a)}
    return values | {f"b{i + 1}": v for i, v in enumerate(coeffs.b[1:])}


FAMILIES: dict[str, FilterFamily] = {
    family.name: family
    for family in (
        FilterFamily(PRESET, _preset_params, _build_preset, _invert_preset, label=_preset_name),
        FilterFamily("first-order", _first_order_params, _build_first_order, _invert_first_order),
        FilterFamily("butterworth", _butterworth_params, _build_butterworth, _no_inverse),
        FilterFamily("raw", _raw_params, _build_raw, _invert_raw, read=_read_raw, constrained=True),
    )
}


def get_family(name: Any, field: str) -> FilterFamily:
    """The named family; ``InputError`` listing the valid names otherwise."""
    if name not in FAMILIES:
        raise InputError(field, f"must be one of {', '.join(FAMILIES)}, got {name!r}")
    return FAMILIES[name]
