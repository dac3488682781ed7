"""MLflow records of sweeps: a parent run per sweep, a child run per trial, best trade-offs, Pareto plot.

All writes happen in the sweep driver (one writer, so a SQLite store never sees concurrent trials).
A child run is found again by its ``dptune.trial_id`` tag, so a resumed sweep never duplicates one.
"""

from __future__ import annotations

import json
import math
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mlflow.entities import RunStatus
from mlflow.tracking import MlflowClient
from ray.tune import Callback
from ray.tune.experiment import Trial

TRIAL_TAG = "dptune.trial_id"
SWEEP_TAG = "dptune.sweep"
METHOD_TAG = "dptune.method"
STATUS_TAG = "dptune.status"
NOISE_SOURCE_TAG = "dptune.noise_source"
CHILD_METRICS = ("test_accuracy", "loss", "epsilon_spent")
ENDED_STATUSES = ("finished", "stopped", "infeasible", "failed")
TUNING_METRIC = "epsilon_including_tuning"
ALL_TRIALS_METRIC = "epsilon_all_trials"
TUNING_BOUND_TAG = "dptune.tuning_bound"
BOUND_ABBREVIATIONS = {"repeat-and-select": "R&S", "composition": "comp.", "filter": "filter"}


def client_for(uri: str) -> MlflowClient:
    return MlflowClient(tracking_uri=uri)


def experiment_id(client: MlflowClient, name: str) -> str:
    found = client.get_experiment_by_name(name)
    return found.experiment_id if found is not None else client.create_experiment(name)


def param_text(value: Any) -> str:
    return json.dumps(value) if isinstance(value, list | dict) else str(value)


def logged_value(text: str) -> Any:
    """A logged parameter back as the value it was (``param_text`` in reverse)."""
    try:
        return json.loads(text)
    except ValueError:
        return {"True": True, "False": False, "None": None}.get(text, text)


def trial_error_reason(trial: Any) -> str:
    """The last line of a failed trial's traceback (e.g. ``TrainingDivergedError: …``)."""
    text = None
    if trial.error_file and Path(trial.error_file).is_file():
        text = Path(trial.error_file).read_text()
    if not text:
        error = trial.get_error()
        text = str(error) if error else ""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else "unknown error"


