"""A trial whose actor is lost with its node or process does not spend the retries it has for its own
errors.

Tune counts every failure of a trial against ``FailureConfig.max_failures`` (``Trial.handle_error``), except
an actor on a node the autoscaler drained for preemption. A node that dies otherwise (a spot node reclaimed
without notice, a killed raylet, a VM that crashed) ends each trial it held with a ``RayActorError`` (the
actor unavailable or dead), and Tune may place the retry on that same node before the cluster has declared
it dead (its health checks take 15 s or more), so that one loss can spend two retries. Here a loss of the
trial's actor, a ``RayActorError`` not raised by the trial's own code (an exception of the trainable, its
creation included, arrives as a ``RayTaskError`` or marks the actor's creation as failed), is counted apart:
up to ``NODE_LOSS_RETRIES`` a trial, none of them among its failures; beyond that, as Tune counts it. Before
Tune places the retry, the driver waits until the cluster has declared the trial's last node dead (at most
``DECLARED_DEAD_WITHIN_S``; ``declared_dead``), so that the retry does not land on the dying node. A trial
that last ran on the driver's own node (a Ray the driver started has no other) lost its process, not its
node (an OOM kill, say): that counts as Tune counts it. A loss while the trial restores from its
checkpoint (Tune counts any error there as a failure) is counted apart alike. Ray has no setting for it
(``RAY_TRAIN_COUNT_PREEMPTION_AS_FAILURE`` covers preemption alone), so ``count_node_losses_apart`` wraps
the handlers of Ray's ``Trial`` (Ray is pinned; ``tests/test_node_loss.py`` holds the wrappers to the
pinned version's behaviour). The summary counts the restarts from what Tune wrote of each failed attempt
(``failed_attempts``).

A retried trial restarts from its last checkpoint with its random states, or afresh before its first; the
lost attempt released nothing, so its ledger is unchanged (``sweep_run.TRIAL_RETRIES``).
"""

from __future__ import annotations

import re
import time

import ray
from pyarrow.fs import FileType
from ray.exceptions import RayActorError
from ray.tune import Result
from ray.tune.experiment.trial import Trial

from dptune.training.trial_status import NODE_KEY

NODE_LOSS_RETRIES = 8
"""Losses of its actor (its node or process gone) a trial is restarted after, apart from its failures."""

DECLARED_DEAD_WITHIN_S = 45.0
"""How long the driver waits for a lost trial's node to be declared dead (Ray's health checks: about 15 s
after a raylet stops answering, 30 s at worst) before Tune retries the trial."""

_LOSSES = "_dptune_actor_losses"
_ERROR_FILE = "error.txt"  # Tune's record of a trial's failed attempts, kept with the trial's results
_FAILURE_HEADER = re.compile(r"^Failure # (\d+) ", re.MULTILINE)


def declared_dead(node_id: str, seconds: float) -> bool:
    """Wait until the cluster no longer counts ``node_id`` among its alive nodes, at most ``seconds``;
    whether it does not (a node it never knew counts as dead)."""
    deadline = time.monotonic() + seconds
    while any(node["NodeID"] == node_id and node["Alive"] for node in ray.nodes()):
        if time.monotonic() >= deadline:
            return False
        time.sleep(1.0)
    return True


def actor_losses(trial: Trial) -> int:
    """The losses of ``trial``'s actor counted apart from its failures so far (in this driver)."""
    return int(getattr(trial, _LOSSES, 0))


def count_node_losses_apart() -> None:
    """Make every ``Trial`` count the loss of its actor apart from its failures (idempotent), also while
    it restores from a checkpoint (a retry whose new node is lost before its first report), where Tune
    would otherwise count any error as a failure."""
    handler = Trial._handle_ray_actor_error
    if getattr(handler, "counts_losses_apart", False):
        return
    restore_handler = Trial._handle_restore_error

    def counted_apart(trial: Trial, exc: RayActorError) -> bool:
        """Whether ``exc`` is a loss of the trial's node counted apart (after the wait for that node to be
        declared dead); if not, the caller's own Tune handler counts it."""
        lost = actor_losses(trial)
        node = (trial.last_result or {}).get(NODE_KEY)
        own_node = node is not None and node == ray.get_runtime_context().get_node_id()
        if exc.actor_init_failed or lost >= NODE_LOSS_RETRIES or own_node:
            return False  # own_node: the driver's node lives, so the actor's process died (OOM)
        setattr(trial, _LOSSES, lost + 1)
        if node:
            declared_dead(str(node), DECLARED_DEAD_WITHIN_S)
        return True

    def handle(trial: Trial, exc: RayActorError) -> None:
        if not counted_apart(trial, exc):
            handler(trial, exc)

    def handle_restore(trial: Trial, exc: Exception) -> None:
        if not (isinstance(exc, RayActorError) and counted_apart(trial, exc)):
            restore_handler(trial, exc)

    handle.counts_losses_apart = True  # type: ignore[attr-defined]
    Trial._handle_ray_actor_error = handle  # type: ignore[method-assign,assignment]
    Trial._handle_restore_error = handle_restore  # type: ignore[method-assign,assignment]


def failed_attempts(result: Result) -> list[int]:
    """Tune's count of ``result``'s failures as each of its failed attempts ended, in order, from the
    trial's error file (empty: none failed). An attempt after which the count did not grow lost its actor,
    counted apart from its failures (``count_node_losses_apart``); every attempt but the last of a trial
    that ended in error was restarted."""
    path = f"{result.path}/{_ERROR_FILE}"
    filesystem = result.filesystem
    if filesystem.get_file_info(path).type != FileType.File:
        return []
    with filesystem.open_input_stream(path) as stream:
        text = stream.read().decode(errors="replace")
    return [int(count) for count in _FAILURE_HEADER.findall(text)]
