"""The searcher of a sweep's one Tune run: every method's own search with its own trial budget, then
the re-runs of each method's selected configuration.

Every method's trials share one Tune run per sweep (``dptune.tune.driver``) so that Tune reuses a
trial's actor for the next trial of any method: each Tune run starts its own actors, and an actor is a
new process that imports torch and Ray Tune before it trains (3–7 s of an idle slot each time).

``SweepSearcher`` holds, per method, that method's searcher (``AccountedSearcher`` over Optuna: the
write-ahead records, the privacy filter's share, Optuna's model of that method's trials alone) and its
trial budget, the same for every method. When Tune has a free slot it asks the methods in turn, the one
with the fewest trials running first: equal budgets are about trials, and every method's search moves
on while the others' trials run. A method whose search has ended (its budget suggested, or its filter
spent, and every trial of it ended) gets its selected configuration (``select_trial``: the finished
trial with the best validation score, ties broken by the sweep's secret key; ``select_keeping_start``
where the method keeps its start point) re-run ``reruns`` times
with fresh randomness; each re-run is written ahead in the private state (``role: final``) before Tune
receives it, like a search trial. Under a privacy filter the re-runs were reserved when the search
started; one more (in place of a re-run lost with a killed driver) starts only while the method's share
has room.
The searcher also caps the trials at once (``limit``), counted on Tune's list.

What it knows of the trials it reads from Tune's own list at the start of every step (``SearchObserver``),
not from its memory: Tune saves that list every step and restores it after the driver is killed, so a
resumed sweep selects from the trials the restored experiment holds, continues the re-runs it holds and
starts as many new ones as are missing (a re-run an earlier driver started that the restored experiment
lacks was written ahead and keeps counting, like a lost search trial), of the configuration the restored
re-runs repeat.
"""

from __future__ import annotations

import pickle
import queue
import tempfile
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ray.tune import Callback
from ray.tune.experiment import Trial
from ray.tune.search import Searcher

from dptune.base.randomness import tie_rank, trial_seed
from dptune.sweep.ledger import FINAL, PROMOTED, PrivateSweepState
from dptune.sweep.ledger import SEARCH as LEDGER_SEARCH
from dptune.training.trial_status import (
    METHOD_KEY,
    OBJECTIVE,
    PROMOTED_FROM,
    RERUN_OF,
    TrialStatus,
    best_trials,
    route,
    select_keeping_start,
    select_trial,
    validation_shown,
)
from dptune.tune.progress import console
from dptune.tune.searcher import AccountedSearcher

RERUN_SEED_OFFSET = 1_000_000
"""Trial numbers from here on seed a seeded sweep's re-runs: no search trial has that many."""
PROMOTION_SEED_OFFSET = 2_000_000
"""Trial numbers from here on seed a seeded sweep's promoted trials."""
SEARCH, PROMOTION, RERUN = "search", "promotion", "rerun"
"""What a trial of the stage is: a search trial (the first rung), a promoted trial (the second), a re-run."""
LEDGER_ROLES = {SEARCH: LEDGER_SEARCH, PROMOTION: PROMOTED, RERUN: FINAL}
"""The private state's role of each kind of trial."""
_ENDED: dict[str, queue.SimpleQueue[str]] = {}


def ended_searches(sweep: str) -> queue.SimpleQueue[str]:
    """The methods of sweep ``sweep`` whose search has ended, in the order this process saw them end
    (the driver makes each one's Optuna page while the others train); kept in this module by the
    sweep's name, as a restored run's searcher is a copy unpickled from the saved Tuner."""
    return _ENDED.setdefault(sweep, queue.SimpleQueue())


