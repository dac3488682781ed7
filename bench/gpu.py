"""GPU benchmark (issue 14, point 4): step cost against a non-private step and Opacus 1.6, and the
throughput of trials sharing a GPU.

1. **Step cost.** ``bench/step_cost.py``'s measurement on CUDA, at the GPU's batch sizes: for cnn5 on
   Fashion-MNIST (the real images where present, else random ones of the same shape), WideResNet-16-4 and
   ResNet-18 (GroupNorm) on random CIFAR-sized input (3×32×32, 10 classes), the time and peak memory of
   one step on a fixed batch: a non-private SGD step, every dptune method's full step (``Trainer.step``;
   its per-sample engine the one ``auto`` picks, and dpsgd's also on the ``vmap`` engine), and Opacus
   1.6's DP-SGD step by hooks and by ghost clipping, on the same model, batch and device, side by side in
   one table. A ratio is (the step's fastest of interleaved rounds / the non-private step's fastest);
   peak memory is the allocator's peak during one step above what was allocated before it.
   Goals: dpsgd ≤ 1.3× non-private and faster than Opacus's best mode.
2. **Trial throughput.** The same sweep (``dpsgd``, cnn5 on the whole of Fashion-MNIST, 10 epochs:
   about 1,200 steps a trial, so that a trial's start-up does not dominate; ``--trials`` trials, no early
   stopping, no re-runs) at ``gpu: 1``, ``0.5`` and ``0.25`` per trial: finished trials per hour, counted
   from the trials' own records (only those whose status is ``finished``, over the span from the first
   one's start to the last one's end, so Ray's start-up and a crashed trial count for nothing), and
   each against ``gpu: 1``. Goal: 4 trials per GPU give ≥ 2.5× the throughput of 1.

    python bench/gpu.py --write                 (on a machine with a CUDA GPU; writes RESULTS.md)
    python bench/gpu.py --device cpu --quick    (a smoke test of the script on a CPU: no figures)

On a lent GPU machine whose checkout does not come back, ``--json FILE`` saves the result there after each
measurement (so a run stopped part-way keeps what it measured), ``--only PART`` measures one of the two
parts (a lease too short for both, or a transfer too small for the packages and the data together), and
``--publish FILE …`` on any machine writes bench/gpu.json and RESULTS.md from such files, merged (CUDA
results only; a part not measured is said so).
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import platform
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch
import yaml
from results import cpu_name, write_section  # bench/ is on the path when this file runs as a script
from step_cost import BATCH, opacus_best, table, workload_cost, workloads

from dptune.methods import METHODS
from dptune.training.trial_status import TrialStatus

ROOT = Path(__file__).resolve().parents[1]
JSON = ROOT / "bench" / "gpu.json"
SECTION = "## GPU: step cost against Opacus, and trials sharing a GPU"
SHARES = (1.0, 0.5, 0.25)
PARTS = {"step_cost": "step cost", "throughput": "trial throughput"}
"""The benchmark's two parts, by their key in a result, with their names in the section."""


def run_of(result: dict[str, Any]) -> str:
    """Which command measured a result and when (a part published from an earlier run keeps its own)."""
    return f"`{result['command']}`, {result['date']}"


def finished_trials(tracking_uri: str, experiment: str) -> list[tuple[float, float]]:
    """(start, end) in seconds of every trial of ``experiment`` that finished (its MLflow run's status)."""
    from mlflow.tracking import MlflowClient  # only the throughput part needs MLflow (and Ray)

    from dptune.tracking import names

    client = MlflowClient(tracking_uri)
    found = client.get_experiment_by_name(experiment)
    runs = client.search_runs([found.experiment_id], max_results=10000) if found else []
    return [
        (run.info.start_time / 1000, run.info.end_time / 1000)
        for run in runs
        if run.data.tags.get(names.STATUS_TAG) == TrialStatus.FINISHED and run.info.end_time
    ]


