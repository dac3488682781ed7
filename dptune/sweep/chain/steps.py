"""The steps a sweep's searcher chains, per method, each with its own small state (as optax chains
transforms): the tuning steps (``dptune.sweep.chain.tuning``: ``Search``, the method's searcher and trial
budget; ``Promote``, successive halving's second rung) and the selecting steps
(``dptune.sweep.chain.selection``: ``Select``, the selection within the method; ``PickAcross``, one model
across methods; ``RunSelection``, the re-runs or the release of the selection).

Each step reads the sweep's trials from the ``Board`` and the step before it: a tuning step says when the
method's tuning has ended and which trials a selection reads (``Tuning``); a selecting step which trial
the runs after it repeat (``Selecting``). The chain a sweep runs is built by its mode
(``dptune.sweep.modes``) and its release policy (``dptune.sweep.release_policies``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping
from typing import Any

from dptune.base.randomness import tie_rank
from dptune.sweep.chain.board import Board, Ended
from dptune.training.trial_status import (
    METHOD_KEY,
    OBJECTIVE,
    PROMOTED_FROM,
    RERUN_OF,
    TrialStatus,
)

Knobs = Callable[[dict[str, Any]], dict[str, Any]]
"""A map of a configuration's knobs (a drawn one's to its trial's, a selection's to its release's)."""
FINISHED = "FINISHED"
"""What a searcher suggests when it has nothing more to suggest (Ray Tune's ``Searcher.FINISHED``)."""


class Step(ABC):
    """One step of the chain: what it announces as the trials end, the runs it suggests (of its ``kind``,
    a private-state role; None: it suggests none), when it has ended for a method, and its own state."""

    kind: str | None = None

    def observe(self, board: Board, method: str) -> None:
        """After Tune's list was read: announce what ended for the method."""
        return None

    def observe_all(self, board: Board) -> None:
        """After every method was observed: announce what ended across methods."""
        return None

    def suggest(self, board: Board, method: str, trial_id: str) -> dict[str, Any] | None:
        """The method's next run of this step (None: none now)."""
        return None

    @abstractmethod
    def ended(self, board: Board, method: str) -> bool:
        """Whether the method has nothing left to run up to and including this step."""

    def result(self, board: Board, method: str, trial_id: str, result: dict[str, Any]) -> None:
        """An intermediate result of one of this step's runs."""
        return None

    def complete(
        self, board: Board, method: str, trial_id: str, result: dict[str, Any] | None, error: bool
    ) -> None:
        """One of this step's runs ended: a run written ahead by the chain counts its whole plan."""
        board.state.end(method, trial_id, None)

    def save(self) -> Any:
        """The step's state that outlives a driver (None: none)."""
        return None

    def restore(self, saved: Any) -> None:
        """The step as a new driver finds it (``saved``: what ``save`` returned), its memory of what this
        driver announced dropped."""
        return None


class Tuning(Step):
    """A step of a method's tuning: the trials a selection reads once it has ended."""

    @abstractmethod
    def candidates(self, board: Board, method: str) -> list[Ended]:
        """The trials a selection reads."""

    def first_rung(self, board: Board, method: str, trial: Ended) -> Ended:
        """The search trial behind one of ``candidates`` (its knobs as drawn)."""
        return trial

    def read_trials(self, board: Board, method: str) -> list[Ended]:
        """The trials read on validation that the method's selection was chosen among, one per run at each
        rung: those of ``candidates`` that trained a model (finished, or stopped early by a scheduler after
        a read). A challenger to a kept selection must beat it by a margin that grows with their number
        (``challenge_margin``)."""
        return [t for t in self.candidates(board, method) if t.trained]


def ranked(
    tie_key: int,
) -> tuple[Callable[[Ended], TrialStatus], Callable[[Ended], float], Callable[[Ended], int]]:
    """A trial's status, validation score and secret tie rank (``tie_rank`` under the sweep's key: the same
    trial after a resume, whatever order Tune restores its list in, never the order the trials ran in)."""
    return (
        lambda t: TrialStatus.of_ended(t.result),
        lambda t: t.result[OBJECTIVE],
        lambda t: tie_rank(tie_key, t.trial_id),
    )


class Selecting(Step):
    """A step that says which trial the runs after it repeat."""

    tuning: Tuning

    @abstractmethod
    def selected(self, board: Board, method: str) -> Ended | None:
        """The trial the method's runs repeat (None: none)."""

    def ended(self, board: Board, method: str) -> bool:
        """Whether the method's tuning has ended."""
        return self.tuning.ended(board, method)

    def first_rung(self, board: Board, method: str, trial: Ended) -> Ended:
        """The search trial behind a selection (its knobs as drawn, which a release's knobs read)."""
        return self.tuning.first_rung(board, method, trial)


def is_point(config: Mapping[str, Any], point: Mapping[str, Any]) -> bool:
    """Whether a trial's ``config`` holds every value of ``point`` (a start point as the search's
    parameter values): Optuna hands an enqueued point's values to the trial as they are."""
    return all(name in config and config[name] == value for name, value in point.items())


def released_settings(config: Mapping[str, Any]) -> dict[str, Any]:
    """The plain settings of a selected trial's config (its knobs as drawn, Optuna's names), without
    whose trial it is or its research seed: what the private state keeps of a selection."""
    return {
        k: v
        for k, v in config.items()
        if isinstance(v, bool | int | float | str) and k not in (METHOD_KEY, RERUN_OF, PROMOTED_FROM, "seed")
    }
