"""Benchmark: MLflow on PostgreSQL under a sweep of 16 trials at once, as ``cluster.yaml`` sets up the
head's store (an ``mlflow server`` on a PostgreSQL database), on this machine.

A sweep of 16 short trials (digits / mlp, dpsgd, ``--epochs`` each, ``cpu: 1`` on a local Ray that
declares 16 CPUs, all 16 at once) records to a real ``mlflow server`` on a throwaway PostgreSQL cluster
(``tests/mlflow_server.py``). Measured: the requests the server answered and their rate over the sweep's
wall time, the most trial writes the driver's tracker held queued at once (``MlflowTracker.queue_peak``),
and what reached the store: every trial's run and the selection's released re-run finished, with one
value per epoch of each epoch metric, and the released model registered (nothing lost).

    python bench/tracking_load.py [--trials 16] [--epochs 10] [--write]
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

import ray
import yaml
from mlflow.tracking import MlflowClient
from results import cpu_name, write_section  # bench/ is on the path when this file runs as a script

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from dptune.sweep.spec import load_spec  # noqa: E402
from dptune.tracking import tracker_for  # noqa: E402
from dptune.tune.driver import run_sweep  # noqa: E402
from tests.mlflow_server import MlflowServer, postgres_cluster, postgres_unavailable  # noqa: E402

TITLE = "## Tracking under load: 16 trials at once on MLflow with PostgreSQL"
EPOCH_METRIC = "validation_accuracy"


def spec_text(name: str, uri: str, folder: Path, trials: int, epochs: int) -> str:
    return yaml.safe_dump(
        {
            "name": name,
            "dataset": {"name": "digits"},
            "model": {"name": "mlp"},
            "privacy": {"epsilon": 2.0, "delta": 1.0e-4},
            "training": {"epochs": epochs, "batch_size": 128, "lr": 1.0},
            "budget": {"trials_per_method": trials, "max_concurrent": trials},
            "resources": {"cpu": 1, "gpu": 0},
            "search": {"sampler": "random"},
            "selection": {"reruns": 1},  # the selection's re-run is released and registered
            "tracking": {"uri": uri, "experiment": name},
            "storage_path": str(folder / "ray_results"),
            "methods": {"dpsgd": {"lr": {"loguniform": [0.3, 2.0]}}},
        }
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--trials", type=int, default=16)
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--write", action="store_true", help="write bench/RESULTS.md")
    args = parser.parse_args()
    if (why := postgres_unavailable()) is not None:
        raise SystemExit(f"tracking_load: {why}")
    folder = Path(tempfile.mkdtemp(prefix="dptune-load-"))
    with postgres_cluster() as backend, MlflowServer(backend, folder / "server") as server:
        path = folder / "load.yaml"
        path.write_text(spec_text("load", server.url, folder, args.trials, args.epochs))
        ray.init(num_cpus=args.trials, include_dashboard=False, log_to_driver=False)
        before = len(server.requests())
        started = time.time()
        run_sweep(load_spec(path), path.read_text(), echo=lambda line: None)
        wall = time.time() - started
        requests = len(server.requests()) - before
        peak = tracker_for(server.url).queue_peak  # type: ignore[attr-defined]
        ray.shutdown()
        client = MlflowClient(server.url)
        experiment = client.get_experiment_by_name("load")
        assert experiment is not None
        children = [
            r
            for r in client.search_runs([experiment.experiment_id], max_results=1000)
            if r.data.tags.get("mlflow.parentRunId")
        ]
        finished = sum(r.info.status == "FINISHED" for r in children)
        epochs = [len(client.get_metric_history(r.info.run_id, EPOCH_METRIC)) for r in children]
        models = len(client.search_model_versions("name='load.dpsgd'"))
    result = {
        "date": dt.date.today().isoformat(),
        "machine": f"{os.cpu_count()} cores, {cpu_name()}, Python {platform.python_version()}",
        "trials": args.trials,
        "epochs": args.epochs,
        "wall_seconds": round(wall, 1),
        "requests": requests,
        "requests_per_second": round(requests / wall, 2),
        "queue_peak": peak,
        "runs": len(children),
        "finished": finished,
        "models": models,
        "epochs_recorded": sorted(set(epochs)),
    }
    print(json.dumps(result))
    runs = args.trials + 1  # the trials and the released re-run
    lost = len(children) != runs or finished != runs or set(epochs) != {args.epochs} or models != 1
    if args.write:
        text = "\n".join(
            [
                TITLE,
                "",
                f"- date: {result['date']}; machine: {result['machine']}; command: "
                f"`python bench/tracking_load.py --trials {args.trials} --epochs {args.epochs} --write`",
                f"- a sweep of {args.trials} short trials at once (digits / mlp, dpsgd, `cpu: 1` on a "
                f"local Ray declaring {args.trials} CPUs) recording to an `mlflow server` on a throwaway "
                "PostgreSQL cluster, as `cluster.yaml` sets up the head's store",
                "",
                "| trials at once | epochs each | wall s | requests to the server | requests / s | "
                "queue peak (trial writes) | runs finished | values of each epoch metric | "
                "models registered |",
                "|---|---|---|---|---|---|---|---|---|",
                f"| {args.trials} | {args.epochs} | {result['wall_seconds']} | {requests} | "
                f"{result['requests_per_second']} | {peak} | {finished} of {len(children)} | "
                f"{', '.join(map(str, result['epochs_recorded']))} | {models} of 1 |",
                "",
                "Nothing was lost." if not lost else "SOME WRITES WERE LOST: see the figures above.",
            ]
        )
        write_section(ROOT / "bench" / "RESULTS.md", TITLE, text)
    if lost:
        raise SystemExit("tracking_load: a run, an epoch's metrics or the model did not reach the store")


if __name__ == "__main__":
    main()
