"""A sweep's trial writes as queued operations, and how the tracker's writer thread applies them to an
MLflow store (``dptune.tracking.writer`` runs the passes; ``MlflowTracker`` makes the operations).

An operation is plain data made when the write is queued, its timestamps included, and applying it is
idempotent, so that a pass cut short by an unreachable store can be applied again whole:

* a trial's run is looked up by its tags (``dptune.trial_id`` under the sweep's parent run) before one
  is created, so a create whose answer was lost does not make a second run;
* a metric keeps the time it was queued at: MLflow's SQL store ignores a metric identical in key, step,
  timestamp and value to one it holds, and epochs a run already shows are not sent again;
* a param is sent once per key (same value), tags are set, a run's end is set.

A trial's run is named for a reader of the runs table: ``dpsgd #3`` when it is created (its number in
its method's search, re-runs ``dpsgd final #1`` counted apart), ``dpsgd #3 · 72.4% · ε 0.99`` when it
ends (a search trial's validation score, a re-run's final-test score, and ε spent), or with how it ended
(``dpsgd #4 · failed``); a pipeline's release, once its sweep's privacy is known, by its ε including the
tuning (``dpsgd release · 75.3% · ε 3.00 incl. tuning``).

A pass costs one search per sweep (the sweep's child runs, read once and then kept current), one
``create_run`` per new trial (its tags given there), one ``get_metric_history`` per run found in the
store that gets epochs, and at most one ``log_batch`` (metrics, params, tags together; two past MLflow's
1000 items) and one ``set_terminated`` per run it touches. After a failed pass everything read is
forgotten and read again.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any, NamedTuple, Protocol, TypeVar

from mlflow.entities import Metric, Param, RunStatus, RunTag
from mlflow.exceptions import MlflowException
from mlflow.tracking import MlflowClient
from mlflow.utils.validation import MAX_ENTITIES_PER_BATCH

from dptune.base.randomness import SEEDED_NO_GUARANTEE
from dptune.tracking import names
from dptune.tracking.mlflow_view import shown_tags
from dptune.tracking.tracker import TrialKey
from dptune.tracking.writer import StoreUnavailableError
from dptune.training.trial_status import FINAL_SCORE, OBJECTIVE, SCORE_STD, TrialStatus, shown_score

log = logging.getLogger("dptune.tracking")

R = TypeVar("R")

LOST_REASON = (
    "the sweep driver was killed before this trial reached the saved experiment; "
    "another trial ran in its place"
)
RUN_ENDINGS = {TrialStatus.FAILED: RunStatus.FAILED, TrialStatus.LOST: RunStatus.KILLED}
"""The MLflow run status of an ended trial (``FINISHED`` for the others)."""
SEARCH_PAGE = 1000
ARTIFACTS_FOLDER = "mlartifacts"


def artifact_location(uri: str) -> str | None:
    """Where a new experiment's artifacts go: beside a SQLite store's database file (``mlartifacts/``),
    never the working directory; None (the server's or MLflow's default) for any other store."""
    prefix = "sqlite:///"
    if not uri.startswith(prefix):
        return None
    database = Path(uri[len(prefix) :].split("?")[0])
    return (database.resolve().parent / ARTIFACTS_FOLDER).as_uri()


def create_experiment(client: MlflowClient, uri: str, name: str) -> str:
    """A new experiment of dptune's in the store at ``uri`` (artifacts: ``artifact_location``), of the
    kind the UI opens on its runs table (model training, not GenAI)."""
    kind = {names.EXPERIMENT_KIND_TAG: names.MODEL_TRAINING_KIND}
    return client.create_experiment(name, artifact_location=artifact_location(uri), tags=kind)


class Epoch(NamedTuple):
    """One epoch's metrics (``CHILD_METRICS`` present and finite), at the time they were queued."""

    step: int
    values: tuple[tuple[str, float], ...]
    time_ms: int


def epochs_of(history: Sequence[Mapping[str, Any]], time_ms: int) -> tuple[Epoch, ...]:
    """The ``history`` entries of a trial's results (``{"epoch": n, metric: value, ...}``) as epochs."""
    return tuple(
        Epoch(
            int(entry["epoch"]),
            tuple(
                (name, float(entry[name]))
                for name in names.CHILD_METRICS
                if name in entry and math.isfinite(entry[name])
            ),
            time_ms,
        )
        for entry in history
    )


