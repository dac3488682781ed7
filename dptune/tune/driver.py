"""A sweep: every method of the spec searched with Optuna under the spec's fixed (ε, δ), the same trial
budget for every method, in one Ray Tune run per sweep stage, trials logged to MLflow.

Every method's search runs at the same time, each with its own searcher, ASHA and the same trial
budget, their trials sharing the cluster's slots and Tune's actors (``search_stage``). Trials are scored
on the validation part of the held-out images; when a method's search ends, its selected configuration
(the finished trial with the best validation accuracy, or its start point unless a trial beats it
clearly where the method says ``keep_start``) is run again ``selection.reruns`` times with
fresh randomness in the same Tune run, and those re-runs alone are scored on the final-test part
(``dptune.engine.data``, ``dptune.tune.stage_searcher``).

Ctrl+C or SIGTERM while the trials train raises ``SweepInterrupted`` (``dptune.tune.interrupt``): the
tracker records what it queued, and the process is to end as a killed driver would.

``resume=True`` restores the stage's Tune run from its experiment directory: finished trials are not
run again, unfinished ones continue from their last checkpoint, and the MLflow parent and child runs are
found again rather than duplicated.
"""

from __future__ import annotations

import functools
import json
import logging
import math
import os
import shutil
import subprocess
import sys
import time
import warnings
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import ray
from ray import tune
from ray.tune.search.optuna import OptunaSearch

import dptune
from dptune.base.factories import is_import_path, local_source
from dptune.base.randomness import TIE_BREAK_STREAM, Randomness, secret_key, trial_seed
from dptune.engine.data import Dataset, load_dataset, poisson_rows, train_size
from dptune.engine.features import model_inputs
from dptune.privacy.filter import RenyiFilter
from dptune.sweep.bound import (
    SearchPlan,
    SweepTuningCost,
    curve_cost,
    method_tuning_cost,
    plan_search,
    sweep_filter,
)
from dptune.sweep.ledger import PrivateSweepState, ledger_counts
from dptune.sweep.plan import (
    PLAN_ARTIFACT,
    MethodPlan,
    Ran,
    carried,
    curve_privacy,
    format_plan,
    plan_record,
    tuning_knobs,
)
from dptune.sweep.preflight import planned, refuse_existing
from dptune.sweep.releases import Release, release_json, release_lines, sweep_releases
from dptune.sweep.results import TradeOff, recorded_spec, run_settings, selected_tradeoffs
from dptune.sweep.space import start_points
from dptune.sweep.spec import SweepSpec, check_batch_sizes, unused_with_total
from dptune.sweep.summary import closing_lines, compute_line, opening_lines, pipeline_closing_lines
from dptune.tracking import StoreUnavailableError, SweepRecord, Tracker, tracker_for
from dptune.tracking.mlflow_setup import quiet_mlflow
from dptune.tracking.names import (
    ALL_RELEASES_ARTIFACT,
    CODE_VERSION_TAG,
    FINAL_ROLE,
    SEARCH_ROLE,
    STORAGE_TAG,
    TRIALS_PARAM,
)
from dptune.tracking.report import format_table
from dptune.training.config import RunConfig
from dptune.training.run_plan import default_delta
from dptune.training.trial_status import (
    OBJECTIVE,
    STATUS_KEY,
    TrialStatus,
    fell_back_to_cpu,
    route,
)
from dptune.tune.callbacks import PerMethod, TrialRecorder
from dptune.tune.define_by_run import SAMPLERS, DefineByRun
from dptune.tune.interrupt import INTERRUPT_FLUSH_SECONDS, SweepInterrupted, interruptible
from dptune.tune.progress import (
    RELEASE_NAMES,
    RERUN_NAMES,
    SweepProgress,
    TrialProgress,
    register,
    terminal,
)
from dptune.tune.release import CHECKPOINT_KEY, log_releases
from dptune.tune.resources import TrialPlacement, TrialResources, ask_for_slots, trial_resources
from dptune.tune.restore import CHECKPOINTS_KEPT, restorable, save_experiment_state_every_step
from dptune.tune.schedulers import PerMethodScheduler, asha
from dptune.tune.searcher import AccountedSearcher, SpentCurve
from dptune.tune.stage_searcher import SearchObserver, SweepSearcher, ended_searches
from dptune.tune.step_board import start_board
from dptune.tune.studies import study_storage
from dptune.tune.study_plots import study_page
from dptune.tune.trainable import dptune_sweep
from dptune.tune.warm_start import warm_start

