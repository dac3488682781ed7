"""Benchmark: MLflow on PostgreSQL under a sweep of 16 trials at once, as ``cluster.yaml`` sets up the
head's store (an ``mlflow server`` on a PostgreSQL database), on this machine.

A sweep of 16 short trials (digits / mlp, dpsgd, ``--epochs`` each, all 16 at once) records to a real
``mlflow server`` on a throwaway PostgreSQL cluster (``tests/mlflow_server.py``). The trials run on a local
Ray that declares 16 CPUs (``cpu: 1`` each), or with ``--cluster`` on the rehearsal cluster
(``cluster_local.py``: cluster-local.yaml's GPU workers of 2 CPUs and 1 declared GPU, scaling from zero to
the ``trials / 4`` that hold them at ``cpu: 0.5, gpu: 0.25``; the driver joins it as ``dptune run`` does).
Measured: the requests the server answered and their rate over the sweep's wall time, the most trial
writes the driver's tracker held queued at once (``MlflowTracker.queue_peak``), the nodes the trials ran
on, and what reached the store: every trial's run and the selection's released re-run finished, with one
value per epoch of each epoch metric, and the released model registered (nothing lost). ``--write`` keeps
each place's figures in ``bench/tracking_load.json`` and its table in RESULTS.md.

    python bench/tracking_load.py [--trials 16] [--epochs 10] [--cluster] [--write]
"""

from __future__ import annotations

import argparse
import contextlib
import datetime as dt
import json
import math
import os
import platform
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import ray
import yaml
from mlflow.tracking import MlflowClient
from results import cpu_name, write_section  # bench/ is on the path when this file runs as a script

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
import cluster_local  # noqa: E402
from dptune.sweep.spec import load_spec  # noqa: E402
from dptune.tracking import tracker_for  # noqa: E402
from dptune.tune.driver import run_sweep  # noqa: E402
from tests.mlflow_server import MlflowServer, postgres_cluster, postgres_unavailable  # noqa: E402

TITLE = "## Tracking under load: 16 trials at once on MLflow with PostgreSQL"
EPOCH_METRIC = "validation_accuracy"
RECORD = ROOT / "bench" / "tracking_load.json"
LOCAL_RESOURCES = {"cpu": 1, "gpu": 0}
CLUSTER_RESOURCES = {"cpu": 0.5, "gpu": 0.25, "gpu_fallback": "cpu", "wait": 300}
TRIALS_PER_WORKER = 4  # a rehearsal worker's 2 CPUs and 1 GPU at CLUSTER_RESOURCES


@contextlib.contextmanager
def rehearsal(workers: int, folder: Path) -> Iterator[None]:
    """The rehearsal cluster (cluster-local.yaml, up to ``workers`` GPU workers), named by ``RAY_ADDRESS``
    so that the sweep joins it as ``dptune run`` does (and waits for its nodes); stopped
    (``cluster_local.down``) on the way out."""
    doc = yaml.safe_load(cluster_local.CONFIG.read_text())
    doc["max_workers"] = doc["available_node_types"]["ray.worker.gpu"]["max_workers"] = workers
    config = folder / "cluster-local.yaml"
    config.write_text(yaml.safe_dump(doc))
    state_file = folder / "cluster-local.json"
    state = cluster_local.up(config, state_file)
    os.environ |= {"RAY_ADDRESS": state["address"], "RAY_AUTH_MODE": "disabled"}
    try:
        yield
    finally:
        ray.shutdown()
        os.environ.pop("RAY_ADDRESS")
        cluster_local.down(state_file)


def spec_text(name: str, uri: str, folder: Path, trials: int, epochs: int, resources: dict[str, Any]) -> str:
    return yaml.safe_dump(
        {
            "name": name,
            "dataset": {"name": "digits"},
            "model": {"name": "mlp"},
            "privacy": {"epsilon": 2.0, "delta": 1.0e-4},
            "training": {"epochs": epochs, "batch_size": 128, "lr": 1.0},
            "budget": {"trials_per_method": trials, "max_concurrent": trials},
            "resources": resources,
            "search": {"sampler": "random"},
            "selection": {"reruns": 1},  # the selection's re-run is released and registered
            "tracking": {"uri": uri, "experiment": name},
            "storage_path": str(folder / "ray_results"),
            "methods": {"dpsgd": {"lr": {"loguniform": [0.3, 2.0]}}},
        }
    )


