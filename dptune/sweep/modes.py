"""A sweep's privacy mode: how one sweep counts what it runs, builds its searcher, releases its models and
says what it spent.

A sweep's mode is chosen once by its spec's mode (``dptune.sweep.spec_modes``), and the driver
(``dptune.tune.driver``) asks it, never which mode it is; a new mode is a new class: ``PerRunSweep`` (each
trial at the per-run ε; the search bound, composition, repeat-and-select or a privacy filter as
``dptune.sweep.bound`` chose it before the search, counts the search and every re-run of its selection,
each re-run a released model) or ``PipelineSweep`` (the plan's phases count the tuning trials and the one
release of each method's selection, the released model). Its searcher is the chain it builds
(``SweepMode.chain``) with its spec's release policy (``dptune.sweep.release_policies``). What a mode states
of its privacy its ``disclosure`` decides (a seeded sweep's: no (ε, δ)).
"""

from __future__ import annotations

import functools
import json
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from dptune.privacy.plan_privacy import Ran, plan_record, what_ran
from dptune.privacy.plans import MethodPlan
from dptune.sweep.bound import SweepTuningCost
from dptune.sweep.chain import Chain, ChainParts
from dptune.sweep.chain.board import Board, LostRuns, LostRunsKept
from dptune.sweep.chain.selection import Select
from dptune.sweep.chain.steps import Knobs, Step, Tuning
from dptune.sweep.chain.tuning import Promote, Search
from dptune.sweep.disclosure import seed_disclosure
from dptune.sweep.held_out import Baseline
from dptune.sweep.pipeline import carried, promoted_knobs, tuning_knobs
from dptune.sweep.release_policies import ReleasePolicy
from dptune.sweep.releases import (
    ReleasedModel,
    ReleaseOf,
    pipeline_release,
    rerun_release,
    sweep_releases,
)
from dptune.sweep.results import TradeOff
from dptune.sweep.summary import (
    Closing,
    Opening,
    closing_lines,
    pipeline_closing_lines,
    pipeline_opening_lines,
    search_opening_lines,
)
from dptune.sweep.sweep_spec import SweepSpec
from dptune.training.config import RunConfig


@dataclass(frozen=True)
class SweepResults:
    """What a sweep's trials left, as a mode reads it: every trial's last report (``results``, with
    ``trial_id``, ``method`` and ``config``), the settings each method's trials start from, what each
    method ran (``counts``, from the private ledger) and the sweep's randomness."""

    results: Sequence[Mapping[str, Any]]
    settings: Mapping[str, Mapping[str, Any]]
    counts: Mapping[str, Ran]
    noise_source: str
    baseline: Baseline | None = None  # the final-test part's majority-class rate (``majority_baseline``)


class SweepMode(ABC):
    """How one sweep counts its privacy, builds its searcher and what it releases (``spec``: the sweep)."""

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

    def tuning_steps(self, search: Search, tie_key: int) -> list[Tuning]:
        """Each method's tuning in the chain: its search (``Search``), and its end."""
        return [search]

    @property
    def release(self) -> ReleasePolicy:
        """How the sweep publishes its selections (the spec's release policy)."""
        return self.spec.release

    def chain(self, parts: ChainParts) -> Chain:
        """The sweep's searcher, built from ``parts``: each method's search (its trials' knobs ``tuning``'s),
        successive halving's second rung where the sweep promotes (``tuning_steps``), the selection within
        each method (its start points as its trials' knobs, and the other methods' trials that may displace
        a start later, as the release policy counts them: ``ReleasePolicy.start_rivals``), then as the
        release policy publishes it (``ReleasePolicy.after_selection``: runs of the selection, their knobs
        ``carry``'s)."""
        tuning = self.tuning()
        search = Search(parts.searchers, parts.budgets, tuning)
        tuned = self.tuning_steps(search, parts.tie_key)
        kept = {m: [tuning.get(m, dict)(p) for p in points] for m, points in parts.kept_starts.items()}
        runs = self.spec.reruns
        rivals = self.release.start_rivals(parts.budgets)
        select = Select(
            tuned[-1],
            parts.tie_key,
            runs,
            self.release.line(runs),
            parts.secret,
            kept,
            parts.validation_size,
            rivals,
        )
        after = self.release.after_selection(select, runs, search.admits_run, self.carry())
        steps: list[Step] = [*tuned, select, *after]
        lost = LostRunsKept() if self.spec.held_out is not None else LostRuns()
        return Chain(steps, Board(parts.budgets, parts.state, parts.seeds, lost))

    @abstractmethod
    def opening_lines(self, opening: Opening) -> list[str]:
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

    def outcome_cost(self, tuning: SweepTuningCost) -> SweepTuningCost | None:
        """The sweep's figures as its outcome states them (``SweepOutcome.tuning_cost``): its search
        bound's."""
        return tuning

    def best(self, rows: list[TradeOff]) -> list[TradeOff]:
        """The rows of the selected configurations, as the sweep's table shows them (``Disclosure.tradeoff``:
        a seeded sweep's without ε including tuning)."""
        return [self.disclosure.tradeoff(row) for row in rows]

    def releases(self, ran: SweepResults, record: Mapping[str, Any]) -> list[ReleasedModel]:
        """Every model the sweep releases, each with its card (``release_of``)."""
        release_of = self.release_of(ran, record)
        return sweep_releases(
            ran.results, self.spec.runs, ran.settings, release_of, self.spec.held_out, ran.baseline
        )

    @abstractmethod
    def release_of(self, ran: SweepResults, record: Mapping[str, Any]) -> ReleaseOf:
        """How the sweep releases one finished re-run (``sweep_releases``)."""

    @abstractmethod
    def closing_lines(self, closing: Closing) -> list[str]:
        """The lines after the last trial."""


