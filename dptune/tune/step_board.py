"""Progress within a trial's epoch, for the sweep's live line: a Ray actor the trials write to and the
driver reads.

A trial reports to Tune once per epoch. An epoch of a large model on a CPU can take many minutes, and
nothing would show between two of its lines; so a trial whose epoch has run ``QUIET_SECONDS`` posts its
step to the sweep's ``StepBoard`` (at most every ``POST_SECONDS``), and clears it when the epoch ends.
The board is a named actor (``BOARD_NAME``) in the driver's Ray job, whose namespace is its own, so
each sweep's driver has one; a trial that finds none (run outside a sweep) posts nothing. What it holds
is a trial's position in its fixed step schedule, public wherever the trial's existence is (the live
line leaves out methods whose trial count is secret).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import ray

QUIET_SECONDS = 60.0
"""How long an epoch runs before its trial posts its progress within it."""
POST_SECONDS = 10.0
"""How often a trial posts, once it does."""


@dataclass(frozen=True)
class EpochStep:
    """Where a trial is: step ``step`` of ``steps`` in epoch ``epoch`` of ``epochs``."""

    method: str
    epoch: int
    epochs: int
    step: int
    steps: int

    def describe(self) -> str:
        """``epoch 2/10 41%``."""
        return f"epoch {self.epoch}/{self.epochs} {100 * self.step // self.steps}%"


class StepBoard:
    """The running trials' positions within long epochs, by trial id."""

    def __init__(self) -> None:
        self.steps: dict[str, EpochStep] = {}

    def post(self, trial_id: str, step: EpochStep | None) -> None:
        if step is None:
            self.steps.pop(trial_id, None)
        else:
            self.steps[trial_id] = step

    def read(self) -> dict[str, EpochStep]:
        return dict(self.steps)

    def clear(self) -> None:
        self.steps.clear()


BOARD_NAME = "dptune-steps"


def start_board() -> Any:
    """This Ray job's board (a ``StepBoard`` actor without a CPU of its own), emptied (a driver may run
    several sweeps) and ready for trials to find."""
    actor: Any = ray.remote(StepBoard)
    board = actor.options(name=BOARD_NAME, num_cpus=0, get_if_exists=True).remote()
    ray.get(board.clear.remote())
    return board


class StepPoster:
    """A trial's ``on_step`` hook: posts ``EpochStep``s of ``method`` (epoch from ``epoch()``, of
    ``epochs``) once an epoch has run ``QUIET_SECONDS``, every ``POST_SECONDS``; clears the post when the
    next epoch starts."""

    def __init__(
        self,
        trial_id: str,
        method: str,
        epochs: int,
        epoch: Callable[[], int],
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.board: Any  # an actor handle (Ray types its methods' .remote loosely), or None
        try:
            self.board = ray.get_actor(BOARD_NAME)
        except ValueError:
            self.board = None
        self.trial_id, self.method, self.epochs = trial_id, method, epochs
        self.epoch, self.clock = epoch, clock
        self.started = self.posted = clock()
        self.shown = False

    def __call__(self, step: int, steps: int) -> None:
        if self.board is None:
            return
        now = self.clock()
        if step == 1:
            self.started = now
            if self.shown:
                self.board.post.remote(self.trial_id, None)
                self.shown = False
        if now - self.started >= QUIET_SECONDS and now - self.posted >= POST_SECONDS:
            self.posted, self.shown = now, True
            self.board.post.remote(
                self.trial_id, EpochStep(self.method, self.epoch(), self.epochs, step, steps)
            )