@dataclass
class KnownRun:
    """What the writer knows of a trial's run: read from the store once, then kept current."""

    run_id: str
    method: str
    role: str
    number: int  # in its method's search (re-runs apart); 0 for runs from before numbering
    status: str
    params: set[str]
    epochs: set[int] | None  # steps of the first per-epoch metric; None until read


def trial_name(method: str, role: str, number: int) -> str:
    """A trial's run name while it runs: ``dpsgd #3``, a re-run ``dpsgd final #1``."""
    kind = " final" if role == names.FINAL_ROLE else ""
    return f"{method}{kind} #{number}"


def ended_name(run: KnownRun, status: TrialStatus, scores: Mapping[str, float]) -> str:
    """A trial's run name once it ended: its score (a search trial's validation accuracy, a re-run's
    final-test accuracy), with its noise's standard deviation on private held-out data (``shown_score``),
    and ε spent, e.g. ``dpsgd #3 · 72.4% · ε 0.99``, ``dpsgd #3 · 72.4% ± 4.3 · ε 0.99``; else how it
    ended."""
    base = trial_name(run.method, run.role, run.number)
    scored = FINAL_SCORE if run.role == names.FINAL_ROLE else OBJECTIVE
    score = scores.get(scored)
    if not status.trained or score is None or not math.isfinite(score) or "epsilon_spent" not in scores:
        return f"{base} · {status}"  # a private trial stopped before its scored epoch has no score
    shown = shown_score(score, scores.get(SCORE_STD[scored]), decimals=1)
    return f"{base} · {shown} · ε {scores['epsilon_spent']:.2f}"


def released_name(
    method: str, score: float, epsilon_including_tuning: float | None, std: float | None = None
) -> str:
    """A pipeline's release run once its sweep's privacy is known: the model's final-test accuracy, with
    its noise's standard deviation ``std`` on private held-out data (``shown_score``), at its ε with the
    tuning counted, e.g. ``dpsgd release · 75.3% · ε 3.00 incl. tuning`` (its ε spent alone, the
    release's share, would understate what publishing it costs); ``None``: a seeded run, which has no
    guarantee (``dpsgd release · 75.3% · seeded, no DP guarantee``)."""
    shown = shown_score(score, std, decimals=1)
    if epsilon_including_tuning is None:
        return f"{method} release · {shown} · {SEEDED_NO_GUARANTEE}"
    return f"{method} release · {shown} · ε {epsilon_including_tuning:.2f} incl. tuning"


def unavailable(error: MlflowException) -> bool:
    """Whether a failed request may succeed later: no answer, a server error, a rate limit or a
    timeout. A refusal (any other 4xx: a bad value, a missing run) will not."""
    status = error.get_http_status_code()
    return not 400 <= status < 500 or status in (408, 429)


@dataclass
class RunBatch:
    """What a pass sends to one run: its end (MLflow status, end time) if set, then a ``log_batch``."""

    metrics: list[Metric] = field(default_factory=list)
    params: dict[str, str] = field(default_factory=dict)
    tags: dict[str, str] = field(default_factory=dict)
    end: tuple[str, int] | None = None