if TYPE_CHECKING:
    import torch

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


def concurrency(spec: SweepSpec, resources: TrialResources, can_grow: bool) -> int | None:
    """Trials at once: ``budget.max_concurrent``, else what the cluster holds now, or, on a cluster that
    can grow, None: every trial of the sweep stage (its pending trials make the autoscaler add nodes, up
    to the cluster's ``max_workers``)."""
    if spec.max_concurrent is not None:
        return spec.max_concurrent
    return None if can_grow else max(1, resources.slots)


TRIAL_RETRIES = 2
"""Times Tune restarts a trial whose actor died (a lost spot node, an OOM kill). From its last checkpoint
a restart restores the trainer's random states with its weights, so the epochs it runs again draw the
same noise as the lost attempt; a trial lost before its first checkpoint starts afresh with fresh secret
randomness. Either way the lost attempt released nothing (a trial reports only with a checkpoint) and
its loss does not depend on the data, so the trial's ledger is unchanged. A trial that diverges is not
retried (``dptune.tune.trainable``)."""


STAGE_EXPERIMENT = "trials"
"""The name of a sweep stage's Tune run (every method's search trials and re-runs) under the sweep's
folder."""
UI_PORT = 5000
STUDY_PLOTS_FOLDER = "optuna"
"""Where a sweep's run keeps each method's Optuna page (``dptune.tune.study_plots``)."""
PAGE_POLL_SECONDS = 1.0
"""How often the driver, while the trials train, looks for searches that ended (to make their pages)."""
TRACKING_CATCH_UP_SECONDS = 300.0
"""How long the end of a sweep waits for the tracker to record what it queued (a server that was down)."""


@dataclass(frozen=True)
class SweepRun:
    """What every method's search of one sweep shares: the spec, the data, where trials run, and the
    private state and privacy filter that count them."""

    spec: SweepSpec
    data: Dataset
    resources: TrialResources
    concurrency: int | None  # trials at once; None: all of them
    state: PrivateSweepState
    filter: RenyiFilter | None
    resume: bool
    warm_points: dict[str, list[dict[str, Any]]]  # per method, the start points of a warm start
    proxy_rows: torch.Tensor | None = None  # a tuning proxy's secret subset (private: never logged)

    def experiment_path(self) -> str:
        """Where Tune keeps the stage's run (its state, trials and checkpoints)."""
        return f"{self.spec.storage_path}/{self.spec.name}/{STAGE_EXPERIMENT}"

    @property
    def placement(self) -> TrialPlacement:
        """What each trial asks for: a release (the spec's ε includes the tuning) every slot's CPUs."""
        return TrialPlacement(self.resources, self.spec.release is not None)

    def limit(self, plans: list[SearchPlan]) -> int:
        """Trials at once: ``concurrency``, or every search trial and re-run of ``plans``, a secret trial
        count taken at its public mean (the number reaches the autoscaler: K must not)."""
        trials = [math.ceil(self.spec.trials.mean) if p.secret_count else p.trials for p in plans if p.trials]
        return max(1, self.concurrency or sum(trials) + self.spec.reruns * len(trials))


def _trainable(sweep: SweepRun, plans: list[SearchPlan]) -> Any:
    """The stage's one trainable, each trial asking for its ``TrialPlacement`` bundle."""
    placement = sweep.placement
    return tune.with_resources(
        tune.with_parameters(
            dptune_sweep,
            runs={plan.method: sweep.spec.runs[plan.method] for plan in plans},
            placement=placement,
            data=sweep.data,
            proxy_rows=sweep.proxy_rows,
            gpu_fallback=sweep.spec.gpu_fallback,
        ),
        placement,
    )


