"""A method's tuning steps: ``Search`` (its searcher with its trial budget) and ``Promote`` (successive
halving's second rung), each a ``Tuning`` step of the chain (``dptune.sweep.chain.steps``)."""

from __future__ import annotations

import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

from dptune.sweep.chain.board import Board, Ended
from dptune.sweep.chain.steps import FINISHED, Knobs, Tuning, ranked
from dptune.sweep.ledger import PROMOTED, SEARCH
from dptune.training.trial_status import (
    METHOD_KEY,
    PROMOTED_FROM,
    best_trials,
    route,
    validation_shown,
)


class MethodSearcher(Protocol):
    """One method's searcher as the chain calls it (``dptune.tune.searcher.AccountedSearcher``): it writes
    each trial it suggests ahead in the private state, and keeps its own share of a privacy filter."""

    def set_search_properties(
        self, metric: str | None, mode: str | None, config: dict[str, Any], **spec: Any
    ) -> bool: ...

    def suggest(self, trial_id: str) -> dict[str, Any] | str | None: ...

    def on_trial_result(self, trial_id: str, result: dict[str, Any]) -> None: ...

    def on_trial_complete(
        self, trial_id: str, result: dict[str, Any] | None = None, error: bool = False
    ) -> None: ...

    def admits_rerun(self) -> bool: ...

    def save(self, checkpoint_path: str) -> None: ...

    def restore(self, checkpoint_path: str) -> None: ...


class Search(Tuning):
    """Each method's searcher with its trial budget (``budgets``); ``knobs`` maps a drawn configuration to
    its tuning trial's (a pipeline's: its step at the tuning's ε). A method whose searcher said FINISHED
    with none of its trials running is spent (its filter share, say)."""

    kind = SEARCH

    def __init__(
        self,
        searchers: Mapping[str, MethodSearcher],
        budgets: Mapping[str, int],
        knobs: Mapping[str, Knobs] | None = None,
    ) -> None:
        self.searchers = dict(searchers)
        self.budgets = dict(budgets)
        self.knobs = dict(knobs or {})
        self.spent: set[str] = set()

    def suggest(self, board: Board, method: str, trial_id: str) -> dict[str, Any] | None:
        if method in self.spent or board.started(method, SEARCH) >= self.budgets[method]:
            return None
        config = self.searchers[method].suggest(trial_id)
        if config == FINISHED and board.runs[method][SEARCH].running == 0:  # else its trials may give back
            self.spent.add(method)
        if not isinstance(config, dict):
            return None
        board.add(method, trial_id, SEARCH)
        if method in self.knobs:
            config = self.knobs[method](config)
        return {**config, METHOD_KEY: method}

    def ended(self, board: Board, method: str) -> bool:
        done = method in self.spent or board.started(method, SEARCH) >= self.budgets[method]
        return done and board.runs[method][SEARCH].running == 0

    def candidates(self, board: Board, method: str) -> list[Ended]:
        return board.runs[method][SEARCH].ended

    def admits_run(self, method: str) -> bool:
        """Whether one more run of the method's selection fits its share of the privacy filter."""
        return self.searchers[method].admits_rerun()

    def result(self, board: Board, method: str, trial_id: str, result: dict[str, Any]) -> None:
        self.searchers[method].on_trial_result(trial_id, result)

    def complete(
        self, board: Board, method: str, trial_id: str, result: dict[str, Any] | None, error: bool
    ) -> None:
        self.searchers[method].on_trial_complete(trial_id, result=result, error=error)

    def save(self) -> dict[str, bytes]:
        """Every method's searcher as it saves itself (Optuna's study and trials)."""
        saved = {}
        with tempfile.TemporaryDirectory() as folder:
            for method, searcher in self.searchers.items():
                path = Path(folder) / f"{method}.pkl"
                searcher.save(str(path))
                saved[method] = path.read_bytes()
        return saved

    def restore(self, saved: Any) -> None:
        with tempfile.TemporaryDirectory() as folder:
            for method, searcher in self.searchers.items():
                path = Path(folder) / f"{method}.pkl"
                path.write_bytes(saved[method])
                searcher.restore(str(path))
        self.spent = set()


class Promote(Tuning):
    """Successive halving's second rung: once the method's search has ended, its best ``count`` finished
    trials by validation, ties by the secret rank (``best_trials``), each trained again with the knobs
    ``knobs`` maps its configuration to (longer, at the same noise), written ahead (role ``promoted``) with
    fresh randomness; the selection then reads the promoted trials where one finished every epoch."""

    kind = PROMOTED

    def __init__(self, search: Search, count: int, knobs: Mapping[str, Knobs], tie_key: int) -> None:
        if set(knobs) != set(search.searchers):
            raise ValueError("successive halving needs every method's promoted knobs")
        self.search = search
        self.count = count
        self.knobs = dict(knobs)
        self.tie_key = tie_key
        self.announced: set[str] = set()

    def promotable(self, board: Board, method: str) -> list[Ended]:
        """The search trials the second rung trains again (the same after a resume)."""
        return best_trials(self.search.candidates(board, method), *ranked(self.tie_key), self.count)

    def waiting(self, board: Board, method: str) -> list[Ended]:
        """The trials of ``promotable`` not promoted yet (none once ``count`` have started)."""
        if board.started(method, PROMOTED) >= self.count:
            return []
        promoted = board.runs[method][PROMOTED].sources
        return [t for t in self.promotable(board, method) if t.trial_id not in promoted]

    def observe(self, board: Board, method: str) -> None:
        if method in self.announced or not self.search.ended(board, method):
            return
        self.announced.add(method)
        chosen = self.promotable(board, method)
        scores = ", ".join(validation_shown(t.result) for t in chosen)
        line = (
            f"promoting its best {len(chosen)} trials by validation ({scores}): each trained again, longer, "
            "at the same noise"
            if chosen
            else "no trial finished every epoch: nothing to promote"
        )
        board.say(f"  {method:<15} {line}")

    def suggest(self, board: Board, method: str, trial_id: str) -> dict[str, Any] | None:
        if not self.search.ended(board, method):
            return None
        waiting = self.waiting(board, method)
        if not waiting:
            return None
        first = waiting[0]
        seed = board.write_ahead(method, trial_id, PROMOTED, first.trial_id)
        knobs = {k: v for k, v in first.config.items() if k != "seed"}
        config = self.knobs[method](knobs) | {PROMOTED_FROM: first.trial_id}
        return config if seed is None else config | {"seed": seed}

    def ended(self, board: Board, method: str) -> bool:
        if not self.search.ended(board, method):
            return False
        return not self.waiting(board, method) and board.runs[method][PROMOTED].running == 0

    def candidates(self, board: Board, method: str) -> list[Ended]:
        promoted = board.runs[method][PROMOTED].ended
        return promoted if any(t.finished for t in promoted) else self.search.candidates(board, method)

    def read_trials(self, board: Board, method: str) -> list[Ended]:
        """Both rungs' trials that trained a model: the promoted ones were chosen by their first rung's
        reads."""
        promoted = board.runs[method][PROMOTED].ended
        return self.search.read_trials(board, method) + [t for t in promoted if t.trained]

    def first_rung(self, board: Board, method: str, trial: Ended) -> Ended:
        first = route(trial.config).promoted_from
        if first is None:
            return trial
        return next(t for t in self.search.candidates(board, method) if t.trial_id == first)

    def restore(self, saved: Any) -> None:
        self.announced = set()
