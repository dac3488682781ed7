"""Benchmark: a DP step against a non-private step, every method on cnn5, wrn16-4 and resnet18, Opacus beside.

For cnn5 on Fashion-MNIST (random images of its shape where the data is absent), WideResNet-16-4 and
ResNet-18 (GroupNorm) on random CIFAR-sized input (3×32×32, 10 classes), the time and the peak memory of
one step on a fixed batch: a non-private SGD step (forward, backward, update; the ratios' base), the same
with the model in channels-last memory format (``NONPRIVATE_CHANNELS_LAST``), every dptune method's full
step (``Trainer.step``: per-sample signal, clipping, noise, post-processing, update; its per-sample engine
the one ``auto`` picks, and dpsgd's also on the ``vmap`` engine, which any model can use), and Opacus's
DP-SGD step in its two modes, per-sample gradients by hooks (``grad_sample_mode="hooks"``) and ghost
clipping (``"ghost"``), on the same model, batch and device. dp-pmlf and innerouter run with k = 2.

Every step is called once first (warm-up); then rounds interleave everything, and a ratio is (the step's
fastest round / the non-private step's fastest round): on a shared machine load only adds time, so the
fastest round is the least disturbed. On a CPU shared with other jobs, ``--threads 1`` keeps torch's
threads from waiting on each other (two threads on two busy cores can take several times one's time).
Peak memory is what one step holds at its peak above what was held before it: on CUDA the allocator's
peak; on a CPU the resident set's high-water mark, reset through ``/proc/self/clear_refs`` after freed
memory is handed back to the system (``malloc_trim``).

    python bench/step_cost.py [--device cpu] [--threads N] [--rounds 3] [--steps 2] [--batch wrn16-4=8 ...]
                              [--note TEXT]

``bench/gpu.py`` runs the same measurement on CUDA, with the GPU's batch sizes.
"""

from __future__ import annotations

import argparse
import copy
import ctypes
import datetime as dt
import os
import platform
import time
import types
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import torch
import torch.nn.functional as F
from results import cpu_name, write_section  # bench/ is on the path when this file runs as a script

from dptune.base.errors import DataUnavailableError
from dptune.engine.data import load_dataset
from dptune.engine.dataset import Dataset
from dptune.methods import METHODS
from dptune.models import build_model
from dptune.training.config import RunConfig
from dptune.training.train import Trainer

SECTION = "## Step cost: DP step / non-private step, every method (cnn5, wrn16-4, resnet18; CPU)"
PARAMS = {"dp-pmlf": {"k": "2"}, "innerouter": {"k": "2"}}
BATCH = {
    "cpu": {"cnn5": 1000, "wrn16-4": 8, "resnet18": 8},
    "cuda": {"cnn5": 1024, "wrn16-4": 256, "resnet18": 256},
}
"""Batch sizes by device: cnn5's is the one its earlier CPU figures used; the CIFAR-sized models' on a
CPU are small, so that the whole benchmark takes minutes there."""
NONPRIVATE_CHANNELS_LAST = "non-private, channels-last"
"""The non-private step with the model's convolution weights in channels-last memory format: on a CPU its
activations then stay channels-last, where max pooling runs several times faster (cnn5's step about
twice); the ghost engine's forward pass goes on in that format after each convolution on a CPU."""
CPU_GOAL = 1.25
"""Goal on a CPU: dpsgd's step on cnn5 at most this many non-private steps."""


@dataclass(frozen=True)
class Workload:
    model: str
    data: Dataset
    batch_size: int


def synthetic(channels: int, size: int, n: int) -> Dataset:
    """Random images and labels of a shape (timing only: their values do not change the work)."""
    generator = torch.Generator().manual_seed(0)
    x = torch.randn(n, channels, size, size, generator=generator)
    y = torch.randint(0, 10, (n,), generator=generator)
    return Dataset.held_out("synthetic", (x, y), (x[:200], y[:200]), 10)


def workloads(batch: dict[str, int], quick: bool) -> dict[str, Workload]:
    """name -> workload, at the given batch size per model."""
    try:
        fmnist, images = load_dataset("fashion-mnist", subset=4096 if quick else None), "Fashion-MNIST"
    except DataUnavailableError:
        fmnist, images = synthetic(1, 28, 4096), "random 1×28×28 (Fashion-MNIST's shape)"
    cifar_sized = synthetic(3, 32, max(512, 4 * max(batch["wrn16-4"], batch["resnet18"])))
    return {
        f"cnn5, {images}": Workload("cnn5", fmnist, batch["cnn5"]),
        "wrn16-4, 3×32×32": Workload("wrn16-4", cifar_sized, batch["wrn16-4"]),
        "resnet18 (GroupNorm), 3×32×32": Workload("resnet18", cifar_sized, batch["resnet18"]),
    }