def _method_searcher(sweep: SweepRun, plan: SearchPlan) -> AccountedSearcher:
    """One method's searcher: Optuna over its space (its own study, start points first), with its
    write-ahead records and share of the privacy filter, scores on ASHA's clock."""
    spec = sweep.spec
    space = spec.methods[plan.method]
    run = spec.runs[plan.method]
    points = start_points(space)
    optuna = OptunaSearch(
        space=DefineByRun(space, run.seed),
        metric=OBJECTIVE,
        mode="max",
        points_to_evaluate=[*points, *sweep.warm_points.get(plan.method, [])] or None,
        sampler=SAMPLERS[spec.sampler](spec.seed, spec.startup_trials),
        study_name=plan.method,
        storage=study_storage(spec.storage_path, spec.name),
    )
    return AccountedSearcher(
        optuna,
        sweep.state,
        plan.method,
        plan.worst,
        sweep.filter,
        SpentCurve(run, len(sweep.data.train_y)),
        int(spec.knob_range(plan.method, "epochs")[1]),
        spec.reruns,
    )


def tie_key(spec: SweepSpec, state: PrivateSweepState) -> int:
    """The sweep's key for ties of a selection, kept in its private state: 256 bits of OS entropy, or
    derived from ``training.seed`` in the research mode."""
    seed = spec.shared.seed
    return state.tie_key(lambda: secret_key() if seed is None else trial_seed(seed, TIE_BREAK_STREAM, 0))


def _scheduler(spec: SweepSpec, plans: list[SearchPlan]) -> PerMethodScheduler:
    """ASHA per method on its own plans' epochs (``asha``), or FIFO for every trial."""
    if spec.scheduler != "asha":
        return PerMethodScheduler({})
    ranges = {plan.method: [int(e) for e in spec.knob_range(plan.method, "epochs")] for plan in plans}
    return PerMethodScheduler({m: asha(spec.grace_period, *epochs) for m, epochs in ranges.items()})


def pend_up_to(trials: int) -> None:
    """Let Tune hold up to ``trials`` trials pending (their placement groups and actors starting at
    once). Tune allows one pending trial to a searcher that is not a ``ConcurrencyLimiter``, which would
    start the first actors one after another; the stage's searcher caps its trials itself, on Tune's own
    list (a ``ConcurrencyLimiter`` keeps its running trials in a state file saved apart from Tune's
    list, and after a kill between the two saves it would wait forever for a trial Tune has ended). Ray
    offers no API for it: Tune reads the variable when ``Tuner.fit`` builds its controller."""
    os.environ["TUNE_MAX_PENDING_TRIALS_PG"] = str(max(1, trials))


CallbackGroups = dict[tuple[str, str], list[tune.Callback]]
"""The tracking and progress callbacks of each method's search (role ``search``) and re-runs (``final``)."""


def _tuner(sweep: SweepRun, plans: list[SearchPlan], groups: CallbackGroups) -> tune.Tuner:
    """The sweep stage's one Tune run: restored from its saved state on a resume, or new."""
    trainable = _trainable(sweep, plans)
    limit = sweep.limit(plans)
    pend_up_to(limit)
    path = sweep.experiment_path()
    if sweep.resume and restorable(path):
        return tune.Tuner.restore(path, trainable, resume_unfinished=True, resume_errored=True)
    spec = sweep.spec
    searcher = SweepSearcher(
        {plan.method: _method_searcher(sweep, plan) for plan in plans},
        {plan.method: plan.trials for plan in plans},
        spec.reruns,
        sweep.state,
        {plan.method: spec.runs[plan.method].seed for plan in plans},
        spec.name,
        limit,
        tie_key(spec, sweep.state),
        frozenset(plan.method for plan in plans if plan.secret_count),
        {m: functools.partial(carried, run=spec.runs[m], plan=p) for m, p in (spec.release or {}).items()},
        {m: functools.partial(tuning_knobs, plan=p) for m, p in (spec.release or {}).items()},
        {p.method: start_points(spec.methods[p.method]) for p in plans if spec.methods[p.method].keep_start},
        len(sweep.data.val_y),
    )
    return tune.Tuner(
        trainable,
        tune_config=tune.TuneConfig(
            metric=OBJECTIVE,
            mode="max",
            search_alg=searcher,
            scheduler=_scheduler(spec, plans),
            num_samples=-1,  # until the searcher has suggested every method's budget and re-runs
            reuse_actors=True,
        ),
        run_config=tune.RunConfig(
            name=STAGE_EXPERIMENT,
            storage_path=f"{spec.storage_path}/{spec.name}",
            callbacks=[SearchObserver(searcher), PerMethod(groups)],
            failure_config=tune.FailureConfig(max_failures=TRIAL_RETRIES),
            checkpoint_config=tune.CheckpointConfig(num_to_keep=CHECKPOINTS_KEPT),
            verbose=0,
        ),
    )