class MlflowTrialLogger(Callback):
    """Tune callback: one MLflow child run per trial under the sweep's parent run.

    Params: the trial's resolved config (filter coefficients included). Metrics per epoch (step = epoch):
    test accuracy, test loss, ε spent; at the end: the final values, σ, δ, and a status tag
    (``finished``, ``stopped`` by the scheduler, ``infeasible`` filter draw, ``failed`` with a reason).

    Writes are queued during a Tune step and flushed in ``on_step_end``, which Tune calls after the
    step's experiment-state save (``sweep.py`` makes that save happen every step). MLflow therefore
    never records a trial, a result or a status that the saved experiment lacks: after the driver is
    killed, ``Tuner.restore`` knows every trial MLflow shows, so resuming neither duplicates a run nor
    re-runs a finished trial. MLflow may lag the saved state instead (killed between save and flush):
    every result carries the trial's whole epoch history, so missing epochs are backfilled, and at the
    end of an experiment every ended trial whose run is not marked ended yet is settled. The save
    reaches storage asynchronously, so a trial started just before a kill can be unknown to the
    restored experiment, which runs another in its place: its run is marked ``lost`` at the end and
    it still counts in the tuning cost, from the sweep's private write-ahead record of started trials.
    """

    def __init__(self, uri: str, experiment: str, parent_run_id: str, method: str, noise_source: str) -> None:
        self.uri = uri
        self.experiment = experiment
        self.parent_run_id = parent_run_id
        self.method = method
        self.noise_source = noise_source
        self._runs: dict[str, str] = {}
        self._epochs: dict[str, set[int]] = {}  # run id -> epochs already in MLflow
        self._pending: list[Callable[[], None]] = []

    def _client(self) -> MlflowClient:
        return client_for(self.uri)

    def run_id(self, trial: Any) -> str:
        if trial.trial_id in self._runs:
            return self._runs[trial.trial_id]
        client = self._client()
        exp = experiment_id(client, self.experiment)
        existing = client.search_runs(
            [exp],
            filter_string=f"tags.`{TRIAL_TAG}` = '{trial.trial_id}' and "
            f"tags.`mlflow.parentRunId` = '{self.parent_run_id}'",
        )
        if existing:
            run_id = existing[0].info.run_id
        else:
            run = client.create_run(
                exp,
                run_name=f"{self.method}-{trial.trial_id}",
                tags={
                    "mlflow.parentRunId": self.parent_run_id,
                    TRIAL_TAG: trial.trial_id,
                    METHOD_TAG: self.method,
                    STATUS_TAG: "running",
                    NOISE_SOURCE_TAG: self.noise_source,
                },
            )
            run_id = run.info.run_id
            for key, value in sorted(trial.config.items()):
                client.log_param(run_id, key, param_text(value))
        self._runs[trial.trial_id] = run_id
        return run_id

    def on_trial_start(self, iteration: int, trials: list, trial: Any, **info: Any) -> None:
        self._pending.append(lambda: self.run_id(trial))

    def on_trial_result(self, iteration: int, trials: list, trial: Any, result: dict, **info: Any) -> None:
        self._pending.append(lambda: self._log_result(trial, result))

    def on_trial_complete(self, iteration: int, trials: list, trial: Any, **info: Any) -> None:
        self._pending.append(lambda: self._log_completion(trial, dict(trial.last_result or {})))

    def on_trial_error(self, iteration: int, trials: list, trial: Any, **info: Any) -> None:
        self._pending.append(lambda: self._log_error(trial, trial_error_reason(trial)))

    def on_step_end(self, iteration: int, trials: list, **info: Any) -> None:
        self.flush()

    def on_experiment_end(self, trials: list, **info: Any) -> None:
        for trial in trials:
            if trial.status in (Trial.TERMINATED, Trial.ERROR):
                self._pending.append(lambda trial=trial: self._settle(trial))
        self._pending.append(lambda: self._mark_lost({t.trial_id for t in trials}))
        self.flush()

    def _mark_lost(self, known: set[str]) -> None:
        """Runs of this method's trials that the (restored) experiment does not know: marked ``lost``."""
        client = self._client()
        runs = client.search_runs(
            [experiment_id(client, self.experiment)],
            filter_string=f"tags.`mlflow.parentRunId` = '{self.parent_run_id}' and "
            f"tags.`{METHOD_TAG}` = '{self.method}' and tags.`{STATUS_TAG}` != 'lost'",
        )
        for run in runs:
            if run.data.tags.get(TRIAL_TAG) in known:
                continue
            client.set_tag(run.info.run_id, STATUS_TAG, "lost")
            client.set_tag(
                run.info.run_id,
                "dptune.reason",
                "the sweep driver was killed before this trial reached the saved experiment; "
                "another trial ran in its place",
            )
            client.set_terminated(run.info.run_id, RunStatus.to_string(RunStatus.KILLED))

    def flush(self) -> None:
        """Carry out the queued writes, in the order Tune reported the events."""
        pending, self._pending = self._pending, []
        for write in pending:
            write()

    def _settle(self, trial: Any) -> None:
        """Mark an ended trial's run as ended, unless it already is (a resumed sweep's restored trials)."""
        status = self._client().get_run(self.run_id(trial)).data.tags.get(STATUS_TAG)
        if status in ENDED_STATUSES:
            return
        if trial.status == Trial.ERROR:
            self._log_result(trial, dict(trial.last_result or {}))
            self._log_error(trial, trial_error_reason(trial))
        else:
            self._log_completion(trial, dict(trial.last_result or {}))

    def _log_result(self, trial: Any, result: dict) -> None:
        """Log every epoch of ``result["history"]`` that MLflow does not have yet (step = epoch)."""
        client, run_id = self._client(), self.run_id(trial)
        if run_id not in self._epochs:
            self._epochs[run_id] = {m.step for m in client.get_metric_history(run_id, CHILD_METRICS[0])}
        logged = self._epochs[run_id]
        for entry in result.get("history", []):
            if entry["epoch"] in logged:
                continue
            for name in CHILD_METRICS:
                if math.isfinite(entry[name]):
                    client.log_metric(run_id, name, float(entry[name]), step=entry["epoch"])
            logged.add(entry["epoch"])

    def _log_completion(self, trial: Any, result: dict) -> None:
        self._log_result(trial, result)
        client, run_id = self._client(), self.run_id(trial)
        if result.get("infeasible"):
            status = "infeasible"
            client.set_tag(run_id, "dptune.reason", str(result.get("reason", "")))
        else:
            status = "finished" if result.get("epoch", 0) >= result.get("epochs_target", 0) else "stopped"
        for name in ("noise_multiplier", "delta", "steps", "epoch", "epsilon_target"):
            if name in result:
                client.log_metric(run_id, name, float(result[name]))
        if "node_id" in result:
            client.set_tag(run_id, "dptune.node", result["node_id"])
        client.set_tag(run_id, STATUS_TAG, status)
        client.set_terminated(run_id, RunStatus.to_string(RunStatus.FINISHED))

    def _log_error(self, trial: Any, reason: str) -> None:
        client, run_id = self._client(), self.run_id(trial)
        client.set_tag(run_id, STATUS_TAG, "failed")
        client.set_tag(run_id, "dptune.reason", reason[:4000])
        client.set_terminated(run_id, RunStatus.to_string(RunStatus.FAILED))


