"""A method's search space: knob distributions, a filter family, start points, and the privacy
configurations a sweep's bound enumerates. No Optuna here: ``dptune.tune.define_by_run`` draws from it.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from dptune.base.errors import InputError
from dptune.methods.filter_families import FilterFamily, Shape
from dptune.methods.filters import DrawnFilter, IIRCoefficients, preset
from dptune.training.config import noise_knobs

FILTER_PREFIX = "filter_"
"""Trial config names of a filter family's drawn parameters (``filter_pole``, ``filter_a1``, …)."""

MAX_CONFIGURATIONS = 256

TUNED_AT = "tuned_at"
"""A start point's key for the per-run ε its values were tuned for (e.g. a published setting's)."""
KEEP_START = "keep_start"
"""A method's key: its selection keeps the best start point unless a trial beats it clearly
(``MethodSpace.keep_start``)."""


@dataclass(frozen=True)
class Dist:
    """A searched (or fixed) value: kind in ``uniform, loguniform, int, choice, fixed``."""

    kind: str
    args: tuple[Any, ...]

    @property
    def fixed(self) -> bool:
        return self.kind == "fixed"

    def contains(self, value: Any) -> bool:
        if self.kind == "fixed":
            return bool(value == self.args[0])
        if self.kind == "choice":
            return value in self.args
        return isinstance(value, int | float) and self.args[0] <= value <= self.args[1]

    def values(self) -> list[Any]:
        """Every value a draw can take (``int``, ``choice`` and ``fixed`` only)."""
        if self.kind == "int":
            return list(range(self.args[0], self.args[1] + 1))
        return list(self.args)


@dataclass(frozen=True)
class FilterSpace:
    """Distributions of a filter family's parameters (``dptune.methods.filter_families``)."""

    family: FilterFamily
    params: dict[str, Dist]
    shape: Shape = (0, 0)

    def draw(self, values: dict[str, Any]) -> DrawnFilter:
        return self.family.draw(values, self.shape)


@dataclass(frozen=True)
class MethodSpace:
    method: str
    knobs: dict[str, Dist]
    filter: FilterSpace | None
    start: tuple[dict[str, Any], ...]
    keep_start: bool = False
    """Whether the selection keeps the best start point unless a trial beats it by more than the
    validation's noise, grown with the number of trials it is compared with
    (``dptune.training.trial_status.select_keeping_start``)."""


def privacy_configurations(space: MethodSpace) -> list[dict[str, Any]]:
    """Every combination of noise-changing knob values the search can draw for ``space``.

    Only these knobs change a run's noise schedule (declared in ``RunConfig``'s table and the method
    registry, checked against real runs by ``tests/test_noise_knobs.py``), so the bounds of a sweep
    enumerate them to find the worst full plan any trial could be given; ``InputError`` where there are
    too many.
    """
    axes = [
        [(knob, value) for value in space.knobs[knob].values()]
        for knob in noise_knobs(space.method)
        if knob in space.knobs
    ]
    total = int(np.prod([len(axis) for axis in axes])) if axes else 1
    if total > MAX_CONFIGURATIONS:
        knobs = ", ".join(axis[0][0] for axis in axes)
        raise InputError(
            f"methods.{space.method}",
            f"the sweep's privacy bound enumerates every value of {knobs} ({total} combinations, at most "
            f"{MAX_CONFIGURATIONS}); draw them from a short {{choice: [...]}} or fix them",
        )
    return [dict(combo) for combo in itertools.product(*axes)]


def _family_values(space: FilterSpace, given: Any, path: str) -> dict[str, Any]:
    """Family parameters that reproduce a starting filter (``{preset: NAME}``, ``{a, b}`` or family
    parameters), or an ``InputError`` saying why the family cannot express it."""
    if not isinstance(given, dict):
        raise InputError(path, "must be {preset: NAME}, {a: [...], b: [...]} or the family's parameters")
    if set(given) <= set(space.params):
        return dict(given)
    name = given.get("preset")
    if name is not None:
        coeffs = preset(name, f"{path}.preset")
    elif set(given) <= {"a", "b"}:
        coeffs = IIRCoefficients(tuple(given.get("a", [])), tuple(given.get("b", [])))
    else:
        raise InputError(
            path, f"keys {sorted(given)} fit neither the {space.family.name} family nor a preset"
        )
    values = space.family.invert(coeffs, space.shape, name)
    if values is None:
        raise InputError(path, f"cannot be expressed in the {space.family.name} family of this space")
    return values


