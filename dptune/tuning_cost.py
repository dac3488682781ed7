"""What a sweep's search costs in privacy, per method and in all (``dptune.privacy.tuning`` for the math).

* repeat-and-select: random search, random trial count, no scheduler, no start points. Q's RDP curve is
  bounded by the worst run Q can draw. Only ``spec.PRIVACY_KNOBS`` change a run's noise schedule (a test
  checks this for every method), so the runs are enumerated over those knobs' values. For each, the
  schedule is taken at ``lowest_sigma``: every trial of that configuration is calibrated to a σ at
  least that large, whatever its other knobs (fo-dp-sgd's β only rescales σ), and the RDP curve
  decreases in σ.
* composition: every trial's own ledger, the steps it took (a failed trial counts its whole plan; an
  infeasible filter draw touched no data).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from dptune.privacy.accounting import HistoryEntry, epsilon_of, rdp_to_epsilon, truncate
from dptune.privacy.calibration import NoiseSchedule, calibrate_noise
from dptune.privacy.tuning import (
    REPEAT_AND_SELECT,
    TrialCount,
    choose_bound,
    composition_curve,
    repeat_and_select_curve,
)
from dptune.spec import MethodSpace, SweepSpec, privacy_configurations
from dptune.train import plan_run
from trainables import TrialSettings, train_config


def lowest_sigma(target: float, delta: float, schedule: NoiseSchedule, accountant: str) -> float:
    """A σ at most every calibrated σ: its ε is at least the target (ε decreases in σ)."""
    sigma = calibrate_noise(target, delta, schedule, accountant, rel_tol=1e-3).noise_multiplier
    while epsilon_of(schedule(sigma), delta, accountant) < target:
        sigma *= 0.999
    return sigma


def configuration_ledgers(
    space: MethodSpace, settings: TrialSettings, n: int, delta: float
) -> list[list[HistoryEntry]]:
    """The worst ledger of every privacy configuration ``space`` can draw."""
    ledgers = []
    for knobs in privacy_configurations(space):
        config = train_config(settings, knobs)
        plan = plan_run(config, config.check(), n, delta)
        sigma = lowest_sigma(settings.epsilon, delta, plan.schedule, settings.accountant)
        ledgers.append(list(plan.schedule(sigma)))
    return ledgers


def trial_ledger(
    settings: TrialSettings,
    config: dict[str, Any],
    metrics: dict[str, Any],
    failed: bool,
    n: int,
    delta: float,
) -> list[HistoryEntry]:
    """The steps a finished trial took; a failed trial's whole plan; nothing for an infeasible draw."""
    if config.get("filter_valid") is False:
        return []
    run = train_config(settings, config)
    plan = plan_run(run, run.check(), n, delta)
    if failed or "steps" not in metrics:
        return plan.ledger
    return truncate(plan.ledger, int(metrics["steps"]))


@dataclass(frozen=True)
class MethodTuningCost:
    """ε of a method's whole search: ``epsilon_including_tuning`` under ``bound``; ``epsilon_all_trials``
    bounds releasing every trial's result (composition)."""

    method: str
    trials: int
    bound: str
    note: str
    curve: np.ndarray
    all_trials_curve: np.ndarray
    delta: float

    @property
    def epsilon_including_tuning(self) -> float:
        return rdp_to_epsilon(self.curve, self.delta)

    @property
    def epsilon_all_trials(self) -> float:
        return rdp_to_epsilon(self.all_trials_curve, self.delta)

    def as_dict(self) -> dict[str, Any]:
        return {
            "method": self.method,
            "trials": self.trials,
            "tuning_bound": self.bound,
            "note": self.note,
            "epsilon_including_tuning": self.epsilon_including_tuning,
            "epsilon_all_trials": self.epsilon_all_trials,
            "delta": self.delta,
        }


@dataclass(frozen=True)
class SearchPlan:
    """A method's trial count K (drawn once from the search seed) and the bound its search allows."""

    method: str
    trials: int
    bound: str
    note: str


def plan_search(spec: SweepSpec) -> list[SearchPlan]:
    """K and the bound of every method (a repeat-and-select space was checked enumerable by the spec)."""
    plans = []
    for index, (method, space) in enumerate(spec.methods.items()):
        bound, note = choose_bound(spec.sampler, spec.scheduler, spec.trials, bool(space.start))
        plans.append(SearchPlan(method, spec.trials.draw(spec.seed, index), bound, note))
    return plans


def method_tuning_cost(
    plan: SearchPlan,
    count: TrialCount,
    space: MethodSpace,
    settings: TrialSettings,
    trials: list[tuple[dict[str, Any], dict[str, Any], bool]],
    n: int,
    delta: float,
) -> MethodTuningCost:
    """The cost of one method's search from its trials ``(config, last metrics, failed)``."""
    all_trials = composition_curve([trial_ledger(settings, c, m, f, n, delta) for c, m, f in trials])
    if plan.bound == REPEAT_AND_SELECT:
        curve = repeat_and_select_curve(configuration_ledgers(space, settings, n, delta), count)
    else:
        curve = all_trials
    return MethodTuningCost(plan.method, len(trials), plan.bound, plan.note, curve, all_trials, delta)


def sweep_tuning_cost(costs: list[MethodTuningCost], delta: float) -> dict[str, Any]:
    """The whole sweep: every method's search on the same data composes."""
    curve = sum((c.curve for c in costs), np.zeros_like(costs[0].curve))
    all_trials = sum((c.all_trials_curve for c in costs), np.zeros_like(costs[0].curve))
    return {
        "epsilon_including_tuning": rdp_to_epsilon(curve, delta),
        "epsilon_all_trials": rdp_to_epsilon(all_trials, delta),
        "delta": delta,
        "methods": [c.as_dict() for c in costs],
    }


def format_costs(summary: dict[str, Any]) -> str:
    lines = [f"{'method':<15} {'trials':>6} {'ε incl. tuning':>15} {'ε all trials':>13}  bound"]
    for row in summary["methods"]:
        lines.append(
            f"{row['method']:<15} {row['trials']:>6} {row['epsilon_including_tuning']:>15.3f} "
            f"{row['epsilon_all_trials']:>13.3f}  {row['note']}"
        )
    lines.append(
        f"{'whole sweep':<15} {'':>6} {summary['epsilon_including_tuning']:>15.3f} "
        f"{summary['epsilon_all_trials']:>13.3f}  every method's search composes (δ={summary['delta']:g})"
    )
    return "\n".join(lines)
