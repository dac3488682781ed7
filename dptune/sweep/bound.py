"""What a sweep's search costs in privacy, per method and in all (``dptune.privacy.tuning`` for the math).

Every bound is fixed before the search starts (docs/privacy.md): what the search sees can
change which trials run and for how long, never the figure that bounds them.

* The **worst run** W of a method's search: the RDP curve (per order, the maximum) of every full plan a
  trial of that search could be given. Only the knobs and parameters marked ``changes_noise`` change a
  run's noise schedule (a test checks this for every method), so the plans are enumerated over their
  values. For each, the
  schedule is taken at ``lowest_sigma``: every trial of that configuration is calibrated to a σ at least
  that large, whatever its other knobs (fo-dp-sgd's β only rescales σ), and the RDP curve decreases in σ.
* **composition** (no filter, any sampler or scheduler): every started trial, finished, stopped early,
  failed or lost, counts W. Summing what trials actually spent would be an odometer (ASHA stops trials
  by their scores; TPE and GP choose batch size and epochs from earlier scores), not an (ε, δ) bound.
* **repeat-and-select**: random search, a secret random trial count, no scheduler, no start points;
  Papernot & Steinke's transform of W. Releasing every trial instead composes K·W: that figure would
  reveal K, so it stays in the sweep's private state.
* **filter** (``privacy.total_epsilon``): a Rényi filter (``dptune.privacy.filter``) admits a trial only
  while everything admitted plus W fits the total; an ended trial keeps only the steps it took. Its
  guarantee, for the selected trial and for every trial alike, is the total.

Every bound also counts the R re-runs of the selected configuration (``selection.reruns``) at W each:
they are released (their final-test scores), so they compose with the search (a filter reserves them
before it admits a trial).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from dptune.base.randomness import secret_rng
from dptune.privacy.accounting import rdp_to_epsilon, spends_at_least
from dptune.privacy.amplification import amplified_by_subset
from dptune.privacy.calibration import NoiseSchedule, calibrate_noise
from dptune.privacy.filter import RenyiFilter
from dptune.privacy.history import HistoryEntry
from dptune.privacy.tuning import (
    COMPOSITION,
    REPEAT_AND_SELECT,
    TrialCount,
    choose_bound,
    repeat_and_select_curve,
    worst_curve,
)
from dptune.sweep.ledger import FINAL, PrivateSweepState, TrialRecord, committed
from dptune.sweep.space import MethodSpace, privacy_configurations
from dptune.training.calibrated_run import run_schedule
from dptune.training.config import RunConfig

FILTER = "filter"


LOWEST_WINDOW = 1e-3
"""How far above the target ``lowest_sigma`` lets its σ's ε lie (relative)."""


def lowest_sigma(
    target: float,
    delta: float,
    schedule: NoiseSchedule,
    accountant: str,
    start: float = 1.0,
    probe: NoiseSchedule | None = None,
) -> float:
    """A σ at most every calibrated σ: its ε is certified at least the target (ε decreases in σ, and a
    calibrated run spends at most it). The calibration aims at [target, (1 + ``LOWEST_WINDOW``)·target]
    from σ = ``start``, each probe decided on the accountant's bounds (their lower end at least the
    target), on ``probe`` where given (a cheaper schedule, equal to ``schedule`` up to rounding); the σ
    it finds is checked on ``schedule`` itself, on bounds too (``spends_at_least``)."""
    high = target * (1 + LOWEST_WINDOW)
    window = LOWEST_WINDOW / (1 + LOWEST_WINDOW)
    sigma = calibrate_noise(high, delta, probe or schedule, accountant, window, start).noise_multiplier
    while not spends_at_least(schedule(sigma), delta, accountant, target):
        sigma *= 0.999
    return sigma


def configuration_schedules(space: MethodSpace, run: RunConfig, n: int) -> list[NoiseSchedule]:
    """σ -> ledger of every privacy configuration ``space`` can draw over ``run``."""
    return [run_schedule(run.with_knobs(knobs), n).schedule for knobs in privacy_configurations(space)]