def timed(step: Callable[[], Any], steps: int, device: torch.device) -> float:
    """Seconds per call of ``step``, the device synchronised around the timing."""
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    start = time.perf_counter()
    for _ in range(steps):
        step()
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    return (time.perf_counter() - start) / steps


def _status_mib(key: str) -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(key):
            return int(line.split()[1]) / 1024
    raise KeyError(key)


def peak_mib(step: Callable[[], Any], device: torch.device) -> float | None:
    """MiB one call of ``step`` holds at its peak above what was held before it (module docstring);
    None on a CPU whose system does not let the peak be reset."""
    if device.type == "cuda":
        torch.cuda.synchronize(device)
        torch.cuda.reset_peak_memory_stats(device)
        allocated = torch.cuda.memory_allocated(device)
        step()
        torch.cuda.synchronize(device)
        return (torch.cuda.max_memory_allocated(device) - allocated) / 2**20
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
        Path("/proc/self/clear_refs").write_text("5")
    except OSError:
        return None
    before = _status_mib("VmRSS:")
    step()
    return _status_mib("VmHWM:") - before


def _out_of_place(model: torch.nn.Module) -> torch.nn.Module:
    """``model`` with its in-place operations made out of place, as Opacus's backward hooks need:
    ``ReLU(inplace=True)`` and torchvision's residual ``out += identity`` (the same values)."""
    from torchvision.models.resnet import BasicBlock

    def block_forward(block: BasicBlock, x: torch.Tensor) -> torch.Tensor:
        identity = x if block.downsample is None else block.downsample(x)
        out = block.relu(block.bn1(block.conv1(x)))
        return block.relu(block.bn2(block.conv2(out)) + identity)

    for module in model.modules():
        if isinstance(module, torch.nn.ReLU):
            module.inplace = False
        if isinstance(module, BasicBlock):
            module.forward = types.MethodType(block_forward, module)
    return model


def opacus_step(workload: Workload, mode: str, device: torch.device) -> Callable[[], None]:
    """One Opacus DP-SGD step (σ = 1, C = 1) on the fixed batch, ``mode`` hooks or ghost."""
    from opacus import PrivacyEngine

    data = workload.data
    model = _out_of_place(build_model(workload.model, {}, data.train_x[:2], data.num_classes)).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loader = torch.utils.data.DataLoader(
        torch.utils.data.TensorDataset(data.train_x, data.train_y), batch_size=workload.batch_size
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
    x = data.train_x[: workload.batch_size].to(device)
    y = data.train_y[: workload.batch_size].to(device)

    def step() -> None:
        optimizer.zero_grad(set_to_none=True)
        loss_fn(model(x), y).backward()
        optimizer.step()

    return step


def sgd_step(model: torch.nn.Module, x: torch.Tensor, y: torch.Tensor) -> Callable[[], None]:
    """A non-private SGD step of ``model`` on (x, y): forward, backward, update."""
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)

    def step() -> None:
        optimizer.zero_grad(set_to_none=True)
        F.cross_entropy(model(x), y).backward()
        optimizer.step()

    return step


def workload_cost(
    workload: Workload, methods: list[str], rounds: int, steps: int, device: torch.device
) -> dict[str, Any]:
    """Step times and peak memory of one model on one batch (module docstring)."""
    import opacus

    batch = torch.arange(workload.batch_size)
    runs = [(m, "auto") for m in methods] + [("dpsgd", "vmap")]
    trainers = {
        f"{method} (vmap engine)" if engine == "vmap" else method: Trainer(
            RunConfig(
                method=method,
                epsilon=1.0,
                model=workload.model,
                epochs=10,
                batch_size=workload.batch_size,
                params=PARAMS.get(method, {}),
                device=str(device),
                seed=0,
                engine=engine,
            ),
            workload.data,
        )
        for method, engine in runs
    }
    model = trainers["dpsgd"].flat.model
    x, y = workload.data.train_x[batch].to(device), workload.data.train_y[batch].to(device)
    called: dict[str, Callable[[], Any]] = {
        "non-private": sgd_step(model, x, y),
        NONPRIVATE_CHANNELS_LAST: sgd_step(copy.deepcopy(model).to(memory_format=torch.channels_last), x, y),
    }
    called |= {f"dptune {m}": partial(t.step, batch) for m, t in trainers.items()}
    called |= {
        f"Opacus {opacus.__version__} ({m})": opacus_step(workload, m, device) for m in ("hooks", "ghost")
    }
    for step in called.values():
        step()
    times: dict[str, list[float]] = {name: [] for name in called}
    for _ in range(rounds):
        for name, step in called.items():
            times[name].append(timed(step, steps, device))
    fastest = {name: min(t) for name, t in times.items()}
    return {
        "batch_size": workload.batch_size,
        "physical_batch_size": trainers["dpsgd"].engine.physical_batch_size,
        "nonprivate_ms": 1e3 * fastest["non-private"],
        "ratio_to_nonprivate": {
            name: t / fastest["non-private"] for name, t in fastest.items() if name != "non-private"
        },
        "peak_mib": {name: peak_mib(step, device) for name, step in called.items()},
    }


