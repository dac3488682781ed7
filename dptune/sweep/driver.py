"""A sweep: for every method of the spec, one Ray Tune ``Tuner`` searching its space with Optuna under
the spec's fixed (ε, δ), the same trial budget for every method, trials logged to MLflow.

Methods run one after another (each with up to ``max_concurrent`` trials at once), so every method
gets the same budget and the comparison is fair. ``resume=True`` restores each method's Tuner from
its experiment directory: finished trials are not run again, unfinished ones continue from their last
checkpoint, and the MLflow parent and child runs are found again rather than duplicated.
"""

from __future__ import annotations

import logging
import os
import subprocess
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import ray
from ray import tune
from ray.tune.schedulers import ASHAScheduler
from ray.tune.search import ConcurrencyLimiter
from ray.tune.search.optuna import OptunaSearch

import dptune
from dptune.data import Dataset, load_dataset
from dptune.errors import InputError
from dptune.privacy.filter import RenyiFilter
from dptune.randomness import Randomness
from dptune.run_plan import default_delta
from dptune.space import MethodSpace, start_point
from dptune.spec import MODEL_BASED_SAMPLERS, SweepSpec
from dptune.sweep.callbacks import TrialProgress, TrialRecorder
from dptune.sweep.define_by_run import SAMPLERS, DefineByRun
from dptune.sweep.restore import CHECKPOINTS_KEPT, restorable, save_experiment_state_every_step
from dptune.sweep.searcher import AccountedSearcher, SpentCurve
from dptune.sweep_state import PrivateSweepState
from dptune.tracking import Tracker, tracker_for
from dptune.tracking.names import CODE_VERSION_TAG, STORAGE_TAG
from dptune.tracking.report import TradeOff, format_table
from dptune.tuning_cost import (
    SearchPlan,
    SweepTuningCost,
    format_costs,
    method_tuning_cost,
    plan_search,
    sweep_filter,
)
from trainables import TRAINABLES

Echo = Callable[[str], None]


def quiet_libraries() -> None:
    """Concise progress: no Ray/MLflow/Optuna info logs, no Tune tables (errors still show)."""
    os.environ.setdefault("RAY_AIR_NEW_OUTPUT", "0")
    os.environ.setdefault("TUNE_DISABLE_AUTO_CALLBACK_LOGGERS", "1")
    import mlflow  # noqa: F401  (imported first: it installs its own log handlers)
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    for name in ("ray", "ray.tune", "ray._private"):  # failed trials get our one-line reason instead
        logging.getLogger(name).setLevel(logging.CRITICAL)
    for name in ("mlflow", "alembic"):
        logging.getLogger(name).setLevel(logging.ERROR)
    warnings.filterwarnings("ignore", category=FutureWarning)
    warnings.filterwarnings("ignore", category=UserWarning)


def connect_ray() -> None:
    """Join the cluster named by ``RAY_ADDRESS`` (``auto`` on a ``ray up`` head), else start a local one."""
    if ray.is_initialized():
        return
    ray.init(
        address=os.environ.get("RAY_ADDRESS"),
        include_dashboard=False,
        logging_level=logging.WARNING,
        log_to_driver=False,
    )


def trial_gpus(spec: SweepSpec, echo: Echo) -> float:
    """GPUs per trial: the spec's, or 0 under ``gpu_fallback: cpu`` when the cluster has too few."""
    if spec.gpu == 0:
        return 0.0
    available = ray.cluster_resources().get("GPU", 0.0)
    if available >= spec.gpu:
        return spec.gpu
    if spec.gpu_fallback == "cpu":
        echo(f"note: the Ray cluster has {available:g} GPUs; running trials on CPU (gpu_fallback: cpu)")
        return 0.0
    raise InputError(
        "resources.gpu",
        f"each trial asks for {spec.gpu:g} GPU but the Ray cluster has {available:g}; add GPU nodes, "
        "set resources.gpu: 0, or set resources.gpu_fallback: cpu",
    )


def check_batch_sizes(spec: SweepSpec, n: int) -> None:
    """Every batch size a trial can draw must fit the training set (checked before anything starts)."""
    for method, space in spec.methods.items():
        dist = space.knobs.get("batch_size")
        largest = max(dist.args) if dist is not None else spec.runs[method].batch_size
        if largest > n:
            field = f"methods.{method}.batch_size" if dist is not None else "training.batch_size"
            raise InputError(field, f"batch size {largest} exceeds the {n} training samples")


