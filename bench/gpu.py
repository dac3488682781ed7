"""GPU benchmark (issue 14, point 4): step cost against a non-private step and Opacus 1.6, and the
throughput of trials sharing a GPU.

1. **Step cost.** For cnn5 on Fashion-MNIST (the real images where present, else random ones of the same
   shape) and WideResNet-16-4 on random CIFAR-sized input (3×32×32, 10 classes), the time of one step on a
   fixed batch: a non-private SGD step (forward, backward, update), every dptune method's full step
   (``Trainer.step``: per-sample signal, clipping, noise, post-processing, update; its per-sample engine
   the one ``auto`` picks, and dpsgd's also on the ``vmap`` engine, which any model can use), and Opacus
   1.6's DP-SGD step in its two modes, per-sample gradients by hooks (``grad_sample_mode="hooks"``) and ghost
   clipping (``"ghost"``), on the same model, batch and device. Rounds interleave everything so the
   machine's noise hits all alike; a ratio is the median over rounds of (time / non-private time in the
   same round). Goals: dpsgd ≤ 1.3× non-private and faster than Opacus's best mode.
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
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch
import torch.nn.functional as F
import yaml
from mlflow.tracking import MlflowClient
from results import cpu_name, write_section  # bench/ is on the path when this file runs as a script

from dptune.base.errors import DataUnavailableError
from dptune.engine.data import Dataset, load_dataset
from dptune.methods import METHODS
from dptune.tracking import names
from dptune.training.config import RunConfig
from dptune.training.train import Trainer
from dptune.training.trial_status import TrialStatus

ROOT = Path(__file__).resolve().parents[1]
JSON = ROOT / "bench" / "gpu.json"
SECTION = "## GPU: step cost against Opacus, and trials sharing a GPU"
PARAMS = {"dp-pmlf": {"k": "2"}, "innerouter": {"k": "2"}}
SHARES = (1.0, 0.5, 0.25)


def timed(step: Callable[[], Any], steps: int, device: torch.device) -> float:
    """Seconds per call of ``step`` after one warm-up call, the device synchronised around the timing."""
    step()
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    start = time.perf_counter()
    for _ in range(steps):
        step()
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    return (time.perf_counter() - start) / steps


def synthetic(channels: int, size: int, n: int) -> Dataset:
    """Random images and labels of a shape (timing only: their values do not change the work)."""
    generator = torch.Generator().manual_seed(0)
    x = torch.randn(n, channels, size, size, generator=generator)
    y = torch.randint(0, 10, (n,), generator=generator)
    return Dataset.held_out("synthetic", (x, y), (x[:200], y[:200]), 10)


def workloads(quick: bool) -> dict[str, tuple[str, Dataset, int]]:
    """name -> (model, data, batch size)."""
    try:
        fmnist, images = load_dataset("fashion-mnist", subset=4096 if quick else None), "Fashion-MNIST"
    except DataUnavailableError:
        fmnist, images = synthetic(1, 28, 4096), "random 1×28×28 (Fashion-MNIST's shape)"
    cifar_sized = synthetic(3, 32, 512 if quick else 4096)
    return {
        f"cnn5, {images}": ("cnn5", fmnist, 256 if quick else 1024),
        "wrn16-4, 3×32×32": ("wrn16-4", cifar_sized, 32 if quick else 256),
    }


def opacus_step(
    model_name: str, data: Dataset, batch: torch.Tensor, mode: str, device: torch.device
) -> Callable:
    """One Opacus 1.6 DP-SGD step (σ = 1, C = 1) on the fixed batch, ``mode`` hooks or ghost."""
    from opacus import PrivacyEngine

    from dptune.models import build_model

    model = build_model(model_name, {}, data.train_x[:2], data.num_classes).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = torch.utils.data.DataLoader(
        torch.utils.data.TensorDataset(data.train_x, data.train_y), batch_size=len(batch)
    )
    criterion = torch.nn.CrossEntropyLoss()
    made = PrivacyEngine().make_private(
        module=model,
        optimizer=optimizer,
        data_loader=loader,
        criterion=criterion,
        noise_multiplier=1.0,
        max_grad_norm=1.0,
        grad_sample_mode=mode,
    )
    model, optimizer = made[0], made[1]
    loss_fn = made[2] if mode == "ghost" else criterion
    x, y = data.train_x[batch].to(device), data.train_y[batch].to(device)

    def step() -> None:
        optimizer.zero_grad(set_to_none=True)
        loss_fn(model(x), y).backward()
        optimizer.step()

    return step


def workload_cost(
    model_name: str, data: Dataset, batch_size: int, args: argparse.Namespace, device: torch.device
) -> dict[str, Any]:
    """Step times of one model on one batch (module docstring, 1)."""
    batch = torch.arange(batch_size)
    runs = [(m, "auto") for m in (["dpsgd"] if args.quick else METHODS)] + [("dpsgd", "vmap")]
    trainers = {
        f"{method} (vmap engine)" if engine == "vmap" else method: Trainer(
            RunConfig(
                method=method,
                epsilon=1.0,
                model=model_name,
                epochs=10,
                batch_size=batch_size,
                params=PARAMS.get(method, {}),
                device=str(device),
                seed=0,
                engine=engine,
            ),
            data,
        )
        for method, engine in runs
    }
    model = trainers["dpsgd"].flat.model
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = data.train_x[batch].to(device), data.train_y[batch].to(device)

    def nonprivate() -> None:
        optimizer.zero_grad(set_to_none=True)
        F.cross_entropy(model(x), y).backward()
        optimizer.step()

    steps: dict[str, Callable] = {f"dptune {m}": (lambda t=t: t.step(batch)) for m, t in trainers.items()}
    for mode in ("hooks", "ghost"):
        steps[f"Opacus 1.6 ({mode})"] = opacus_step(model_name, data, batch, mode, device)
    ratios: dict[str, list[float]] = {name: [] for name in steps}
    base: list[float] = []
    for _ in range(args.rounds):
        base.append(timed(nonprivate, args.steps, device))
        for name, step in steps.items():
            ratios[name].append(timed(step, args.steps, device) / base[-1])
    return {
        "batch_size": batch_size,
        "physical_batch_size": trainers["dpsgd"].engine.physical_batch_size,
        "nonprivate_ms": 1e3 * statistics.median(base),
        "ratio_to_nonprivate": {name: statistics.median(r) for name, r in ratios.items()},
    }


def finished_trials(tracking_uri: str, experiment: str) -> list[tuple[float, float]]:
    """(start, end) in seconds of every trial of ``experiment`` that finished (its MLflow run's status)."""
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
        ratios = row["ratio_to_nonprivate"]
        dpsgd = ratios["dptune dpsgd"]
        opacus = min(ratio for name, ratio in ratios.items() if name.startswith("Opacus"))
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
    lines = [SECTION, "", f"`{result['command']}`, {result['date']}, {result['machine']}.", ""]
    for workload in result["workloads"]:
        row = result["step_cost"].get(workload)
        if row is None:
            lines += [f"**{workload}**: not measured (the run stopped first).", ""]
            continue
        lines += [
            f"**{workload}**, batch {row['batch_size']} (physical {row['physical_batch_size']}), non-private "
            f"step {row['nonprivate_ms']:.1f} ms (scale only):",
            "",
            "| step | × non-private |",
            "|---|---|",
            *(f"| {name} | {ratio:.2f}× |" for name, ratio in row["ratio_to_nonprivate"].items()),
            "",
        ]
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
    parser.add_argument("--only", choices=("step_cost", "throughput"), help="measure one part alone")
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
        merged = parts[0] | {
            "command": " and ".join(dict.fromkeys(part["command"] for part in parts)),
            "step_cost": {k: v for part in parts for k, v in part["step_cost"].items()},
            "throughput": {k: v for part in parts for k, v in part["throughput"].items()},
        }
        publish(merged)
        return
    device = torch.device(args.device)
    if device.type == "cuda" and not torch.cuda.is_available():
        sys.exit("no CUDA GPU here: run on a GPU machine, or --device cpu --quick to check the script")
    if args.write and (device.type != "cuda" or args.quick):
        sys.exit("--write publishes GPU figures: run the full benchmark on a CUDA device")
    name = torch.cuda.get_device_name(device) if device.type == "cuda" else cpu_name()
    loads = workloads(args.quick)
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
        for workload, (model, data, batch) in loads.items():
            result["step_cost"][workload] = workload_cost(model, data, batch, args, device)
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