def configuration_ledgers(
    space: MethodSpace, run: RunConfig, n: int, delta: float
) -> list[list[HistoryEntry]]:
    """The worst ledger of every privacy configuration ``space`` can draw over ``run``."""
    return [
        list(schedule(lowest_sigma(run.epsilon, delta, schedule, run.accountant)))
        for schedule in configuration_schedules(space, run, n)
    ]


def worst_run(space: MethodSpace, run: RunConfig, n: int, delta: float) -> np.ndarray:
    """W: per RDP order, the largest curve of any full plan a trial of ``space`` could be given."""
    return worst_curve(configuration_ledgers(space, run, n, delta))


@dataclass(frozen=True)
class BoundedSearch:
    """A method's search, fixed before it starts: its trial count (K, secret when drawn at random),
    the bound it allows and the worst run W every one of its trials is dominated by."""

    method: str
    trials: int
    bound: str
    note: str
    worst: np.ndarray
    secret_count: bool


@dataclass(frozen=True)
class SearchSetup:
    """What a sweep's bound depends on, all of it fixed by the spec before the search starts: each
    method's search space and the run its trials start from, the trial count, the sampler and scheduler,
    whether a warm start seeds the search, the re-runs and a privacy filter's total
    (``SweepSpec.search_setup``)."""

    methods: Mapping[str, MethodSpace]
    runs: Mapping[str, RunConfig]
    trials: TrialCount
    sampler: str
    scheduler: str
    warm_started: bool
    reruns: int
    total_epsilon: float | None


def bounded_searches(
    setup: SearchSetup, n: int, delta: float, state: PrivateSweepState
) -> list[BoundedSearch]:
    """K, bound and W of every method; a random K is drawn from OS entropy once and kept in ``state``."""
    plans = []
    for method, space in setup.methods.items():
        if setup.total_epsilon is not None:
            bound, note = FILTER, f"privacy filter: the sweep's total ε = {setup.total_epsilon:g}"
        else:
            starts = bool(space.start) or setup.warm_started
            bound, note = choose_bound(setup.sampler, setup.scheduler, setup.trials, starts)
            if bound == COMPOSITION:
                note += "; every started trial counts its worst full plan"
        if setup.reruns:
            note += f"; + {setup.reruns} re-runs of the selected configuration"
        trials = state.trial_count(method, lambda: setup.trials.draw(secret_rng()))
        worst = worst_run(space, setup.runs[method], n, delta)
        plans.append(BoundedSearch(method, trials, bound, note, worst, setup.trials.random))
    return plans


def sweep_filter(setup: SearchSetup, plans: list[BoundedSearch], delta: float) -> RenyiFilter | None:
    """The filter of each method's search: the total's RDP budget split equally among the methods, held
    at the one order (chosen from the spec alone) where the most runs of every method's W fit."""
    if setup.total_epsilon is None:
        return None
    total = RenyiFilter.for_search(setup.total_epsilon, delta, np.sum([p.worst for p in plans], axis=0))
    return replace(total, share=1.0 / len(plans))


@dataclass(frozen=True)
class MethodTuningCost:
    """ε of a method's whole search: ``epsilon_including_tuning`` under ``bound``; ``epsilon_all_trials``
    bounds releasing every trial's result; ``committed`` is what the trials spent or hold (W each unless
    a filter got the unspent part back), from which the filter reads ``epsilon_used``."""

    method: str
    started: int
    bound: str
    note: str
    curve: np.ndarray
    all_trials_curve: np.ndarray
    committed: np.ndarray
    delta: float
    secret_count: bool
    filter: RenyiFilter | None

    @property
    def epsilon_including_tuning(self) -> float:
        return self.filter.epsilon if self.filter else rdp_to_epsilon(self.curve, self.delta)

    @property
    def epsilon_all_trials(self) -> float:
        return self.filter.epsilon if self.filter else rdp_to_epsilon(self.all_trials_curve, self.delta)

    def as_dict(self, private: bool = False) -> dict[str, Any]:
        """The method's row; unless ``private``, without what would reveal a secret trial count."""
        row: dict[str, Any] = {
            "method": self.method,
            "tuning_bound": self.bound,
            "note": self.note,
            "epsilon_including_tuning": self.epsilon_including_tuning,
            "delta": self.delta,
        }
        if private or not self.secret_count:
            row |= {"trials_started": self.started, "epsilon_all_trials": self.epsilon_all_trials}
        if self.filter:
            row["epsilon_used"] = self.filter.used(self.committed)
        return row


