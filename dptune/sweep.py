"""A sweep: for every method of the spec, one Ray Tune ``Tuner`` searching its space with Optuna under
the spec's fixed (ε, δ), the same trial budget for every method, trials logged to MLflow.

Methods run one after another (each with up to ``max_concurrent`` trials at once), so every method
gets the same budget and the comparison is fair. ``resume=True`` restores each method's Tuner from
its experiment directory: finished trials are not run again, unfinished ones continue from their last
checkpoint, and the MLflow parent and child runs are found again rather than duplicated.
"""

from __future__ import annotations

import json
import logging
import os
import pickle
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import optuna
import pyarrow.fs
import ray
from ray import tune
from ray.train._internal.storage import get_fs_and_path
from ray.tune.experiment import Trial
from ray.tune.schedulers import ASHAScheduler
from ray.tune.search import ConcurrencyLimiter
from ray.tune.search.optuna import OptunaSearch

import dptune
from dptune.accounted_search import AccountedSearcher, SpentCurve
from dptune.data import Dataset, load_dataset
from dptune.errors import InputError
from dptune.privacy.filter import RenyiFilter
from dptune.randomness import Randomness
from dptune.search import DefineByRun, start_point
from dptune.spec import MODEL_BASED_SAMPLERS, MethodSpace, SweepSpec
from dptune.sweep_state import PrivateSweepState
from dptune.tracking import (
    SWEEP_TAG,
    MlflowTrialLogger,
    TradeOff,
    client_for,
    experiment_id,
    finish_parent_run,
    format_table,
    log_sweep_summary,
    log_tuning_cost,
    start_parent_run,
    trial_error_reason,
)
from dptune.train import default_delta
from dptune.tuning_cost import (
    SearchPlan,
    SweepTuningCost,
    format_costs,
    method_tuning_cost,
    plan_search,
    sweep_filter,
)
from trainables import TRAINABLES, TrialSettings

Echo = Callable[[str], None]
STORAGE_TAG = "dptune.storage_path"
CHECKPOINTS_KEPT = 2
"""A trial's newest checkpoint deletes the oldest before the step's experiment-state save: keeping two
means the state a killed driver left behind never names a deleted checkpoint."""

SAMPLERS: dict[str, Callable[[int, int], optuna.samplers.BaseSampler]] = {
    "tpe": lambda seed, startup: optuna.samplers.TPESampler(seed=seed, n_startup_trials=startup),
    "random": lambda seed, startup: optuna.samplers.RandomSampler(seed=seed),
    "gp": lambda seed, startup: optuna.samplers.GPSampler(seed=seed, n_startup_trials=startup),
    "nsga2": lambda seed, startup: optuna.samplers.NSGAIISampler(seed=seed),
}
"""Sampler by spec name, from (seed, start-up trials); the start-up count only matters to TPE and GP."""


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
        largest = max(dist.args) if dist is not None else spec.training["batch_size"]
        if largest > n:
            field = f"methods.{method}.batch_size" if dist is not None else "training.batch_size"
            raise InputError(field, f"batch size {largest} exceeds the {n} training samples")


def max_epochs(spec: SweepSpec, space: MethodSpace) -> int:
    dist = space.knobs.get("epochs")
    return int(max(dist.args)) if dist is not None else spec.epochs


class TrialProgress(tune.Callback):
    """One line per finished or failed trial, numbered across resumes; ``total`` None keeps a secret
    trial count out of the console."""

    def __init__(self, method: str, total: int | None, echo: Echo) -> None:
        self.method = method
        self.total = total
        self.echo = echo
        self.done: int | None = None

    def on_step_begin(self, iteration: int, trials: list, **info: Any) -> None:
        if self.done is None:  # a restored experiment starts with its ended trials
            self.done = sum(t.status in (Trial.TERMINATED, Trial.ERROR) for t in trials)

    def _line(self, trial: Any, outcome: str) -> None:
        self.done = (self.done or 0) + 1
        result = trial.last_result or {}
        seconds = result.get("trial_end", 0) - result.get("trial_start", 0)
        knobs = ", ".join(
            f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}"
            for k, v in sorted(trial.config.items())
            if not k.startswith("filter_") and k not in ("a", "b")
        )
        of = f"/{self.total}" if self.total is not None else ""
        self.echo(f"  {self.method:<15} trial {self.done}{of}  {outcome}  ({seconds:.0f}s)  {knobs}")

    def on_trial_complete(self, iteration: int, trials: list, trial: Any, **info: Any) -> None:
        result = trial.last_result or {}
        if result.get("infeasible"):
            self._line(trial, f"infeasible filter: {result.get('reason', '')}")
        else:
            self._line(
                trial,
                f"acc {100 * result.get('test_accuracy', 0):.2f}%  ε {result.get('epsilon_spent', 0):.3f}"
                f"  epochs {result.get('epoch', 0)}",
            )

    def on_trial_error(self, iteration: int, trials: list, trial: Any, **info: Any) -> None:
        self._line(trial, f"FAILED: {trial_error_reason(trial)[:160]}")


