"""What a sweep starts with, and what the driver says around it: quiet libraries, the user's code shipped
to every node, Ray joined or started, the data loaded (each model's features once), the tracking store
opened, the sweep's record (its privacy setting, code version, data sizes and search settings) and the
command that opens the MLflow UI on its store.
"""

from __future__ import annotations

import logging
import os
import shutil
import subprocess
import sys
import warnings
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import ray

import dptune
from dptune.base.factories import is_import_path, local_source
from dptune.engine.data import load_dataset
from dptune.engine.dataset import Dataset
from dptune.engine.features import model_inputs
from dptune.sweep.modes import SweepMode
from dptune.sweep.spec import check_batch_sizes
from dptune.sweep.sweep_spec import SweepSpec
from dptune.tracking import SweepRecord, Tracker, tracker_for
from dptune.tracking.mlflow_setup import quiet_mlflow
from dptune.tracking.names import (
    CODE_VERSION_TAG,
    STORAGE_TAG,
    TRIALS_PARAM,
)
from dptune.tune.progress import (
    SweepProgress,
    register,
    terminal,
)
from dptune.tune.resources import TrialResources, trial_resources
from dptune.tune.restore import save_experiment_state_every_step
from dptune.tune.step_board import start_board

Echo = Callable[[str], None]


QUIETENED_WARNINGS = (
    # Optuna's parameter importances (the sweep's Optuna pages) on a study too small to tell them apart
    "Target and region quantiles select the same set of trials",
)
"""The warnings a sweep's console leaves out, by the start of their message; every other warning shows."""


def quiet_libraries() -> None:
    """Concise progress: no Ray/MLflow/Optuna info logs, no Tune tables, no warning of Optuna's own
    experimental features or of ``QUIETENED_WARNINGS`` (errors and every other warning still show)."""
    os.environ.setdefault("RAY_AIR_NEW_OUTPUT", "0")
    os.environ.setdefault("TUNE_DISABLE_AUTO_CALLBACK_LOGGERS", "1")
    quiet_mlflow()
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    for name in ("ray", "ray.tune", "ray.train", "ray._private"):  # failed trials: our one-line reason
        logging.getLogger(name).setLevel(logging.CRITICAL)
    for message in QUIETENED_WARNINGS:
        warnings.filterwarnings("ignore", message=message)
    warnings.filterwarnings("ignore", category=optuna.exceptions.ExperimentalWarning)


def user_code(spec: SweepSpec) -> list[str]:
    """The files or folders of the user's factories that trials must import, every model a trial may
    draw and the dataset (loaded here, but its module may be the model's): Ray's ``py_modules`` ships
    them."""
    names = (*spec.models, spec.shared.dataset)
    return sorted({where for name in names if is_import_path(name) and (where := local_source(name))})


def connect_ray(py_modules: list[str]) -> bool:
    """Join the cluster named by ``RAY_ADDRESS`` (``auto`` on a ``ray up`` head), else start a new local one,
    with ``py_modules`` (the user's code) in the job's runtime environment, so that every worker of
    every node can import it (a Ray already started in this process keeps its own environment).

    Returns whether the cluster can grow: one the driver joined can (an autoscaler, or workers started
    by hand); a Ray instance started here cannot.
    """
    address = os.environ.get("RAY_ADDRESS")
    if not ray.is_initialized():
        ray.init(
            # "local": a Ray of its own, never one that a stale /tmp/ray/ray_current_cluster names (a
            # cluster whose processes died without `ray stop` would be waited for forever)
            address=address or "local",
            include_dashboard=False,
            logging_level=logging.WARNING,
            log_to_driver=False,
            runtime_env={"py_modules": py_modules} if py_modules else None,
        )
    return bool(address)


def code_version() -> str:
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
            cwd=Path(__file__).parent,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        commit = "unknown"
    return f"{dptune.__version__}+{commit}"


def find_sweep(spec: SweepSpec, tracker: SweepRecord) -> str | None:
    """The tracked record of this sweep (same name and storage path), newest first; or None."""
    return tracker.find_sweep(spec.experiment, spec.name, spec.storage_path)


UI_APP = "dptune"
"""MLflow's server app that opens experiments on their runs (``dptune.tracking.ui_app``, an ``mlflow.app``
entry point)."""