class TrialStore:
    """The writer thread's side of an MLflow store: applies passes of ``TrialWrite`` operations.

    Only the writer thread uses it. Its knowledge of the store (runs, their params, epochs and status) is
    kept current by its own writes and forgotten when a pass fails.
    """

    def __init__(self, uri: str) -> None:
        self.uri = uri
        self._experiments: dict[str, str] = {}  # name -> id (never forgotten: ids do not change)
        self._sweeps: dict[str, dict[str, KnownRun]] = {}  # sweep run id -> trial id -> run
        self._batches: dict[str, RunBatch] = {}  # run id -> what this pass sends it

    @cached_property
    def client(self) -> MlflowClient:
        """The writer thread's client, made on its first pass (opening a SQL store may migrate it)."""
        return MlflowClient(tracking_uri=self.uri)

    def apply(self, writes: list[TrialWrite]) -> None:
        """Carry out a pass, or raise ``StoreUnavailableError`` having forgotten what it read."""
        try:
            for write in writes:
                write.apply(self)
            while self._batches:
                run_id, batch = next(iter(self._batches.items()))
                self.send(run_id, batch)
                del self._batches[run_id]
        except StoreUnavailableError:
            self._sweeps.clear()
            self._batches.clear()
            raise

    def request(self, call: Callable[..., R], *args: Any, **kwargs: Any) -> R | None:
        """One MLflow request: None (logged) if the store refuses it, ``StoreUnavailableError`` if it
        cannot be reached."""
        try:
            return call(*args, **kwargs)
        except MlflowException as error:
            if unavailable(error):
                raise StoreUnavailableError(str(error)) from error
            log.warning("tracking: the store refused a write, which is dropped: %s", str(error)[:300])
            return None

    def send(self, run_id: str, batch: RunBatch) -> None:
        """What a pass has for one run: its end first, then metrics and params, then tags, so that a
        run whose status tag says it ended has everything (a settling resume skips it)."""
        if batch.end is not None:
            self.request(self.client.set_terminated, run_id, *batch.end)
        metrics = batch.metrics
        params = [Param(k, v) for k, v in batch.params.items()]
        tags = [RunTag(k, v) for k, v in batch.tags.items()]
        if len(metrics) + len(params) + len(tags) <= MAX_ENTITIES_PER_BATCH:
            self.log_batch(run_id, metrics, params, tags)
        else:  # MLflow's client would send the tags with its first part
            self.log_batch(run_id, metrics, params, [])
            self.log_batch(run_id, [], [], tags)

    def log_batch(self, run_id: str, metrics: list[Metric], params: list[Param], tags: list[RunTag]) -> None:
        """One ``log_batch``; if the store refuses it, one request per item, so that only the refused
        items are dropped."""
        try:
            self.client.log_batch(run_id, metrics=metrics, params=params, tags=tags)
        except MlflowException as error:
            if unavailable(error):
                raise StoreUnavailableError(str(error)) from error
            for metric in metrics:
                self.request(self.client.log_batch, run_id, metrics=[metric])
            for param in params:
                self.request(self.client.log_batch, run_id, params=[param])
            for tag in tags:
                self.request(self.client.log_batch, run_id, tags=[tag])

    def experiment_id(self, name: str) -> str | None:
        if name not in self._experiments:
            found = self.request(self.client.get_experiment_by_name, name)
            made = (
                found.experiment_id
                if found is not None
                else self.request(create_experiment, self.client, self.uri, name)
            )
            if made is None:
                return None
            self._experiments[name] = made
        return self._experiments[name]

    def sweep_runs(self, experiment: str, sweep_id: str) -> dict[str, KnownRun]:
        """The child runs of a sweep by trial id: searched once (every page), then kept current."""
        if sweep_id not in self._sweeps:
            exp = self.experiment_id(experiment)
            known: dict[str, KnownRun] = {}
            token = None
            while exp is not None:
                page = self.request(
                    self.client.search_runs,
                    [exp],
                    filter_string=f"tags.`{names.PARENT_TAG}` = '{sweep_id}'",
                    max_results=SEARCH_PAGE,
                    order_by=["attributes.start_time ASC"],
                    page_token=token,
                )
                for run in page or []:
                    tags = run.data.tags
                    if names.TRIAL_TAG in tags:
                        known[tags[names.TRIAL_TAG]] = KnownRun(
                            run.info.run_id,
                            tags.get(names.METHOD_TAG, ""),
                            tags.get(names.ROLE_TAG, names.SEARCH_ROLE),
                            int(tags.get(names.NUMBER_TAG, 0)),
                            tags.get(names.STATUS_TAG, TrialStatus.RUNNING),
                            set(run.data.params),
                            None,
                        )
                token = page.token if page else None
                if not token:
                    break
            self._sweeps[sweep_id] = known
        return self._sweeps[sweep_id]

    def run(self, key: TrialKey) -> KnownRun | None:
        found = self.sweep_runs(key.experiment, key.sweep_id).get(key.trial_id)
        if found is None:
            log.warning(
                "tracking: no run of trial %s (sweep %s); a write is dropped", key.trial_id, key.sweep_id
            )
        return found

    def batch(self, run: KnownRun) -> RunBatch:
        return self._batches.setdefault(run.run_id, RunBatch())

    def add_epochs(self, run: KnownRun, epochs: tuple[Epoch, ...]) -> None:
        """Queue in this pass the epochs the run does not show yet."""
        if not epochs:
            return
        if run.epochs is None:
            history = self.request(self.client.get_metric_history, run.run_id, names.CHILD_METRICS[0])
            run.epochs = {m.step for m in history or []}
        batch = self.batch(run)
        for epoch in epochs:
            if epoch.step not in run.epochs:
                batch.metrics += [Metric(k, v, epoch.time_ms, epoch.step) for k, v in epoch.values]
                run.epochs.add(epoch.step)

    def end(
        self,
        run: KnownRun,
        status: TrialStatus,
        tags: Mapping[str, str],
        metrics: list[Metric],
        time_ms: int,
        scores: Mapping[str, float],
    ) -> None:
        """Queue in this pass the end of a run: its status tag and name (with ``scores``: the trial's last
        validation accuracy, final-test accuracy on a re-run, and ε spent), the display tags of its scores,
        other tags and end-of-run metrics."""
        batch = self.batch(run)
        batch.metrics += metrics
        name = ended_name(run, status, scores)
        shown = shown_tags({**scores, **{m.key: m.value for m in metrics}}) if status.trained else {}
        batch.tags |= {**tags, **shown, names.RUN_NAME_TAG: name, names.STATUS_TAG: status}
        batch.end = (RunStatus.to_string(RUN_ENDINGS.get(status, RunStatus.FINISHED)), time_ms)
        run.status = status