def max_epochs(spec: SweepSpec, space: MethodSpace) -> int:
    dist = space.knobs.get("epochs")
    return int(max(dist.args)) if dist is not None else spec.runs[space.method].epochs


def _tuner(
    spec: SweepSpec,
    plan: SearchPlan,
    data: Dataset,
    gpus: float,
    callbacks: list,
    resume: bool,
    state: PrivateSweepState,
    filter_: RenyiFilter | None,
) -> tune.Tuner:
    space = spec.methods[plan.method]
    run = spec.runs[plan.method]
    trainable = tune.with_resources(
        tune.with_parameters(TRAINABLES[space.method], run=run, cpus=spec.cpu, gpus=gpus, data=data),
        {"cpu": spec.cpu, "gpu": gpus},
    )
    path = f"{spec.storage_path}/{spec.name}/{space.method}"
    if resume and restorable(path):
        return tune.Tuner.restore(path, trainable, resume_unfinished=True, resume_errored=True)
    points = [start_point(space, p, f"methods.{space.method}.start[{i}]") for i, p in enumerate(space.start)]
    searcher = OptunaSearch(
        space=DefineByRun(space, run.seed),
        metric="test_accuracy",
        mode="max",
        points_to_evaluate=points or None,
        sampler=SAMPLERS[spec.sampler](spec.seed, spec.startup_trials),
    )
    accounted = AccountedSearcher(
        searcher, state, plan.method, plan.worst, filter_, SpentCurve(run, len(data.train_y))
    )
    scheduler = (
        ASHAScheduler(
            time_attr="training_iteration",
            max_t=max_epochs(spec, space),
            grace_period=spec.grace_period,
            reduction_factor=2,
        )
        if spec.scheduler == "asha"
        else None
    )
    return tune.Tuner(
        trainable,
        tune_config=tune.TuneConfig(
            metric="test_accuracy",
            mode="max",
            search_alg=ConcurrencyLimiter(accounted, max_concurrent=spec.max_concurrent),
            scheduler=scheduler,
            num_samples=plan.trials,
            max_concurrent_trials=spec.max_concurrent,
            reuse_actors=True,
        ),
        run_config=tune.RunConfig(
            name=space.method,
            storage_path=f"{spec.storage_path}/{spec.name}",
            callbacks=callbacks,
            failure_config=tune.FailureConfig(max_failures=0),
            checkpoint_config=tune.CheckpointConfig(num_to_keep=CHECKPOINTS_KEPT),
            verbose=0,
        ),
    )


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


def find_sweep(spec: SweepSpec, tracker: Tracker) -> str | None:
    """The tracked record of this sweep (same name and storage path), newest first; or None."""
    return tracker.find_sweep(spec.experiment, spec.name, spec.storage_path)


@dataclass(frozen=True)
class SweepOutcome:
    best: list[TradeOff]
    parent_run_id: str
    wall_seconds: float
    trial_seconds: float
    trials: int
    results: list[dict[str, Any]]  # the last reported metrics of every trial, with its method
    tuning_cost: SweepTuningCost  # ε including tuning, per method and for the whole sweep


def randomness_line(spec: SweepSpec) -> str:
    """The sweep summary's line on where its trials' noise, batches and initialisation come from."""
    seed = spec.shared.seed
    if seed is None:
        return "randomness: secure (secret OS entropy, fresh for every trial; no seed is recorded)"
    return (
        f"randomness: SEEDED research mode (training.seed = {seed}; each trial's seed is logged): anyone "
        "who knows the seeds can regenerate the noise, so no privacy claim holds once they are published"
    )


