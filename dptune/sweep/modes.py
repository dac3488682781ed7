"""A sweep's privacy mode: how it counts what it runs, what it releases and what it says about both.

A mode is chosen once from the spec, and the driver (``dptune.tune.driver``) asks it, never which mode
it is; a new mode is a new class. Two levels:

* a **spec's mode** (``spec_mode``) makes the sweeps a spec runs and says what releasing all of them
  costs: ``PerRunSweeps`` (one sweep per per-run ε target, each after its tuning proxy's where the spec
  has one; the accuracy-vs-ε curve composes them) or ``TotalEpsilonSweeps`` (``privacy.includes_tuning``:
  every method's plan at every total, fixed before the data is touched, then one pipeline sweep per
  total; every released model at every total composes to ``all_releases``);
* a **sweep's mode** (``SpecMode.sweeps`` gives each sweep its own) counts one sweep and releases its
  models: ``PerRunSweep`` (each trial at the per-run ε; the search bound, composition, repeat-and-select
  or a privacy filter as ``dptune.sweep.bound`` chose it before the search, counts the search and every
  re-run of its selection, each re-run a released model) or ``PipelineSweep`` (the plan's stages count
  the tuning trials and the one release of each method's selection, the released model).
What a mode states of its privacy its ``disclosure`` decides (a seeded sweep's: no (ε, δ)).
"""

from __future__ import annotations

import functools
import json
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from dptune.engine.data import train_size
from dptune.engine.dataset import Dataset
from dptune.privacy.filter import RenyiFilter
from dptune.privacy.plan_privacy import Ran, curve_privacy, plan_record, pools, what_ran
from dptune.privacy.plans import MethodPlan
from dptune.sweep.bound import SweepTuningCost, curve_cost
from dptune.sweep.disclosure import seed_disclosure
from dptune.sweep.held_out import Baseline
from dptune.sweep.pipeline import carried, pipeline, planned, plans_at, promoted_knobs, tuning_knobs
from dptune.sweep.releases import (
    ReleasedModel,
    ReleaseOf,
    pipeline_release,
    release_json,
    release_lines,
    rerun_release,
    sweep_releases,
)
from dptune.sweep.results import TradeOff
from dptune.sweep.summary import (
    closing_lines,
    covers_lines,
    format_plan,
    pipeline_closing_lines,
    pipeline_opening_lines,
    search_opening_lines,
)
from dptune.sweep.sweep_spec import SweepSpec, unused_with_total
from dptune.training.config import RunConfig
from dptune.training.trial_status import route

Knobs = Callable[[dict[str, Any]], dict[str, Any]]
"""A map of a configuration's knobs (a selection's to its release's, a drawn one's to its trial's)."""
RERUN_NAMES = ("re-run", "re-runs")
RELEASE_NAMES = ("release", "release")


@dataclass(frozen=True)
class StageResults:
    """What a sweep's trials left, as a mode reads it: every trial's last report (``results``, with
    ``trial_id``, ``method`` and ``config``), the settings each method's trials start from, what each
    method ran (``counts``, from the private ledger) and the sweep's randomness."""

    results: Sequence[Mapping[str, Any]]
    settings: Mapping[str, Mapping[str, Any]]
    counts: Mapping[str, Ran]
    noise_source: str
    baseline: Baseline | None = None  # the final-test part's majority-class rate (``majority_baseline``)