@dataclass(frozen=True)
class TradeOff:
    """The best finished trial of one method at one privacy target, from MLflow."""

    method: str
    epsilon_target: float
    epsilon_spent: float
    delta: float
    test_accuracy: float
    sweep: str
    run_id: str
    params: dict[str, str]
    epsilon_including_tuning: float | None = None  # the method's whole search in its sweep
    tuning_bound: str | None = None  # repeat-and-select or composition
    epsilon_all_trials: float | None = None  # releasing every trial of the search (None: private)
    noise_source: str = "secure"  # or "seeded" (research mode: the seeds are logged)

    def as_dict(self) -> dict[str, Any]:
        return {
            "noise_source": self.noise_source,
            "method": self.method,
            "epsilon_target": self.epsilon_target,
            "epsilon_spent": self.epsilon_spent,
            "epsilon_including_tuning": self.epsilon_including_tuning,
            "tuning_bound": self.tuning_bound,
            "epsilon_all_trials": self.epsilon_all_trials,
            "delta": self.delta,
            "test_accuracy": self.test_accuracy,
            "sweep": self.sweep,
            "run_id": self.run_id,
            "params": self.params,
        }


def finished_trials(client: MlflowClient, experiment: str, parent_run_id: str | None = None) -> list:
    """Finished child runs of an experiment (of one sweep if ``parent_run_id`` is given)."""
    found = client.get_experiment_by_name(experiment)
    if found is None:
        return []
    query = f"tags.`{METHOD_TAG}` != ''"
    if parent_run_id:
        query += f" and tags.`mlflow.parentRunId` = '{parent_run_id}'"
    runs = client.search_runs([found.experiment_id], filter_string=query, max_results=50000)
    return [run for run in runs if run.data.tags.get(STATUS_TAG) in ("finished", "stopped")]


