"""How a sweep publishes what its methods selected: one release policy per way of publishing, registered by
name as the methods and the accountants are (``RELEASE_POLICIES``). Each owns its pools (the methods whose
tuning one released model covers), the steps of its searcher's chain after the selection within a method
(the pick across methods, the runs of the selection), what its console and its closing lines say, what a
released model's card says it covers, and the runs it scores on the final test:

* ``reruns`` (per-run ε targets): every method's selection re-run ``selection.reruns`` times with fresh
  randomness, each re-run a released model whose card states its method's whole search;
* ``per_method`` (``privacy.release: per_method`` with ``includes_tuning``): each method's selection
  trained once on the whole data at its plan's ε, as soon as that method's tuning has ended; each card
  covers its own pipeline and states the figure of publishing them all;
* ``one`` (``privacy.release: one``, several methods): the methods' selections compared on validation once
  every tuning has ended, and the best one's trained once: one model whose card covers every method's
  trials and the choice of the method (``dptune.sweep.chain.selection.PickAcross``); with
  ``selection.keep_method`` that method's selection unless another's beats it clearly (``OneModel.keep``).

The spec names its policy once (``SweepSpec.release``); its sweep's mode builds the searcher's chain with
it (``dptune.sweep.modes``), and the planner, the held-out guarantee, the cards and the closing lines ask
it. A new way of publishing is a new class here and its entry in ``RELEASE_POLICIES``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Protocol

from dptune.sweep.chain.selection import (
    ACROSS_METHODS_RULE,
    KEEP_METHOD_RULE,
    KEEP_START_RULE,
    SELECTION_RULE,
    START_FAMILY,
    PickAcross,
    RunSelection,
    Select,
)
from dptune.sweep.chain.steps import Knobs, Selecting, Step
from dptune.sweep.disclosure import Disclosure
from dptune.training.trial_status import CLEAR_MARGIN, route

RERUN_NAMES = ("re-run", "re-runs")
"""What the console calls a re-run of a selected configuration (one, several); a pipeline's: its release."""
RELEASE_NAMES = ("release", "release")
UNFINISHED = "no release run of it finished (the tuning still spent its part of that ε, whatever it trained)"
"""What a pipeline's closing lines say of a model it did not release."""


class Published(Protocol):
    """A released model as the closing lines read it (``dptune.sweep.releases.ReleasedModel``)."""

    @property
    def method(self) -> str: ...

    @property
    def released_among(self) -> tuple[str, ...]: ...

    @property
    def epsilon(self) -> float: ...

    @property
    def delta(self) -> float: ...


@dataclass(frozen=True)
class ReleasePolicy:
    """A way of publishing a sweep's selections, known by ``name``: what the console calls a run of a
    selection (``run_names``, singular and plural), whether that run trains alone on its node
    (``holds_node``: a pipeline's release, every CPU of a trial slot), what the console says follows a
    method's selection (``then``, with ``{runs}``), what a card says was chosen (``choice``) and what a
    pipeline's opening lines say it releases (``opening``) and what its plan says one model across methods
    releases of the methods' selections (``pick``)."""

    name: str
    run_names: tuple[str, str]
    holds_node: bool
    then: str
    choice: str = "the choice among them"
    opening: str = "each method's selection released once on the whole data"
    pick: str = "the best"

    def pools(self, methods: Sequence[str]) -> list[tuple[str, ...]]:
        """The methods of each model the sweep releases: each method alone."""
        return [(method,) for method in methods]

    def pooled(self, methods: Sequence[str]) -> bool:
        """Whether one released model covers several methods' tuning (its trials spread across them)."""
        return any(len(pool) > 1 for pool in self.pools(methods))

    def final_test_runs(self, methods: Sequence[str], reruns: int) -> int:
        """How many runs of selections a sweep of ``methods`` scores on the final test: ``reruns`` re-runs
        (``selection.reruns``) of each method's selection."""
        return reruns * len(methods)

    def runs_known(self, runs: int) -> int:
        """How many runs of its selection a method's progress counts before any starts."""
        return runs

    def line(self, runs: int) -> str:
        """What the console says follows a selection run ``runs`` times."""
        return self.then.format(runs=runs)

    def rule(self, keep_start: bool) -> str:
        """What a card says of how the released configuration was chosen (``Select``'s rule)."""
        return KEEP_START_RULE if keep_start else SELECTION_RULE

    def start_margin(self, method: str) -> str:
        """What a plan's selection line says a trial must beat ``method``'s kept start point by."""
        return CLEAR_MARGIN

    def start_rivals(self, budgets: Mapping[str, int]) -> dict[str, int]:
        """Per method whose selection keeps its start point, how many trials of other methods (of
        ``budgets``, the trials each method's search is given) may displace that start after its selection
        within the method (``Select.rivals``): none where each method's selection is published apart."""
        return {}

    def after_selection(
        self, select: Select, runs: int, admits: Callable[[str], bool], knobs: Mapping[str, Knobs]
    ) -> list[Step]:
        """The chain's steps after ``select``: ``runs`` runs of each method's selection, carried by ``knobs``
        (``RunSelection``), each while the method's privacy filter share ``admits`` it."""
        return [RunSelection(select, runs, admits, knobs)]

    def covers(self, trials: str, subset: str, released: int) -> str:
        """What a released model's card says its (ε, δ) covers: its pool's ``trials`` on ``subset``, the
        choice among them and its ``released`` release runs."""
        return (
            f"every run that touched the training data to choose and train this model: {trials} {subset}, "
            f"{self.choice}, and the release run ({released}) on the whole data;"
        )

    def published(self, record: Mapping[str, Any]) -> dict[str, Any] | None:
        """What each card of a pipeline sweep whose public record is ``record`` states of publishing every
        model of the sweep (None: nothing beyond its own figure)."""
        return None

    def covers_line(
        self, at: str, releases: Sequence[Published], record: Mapping[str, Any], disclosure: Disclosure
    ) -> str | None:
        """The closing line of what the (ε, δ) of a total (``at``) covers (None: its cards say it)."""
        return None

    def not_released(self, methods: Sequence[str], released: set[str], at: str) -> list[str]:
        """The closing lines of a pipeline sweep at the total ``at`` for the models it did not release."""
        return [
            f"\n{method}: no model released at {at}: {UNFINISHED}"
            for method in methods
            if method not in released
        ]

    def covered(self) -> str:
        """What the (ε, δ) of releasing a pipeline sweep's models covers, in its closing lines."""
        return "every method's model"

    def unreleased(
        self, methods: Sequence[str], released: set[str], results: Sequence[Mapping[str, Any]]
    ) -> dict[str, str]:
        """Each of ``methods`` whose model a pipeline did not release (``released``: the methods it did),
        with why, from every run's last report (``results``)."""
        return {method: failed_release(method, results) for method in methods if method not in released}


