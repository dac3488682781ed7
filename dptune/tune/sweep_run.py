"""One sweep's Ray Tune run: every method's search and the re-runs (or releases) of its selections, in one
``Tuner`` whose one trainable routes a trial by its method (``dptune.tune.trainable``).

Every method's search runs at the same time, each with its own searcher, ASHA and the same trial
budget, their trials sharing the cluster's slots and Tune's actors (``run_searches``). Trials are scored
on the validation part of the held-out images; when a method's search ends, its selected configuration
(the finished trial with the best validation accuracy, or its start point unless a trial beats it
clearly where the method says ``keep_start``) is run again in the same Tune run, as the sweep's mode
says (``dptune.sweep.modes``: ``selection.reruns`` re-runs, or a pipeline's one release), and those runs
alone are scored on the final-test part (``dptune.engine.dataset``, ``dptune.tune.sweep_searcher``).
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import ray
from ray import tune
from ray.tune.search.optuna import OptunaSearch

from dptune.base.errors import InputError
from dptune.base.randomness import TIE_BREAK_STREAM, secret_key, trial_seed
from dptune.engine.dataset import Dataset
from dptune.privacy.filter import RenyiFilter
from dptune.sweep.bound import BoundedSearch
from dptune.sweep.chain import ChainParts
from dptune.sweep.ledger import PrivateSweepState
from dptune.sweep.modes import SweepMode
from dptune.sweep.space import start_points
from dptune.sweep.sweep_spec import SweepSpec
from dptune.training.trial_status import OBJECTIVE, route
from dptune.tune.callbacks import PerMethod
from dptune.tune.define_by_run import SAMPLERS, DefineByRun
from dptune.tune.node_loss import count_node_losses_apart, failed_attempts
from dptune.tune.release import CHECKPOINT_KEY
from dptune.tune.resources import TrialPlacement, TrialResources
from dptune.tune.restore import CHECKPOINTS_KEPT, restorable
from dptune.tune.schedulers import PerMethodScheduler, asha
from dptune.tune.searcher import AccountedSearcher, SpentCurve
from dptune.tune.studies import study_storage
from dptune.tune.study_plots import study_page
from dptune.tune.sweep_searcher import SearchObserver, SweepSearcher, ended_searches
from dptune.tune.trainable import dptune_sweep

if TYPE_CHECKING:
    import torch


def concurrency(spec: SweepSpec, resources: TrialResources, can_grow: bool) -> int | None:
    """Trials at once: ``budget.max_concurrent``, else what the cluster holds now, or, on a cluster that
    can grow, None: every trial of the sweep (its pending trials make the autoscaler add nodes, up
    to the cluster's ``max_workers``)."""
    if spec.max_concurrent is not None:
        return spec.max_concurrent
    return None if can_grow else max(1, resources.slots)


TRIAL_RETRIES = 2
"""Times Tune restarts a trial that failed (its code raised; or its actor died, an OOM kill, once
``node_loss.NODE_LOSS_RETRIES`` losses of its node or process are spent). From its last checkpoint
a restart restores the trainer's random states with its weights, so the epochs it runs again draw the
same training noise as the lost attempt (its held-out scores' noise afresh: ``Trainer.load_state_dict``);
a trial lost before its first checkpoint starts afresh with fresh secret
randomness. Either way the lost attempt released nothing (a trial reports only with a checkpoint) and
its loss does not depend on the data, so the trial's ledger is unchanged. A trial that diverges is not
retried (``dptune.tune.trainable``)."""


TUNE_RUN_NAME = "trials"
"""The name of a sweep's Tune run (every method's search trials and re-runs) under the sweep's
folder."""
PAGE_POLL_SECONDS = 1.0
"""How often the driver, while the trials train, looks for searches that ended (to make their pages)."""


@dataclass(frozen=True)
class SweepRun:
    """What every method's search of one sweep shares: the spec, the data, where trials run, and the
    private state and privacy filter that count them."""

    spec: SweepSpec
    mode: SweepMode
    data: Dataset
    resources: TrialResources
    concurrency: int | None  # trials at once; None: all of them
    state: PrivateSweepState
    filter: RenyiFilter | None
    resume: bool
    warm_points: dict[str, list[dict[str, Any]]]  # per method, the start points of a warm start
    proxy_rows: torch.Tensor | None = None  # a tuning proxy's secret subset (private: never logged)

    def experiment_path(self) -> str:
        """Where Tune keeps the sweep's run (its state, trials and checkpoints)."""
        return f"{self.spec.storage_path}/{self.spec.name}/{TUNE_RUN_NAME}"

    @property
    def placement(self) -> TrialPlacement:
        """What each trial asks for: a release (the spec's ε includes the tuning) every slot's CPUs."""
        return TrialPlacement(self.resources, self.mode.release.holds_node)

    def limit(self, plans: list[BoundedSearch]) -> int:
        """Trials at once: ``concurrency``, or every search trial and re-run of ``plans``, a secret trial
        count taken at its public mean (the number reaches the autoscaler: K must not)."""
        trials = [math.ceil(self.spec.trials.mean) if p.secret_count else p.trials for p in plans if p.trials]
        later = self.spec.reruns + self.mode.promoted  # each method's re-runs and promoted trials
        return max(1, self.concurrency or sum(trials) + later * len(trials))


def _trainable(sweep: SweepRun, plans: list[BoundedSearch]) -> Any:
    """The sweep's one trainable, each trial asking for its ``TrialPlacement`` bundle."""
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


def _method_searcher(sweep: SweepRun, plan: BoundedSearch) -> AccountedSearcher:
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


def _scheduler(spec: SweepSpec, plans: list[BoundedSearch]) -> PerMethodScheduler:
    """ASHA per method on its own plans' epochs (``asha``), or FIFO for every trial."""
    if spec.scheduler != "asha":
        return PerMethodScheduler({})
    ranges = {plan.method: [int(e) for e in spec.knob_range(plan.method, "epochs")] for plan in plans}
    return PerMethodScheduler({m: asha(spec.grace_period, *epochs) for m, epochs in ranges.items()})


def pend_up_to(trials: int) -> None:
    """Let Tune hold up to ``trials`` trials pending (their placement groups and actors starting at
    once). Tune allows one pending trial to a searcher that is not a ``ConcurrencyLimiter``, which would
    start the first actors one after another; the sweep's searcher caps its trials itself, on Tune's own
    list (a ``ConcurrencyLimiter`` keeps its running trials in a state file saved apart from Tune's
    list, and after a kill between the two saves it would wait forever for a trial Tune has ended). Ray
    offers no API for it: Tune reads the variable when ``Tuner.fit`` builds its controller."""
    os.environ["TUNE_MAX_PENDING_TRIALS_PG"] = str(max(1, trials))


CallbackGroups = dict[tuple[str, str], list[tune.Callback]]
"""The tracking and progress callbacks of each method's search (role ``search``) and re-runs (``final``)."""


def _tuner(sweep: SweepRun, plans: list[BoundedSearch], groups: CallbackGroups) -> tune.Tuner:
    """The sweep's one Tune run: restored from its saved state on a resume, or new. A trial's actor lost
    with its node spends none of its ``TRIAL_RETRIES`` (``node_loss``)."""
    count_node_losses_apart()
    trainable = _trainable(sweep, plans)
    limit = sweep.limit(plans)
    pend_up_to(limit)
    path = sweep.experiment_path()
    if sweep.resume and restorable(path):
        return tune.Tuner.restore(path, trainable, resume_unfinished=True, resume_errored=True)
    spec = sweep.spec
    parts = ChainParts(
        searchers={plan.method: _method_searcher(sweep, plan) for plan in plans},
        budgets={plan.method: plan.trials for plan in plans},
        state=sweep.state,
        seeds={plan.method: spec.runs[plan.method].seed for plan in plans},
        tie_key=tie_key(spec, sweep.state),
        secret=frozenset(plan.method for plan in plans if plan.secret_count),
        kept_starts={
            p.method: start_points(spec.methods[p.method]) for p in plans if spec.methods[p.method].keep_start
        },
        validation_size=len(sweep.data.val_y),
    )
    searcher = SweepSearcher(sweep.mode.chain(parts), spec.name, limit)
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
            name=TUNE_RUN_NAME,
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


LOST_KEY = "lost"
"""A trial's result carries, where Tune ended it in error after its retries, why (``lost_reason``)."""
FAILED_ATTEMPTS_KEY = "failed_attempts"
"""A trial's result carries Tune's failure count at each of its attempts that ended in error
(``node_loss.failed_attempts``): how often it was restarted, and after what."""


def lost_reason(error: BaseException) -> str:
    """The last line of a trial's error (its exception's type and message), at most 300 characters."""
    lines = [line for line in str(error).strip().splitlines() if line.strip()]
    return (lines[-1] if lines else type(error).__name__)[:300]


MEMORY_KILL_RESUMES = 3
"""Times a sweep's Tune run is restored in the same driver after Ray's memory monitor killed a trial's
worker (``fit_through_memory_kills``); a fourth kill stops the sweep."""


def killed_for_memory(error: BaseException) -> bool:
    """Whether Tune's run ended because Ray's memory monitor killed a trial's worker. Tune's actor manager
    handles a lost actor (``RayActorError``) or a task's own error (``RayTaskError``) as a trial's failure,
    and raises any other error of a trial's task (Ray's ``OutOfMemoryError``) as ``RuntimeError('Caught
    unexpected exception')``, which ends the whole run: the other trials' finished results stay in its
    saved state."""
    return isinstance(error, RuntimeError) and isinstance(error.__cause__, ray.exceptions.OutOfMemoryError)


def fit_through_memory_kills(
    sweep: SweepRun, plans: list[BoundedSearch], groups: CallbackGroups, echo: Callable[[str], None]
) -> Any:
    """The sweep's Tune run to its end (``tune.ResultGrid``), restored from its saved state after each of up
    to ``MEMORY_KILL_RESUMES`` memory kills (``killed_for_memory``), as ``--resume`` would: finished trials
    are kept, the killed trial and those running beside it continue from their last checkpoints with their
    random states, as after a lost node (``TRIAL_RETRIES``), so no ledger changes."""
    run, kills = sweep, 0
    while True:
        try:
            return _tuner(run, plans, groups).fit()
        except RuntimeError as error:
            if not killed_for_memory(error) or not restorable(sweep.experiment_path()):
                raise
            kills += 1
            if kills > MEMORY_KILL_RESUMES:
                raise InputError(
                    "resources.cpu",
                    f"Ray's memory monitor killed a trial {kills} times (the node ran low on memory); "
                    "give each trial more CPUs (resources.cpu) or lower budget.max_concurrent, then run "
                    "again with --resume: the finished trials are kept",
                ) from error
            echo(
                "Ray's memory monitor killed a trial's worker (the node ran low on memory): the sweep's "
                f"Tune run is restored from its saved state ({kills} of {MEMORY_KILL_RESUMES}), the killed "
                "trial resuming from its last checkpoint"
            )
            run = replace(sweep, resume=True)


def ended_whole(sweep: SweepRun) -> bool:
    """Whether this run resumes a sweep whose Tune run ended whole (``PrivateSweepState.end_tune_run``): then
    nothing trains, and no node is asked for."""
    return sweep.resume and sweep.state.tune_run_ended() and restorable(sweep.experiment_path())


def run_searches(
    sweep: SweepRun, plans: list[BoundedSearch], groups: CallbackGroups, echo: Callable[[str], None] = print
) -> list[MethodSearch]:
    """Every method's search and re-runs in the sweep's one Tune run, to its end.

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

    if ended_whole(sweep):  # a resume of a finished sweep: its results read back, nothing started
        grid = tune.Tuner.restore(sweep.experiment_path(), _trainable(sweep, active)).get_results()
        for method in {plan.method for plan in active} - secret:
            pages[method] = study_page(sweep.spec.storage_path, sweep.spec.name, method)
    else:
        pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="dptune-search")
        future = pool.submit(lambda: fit_through_memory_kills(sweep, active, groups, echo))
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
        result = {
            **(r.metrics or {}),
            "method": whose.method,
            "config": r.config or {},
            FAILED_ATTEMPTS_KEY: failed_attempts(r),
        }
        if (
            r.error is not None
        ):  # ended in error after its retries: lost (``dptune.tune.outcomes.lost_trials``)
            result[LOST_KEY] = lost_reason(r.error)
        results.append(result | ({CHECKPOINT_KEY: r.checkpoint} if whose.rerun else {}))
    if not any(LOST_KEY in r for r in results):  # a lost trial is run again on a resume
        sweep.state.end_tune_run()
    return [
        MethodSearch(
            plan.method,
            [r for r in results if r["method"] == plan.method],
            pages.get(plan.method),  # every search has ended when its run has
        )
        for plan in active
    ]
