"""A bad input raised where a trial runs reaches the driver and the trial's record whole: Ray sends a
worker's exception pickled, and Tune copies it (``copy.copy``) before it records the trial's error."""

from __future__ import annotations

import copy
import pickle

import pytest
import ray

from dptune.base.errors import DataUnavailableError, InputError

FIELD, PROBLEM = "param.k", "must be an integer >= 1, got 0"


@pytest.mark.parametrize("kind", [InputError, DataUnavailableError])
def test_a_copied_or_unpickled_error_keeps_its_field_and_problem(kind: type[InputError]) -> None:
    error = kind(FIELD, PROBLEM)
    error.add_note("raised in a trial")
    for again in (copy.copy(error), pickle.loads(pickle.dumps(error))):
        assert type(again) is kind
        assert (again.field, again.problem, str(again)) == (FIELD, PROBLEM, f"{FIELD}: {PROBLEM}")
        assert again.__notes__ == ["raised in a trial"]


def test_an_input_error_raised_in_a_ray_worker_reaches_the_driver(local_ray) -> None:
    @ray.remote
    def bad_input() -> None:
        raise InputError(FIELD, PROBLEM)

    with pytest.raises(InputError) as caught:
        ray.get(bad_input.remote())
    assert (caught.value.field, caught.value.problem) == (FIELD, PROBLEM)
