"""The Tune function trainable: restore, train epoch by epoch, report and checkpoint each epoch.

Every reported result carries ``validation_accuracy``, ``validation_loss``, ``epsilon_spent``, the epoch
and the ``history`` of those metrics for every epoch so far (MLflow backfills from it after a resume);
a trial is scored and selected on the validation part only. A re-run of a selected configuration
(``final_test``) also reports ``test_accuracy`` and ``test_loss`` of the final-test part with its last epoch,
and its last checkpoint holds the released model beside the state (``RELEASED_FILE``);
every checkpoint holds the whole ``Trainer.state_dict()`` (parameters, past iterates, filter/momentum/
Adam/memory states, accountant history, sampling and noise RNG states, step), so a trial resumed
from it continues exactly. A diverging trial reports ``status: failed`` with its reason and ends; it does
not raise, so Tune does not retry it: its retries (``max_failures``) are for lost actors and nodes,
which resume from the last checkpoint with the same random states (or start afresh before the first).
A run started again with fresh noise after its own data-dependent failure would be a second run that no
ledger counts.
"""

from __future__ import annotations

import math
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import ray
import torch
from ray import tune

from dptune.base.errors import TrainingDivergedError
from dptune.engine.dataset import Dataset
from dptune.engine.gpu_memory import prepare_gpu
from dptune.methods.filters import DrawnFilter
from dptune.training.checkpoint import load_checkpoint, save_checkpoint
from dptune.training.config import RunConfig
from dptune.training.train import EpochResult, Trainer
from dptune.training.trial_status import (
    DEVICE_KEY,
    FINAL_SCORE,
    GPU_SHARE_KEY,
    NODE_KEY,
    OBJECTIVE,
    PLAN_SHARE,
    SCORE_STD,
    STATUS_KEY,
    TrialStatus,
    route,
)
from dptune.tune.resources import TrialPlacement, node_share
from dptune.tune.step_board import StepPoster

PRIVATE_NONFINITE_KEY = "private_nonfinite_signals_zeroed"
"""A trial's count of per-sample signals left out of its clipped sums for not being finite
(``dptune.engine.persample``): a count over private records, computed before any noise, so it stays in
Tune's results (``ray_results/``, private state) and nothing released reads it (no tracking store, no
card, no console)."""
RELEASED_FILE = "released_model.pt"
"""Beside the last checkpoint of a re-run: the released model alone (``Trainer.released_module``), which
the driver logs; the rest of the checkpoint (generator states) stays private."""


def trial_device(gpus: float, gpu_fallback: str) -> str | None:
    """Where a trial trains: ``cpu`` without a GPU share; ``cuda`` with one on a node whose CUDA it sees;
    on a node that shows it none (no driver for the CUDA build, or a container started without the GPU),
    ``cpu`` where the spec says so (``resources.gpu_fallback: cpu``), else None: the trial fails at
    once, never silently on the CPU."""
    if gpus <= 0:
        return "cpu"
    if torch.cuda.is_available():
        return "cuda"
    return "cpu" if gpu_fallback == "cpu" else None


def no_cuda_reason(gpus: float) -> str:
    """The one line a trial that was given a GPU share and sees no CUDA device ends with."""
    return (
        f"resources.gpu: the trial was given {gpus:g} GPU but its node shows no CUDA device (a driver "
        f"older than torch {torch.__version__}'s CUDA build needs, or a container started without the "
        "GPU); fix the node or image, or set resources.gpu_fallback: cpu to train such trials on the CPU"
    )


@dataclass(frozen=True)
class TrialPlace:
    """Where a trial runs and since when: its node, device, GPU share and start time."""

    node: str
    device: str
    gpus: float
    started: float


