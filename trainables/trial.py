"""The Tune function trainable: restore, train epoch by epoch, report and checkpoint each epoch.

Every reported result carries ``validation_accuracy``, ``validation_loss``, ``epsilon_spent``, the epoch
and the ``history`` of those metrics for every epoch so far (MLflow backfills from it after a resume);
a trial is scored and selected on the validation part only. A re-run of a selected configuration
(``final_test``) also reports ``test_accuracy`` and ``test_loss`` of the final-test part with its last epoch;
every checkpoint holds the whole ``Trainer.state_dict()`` (parameters, past iterates, filter/momentum/
Adam/memory states, accountant history, sampling and noise RNG states, step), so a trial resumed
from it continues exactly. A diverging trial reports ``status: failed`` with its reason and ends; it does
not raise, so Tune does not retry it: its retries (``max_failures``) are for lost actors and nodes,
which resume from the last checkpoint with the same random states (or start afresh before the first).
A run started again with fresh noise after its own data-dependent failure would be a second run that no
ledger counts.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import ray
import torch
from ray import tune

from dptune.config import RunConfig
from dptune.data import Dataset
from dptune.errors import TrainingDivergedError
from dptune.gpu_memory import cap_process_memory
from dptune.methods import METHODS
from dptune.methods.filters import DrawnFilter
from dptune.train import Trainer
from dptune.trial_status import METHOD_KEY, PLAN_SHARE, STATUS_KEY, TrialStatus, is_rerun

STATE_FILE = "trainer_state.pt"


def run_trial(
    config: dict[str, Any],
    run: RunConfig,
    cpus: float,
    gpus: float,
    data: Dataset,
    final_test: bool = False,
    proxy_rows: torch.Tensor | None = None,
) -> None:
    """Tune function trainable body (see the module docstring): ``run`` with the trial's knobs (a tuning
    proxy's on the sweep's one secret subset, ``proxy_rows``)."""
    torch.set_num_threads(max(1, int(cpus)))
    started = time.time()
    node = ray.get_runtime_context().get_node_id()
    drawn = config.get("filter")

    def end_without_model(status: TrialStatus, reason: str, epoch: int) -> None:
        """The last report of a trial that has no model to compare (score 0 for Tune's metric check)."""
        tune.report(
            {
                "validation_accuracy": 0.0,
                "epoch": epoch,
                STATUS_KEY: status,
                "reason": reason,
                "trial_start": started,
                "trial_end": time.time(),
                "node_id": node,
            }
        )

    if isinstance(drawn, DrawnFilter) and not drawn.valid:
        end_without_model(TrialStatus.INFEASIBLE, drawn.problem, 0)
        return
    device = "cuda" if gpus > 0 and torch.cuda.is_available() else "cpu"
    cap_process_memory(torch.device(device), gpus)  # a GPU share is a memory cap too
    trainer = Trainer(run.with_knobs({**config, "device": device}), data, proxy_rows, gpu_share=gpus)
    checkpoint = tune.get_checkpoint()
    if checkpoint is not None:
        with checkpoint.as_directory() as folder:
            trainer.load_state_dict(torch.load(Path(folder) / STATE_FILE, weights_only=False))
    while trainer.epoch < trainer.config.epochs:
        try:
            epoch = trainer.train_epoch()
        except TrainingDivergedError as error:
            end_without_model(TrialStatus.FAILED, f"TrainingDivergedError: {error}", trainer.epoch)
            return
        last = trainer.epoch == trainer.config.epochs
        metrics = {
            "validation_accuracy": epoch.validation_accuracy,
            "validation_loss": epoch.validation_loss,
            "epsilon_spent": epoch.epsilon_spent,
            "epsilon_target": run.epsilon,
            "epoch": epoch.epoch,
            "epochs_target": trainer.config.epochs,
            PLAN_SHARE: epoch.epoch / trainer.config.epochs,
            STATUS_KEY: TrialStatus.FINISHED if last else TrialStatus.RUNNING,
            "steps": epoch.step,
            "epoch_seconds": epoch.seconds,
            "noise_multiplier": trainer.calibration.noise_multiplier,
            "nonfinite_signals_zeroed": trainer.engine.nonfinite,  # internal: never released
            "delta": trainer.delta,
            "trial_start": started,
            "node_id": node,
            "history": [
                {
                    "epoch": e.epoch,
                    "validation_accuracy": e.validation_accuracy,
                    "validation_loss": e.validation_loss,
                    "epsilon_spent": e.epsilon_spent,
                }
                for e in trainer.history
            ],
        }
        if last and final_test:
            metrics["test_loss"], metrics["test_accuracy"] = trainer.final_test()
        metrics["trial_end"] = time.time()  # the final test is the trial's work too
        with tempfile.TemporaryDirectory() as folder:
            torch.save(trainer.state_dict(), Path(folder) / STATE_FILE)
            tune.report(metrics, checkpoint=tune.Checkpoint.from_directory(folder))


def make_trainable(method: str) -> Callable[..., None]:
    """The trainable of one method, named ``dptune_<method>`` in Tune's trial names."""

    def trainable(
        config: dict[str, Any],
        run: RunConfig,
        cpus: float,
        gpus: float,
        data: Dataset,
        final_test: bool = False,
        proxy_rows: torch.Tensor | None = None,
    ) -> None:
        if run.method != method:
            raise ValueError(f"trainable for {method} got a run of {run.method}")
        run_trial(config, run, cpus, gpus, data, final_test, proxy_rows)

    trainable.__name__ = trainable.__qualname__ = f"dptune_{method.replace('-', '_')}"
    return trainable


TRAINABLES: dict[str, Callable[..., None]] = {name: make_trainable(name) for name in METHODS}


def dptune_sweep(
    config: dict[str, Any],
    runs: dict[str, RunConfig],
    cpus: float,
    gpus: float,
    data: Dataset,
    proxy_rows: torch.Tensor | None = None,
) -> None:
    """The trainable of a sweep stage's one Tune run: the trial of the method its config names
    (``METHOD_KEY``), with that method's run configuration, through that method's trainable; a re-run
    (``RERUN_OF`` in its config) is scored on the final-test part too.

    One trainable for every method lets Tune reuse a trial's actor (a process that has imported torch
    and Ray Tune, and holds the data) for the next trial of any method, instead of starting one per
    method's Tune run (``dptune.sweep.driver``).
    """
    method = config[METHOD_KEY]
    TRAINABLES[method](config, runs[method], cpus, gpus, data, is_rerun(config), proxy_rows)
