"""A method's search space as an Optuna define-by-run function, and its starting points.

Every sampled trial is valid by construction: knob draws lie in ranges the spec validator checked, and
filters come from families that satisfy the constraints (unit DC gain, poles inside the unit circle):

* ``preset``: a paper filter by name.
* ``first-order``: pole p, zero z: H(z) = K (1 − z·z⁻¹)/(1 − p·z⁻¹), K = (1 − p)/(1 − z), so
  a = (−p,), b = (K, −K·z).
* ``butterworth``: ``scipy.signal.butter(order, cutoff)`` (cutoff relative to Nyquist), unit DC gain.
* ``raw``: a_1..a_na and b_1..b_nb drawn, b_0 = 1 + Σa − Σ_{r≥1} b_r solved from the DC-gain
  constraint; a draw whose poles or bias correction are invalid is marked infeasible (Optuna
  constraint ``filter_valid`` > 0) and the trial ends at once without training.

The function returns the resolved coefficients (``a``, ``b``, ``filter``) as constants, which Ray's
OptunaSearch merges into the trial config: what the trial trains with is what gets logged.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy.signal import butter

from dptune.errors import InputError
from dptune.methods.filters import PRESETS, IIRCoefficients, validate_filter
from dptune.randomness import trial_seed
from dptune.spec import Dist, FilterSpace, MethodSpace

FILTER_PREFIX = "filter_"
SEED_KEY = "seed"
"""The trial config key of a seeded sweep's per-trial seed (absent in the default, secure mode)."""


def suggest(trial: Any, name: str, dist: Dist) -> Any:
    """Draw ``name`` from ``dist`` through an Optuna trial (fixed values are not drawn)."""
    if dist.kind == "fixed":
        return dist.args[0]
    if dist.kind == "choice":
        return trial.suggest_categorical(name, list(dist.args))
    lo, hi = dist.args
    if dist.kind == "int":
        return trial.suggest_int(name, lo, hi)
    return trial.suggest_float(name, lo, hi, log=dist.kind == "loguniform")


def first_order(pole: float, zero: float) -> IIRCoefficients:
    gain = (1.0 - pole) / (1.0 - zero)
    b = (gain,) if zero == 0 else (gain, -gain * zero)
    return IIRCoefficients((-pole,), b)


def butterworth(order: int, cutoff: float) -> IIRCoefficients:
    b, a = butter(order, cutoff)
    b = b / (np.sum(b) / np.sum(a))  # exact unit DC gain after rounding
    return IIRCoefficients(tuple(float(x) for x in a[1:]), tuple(float(x) for x in b))


def raw_filter(a: list[float], b_rest: list[float]) -> IIRCoefficients:
    b0 = 1.0 + sum(a) - sum(b_rest)
    return IIRCoefficients(tuple(a), (b0, *b_rest))


def filter_from_values(space: FilterSpace, values: dict[str, Any]) -> IIRCoefficients:
    """Coefficients of the family member named by the family parameters ``values``."""
    if space.family == "preset":
        return PRESETS[values["preset"]]
    if space.family == "first-order":
        return first_order(values["pole"], values["zero"])
    if space.family == "butterworth":
        return butterworth(values["order"], values["cutoff"])
    n_a, n_b = space.raw_sizes
    return raw_filter([values[f"a{i + 1}"] for i in range(n_a)], [values[f"b{i + 1}"] for i in range(n_b)])


def _filter_constants(space: FilterSpace, coeffs: IIRCoefficients, values: dict[str, Any]) -> dict:
    label = values["preset"] if space.family == "preset" else space.family
    return {"filter": label, "a": list(coeffs.a), "b": list(coeffs.b)}


@dataclass(frozen=True)
class DefineByRun:
    """Optuna define-by-run function of a method's space (picklable, so searcher state checkpoints).

    ``seed`` (a seeded sweep's ``training.seed``, research mode) gives every trial its own seed,
    derived from the seed, the method and the trial's number (``dptune.randomness.trial_seed``) and
    logged with the trial; without it each trial draws secret randomness when it starts.
    """

    space: MethodSpace
    seed: int | None = None

    def __call__(self, trial: Any) -> dict[str, Any]:
        space = self.space
        constants = {name: d.args[0] for name, d in space.knobs.items() if d.fixed}
        if self.seed is not None:
            constants[SEED_KEY] = trial_seed(self.seed, space.method, trial.number)
        for name, dist in space.knobs.items():
            if not dist.fixed:
                suggest(trial, name, dist)
        if space.filter is not None:
            values = {n: suggest(trial, FILTER_PREFIX + n, d) for n, d in space.filter.params.items()}
            coeffs = filter_from_values(space.filter, values)
            constants |= _filter_constants(space.filter, coeffs, values)
            try:
                validate_filter(coeffs.a, coeffs.b)
                constants["filter_valid"] = True
            except InputError as exc:
                constants["filter_valid"] = False
                constants["filter_error"] = exc.problem
            if space.filter.family == "raw":
                trial.set_constraint("filter_valid", 0.0 if constants["filter_valid"] else 1.0)
        return constants


def _family_values(space: FilterSpace, given: Any, path: str) -> dict[str, Any]:
    """Family parameters that reproduce a starting filter (``{preset: NAME}``, ``{a, b}`` or family
    parameters), or an ``InputError`` saying why the family cannot express it."""
    if not isinstance(given, dict):
        raise InputError(path, "must be {preset: NAME}, {a: [...], b: [...]} or the family's parameters")
    if set(given) <= set(space.params):
        return dict(given)
    if "preset" in given:
        if given["preset"] not in PRESETS:
            raise InputError(f"{path}.preset", f"unknown preset; valid: {', '.join(PRESETS)}")
        coeffs = PRESETS[given["preset"]]
    elif set(given) <= {"a", "b"}:
        coeffs = IIRCoefficients(tuple(given.get("a", [])), tuple(given.get("b", [])))
    else:
        raise InputError(path, f"keys {sorted(given)} fit neither the {space.family} family nor a preset")
    if space.family == "preset":
        match = [name for name, c in PRESETS.items() if c == coeffs]
        if not match:
            raise InputError(path, "is not one of the presets this space searches")
        return {"preset": given.get("preset", match[0])}
    if space.family == "first-order" and len(coeffs.a) == 1 and 1 <= len(coeffs.b) <= 2:
        zero = -coeffs.b[1] / coeffs.b[0] if len(coeffs.b) == 2 else 0.0
        return {"pole": -coeffs.a[0], "zero": zero}
    if space.family == "raw" and (len(coeffs.a), len(coeffs.b) - 1) == space.raw_sizes:
        values = {f"a{i + 1}": v for i, v in enumerate(coeffs.a)}
        return values | {f"b{i + 1}": v for i, v in enumerate(coeffs.b[1:])}
    raise InputError(path, f"cannot be expressed in the {space.family} family of this space")


def start_point(space: MethodSpace, given: dict[str, Any], path: str) -> dict[str, Any]:
    """A spec starting point as Optuna parameter values (for ``points_to_evaluate``).

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
                raise InputError(
                    f"{path}.filter",
                    f"needs {name} = {value:g}, outside its space {dist.kind} {list(dist.args)}",
                )
            if not dist.fixed:
                point[FILTER_PREFIX + name] = value
    return point