class SweepMode(ABC):
    """How one sweep counts its privacy and what it releases (``spec``: the sweep)."""

    rerun_names: tuple[str, str] = RERUN_NAMES
    """What the console calls a run of a selected configuration (singular, plural)."""
    release_holds_node: bool = False
    """Whether a released run trains alone on its node (every CPU of a trial slot)."""
    bound_by_search: bool = True
    """Whether the sweep's figures are its search bound's (``SweepTuningCost``), not a plan's."""
    one_model: bool = False
    """Whether the sweep releases one model chosen across its methods (its searcher re-runs one method's
    selection: ``dptune.tune.stage_searcher.SweepSearcher.winner``)."""

    def __init__(self, spec: SweepSpec) -> None:
        self.spec = spec
        self.disclosure = seed_disclosure(spec.shared.seed)

    @property
    def role(self) -> str:
        """What the sweep is among a spec's, as its heading says (a tuning proxy's, or nothing)."""
        return " (tuning proxy)" if self.spec.shared.proxy_fraction is not None else ""

    @property
    def heading(self) -> str:
        """What the sweep's heading says of it among a spec's sweeps: its ε target and role."""
        return f"ε = {self.spec.epsilons[0]:g}{self.role}"

    def record_privacy(self, privacy: dict[str, Any]) -> dict[str, Any]:
        """The sweep record's privacy settings (params and tags of its run)."""
        return privacy

    def plan_text(self) -> str | None:
        """The plan of the sweep, fixed before any trial (None: it has none); a resume finds it unchanged."""
        return None

    def stored_plan(self) -> str | None:
        """The plan stored with the sweep's run before any trial (None: none, or seeded: no figure)."""
        return self.disclosure.stated(self.plan_text())

    def tracked_record(self, record: dict[str, Any]) -> dict[str, Any] | None:
        """The public ``record`` as the sweep's run keeps it (metrics, tags, tuning cost; None: not kept, as
        for a seeded sweep, whose figures hold no guarantee)."""
        return self.disclosure.stated(record)

    def carry(self) -> dict[str, Knobs]:
        """Per method, the knobs of its release from its selected configuration (none: as selected)."""
        return {}

    def tuning(self) -> dict[str, Knobs]:
        """Per method, a tuning trial's knobs from a drawn configuration (none: as drawn)."""
        return {}

    @property
    def promoted(self) -> int:
        """Each method's promoted trials (successive halving's second rung; 0: none)."""
        return 0

    def promotion(self) -> dict[str, Knobs]:
        """Per method, a promoted trial's knobs from its first-rung trial's (none without a second rung)."""
        return {}

    @abstractmethod
    def opening_lines(
        self,
        data: Dataset,
        delta: float,
        gpu: float,
        filter_: RenyiFilter | None,
        warm_points: Mapping[str, Sequence[Any]],
    ) -> list[str]:
        """The lines before the first trial."""

    @abstractmethod
    def record(self, tuning: SweepTuningCost, counts: Mapping[str, Ran]) -> dict[str, Any]:
        """The sweep's public privacy record (per method and for every model it releases)."""

    def kept_cost(self, tuning: SweepTuningCost, record: Mapping[str, Any]) -> dict[str, Any]:
        """The privacy cost the sweep keeps in its private state, which a later sweep that starts from its
        results reads (``dptune.sweep.preflight.earlier_cost``): per method its search bound (whether its
        trials' scores may be read), and the (ε, δ) of everything the sweep ran, which every figure of that
        later sweep adds. Here the search bound's own figures, every trial and re-run counted."""
        return tuning.as_dict(private=True)

    def best(self, rows: list[TradeOff]) -> list[TradeOff]:
        """The rows of the selected configurations, as the sweep's table shows them (``Disclosure.tradeoff``:
        a seeded sweep's without ε including tuning)."""
        return [self.disclosure.tradeoff(row) for row in rows]

    def releases(self, ran: StageResults, record: Mapping[str, Any]) -> list[ReleasedModel]:
        """Every model the sweep releases, each with its card (``release_of``)."""
        release_of = self.release_of(ran, record)
        return sweep_releases(
            ran.results, self.spec.runs, ran.settings, release_of, self.spec.held_out, ran.baseline
        )

    @abstractmethod
    def release_of(self, ran: StageResults, record: Mapping[str, Any]) -> ReleaseOf:
        """How the sweep releases one finished re-run (``sweep_releases``)."""

    @abstractmethod
    def closing_lines(
        self,
        table: str,
        tuning: SweepTuningCost,
        private_state: str,
        compute: str,
        releases: Sequence[ReleasedModel],
        record: Mapping[str, Any],
    ) -> list[str]:
        """The lines after the last trial."""