PUBLISHED_NOTE = (
    "this sweep released one model per method at this total (privacy.release: per_method): publishing all of "
    "them costs this (ε, δ), and a model picked among them by any score of the data (the final test "
    "included) is covered by this figure, not by its own ε"
)
"""What a card of one model per method says of the figure that covers them all."""


@dataclass(frozen=True)
class ModelPerMethod(ReleasePolicy):
    """A model per method: each card covers its method's pipeline alone; with several methods each states
    the figure of publishing them all, and that a pick among them is covered by that figure alone."""

    def final_test_runs(self, methods: Sequence[str], reruns: int) -> int:
        """One release per pool, whatever ``selection.reruns`` says."""
        return len(self.pools(methods))

    def published(self, record: Mapping[str, Any]) -> dict[str, Any] | None:
        if len(record["methods"]) < 2:
            return None
        return {
            "epsilon": record["epsilon_including_tuning"],
            "delta": record["delta"],
            "note": PUBLISHED_NOTE,
        }

    def covers_line(
        self, at: str, releases: Sequence[Published], record: Mapping[str, Any], disclosure: Disclosure
    ) -> str | None:
        if len(record["methods"]) < 2:
            return None
        return f"{at}: one model per method (privacy.release: per_method); " + disclosure.figure(
            "each card covers its own pipeline; publishing all of them: "
            f"ε ≤ {record['epsilon_including_tuning']:.3f}, δ ≤ {record['delta']:g}; picking one of them by "
            "its final-test score (or any score) is not covered by its own card, only by that figure"
        )


KEPT_OPENING = (
    "{method}'s selection released once on the whole data unless another method's beats it on validation by "
    f"more than {CLEAR_MARGIN}{{family}} (selection.keep_method), then that one: one model, its card "
    "covering every method's trials"
)
"""What a pipeline's opening lines say it releases where one model keeps a method (``OneModel.keeping``)."""


def family_clause(method: str, family: bool) -> str:
    """What the lines that state the kept method's margin add where its selection keeps its start point too
    (``family``): ``START_FAMILY``'s sentence; else nothing."""
    return f"; {START_FAMILY.format(method=method)}" if family else ""


KEPT_PICK = (
    f"{{method}}'s (selection.keep_method) unless another's beats it by more than {CLEAR_MARGIN}{{family}},"
)
"""What a plan says one model that keeps a method releases (``OneModel.keeping``)."""


