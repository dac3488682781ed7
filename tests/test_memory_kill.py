"""A trial's worker killed by Ray's memory monitor. Tune meets the kill one of two ways: as the trial's
failure, which it retries (``TRIAL_RETRIES``), or, where the killed worker's error reaches its actor manager
unwrapped, as an error that ends the whole run, which the sweep tells apart from every other
(``killed_for_memory``) and restores the run from (``fit_through_memory_kills``): Ray's own actor manager,
given the error Ray's workers raise, shows the second."""

from __future__ import annotations

import pytest

from dptune.tune.sweep_run import killed_for_memory

pytestmark = pytest.mark.slow


def test_an_unwrapped_memory_kill_ends_tunes_run_with_the_error_the_sweep_resumes_from() -> None:
    import ray
    from ray.air.execution._internal.actor_manager import RayActorManager
    from ray.air.execution._internal.tracked_actor import TrackedActor
    from ray.air.execution._internal.tracked_actor_task import TrackedActorTask
    from ray.air.execution.resources import FixedResourceManager

    kill = ray.exceptions.OutOfMemoryError("1 worker(s) were killed due to the node running low on memory")
    try:
        manager = RayActorManager(FixedResourceManager())
        with pytest.raises(RuntimeError, match="Caught unexpected exception") as caught:
            manager._actor_task_failed(TrackedActorTask(TrackedActor(0)), kill)
    finally:
        ray.shutdown()
    assert killed_for_memory(caught.value)
    assert not killed_for_memory(RuntimeError("Caught unexpected exception: something else"))
    assert not killed_for_memory(kill)  # only the error that ends the run