def best_tradeoffs(client: MlflowClient, experiment: str, parent_run_id: str | None = None) -> list[TradeOff]:
    """Per (method, ε target): the finished trial with the highest final test accuracy."""
    parents: dict[str, Any] = {}
    best: dict[tuple[str, float], TradeOff] = {}
    for run in finished_trials(client, experiment, parent_run_id):
        metrics, tags = run.data.metrics, run.data.tags
        if "test_accuracy" not in metrics or "epsilon_spent" not in metrics:
            continue
        parent_id = tags.get("mlflow.parentRunId", "")
        if parent_id not in parents:
            parents[parent_id] = client.get_run(parent_id).data if parent_id else None
        parent = parents[parent_id]
        target = (
            float(parent.params.get("epsilon", metrics.get("epsilon_target", math.nan)))
            if parent
            else math.nan
        )
        method = tags.get(METHOD_TAG, "?")
        candidate = TradeOff(
            method=method,
            epsilon_target=target,
            epsilon_spent=metrics["epsilon_spent"],
            delta=metrics.get("delta", math.nan),
            test_accuracy=metrics["test_accuracy"],
            sweep=parent.tags.get(SWEEP_TAG, "") if parent else "",
            run_id=run.info.run_id,
            params=dict(run.data.params),
            epsilon_including_tuning=parent.metrics.get(f"{TUNING_METRIC}.{method}") if parent else None,
            tuning_bound=parent.tags.get(f"{TUNING_BOUND_TAG}.{method}") if parent else None,
            epsilon_all_trials=parent.metrics.get(f"{ALL_TRIALS_METRIC}.{method}") if parent else None,
            noise_source=tags.get(NOISE_SOURCE_TAG, "seeded"),  # runs from before the tag: a shared seed
        )
        key = (candidate.method, candidate.epsilon_target)
        if key not in best or candidate.test_accuracy > best[key].test_accuracy:
            best[key] = candidate
    return sorted(best.values(), key=lambda t: (t.epsilon_target, -t.test_accuracy))


def pareto_front(points: list[TradeOff]) -> list[TradeOff]:
    """Points not dominated in (lower ε spent, higher accuracy), by increasing ε."""
    front: list[TradeOff] = []
    for point in sorted(points, key=lambda p: (p.epsilon_spent, -p.test_accuracy)):
        if not front or point.test_accuracy > front[-1].test_accuracy:
            front.append(point)
    return front


SEARCH_PARAMS = (
    "lr",
    "clip",
    "batch_size",
    "epochs",
    "k",
    "beta",
    "filter",
    "a",
    "b",
    "momentum",
    "outer_momentum",
    "alpha",
    "memory",
    "lam",
    "tau",
    "gamma",
    "kappa",
    "zeta",
    "beta2",
)


def significant(value: Any) -> str:
    """A setting for display: floats (also inside lists) to 4 significant digits."""
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, list):
        return "[" + ", ".join(significant(v) for v in value) + "]"
    return str(value)


def _short(text: str) -> str:
    """A logged parameter with numbers shown to 4 significant digits."""
    try:
        return significant(json.loads(text))
    except ValueError:
        return text


def format_table(rows: list[TradeOff]) -> str:
    """A plain-text table of best trade-offs; ε w/ tuning is the whole search's (bound: R&S or comp.)."""
    header = (
        f"{'method':<15} {'ε target':>8} {'ε spent':>8} {'ε w/ tuning':>15} {'δ':>8} "
        f"{'accuracy':>9} {'noise':>7}  settings"
    )
    lines = [header, "-" * len(header)]
    for row in rows:
        settings = ", ".join(f"{k}={_short(row.params[k])}" for k in SEARCH_PARAMS if k in row.params)
        tuning = (
            f"{row.epsilon_including_tuning:.3f} ({BOUND_ABBREVIATIONS.get(row.tuning_bound or '', '?')})"
            if row.epsilon_including_tuning is not None
            else "–"
        )
        lines.append(
            f"{row.method:<15} {row.epsilon_target:>8g} {row.epsilon_spent:>8.4f} {tuning:>15} "
            f"{row.delta:>8.1e} {100 * row.test_accuracy:>8.2f}% {row.noise_source:>7}  {settings}"
        )
    return "\n".join(lines)


