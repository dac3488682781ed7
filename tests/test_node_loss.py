"""``dptune.tune.node_loss``: a trial's actor lost with its node spends none of the trial's retries, on the
pinned Ray's own ``Trial`` (the whole path, a raylet killed under a sweep, is ``tests/test_cluster.py``)."""

from __future__ import annotations

import time
from pathlib import Path

import ray
from ray.exceptions import ActorDiedError, ActorUnavailableError, RayTaskError
from ray.train._internal.storage import StorageContext
from ray.tune import Result
from ray.tune.experiment.trial import Trial

from dptune.sweep.summary import Restarts
from dptune.tune.node_loss import (
    NODE_LOSS_RETRIES,
    actor_losses,
    count_node_losses_apart,
    declared_dead,
    failed_attempts,
)
from dptune.tune.outcomes import restarts_of
from dptune.tune.sweep_run import FAILED_ATTEMPTS_KEY, LOST_KEY


def tune_trial(folder: Path) -> Trial:
    """A trial of Ray's own ``Trial`` class, as Tune makes one (2 retries), whose errors are written under
    ``folder``."""
    storage = StorageContext(storage_path=str(folder), experiment_dir_name="sweep", trial_dir_name="trial")
    trial = Trial("dptune_sweep", config={}, stub=True, max_failures=2, storage=storage)
    Path(trial.local_path).mkdir(parents=True)
    return trial


def test_a_lost_actor_spends_no_retry_until_its_own_budget_is_spent_and_an_error_of_its_code_does(
    tmp_path: Path, local_ray: None
) -> None:
    count_node_losses_apart()
    count_node_losses_apart()  # idempotent: the handler is wrapped once
    trial = tune_trial(tmp_path)
    lost = ActorUnavailableError("the node died", b"\x00" * 16)
    for _ in range(NODE_LOSS_RETRIES):
        trial.handle_error(lost)
    assert trial.num_failures == 0 and actor_losses(trial) == NODE_LOSS_RETRIES
    assert trial.should_recover()
    trial.handle_error(ActorDiedError())  # beyond the budget: Tune counts it
    assert trial.num_failures == 1
    own = RayTaskError("dptune_sweep", "Traceback: ValueError", ValueError("the trial's own error"))
    trial.handle_error(own)
    trial.handle_error(own)
    assert trial.num_failures == 3 and not trial.should_recover()


def test_a_lost_actor_spends_no_retry_while_its_trial_restores_from_a_checkpoint(
    tmp_path: Path, local_ray: None
) -> None:
    """A retry's new node lost before its first report: Tune's restore path would count any error as a
    failure; a lost actor there is counted apart too, and an error of the trial's own still counts."""
    count_node_losses_apart()
    trial = tune_trial(tmp_path)
    trial.temporary_state.restoring_from = object()  # what Tune sets until a restored trial reports
    assert trial.is_restoring
    trial.handle_error(ActorUnavailableError("the new node died", b"\x00" * 16))
    assert trial.num_failures == 0 and actor_losses(trial) == 1
    trial.handle_error(RayTaskError("dptune_sweep", "Traceback", ValueError("its own error")))
    assert trial.num_failures == 1


def test_an_actor_whose_creation_failed_counts_as_the_trials_failure(tmp_path: Path, local_ray: None) -> None:
    count_node_losses_apart()
    trial = tune_trial(tmp_path)
    creation = ActorDiedError(RayTaskError("dptune_sweep", "Traceback", ImportError("no module")))
    assert creation.actor_init_failed
    trial.handle_error(creation)
    assert trial.num_failures == 1 and actor_losses(trial) == 0


def test_a_retry_waits_until_the_lost_node_is_declared_dead_and_no_longer(local_ray: None) -> None:
    """``declared_dead``: a node the cluster still counts alive is waited for up to the limit (False); a
    node it no longer knows is dead at once (True), so a retry waits only while its node is dying."""
    alive = ray.get_runtime_context().get_node_id()
    started = time.monotonic()
    assert not declared_dead(alive, 1.0) and time.monotonic() - started >= 1.0
    started = time.monotonic()
    assert declared_dead("f" * 56, 30.0) and time.monotonic() - started < 5.0


def test_an_actor_lost_on_the_drivers_own_node_counts_as_the_trials_failure(
    tmp_path: Path, local_ray: None
) -> None:
    """The driver's node lives (the driver runs on it): an actor lost there lost its process (an OOM
    kill), not its node, and Tune counts it, without waiting."""
    count_node_losses_apart()
    trial = tune_trial(tmp_path)
    trial.run_metadata.last_result = {"node_id": ray.get_runtime_context().get_node_id()}
    started = time.monotonic()
    trial.handle_error(ActorDiedError())
    assert trial.num_failures == 1 and actor_losses(trial) == 0 and time.monotonic() - started < 5.0


def test_the_summary_counts_each_restart_by_what_ended_the_attempt(tmp_path: Path, local_ray: None) -> None:
    """A trial lost with its node, then failing in its own code, then lost again: Tune's error file holds
    three attempts, whose failure counts 0, 1, 1 tell two losses and one error; a trial that ended in error
    was not restarted after its last attempt; one that never failed has no attempts."""
    count_node_losses_apart()
    trial = tune_trial(tmp_path)
    lost = ActorUnavailableError("the node died", b"\x00" * 16)
    trial.handle_error(lost)
    trial.handle_error(RayTaskError("dptune_sweep", "Traceback", ValueError("its own error")))
    trial.handle_error(lost)
    attempts = failed_attempts(Result(metrics={}, checkpoint=None, error=None, path=trial.local_path))
    assert attempts == [0, 1, 1]
    assert failed_attempts(Result(metrics={}, checkpoint=None, error=None, path=str(tmp_path))) == []
    finished = {FAILED_ATTEMPTS_KEY: attempts}
    ended_in_error = {FAILED_ATTEMPTS_KEY: [1, 2, 3], LOST_KEY: "ValueError: its own error"}
    never_failed = {FAILED_ATTEMPTS_KEY: []}
    assert restarts_of([finished, ended_in_error, never_failed]) == Restarts(2, 2, 3)
    assert restarts_of([never_failed]).phrase() == ""
    assert restarts_of([finished]).phrase() == (
        "; 1 trial restarted from its last checkpoint (2 after a lost node or process, spending none of its "
        "retries; 1 after an error of its own)"
    )
