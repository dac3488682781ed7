"""Early stopping in a sweep's one Tune run: ASHA per method, on the clock of each trial's own plan;
re-runs are never stopped."""

from __future__ import annotations

from typing import Any

from ray.tune.experiment import Trial
from ray.tune.schedulers import ASHAScheduler, FIFOScheduler, TrialScheduler

from dptune.training.trial_status import PLAN_SHARE, route


def asha(grace_period: int, shortest: int, longest: int) -> ASHAScheduler:
    """ASHA (Li et al. 2020) whose clock is the share of its own plan each trial has trained
    (``PLAN_SHARE``, epoch / epochs), on the scale of the method's longest plan: rungs at
    ``grace_period``·2^k epochs of a ``longest``-epoch trial are the same shares of every trial's plan,
    and the first rung waits until every plan has trained an epoch (at least 1/``shortest``).

    At a fixed ε the number of epochs sets the noise: a trial planned for 40 epochs runs each step with
    more noise than one planned for 10, and it is ahead of it only late. Counted in epochs, ASHA compared
    the two at the same epoch and stopped the long plans first (Tramèr & Boneh's 40-epoch setting was
    stopped at epoch 2 of the Fashion-MNIST proxy). A trial meets a rung at its first report at or past
    it, so a rung below one epoch of the shortest plan would still compare a 10-epoch trial after its
    1st epoch (a tenth of its plan) with a 40-epoch trial after its 2nd (a twentieth): with epochs of
    10–40 and ``grace_period: 2`` the rungs are 0.1, 0.2, 0.4, 0.8 of each plan, met exactly by plans of
    10, 20 and 40 epochs. Where the epochs are not searched, the rungs are those of an epoch clock.
    """
    return ASHAScheduler(
        time_attr=PLAN_SHARE,
        max_t=1.0,  # type: ignore[arg-type]  # ASHA takes any number on a float clock; Ray annotates int
        grace_period=max(grace_period / longest, 1 / shortest),  # type: ignore[arg-type]
        reduction_factor=2,
    )


class PerMethodScheduler(FIFOScheduler):
    """Hands each search trial to its method's scheduler (``schedulers``; FIFO for a method without
    one), so a trial is only ever compared with trials of its own method; re-runs run to their end.
    Trials start in the order they were added (FIFO)."""

    def __init__(self, schedulers: dict[str, TrialScheduler]) -> None:
        super().__init__()
        self.schedulers = schedulers

    def _of(self, trial: Trial) -> TrialScheduler | None:
        whose = route(trial.config)
        return None if whose.rerun else self.schedulers.get(whose.method)

    def set_search_properties(self, metric: str | None, mode: str | None, **spec: Any) -> bool:
        own = super().set_search_properties(metric, mode, **spec)
        return all([own, *(s.set_search_properties(metric, mode, **spec) for s in self.schedulers.values())])

    def on_trial_add(self, tune_controller: Any, trial: Trial) -> None:
        if scheduler := self._of(trial):
            scheduler.on_trial_add(tune_controller, trial)

    def on_trial_error(self, tune_controller: Any, trial: Trial) -> None:
        if scheduler := self._of(trial):
            scheduler.on_trial_error(tune_controller, trial)

    def on_trial_result(self, tune_controller: Any, trial: Trial, result: dict) -> str:
        if scheduler := self._of(trial):
            return scheduler.on_trial_result(tune_controller, trial, result)
        return TrialScheduler.CONTINUE

    def on_trial_complete(self, tune_controller: Any, trial: Trial, result: dict) -> None:
        if scheduler := self._of(trial):
            scheduler.on_trial_complete(tune_controller, trial, result)

    def on_trial_remove(self, tune_controller: Any, trial: Trial) -> None:
        if scheduler := self._of(trial):
            scheduler.on_trial_remove(tune_controller, trial)

    def debug_string(self) -> str:
        own = [f"{method}: {scheduler.debug_string()}" for method, scheduler in self.schedulers.items()]
        return "; ".join(own) or super().debug_string()
