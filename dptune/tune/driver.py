"""A sweep: every method of the spec searched with Optuna under the spec's fixed (ε, δ), the same trial
budget for every method, in one Ray Tune run per sweep, trials logged to MLflow.

Every method's search runs at the same time, each with its own searcher, ASHA and the same trial
budget, their trials sharing the cluster's slots and Tune's actors (``run_searches``). Trials are scored
on the validation part of the held-out images; when a method's search ends, its selected configuration
(the finished trial with the best validation accuracy, or its start point unless a trial beats it
clearly where the method says ``keep_start``) is run again ``selection.reruns`` times with
fresh randomness in the same Tune run, and those re-runs alone are scored on the final-test part
(``dptune.engine.dataset``, ``dptune.tune.sweep_searcher``).

Ctrl+C or SIGTERM while the trials train raises ``SweepInterrupted`` (``dptune.tune.interrupt``): the
tracker records what it queued, and the process is to end as a killed driver would.

``resume=True`` restores the sweep's Tune run from its experiment directory: finished trials are not
run again, unfinished ones continue from their last checkpoint, and the MLflow parent and child runs are
found again rather than duplicated.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from dptune.base.randomness import Randomness, secret_rng
from dptune.engine.data import load_dataset, pixel_scale
from dptune.engine.dataset import poisson_rows
from dptune.privacy.plan_privacy import Ran
from dptune.privacy.plans import MethodPlan
from dptune.sweep.bound import (
    BoundedSearch,
    PriorSweep,
    SweepTuningCost,
    bounded_searches,
    method_tuning_cost,
    sweep_filter,
)
from dptune.sweep.held_out import check_noise, held_out_records, majority_baseline, with_held_out
from dptune.sweep.ledger import PrivateSweepState, ledger_counts
from dptune.sweep.modes import PerRunSweep, SweepMode, SweepResults
from dptune.sweep.pipeline import planned
from dptune.sweep.plan import PLAN_ARTIFACT
from dptune.sweep.preflight import refuse_existing
from dptune.sweep.releases import ReleasedModel
from dptune.sweep.results import TradeOff, recorded_spec, run_settings, selected_tradeoffs
from dptune.sweep.resume import refuse_changed, resumable_identity
from dptune.sweep.spec_modes import SweepOutcome, spec_mode
from dptune.sweep.summary import Closing, Opening, compute_line
from dptune.sweep.sweep_spec import SweepSpec
from dptune.tracking import StoreUnavailableError, Tracker, tracker_for
from dptune.tracking.names import (
    ALL_RELEASES_ARTIFACT,
    FINAL_ROLE,
    SEARCH_ROLE,
)
from dptune.tracking.report import format_table
from dptune.training.calibrated_run import resolved_delta
from dptune.training.config import RunConfig
from dptune.training.trial_status import (
    fell_back_to_cpu,
)
from dptune.tune.callbacks import TrialRecorder
from dptune.tune.interrupt import INTERRUPT_FLUSH_SECONDS, SweepInterrupted, interruptible
from dptune.tune.outcomes import Timing, timing
from dptune.tune.progress import (
    TrialProgress,
)
from dptune.tune.release import log_releases
from dptune.tune.resources import SlotMeter, ask_for_slots
from dptune.tune.startup import Echo, Started, mlflow_ui_hint, start, sweep_record
from dptune.tune.sweep_run import (
    CallbackGroups,
    MethodSearch,
    SweepRun,
    concurrency,
    ended_whole,
    run_searches,
)
from dptune.tune.warm_start import warm_start

if TYPE_CHECKING:
    import torch

STUDY_PLOTS_FOLDER = "optuna"
"""Where a sweep's run keeps each method's Optuna page (``dptune.tune.study_plots``)."""
TRACKING_CATCH_UP_SECONDS = 300.0
"""How long the end of a sweep waits for the tracker to record what it queued (a server that was down)."""


BASELINE_DRAW = "majority_baseline"
"""The private state's key of the noise draw of a sweep's majority-class baseline (drawn once: a resume
states the same baseline)."""


def standard_normal() -> float:
    """A standard normal from secret OS entropy."""
    return float(secret_rng().standard_normal())


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
    """Run (or resume) the sweeps of a spec as its mode makes them (``dptune.sweep.spec_modes.spec_mode``:
    one per per-run ε, each after its tuning proxy's; or, where the ε includes the tuning, one pipeline
    per total, after its ``plans``, made here if not given); then what the mode says of all of them.
    With private held-out data every run's scores on it are noisy, the noise fixed here for every
    score the spec can make (``dptune.sweep.held_out``)."""
    shared = spec.shared
    if spec.validation == "private" and spec.held_out is None:  # not yet (``dptune run`` fixed it)
        data = load_dataset(shared.dataset, shared.data_root, shared.subset, shared.dataset_args)
        n = len(data.train_y)
        plans = plans if plans is not None else planned(spec, n)
        spec = with_held_out(spec, plans, resolved_delta(shared, n), held_out_records(data))
        warning = check_noise(spec)
        if warning is not None:
            echo(warning)
    mode = spec_mode(spec, plans)
    for line in mode.opening_lines():
        echo(line)
    sweeps = mode.sweeps()
    if not resume:
        for one in sweeps:
            refuse_existing(one.spec)
    outcomes = []
    for one in sweeps:
        if len(sweeps) > 1:
            echo(f"\n=== {one.spec.name}: {one.heading} ===")
        outcomes.append(run_sweep(one.spec, spec_text, resume=resume, echo=echo, mode=one))
    lines, curve = mode.closing_lines(sweeps, outcomes, format_table)
    for line in lines:
        echo(line)
    tracker = tracker_for(spec.tracking_uri)
    if curve is not None:
        record_all_releases(spec, tracker, outcomes[-1].parent_run_id, curve, echo)
    echo(mlflow_ui_hint(spec.tracking_uri, tracker.runs_view_path(spec.experiment)))
    for line in mode.last_line([r for outcome in outcomes for r in outcome.releases], curve):
        echo(line)  # the last line: what a script reads
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


@dataclass(frozen=True)
class Prepared:
    """A sweep ready to search: its run, searches, δ, tracked run and randomness."""

    sweep: SweepRun
    searches: list[BoundedSearch]
    delta: float
    parent: str
    noise_source: str
    warm_prior: PriorSweep | None


def prepare(mode: SweepMode, spec_text: str, resume: bool, began: Started) -> Prepared:
    """The sweep's bound and filter fixed before any trial, its tracked run (with its mode's plan, stored
    before any trial: a sweep that stops early keeps it) and its opening lines."""
    spec, shared, n = mode.spec, mode.spec.shared, len(began.data.train_y)
    warm_points, prior = warm_start(spec, spec.warm_start) if spec.warm_start else ({}, None)
    delta = resolved_delta(shared, n)
    state = PrivateSweepState(spec.storage_path, spec.name)
    identity = resumable_identity(spec, mode.plan_text(), began.data)
    refuse_changed(spec.name, state.started_as(identity), identity)
    setup = spec.search_setup()
    searches = bounded_searches(setup, n, delta, state)
    filter_ = sweep_filter(setup, searches, delta)
    noise_source = Randomness(shared.seed).noise_source
    parent = began.found if resume else None
    if parent is None:
        tags, params = sweep_record(spec, mode, began.data, delta, noise_source)
        parent = began.tracker.start_sweep(spec.experiment, spec.name, tags, params, recorded_spec(spec_text))
        plan_text = mode.stored_plan()  # a seeded sweep's none: its figures are no guarantee
        if plan_text is not None:
            began.tracker.attach(parent, {PLAN_ARTIFACT: plan_text})
    opening = mode.opening_lines(Opening(began.data, delta, began.resources.gpu, filter_, warm_points))
    for line in opening:
        began.progress(line)
    sweep = SweepRun(
        spec=spec,
        mode=mode,
        data=began.data,
        resources=began.resources,
        concurrency=concurrency(spec, began.resources, began.can_grow),
        state=state,
        filter=filter_,
        resume=resume,
        warm_points=warm_points,
        proxy_rows=proxy_subset(shared, n, state),
    )
    return Prepared(sweep, searches, delta, parent, noise_source, prior)


def callbacks(prepared: Prepared, tracker: Tracker, settings: dict[str, dict[str, Any]]) -> CallbackGroups:
    """Each method's tracking and progress callbacks, for its search trials and for its re-runs (or
    release)."""
    sweep, parent = prepared.sweep, prepared.parent
    spec, mode = sweep.spec, sweep.mode
    groups: CallbackGroups = {}
    for plan in prepared.searches:
        method = plan.method

        def recorder(role: str, method: str = method) -> TrialRecorder:
            source = prepared.noise_source
            return TrialRecorder(tracker, spec.experiment, parent, method, source, settings[method], role)

        total = None if plan.secret_count else plan.trials
        groups[method, SEARCH_ROLE] = [recorder(SEARCH_ROLE), TrialProgress(spec.name, method, total)]
        final = TrialProgress(
            spec.name,
            method,
            mode.release.runs_known(spec.reruns),
            final=True,
            rerun_names=mode.release.run_names,
            rerun_cost=1.0 / (spec.runs[method].proxy_fraction or 1.0),
        )
        groups[method, FINAL_ROLE] = [recorder(FINAL_ROLE), final]
    return groups


def search(prepared: Prepared, began: Started, groups: CallbackGroups) -> list[MethodSearch]:
    """Every method's search to its end (the autoscaler asked for the trials that may run at once, and
    for none after); an interrupt records what the tracker queued first."""
    sweep = prepared.sweep
    if ended_whole(sweep):
        began.progress("the sweep's Tune run ended whole before: nothing trains; its results are read back")
    elif began.can_grow:
        ask_for_slots(began.resources.bundle, sweep.limit(prepared.searches))
    try:
        with interruptible(), began.progress.running():
            try:
                return run_searches(sweep, prepared.searches, groups, began.progress)
            except SweepInterrupted as stop:
                stop.recorded = began.tracker.flush(timeout=INTERRUPT_FLUSH_SECONDS)
                raise
    finally:
        if began.can_grow:
            ask_for_slots(began.resources.bundle, 0)


@dataclass(frozen=True)
class Recorded:
    """What a sweep answers: its search bound's figures, its public record, the selected configurations,
    its releases."""

    tuning: SweepTuningCost
    record: dict[str, Any]
    best: list[TradeOff]
    releases: list[ReleasedModel]
    selected: dict[str, str]


def record(
    prepared: Prepared, results: list[dict[str, Any]], settings: dict[str, dict[str, Any]]
) -> Recorded:
    """The sweep's privacy (its search bound's figures, kept whole in the private state; its mode's public
    record), each method's selected configuration and the models the mode releases."""
    sweep, delta, searches = prepared.sweep, prepared.delta, prepared.searches
    spec, state, mode = sweep.spec, sweep.state, sweep.mode
    costs = [
        method_tuning_cost(plan, state.trials(plan.method), spec.trials, sweep.filter, delta)
        for plan in searches
    ]
    tuning = SweepTuningCost(costs, delta, sweep.filter, prepared.warm_prior, spec.shared.proxy_fraction)
    started = {plan.method: ledger_counts(state.trials(plan.method)) for plan in searches}
    counts = {
        p.method: Ran(
            started[p.method].searched, started[p.method].finals, p.trials, started[p.method].promoted
        )
        for p in searches
    }
    public = mode.record(tuning, counts)
    state.keep("tuning_cost", mode.kept_cost(tuning, public))
    chosen = {plan.method: state.selected(plan.method) for plan in searches}
    selected = {method: found["trial_id"] for method, found in chosen.items() if found}
    rows = selected_tradeoffs(results, selected, settings, public["methods"], prepared.noise_source)
    best = mode.best(rows)
    baseline = (  # drawn only by a sweep that releases (a tuning proxy's runs no re-run)
        majority_baseline(
            sweep.data.test_y.tolist(), spec.held_out, lambda: state.kept_draw(BASELINE_DRAW, standard_normal)
        )
        if spec.reruns
        else None
    )
    releases = mode.releases(SweepResults(results, settings, counts, prepared.noise_source, baseline), public)
    return Recorded(tuning, public, best, releases, selected)