@dataclass
class MethodView:
    """One method's trials as Tune's list showed them at the start of the step, with the trials
    suggested since."""

    started: int = 0  # its search trials
    searching: int = 0  # its search trials not ended
    live: int = 0  # its trials and re-runs not ended
    reruns: int = 0  # its re-runs
    repeated: set[str] = field(default_factory=set)  # the trial ids its re-runs repeat (``RERUN_OF``)
    ended: list[tuple[str, dict[str, Any], dict[str, Any]]] = field(default_factory=list)
    """(trial id, config, last result) of every search trial that ended without an error."""
    promoted: set[str] = field(default_factory=set)  # the search trials its promoted trials train again
    promoting: int = 0  # its promoted trials not ended
    promoted_ended: list[tuple[str, dict[str, Any], dict[str, Any]]] = field(default_factory=list)
    """(trial id, config, last result) of every promoted trial that ended without an error."""


class SweepSearcher(Searcher):
    """Every method's search of a sweep, and the re-runs of what each selected (module docstring).

    ``searchers`` and ``budgets`` by method, in the spec's order; ``seeds`` holds each method's run seed
    (None: secure randomness, a re-run draws its own from OS entropy); ``limit`` caps the trials and
    re-runs at once, counted on Tune's list of trials (so a restored run's running trials count);
    ``tie_key`` is the sweep's secret key for ties of the selection; ``secret`` names the methods whose
    trial count is secret (no trial id of theirs reaches the console: its index tells a lower bound on K);
    ``carry`` maps a method's selected configuration to its release's (``dptune.sweep.plan.carried``),
    ``tune`` a configuration of its space to its tuning trial's (``dptune.sweep.plan.tuning_knobs``);
    ``kept_starts`` holds the start points (the search's parameter values) of each method whose selection
    keeps them (``select_keeping_start``, on ``validation_size`` examples); ``one_model``: the methods
    release one model together, the selection of the method whose selected trial scores best on
    validation once every search has ended (``winner``), and no other method re-runs; ``promoted``:
    each method's trials of successive halving's second rung (0: none), the best that many of its finished
    search trials by validation, each trained again with the knobs ``promote`` maps its configuration to
    (longer, at the same noise), its selection then made among them (``_candidates``); ``fixed_runs``: no
    run starts in place of one written ahead and lost with a killed driver (a search trial, a promoted trial
    or a re-run), as where the held-out data is private: every run's scores on it are among those its
    guarantee counts (``dptune.sweep.held_out``), and a run in place of a lost one would score more."""

    fixed_runs = False
    _lost: dict[str, Counter[str]] | None = None
    """Where ``__init__`` sets them; a searcher Tune unpickles from a sweep an earlier dptune started lacks
    them, and keeps these."""

    def __init__(
        self,
        searchers: dict[str, AccountedSearcher],
        budgets: dict[str, int],
        reruns: int,
        state: PrivateSweepState,
        seeds: dict[str, int | None],
        sweep: str,
        limit: int,
        tie_key: int,
        secret: frozenset[str] = frozenset(),
        carry: Mapping[str, Callable[[dict[str, Any]], dict[str, Any]]] | None = None,
        tune: Mapping[str, Callable[[dict[str, Any]], dict[str, Any]]] | None = None,
        kept_starts: Mapping[str, list[dict[str, Any]]] | None = None,
        validation_size: int = 0,
        one_model: bool = False,
        promoted: int = 0,
        promote: Mapping[str, Callable[[dict[str, Any]], dict[str, Any]]] | None = None,
        fixed_runs: bool = False,
        metric: str = OBJECTIVE,
        mode: str = "max",
    ) -> None:
        super().__init__(metric=metric, mode=mode)
        self.searchers = searchers
        self.budgets = budgets
        self.reruns = reruns
        self.state = state
        self.seeds = seeds
        self.sweep = sweep
        self.limit = limit
        self.tie_key = tie_key
        self.secret = secret
        self.carry = dict(carry or {})
        self.tune = dict(tune or {})
        self.kept_starts = {
            m: [self.tune.get(m, dict)(p) for p in points] for m, points in (kept_starts or {}).items()
        }
        self.validation_size = validation_size
        self.one_model = one_model
        self.promoted = promoted
        self.promote = dict(promote or {})
        self.fixed_runs = fixed_runs
        if promoted and set(self.promote) != set(searchers):
            raise ValueError("successive halving needs every method's promoted knobs")
        if self.kept_starts and validation_size < 1:
            raise ValueError("a selection that keeps start points needs the validation part's size")
        self._views: dict[str, MethodView] = {m: MethodView() for m in searchers}
        self._owners: dict[str, tuple[str, str]] = {}  # trial id -> (method, SEARCH, PROMOTION or RERUN)
        self._spent: set[str] = set()  # methods whose searcher said FINISHED with none of its trials live
        self._refused: set[str] = set()  # methods whose next re-run the privacy filter refused
        self._announced: set[str] = set()  # methods whose search's end this driver has announced
        self._promotions_announced: set[str] = set()  # methods whose second rung this driver has announced
        self._lost: dict[str, Counter[str]] | None = None  # with ``fixed_runs``: ``_lost_runs``, once read
        self._winner_announced = False

    def set_search_properties(self, metric: str | None, mode: str | None, config: dict, **spec: Any) -> bool:
        for searcher in self.searchers.values():
            searcher.set_search_properties(metric, mode, config, **spec)
        return True

    def set_max_concurrency(self, max_concurrent: int) -> bool:
        return False  # the stage caps its trials itself (``limit``)

    def observe(self, trials: list[Any]) -> None:
        """Read Tune's list of trials (each step, before Tune asks for new ones). Once a method's search
        has ended: queue it for its Optuna page (``ended_searches``) and announce its selection."""
        views = {m: MethodView() for m in self.searchers}
        for trial in trials:
            whose = route(trial.config)
            view = views.get(whose.method)
            if view is None:
                continue
            ended = trial.is_finished()
            view.live += not ended
            if whose.rerun_of is not None:
                self._owners[trial.trial_id] = (whose.method, RERUN)
                view.reruns += 1
                view.repeated.add(whose.rerun_of)
                continue
            if whose.promoted_from is not None:
                self._owners[trial.trial_id] = (whose.method, PROMOTION)
                view.promoted.add(whose.promoted_from)
                view.promoting += not ended
                if trial.status == Trial.TERMINATED and trial.last_result:
                    view.promoted_ended.append((trial.trial_id, trial.config, trial.last_result))
                continue
            self._owners[trial.trial_id] = (whose.method, SEARCH)
            view.started += 1
            view.searching += not ended
            if trial.status == Trial.TERMINATED and trial.last_result:
                view.ended.append((trial.trial_id, trial.config, trial.last_result))
        self._views = views
        if self.fixed_runs and self._lost is None:
            self._lost = {m: self._lost_runs(m) for m in self.searchers}
        for method in self.searchers:
            if self.promoted and method not in self._promotions_announced and self._search_ended(method):
                self._promotions_announced.add(method)
                self._announce_promotions(method)
            if method not in self._announced and self._tuning_ended(method):
                self._announced.add(method)
                ended_searches(self.sweep).put(method)
                selected = self._selected(method)
                if selected is not None:
                    drawn = self._drawn(method, selected)[1]
                    self.state.select(method, selected[0], released_settings(drawn))
                if self.reruns:
                    self._announce(method)
        if self.one_model and not self._winner_announced and self._all_ended():
            self._winner_announced = True
            self._announce_winner()

    def _all_ended(self) -> bool:
        return all(self._tuning_ended(m) for m in self.searchers)

    def winner(self) -> str | None:
        """With one model across methods, the method whose selection is released: the one whose re-run
        Tune's list already holds, else, once every search has ended, the one whose selected trial has the
        best validation score, ties going to the highest secret rank (``tie_rank``); None before, or where
        no method has a selection."""
        released = [m for m in self.searchers if self._views[m].reruns]
        if released:
            return released[0]
        if not self._all_ended():
            return None
        picks = [(m, s) for m in self.searchers if (s := self._selected(m)) is not None]
        if not picks:
            return None
        best = max(picks, key=lambda p: (p[1][2][OBJECTIVE], tie_rank(self.tie_key, p[1][0])))
        return best[0]

    def _announce_winner(self) -> None:
        method = self.winner()
        selected = None if method is None else self._selected(method)
        if selected is None:
            line = "no method's trial finished every epoch: nothing to release"
        else:
            score = validation_shown(selected[2])
            line = (
                f"{method}'s selection has the best validation accuracy of the methods' ({score}); "
                "releasing it: trained once on the whole data at the plan's ε, for all its epochs"
            )
        console(self.sweep)(f"  {'one model':<15} {line}")

    def _lost_runs(self, method: str) -> Counter[str]:
        """The method's runs written ahead in the private state that Tune's list lacks (lost with an earlier
        driver), by kind, as this driver first sees the list (a run can only be lost with a driver); said
        once on the console where there is one."""
        written = Counter(record.role for record in self.state.trials(method))
        lost = Counter(
            {kind: max(0, written[LEDGER_ROLES[kind]] - self._listed(method, kind)) for kind in LEDGER_ROLES}
        )
        if sum(lost.values()):
            console(self.sweep)(
                f"  {method:<15} {sum(lost.values())} run(s) lost with an earlier driver not run again: "
                "every run's scores on the private held-out data count against their guarantee, and one in "
                "its place would score more"
            )
        return lost

    def _listed(self, method: str, kind: str) -> int:
        """The method's runs of a kind in Tune's list and suggested since."""
        view = self._views[method]
        return {SEARCH: view.started, PROMOTION: len(view.promoted), RERUN: view.reruns}[kind]

    def _started(self, method: str, kind: str) -> int:
        """The method's runs of a kind (``SEARCH``, ``PROMOTION``, ``RERUN``) that count against its budget
        of them: those in Tune's list and suggested since, and with ``fixed_runs`` those lost with an earlier
        driver (``_lost_runs``)."""
        lost = self._lost[method][kind] if self._lost is not None else 0
        return self._listed(method, kind) + lost

    def _search_ended(self, method: str) -> bool:
        view = self._views[method]
        done = method in self._spent or self._started(method, SEARCH) >= self.budgets[method]
        return done and view.searching == 0

    def _tuning_ended(self, method: str) -> bool:
        """Whether the method's tuning has ended: its search, and every trial it promotes."""
        if not self._search_ended(method):
            return False
        return not self.promoted or (not self._to_promote(method) and self._views[method].promoting == 0)

    def _promotable(self, method: str) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
        """The search trials the second rung trains again: the best ``promoted`` finished ones by
        validation, ties by the secret rank (``best_trials``), the same after a resume."""
        return best_trials(
            self._views[method].ended,
            lambda t: TrialStatus.of_ended(t[2]),
            lambda t: t[2][OBJECTIVE],
            lambda t: tie_rank(self.tie_key, t[0]),
            self.promoted,
        )

    def _to_promote(self, method: str) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
        """The trials of ``_promotable`` not promoted yet (none once ``promoted`` have started)."""
        if self._started(method, PROMOTION) >= self.promoted:
            return []
        return [t for t in self._promotable(method) if t[0] not in self._views[method].promoted]

    def _announce_promotions(self, method: str) -> None:
        chosen = self._promotable(method)
        scores = ", ".join(validation_shown(t[2]) for t in chosen)
        line = (
            f"promoting its best {len(chosen)} trials by validation ({scores}): each trained again, longer, "
            "at the same noise"
            if chosen
            else "no trial finished every epoch: nothing to promote"
        )
        console(self.sweep)(f"  {method:<15} {line}")

    def _selected(self, method: str) -> tuple[str, dict[str, Any], dict[str, Any]] | None:
        """The trial whose configuration the method's re-runs repeat: the one its re-runs in Tune's list
        already repeat, else ``select_trial``'s choice (``select_keeping_start``'s where the method keeps
        its start points), ties going to the highest secret rank (``tie_rank`` under the sweep's key: the
        same trial after a resume, whatever order Tune restores its list in, and never the order the
        trials ran in)."""
        view = self._views[method]
        candidates = self._candidates(method)
        repeated = [t for t in candidates if t[0] in view.repeated]
        if repeated:
            return repeated[0]
        scored = (
            candidates,
            lambda t: TrialStatus.of_ended(t[2]),
            lambda t: t[2][OBJECTIVE],
            lambda t: tie_rank(self.tie_key, t[0]),
        )
        if method not in self.kept_starts:
            return select_trial(*scored)
        return select_keeping_start(*scored, lambda t: self._is_start(method, t[1]), self.validation_size)

    def _candidates(self, method: str) -> list[tuple[str, dict[str, Any], dict[str, Any]]]:
        """The trials the selection reads: with a second rung its promoted trials (where one finished
        every epoch), else the search's."""
        view = self._views[method]
        finished = [t for t in view.promoted_ended if TrialStatus.of_ended(t[2]) is TrialStatus.FINISHED]
        return view.promoted_ended if self.promoted and finished else view.ended

    def _drawn(
        self, method: str, selected: tuple[str, dict[str, Any], dict[str, Any]]
    ) -> tuple[str, dict[str, Any], dict[str, Any]]:
        """The search trial behind a selection: a promoted trial's first-rung trial (its knobs as drawn,
        at the first rung's epochs, which the release's carry reads), else the selection itself."""
        first = route(selected[1]).promoted_from
        if first is None:
            return selected
        return next(t for t in self._views[method].ended if t[0] == first)

    def _is_start(self, method: str, config: Mapping[str, Any]) -> bool:
        """Whether ``config`` is the trial of a start point the method's selection keeps."""
        return any(is_point(config, p) for p in self.kept_starts.get(method, []))

    def _kept(self, method: str, selected: tuple[str, dict[str, Any], dict[str, Any]]) -> str:
        """What the announcement says of a method that keeps its start point (empty for others)."""
        if method not in self.kept_starts:
            return ""
        if self._is_start(method, selected[1]):
            return "; the start point, kept"
        finished = [t for t in self._candidates(method) if TrialStatus.of_ended(t[2]) is TrialStatus.FINISHED]
        if any(self._is_start(method, t[1]) for t in finished):
            return "; it beat the start point by more than the validation's noise"
        return "; no start point's trial finished"

    def _announce(self, method: str) -> None:
        selected = self._selected(method)
        if selected is None:
            line = "no trial finished every epoch: nothing to select or re-run"
        else:
            restored = self._views[method].reruns
            doing = (
                f"its re-runs continue from the saved Tune run ({restored} of {self.reruns} there)"
                if restored
                else "compared with the other methods' selections once every search has ended"
                if self.one_model
                else "releasing it: trained once on the whole data at the plan's ε, for all its epochs"
                if method in self.carry
                else f"re-running it {self.reruns}× with fresh randomness, scored on the final test"
            )
            which = "a trial" if method in self.secret else f"trial {selected[0]}"
            score = f"validation {validation_shown(selected[2])}{self._kept(method, selected)}"
            line = f"selected {which} ({score}); {doing}"
        console(self.sweep)(f"  {method:<15} {line}")

    def _order(self) -> list[str]:
        """The methods in the order they are asked: fewest trials running, then fewest started."""
        index = {m: i for i, m in enumerate(self.searchers)}
        return sorted(
            self.searchers,
            key=lambda m: (self._views[m].live, self._views[m].started + self._views[m].reruns, index[m]),
        )

    def _reruns_done(self, method: str) -> bool:
        if self.one_model and method != self.winner():
            return True
        return (
            self._started(method, RERUN) >= self.reruns
            or method in self._refused
            or self._selected(method) is None
        )

    def suggest(self, trial_id: str) -> dict | str | None:
        if sum(view.live for view in self._views.values()) >= self.limit:
            return None
        for method in self._order():
            config = (
                self._suggest_search(method, trial_id)
                or self._suggest_promotion(method, trial_id)
                or self._suggest_rerun(method, trial_id)
            )
            if config is not None:
                return config
        finished = all(self._tuning_ended(m) and self._reruns_done(m) for m in self.searchers)
        return Searcher.FINISHED if finished else None

    def _suggest_search(self, method: str, trial_id: str) -> dict | None:
        view = self._views[method]
        if method in self._spent or self._started(method, SEARCH) >= self.budgets[method]:
            return None
        config = self.searchers[method].suggest(trial_id)
        if config == Searcher.FINISHED and view.searching == 0:  # else its running trials may give back
            self._spent.add(method)
        if not isinstance(config, dict):
            return None
        view.started += 1
        view.searching += 1
        view.live += 1
        self._owners[trial_id] = (method, SEARCH)
        if method in self.tune:  # a pipeline's tuning trial: its step at the tuning's ε
            config = self.tune[method](config)
        return {**config, METHOD_KEY: method}

    def _suggest_promotion(self, method: str, trial_id: str) -> dict | None:
        """The next promoted trial, once the method's search has ended: the next of ``_to_promote``, its
        configuration trained again with the knobs ``promote`` maps it to, written ahead in the private
        state (``role: promoted``); fresh randomness (a seeded sweep's i-th promoted trial written ahead is
        seeded ``trial_seed(seed, method, PROMOTION_SEED_OFFSET + i)``)."""
        if not self.promoted or not self._search_ended(method):
            return None
        waiting = self._to_promote(method)
        if not waiting:
            return None
        first, drawn, _ = waiting[0]
        view = self._views[method]
        written = sum(r.role == PROMOTED for r in self.state.trials(method))
        self.state.start(method, trial_id, role=PROMOTED)
        self._owners[trial_id] = (method, PROMOTION)
        view.promoted.add(first)
        view.promoting += 1
        view.live += 1
        knobs = {k: v for k, v in drawn.items() if k != "seed"}
        config = self.promote[method](knobs) | {PROMOTED_FROM: first}
        seed = self.seeds[method]
        if seed is not None:
            config["seed"] = trial_seed(seed, method, PROMOTION_SEED_OFFSET + written)
        return config

    def _suggest_rerun(self, method: str, trial_id: str) -> dict | None:
        """The next re-run of the method's selected configuration, once its search has ended: the
        selected trial's knobs with fresh randomness (secure mode draws it from OS entropy when the
        re-run starts; a seeded sweep gives the i-th re-run written ahead the seed
        ``trial_seed(seed, method, RERUN_SEED_OFFSET + i)``, never a search trial's); where ``carry`` has the
        method (a pipeline whose ε includes the tuning), the knobs it carries the configuration to."""
        view = self._views[method]
        if (
            not self._tuning_ended(method)
            or self._started(method, RERUN) >= self.reruns
            or method in self._refused
        ):
            return None
        if self.one_model and method != self.winner():
            return None
        selected = self._selected(method)
        if selected is None:
            return None
        if not self.searchers[method].admits_rerun():
            self._refused.add(method)
            console(self.sweep)(
                f"  {method:<15} no more re-runs: one more would not fit its share of the privacy filter "
                f"({view.reruns} of {self.reruns} started)"
            )
            return None
        written = sum(r.role == FINAL for r in self.state.trials(method))
        self.state.start(method, trial_id, role=FINAL)
        self._owners[trial_id] = (method, RERUN)
        view.reruns += 1
        view.live += 1
        drawn = self._drawn(method, selected)[1]
        config = {k: v for k, v in drawn.items() if k != "seed"} | {RERUN_OF: selected[0]}
        if method in self.carry:  # a release: the selected configuration carried to the plan's ε
            config = self.carry[method](config)
        seed = self.seeds[method]
        if seed is not None:
            config["seed"] = trial_seed(seed, method, RERUN_SEED_OFFSET + written)
        return config

    def on_trial_result(self, trial_id: str, result: dict) -> None:
        method, kind = self._owners[trial_id]
        if kind == SEARCH:
            self.searchers[method].on_trial_result(trial_id, result)

    def on_trial_complete(self, trial_id: str, result: dict | None = None, error: bool = False) -> None:
        method, kind = self._owners[trial_id]
        if kind == SEARCH:
            self.searchers[method].on_trial_complete(trial_id, result=result, error=error)
        else:  # a promoted trial or a re-run counts its whole plan: nothing to give back
            self.state.end(method, trial_id, None)

    def save(self, checkpoint_path: str) -> None:
        """Every method's searcher: the state of each wrapper (``get_state``) and the base searcher's
        own save (Optuna's study and trials), in one file."""
        with open(checkpoint_path, "wb") as stream:
            pickle.dump({m: _chain_state(s) for m, s in self.searchers.items()}, stream)

    def restore(self, checkpoint_path: str) -> None:
        with open(checkpoint_path, "rb") as stream:
            states = pickle.load(stream)
        for method, searcher in self.searchers.items():
            _restore_chain(searcher, states[method])
        self._views = {m: MethodView() for m in self.searchers}
        self._owners, self._spent, self._refused, self._announced = {}, set(), set(), set()
        self._promotions_announced = set()
        self._winner_announced = False
        self._lost = None