class PerRunSweep(SweepMode):
    """Each trial at the spec's per-run ε; the search bound counts the search and its re-runs, every re-run
    of a selection is released (its card: the method's whole search, ``rerun_release``)."""

    def opening_lines(
        self,
        data: Dataset,
        delta: float,
        gpu: float,
        filter_: RenyiFilter | None,
        warm_points: Mapping[str, Sequence[Any]],
    ) -> list[str]:
        return search_opening_lines(self.spec, data, delta, gpu, filter_, warm_points)

    def record(self, tuning: SweepTuningCost, counts: Mapping[str, Ran]) -> dict[str, Any]:
        return tuning.as_dict()

    def release_of(self, ran: StageResults, record: Mapping[str, Any]) -> ReleaseOf:
        """Each re-run of a method with a row in the search bound's record, its card that row's."""
        rows = {row["method"]: row for row in record["methods"]}

        def released(
            method: str, result: Mapping[str, Any], run: RunConfig, shown: Mapping[str, Any]
        ) -> ReleasedModel | None:
            if method not in rows:
                return None
            return rerun_release(rows[method], result, run, shown, ran.noise_source)

        return released

    def closing_lines(
        self,
        table: str,
        tuning: SweepTuningCost,
        private_state: str,
        compute: str,
        releases: Sequence[ReleasedModel],
        record: Mapping[str, Any],
    ) -> list[str]:
        return closing_lines(self.spec, table, tuning, private_state, compute, releases)