def track(
    prepared: Prepared, began: Started, searched: list[MethodSearch], recorded: Recorded
) -> list[ReleasedModel]:
    """The sweep's record, released models, Optuna pages and summary in the tracking store, once it has
    caught up; a store that does not answer leaves every result in Tune's experiments for a resume.
    Returns the releases with where each loads from (as they were, where the store did not answer)."""
    spec, tracker, parent = prepared.sweep.spec, began.tracker, prepared.parent
    results = [result for one in searched for result in one.results]
    releases = recorded.releases
    try:
        if not tracker.flush(timeout=TRACKING_CATCH_UP_SECONDS):
            raise StoreUnavailableError(f"still unreachable after {TRACKING_CATCH_UP_SECONDS:g}s")
        tracked = prepared.sweep.mode.tracked_record(recorded.record)  # a seeded pipeline's: none
        if tracked is not None:
            tracker.log_tuning_cost(parent, tracked)
        shape = tuple(began.data.train_x.shape[1:])
        classes, pixels = began.data.label_names, pixel_scale(began.data.name)
        releases = log_releases(tracker, spec.experiment, parent, releases, results, shape, classes, pixels)
        pages = {f"{one.method}.html": one.page for one in searched if one.page}
        tracker.attach(parent, pages, STUDY_PLOTS_FOLDER)
        tracker.log_sweep_summary(spec.experiment, parent, recorded.selected)
        tracker.finish_sweep(parent)
    except StoreUnavailableError as down:
        began.progress(
            f"tracking: {spec.tracking_uri} does not answer ({down}); every result is kept in Tune's "
            f"experiments under {spec.storage_path}/{spec.name}: once the server is back, run this sweep "
            "again with --resume to record them"
        )
    tracker.close()
    return releases


