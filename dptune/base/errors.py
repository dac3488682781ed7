"""Errors that carry the name of the user-facing field at fault."""

from __future__ import annotations


class InputError(ValueError):
    """Bad user input, reported as one line: the field, what is wrong and what would be valid.

    Args:
        field: the name the user wrote (CLI flag, parameter or spec path), e.g. ``param.k``.
        problem: what is wrong and what would be valid, e.g. ``must be an integer >= 1, got 0``.
    """

    def __init__(self, field: str, problem: str) -> None:
        self.field = field
        self.problem = problem
        super().__init__(f"{field}: {problem}")

    def __reduce__(self) -> tuple[type[InputError], tuple[str, str], dict]:
        """Rebuilt from its field and problem when copied or unpickled, with its other attributes (notes
        included): Ray sends a trial's error from its worker pickled, and Tune copies it before
        recording it; an exception's default rebuilds it from its message alone, which this
        ``__init__`` refuses (the trial's reason would be that ``TypeError``). Subclasses keep the
        ``(field, problem)`` signature."""
        return type(self), (self.field, self.problem), self.__dict__


class DataUnavailableError(InputError):
    """A dataset that is neither on disk nor downloadable; the message says how to get it."""


class TrainingDivergedError(RuntimeError):
    """The training loss became non-finite; the run cannot continue."""