@contextlib.contextmanager
def local_ray(trials: int) -> Iterator[None]:
    """A local Ray declaring a CPU for each trial, shut down on the way out."""
    ray.init(num_cpus=trials, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()


def measure(trials: int, epochs: int, cluster: bool) -> dict[str, Any]:
    """One sweep of ``trials`` at once against MLflow on PostgreSQL: its figures, and what reached the
    store."""
    folder = Path(tempfile.mkdtemp(prefix="dptune-load-"))
    with postgres_cluster() as backend, MlflowServer(backend, folder / "server") as server:
        path = folder / "load.yaml"
        resources = CLUSTER_RESOURCES if cluster else LOCAL_RESOURCES
        path.write_text(spec_text("load", server.url, folder, trials, epochs, resources))
        nodes = rehearsal(math.ceil(trials / TRIALS_PER_WORKER), folder) if cluster else local_ray(trials)
        with nodes:
            before = len(server.requests())
            started = time.time()
            run_sweep(load_spec(path), path.read_text(), echo=lambda line: None)
            wall = time.time() - started
            requests = len(server.requests()) - before
            peak = tracker_for(server.url).queue_peak  # type: ignore[attr-defined]
        client = MlflowClient(server.url)
        experiment = client.get_experiment_by_name("load")
        assert experiment is not None
        children = [
            r
            for r in client.search_runs([experiment.experiment_id], max_results=1000)
            if r.data.tags.get("mlflow.parentRunId")
        ]
        return {
            "date": dt.date.today().isoformat(),
            "machine": f"{os.cpu_count()} cores, {cpu_name()}, Python {platform.python_version()}",
            "command": f"python bench/tracking_load.py --trials {trials} --epochs {epochs}"
            + (" --cluster" if cluster else "")
            + " --write",
            "trials": trials,
            "epochs": epochs,
            "wall_seconds": round(wall, 1),
            "requests": requests,
            "requests_per_second": round(requests / wall, 2),
            "queue_peak": peak,
            "nodes": len({r.data.tags.get("dptune.node") for r in children}),
            "runs": len(children),
            "finished": sum(r.info.status == "FINISHED" for r in children),
            "models": len(client.search_model_versions("name='load.dpsgd'")),
            "epochs_recorded": sorted(
                {len(client.get_metric_history(r.info.run_id, EPOCH_METRIC)) for r in children}
            ),
        }


def lost(result: dict[str, Any]) -> bool:
    """Whether a run, an epoch's metric or the model did not reach the store."""
    runs = result["trials"] + 1  # the trials and the released re-run
    return (
        result["runs"] != runs
        or result["finished"] != runs
        or result["epochs_recorded"] != [result["epochs"]]
        or result["models"] != 1
    )


WHERE = {
    "local": "a local Ray declaring a CPU for each trial (`cpu: 1`)",
    "cluster": "the rehearsal cluster (`cluster_local.py`, cluster-local.yaml's GPU workers of 2 CPUs and 1 "
    "declared GPU scaling from zero, `cpu: 0.5, gpu: 0.25, gpu_fallback: cpu`, the driver joined to it)",
}


def section(record: dict[str, dict[str, Any]]) -> str:
    """RESULTS.md's section: a row for each place the sweep ran (``record``, by ``WHERE``'s keys)."""
    lines = [
        TITLE,
        "",
        "A sweep of short trials at once (digits / mlp, dpsgd) recording to an `mlflow server` on a "
        "throwaway PostgreSQL cluster, as `cluster.yaml` sets up the head's store; its trials on "
        + "; or on ".join(WHERE[where] for where in record)
        + ".",
        "",
        "| where | date | machine | trials at once | epochs each | nodes that ran trials | wall s | "
        "requests to the server | requests / s | queue peak (trial writes) | runs finished | values of "
        "each epoch metric | models registered | command |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for where, r in record.items():
        lines.append(
            f"| {where} | {r['date']} | {r['machine']} | {r['trials']} | {r['epochs']} | {r['nodes']} | "
            f"{r['wall_seconds']} | {r['requests']} | {r['requests_per_second']} | {r['queue_peak']} | "
            f"{r['finished']} of {r['runs']} | {', '.join(map(str, r['epochs_recorded']))} | "
            f"{r['models']} of 1 | `{r['command']}` |"
        )
    failed = [where for where, r in record.items() if lost(r)]
    lines += ["", f"SOME WRITES WERE LOST: {', '.join(failed)}." if failed else "Nothing was lost."]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=16)
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--cluster", action="store_true", help="on the rehearsal cluster (cluster_local.py)")
    parser.add_argument("--write", action="store_true", help="write bench/RESULTS.md and RECORD")
    args = parser.parse_args()
    if (why := postgres_unavailable()) is not None:
        raise SystemExit(f"tracking_load: {why}")
    result = measure(args.trials, args.epochs, args.cluster)
    print(json.dumps(result))
    if args.write:
        record = json.loads(RECORD.read_text()) if RECORD.exists() else {}
        record["cluster" if args.cluster else "local"] = result
        RECORD.write_text(json.dumps(record, indent=1) + "\n")
        write_section(ROOT / "bench" / "RESULTS.md", TITLE, section(record))
    if lost(result):
        raise SystemExit("tracking_load: a run, an epoch's metrics or the model did not reach the store")


if __name__ == "__main__":
    main()