def report(
    prepared: Prepared,
    began: Started,
    recorded: Recorded,
    releases: list[ReleasedModel],
    times: Timing,
    wall: float,
    meter: SlotMeter,
) -> None:
    """The closing lines: the mode's (the selections, the privacy, where models load from) and the compute
    used (the slot-seconds ``meter`` counted, stopped here)."""
    sweep, echo = prepared.sweep, began.progress
    spec, resources = sweep.spec, began.resources
    slot_seconds = meter.stop()
    compute = compute_line(
        spec,
        runs_now=times.trials,
        runs_before=times.restored,
        trial_seconds=times.trial_seconds,
        slots=(meter.fewest, meter.most),
        slot_seconds=slot_seconds,
        slot=resources.describe(),
        wall=wall,
        restarts=times.restarts,
    )
    closing = sweep.mode.closing_lines(
        Closing(
            format_table(recorded.best), recorded.tuning, sweep.state.uri, compute, releases, recorded.record
        )
    )
    for line in closing:
        echo(line)


def run_sweep(
    spec: SweepSpec,
    spec_text: str,
    resume: bool = False,
    echo: Echo = print,
    mode: SweepMode | None = None,
) -> SweepOutcome:
    """Run (or resume) the sweep of one ε target, in its phases: start (data, tracking, Ray), prepare (its
    bound, record and run), search, record (its privacy, selections and releases), track and report;
    returns the best trade-off per method, recorded by the tracker. ``mode``: how the sweep counts and
    releases (``run_sweeps`` gives each sweep of a spec its mode; per run where none is given). A spec
    across several ε runs through ``run_sweeps``."""
    if len(spec.epsilons) > 1:
        raise ValueError(f"{spec.name} lists {len(spec.epsilons)} ε targets: run it with run_sweeps")
    started = time.time()
    if not resume:
        refuse_existing(spec)
    began = start(spec, echo)
    meter = SlotMeter(began.resources.bundle, None if began.can_grow else began.resources.slots)
    prepared = prepare(mode or PerRunSweep(spec), spec_text, resume, began)
    settings = {p.method: run_settings(spec.runs[p.method], prepared.delta) for p in prepared.searches}
    searched = search(prepared, began, callbacks(prepared, began.tracker, settings))
    results = [result for one in searched for result in one.results]
    times = timing(results, prepared.sweep, started)
    recorded = record(prepared, results, settings)
    releases = track(prepared, began, searched, recorded)
    wall = time.time() - started
    report(prepared, began, recorded, releases, times, wall, meter)
    cpu_note(spec, results, began)
    return SweepOutcome(
        recorded.best,
        prepared.parent,
        wall,
        times.trial_seconds,
        times.trials,
        results,
        prepared.sweep.mode.outcome_cost(recorded.tuning),
        releases,
        recorded.record,
    )


def cpu_note(spec: SweepSpec, results: list[dict[str, Any]], began: Started) -> None:
    """Say how many trials trained on the CPU though given a GPU (not under a secret count: then it was
    said before the trials, whatever they did)."""
    on_cpu = sum(fell_back_to_cpu(r) for r in results)
    if on_cpu and not spec.trials.random:
        began.progress(
            f"note: {on_cpu} of the trials trained on the CPU although given {began.resources.gpu:g} GPU: "
            "their node showed no CUDA device (resources.gpu_fallback: cpu); check the nodes' NVIDIA driver "
            "and container"
        )