def step_knob(point: Mapping[str, Any]) -> str | None:
    """The knob that sets a start point's step: ``effective_lr`` where it gives one, else ``lr``."""
    return next((k for k in ("effective_lr", "lr") if k in point), None)


def carried_start(point: Mapping[str, Any], epsilon: float) -> dict[str, Any]:
    """A start point stated at the per-run ε₀ it was tuned for (``tuned_at``) as a start at ``epsilon``:

        η → η·ε/ε₀  (``lr`` or ``effective_lr``), every other value as it is

    the linear scaling rule (Panda, Tang, Mahloujifar, Sehwag & Mittal, ICML 2024): the best r = η·T
    grows linearly with ε, here at the point's epochs T. A point without ``tuned_at`` is returned as it
    is; the result has none (carrying it again changes nothing)."""
    if TUNED_AT not in point:
        return dict(point)
    carried = {k: v for k, v in point.items() if k != TUNED_AT}
    step = step_knob(carried)
    assert step is not None, "a start point's tuned_at is checked to come with its step (method_space)"
    carried[step] = carried[step] * epsilon / point[TUNED_AT]
    return carried


def carried_start_point(space: MethodSpace, index: int, epsilon: float) -> dict[str, Any]:
    """The ``index``-th start point of ``space`` carried to ``epsilon`` (``carried_start``), checked
    against the space (``start_point``): an ``InputError`` names ``tuned_at`` when only the carry takes
    it outside."""
    path = f"methods.{space.method}.start[{index}]"
    given = space.start[index]
    carried = carried_start(given, epsilon)
    try:
        start_point(space, carried, path)
    except InputError as exc:
        if TUNED_AT not in given:
            raise
        knob = exc.field.removeprefix(f"{path}.")
        raise InputError(
            f"{path}.{TUNED_AT}",
            f"carried from ε {given[TUNED_AT]:g} to ε {epsilon:g}, {knob} {exc.problem}: widen the space or "
            "drop tuned_at",
        ) from None
    return carried


def searched_names(space: MethodSpace) -> set[str]:
    """The names of every value the search draws for ``space`` (its parameter names: a filter's with
    ``FILTER_PREFIX``): what a start point must give to be a whole configuration."""
    knobs = {name for name, dist in space.knobs.items() if not dist.fixed}
    params = space.filter.params.items() if space.filter is not None else ()
    return knobs | {FILTER_PREFIX + name for name, dist in params if not dist.fixed}


def start_points(space: MethodSpace) -> list[dict[str, Any]]:
    """Every start point of ``space`` as the search's parameter values (``start_point``), in order."""
    return [start_point(space, p, f"methods.{space.method}.start[{i}]") for i, p in enumerate(space.start)]


def start_point(space: MethodSpace, given: dict[str, Any], path: str) -> dict[str, Any]:
    """A spec starting point as the search's parameter values (``points_to_evaluate``).

    Raises ``InputError`` if a value lies outside its distribution or contradicts a fixed knob.
    """
    point: dict[str, Any] = {}
    for name, value in given.items():
        if name == "filter":
            continue
        if name not in space.knobs:
            raise InputError(f"{path}.{name}", "is not searched in this method's space; add it there")
        dist = space.knobs[name]
        if not dist.contains(value):
            raise InputError(
                f"{path}.{name}", f"{value!r} lies outside its space {dist.kind} {list(dist.args)}"
            )
        if not dist.fixed:
            point[name] = value
    if "filter" in given:
        if space.filter is None:
            raise InputError(f"{path}.filter", "the space has no filter to start from")
        values = _family_values(space.filter, given["filter"], f"{path}.filter")
        for name, value in values.items():
            dist = space.filter.params[name]
            if not dist.contains(value) and not (
                dist.kind in ("uniform", "loguniform") and np.isclose(value, dist.args).any()
            ):
                shown = f"{value:g}" if isinstance(value, float) else str(value)
                raise InputError(
                    f"{path}.filter",
                    f"needs {name} = {shown}, outside its space {dist.kind} {list(dist.args)}",
                )
            if not dist.fixed:
                point[FILTER_PREFIX + name] = value
    return point