class PipelineSweep(SweepMode):
    """One total ε that includes the tuning: each method's plan (``plans``) counts its tuning trials and the
    one release of its selection (``plan_record``), which trains alone on its node; the released model's
    card states the plan."""

    rerun_names = RELEASE_NAMES
    release_holds_node = True
    bound_by_search = False

    def __init__(self, spec: SweepSpec, plans: Mapping[str, MethodPlan]) -> None:
        super().__init__(spec)
        self.plans = plans
        self.one_model = any(len(p.pool) > 1 for p in plans.values())

    @property
    def role(self) -> str:
        return ""  # its trials run on the plan's subset, not a proxy's

    @property
    def heading(self) -> str:
        return self.disclosure.total(self.spec.epsilons[0], "ε")

    def record_privacy(self, privacy: dict[str, Any]) -> dict[str, Any]:
        return privacy | {"epsilon": self.spec.epsilons[0], "includes_tuning": True}

    def plan_text(self) -> str:
        return json.dumps([plan.as_dict() for plan in self.plans.values()], indent=2)

    def carry(self) -> dict[str, Knobs]:
        runs = self.spec.runs
        return {m: functools.partial(carried, run=runs[m], plan=p) for m, p in self.plans.items()}

    def tuning(self) -> dict[str, Knobs]:
        return {m: functools.partial(tuning_knobs, plan=p) for m, p in self.plans.items()}

    @property
    def promoted(self) -> int:
        """Each method's promoted trials: the plan's (none where its trials leave no room for a rung)."""
        (promoted,) = {p.tuning.promoted for p in self.plans.values()}
        return promoted

    def promotion(self) -> dict[str, Knobs]:
        if not self.promoted:
            return {}
        runs = self.spec.runs
        return {m: functools.partial(promoted_knobs, run=runs[m], plan=p) for m, p in self.plans.items()}

    def opening_lines(
        self,
        data: Dataset,
        delta: float,
        gpu: float,
        filter_: RenyiFilter | None,
        warm_points: Mapping[str, Sequence[Any]],
    ) -> list[str]:
        plan, disclosure = next(iter(self.plans.values())), self.disclosure
        return pipeline_opening_lines(self.spec, plan, data, delta, disclosure)

    def record(self, tuning: SweepTuningCost, counts: Mapping[str, Ran]) -> dict[str, Any]:
        return plan_record(self.plans, counts)

    def tracked_record(self, record: dict[str, Any]) -> dict[str, Any] | None:
        """The plan's figures, kept where the sweep's figures are stated (a seeded sweep's run keeps none)."""
        return self.disclosure.stated(record)

    def kept_cost(self, tuning: SweepTuningCost, record: Mapping[str, Any]) -> dict[str, Any]:
        """The search bound's rows, with the figures of the plans as they ran (``plan_record``'s: every
        tuning trial of both rungs and every release), not the search bound's, which count a release at
        ε_B as one more tuning trial at ε_t."""
        planned = {row["method"]: row for row in record["methods"]}
        from_plan = ("note", "epsilon_including_tuning", "delta", "epsilon_all_trials")  # last: a fixed K's

        def as_planned(row: Mapping[str, Any]) -> dict[str, Any]:
            plan = planned[row["method"]]
            kept = {k: v for k, v in row.items() if k not in from_plan}
            return kept | {k: plan[k] for k in from_plan if k in plan}

        searched = {k: v for k, v in tuning.as_dict(private=True).items() if k not in from_plan}
        whole = {key: record[key] for key in ("epsilon_including_tuning", "delta")}
        return searched | whole | {"methods": [as_planned(row) for row in searched["methods"]]}

    def best(self, rows: list[TradeOff]) -> list[TradeOff]:
        """A pipeline's row stands for its total, not its tuning trials' ε_t (``Disclosure.tradeoff``'s)."""
        total = self.spec.epsilons[0]
        return [self.disclosure.tradeoff(replace(row, epsilon_target=total)) for row in rows]

    def release_of(self, ran: StageResults, record: Mapping[str, Any]) -> ReleaseOf:
        """Each method's release, its card its pool's plans (one model across methods: every method's)
        with what each method ran; where the sweep releases one model per method, each card states the
        figure of publishing them all (the record's)."""
        counts = what_ran(self.plans, ran.counts)
        several = len(pools(list(self.plans.values()))) > 1
        published = (record["epsilon_including_tuning"], record["delta"]) if several else None

        def released(method: str, result: Mapping[str, Any], run: RunConfig, shown: Mapping[str, Any]) -> Any:
            pool = [self.plans[m] for m in self.plans[method].pool]
            return pipeline_release(pool, counts, method, result, run, shown, ran.noise_source, published)

        return released

    def closing_lines(
        self,
        table: str,
        tuning: SweepTuningCost,
        private_state: str,
        compute: str,
        releases: Sequence[ReleasedModel],
        record: Mapping[str, Any],
    ) -> list[str]:
        one_model, disclosure = self.one_model, self.disclosure
        return pipeline_closing_lines(self.spec, table, releases, record, compute, one_model, disclosure)


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
        return [PerRunSweep(stage) for i in range(len(self.spec.epsilons)) for stage in self.spec.stages(i)]

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
            + format_plan(self.plans)
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
        lines += covers_lines(released, [o.record for o in outcomes], self.disclosure)
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
                f"ε ≤ {curve[0]:.3f}, δ ≤ {curve[1]:g} (every total's stage on the same data, the stages "
                "composed; a stage that tunes on a subset draws its own)"
            )
        )
        return lines, self.disclosure.stated(curve)

    def last_line(self, releases: Sequence[ReleasedModel], curve: tuple[float, float] | None) -> list[str]:
        return [release_json(releases, curve)]

    def unreleased(self, outcome: SweepOutcome) -> dict[str, str]:
        """A pipeline's result is its released model: each method a sweep released none of, with why (one
        model across methods: every method, where the sweep released none)."""
        released = {release.method for release in outcome.releases}
        one_model = self.spec.one_model
        missing = {}
        for method in self.spec.methods:
            if (one_model and released) or method in released:
                continue
            finals = [r for r in outcome.results if r["method"] == method and route(r["config"]).rerun]
            if one_model and not finals and any(route(r["config"]).rerun for r in outcome.results):
                continue  # another method's selection was the one model's
            why = next((str(r["reason"]) for r in finals if r.get("reason")), "it did not finish")
            missing[method] = f"no model released at one of its totals: its release run failed ({why})"
        return missing


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