def throughput(args: argparse.Namespace, rates: dict[str, Any], save: Callable[[], None]) -> None:
    """Finished trials per hour of their own span at each GPU share per trial (module docstring), into
    ``rates`` share by share, ``save`` called after each."""
    root = {"root": str(args.data_root.resolve())} if args.data_root else {}
    for share in SHARES:
        folder = Path(tempfile.mkdtemp(prefix=f"dptune-gpu-{share:g}-"))
        uri = f"sqlite:///{folder / 'mlflow.db'}"
        spec = {
            "name": f"gpu-{share:g}",
            "dataset": {"name": "fashion-mnist", "subset": 10000 if args.quick else None} | root,
            "model": {"name": "cnn5"},
            "privacy": {"epsilon": 3.0, "delta": 1e-5},
            "training": {"epochs": 1 if args.quick else 10, "batch_size": 500, "lr": 1.0},
            "budget": {"trials_per_method": args.trials},
            "resources": {"cpu": 1, "gpu": share, "gpu_fallback": "fail" if not args.quick else "cpu"},
            "scheduler": {"name": "none"},
            "search": {"sampler": "random", "seed": 0},
            "selection": {"reruns": 0},
            "tracking": {"uri": uri, "experiment": "gpu"},
            "storage_path": str(folder / "ray_results"),
            "methods": {"dpsgd": {"lr": {"loguniform": [0.3, 3.0]}}},
        }
        path = folder / "spec.yaml"
        path.write_text(yaml.safe_dump(spec, sort_keys=False))
        command = [sys.executable, "-m", "dptune.cli", "run", str(path)]
        run = subprocess.run(command, cwd=folder, check=False, stdout=subprocess.DEVNULL)
        if run.returncode != 0:
            raise SystemExit(f"gpu.py: the gpu: {share:g} sweep exited {run.returncode} (its error is above)")
        spans = finished_trials(uri, "gpu")
        seconds = max(end for _, end in spans) - min(start for start, _ in spans) if spans else 0.0
        rates[f"gpu: {share:g}"] = {
            "trials": args.trials,
            "finished": len(spans),
            "span_seconds": seconds,
            "per_hour": 3600 * len(spans) / seconds if seconds > 0 else 0.0,
        }
        one = rates["gpu: 1"]["per_hour"]
        for rate in rates.values():
            rate["vs_gpu_1"] = rate["per_hour"] / one if one > 0 else 0.0
        save()


def shown_arguments(argv: list[str]) -> list[str]:
    """The command's arguments without ``--json FILE`` (where a lent machine saved its result)."""
    shown: list[str] = []
    skip = False
    for word in argv:
        if not skip and word != "--json" and not word.startswith("--json="):
            shown.append(word)
        skip = word == "--json"
    return shown


def met(goal: bool) -> str:
    return "met" if goal else "not met"


def verdicts(result: dict[str, Any]) -> list[str]:
    """The goals (module docstring), each checked against the figures: met or not, by how much."""
    lines = []
    for workload, row in result["step_cost"].items():
        dpsgd, opacus = row["ratio_to_nonprivate"]["dptune dpsgd"], opacus_best(row)
        lines.append(
            f"- {workload}: dpsgd {dpsgd:.2f}× non-private (≤ 1.3×: {met(dpsgd <= 1.3)}); Opacus's best mode "
            f"{opacus:.2f}× (dpsgd below it: {met(dpsgd < opacus)})."
        )
    quarter = result["throughput"].get("gpu: 0.25")
    if quarter is not None and "gpu: 1" in result["throughput"]:
        x = quarter["vs_gpu_1"]
        lines.append(
            f"- trials at gpu: 0.25 give {x:.2f}× the throughput of gpu: 1 (≥ 2.5×: {met(x >= 2.5)})."
        )
    return lines