@dataclass(frozen=True)
class MethodSearch:
    """What one method's search left: the last reported metrics of every trial and re-run, and Optuna's
    page of the search (``study_page``), made as soon as the search ended, while other methods train."""

    method: str
    results: list[dict[str, Any]]
    page: str | None


def search_stage(sweep: SweepRun, plans: list[SearchPlan], groups: CallbackGroups) -> list[MethodSearch]:
    """Every method's search and re-runs in the stage's one Tune run, to its end.

    Tune reuses a trial's actor for the next trial of any method (one trainable for all,
    ``dptune.tune.trainable.dptune_sweep``); each method keeps its own searcher, trial budget and ASHA
    (``SweepSearcher``, ``PerMethodScheduler``) and its own callbacks (``PerMethod``). The run trains in a
    thread of the driver, so that Ctrl+C and SIGTERM reach the main thread (``dptune.tune.interrupt``).
    """
    active = [plan for plan in plans if plan.trials > 0]
    if not active:
        return []
    pages: dict[str, str | None] = {}
    ended = ended_searches(sweep.spec.name)
    secret = {plan.method for plan in active if plan.secret_count}

    def make_pages() -> None:
        while not ended.empty():
            method = ended.get()
            if method not in secret:  # a page of every trial would show K: internal, never attached
                pages[method] = study_page(sweep.spec.storage_path, sweep.spec.name, method)

    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dptune-search")
    future = pool.submit(lambda: _tuner(sweep, active, groups).fit())
    try:
        while not wait([future], timeout=PAGE_POLL_SECONDS).done:
            make_pages()  # each search's Optuna page as soon as it ends, while the others train
    finally:  # interrupted (``dptune.tune.interrupt``): the run is left training, the process ends
        pool.shutdown(wait=False)
    grid = future.result()
    make_pages()
    trial_results = [grid[i] for i in range(len(grid))]
    results = []
    for r in trial_results:
        whose = route(r.config or {})
        result = {**(r.metrics or {}), "method": whose.method, "config": r.config or {}}
        results.append(result | ({CHECKPOINT_KEY: r.checkpoint} if whose.rerun else {}))
    return [
        MethodSearch(
            plan.method,
            [r for r in results if r["method"] == plan.method],
            pages.get(plan.method),  # every search has ended when its run has
        )
        for plan in active
    ]


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


@dataclass(frozen=True)
class SweepOutcome:
    best: list[TradeOff]
    parent_run_id: str
    wall_seconds: float
    trial_seconds: float
    trials: int
    results: list[dict[str, Any]]  # the last reported metrics of every trial, with its method
    tuning_cost: SweepTuningCost  # ε including tuning, per method and for the whole sweep
    releases: list[Release] = field(default_factory=list)  # its released models (re-runs or releases)
    # its public privacy record (a pipeline stage's: ``plan_record``; a per-run sweep's: its search bound's)
    record: dict[str, Any] = field(default_factory=dict)


SECRET_FAILURE = "withheld: the trial count is secret, and whether or why a trial failed would tell it"


