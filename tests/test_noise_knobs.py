"""Which knobs change the noise a run gets: every method's declared parameters against real runs.

A sweep's bound enumerates the knobs that can change a run's calibrated ledger (``Param.changes_noise``,
declared in ``RunConfig``'s table and the method registry) to find the worst plan a trial could be
given. A parameter that changes the ledger without saying so would make that bound silently wrong.
For every method and every knob a spec can search or parameter the method has (all read from the
registries, none listed here), two real runs that differ only in that value are trained and their
accountants' histories (the (z_t, q, steps) each run actually spent) compared: they differ exactly
when the value is declared noise-changing.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import pytest

from dptune.base.errors import InputError
from dptune.engine.dataset import Dataset
from dptune.methods import METHODS
from dptune.methods.filters import PRESETS
from dptune.methods.params import Param
from dptune.training.config import KNOB_OPTIONS, SEARCHABLE_KNOBS, RunConfig
from dptune.training.train import Trainer

pytestmark = pytest.mark.in_process  # starts no Ray, server or browser: `make test` runs it beside others

BASE = {"epsilon": 1.0, "dataset": "digits", "model": "mlp", "delta": 1e-4, "epochs": 1}
BASE |= {"batch_size": 50, "lr": 0.05, "physical_batch_size": 50, "seed": 0}
CALIBRATION_TOLERANCE = 0.02
"""Calibration stops within 1% of the target ε: two calibrations of equal ledgers agree to this."""


def cases() -> list[tuple[str, Param]]:
    return [
        (method, param)
        for method, definition in METHODS.items()
        for param in (*SEARCHABLE_KNOBS.values(), *definition.params)
    ]


def other_value(param: Param, base: Any) -> dict[str, Any]:
    """The knob changes of a second valid value of ``param`` (a filter: another paper filter)."""
    if param.kind in ("filter", "floats"):
        current = PRESETS[str(base)] if param.kind == "filter" else None
        name = next(n for n, c in PRESETS.items() if c != current and len(c.a) == 1)
        if param.kind == "filter":
            return {param.name: name}
        return PRESETS[name].as_dict()
    if param.name in KNOB_OPTIONS:  # a choice: another that this run takes (trains: bias, on an mlp)
        return {param.name: next(v for v in KNOB_OPTIONS[param.name] if v != base and takes(param.name, v))}
    if param.kind == "str":  # the model: another that fits 8×8 digits
        return {param.name: next(v for v in ("vit", "mlp") if v != base)}
    start = base if base is not None else 1
    candidates = [start + 1, 2 * start, 2, 3] if param.kind == "int" else [start / 2, start * 0.9, 0.5, 0.25]
    value = next(v for v in candidates if v != base and param.check(v))
    return {param.name: value}


def takes(name: str, value: Any) -> bool:
    """Whether the base run takes ``value`` of the knob ``name``."""
    try:
        RunConfig(method="dpsgd", **(BASE | {name: value}))
    except InputError:
        return False
    return True


def same_schedule(a: list[tuple[float, float, int]], b: list[tuple[float, float, int]]) -> bool:
    """Equal (q, steps) entries whose noise multipliers agree within the calibration's tolerance."""
    return len(a) == len(b) and all(
        qa == qb and na == nb and math.isclose(za, zb, rel_tol=CALIBRATION_TOLERANCE)
        for (za, qa, na), (zb, qb, nb) in zip(a, b, strict=True)
    )


def spent(run: RunConfig, data: Dataset) -> list[tuple[float, float, int]]:
    trainer = Trainer(run, data)
    trainer.fit()
    return trainer.accountant.history


@pytest.fixture(scope="module")
def small(digits: Dataset) -> Dataset:
    return replace(digits, train_x=digits.train_x[:200], train_y=digits.train_y[:200])


@pytest.mark.parametrize(("method", "param"), cases(), ids=lambda case: getattr(case, "name", case))
def test_declared_noise_parameters_are_exactly_those_that_change_the_ledger(
    small: Dataset, method: str, param: Param
) -> None:
    run = RunConfig(method=method, **BASE)
    base = run.method_params.get(param.name, getattr(run, param.name, None))
    changed = run.with_knobs(other_value(param, base))
    assert changed != run
    differs = not same_schedule(spent(run, small), spent(changed, small))
    assert differs == param.changes_noise, (
        f"{method}: {param.name} {'changes' if differs else 'does not change'} the ledger a run spends, "
        f"but it is declared changes_noise={param.changes_noise}"
    )
