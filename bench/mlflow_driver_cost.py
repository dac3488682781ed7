"""Benchmark: the sweep driver's time in MLflow per reported epoch, before and after the queued writes.

What Ray Tune's control loop waits for when a trial reports an epoch is the recorder's
``on_trial_result`` and ``on_step_end`` (where it writes, after Tune's experiment-state save). Both
recorders are fed the same trials on real Tune ``Trial`` objects against a real ``mlflow server`` on
loopback (SQLite backend): *before*, the synchronous recorder and tracker of commit ``BEFORE`` (about 3
requests per epoch, ~25 per trial, one value per request, in Tune's loop); *after*, this checkout's (the
callback queues, one writer thread sends at most one ``log_batch`` per run per pass). Per trial: start,
``--epochs`` reports, completion. Rounds alternate the two so that machine noise hits both; figures are
medians over rounds. For reference: the round trip of one small request (``get_experiment``), and, after,
the writer's own time until everything is recorded and the requests the server saw per epoch.
Goal: driver time per reported epoch ≤ one round trip + 5 ms.

    python bench/mlflow_driver_cost.py [--rounds 3] [--trials 4] [--epochs 10] [--out bench/RESULTS.md]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import ray
from mlflow.tracking import MlflowClient
from ray.train._internal.storage import StorageContext
from results import experiment_id, machine, write_section  # bench/ is on the path in a script

from dptune.tracking import MlflowTracker
from dptune.tune.callbacks import TrialRecorder

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # tests/ has the server and Tune's side of a callback
from tests.mlflow_server import MlflowServer  # noqa: E402
from tests.tune_loop import TuneLoop  # noqa: E402

BEFORE = "c952668"
"""The last commit with synchronous MLflow writes in the recorder's callbacks."""
TITLE = "## Driver time in MLflow per reported epoch: synchronous writes vs. the queued writer"