def failed_methods(spec: SweepSpec, outcomes: list[SweepOutcome]) -> dict[str, str]:
    """The methods of the spec with no trial that trained (every one failed or was infeasible, or none ran)
    in any of the sweeps, or (ε including the tuning) no released model, each with the first trial's
    whole reason: such a sweep has no result for them.
    Under a secret trial count the reason is withheld and a method that drew no trial is named alike:
    which of the two it was, or why a trial failed, would tell that K was at least one."""
    failed: dict[str, str] = {}
    for outcome in outcomes:
        by_method: dict[str, list[dict[str, Any]]] = {method: [] for method in spec.methods}
        for result in outcome.results:
            by_method.setdefault(result["method"], []).append(result)
        for method, results in by_method.items():
            if any(TrialStatus.of_ended(r).trained for r in results if STATUS_KEY in r):
                continue
            reasons = [str(r["reason"]) for r in results if r.get("reason")] or ["no trial ran to a report"]
            failed.setdefault(method, SECRET_FAILURE if spec.trials.random else reasons[0])
        if spec.includes_tuning is not None:  # a pipeline's result is its released model
            released = {release.method for release in outcome.releases}
            for method in spec.methods:
                if method not in released and method not in failed:
                    finals = [r for r in by_method[method] if route(r["config"]).rerun]
                    why = next((str(r["reason"]) for r in finals if r.get("reason")), "it did not finish")
                    failed[method] = f"no model released at one of its totals: its release run failed ({why})"
    return failed


UI_APP = "dptune"
"""MLflow's server app that opens experiments on their runs (``dptune.tracking.ui_app``, an ``mlflow.app``
entry point)."""


def mlflow_ui_hint(tracking_uri: str, view: str | None) -> str:
    """The closing line: a command that opens the MLflow UI on this store, as this environment spells
    it (``mlflow`` when it is on PATH, else this interpreter's own), and the address to open: the
    experiment's saved results view (``view``, a path in the UI) where there is one."""
    own = Path(sys.executable).parent / "mlflow"
    on_path = shutil.which("mlflow")
    if on_path is not None and Path(on_path).resolve() == own.resolve():
        command = "mlflow"
    else:
        command = os.path.relpath(own) if own.is_relative_to(Path.cwd()) else str(own)
    if "://" not in tracking_uri or tracking_uri.startswith(("sqlite:", "file:")):
        return (
            f"review in the MLflow UI: {command} ui --app-name {UI_APP} --backend-store-uri {tracking_uri} "
            f"--port {UI_PORT}, then open http://127.0.0.1:{UI_PORT}/{view or ''}"
        )
    return f"review in the MLflow UI: open {tracking_uri.rstrip('/')}/{view or ''}"


def proxy_subset(shared: RunConfig, n: int, state: PrivateSweepState) -> torch.Tensor | None:
    """The rows of a tuning proxy's one secret Poisson subset (``training.proxy_fraction``), shared by
    every trial and re-run of the sweep: its seed is a run's subset stream (``Randomness``: OS entropy, or
    derived from ``training.seed`` in a seeded sweep), drawn once and kept in the private state for a
    resume."""
    if shared.proxy_fraction is None:
        return None
    seed = state.proxy_subset_seed(lambda: Randomness(shared.seed).stream_seeds().subset)
    return poisson_rows(n, shared.proxy_fraction, seed)