def save_experiment_state_every_step() -> None:
    """Make Tune save its experiment state (trials, searcher) at the end of every controller step.

    Tune's default ("auto") saves at most every 10 s, so a driver killed in between loses the trials
    started or finished since: ``Tuner.restore`` would run them again under new ids. Saving every step
    costs a few milliseconds (a small JSON and the pickled searcher) and, with ``MlflowTrialLogger``
    writing only after the save, keeps MLflow and the restorable state in step. Ray offers no API for
    this period; the environment variable is read when ``Tuner.fit`` builds its controller.
    """
    os.environ["TUNE_GLOBAL_CHECKPOINT_S"] = "0"


STATE_FILES: dict[str, Callable[[bytes], Any]] = {
    "experiment_state-": json.loads,
    "search_gen_state-": pickle.loads,
    "searcher-state-": pickle.loads,
}
"""The files a Tuner restores from, each with a reader that fails on a partial file."""


def restorable(path: str) -> bool:
    """Whether a method's Tuner can be restored from ``path``; an unusable one is cleared instead.

    ``Tuner.can_restore`` only looks for ``tuner.pkl``, which the Tuner writes before any state, and
    Ray copies its states to storage non-atomically: a driver killed before the first copy, or during
    one, leaves missing or truncated files from which Tune "restores" a search of one trial.
    Restorable here means ``tuner.pkl`` and the newest of each state file are there and complete.
    Otherwise the directory is emptied and the method starts afresh; the runs of its earlier trials
    are then marked lost in MLflow (``MlflowTrialLogger``) and still count in the tuning cost.
    """
    fs, fs_path = get_fs_and_path(path)
    try:
        names = {Path(info.path).name for info in fs.get_file_info(pyarrow.fs.FileSelector(fs_path))}
    except FileNotFoundError:
        return False

    def complete(prefix: str) -> bool:
        found = sorted(name for name in names if name.startswith(prefix))
        if not found:
            return False
        with fs.open_input_stream(f"{fs_path}/{found[-1]}") as stream:
            content = stream.read()
        try:
            STATE_FILES[prefix](content)
        except Exception:  # any failure to read it back: truncated or empty
            return False
        return True

    started = "tuner.pkl" in names and all(complete(prefix) for prefix in STATE_FILES)
    if not started:
        fs.delete_dir_contents(fs_path, missing_dir_ok=True)
    return started