class TrialWrite(Protocol):
    """A queued write of a sweep's trials, applied by the writer thread (idempotently)."""

    def apply(self, store: TrialStore) -> None: ...


@dataclass(frozen=True)
class OpenTrial:
    """A trial's run: found again by its trial id, else created (tags at creation), with its params."""

    key: TrialKey
    method: str
    noise_source: str
    params: Mapping[str, str]
    role: str
    tags: Mapping[str, str]
    time_ms: int

    def apply(self, store: TrialStore) -> None:
        runs = store.sweep_runs(self.key.experiment, self.key.sweep_id)
        run = runs.get(self.key.trial_id)
        if run is None:
            exp = store.experiment_id(self.key.experiment)
            if exp is None:
                return
            number = 1 + max(
                (r.number for r in runs.values() if (r.method, r.role) == (self.method, self.role)),
                default=0,
            )
            created = store.request(
                store.client.create_run,
                exp,
                start_time=self.time_ms,
                run_name=trial_name(self.method, self.role, number),
                tags={
                    names.PARENT_TAG: self.key.sweep_id,
                    names.TRIAL_TAG: self.key.trial_id,
                    names.METHOD_TAG: self.method,
                    names.STATUS_TAG: TrialStatus.RUNNING,
                    names.NOISE_SOURCE_TAG: self.noise_source,
                    names.ROLE_TAG: self.role,
                    names.NUMBER_TAG: str(number),
                    **self.tags,
                },
            )
            if created is None:
                return
            run = runs[self.key.trial_id] = KnownRun(
                created.info.run_id, self.method, self.role, number, TrialStatus.RUNNING, set(), set()
            )
        missing = {k: v for k, v in sorted(self.params.items()) if k not in run.params}
        store.batch(run).params |= missing
        run.params |= missing.keys()


@dataclass(frozen=True)
class LogEpochs:
    """Per-epoch metrics (step = epoch) of a trial, those its run lacks."""

    key: TrialKey
    epochs: tuple[Epoch, ...]

    def apply(self, store: TrialStore) -> None:
        run = store.run(self.key)
        if run is not None:
            store.add_epochs(run, self.epochs)


@dataclass(frozen=True)
class EndTrial:
    """A trial's end: the epochs its run lacks, end-of-run metrics, status (and reason, node) tags, its
    name with ``scores`` (its last validation accuracy, ε spent, a re-run's final-test accuracy), the run's
    end. ``settle``: only if the store still shows the run running."""

    key: TrialKey
    status: TrialStatus
    tags: Mapping[str, str]
    metrics: Mapping[str, float]
    scores: Mapping[str, float]
    epochs: tuple[Epoch, ...]
    settle: bool
    time_ms: int

    def apply(self, store: TrialStore) -> None:
        run = store.run(self.key)
        if run is None or (self.settle and run.status != TrialStatus.RUNNING):
            return
        store.add_epochs(run, self.epochs)
        metrics = [Metric(k, v, self.time_ms, 0) for k, v in self.metrics.items()]
        store.end(run, self.status, self.tags, metrics, self.time_ms, self.scores)


@dataclass(frozen=True)
class MarkLost:
    """Mark ``lost`` every run of ``method`` and ``role`` in the sweep (not lost already) whose trial is not
    ``known``."""

    experiment: str
    sweep_id: str
    method: str
    role: str
    known: frozenset[str]
    time_ms: int

    def apply(self, store: TrialStore) -> None:
        for trial_id, run in store.sweep_runs(self.experiment, self.sweep_id).items():
            mine = run.method == self.method and run.role == self.role
            if mine and run.status != TrialStatus.LOST and trial_id not in self.known:
                store.end(run, TrialStatus.LOST, {names.REASON_TAG: LOST_REASON}, [], self.time_ms, {})