def run_sweeps(
    spec: SweepSpec,
    spec_text: str,
    resume: bool = False,
    echo: Echo = print,
    plans: list[MethodPlan] | None = None,
) -> list[SweepOutcome]:
    """Run (or resume) the spec's sweep, or with several ε targets one sweep per ε in turn (each
    warm-started from the previous one where the spec says so), each ε's search after its tuning proxy's
    sweep when the spec has one; then the accuracy-vs-ε curve of every method and the privacy of
    releasing the whole curve. A spec whose ε includes the tuning runs its plan (``plans``, made here if
    not given: ``pipeline_stages``). With private held-out data every run's scores on it are noisy, the
    noise fixed here for every score the spec can make (``SweepSpec.with_held_out``)."""
    shared = spec.shared
    if spec.validation == "private" and spec.held_out is None:  # not yet (``dptune run`` fixed it)
        n = train_size(shared.dataset, shared.data_root, shared.subset, shared.dataset_args)
        spec = spec.with_held_out(shared.delta if shared.delta is not None else default_delta(n))
    if spec.includes_tuning is not None:
        stages = pipeline_stages(spec, echo, plans)
    else:
        stages = [stage for i in range(len(spec.epsilons)) for stage in spec.stages(i)]
    if not resume:
        for one in stages:
            refuse_existing(one)
    outcomes = []
    for one in stages:
        if len(stages) > 1:
            role = " (tuning proxy)" if one.shared.proxy_fraction is not None and not one.release else ""
            echo(f"\n=== {one.name}: ε = {one.epsilons[0]:g}{role} ===")
        outcomes.append(run_sweep(one, spec_text, resume=resume, echo=echo))
    if spec.includes_tuning is None and len(spec.epsilons) > 1:
        echo("\n" + curve_summary(spec, stages, outcomes))
    released = [release for outcome in outcomes for release in outcome.releases]
    tracker = tracker_for(spec.tracking_uri)
    curve: tuple[float, float] | None = None
    if spec.includes_tuning is not None:
        echo("\nreleased models, accuracy at each total ε (tuning included):")
        for line in release_lines(released):
            echo(line)
        if len(stages) > 1:
            curve = curve_privacy(
                [list(one.release.values()) for one in stages if one.release], [o.record for o in outcomes]
            )
            echo(
                f"releasing them all (every method at every total: the accuracy-vs-total-ε curve, as the "
                f"last sweep's plot draws it): ε ≤ {curve[0]:.3f}, δ ≤ {curve[1]:g} (every total's stage on "
                "the same data, the stages composed; a stage that tunes on a subset draws its own)"
            )
            record_all_releases(spec, tracker, outcomes[-1].parent_run_id, curve, echo)
    echo(mlflow_ui_hint(spec.tracking_uri, tracker.runs_view_path(spec.experiment)))
    if spec.includes_tuning is not None:
        echo(release_json(released, curve))  # the last line: what a script reads
    return outcomes


def record_all_releases(
    spec: SweepSpec, tracker: Tracker, parent: str, curve: tuple[float, float], echo: Echo
) -> None:
    """The (ε, δ) of releasing every model of a list of totals, on the last total's sweep run (whose plot
    draws them all) as ``all_releases.json`` and in the title of that plot, drawn again."""
    figure = {
        "epsilon": curve[0],
        "delta": curve[1],
        "totals": list(spec.epsilons),
        "methods": list(spec.methods),
    }
    nbsp = "\u00a0"  # the title wraps between figures, never inside "ε ≤ 7.4"
    releases = (
        f"releasing every model of totals {', '.join(f'{e:g}' for e in spec.epsilons)}: "
        f"ε{nbsp}≤{nbsp}{curve[0]:.3g}, δ{nbsp}≤{nbsp}{curve[1]:g}"
    )
    try:
        tracker.attach(parent, {ALL_RELEASES_ARTIFACT: json.dumps(figure, indent=2)})
        tracker.attach_plot(spec.experiment, parent, releases)
    except StoreUnavailableError as down:
        echo(f"tracking: {spec.tracking_uri} does not answer ({down}); that figure is in the line above only")


def pipeline_stages(spec: SweepSpec, echo: Echo, plans: list[MethodPlan] | None) -> list[SweepSpec]:
    """The sweeps of a spec whose ε includes the tuning: the plan of every method at every total, made
    before the data is touched (from the training set's size alone; ``dptune.sweep.preflight.planned``)
    and printed first; then one sweep per total, each its methods' tuning trials and releases
    (``SweepSpec.pipeline``)."""
    if plans is None:
        shared = spec.shared
        n = train_size(shared.dataset, shared.data_root, shared.subset, shared.dataset_args)
        plans = planned(spec, n)
    assert plans is not None
    echo(
        "plan of every released model, fixed before the data is touched (each total ε includes the "
        "tuning):\n" + format_plan(plans) + unused_with_total(spec)
    )
    return [spec.pipeline(i, plans) for i in range(len(spec.epsilons))]


def curve_summary(spec: SweepSpec, sweeps: list[SweepSpec], outcomes: list[SweepOutcome]) -> str:
    """Every method's selected configuration at every ε (the curve: the searches on the whole data), and
    the privacy of releasing all of it: every sweep composes, tuning proxies and the earlier sweeps their
    warm starts read included, each once (``curve_cost``)."""
    full = [o for one, o in zip(sweeps, outcomes, strict=True) if one.shared.proxy_fraction is None]
    rows = sorted(
        (row for outcome in full for row in outcome.best),
        key=lambda r: (r.method, r.epsilon_target),
    )
    epsilon, delta = curve_cost({one.name: o.tuning_cost for one, o in zip(sweeps, outcomes, strict=True)})
    return (
        f"accuracy vs ε of {spec.name} ({', '.join(s.name for s in sweeps)}):\n"
        + format_table(rows)
        + f"\nreleasing the whole curve (every ε's sweep and each earlier sweep they read, once): "
        f"ε ≤ {epsilon:.3f}, δ ≤ {delta:g} (basic composition of the sweeps on the same data)"
    )


