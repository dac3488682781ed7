"""The searcher of a sweep's one Tune run: the chain its mode built (``dptune.sweep.chain``), asked for
trials the way Tune asks a searcher.

Every method's trials share one Tune run per sweep (``dptune.tune.driver``) so that Tune reuses a
trial's actor for the next trial of any method: each Tune run starts its own actors, and an actor is a
new process that imports torch and Ray Tune before it trains (3–7 s of an idle slot each time).

When Tune has a free slot, ``SweepSearcher`` asks the methods in turn, the one with the fewest runs
going first (equal budgets are about trials, and every method's search moves on while the others' trials
run), and each method's steps in the chain's order: its search, its second rung, then the runs of its
selection. It caps the runs at once (``limit``), counted on Tune's list, and ends when every method's
last step has.

What the chain knows of the trials it reads from Tune's own list at the start of every step
(``SearchObserver``), not from its memory: Tune saves that list every step and restores it after the
driver is killed, so a resumed sweep selects from the trials the restored experiment holds, continues
the runs it holds and starts as many new ones as are missing (a run an earlier driver wrote ahead that
the restored experiment lacks keeps counting, like a lost search trial).
"""

from __future__ import annotations

import pickle
import queue
from typing import Any

from ray.tune import Callback
from ray.tune.experiment import Trial
from ray.tune.search import Searcher

from dptune.sweep.chain import Chain
from dptune.sweep.chain.board import ListedTrial
from dptune.sweep.chain.steps import FINISHED
from dptune.sweep.ledger import FINAL, SEARCH
from dptune.training.trial_status import OBJECTIVE
from dptune.tune.progress import console

assert Searcher.FINISHED == FINISHED, "the chain's word for a finished search must be Tune's"
_ENDED: dict[str, queue.SimpleQueue[str]] = {}


def ended_searches(sweep: str) -> queue.SimpleQueue[str]:
    """The methods of sweep ``sweep`` whose tuning has ended, in the order this process saw them end
    (the driver makes each one's Optuna page while the others train); kept in this module by the
    sweep's name, as a restored run's searcher is a copy unpickled from the saved Tuner."""
    return _ENDED.setdefault(sweep, queue.SimpleQueue())


class SweepSearcher(Searcher):
    """Every method's chain of a sweep (module docstring): ``chain``, the sweep's name ``sweep`` (its
    console and its ended tunings) and the runs at once ``limit``."""

    def __init__(self, chain: Chain, sweep: str, limit: int) -> None:
        super().__init__(metric=OBJECTIVE, mode="max")
        self.chain = chain
        self.sweep = sweep
        self.limit = limit

    def set_search_properties(self, metric: str | None, mode: str | None, config: dict, **spec: Any) -> bool:
        for searcher in self.chain.search.searchers.values():
            searcher.set_search_properties(metric, mode, config, **spec)
        return True

    def set_max_concurrency(self, max_concurrent: int) -> bool:
        return False  # the searcher caps its runs itself (``limit``)

    def observe(self, trials: list[Any]) -> None:
        """Read Tune's list of trials (each step, before Tune asks for new ones), then let every step
        announce what ended."""
        board = self.chain.board
        board.read(
            ListedTrial(
                trial.trial_id,
                trial.config,
                trial.is_finished(),
                trial.last_result if trial.status == Trial.TERMINATED and trial.last_result else None,
            )
            for trial in trials
        )
        for method in board.methods:
            for step in self.chain.steps:
                step.observe(board, method)
        for step in self.chain.steps:
            step.observe_all(board)
        self._pass_on()

    def _pass_on(self) -> None:
        """The console lines the chain left, and the methods whose tuning ended (for their pages)."""
        board = self.chain.board
        for line in board.said:
            console(self.sweep)(line)
        for method in board.ended_tunings:
            ended_searches(self.sweep).put(method)
        board.said, board.ended_tunings = [], []

    def order(self) -> list[str]:
        """The methods in the order they are asked: fewest runs running, then fewest search trials and runs
        of a selection started."""
        board = self.chain.board
        index = {m: i for i, m in enumerate(board.methods)}
        started = lambda m: board.runs[m][SEARCH].started + board.runs[m][FINAL].started  # noqa: E731
        return sorted(board.methods, key=lambda m: (board.live(m), started(m), index[m]))

    def suggest(self, trial_id: str) -> dict | str | None:
        board = self.chain.board
        try:
            if board.live() >= self.limit:
                return None
            for method in self.order():
                for step in self.chain.steps:
                    config = step.suggest(board, method, trial_id)
                    if config is not None:
                        return config
            last = self.chain.steps[-1]
            return FINISHED if all(last.ended(board, m) for m in board.methods) else None
        finally:
            self._pass_on()

    def _step(self, trial_id: str) -> tuple[str, Any]:
        method, kind = self.chain.board.owners[trial_id]
        return method, next(step for step in self.chain.steps if step.kind == kind)

    def on_trial_result(self, trial_id: str, result: dict) -> None:
        method, step = self._step(trial_id)
        step.result(self.chain.board, method, trial_id, result)

    def on_trial_complete(self, trial_id: str, result: dict | None = None, error: bool = False) -> None:
        method, step = self._step(trial_id)
        step.complete(self.chain.board, method, trial_id, result, error)

    def save(self, checkpoint_path: str) -> None:
        """Every step's own state, in one file."""
        with open(checkpoint_path, "wb") as stream:
            pickle.dump([step.save() for step in self.chain.steps], stream)

    def restore(self, checkpoint_path: str) -> None:
        with open(checkpoint_path, "rb") as stream:
            states = pickle.load(stream)
        for step, saved in zip(self.chain.steps, states, strict=True):
            step.restore(saved)
        self.chain.board.forget()


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
