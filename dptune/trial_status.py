"""What became of a sweep trial: one enum, reported by the trainable and read by the searcher, the
progress lines and the tracker (``status`` in every result a trial reports), and the keys of the scores
a trial reports."""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any

STATUS_KEY = "status"
OBJECTIVE = "validation_accuracy"
"""What a search maximises and selects on: accuracy on the validation part of the held-out images."""
FINAL_SCORE = "test_accuracy"
"""What a re-run of a selected configuration reports: accuracy on the final-test part."""


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
