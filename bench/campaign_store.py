"""What the evidence campaigns record beside the product's sweeps, in the same MLflow store: fixed-
configuration runs (one seed of a reproduction, tagged with its protocol and run key, recorded once per
key) and a campaign's summary run holding its plots and tables. ``dptune report`` reads the protocol
runs back (``MlflowTracker.protocol_cells``); only the campaigns in ``bench/`` write them.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from mlflow.entities import RunStatus

from dptune.tracking import MlflowTracker, names
from dptune.tracking.mlflow_store import param_text


def run_by_key(tracker: MlflowTracker, experiment_id: str, key: str) -> str | None:
    """The run recorded under ``key`` in the experiment, if any."""
    found = tracker.client.search_runs([experiment_id], filter_string=f"tags.`{names.RUN_KEY_TAG}` = '{key}'")
    return found[0].info.run_id if found else None


def log_final_run(tracker: MlflowTracker, experiment: str, key: str, summary: Mapping[str, Any]) -> str:
    """Record a finished fixed-configuration run (``Trainer.summary()`` with its protocol, method, ε target,
    sampling, accountant and settings), once per ``key``; returns its run id."""
    exp = tracker.experiment_id(experiment)
    known = run_by_key(tracker, exp, key)
    if known is not None:
        return known
    client = tracker.client
    tags = {
        names.RUN_KEY_TAG: key,
        names.PROTOCOL_TAG: summary["protocol"],
        names.METHOD_TAG: summary["method"],
        names.STATUS_TAG: names.FINAL_STATUS,
        names.EPSILON_TARGET_TAG: f"{summary['epsilon_target']:g}",
        names.NOISE_SOURCE_TAG: summary.get("noise_source", "seeded"),  # older records were seeded
        "sampling": summary["sampling"],
        "accountant": summary["accountant"],
    }
    if summary.get("seed") is not None:
        tags[names.SEED_TAG] = str(summary["seed"])
    run_id: str = client.create_run(exp, run_name=key, tags=tags).info.run_id
    for name in names.FINAL_RUN_METRICS:
        client.log_metric(run_id, name, float(summary[name]))
    for name, value in sorted(summary["settings"].items()):
        client.log_param(run_id, name, param_text(value))
    client.set_terminated(run_id, RunStatus.to_string(RunStatus.FINISHED))
    return run_id


def log_protocol_summary(tracker: MlflowTracker, experiment: str, key: str, files: list[Path]) -> str:
    """A campaign's summary run (once per ``key``) with ``files`` (plots, tables) as its artifacts."""
    exp = tracker.experiment_id(experiment)
    run_id = run_by_key(tracker, exp, key)
    if run_id is None:
        tags = {names.RUN_KEY_TAG: key, names.STATUS_TAG: names.SUMMARY_STATUS}
        run_id = tracker.client.create_run(exp, run_name=key, tags=tags).info.run_id
        tracker.client.set_terminated(run_id, RunStatus.to_string(RunStatus.FINISHED))
    for file in files:
        tracker.client.log_artifact(run_id, str(file))
    return run_id


def sweep_metrics(tracker: MlflowTracker, sweep_id: str) -> dict[str, float]:
    """The figures recorded on a sweep's parent run (its privacy figures, best accuracy per method)."""
    return dict(tracker.client.get_run(sweep_id).data.metrics)
