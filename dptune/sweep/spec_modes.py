"""A spec's mode: how a spec splits into sweeps, what each sweep left, and what releasing all of them costs.

A spec's mode (``spec_mode``) makes the sweeps a spec runs, each with its sweep's mode
(``dptune.sweep.modes``), and says what releasing all of them costs: ``PerRunSweeps`` (one sweep per
per-run ε target, each after its tuning proxy's where the spec has one; the accuracy-vs-ε curve composes
them) or ``TotalEpsilonSweeps`` (``privacy.includes_tuning``: every method's plan at every total, fixed
before the data is touched, then one pipeline sweep per total; every released model at every total
composes to ``all_releases``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from dptune.engine.data import train_size
from dptune.privacy.plan_privacy import curve_privacy
from dptune.privacy.plans import MethodPlan
from dptune.sweep.bound import SweepTuningCost, curve_cost
from dptune.sweep.disclosure import seed_disclosure
from dptune.sweep.modes import PerRunSweep, PipelineSweep, SweepMode
from dptune.sweep.pipeline import pipeline, planned, plans_at
from dptune.sweep.releases import ReleasedModel, release_json, release_lines
from dptune.sweep.results import TradeOff
from dptune.sweep.summary import format_plan
from dptune.sweep.sweep_spec import SweepSpec, unused_with_total


@dataclass(frozen=True)
class SweepOutcome:
    """What one sweep left: the selected configuration per method (``best``), its tracked run, its time and
    trials, every trial's last report with its method (``results``), its search bound's figures
    (``tuning_cost``; None for a sweep whose ε includes its tuning, whose figures are its plans', in
    ``record``: a search bound counts its release as one more tuning trial), the models it released, and
    its public privacy record."""

    best: list[TradeOff]
    parent_run_id: str
    wall_seconds: float
    trial_seconds: float
    trials: int
    results: list[dict[str, Any]]
    tuning_cost: SweepTuningCost | None
    releases: list[ReleasedModel] = field(default_factory=list)
    record: dict[str, Any] = field(default_factory=dict)


class SpecMode(ABC):
    """How a spec splits into sweeps, and what releasing all of them costs."""

    def __init__(self, spec: SweepSpec) -> None:
        self.spec = spec
        self.disclosure = seed_disclosure(spec.shared.seed)

    @abstractmethod
    def sweeps(self) -> list[SweepMode]:
        """The sweeps to run, in order, each with its mode."""

    def opening_lines(self) -> list[str]:
        """What the run says before its first sweep."""
        return []

    @abstractmethod
    def closing_lines(
        self,
        sweeps: Sequence[SweepMode],
        outcomes: Sequence[SweepOutcome],
        table: Callable[[list[TradeOff]], str],
    ) -> tuple[list[str], tuple[float, float] | None]:
        """What the run says after its last sweep, and the (ε, δ) of releasing every model of every total
        where the mode has one (None: it has none)."""

    def last_line(self, releases: Sequence[ReleasedModel], curve: tuple[float, float] | None) -> list[str]:
        """The run's last line(s), after the tracking hint: what a script reads."""
        return []

    def unreleased(self, outcome: SweepOutcome) -> dict[str, str]:
        """Methods whose result is a released model that a sweep did not release, each with why."""
        return {}


class PerRunSweeps(SpecMode):
    """One sweep per per-run ε target (each after its tuning proxy's); several ε: the curve of every
    method's selection across them and the basic composition of releasing all of it (``curve_cost``)."""

    def sweeps(self) -> list[SweepMode]:
        return [
            PerRunSweep(sweep) for i in range(len(self.spec.epsilons)) for sweep in self.spec.sweeps_at(i)
        ]

    def closing_lines(
        self,
        sweeps: Sequence[SweepMode],
        outcomes: Sequence[SweepOutcome],
        table: Callable[[list[TradeOff]], str],
    ) -> tuple[list[str], tuple[float, float] | None]:
        if len(self.spec.epsilons) == 1:
            return [], None
        full = [o for one, o in zip(sweeps, outcomes, strict=True) if one.spec.shared.proxy_fraction is None]
        rows = sorted((row for o in full for row in o.best), key=lambda r: (r.method, r.epsilon_target))
        pairs = zip(sweeps, outcomes, strict=True)
        costs = {one.spec.name: o.tuning_cost for one, o in pairs if o.tuning_cost is not None}  # per run
        epsilon, delta = curve_cost(costs)
        figure = seed_disclosure(self.spec.shared.seed).figure(
            f"ε ≤ {epsilon:.3f}, δ ≤ {delta:g} (basic composition of the sweeps on the same data)"
        )
        return [
            f"\naccuracy vs ε of {self.spec.name} ({', '.join(s.spec.name for s in sweeps)}):\n"
            + table(rows)
            + "\nreleasing the whole curve (every ε's sweep and each earlier sweep they read, once): "
            + figure
        ], None