def run_sweep(spec: SweepSpec, spec_text: str, resume: bool = False, echo: Echo = print) -> SweepOutcome:
    """Run (or resume) the sweep; returns the best trade-off per method, recorded by the tracker."""
    started = time.time()
    shared = spec.shared
    data = load_dataset(shared.dataset, shared.data_root, shared.subset)
    n = len(data.train_y)
    check_batch_sizes(spec, n)
    local_dir = Path(spec.storage_path) / spec.name if "://" not in spec.storage_path else None
    if not resume and local_dir is not None and local_dir.exists():
        raise InputError(
            "name",
            f"a sweep {spec.name!r} already exists in {spec.storage_path}; continue it with "
            "--resume, or choose another name or storage_path",
        )
    connect_ray()
    save_experiment_state_every_step()
    gpus = trial_gpus(spec, echo)
    delta = shared.delta if shared.delta is not None else default_delta(n)
    state = PrivateSweepState(spec.storage_path, spec.name)
    searches = plan_search(spec, n, delta, state)
    filter_ = sweep_filter(spec, searches, delta)
    noise_source = Randomness(shared.seed).noise_source
    tracker = tracker_for(spec.tracking_uri)
    parent = find_sweep(spec, tracker) if resume else None
    if parent is None:
        privacy = {
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
        tags = {k: str(v) for k, v in privacy.items()} | {
            CODE_VERSION_TAG: code_version(),
            STORAGE_TAG: spec.storage_path,
        }
        params = privacy | {
            "train_size": n,
            "trials_per_method": spec.trials.describe(),
            "methods": list(spec.methods),
            "sampler": spec.sampler,
            "scheduler": spec.scheduler,
        }
        parent = tracker.start_sweep(spec.experiment, spec.name, tags, params, spec_text)
    echo(
        f"sweep {spec.name}: {', '.join(spec.methods)} on {shared.dataset} (n={n}) / {shared.model}, "
        f"ε={shared.epsilon:g}, δ={delta:g}, {spec.trials.describe()} trials per method"
        + (" (the number drawn is secret)" if spec.trials.random else "")
    )
    echo(randomness_line(spec))
    if filter_ is not None:
        echo(
            f"privacy filter: total ε = {filter_.epsilon:g} for the whole sweep (Rényi filter at order "
            f"{filter_.order:g}, an equal share per method); trials run while their worst plan fits"
        )
    if spec.sampler in MODEL_BASED_SAMPLERS and 0 < spec.trials.mean <= spec.startup_trials:
        echo(
            f"note: {spec.sampler} draws each method's first {spec.startup_trials} trials at random "
            f"(search.startup_trials), so the search of {', '.join(spec.methods)} is a random search"
        )
    trial_seconds, trials, all_results, costs = 0.0, 0, [], []
    for search in searches:
        method = search.method
        if search.trials > 0:
            recorder = TrialRecorder(tracker, spec.experiment, parent, method, noise_source)
            total = None if search.secret_count else search.trials
            callbacks = [recorder, TrialProgress(method, total, echo)]
            tuner = _tuner(spec, search, data, gpus, callbacks, resume, state, filter_)
            for result in tuner.fit():
                metrics = result.metrics or {}
                all_results.append({"method": method, **metrics})
                if "trial_start" in metrics:
                    trial_seconds += metrics["trial_end"] - metrics["trial_start"]
                    trials += 1
        costs.append(method_tuning_cost(search, state.trials(method), spec.trials, filter_, delta))
    tuning = SweepTuningCost(costs, delta, filter_)
    state.keep("tuning_cost", tuning.as_dict(private=True))
    tracker.log_tuning_cost(parent, tuning.as_dict())
    best = tracker.log_sweep_summary(spec.experiment, parent)
    tracker.finish_sweep(parent)
    wall = time.time() - started
    echo("\nbest trade-offs of this sweep:\n" + format_table(best))
    echo("\nprivacy of the search itself (each trial spends at most ε; choosing among them costs more):")
    echo(format_costs(tuning))
    if tuning.secret_count:
        echo(
            "  (a repeat-and-select bound needs the trial count secret: it is kept, with ε of releasing "
            f"every trial, in {state.uri}/private_state.json)"
        )
    echo(randomness_line(spec))
    counted = "" if spec.trials.random else f" for {trials} trials"
    echo(
        f"\nwall time {wall:.0f}s{counted} ({trial_seconds:.0f}s of trial time, "
        f"{spec.max_concurrent} at a time)"
    )
    echo(f"review in the MLflow UI: mlflow ui --backend-store-uri {spec.tracking_uri}")
    return SweepOutcome(best, parent, wall, trial_seconds, trials, all_results, tuning)