def is_point(config: Mapping[str, Any], point: Mapping[str, Any]) -> bool:
    """Whether a trial's ``config`` holds every value of ``point`` (a start point as the search's
    parameter values): Optuna hands an enqueued point's values to the trial as they are."""
    return all(name in config and config[name] == value for name, value in point.items())


def released_settings(config: dict[str, Any]) -> dict[str, Any]:
    """The plain settings of a selected trial's config (its knobs as drawn, Optuna's names), without
    whose trial it is or its research seed: what the private state keeps of a selection."""
    return {
        k: v
        for k, v in config.items()
        if isinstance(v, bool | int | float | str) and k not in (METHOD_KEY, RERUN_OF, PROMOTED_FROM, "seed")
    }


def _chain(searcher: Searcher) -> list[Searcher]:
    """A searcher and the searchers it wraps (``.searcher``), outermost first."""
    chain = [searcher]
    while hasattr(chain[-1], "searcher"):
        chain.append(chain[-1].searcher)
    return chain


def _chain_state(searcher: Searcher) -> dict[str, Any]:
    *wrappers, base = _chain(searcher)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "searcher.pkl"
        base.save(str(path))
        saved = path.read_bytes()
    return {"wrappers": [w.get_state() for w in wrappers], "base": saved}


def _restore_chain(searcher: Searcher, state: dict[str, Any]) -> None:
    *wrappers, base = _chain(searcher)
    for wrapper, kept in zip(wrappers, state["wrappers"], strict=True):
        wrapper.set_state(kept)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "searcher.pkl"
        path.write_bytes(state["base"])
        base.restore(str(path))


class SearchObserver(Callback):
    """Shows ``searcher`` Tune's list of trials at the start of every step, before Tune asks it for
    trials (Tune keeps the callback and the searcher it holds in one saved Tuner, so a restored run's
    copy still holds the restored searcher)."""

    def __init__(self, searcher: SweepSearcher) -> None:
        self.searcher = searcher

    def on_step_begin(self, iteration: int, trials: list, **info: Any) -> None:
        self.searcher.observe(trials)

    def on_experiment_end(self, trials: list, **info: Any) -> None:
        self.searcher.observe(trials)  # a restored run that had ended runs no step: announce it here