def section(result: dict[str, Any]) -> str:
    runs = result.get("runs") or {kind: run_of(result) for kind in PARTS}
    lines = [SECTION, "", f"{result['machine']}.", ""]
    lines += [f"- {PARTS[kind]}: {run}" for kind, run in runs.items()] + [""]
    measured = {w: result["step_cost"][w] for w in result["workloads"] if w in result["step_cost"]}
    missing = [w for w in result["workloads"] if w not in measured]
    if measured:
        lines += [
            "Batch (physical batch): "
            + "; ".join(f"{w}: {r['batch_size']} ({r['physical_batch_size']})" for w, r in measured.items())
            + ".",
            "",
            *table(measured),
            "",
        ]
    lines += [f"**{w}**: not measured (the run stopped first)." for w in missing] + ([""] if missing else [])
    lines += [
        "| trials' GPU share | trials | finished | their span s | finished/hour | × gpu: 1 |",
        "|---|---|---|---|---|---|",
    ]
    for share in (f"gpu: {share:g}" for share in SHARES):
        rate = result["throughput"].get(share)
        if rate is None:
            lines.append(f"| {share} | not measured (the run stopped first) | | | | |")
            continue
        lines.append(
            f"| {share} | {rate['trials']} | {rate['finished']} | {rate['span_seconds']:.0f} | "
            f"{rate['per_hour']:.1f} | {rate['vs_gpu_1']:.2f}× |"
        )
    lines += ["", "Goals: dpsgd ≤ 1.3× non-private and below Opacus's best mode; gpu: 0.25 ≥ 2.5× gpu: 1."]
    lines += [""]
    lines += verdicts(result)
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="cuda", help="cuda (the benchmark) or cpu (a smoke test)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--trials", type=int, default=8, help="trials of the throughput sweep")
    parser.add_argument("--data-root", type=Path, help="Fashion-MNIST's IDX files (default: the system's)")
    parser.add_argument("--quick", action="store_true", help="small sizes, one method: check the script runs")
    parser.add_argument("--write", action="store_true", help="write bench/gpu.json and RESULTS.md")
    parser.add_argument("--json", type=Path, help="save the result in this file after each measurement")
    parser.add_argument("--only", choices=tuple(PARTS), help="measure one part alone")
    parser.add_argument(
        "--publish",
        type=Path,
        nargs="+",
        help="write gpu.json and RESULTS.md from --json files (merged)",
    )
    args = parser.parse_args()
    if args.publish:
        parts = [json.loads(path.read_text()) for path in args.publish]
        if len({part["machine"] for part in parts}) > 1:
            sys.exit("--publish merges parts measured on one machine (card, torch, Python); these differ")
        merged = parts[-1] | {
            "step_cost": {k: v for part in parts for k, v in part["step_cost"].items()},
            "throughput": {k: v for part in parts for k, v in part["throughput"].items()},
            "runs": {kind: run_of(part) for part in parts for kind in PARTS if part[kind]},
        }
        publish(merged)
        return
    device = torch.device(args.device)
    if device.type == "cuda" and not torch.cuda.is_available():
        sys.exit("no CUDA GPU here: run on a GPU machine, or --device cpu --quick to check the script")
    if args.write and (device.type != "cuda" or args.quick):
        sys.exit("--write publishes GPU figures: run the full benchmark on a CUDA device")
    name = torch.cuda.get_device_name(device) if device.type == "cuda" else cpu_name()
    loads = workloads(
        {m: min(n, 64 if m == "cnn5" else 8) for m, n in BATCH["cuda"].items()}
        if args.quick
        else BATCH["cuda"],
        args.quick,
    )
    result: dict[str, Any] = {
        "date": dt.date.today().isoformat(),
        "machine": f"{name}, torch {torch.__version__}, Python {platform.python_version()}",
        "device": device.type,
        "quick": args.quick,
        "command": " ".join(["python bench/gpu.py", *shown_arguments(sys.argv[1:])]),
        "workloads": list(loads),
        "step_cost": {},
        "throughput": {},
    }

    def save() -> None:
        if args.json:
            args.json.write_text(json.dumps(result, indent=1) + "\n")

    if args.only != "throughput":
        methods = ["dpsgd"] if args.quick else list(METHODS)
        for name, workload in loads.items():
            result["step_cost"][name] = workload_cost(workload, methods, args.rounds, args.steps, device)
            save()
    if args.only != "step_cost":
        throughput(args, result["throughput"], save)
    print(section(result))
    if args.write:
        publish(result)


def publish(result: dict[str, Any]) -> None:
    """bench/gpu.json and the RESULTS.md section from a full benchmark's result on a CUDA device."""
    if result.get("device") != "cuda" or result.get("quick", True):
        sys.exit("only a full benchmark on a CUDA device is published (this result is a smoke test)")
    JSON.write_text(json.dumps(result, indent=1) + "\n")
    write_section(ROOT / "bench" / "RESULTS.md", SECTION, section(result))


if __name__ == "__main__":
    main()
