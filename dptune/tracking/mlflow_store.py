"""``MlflowTracker``: the tracker interface on an MLflow store (SQLite, PostgreSQL, an MLflow server).

The layout (``dptune.tracking.names``): a parent run per sweep, a child run per trial found again by its
``dptune.trial_id`` tag (a resumed sweep never duplicates one). All writes happen in one process (the
sweep driver): a sweep's trial writes in the tracker's writer thread, the rest in the caller's thread (a
SQLite store's lock orders the two).
"""

from __future__ import annotations

import functools
import json
import logging
import math
import tempfile
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar, ParamSpec, TypeVar
from urllib.parse import urlsplit, urlunsplit

import mlflow
from mlflow.entities import Metric, Run, RunStatus, RunTag
from mlflow.exceptions import MlflowException
from mlflow.tracking import MlflowClient

from dptune.base.randomness import SEEDED
from dptune.engine.data import PixelScale
from dptune.sweep.release_policies import ONE
from dptune.tracking import names
from dptune.tracking.mlflow_models import log_released_model
from dptune.tracking.mlflow_reader import MlflowReader, differing, is_pipeline, logged_values
from dptune.tracking.mlflow_trials import (
    EndTrial,
    LogEpochs,
    MarkLost,
    OpenTrial,
    TrialStore,
    TrialWrite,
    create_experiment,
    epochs_of,
    released_name,
    unavailable,
)
from dptune.tracking.mlflow_view import (
    DESCRIPTION_START,
    experiment_description,
    saved_view,
    shown_tags,
    summary_name,
    sweep_description,
    sweep_name,
    view_link,
    view_supported,
)
from dptune.tracking.report import (
    TradeOff,
    format_table,
    pareto_front,
    significant,
)
from dptune.tracking.tracker import TrialKey
from dptune.tracking.writer import BackgroundWriter, StoreUnavailableError
from dptune.training.config import report_columns
from dptune.training.trial_status import FINAL_SCORE, NODE_KEY, OBJECTIVE, SCORE_STD, TrialStatus

log = logging.getLogger("dptune.tracking")

WAIT_S = 300.0
"""How long reading trials back, ``flush`` and ``close`` wait by default for queued writes."""


def param_text(value: Any) -> str:
    """A value as an MLflow parameter: lists and mappings as JSON, the rest as ``str``."""
    return json.dumps(value) if isinstance(value, list | dict) else str(value)


def now_ms() -> int:
    """The current time as MLflow timestamps it (ms since the epoch)."""
    return int(time.time() * 1000)


def shown_uri(uri: str) -> str:
    """A store URI fit for messages: without a password."""
    parts = urlsplit(uri)
    if parts.password is None:
        return uri
    netloc = f"{parts.username}:***@{parts.hostname}" + (f":{parts.port}" if parts.port else "")
    return urlunsplit(parts._replace(netloc=netloc))


P = ParamSpec("P")
R = TypeVar("R")