@dataclass(frozen=True)
class OneModel(ReleasePolicy):
    """One model across methods: every method's tuning one pool, the best selection on validation (once
    every tuning has ended) its one release, its card covering every method's trials; where ``keep`` names
    a method (``selection.keep_method``), that method's selection unless another's beats it by more than
    ``CLEAR_MARGIN`` (``PickAcross``), and where that method's selection keeps its start point too
    (``family``), both margins counting one family of challengers (``START_FAMILY``)."""

    choice: str = "the choice among them, the method included"
    keep: str | None = None
    family: bool = False
    opening: str = (
        "the best of the methods' selections by validation accuracy released once on the whole data: one "
        "model, its card covering every method's trials"
    )

    def pools(self, methods: Sequence[str]) -> list[tuple[str, ...]]:
        return [tuple(methods)]

    def final_test_runs(self, methods: Sequence[str], reruns: int) -> int:
        """One release per pool, whatever ``selection.reruns`` says."""
        return len(self.pools(methods))

    def keeping(self, method: str | None, family: bool = False) -> OneModel:
        """This policy keeping ``method``'s selection unless another's beats it clearly (None: the best),
        that method's selection keeping its start point too where ``family`` says so."""
        if method is None:
            return self
        also = family_clause(method, family)
        return replace(
            self,
            keep=method,
            family=family,
            opening=KEPT_OPENING.format(method=method, family=also),
            pick=KEPT_PICK.format(method=method, family=also),
        )

    def start_margin(self, method: str) -> str:
        """The base margin, m counted as one family where ``method`` is the kept one (``family``)."""
        if not self.family or method != self.keep:
            return CLEAR_MARGIN
        return f"{CLEAR_MARGIN}; here m is instead one family (the one-model line above)"

    def rule(self, keep_start: bool) -> str:
        if self.keep is None:
            return ACROSS_METHODS_RULE
        return KEEP_METHOD_RULE.format(method=self.keep, family=family_clause(self.keep, self.family))

    def picked(self, among: Sequence[str]) -> str:
        """What the closing line says of how the released method was picked ``among`` the methods."""
        if self.keep is None:
            return f"the best on validation of {', '.join(among)}"
        return (
            f"picked among {', '.join(among)} by keeping {self.keep}'s selection unless another's beat it on "
            f"validation by more than {CLEAR_MARGIN}{family_clause(self.keep, self.family)}"
        )

    def runs_known(self, runs: int) -> int:
        return 0  # which method releases is not known before every tuning has ended

    def start_rivals(self, budgets: Mapping[str, int]) -> dict[str, int]:
        """The kept method's, where its selection keeps its start point (``family``): every other method's
        planned trials (``budgets``), since the best of their selections challenges that start again
        across methods (``PickAcross.challengers``); at least as many as are read, for a sweep that keeps a
        start point reads each trial once (``dptune validate`` refuses ``keep_start`` with early stopping,
        a second rung and a proxy)."""
        if not self.family or self.keep is None:
            return {}
        return {self.keep: sum(trials for method, trials in budgets.items() if method != self.keep)}

    def after_selection(
        self, select: Select, runs: int, admits: Callable[[str], bool], knobs: Mapping[str, Knobs]
    ) -> list[Step]:
        pick: Selecting = PickAcross(select, self.keep)
        return [pick, RunSelection(pick, runs, admits, knobs)]

    def covers_line(
        self, at: str, releases: Sequence[Published], record: Mapping[str, Any], disclosure: Disclosure
    ) -> str | None:
        if not releases:
            return None
        one = releases[0]
        return (
            f"{at}: one model, {one.method}'s configuration ({self.picked(one.released_among)}); "
            + disclosure.figure(
                f"its (ε, δ) = ({one.epsilon:.3f}, {one.delta:g}) covers every method's tuning trials, the "
                "choice of the method and of its settings, and its release"
            )
        )

    def not_released(self, methods: Sequence[str], released: set[str], at: str) -> list[str]:
        return [] if released else [f"\nno model released at {at}: {UNFINISHED}"]

    def covered(self) -> str:
        return "its one model (every method's tuning, the choice of the method, the release)"

    def unreleased(
        self, methods: Sequence[str], released: set[str], results: Sequence[Mapping[str, Any]]
    ) -> dict[str, str]:
        """Every method, where no method's model was released; none where one was. A method none of whose
        selection ran is left out where another method's did (that was the one model's)."""
        if released:
            return {}
        ran = any(route(r["config"]).rerun for r in results)
        return {
            method: failed_release(method, results)
            for method in methods
            if not ran or any(r["method"] == method and route(r["config"]).rerun for r in results)
        }


def failed_release(method: str, results: Sequence[Mapping[str, Any]]) -> str:
    """Why ``method``'s release run did not release a model: its run's reason, from its last report."""
    finals = [r for r in results if r["method"] == method and route(r["config"]).rerun]
    why = next((str(r["reason"]) for r in finals if r.get("reason")), "it did not finish")
    return f"no model released at one of its totals: its release run failed ({why})"


RERUNS = ReleasePolicy(
    "reruns", RERUN_NAMES, False, "re-running it {runs}× with fresh randomness, scored on the final test"
)
PER_METHOD = ModelPerMethod(
    "per_method",
    RELEASE_NAMES,
    True,
    "releasing it: trained once on the whole data at the plan's ε, for all its epochs",
)
ONE = OneModel(
    "one", RELEASE_NAMES, True, "compared with the other methods' selections once every search has ended"
)
RELEASE_POLICIES: dict[str, ReleasePolicy] = {p.name: p for p in (RERUNS, PER_METHOD, ONE)}
"""Every release policy by name."""
PIPELINE_RELEASES = (ONE.name, PER_METHOD.name)
"""``privacy.release`` with ``includes_tuning``: one model per total, chosen across the methods (the
default), or each method's own model (research comparisons: their cards state the figure of publishing
them all)."""
