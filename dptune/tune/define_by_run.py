"""A method's search space as an Optuna define-by-run function, and the samplers by spec name.

Every sampled trial is valid by construction: knob draws lie in ranges the spec validator checked, and
filters come from families (``dptune.methods.filter_families``) that satisfy the constraints (unit DC
gain, poles inside the unit circle), except the raw family, whose invalid draws are marked infeasible
(Optuna constraint ``filter_valid`` > 0): the trial ends at once without training.

The function returns the drawn filter as one typed value (``DrawnFilter``, validated once, here) and the
fixed knobs as constants, which Ray's OptunaSearch merges into the trial config.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import optuna

from dptune.base.randomness import trial_seed
from dptune.sweep.space import FILTER_PREFIX, Dist, MethodSpace

FILTER_CONSTRAINT = "filter_valid"

SAMPLERS: dict[str, Callable[[int | None, int], optuna.samplers.BaseSampler]] = {
    "tpe": lambda seed, startup: optuna.samplers.TPESampler(seed=seed, n_startup_trials=startup),
    "random": lambda seed, startup: optuna.samplers.RandomSampler(seed=seed),
    "gp": lambda seed, startup: optuna.samplers.GPSampler(seed=seed, n_startup_trials=startup),
    "nsga2": lambda seed, startup: optuna.samplers.NSGAIISampler(seed=seed),
}
"""Sampler by spec name (``dptune.sweep.spec_keys.SAMPLERS``), from (seed, start-up trials); the start-up
count only matters to TPE and GP. A seed of None draws the sampler's state from OS entropy (numpy's
``RandomState(None)``: 128 bits through ``SeedSequence``), kept with the searcher's state in the Tune
experiment (private) for a resume."""


def suggest(trial: optuna.Trial, name: str, dist: Dist) -> Any:
    """Draw ``name`` from ``dist`` through an Optuna trial (fixed values are not drawn)."""
    if dist.kind == "fixed":
        return dist.args[0]
    if dist.kind == "choice":
        return trial.suggest_categorical(name, list(dist.args))
    lo, hi = dist.args
    if dist.kind == "int":
        return trial.suggest_int(name, lo, hi)
    return trial.suggest_float(name, lo, hi, log=dist.kind == "loguniform")


@dataclass(frozen=True)
class DefineByRun:
    """Optuna define-by-run function of a method's space (picklable, so searcher state checkpoints).

    ``seed`` (a seeded sweep's ``training.seed``, research mode) gives every trial its own ``seed`` knob,
    derived from the seed, the method and the trial's number (``dptune.base.randomness.trial_seed``) and
    logged with the trial; without it each trial draws secret randomness when it starts.
    """

    space: MethodSpace
    seed: int | None = None

    def __call__(self, trial: optuna.Trial) -> dict[str, Any]:
        space = self.space
        constants: dict[str, Any] = {name: d.args[0] for name, d in space.knobs.items() if d.fixed}
        if self.seed is not None:
            constants["seed"] = trial_seed(self.seed, space.method, trial.number)
        for name, dist in space.knobs.items():
            if not dist.fixed:
                suggest(trial, name, dist)
        if space.filter is not None:
            values = {n: suggest(trial, FILTER_PREFIX + n, d) for n, d in space.filter.params.items()}
            constants["filter"] = drawn = space.filter.draw(values)
            if space.filter.family.constrained:
                trial.set_constraint(FILTER_CONSTRAINT, 0.0 if drawn.valid else 1.0)
        return constants
