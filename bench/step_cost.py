"""Benchmark: time per optimizer step of each DP method relative to a non-private step.

Fashion-MNIST, cnn5, batch 1000, CPU. The DP step is the method's full step (per-sample signal,
clipping, noise, post-processing, update) on a fixed batch of B samples, so every method does the same
work per sample as a non-private SGD step (forward, backward, update) on the same batch. Rounds
interleave the methods so machine noise hits all of them alike; the ratio is the median over rounds of
(method time / non-private time in the same round).

    python bench/step_cost.py [--rounds 5] [--steps 10] [--out bench/RESULTS.md]
"""

from __future__ import annotations

import argparse
import datetime as dt
import platform
import statistics
import time
from pathlib import Path

import torch
import torch.nn.functional as F
from results import cpu_name, write_section  # bench/ is on the path when this file runs as a script

from dptune.engine.data import load_dataset
from dptune.methods import METHODS
from dptune.training.config import RunConfig
from dptune.training.train import Trainer

PARAMS = {"dp-pmlf": {"k": "2"}, "innerouter": {"k": "2"}}


def time_steps(step, steps: int) -> float:
    step()  # warm-up
    start = time.perf_counter()
    for _ in range(steps):
        step()
    return (time.perf_counter() - start) / steps


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--batch-size", type=int, default=1000)
    parser.add_argument("--physical-batch-size", type=int, default=1000)
    parser.add_argument("--out", default=str(Path(__file__).with_name("RESULTS.md")))
    args = parser.parse_args()

    data = load_dataset("fashion-mnist")
    batch = torch.arange(args.batch_size)

    def trainer(method: str, engine: str = "auto") -> Trainer:
        config = RunConfig(
            method=method,
            epsilon=1.0,
            epochs=10,
            batch_size=args.batch_size,
            params=PARAMS.get(method, {}),
            physical_batch_size=args.physical_batch_size,
            engine=engine,
        )
        return Trainer(config, data)

    trainers = {name: trainer(name) for name in METHODS}
    trainers["dpsgd (vmap engine)"] = trainer("dpsgd", engine="vmap")
    model = trainers["dpsgd"].flat.model
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    x, y = data.train_x[batch], data.train_y[batch]

    def nonprivate_step() -> None:
        optimizer.zero_grad(set_to_none=True)
        F.cross_entropy(model(x), y).backward()
        optimizer.step()

    def dp_step(trainer: Trainer):
        return lambda: trainer.step(batch)

    ratios: dict[str, list[float]] = {name: [] for name in trainers}
    base_times: list[float] = []
    for _ in range(args.rounds):
        base = time_steps(nonprivate_step, args.steps)
        base_times.append(base)
        for name, trainer in trainers.items():
            ratios[name].append(time_steps(dp_step(trainer), args.steps) / base)

    median = {name: statistics.median(r) for name, r in ratios.items()}
    lines = [
        "## Step cost: DP step / non-private step (Fashion-MNIST, cnn5, CPU)",
        "",
        f"- date: {dt.date.today().isoformat()}",
        f"- machine: {cpu_name()}, {torch.get_num_threads()} torch threads, "
        f"torch {torch.__version__}, Python {platform.python_version()}",
        f"- batch {args.batch_size}, physical batch {args.physical_batch_size}, {args.rounds} rounds "
        f"× {args.steps} steps after a warm-up; ratio = median over rounds of "
        "(method step time / non-private step time in the same round)",
        f"- non-private step (for scale only): median {statistics.median(base_times) * 1e3:.1f} ms",
        "",
        "| method | ratio to non-private | ratio to dpsgd | goal |",
        "|---|---|---|---|",
    ]
    goals = {"dpsgd": "≤ 1.5× non-private", "dp-pmlf": "≤ 2.2× dpsgd (k = 2)"}
    for name, value in median.items():
        rel = statistics.median(a / b for a, b in zip(ratios[name], ratios["dpsgd"], strict=True))
        lines.append(f"| {name} | {value:.2f}× | {rel:.2f}× | {goals.get(name, '')} |")
    text = "\n".join(lines) + "\n"
    print(text)
    write_section(Path(args.out), lines[0], text)


if __name__ == "__main__":
    main()