def sweep_write(method: Callable[P, R]) -> Callable[P, R]:
    """A synchronous write of a sweep's own record: a store that does not answer (``unavailable``) raises
    ``StoreUnavailableError``, which the sweep takes as "record later" (its answer is already made);
    a refused write (a bad value) raises as it is."""

    @functools.wraps(method)
    def write(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(*args, **kwargs)
        except MlflowException as error:
            if unavailable(error):
                raise StoreUnavailableError(str(error).splitlines()[0]) from error
            raise

    return write


class MlflowTracker(MlflowReader):
    """The tracker interface (``dptune.tracking.tracker.Tracker``) on the MLflow store at ``uri``.

    A sweep's trial writes are queued and applied by one writer thread per tracker
    (``dptune.tracking.writer``, ``dptune.tracking.mlflow_trials``): a callback in Ray Tune's loop only
    queues. A store that cannot be reached (after MLflow's own retries) keeps them queued and retried
    every ``first_retry_s`` doubling up to ``max_retry_s`` seconds. Reading trials back
    (``best_tradeoffs``) first waits up to ``wait_s`` for the writes queued before. The other calls (a
    sweep's own record, reports) are synchronous.

    A tracker pickles (into a Tune experiment's callbacks) as its store's URI and unpickles as the
    process's shared tracker of that store (``shared``), so a restored experiment's callbacks queue on
    the writer that the sweep driver flushes.
    """

    _shared: ClassVar[dict[str, MlflowTracker]] = {}
    _shared_lock: ClassVar[threading.Lock] = threading.Lock()

    def __init__(
        self, uri: str, wait_s: float = WAIT_S, first_retry_s: float = 1.0, max_retry_s: float = 60.0
    ) -> None:
        self.uri = uri
        self.wait_s = wait_s
        self._writer: BackgroundWriter[TrialWrite] = BackgroundWriter(
            TrialStore(uri).apply, shown_uri(uri), first_retry_s, max_retry_s
        )

    @classmethod
    def shared(cls, uri: str) -> MlflowTracker:
        """This process's tracker of the store at ``uri`` (made on first use)."""
        with cls._shared_lock:
            if uri not in cls._shared:
                cls._shared[uri] = cls(uri)
            return cls._shared[uri]

    def __reduce__(self) -> tuple[Callable[[str], MlflowTracker], tuple[str]]:
        return (MlflowTracker.shared, (self.uri,))

    @property
    def client(self) -> MlflowClient:
        """A client for a synchronous call (the writer thread has its own)."""
        return MlflowClient(tracking_uri=self.uri)

    def experiment_id(self, name: str) -> str:
        """The experiment's id; made (``mlflow_trials.create_experiment``) if there is none."""
        found = self.client.get_experiment_by_name(name)
        return found.experiment_id if found is not None else create_experiment(self.client, self.uri, name)

    @sweep_write
    def attach(self, run_id: str, files: Mapping[str, str], folder: str | None = None) -> None:
        """Log text files (name -> content) as artifacts of ``run_id``, in ``folder`` if given."""
        with tempfile.TemporaryDirectory() as tmp:
            for name, content in files.items():
                (Path(tmp) / name).write_text(content)
                self.client.log_artifact(run_id, str(Path(tmp) / name), artifact_path=folder)

    # -- a sweep ----------------------------------------------------------------------------------
    def find_sweep(self, experiment: str, name: str, storage_path: str) -> str | None:
        found = self.client.get_experiment_by_name(experiment)  # a lookup: it makes no experiment
        if found is None:
            return None
        runs = self.client.search_runs(
            [found.experiment_id],
            filter_string=f"tags.`{names.SWEEP_TAG}` = '{name}' and "
            f"tags.`{names.STORAGE_TAG}` = '{storage_path}'",
            order_by=["attributes.start_time DESC"],
        )
        return runs[0].info.run_id if runs else None

    def start_sweep(
        self, experiment: str, name: str, tags: Mapping[str, str], params: Mapping[str, Any], spec_text: str
    ) -> str:
        client = self.client
        title = sweep_name(name, params.get("dataset"), params.get("model"), params.get(names.EPSILON_PARAM))
        run = client.create_run(
            self.experiment_id(experiment), run_name=title, tags={names.SWEEP_TAG: name, **tags}
        )
        for key, value in params.items():
            client.log_param(run.info.run_id, key, param_text(value))
        self.attach(run.info.run_id, {names.SPEC_ARTIFACT: spec_text})
        return run.info.run_id

    @sweep_write
    def release_model(
        self,
        key: TrialKey,
        model: Any,
        image_shape: tuple[int, ...],
        card: Mapping[str, Any],
        registered_name: str,
        classes: Sequence[str] | None = None,
        pixels: PixelScale | None = None,
    ) -> str:
        """The released ``model`` of the trial ``key`` as its run's MLflow model, registered with its
        privacy ``card`` (``dptune.tracking.mlflow_models``); returns its ``models:/`` URI."""
        found = self.client.search_runs(
            [self.experiment_id(key.experiment)],
            filter_string=f"tags.`{names.PARENT_TAG}` = '{key.sweep_id}' and "
            f"tags.`{names.TRIAL_TAG}` = '{key.trial_id}'",
        )
        if not found:
            raise StoreUnavailableError(f"no run of trial {key.trial_id} in the store yet")
        run = found[0]
        if names.RELEASED_MODEL_TAG in run.data.tags:  # logged by an earlier driver of this sweep
            return str(run.data.tags[names.RELEASED_MODEL_TAG])
        uri = log_released_model(
            self.uri, run.info.run_id, model, image_shape, card, registered_name, classes, pixels
        )
        self.client.set_tag(run.info.run_id, names.RELEASED_MODEL_TAG, uri)
        return uri

    @sweep_write
    def log_tuning_cost(self, sweep_id: str, cost: Mapping[str, Any]) -> None:
        """Metrics ``NAME`` and ``NAME.METHOD``, a bound and a note tag per method, the JSON record. ``cost``
        is the public record: a figure that would reveal a secret trial count is absent from it."""
        client = self.client
        for name in names.TUNING_METRICS:
            if name in cost:
                client.log_metric(sweep_id, name, cost[name])
        client.log_metric(sweep_id, names.TUNING_DELTA_METRIC, cost["delta"])
        for row in cost["methods"]:
            for name in names.TUNING_METRICS:
                if name in row:
                    client.log_metric(sweep_id, f"{name}.{row['method']}", row[name])
            client.log_metric(sweep_id, f"{names.TUNING_DELTA_METRIC}.{row['method']}", row["delta"])
            client.set_tag(sweep_id, f"{names.TUNING_BOUND_TAG}.{row['method']}", row["tuning_bound"])
            client.set_tag(sweep_id, f"{names.TUNING_NOTE_TAG}.{row['method']}", row["note"][:4000])
        self.attach(sweep_id, {names.TUNING_COST_ARTIFACT: json.dumps(cost, indent=2)})

    @sweep_write
    def log_sweep_summary(
        self, experiment: str, sweep_id: str, selected: Mapping[str, str] | None = None
    ) -> list[TradeOff]:
        """The search trials the sweep's searcher ``selected`` (method -> trial id) tagged so, then the
        sweep's best trade-offs (tables, JSON, metrics ``NAME.METHOD``), the experiment's accuracy-vs-ε
        plot (PNG and PDF), ε including tuning on each selected trial and its re-runs (a pipeline's
        release runs named for it), the sweep's description and name, and the experiment's saved view
        and description."""
        self._tag_selected(experiment, sweep_id, selected or {})
        sweep_best = self.best_tradeoffs(experiment, sweep_id)
        all_best = self.best_tradeoffs(experiment)
        self.attach(
            sweep_id,
            {
                names.BEST_TABLE_ARTIFACT: format_table(sweep_best) + "\n",
                names.BEST_JSON_ARTIFACT: json.dumps([r.as_dict() for r in sweep_best], indent=2),
                names.PARETO_JSON_ARTIFACT: json.dumps(
                    [r.as_dict() for r in pareto_front(all_best)], indent=2
                ),
            },
        )
        self._attach_plot(experiment, sweep_id, all_best, "")
        for row in sweep_best:
            self.client.log_metric(
                sweep_id, f"{names.SELECTED_VALIDATION_METRIC}.{row.method}", row.validation_accuracy
            )
            if row.test_accuracy is not None:
                self.client.log_metric(sweep_id, f"{names.FINAL_TEST_METRIC}.{row.method}", row.test_accuracy)
        rerun_runs = self._reruns(experiment, sweep_id)
        reruns = {trial: [r.info.run_id for r in runs] for trial, runs in rerun_runs.items()}
        self._mark_selected(sweep_best, reruns)
        sweep = self.client.get_run(sweep_id).data
        if is_pipeline(sweep.params):
            self._name_releases(sweep_best, rerun_runs)
        self._describe(experiment, sweep_id, sweep, sweep_best, reruns)
        return sweep_best

    def _tag_selected(self, experiment: str, sweep_id: str, selected: Mapping[str, str]) -> None:
        """Tag the runs of the trials ``selected`` (method -> trial id) in the sweep ``sweep_id``."""
        self.flush()
        wanted = set(selected.values())
        for run in self._trial_runs(experiment, sweep_id):
            if run.data.tags.get(names.TRIAL_TAG) in wanted:
                self.client.set_tag(run.info.run_id, names.SELECTED_TAG, "true")

    def _reruns(self, experiment: str, sweep_id: str) -> dict[str, list[Run]]:
        """A sweep's re-runs' runs (by number) by the run id of the search trial they re-run."""
        runs = self._trained_runs(experiment, sweep_id)
        by_trial = {r.data.tags.get(names.TRIAL_TAG): r.info.run_id for r in runs}
        found: dict[str, list[tuple[int, Run]]] = {}
        for run in runs:
            tags = run.data.tags
            selected = by_trial.get(tags.get(names.SELECTED_TRIAL_TAG))
            if tags.get(names.ROLE_TAG) == names.FINAL_ROLE and selected is not None:
                found.setdefault(selected, []).append((int(tags.get(names.NUMBER_TAG, 0)), run))
        return {
            selected: [run for _, run in sorted(numbered, key=lambda item: item[0])]
            for selected, numbered in found.items()
        }

    def _mark_selected(self, best: list[TradeOff], reruns: dict[str, list[str]]) -> None:
        """ε including tuning (the method's, in its sweep) on each selected trial's run and its re-runs'
        runs: what publishing their result costs, in the runs table beside ε spent."""
        time_ms = now_ms()
        for row in best:
            if row.epsilon_including_tuning is not None and row.noise_source != SEEDED:
                metrics = [Metric(names.TUNING_METRIC, row.epsilon_including_tuning, time_ms, 0)]
                if row.delta_including_tuning is not None:
                    metrics.append(Metric(names.TUNING_DELTA_METRIC, row.delta_including_tuning, time_ms, 0))
                shown = shown_tags({names.TUNING_METRIC: row.epsilon_including_tuning})
                tags = [RunTag(k, v) for k, v in shown.items()]
                for run_id in (row.run_id, *reruns.get(row.run_id, [])):
                    self.client.log_batch(run_id, metrics=metrics, tags=tags)

    def _name_releases(self, best: list[TradeOff], reruns: dict[str, list[Run]]) -> None:
        """A pipeline's release runs named for their final-test accuracy at the ε including the tuning
        (``released_name``; a seeded sweep's: no ε, since no guarantee holds), as the model's page shows
        its source run. A seeded sweep's selected runs carry no ε including the tuning either (nor does its
        run: ``dptune.sweep.disclosure``)."""
        for row in best:
            seeded = row.noise_source == SEEDED
            if row.epsilon_including_tuning is None and not seeded:
                continue  # its sweep's figures are not recorded yet
            guarantee = None if seeded else row.epsilon_including_tuning
            for run in reruns.get(row.run_id, []):
                score = run.data.metrics.get(FINAL_SCORE)
                if score is not None:
                    std = run.data.metrics.get(SCORE_STD[FINAL_SCORE])
                    name = released_name(row.method, score, guarantee, std)
                    self.client.set_tag(run.info.run_id, names.RUN_NAME_TAG, name)

    def _describe(
        self,
        experiment: str,
        sweep_id: str,
        parent: Any,
        best: list[TradeOff],
        reruns: dict[str, list[str]],
    ) -> None:
        """The sweep's description and name (``parent``: its run's data, params and tags); the
        experiment's saved view and, unless a user wrote one, its description (both where the MLflow
        version's saved-view format is known)."""
        client = self.client
        exp = self.experiment_id(experiment)
        params = logged_values(parent.params)
        base = sweep_name(
            parent.tags.get(names.SWEEP_TAG, ""),
            params.get("dataset"),
            params.get("model"),
            params.get(names.EPSILON_PARAM),
        )
        title = f"{base}, δ = {significant(params.get(names.DELTA_PARAM))}"
        shown = differing(self._trained_runs(experiment, None), report_columns())
        client.set_tag(sweep_id, names.NOTE_TAG, sweep_description(title, exp, best, reruns, shown))
        one_model = params.get(names.RELEASE_PARAM) == ONE.name  # a pipeline's sweep records its policy
        client.set_tag(sweep_id, names.RUN_NAME_TAG, summary_name(base, best, one_model))
        if not view_supported(mlflow.__version__):
            log.warning(
                "tracking: no saved runs view: MLflow %s's format of saved views is unknown (known: 3.17)",
                mlflow.__version__,
            )
            return
        client.set_experiment_tag(exp, names.VIEW_TAG, saved_view(shown, now_ms()))
        note = client.get_experiment(exp).tags.get(names.NOTE_TAG)
        if note is None or note.startswith(DESCRIPTION_START):
            client.set_experiment_tag(exp, names.NOTE_TAG, experiment_description(exp))

    @sweep_write
    def finish_sweep(self, sweep_id: str) -> None:
        self.client.set_terminated(sweep_id, RunStatus.to_string(RunStatus.FINISHED))

    # -- its trials (queued) --------------------------------------------------------------------
    def _queue(self, *writes: TrialWrite) -> None:
        self._writer.submit(writes)

    @property
    def queue_peak(self) -> int:
        """The most trial writes this tracker has held queued at once (``bench/tracking_load.py``)."""
        return self._writer.peak

    def open_trial(
        self,
        key: TrialKey,
        method: str,
        noise_source: str,
        params: Mapping[str, Any],
        role: str,
        tags: Mapping[str, str],
    ) -> None:
        text = {k: param_text(v) for k, v in params.items()}
        self._queue(OpenTrial(key, method, noise_source, text, role, dict(tags), now_ms()))

    def log_epochs(self, key: TrialKey, history: Sequence[Mapping[str, Any]]) -> None:
        if history:
            self._queue(LogEpochs(key, epochs_of(history, now_ms())))

    def end_trial(
        self,
        key: TrialKey,
        status: TrialStatus,
        reason: str | None = None,
        result: Mapping[str, Any] | None = None,
        settle: bool = False,
    ) -> None:
        result = result or {}
        tags = {names.REASON_TAG: reason[:4000]} if reason is not None else {}
        if result.get(NODE_KEY) is not None:
            tags[names.NODE_TAG] = str(result[NODE_KEY])
        metrics = {
            name: float(result[name])
            for name in names.END_METRICS
            if name in result and math.isfinite(result[name])  # no loss on private held-out data
        }
        scored = (OBJECTIVE, FINAL_SCORE, *SCORE_STD.values(), "epsilon_spent")
        scores = {name: float(result[name]) for name in scored if name in result}
        time_ms = now_ms()
        epochs = epochs_of(result.get("history", []), time_ms)
        self._queue(EndTrial(key, status, tags, metrics, scores, epochs, settle, time_ms))

    def mark_lost(self, experiment: str, sweep_id: str, method: str, known: set[str], role: str) -> None:
        self._queue(MarkLost(experiment, sweep_id, method, role, frozenset(known), now_ms()))

    def flush(self, timeout: float | None = None) -> bool:
        return self._writer.flush(self.wait_s if timeout is None else timeout)

    def close(self, timeout: float | None = None) -> bool:
        return self._writer.close(self.wait_s if timeout is None else timeout)

    # -- reading back -----------------------------------------------------------------------------
    def runs_view_path(self, experiment: str) -> str | None:
        found = self.client.get_experiment_by_name(experiment)
        if found is None or names.VIEW_TAG not in found.tags:
            return None
        return view_link(found.experiment_id)
