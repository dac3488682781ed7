"""What became of a sweep trial: one enum, reported by the trainable and read by the searcher, the
progress lines and the tracker (``status`` in every result a trial reports), and the keys of the scores
a trial reports."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from enum import StrEnum
from typing import Any, TypeVar

T = TypeVar("T")

STATUS_KEY = "status"
OBJECTIVE = "validation_accuracy"
"""What a search maximises and selects on: accuracy on the validation part of the held-out images."""
FINAL_SCORE = "test_accuracy"
"""What a re-run of a selected configuration reports: accuracy on the final-test part."""
PLAN_SHARE = "plan_share"
"""The share of its planned epochs a trial has trained (epoch / epochs): ASHA's clock in a sweep."""


class TrialStatus(StrEnum):
    RUNNING = "running"  # reported after every epoch but the last
    FINISHED = "finished"  # trained every planned epoch
    STOPPED = "stopped"  # ended early by the scheduler (its last report said running)
    INFEASIBLE = "infeasible"  # its drawn filter is invalid: ended without touching the data
    FAILED = "failed"  # raised (e.g. diverged); counts its whole plan
    LOST = "lost"  # started, but unknown to a restored experiment (the driver was killed)

    @classmethod
    def of_ended(cls, result: Mapping[str, Any]) -> TrialStatus:
        """The status of a trial that ended without an error, from its last result."""
        status = cls(result.get(STATUS_KEY, cls.RUNNING))
        return cls.STOPPED if status is cls.RUNNING else status

    @property
    def trained(self) -> bool:
        """Whether a trial ending so has a model to compare (finished or stopped)."""
        return self in (TrialStatus.FINISHED, TrialStatus.STOPPED)


def select_trial(
    trials: Iterable[T], status: Callable[[T], TrialStatus], score: Callable[[T], float]
) -> T | None:
    """A search's selection rule: among its trials that trained every planned epoch, the one with the
    best validation score after its last epoch (None if none finished; of tied ones, the first in the
    given order). The driver applies it to Tune's results to choose what to re-run; the tracker to the
    recorded runs of a sweep that re-ran nothing."""
    return max((t for t in trials if status(t) is TrialStatus.FINISHED), key=score, default=None)