class TotalEpsilonSweeps(SpecMode):
    """``privacy.includes_tuning``: the plan of every method at every total (``plans``, fixed before the
    data is touched), then one pipeline sweep per total (``SweepSpec.pipeline``); the closing lines name
    every released model, and where it releases several the (ε, δ) of releasing them all (with several
    totals ``curve_privacy``; at one, its sweep's record), which its last line's JSON carries too."""

    def __init__(self, spec: SweepSpec, plans: list[MethodPlan]) -> None:
        super().__init__(spec)
        self.plans = plans

    def sweeps(self) -> list[SweepMode]:
        spec, plans = self.spec, self.plans
        return [
            PipelineSweep(pipeline(spec, i, plans), plans_at(plans, total))
            for i, total in enumerate(spec.epsilons)
        ]

    def opening_lines(self) -> list[str]:
        return [
            f"plan of every released model, fixed before the data is touched ({self.disclosure.plan_note}):\n"
            + format_plan(self.plans, self.spec.release)
            + unused_with_total(self.spec)
        ]

    def closing_lines(
        self,
        sweeps: Sequence[SweepMode],
        outcomes: Sequence[SweepOutcome],
        table: Callable[[list[TradeOff]], str],
    ) -> tuple[list[str], tuple[float, float] | None]:
        released = [release for outcome in outcomes for release in outcome.releases]
        lines = ["\nreleased models, accuracy at each total ε (tuning included):", *release_lines(released)]
        for record in (o.record for o in outcomes):  # what each total's (ε, δ) covers, as its policy says
            total = record["total_epsilon"]
            mine = [r for r in released if r.total_epsilon == total]
            line = self.spec.release.covers_line(self.disclosure.total(total), mine, record, self.disclosure)
            lines += [line] if line is not None else []
        if len(sweeps) == 1:  # one total: releasing several models (one per method) is its record's figure
            (record,) = [o.record for o in outcomes]
            several = len(released) > 1
            figure = (record["epsilon_including_tuning"], record["delta"])
            return lines, self.disclosure.stated(figure) if several else None
        plans = [list(plans_at(self.plans, total).values()) for total in self.spec.epsilons]
        curve = curve_privacy(plans, [o.record for o in outcomes])
        lines.append(
            "releasing them all (every method at every total: the accuracy-vs-total-ε curve, as the last "
            "sweep's plot draws it): "
            + self.disclosure.figure(
                f"ε ≤ {curve[0]:.3f}, δ ≤ {curve[1]:g} (every total's pipeline on the same data, the "
                "pipelines composed; a pipeline that tunes on a subset draws its own)"
            )
        )
        return lines, self.disclosure.stated(curve)

    def last_line(self, releases: Sequence[ReleasedModel], curve: tuple[float, float] | None) -> list[str]:
        return [release_json(releases, curve)]

    def unreleased(self, outcome: SweepOutcome) -> dict[str, str]:
        """A pipeline's result is its released model: each method the release policy released none of,
        with why (``ReleasePolicy.unreleased``)."""
        released = {release.method for release in outcome.releases}
        return self.spec.release.unreleased(list(self.spec.methods), released, outcome.results)


def spec_mode(spec: SweepSpec, plans: list[MethodPlan] | None = None) -> SpecMode:
    """The mode of a spec: per-run ε targets, or a total ε that includes the tuning, whose ``plans`` (made
    here from the training set's size alone where not given: ``dptune.sweep.pipeline.planned``) are
    fixed before the data is touched."""
    if spec.includes_tuning is None:
        return PerRunSweeps(spec)
    if plans is None:
        shared = spec.shared
        n = train_size(shared.dataset, shared.data_root, shared.subset, shared.dataset_args)
        plans = planned(spec, n)
    assert plans is not None
    return TotalEpsilonSweeps(spec, plans)