def sweep_record(
    spec: SweepSpec, data: Dataset, delta: float, noise_source: str
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
    if spec.release is not None:  # a pipeline stage: its ε is the released models' total
        privacy |= {"epsilon": spec.epsilons[0], "includes_tuning": True}
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


def run_sweep(spec: SweepSpec, spec_text: str, resume: bool = False, echo: Echo = print) -> SweepOutcome:
    """Run (or resume) the sweep of one ε target; returns the best trade-off per method, recorded by the
    tracker. A spec across several ε runs through ``run_sweeps``."""
    if len(spec.epsilons) > 1:
        raise ValueError(f"{spec.name} lists {len(spec.epsilons)} ε targets: run it with run_sweeps")
    started = time.time()
    shared = spec.shared
    if not resume:
        refuse_existing(spec)
    warm_points, prior = warm_start(spec, spec.warm_start) if spec.warm_start else ({}, None)
    echo = progress = SweepProgress(echo, terminal())
    register(spec.name, progress)
    tracker = tracker_for(spec.tracking_uri)
    with ThreadPoolExecutor(max_workers=2, thread_name_prefix="dptune-start") as pool:
        # the data loads and the lookup opens the tracking store (MLflow's imports, a new database's
        # schema: seconds of one core) while Ray starts its processes; Ray must start in the main thread
        loading = pool.submit(sweep_data, spec)
        earlier = pool.submit(find_sweep, spec, tracker)
        can_grow = connect_ray(user_code(spec))
        progress.watch(start_board())
        save_experiment_state_every_step()
        resources = trial_resources(
            spec.cpu, spec.gpu, spec.gpu_fallback, spec.wait if can_grow else 0.0, echo
        )
        data, found = loading.result(), earlier.result()
    n = len(data.train_y)
    parent = found if resume else None
    delta = shared.delta if shared.delta is not None else default_delta(n)
    state = PrivateSweepState(spec.storage_path, spec.name)
    setup = spec.search_setup()
    searches = plan_search(setup, n, delta, state)
    filter_ = sweep_filter(setup, searches, delta)
    noise_source = Randomness(shared.seed).noise_source
    if parent is None:
        tags, params = sweep_record(spec, data, delta, noise_source)
        parent = tracker.start_sweep(spec.experiment, spec.name, tags, params, recorded_spec(spec_text))
        if spec.release is not None:  # stored before any trial: a sweep that stops early keeps its plan
            plan_text = json.dumps([plan.as_dict() for plan in spec.release.values()], indent=2)
            tracker.attach(parent, {PLAN_ARTIFACT: plan_text})
    for line in opening_lines(spec, data, delta, resources.gpu, filter_, warm_points):
        echo(line)
    sweep = SweepRun(
        spec,
        data,
        resources,
        concurrency(spec, resources, can_grow),
        state,
        filter_,
        resume,
        warm_points,
        proxy_subset(shared, n, state),
    )
    if can_grow:  # the autoscaler adds nodes for the trials that may run at once
        ask_for_slots(resources.bundle, sweep.limit(searches))

    settings = {plan.method: run_settings(spec.runs[plan.method], delta) for plan in searches}

    def recorder(method: str, role: str) -> TrialRecorder:
        return TrialRecorder(tracker, spec.experiment, parent, method, noise_source, settings[method], role)

    groups: CallbackGroups = {}
    for plan in searches:
        total = None if plan.secret_count else plan.trials
        groups[plan.method, SEARCH_ROLE] = [
            recorder(plan.method, SEARCH_ROLE),
            TrialProgress(spec.name, plan.method, total),
        ]
        groups[plan.method, FINAL_ROLE] = [
            recorder(plan.method, FINAL_ROLE),
            TrialProgress(
                spec.name,
                plan.method,
                spec.reruns,
                final=True,
                rerun_names=RERUN_NAMES if spec.release is None else RELEASE_NAMES,
                rerun_cost=1.0 / (spec.runs[plan.method].proxy_fraction or 1.0),
            ),
        ]

    try:
        with interruptible(), progress.running():
            try:
                searched = search_stage(sweep, searches, groups)
            except SweepInterrupted as stop:
                stop.recorded = tracker.flush(timeout=INTERRUPT_FLUSH_SECONDS)
                raise
    finally:
        if can_grow:
            ask_for_slots(resources.bundle, 0)
    all_results = [result for one in searched for result in one.results]
    # this invocation's share of each trial's time: a resumed sweep's restored trials ran before it;
    # a release counts once for every slot it held
    timed = [r for r in all_results if "trial_start" in r]
    ended = time.time()
    ran_now = [min(r["trial_end"], ended) - max(r["trial_start"], started) for r in timed]
    held = [sweep.placement.cpus(r["config"]) / resources.cpu for r in timed]
    trial_seconds = sum(max(0.0, seconds) * slots for seconds, slots in zip(ran_now, held, strict=True))
    trials = sum(seconds > 0 for seconds in ran_now)
    costs = [
        method_tuning_cost(plan, state.trials(plan.method), spec.trials, filter_, delta) for plan in searches
    ]
    tuning = SweepTuningCost(costs, delta, filter_, prior, shared.proxy_fraction)
    state.keep("tuning_cost", tuning.as_dict(private=True))
    counts = {plan.method: Ran(*ledger_counts(state.trials(plan.method)), plan.trials) for plan in searches}
    record = tuning.as_dict() if spec.release is None else plan_record(spec.release, counts)
    chosen = {plan.method: state.selected(plan.method) for plan in searches}
    selected = {method: found["trial_id"] for method, found in chosen.items() if found}
    best = selected_tradeoffs(all_results, selected, settings, record["methods"], noise_source)
    if spec.release is not None:  # a pipeline's row stands for its total, not its tuning trials' ε_t
        best = [replace(row, epsilon_target=spec.epsilons[0]) for row in best]
    releases = sweep_releases(
        all_results, spec.runs, settings, record["methods"], counts, spec.release, noise_source, spec.held_out
    )
    try:
        if not tracker.flush(timeout=TRACKING_CATCH_UP_SECONDS):
            raise StoreUnavailableError(f"still unreachable after {TRACKING_CATCH_UP_SECONDS:g}s")
        tracker.log_tuning_cost(parent, record)
        releases = log_releases(
            tracker, spec.experiment, parent, releases, all_results, tuple(data.train_x.shape[1:])
        )
        pages = {f"{one.method}.html": one.page for one in searched if one.page}
        tracker.attach(parent, pages, STUDY_PLOTS_FOLDER)
        tracker.log_sweep_summary(spec.experiment, parent, selected)
        tracker.finish_sweep(parent)
    except StoreUnavailableError as down:
        echo(
            f"tracking: {spec.tracking_uri} does not answer ({down}); every result is kept in Tune's "
            f"experiments under {spec.storage_path}/{spec.name}: once the server is back, run this sweep "
            "again with --resume to record them"
        )
    tracker.close()
    wall = time.time() - started
    compute = compute_line(
        spec, trials, len(timed) - trials, trial_seconds, resources.slots, resources.describe(), wall
    )
    if spec.release is not None:
        lines = pipeline_closing_lines(spec, format_table(best), releases, record, compute)
    else:
        lines = closing_lines(spec, format_table(best), tuning, state.uri, compute, releases)
    for line in lines:
        echo(line)
    on_cpu = sum(fell_back_to_cpu(r) for r in all_results)
    if on_cpu and not spec.trials.random:  # a secret count: said before the trials, whatever they did
        echo(
            f"note: {on_cpu} of the trials trained on the CPU although given {resources.gpu:g} GPU: their "
            "node showed no CUDA device (resources.gpu_fallback: cpu); check the nodes' NVIDIA driver and "
            "container"
        )
    return SweepOutcome(best, parent, wall, trial_seconds, trials, all_results, tuning, releases, record)
