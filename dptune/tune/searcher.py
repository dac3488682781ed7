"""A Tune searcher wrapper that counts every trial before it runs and, with a filter, admits only what fits.

``AccountedSearcher`` sits between the sweep's searcher (``dptune.tune.sweep_searcher``, its search step)
and the Optuna searcher of one method:

* every suggested trial is written to the sweep's private state (``dptune.sweep.ledger``) *before*
  Tune receives it, so a trial that touched the data is counted even if the driver dies before Tune or
  MLflow recorded it;
* with a Rényi filter (``privacy.total_epsilon``, ``dptune.privacy.filter``) a trial is admitted only
  while the committed work (what ended trials spent, plus the worst full plan W of each running or
  unaccounted trial) plus one more W fits the method's budget. A trial that ends gives back the part of
  W it did not spend (early-stopped by ASHA, or an infeasible filter draw that never trained); a failed
  trial keeps W. When nothing is running and one more W does not fit, the search is finished.

The selected configuration's re-runs (``selection.reruns``) are reserved from the start: a trial is
admitted only while the re-runs still fit after it.

A trial that the scheduler stopped early reaches Optuna as *pruned*, with the validation scores it
reported per epoch (Ray's OptunaSearch marks a trial pruned when it ends without a score and without an
error): a model-based sampler then ranks it by how far it got, instead of taking its early score for a
finished trial's. How far is counted on ASHA's clock (``dptune.tune.schedulers.asha``): each score's step is
the share of its plan the trial had trained, in epochs of the method's longest plan (a 10-epoch trial's
epochs are steps 4, 8, … in a space of up to 40), so a short plan stopped late is not ranked below a
long one stopped early. A trial that Tune restarted from its last checkpoint reports again the epochs
after it, whose steps Optuna already holds (and would ignore, with a warning): they are not passed on.

Each trial reserves W, not its own plan: the check then happens before Optuna proposes the trial (no
proposal is drawn and thrown away, no σ is calibrated in Tune's control loop), and it is valid because
every plan the search can draw is dominated by W at every order. The price is at the very end of the
budget, where a trial whose own plan would still fit is not started. Validity: Feldman & Zrnic 2021,
Thm. 3.1, per epoch of every trial (each epoch's RDP is fixed before it runs; ``dptune.privacy.filter``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from ray.tune.result import TRAINING_ITERATION
from ray.tune.search import Searcher

from dptune.privacy.accounting import RDP_ORDERS, rdp_curve
from dptune.privacy.filter import RenyiFilter
from dptune.sweep.ledger import FINAL, PrivateSweepState, committed
from dptune.training.calibrated_run import spent_ledger
from dptune.training.config import RunConfig
from dptune.training.trial_status import PLAN_SHARE, TrialStatus


@dataclass(frozen=True)
class SpentCurve:
    """RDP curve of the steps an ended trial took, from its config, its σ and its step count."""

    run: RunConfig
    train_size: int

    def __call__(self, config: dict[str, Any], result: dict[str, Any]) -> np.ndarray | None:
        status = TrialStatus.of_ended(result)
        if status is TrialStatus.INFEASIBLE:
            return np.zeros(len(RDP_ORDERS))  # an infeasible filter draw never touched the data
        if status is TrialStatus.FAILED:
            return None  # it diverged: like any failed trial, it counts its whole plan
        if "steps" not in result or "noise_multiplier" not in result:
            return None  # ended before its first report: it counts its whole plan
        run = self.run.with_knobs(config)
        steps = int(result["steps"])
        return rdp_curve(spent_ledger(run, self.train_size, float(result["noise_multiplier"]), steps))


class AccountedSearcher(Searcher):
    """Wraps ``searcher``: write-ahead trial records, and a privacy filter when ``filter_`` is given;
    scores reach it at steps on ASHA's clock, in epochs of the ``longest`` plan."""

    def __init__(
        self,
        searcher: Searcher,
        state: PrivateSweepState,
        method: str,
        worst: np.ndarray,
        filter_: RenyiFilter | None,
        spent: SpentCurve,
        longest: int,
        reruns: int = 0,
    ) -> None:
        super().__init__(metric=searcher.metric, mode=searcher.mode)
        self.searcher = searcher
        self.state = state
        self.method = method
        self.worst = worst
        self.filter = filter_
        self.spent = spent
        self.longest = longest
        self.reruns = reruns
        self._live: dict[str, dict[str, Any]] = {}  # trials suggested by this driver and not yet ended
        self._reported: dict[str, int] = {}  # each trial's last step passed on (``_passed_on``)

    def set_search_properties(self, metric: str | None, mode: str | None, config: dict, **spec: Any) -> bool:
        return self.searcher.set_search_properties(metric, mode, config, **spec)

    def _held(self, reserved_less: int = 0) -> np.ndarray:
        """What the method holds of the filter's budget: its trials, and the re-runs reserved (less
        ``reserved_less`` of them)."""
        records = self.state.trials(self.method)
        unplanned = max(0, self.reruns - sum(r.role == FINAL for r in records) - reserved_less)
        return committed(records, self.worst) + unplanned * self.worst

    def admits_rerun(self) -> bool:
        """Whether one more re-run of the selected configuration fits the method's share of the filter
        (always, without a filter): its W beside what the method's trials hold and the re-runs still
        reserved after it. The reserved ones always fit; one more than ``reruns`` (a re-run written
        ahead and lost with a killed driver, replaced on resume) only while the budget has room."""
        return self.filter is None or self.filter.admits(self._held(reserved_less=1), self.worst)

    def suggest(self, trial_id: str) -> dict | str | None:
        if self.filter is not None and not self.filter.admits(self._held(), self.worst):
            return Searcher.FINISHED if not self._live else None  # wait for running trials to give back
        config = self.searcher.suggest(trial_id)
        if isinstance(config, dict):
            self.state.start(self.method, trial_id)
            self._live[trial_id] = config
        return config

    def on_trial_result(self, trial_id: str, result: dict) -> None:
        clocked = self._on_plan_clock(result)
        if self._passed_on(trial_id, clocked):
            self.searcher.on_trial_result(trial_id, clocked)

    def _passed_on(self, trial_id: str, result: dict) -> bool:
        """Whether ``result`` is past the trial's last step passed on (and note it): not an epoch that a
        trial restarted from its checkpoint reports again."""
        step = result.get(TRAINING_ITERATION)
        if step is None:
            return True
        if step <= self._reported.get(trial_id, -1):
            return False
        self._reported[trial_id] = step
        return True

    def _on_plan_clock(self, result: dict) -> dict:
        """``result`` whose step (``training_iteration``, what Optuna's report takes) is its share of the
        trial's plan in epochs of the longest plan: ``round(share · longest)``, distinct for every epoch
        (a plan is at most the longest)."""
        if PLAN_SHARE not in result:
            return result
        return {**result, TRAINING_ITERATION: round(result[PLAN_SHARE] * self.longest)}

    def on_trial_complete(self, trial_id: str, result: dict | None = None, error: bool = False) -> None:
        status = TrialStatus.of_ended(result) if result is not None and not error else None
        if result is not None and status is TrialStatus.STOPPED:
            # Tune passes the result that stopped it here, not to on_trial_result
            clocked = self._on_plan_clock(result)
            if self._passed_on(trial_id, clocked):
                self.searcher.on_trial_result(trial_id, clocked)
            self.searcher.on_trial_complete(trial_id, result=None, error=False)  # pruned
        else:
            self.searcher.on_trial_complete(
                trial_id, result=result, error=error or status is TrialStatus.FAILED
            )
        config = self._live.pop(trial_id, None) or (result or {}).get("config")
        self._reported.pop(trial_id, None)
        spent = None
        if self.filter is not None and not error and config is not None:
            spent = self.spent(config, result or {})
        self.state.end(self.method, trial_id, spent)

    def save(self, checkpoint_path: str) -> None:
        """Optuna's study and trials (the base searcher's own save): the records are in the private state,
        written ahead of every trial."""
        self.searcher.save(checkpoint_path)

    def restore(self, checkpoint_path: str) -> None:
        self.searcher.restore(checkpoint_path)
        self._live = {}  # a restored experiment's running trials were suggested by an earlier driver
        self._reported = {}