def _mib(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.0f}"


def table(step_cost: dict[str, dict[str, Any]]) -> list[str]:
    """One table, the workloads side by side: each step's time as a multiple of the non-private step's
    and its peak memory; the last row Opacus's best mode."""
    names = list(step_cost)
    rows = list(dict.fromkeys(name for row in step_cost.values() for name in row["ratio_to_nonprivate"]))
    lines = [
        "| step | " + " | ".join(f"{name}: × non-private | peak MiB" for name in names) + " |",
        "|---|" + "---|---|" * len(names),
        "| non-private | "
        + " | ".join(
            f"1.00× ({row['nonprivate_ms']:.1f} ms) | {_mib(row.get('peak_mib', {}).get('non-private'))}"
            for row in step_cost.values()
        )
        + " |",
    ]
    for step in rows:
        cells = [
            f"{row['ratio_to_nonprivate'][step]:.2f}× | {_mib(row.get('peak_mib', {}).get(step))}"
            if step in row["ratio_to_nonprivate"]
            else "not measured | "
            for row in step_cost.values()
        ]
        lines.append(f"| {step} | " + " | ".join(cells) + " |")
    best = [opacus_best(row) for row in step_cost.values()]
    lines.append("| Opacus's best mode | " + " | ".join(f"{b:.2f}× | " for b in best) + " |")
    return lines


def opacus_best(row: dict[str, Any]) -> float:
    """The lower of Opacus's two modes, × non-private."""
    return min(ratio for name, ratio in row["ratio_to_nonprivate"].items() if name.startswith("Opacus"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", default="cpu")
    parser.add_argument("--threads", type=int, help="torch's CPU threads (default: torch's own choice)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--steps", type=int, default=2, help="timed steps per round")
    parser.add_argument(
        "--batch", action="append", default=[], help="MODEL=N: a batch size other than the default"
    )
    parser.add_argument(
        "--quick", action="store_true", help="small sizes, dpsgd alone: check the script runs"
    )
    parser.add_argument("--note", help="a line about the conditions, written under the table")
    parser.add_argument("--out", default=str(Path(__file__).with_name("RESULTS.md")))
    args = parser.parse_args()
    if args.threads:
        torch.set_num_threads(args.threads)
    device = torch.device(args.device)
    batch = BATCH[device.type] | {m: int(n) for m, n in (b.split("=", 1) for b in args.batch)}
    if args.quick:
        batch = {m: min(n, 64 if m == "cnn5" else 4) for m, n in batch.items()}
    methods = ["dpsgd"] if args.quick else list(METHODS)
    results = {
        name: workload_cost(w, methods, args.rounds, args.steps, device)
        for name, w in workloads(batch, args.quick).items()
    }
    cnn5 = next(row for name, row in results.items() if name.startswith("cnn5"))
    dpsgd = cnn5["ratio_to_nonprivate"]["dptune dpsgd"]
    machine = cpu_name() if device.type == "cpu" else torch.cuda.get_device_name(device)
    lines = [
        SECTION,
        "",
        f"- date: {dt.date.today().isoformat()}",
        f"- machine: {machine}, {os.cpu_count()} cores, {torch.get_num_threads()} torch thread(s), "
        f"torch {torch.__version__}, "
        f"Python {platform.python_version()}",
        f"- `python bench/step_cost.py{f' --threads {args.threads}' if args.threads else ''} --rounds "
        f"{args.rounds} --steps {args.steps}`: batch "
        + ", ".join(f"{row['batch_size']} ({name.split(',')[0]})" for name, row in results.items())
        + f"; physical batch {cnn5['physical_batch_size']}; every step called once, then {args.rounds} "
        f"rounds × {args.steps} steps; ratio = (the step's fastest round / the non-private step's fastest "
        "round); peak MiB = one step's peak resident memory above what was resident before it",
        *([f"- {args.note}"] if args.note else []),
        "",
        *table(results),
        "",
        f"- goal on a CPU: dpsgd on cnn5 ≤ {CPU_GOAL}× non-private: {dpsgd:.2f}× "
        f"({'met' if dpsgd <= CPU_GOAL else 'not met'}); against the channels-last non-private step "
        f"{dpsgd / cnn5['ratio_to_nonprivate'][NONPRIVATE_CHANNELS_LAST]:.2f}×",
        *(
            f"- {name}: dpsgd {row['ratio_to_nonprivate']['dptune dpsgd']:.2f}×, Opacus's best mode "
            f"{opacus_best(row):.2f}×"
            for name, row in results.items()
        ),
    ]
    text = "\n".join(lines) + "\n"
    print(text)
    if not args.quick and device.type == "cpu":
        write_section(Path(args.out), SECTION, text)


if __name__ == "__main__":
    main()