def method_tuning_cost(
    plan: BoundedSearch,
    records: list[TrialRecord],
    count: TrialCount,
    filter_: RenyiFilter | None,
    delta: float,
) -> MethodTuningCost:
    """The cost of one method's search and re-runs from the private record of every trial it started."""
    all_trials = len(records) * plan.worst
    held = committed(records, plan.worst)
    reruns = sum(r.role == FINAL for r in records)
    if plan.bound == REPEAT_AND_SELECT:
        # The theorem covers the K runs of the search; a run lost when a driver died (Tune ran another in
        # its place) is one more release on the same data, as is each re-run of the selection: they compose.
        lost = max(0, len(records) - reruns - plan.trials)
        curve = repeat_and_select_curve(plan.worst, count) + (lost + reruns) * plan.worst
    else:
        curve = all_trials
    return MethodTuningCost(
        plan.method,
        len(records),
        plan.bound,
        plan.note,
        curve,
        all_trials,
        held,
        delta,
        plan.secret_count,
        filter_,
    )


@dataclass(frozen=True)
class PriorSweep:
    """An earlier sweep whose results chose this sweep's first configurations (``search.warm_start``):
    its whole (ε, δ) adds to every figure of this one (basic composition)."""

    name: str
    epsilon: float
    delta: float


@dataclass(frozen=True)
class SweepTuningCost:
    """The whole sweep: every method's search on the same data composes (a filter: its total), and so
    does the earlier sweep a warm start read (``prior``). A tuning proxy's sweep (``proxy_fraction`` γ:
    every run on one secret Poisson subset) bounds its own part on the subset and releases it amplified
    to the whole data (``dptune.privacy.amplification``): ε → log(1 + γ(e^ε − 1)), δ → γδ."""

    methods: list[MethodTuningCost]
    delta: float
    filter: RenyiFilter | None
    prior: PriorSweep | None = None
    proxy_fraction: float | None = None

    def on_data(self, epsilon: float) -> float:
        """ε on the whole training data of a figure ``epsilon`` of this sweep's own runs (amplified for a
        proxy's subset; the earlier sweep's figure is not added here)."""
        if self.proxy_fraction is None:
            return epsilon
        return amplified_by_subset(epsilon, self.delta, self.proxy_fraction)[0]

    @property
    def own_delta(self) -> float:
        """δ of this sweep's own part on the whole data (γδ for a proxy)."""
        return self.delta * (self.proxy_fraction or 1.0)

    @property
    def epsilon_including_tuning(self) -> float:
        if self.filter:
            return self.on_data(self.filter.epsilon) + self.prior_epsilon
        curve = sum((c.curve for c in self.methods), np.zeros_like(self.methods[0].curve))
        return self.prior_epsilon + self.on_data(rdp_to_epsilon(curve, self.delta))

    @property
    def prior_epsilon(self) -> float:
        """ε of the earlier sweep a warm start read (0 without one)."""
        return self.prior.epsilon if self.prior else 0.0

    @property
    def delta_including_tuning(self) -> float:
        """δ of the figures: this sweep's own, plus the earlier sweep's under a warm start."""
        return self.own_delta + (self.prior.delta if self.prior else 0.0)

    @property
    def epsilon_all_trials(self) -> float:
        if self.filter:
            return self.on_data(self.filter.epsilon) + self.prior_epsilon
        curve = sum((c.all_trials_curve for c in self.methods), np.zeros_like(self.methods[0].curve))
        return self.prior_epsilon + self.on_data(rdp_to_epsilon(curve, self.delta))

    @property
    def secret_count(self) -> bool:
        return any(c.secret_count for c in self.methods)

    def as_dict(self, private: bool = False) -> dict[str, Any]:
        """The record of ``tuning_cost.json``; unless ``private``, nothing that reveals a secret K."""
        methods = [c.as_dict(private) for c in self.methods]
        if self.proxy_fraction is not None:
            for row in methods:  # each method's own figures, on the whole data
                for key in ("epsilon_including_tuning", "epsilon_all_trials"):
                    if key in row:
                        row[key] = self.on_data(row[key])
                row["delta"] = self.own_delta
        doc: dict[str, Any] = {
            "epsilon_including_tuning": self.epsilon_including_tuning,
            "delta": self.delta_including_tuning,
            "methods": methods,
        }
        if self.prior:
            doc["warm_start"] = {
                "sweep": self.prior.name,
                "epsilon": self.prior.epsilon,
                "delta": self.prior.delta,
            }
            for row in methods:  # each method's choice read the earlier sweep too
                for key in ("epsilon_including_tuning", "epsilon_all_trials"):
                    if key in row:
                        row[key] += self.prior.epsilon
                row["delta"] += self.prior.delta
        if private or not self.secret_count:
            doc["epsilon_all_trials"] = self.epsilon_all_trials
        if self.proxy_fraction is not None:
            doc["proxy_fraction"] = self.proxy_fraction
        if self.filter:
            held = sum((c.committed for c in self.methods), np.zeros_like(self.methods[0].curve))
            doc |= {
                "total_epsilon": self.filter.epsilon,
                "epsilon_used": self.filter.used(held),
                "filter_order": self.filter.order,
            }
        return doc


