"""The Tune function trainable: restore, train epoch by epoch, report and checkpoint each epoch.

Every reported result carries ``test_accuracy``, ``loss`` (test loss), ``epsilon_spent``, the epoch and
the ``history`` of those metrics for every epoch so far (MLflow backfills from it after a resume);
every checkpoint holds the whole ``Trainer.state_dict()`` (parameters, past iterates, filter/momentum/
Adam/memory states, accountant history, sampling and noise RNG states, step), so a trial resumed
from it continues exactly. A diverging trial raises ``TrainingDivergedError``: Tune marks it failed
with that reason and the sweep goes on.
"""

from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import ray
import torch
from ray import tune

from dptune.data import Dataset
from dptune.methods import METHODS, get_method
from dptune.search import SEED_KEY
from dptune.train import TrainConfig, Trainer

STATE_FILE = "trainer_state.pt"


@dataclass(frozen=True)
class TrialSettings:
    """What every trial of a sweep shares; the trial's config adds the searched knobs."""

    method: str
    dataset: str
    model: str
    epsilon: float
    delta: float | None
    accountant: str
    sampling: str
    training: dict[str, Any]
    cpu: float
    gpu: float


def train_config(settings: TrialSettings, config: dict[str, Any]) -> TrainConfig:
    """The run a trial config names: searched knobs over the sweep's training defaults."""
    knobs = {k: config.get(k, settings.training[k]) for k in ("lr", "clip", "batch_size", "epochs")}
    names = {p.name for p in get_method(settings.method).params}
    params = {k: v for k, v in config.items() if k in names}
    if "a" in params or "b" in params:
        params.pop("filter", None)  # the resolved coefficients are what trains
    device = "cuda" if settings.gpu > 0 and torch.cuda.is_available() else "cpu"
    return TrainConfig(
        method=settings.method,
        dataset=settings.dataset,
        model=settings.model,
        epsilon=settings.epsilon,
        delta=settings.delta,
        epochs=int(knobs["epochs"]),
        batch_size=int(knobs["batch_size"]),
        lr=float(knobs["lr"]),
        clip=float(knobs["clip"]),
        params=params,
        seed=config.get(SEED_KEY),  # a seeded sweep's per-trial seed; else secret OS entropy
        noise_generator=settings.training["noise_generator"],
        sampling=settings.sampling,
        accountant=settings.accountant,
        physical_batch_size=settings.training["physical_batch_size"],
        engine=settings.training["engine"],
        device=device,
    )


def run_trial(config: dict[str, Any], settings: TrialSettings, data: Dataset) -> None:
    """Tune function trainable body (see the module docstring)."""
    torch.set_num_threads(max(1, int(settings.cpu)))
    started = time.time()
    node = ray.get_runtime_context().get_node_id()
    if config.get("filter_valid") is False:
        tune.report(
            {
                "test_accuracy": 0.0,
                "epoch": 0,
                "infeasible": 1,
                "reason": config.get("filter_error", ""),
                "trial_start": started,
                "trial_end": time.time(),
                "node_id": node,
            }
        )
        return
    trainer = Trainer(train_config(settings, config), data)
    checkpoint = tune.get_checkpoint()
    if checkpoint is not None:
        with checkpoint.as_directory() as folder:
            trainer.load_state_dict(torch.load(Path(folder) / STATE_FILE, weights_only=False))
    while trainer.epoch < trainer.config.epochs:
        epoch = trainer.train_epoch()
        metrics = {
            "test_accuracy": epoch.test_accuracy,
            "loss": epoch.test_loss,
            "epsilon_spent": epoch.epsilon_spent,
            "epsilon_target": settings.epsilon,
            "epoch": epoch.epoch,
            "epochs_target": trainer.config.epochs,
            "steps": epoch.step,
            "epoch_seconds": epoch.seconds,
            "noise_multiplier": trainer.calibration.noise_multiplier,
            "delta": trainer.delta,
            "trial_start": started,
            "trial_end": time.time(),
            "node_id": node,
            "history": [
                {
                    "epoch": e.epoch,
                    "test_accuracy": e.test_accuracy,
                    "loss": e.test_loss,
                    "epsilon_spent": e.epsilon_spent,
                }
                for e in trainer.history
            ],
        }
        with tempfile.TemporaryDirectory() as folder:
            torch.save(trainer.state_dict(), Path(folder) / STATE_FILE)
            tune.report(metrics, checkpoint=tune.Checkpoint.from_directory(folder))


def make_trainable(method: str) -> Callable[..., None]:
    """The trainable of one method, named ``dptune_<method>`` in Tune's trial names."""

    def trainable(config: dict[str, Any], settings: TrialSettings, data: Dataset) -> None:
        if settings.method != method:
            raise ValueError(f"trainable for {method} got settings for {settings.method}")
        run_trial(config, settings, data)

    trainable.__name__ = trainable.__qualname__ = f"dptune_{method.replace('-', '_')}"
    return trainable


TRAINABLES: dict[str, Callable[..., None]] = {name: make_trainable(name) for name in METHODS}