class PerRunSweep(SweepMode):
    """Each trial at the spec's per-run ε; the search bound counts the search and its re-runs, every re-run
    of a selection is released (its card: the method's whole search, ``rerun_release``)."""

    def opening_lines(self, opening: Opening) -> list[str]:
        return search_opening_lines(self.spec, opening)

    def record(self, tuning: SweepTuningCost, counts: Mapping[str, Ran]) -> dict[str, Any]:
        return tuning.as_dict()

    def release_of(self, ran: SweepResults, record: Mapping[str, Any]) -> ReleaseOf:
        """Each re-run of a method with a row in the search bound's record, its card that row's."""
        rows = {row["method"]: row for row in record["methods"]}

        def released(
            method: str, result: Mapping[str, Any], run: RunConfig, shown: Mapping[str, Any]
        ) -> ReleasedModel | None:
            if method not in rows:
                return None
            return rerun_release(rows[method], result, run, shown, ran.noise_source)

        return released

    def closing_lines(self, closing: Closing) -> list[str]:
        return closing_lines(self.spec, closing)


class PipelineSweep(SweepMode):
    """One total ε that includes the tuning: each method's plan (``plans``) counts its tuning trials and the
    one release of its selection (``plan_record``), which trains alone on its node; the released model's
    card states the plan."""

    def __init__(self, spec: SweepSpec, plans: Mapping[str, MethodPlan]) -> None:
        super().__init__(spec)
        self.plans = plans

    @property
    def role(self) -> str:
        return ""  # its trials run on the plan's subset, not a proxy's

    @property
    def heading(self) -> str:
        return self.disclosure.total(self.spec.epsilons[0], "ε")

    def record_privacy(self, privacy: dict[str, Any]) -> dict[str, Any]:
        return privacy | {
            "epsilon": self.spec.epsilons[0],
            "includes_tuning": True,
            "release": self.spec.release.name,
        }

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

    def tuning_steps(self, search: Search, tie_key: int) -> list[Tuning]:
        """The search, then, where the plans promote, successive halving's second rung (``Promote``): each
        promoted trial's knobs its first-rung trial's, trained longer at the same noise
        (``promoted_knobs``)."""
        if not self.promoted:
            return [search]
        runs = self.spec.runs
        knobs = {m: functools.partial(promoted_knobs, run=runs[m], plan=p) for m, p in self.plans.items()}
        return [search, Promote(search, self.promoted, knobs, tie_key)]

    def opening_lines(self, opening: Opening) -> list[str]:
        return pipeline_opening_lines(self.spec, next(iter(self.plans.values())), opening, self.disclosure)

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

    def outcome_cost(self, tuning: SweepTuningCost) -> SweepTuningCost | None:
        """None: a pipeline's figures are its plans' (its record), not its search bound's, which counts its
        release as one more tuning trial."""
        return None

    def best(self, rows: list[TradeOff]) -> list[TradeOff]:
        """A pipeline's row stands for its total, not its tuning trials' ε_t (``Disclosure.tradeoff``'s)."""
        total = self.spec.epsilons[0]
        return [self.disclosure.tradeoff(replace(row, epsilon_target=total)) for row in rows]

    def release_of(self, ran: SweepResults, record: Mapping[str, Any]) -> ReleaseOf:
        """Each method's release, its card its pool's plans (one model across methods: every method's)
        with what each method ran, and what the release policy says of publishing them all."""
        counts = what_ran(self.plans, ran.counts)
        release, published = self.release, self.release.published(record)

        def released(method: str, result: Mapping[str, Any], run: RunConfig, shown: Mapping[str, Any]) -> Any:
            pool = [self.plans[m] for m in self.plans[method].pool]
            source = ran.noise_source
            return pipeline_release(pool, counts, method, result, run, shown, source, release, published)

        return released

    def closing_lines(self, closing: Closing) -> list[str]:
        return pipeline_closing_lines(self.spec, closing, self.disclosure)