def curve_cost(sweeps: Mapping[str, SweepTuningCost]) -> tuple[float, float]:
    """(ε, δ) of releasing everything a list of sweeps on the same data released (``sweeps``: name ->
    figures), by basic composition: each sweep's own part (its figure less the earlier sweep it read)
    once, and each distinct earlier sweep outside the list once, its whole figure, however many of the
    list read it (``warm_start.sweep``) or reached it through ``previous_epsilon``. An earlier sweep that
    is itself in the list is its own part there. (Two earlier sweeps outside the list, one warm-started
    from the other, both count whole: the shared part twice, which only overstates.)"""
    own_epsilon = sum(c.epsilon_including_tuning - c.prior_epsilon for c in sweeps.values())
    own_delta = sum(c.own_delta for c in sweeps.values())
    outside = {c.prior.name: c.prior for c in sweeps.values() if c.prior and c.prior.name not in sweeps}
    return (
        own_epsilon + sum(p.epsilon for p in outside.values()),
        own_delta + sum(p.delta for p in outside.values()),
    )


def format_costs(cost: SweepTuningCost) -> str:
    """The console table of the search's privacy (nothing that reveals a secret trial count)."""
    summary = cost.as_dict()
    used = "ε used" if cost.filter else "ε all trials"
    lines = [f"{'method':<15} {'started':>7} {'ε incl. tuning':>15} {used:>13}  bound"]
    for row in summary["methods"]:
        started = str(row.get("trials_started", "secret"))
        figure = row.get("epsilon_used", row.get("epsilon_all_trials"))
        shown = f"{figure:.3f}" if figure is not None else "private"
        lines.append(
            f"{row['method']:<15} {started:>7} {row['epsilon_including_tuning']:>15.3f} {shown:>13}  "
            f"{row['note']}"
        )
    figure = summary.get("epsilon_used", summary.get("epsilon_all_trials"))
    shown = f"{figure:.3f}" if figure is not None else "private"
    whole = (
        f"a Rényi filter at order {cost.filter.order:g} holds every trial of every method within the total"
        if cost.filter
        else "every method's search composes"
    )
    lines.append(
        f"{'whole sweep':<15} {'':>7} {summary['epsilon_including_tuning']:>15.3f} {shown:>13}  "
        f"{whole} (δ={cost.delta_including_tuning:g})"
    )
    if cost.proxy_fraction is not None:
        lines.append(
            f"(a tuning proxy: every run trained on one secret Poisson subset keeping each sample with "
            f"probability {cost.proxy_fraction:g}; its figures are its bound on the subset, amplified to "
            "the whole data)"
        )
    if cost.prior:
        lines.append(
            f"(every figure adds ε = {cost.prior.epsilon:.3f}, δ = {cost.prior.delta:g} of sweep "
            f"{cost.prior.name}, whose results chose this sweep's first configurations)"
        )
    return "\n".join(lines)