def epoch_report(trainer: Trainer, epoch: EpochResult, place: TrialPlace) -> dict[str, Any]:
    """What a trial reports after an epoch: its scores, ε, progress on ASHA's clock, its noise, where it
    runs, and the ``history`` of every epoch so far (MLflow backfills from it after a resume); the
    non-finite count under its private key (Tune's results only)."""
    config = trainer.config
    last = trainer.epoch == config.epochs
    noise, scored = config.heldout_noise, math.isfinite(epoch.validation_accuracy)
    std = {SCORE_STD[OBJECTIVE]: noise / len(trainer.data.val_y)} if noise and scored else {}
    return std | {
        "validation_accuracy": epoch.validation_accuracy,
        "validation_loss": epoch.validation_loss,
        "epsilon_spent": epoch.epsilon_spent,
        "epsilon_target": config.epsilon,
        "epoch": epoch.epoch,
        "epochs_target": config.epochs,
        PLAN_SHARE: epoch.epoch / config.epochs,
        STATUS_KEY: TrialStatus.FINISHED if last else TrialStatus.RUNNING,
        "steps": epoch.step,
        "epoch_seconds": epoch.seconds,
        "noise_multiplier": trainer.calibration.noise_multiplier,
        PRIVATE_NONFINITE_KEY: trainer.engine.nonfinite,
        "delta": trainer.delta,
        "trial_start": place.started,
        NODE_KEY: place.node,
        DEVICE_KEY: place.device,
        GPU_SHARE_KEY: place.gpus,
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


def report_epoch(trainer: Trainer, epoch: EpochResult, place: TrialPlace, final_test: bool) -> None:
    """Report an epoch with a checkpoint of the trainer's whole state; a re-run's last epoch scores the
    final-test part too and saves the released model beside the state (``RELEASED_FILE``)."""
    metrics = epoch_report(trainer, epoch, place)
    released = final_test and trainer.epoch == trainer.config.epochs
    if released:
        metrics["test_loss"], metrics["test_accuracy"] = trainer.final_test()
        if trainer.config.heldout_noise:
            metrics[SCORE_STD[FINAL_SCORE]] = trainer.config.heldout_noise / len(trainer.data.test_y)
    metrics["trial_end"] = time.time()  # the final test is the trial's work too
    with tempfile.TemporaryDirectory() as folder:
        save_checkpoint(trainer, Path(folder))
        if released:
            torch.save(trainer.released_module(), Path(folder) / RELEASED_FILE)
        tune.report(metrics, checkpoint=tune.Checkpoint.from_directory(folder))


def end_without_model(status: TrialStatus, reason: str, epoch: int, started: float, node: str) -> None:
    """The last report of a trial that has no model to compare (score 0 for Tune's metric check)."""
    tune.report(
        {
            "validation_accuracy": 0.0,
            "epoch": epoch,
            STATUS_KEY: status,
            "reason": reason,
            "trial_start": started,
            "trial_end": time.time(),
            NODE_KEY: node,
        }
    )


def run_trial(
    config: dict[str, Any],
    run: RunConfig,
    cpus: float,
    gpus: float,
    data: Dataset,
    final_test: bool = False,
    proxy_rows: torch.Tensor | None = None,
    gpu_fallback: str = "fail",
) -> None:
    """Tune function trainable body (see the module docstring): ``run`` with the trial's knobs (a tuning
    proxy's on the sweep's one secret subset, ``proxy_rows``), on the device ``trial_device`` says."""
    torch.set_num_threads(max(1, int(cpus)))
    started = time.time()
    node = ray.get_runtime_context().get_node_id()
    drawn = config.get("filter")
    if isinstance(drawn, DrawnFilter) and not drawn.valid:
        end_without_model(TrialStatus.INFEASIBLE, drawn.problem or "invalid filter", 0, started, node)
        return
    device = trial_device(gpus, gpu_fallback)
    if device is None:
        end_without_model(TrialStatus.FAILED, no_cuda_reason(gpus), 0, started, node)
        return
    prepare_gpu(torch.device(device), gpus)  # a reused actor's cache emptied; a GPU share is a memory cap
    knobbed = run.with_knobs({**config, "device": device})  # a release carries its own ε, δ and subset
    rows = proxy_rows if knobbed.proxy_fraction is not None else None
    trainer = Trainer(knobbed, data, rows, gpu_share=gpus, host_share=node_share(cpus))
    checkpoint = tune.get_checkpoint()
    if checkpoint is not None:
        with checkpoint.as_directory() as folder:
            load_checkpoint(trainer, Path(folder))
    poster = StepPoster(
        tune.get_context().get_trial_id(), run.method, trainer.config.epochs, lambda: trainer.epoch + 1
    )
    place = TrialPlace(node, device, gpus, started)
    while trainer.epoch < trainer.config.epochs:
        try:
            epoch = trainer.train_epoch(poster, final_test)
        except TrainingDivergedError as error:
            reason = f"TrainingDivergedError: {error}"
            end_without_model(TrialStatus.FAILED, reason, trainer.epoch, started, node)
            return
        report_epoch(trainer, epoch, place, final_test)


def dptune_sweep(
    config: dict[str, Any],
    runs: dict[str, RunConfig],
    placement: TrialPlacement,
    data: Dataset,
    proxy_rows: torch.Tensor | None = None,
    gpu_fallback: str = "fail",
) -> None:
    """The trainable of a sweep's one Tune run: the trial of the method its config names
    (``METHOD_KEY``), with that method's run configuration, on as many torch threads as ``placement``
    asked CPUs for it; a re-run (``RERUN_OF`` in its config) is scored on the final-test part too. The
    one place a trial is routed by its method.

    One trainable for every method lets Tune reuse a trial's actor (a process that has imported torch
    and Ray Tune, and holds the data) for the next trial of any method, instead of starting one per
    method's Tune run (``dptune.tune.driver``).
    """
    whose = route(config)
    run_trial(
        config,
        runs[whose.method],
        placement.cpus(config),
        placement.resources.gpu,
        data,
        whose.rerun,
        proxy_rows,
        gpu_fallback,
    )