def _tuner(
    spec: SweepSpec,
    plan: SearchPlan,
    settings: TrialSettings,
    data: Dataset,
    gpus: float,
    callbacks: list,
    resume: bool,
    state: PrivateSweepState,
    filter_: RenyiFilter | None,
) -> tune.Tuner:
    space = spec.methods[plan.method]
    trainable = tune.with_resources(
        tune.with_parameters(TRAINABLES[space.method], settings=settings, data=data),
        {"cpu": spec.cpu, "gpu": gpus},
    )
    path = f"{spec.storage_path}/{spec.name}/{space.method}"
    if resume and restorable(path):
        return tune.Tuner.restore(path, trainable, resume_unfinished=True, resume_errored=True)
    points = [start_point(space, p, f"methods.{space.method}.start[{i}]") for i, p in enumerate(space.start)]
    searcher = OptunaSearch(
        space=DefineByRun(space, spec.training["seed"]),
        metric="test_accuracy",
        mode="max",
        points_to_evaluate=points or None,
        sampler=SAMPLERS[spec.sampler](spec.seed, spec.startup_trials),
    )
    accounted = AccountedSearcher(
        searcher, state, plan.method, plan.worst, filter_, SpentCurve(settings, len(data.train_y))
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


def find_parent_run(spec: SweepSpec) -> str | None:
    """The MLflow parent run of this sweep (same name and storage path), newest first; or None."""
    client = client_for(spec.tracking_uri)
    runs = client.search_runs(
        [experiment_id(client, spec.experiment)],
        filter_string=f"tags.`{SWEEP_TAG}` = '{spec.name}' and tags.`{STORAGE_TAG}` = '{spec.storage_path}'",
        order_by=["attributes.start_time DESC"],
    )
    return runs[0].info.run_id if runs else None


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
    seed = spec.training["seed"]
    if seed is None:
        return "randomness: secure (secret OS entropy, fresh for every trial; no seed is recorded)"
    return (
        f"randomness: SEEDED research mode (training.seed = {seed}; each trial's seed is logged): anyone "
        "who knows the seeds can regenerate the noise, so no privacy claim holds once they are published"
    )


def run_sweep(spec: SweepSpec, spec_text: str, resume: bool = False, echo: Echo = print) -> SweepOutcome:
    """Run (or resume) the sweep; returns the best trade-off per method, logged to MLflow."""
    started = time.time()
    data = load_dataset(spec.dataset, spec.data_root, spec.subset)
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
    delta = spec.delta if spec.delta is not None else default_delta(n)
    settings = {
        method: TrialSettings(
            method=method,
            dataset=spec.dataset,
            model=spec.model,
            epsilon=spec.epsilon,
            delta=delta,
            accountant=spec.accountant,
            sampling=spec.sampling,
            training=spec.training,
            cpu=spec.cpu,
            gpu=gpus,
        )
        for method in spec.methods
    }
    state = PrivateSweepState(spec.storage_path, spec.name)
    searches = plan_search(spec, settings, n, delta, state)
    filter_ = sweep_filter(spec, searches, delta)
    noise_source = Randomness(spec.training["seed"]).noise_source
    client = client_for(spec.tracking_uri)
    parent = find_parent_run(spec) if resume else None
    if parent is None:
        privacy = {
            "dataset": spec.dataset,
            "model": spec.model,
            "epsilon": spec.epsilon,
            "delta": delta,
            "accountant": spec.accountant,
            "sampling": spec.sampling,
            "noise_source": noise_source,
        }
        if spec.total_epsilon is not None:
            privacy["total_epsilon"] = spec.total_epsilon
        tags = {k: str(v) for k, v in privacy.items()} | {
            "code_version": code_version(),
            STORAGE_TAG: spec.storage_path,
        }
        params = privacy | {
            "train_size": n,
            "trials_per_method": spec.trials.describe(),
            "methods": list(spec.methods),
            "sampler": spec.sampler,
            "scheduler": spec.scheduler,
        }
        parent = start_parent_run(client, spec.experiment, spec.name, tags, params, spec_text)
    echo(
        f"sweep {spec.name}: {', '.join(spec.methods)} on {spec.dataset} (n={n}) / {spec.model}, "
        f"ε={spec.epsilon:g}, δ={delta:g}, {spec.trials.describe()} trials per method"
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
            logger = MlflowTrialLogger(spec.tracking_uri, spec.experiment, parent, method, noise_source)
            total = None if search.secret_count else search.trials
            callbacks = [logger, TrialProgress(method, total, echo)]
            tuner = _tuner(spec, search, settings[method], data, gpus, callbacks, resume, state, filter_)
            for result in tuner.fit():
                metrics = result.metrics or {}
                all_results.append({"method": method, **metrics})
                if "trial_start" in metrics:
                    trial_seconds += metrics["trial_end"] - metrics["trial_start"]
                    trials += 1
        costs.append(method_tuning_cost(search, state.trials(method), spec.trials, filter_, delta))
    tuning = SweepTuningCost(costs, delta, filter_)
    state.keep("tuning_cost", tuning.as_dict(private=True))
    log_tuning_cost(client, parent, tuning.as_dict())
    best = log_sweep_summary(client, spec.experiment, parent)
    finish_parent_run(client, parent)
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