def plot_tradeoffs(rows: list[TradeOff], path: Path) -> None:
    """Accuracy vs ε spent: one line per method (its best run at each ε target), Pareto front marked."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for method in sorted({r.method for r in rows}):
        points = sorted((r for r in rows if r.method == method), key=lambda r: r.epsilon_spent)
        ax.plot(
            [p.epsilon_spent for p in points],
            [100 * p.test_accuracy for p in points],
            marker="o",
            label=method,
        )
    front = pareto_front(rows)
    ax.step(
        [p.epsilon_spent for p in front],
        [100 * p.test_accuracy for p in front],
        where="post",
        color="black",
        linestyle="--",
        linewidth=1,
        label="Pareto front",
    )
    ax.set_xlabel("ε spent")
    ax.set_ylabel("test accuracy (%)")
    ax.set_title("Best privacy-utility trade-offs")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def log_sweep_summary(client: MlflowClient, experiment: str, parent_run_id: str) -> list[TradeOff]:
    """Attach the sweep's best configuration per method and the experiment-wide Pareto plot."""
    sweep_best = best_tradeoffs(client, experiment, parent_run_id)
    all_best = best_tradeoffs(client, experiment)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "best_configurations.txt").write_text(format_table(sweep_best) + "\n")
        (folder / "best_configurations.json").write_text(
            json.dumps([r.as_dict() for r in sweep_best], indent=2)
        )
        (folder / "pareto_front.json").write_text(
            json.dumps([r.as_dict() for r in pareto_front(all_best)], indent=2)
        )
        if all_best:
            plot_tradeoffs(all_best, folder / "pareto_accuracy_vs_epsilon.png")
        for file in folder.iterdir():
            client.log_artifact(parent_run_id, str(file))
    for row in sweep_best:
        client.log_metric(parent_run_id, f"best_accuracy.{row.method}", row.test_accuracy)
    return sweep_best


def log_tuning_cost(client: MlflowClient, parent_run_id: str, cost: dict[str, Any]) -> None:
    """The privacy cost of the sweep's search on its parent run (metrics, bound tags, JSON artifact).

    ``cost`` is the public record: a figure that would reveal a secret trial count is absent from it.
    """
    figures = ("epsilon_including_tuning", "epsilon_all_trials", "epsilon_used", "total_epsilon")
    for name in figures:
        if name in cost:
            client.log_metric(parent_run_id, name, cost[name])
    for row in cost["methods"]:
        for name in figures:
            if name in row:
                client.log_metric(parent_run_id, f"{name}.{row['method']}", row[name])
        client.set_tag(parent_run_id, f"{TUNING_BOUND_TAG}.{row['method']}", row["tuning_bound"])
        client.set_tag(parent_run_id, f"dptune.tuning_note.{row['method']}", row["note"][:4000])
    with tempfile.TemporaryDirectory() as tmp:
        file = Path(tmp) / "tuning_cost.json"
        file.write_text(json.dumps(cost, indent=2))
        client.log_artifact(parent_run_id, str(file))


def start_parent_run(
    client: MlflowClient,
    experiment: str,
    name: str,
    tags: dict[str, str],
    params: dict[str, Any],
    spec_text: str,
) -> str:
    run = client.create_run(experiment_id(client, experiment), run_name=name, tags={SWEEP_TAG: name, **tags})
    for key, value in params.items():
        client.log_param(run.info.run_id, key, param_text(value))
    with tempfile.TemporaryDirectory() as tmp:
        spec_file = Path(tmp) / "spec.yaml"
        spec_file.write_text(spec_text)
        client.log_artifact(run.info.run_id, str(spec_file))
    return run.info.run_id


def finish_parent_run(client: MlflowClient, run_id: str) -> None:
    client.set_terminated(run_id, RunStatus.to_string(RunStatus.FINISHED))