UI_PORT = 5000


def mlflow_ui_hint(tracking_uri: str, view: str | None) -> str:
    """The closing line: a command that opens the MLflow UI on this store, as this environment spells
    it (``mlflow`` when it is on PATH, else this interpreter's own, by its absolute path), and the
    address to open: the experiment's saved results view (``view``, a path in the UI) where there is one."""
    own = Path(sys.executable).parent / "mlflow"
    on_path = shutil.which("mlflow")
    on_path_is_own = on_path is not None and Path(on_path).resolve() == own.resolve()
    command = "mlflow" if on_path_is_own else str(own)  # absolute: `dptune run` leaves its working folder
    if "://" not in tracking_uri or tracking_uri.startswith(("sqlite:", "file:")):
        return (
            f"review in the MLflow UI: {command} ui --app-name {UI_APP} --backend-store-uri {tracking_uri} "
            f"--port {UI_PORT}, then open http://127.0.0.1:{UI_PORT}/{view or ''}"
        )
    return f"review in the MLflow UI: open {tracking_uri.rstrip('/')}/{view or ''}"


def sweep_record(
    spec: SweepSpec, mode: SweepMode, data: Dataset, delta: float, noise_source: str
) -> tuple[dict[str, str], dict[str, Any]]:
    """The tags and params of a sweep's record: its privacy setting (also as tags, to filter by), the
    code version and storage path, the data's sizes and the search's settings."""
    shared = spec.shared
    privacy: dict[str, Any] = {
        "dataset": shared.dataset,
        "model": shared.model,
        "epsilon": shared.epsilon,
        "delta": delta,
        "accountant": shared.accountant,
        "sampling": shared.sampling,
        "noise_source": noise_source,
    }
    if spec.total_epsilon is not None:
        privacy["total_epsilon"] = spec.total_epsilon
    privacy = mode.record_privacy(privacy)
    tags = {k: str(v) for k, v in privacy.items()} | {
        CODE_VERSION_TAG: code_version(),
        STORAGE_TAG: spec.storage_path,
    }
    params = privacy | {
        "train_size": len(data.train_y),
        TRIALS_PARAM: spec.trials.describe(),
        "methods": list(spec.methods),
        "sampler": spec.sampler,
        "startup_trials": spec.startup_trials,
        "scheduler": spec.scheduler,
        "reruns": spec.reruns,
        "validation_size": len(data.val_y),
        "final_test_size": len(data.test_y),
    }
    return tags, params


def sweep_data(spec: SweepSpec) -> Dataset:
    """The sweep's data, each of its models' features computed once (ScatterNet's: each trial reads them
    cached), every batch size a trial can draw checked against it (``dptune.sweep.preflight`` checked it too,
    before the CLI started anything)."""
    shared = spec.shared
    data = load_dataset(shared.dataset, shared.data_root, shared.subset, shared.dataset_args)
    for model in spec.models:
        model_inputs(model, data)
    check_batch_sizes(spec, len(data.train_y))
    return data


@dataclass(frozen=True)
class Started:
    """What a sweep starts with: its data, its tracked run if one exists, the tracker, whether the cluster
    can grow, what each trial gets, and the console."""

    data: Dataset
    found: str | None
    tracker: Tracker
    can_grow: bool
    resources: TrialResources
    progress: SweepProgress


def start(spec: SweepSpec, echo: Echo) -> Started:
    """The data loads and the lookup opens the tracking store (MLflow's imports, a new database's schema:
    seconds of one core) while Ray starts its processes; Ray must start in the main thread."""
    progress = SweepProgress(echo, terminal())
    register(spec.name, progress)
    tracker = tracker_for(spec.tracking_uri)
    with ThreadPoolExecutor(max_workers=2, thread_name_prefix="dptune-start") as pool:
        loading = pool.submit(sweep_data, spec)
        earlier = pool.submit(find_sweep, spec, tracker)
        can_grow = connect_ray(user_code(spec))
        progress.watch(start_board())
        save_experiment_state_every_step()
        resources = trial_resources(
            spec.cpu, spec.gpu, spec.gpu_fallback, spec.wait if can_grow else 0.0, progress
        )
        return Started(loading.result(), earlier.result(), tracker, can_grow, resources, progress)