def module_at(commit: str, path: str, name: str) -> ModuleType:
    """``path`` as it was at ``commit``, imported as module ``name``."""
    source = subprocess.run(
        ["git", "show", f"{commit}:{path}"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    file = Path(tempfile.mkdtemp()) / f"{name}.py"
    file.write_text(source)
    spec = importlib.util.spec_from_file_location(name, file)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def round_trip(url: str, samples: int = 50) -> float:
    """Median seconds of one small request (``get_experiment``)."""
    client = MlflowClient(url)
    exp = experiment_id(client, "Default")
    times = []
    for _ in range(samples):
        started = time.perf_counter()
        client.get_experiment(exp)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def feed(recorder: Any, storage: StorageContext, name: str, trials: int, epochs: int) -> dict[str, float]:
    """Run ``trials`` trials of ``epochs`` epochs through ``recorder``; Tune's time in its callbacks."""
    tune = TuneLoop(recorder, storage)
    for index in range(trials):
        trial = tune.trial(f"{name}_{index:05d}", lr=0.1 * (index + 1))
        tune.start(trial)
        for epoch in range(1, epochs + 1):
            tune.report(trial, epoch, epochs)
        tune.complete(trial)
    tune.end()
    reports = tune.times["on_trial_result"]
    return {
        "per_epoch_s": statistics.median(reports),
        "amortized_s": sum(map(sum, tune.times.values())) / len(reports),
    }


def measure(rounds: int, trials: int, epochs: int, folder: Path) -> dict[str, Any]:
    before_store = module_at(BEFORE, "dptune/tracking/mlflow_store.py", "before_mlflow_store")
    before_callbacks = module_at(BEFORE, "dptune/tune/callbacks.py", "before_callbacks")
    storage = StorageContext(storage_path=str(folder / "ray"), experiment_dir_name="bench")
    figures: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
    with MlflowServer(f"sqlite:///{folder / 'mlflow.db'}", folder / "server") as server:
        rtt = [round_trip(server.url)]
        old = before_store.MlflowTracker(server.url)
        new = MlflowTracker(server.url)
        for number in range(rounds):
            sweep = old.start_sweep("bench", f"round{number}", {}, {"epsilon": 1.0}, "name: bench\n")
            recorder = before_callbacks.TrialRecorder(old, "bench", sweep, "dpsgd", "secure")
            figures["before"].append(feed(recorder, storage, f"b{number}", trials, epochs))

            sweep = new.start_sweep("bench", f"round{number}", {}, {"epsilon": 1.0}, "name: bench\n")
            seen = len(server.requests())
            started = time.perf_counter()
            recorder = TrialRecorder(new, "bench", sweep, "dpsgd", "secure", {})
            after = feed(recorder, storage, f"a{number}", trials, epochs)
            assert new.flush(120)
            after["recorded_s"] = time.perf_counter() - started
            after["requests_per_epoch"] = (len(server.requests()) - seen) / (trials * epochs)
            figures["after"].append(after)
            rtt.append(round_trip(server.url))
    return {
        "load": os.getloadavg()[0],
        "rtt_s": statistics.median(rtt),
        **{
            f"{side}.{key}": statistics.median(row[key] for row in rows)
            for side, rows in figures.items()
            for key in rows[0]
        },
    }


def report(result: dict[str, Any], args: argparse.Namespace) -> str:
    ms = {key: 1000 * value for key, value in result.items() if key.endswith("_s")}
    goal = ms["rtt_s"] + 5
    met = "met" if ms["after.amortized_s"] <= goal else "NOT met"
    return "\n".join(
        [
            TITLE,
            "",
            f"- date: 2026-11-23; machine: {machine()}; command: "
            f"`python bench/mlflow_driver_cost.py --rounds {args.rounds} --trials {args.trials} "
            f"--epochs {args.epochs}`",
            f"- a real `mlflow server` on loopback (SQLite backend), {args.trials} trials × {args.epochs} "
            f"epochs per round, {args.rounds} rounds alternating the two (medians); before = commit "
            f"{BEFORE}",
            "",
            "| figure (ms) | before (synchronous) | after (queued) | before / after |",
            "|---|---|---|---|",
            f"| Tune's loop per reported epoch (median report) | {ms['before.per_epoch_s']:.2f} | "
            f"{ms['after.per_epoch_s']:.3f} | {ms['before.per_epoch_s'] / ms['after.per_epoch_s']:.0f}× |",
            f"| Tune's loop per reported epoch, start and end of trials included | "
            f"{ms['before.amortized_s']:.2f} | {ms['after.amortized_s']:.3f} | "
            f"{ms['before.amortized_s'] / ms['after.amortized_s']:.0f}× |",
            f"| one small request's round trip (reference) | {ms['rtt_s']:.2f} | | |",
            "",
            f"Goal (≤ one round trip + 5 ms = {goal:.1f} ms per reported epoch): {met}. After, the writer "
            f"thread recorded a round's {args.trials * args.epochs} epochs and {args.trials} trials in "
            f"{ms['after.recorded_s'] / 1000:.2f} s (median), with "
            f"{result['after.requests_per_epoch']:.2f} requests per reported epoch (all the round's "
            "requests, trials' creation and ends included, over its epochs: reported back to back here, "
            "epochs share passes; in a sweep, where an epoch takes seconds, each gets one `log_batch`). "
            f"Load average during the run: {result['load']:.1f} (a shared machine).",
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--trials", type=int, default=4)
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--out", type=Path, help="write (or replace) this section of a markdown file")
    args = parser.parse_args()
    os.environ.setdefault("MLFLOW_SUPPRESS_PRINTING_URL_TO_STDOUT", "true")  # no "View run" line per trial
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        with tempfile.TemporaryDirectory() as folder:
            result = measure(args.rounds, args.trials, args.epochs, Path(folder))
    finally:
        ray.shutdown()
    text = report(result, args)
    print(text)
    if args.out:
        write_section(args.out, TITLE, text)


if __name__ == "__main__":
    main()
