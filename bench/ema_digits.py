"""The iterate average (``ema``) against the last iterate, on the same runs: sklearn's ``digits`` (not
the Fashion-MNIST of the evidence, so that choosing the average for it looked at none of that data).

Each run (heavy ball: innerouter k = 1, β = 0, momentum 0.9; 40 epochs, expected batch 256, C = 0.1,
E = 4; fresh secret randomness) trains once with ``ema``; its final-test accuracy is scored at the average
it releases and at its last iterate. The average is post-processing, so the two share the trajectory and
the ε, and their difference is paired: mean ± sd over runs.

    python bench/ema_digits.py --runs 5 --write
"""

from __future__ import annotations

import argparse
import statistics
from datetime import date
from pathlib import Path

import torch
from results import cpu_name, write_section  # bench/ is on the path

from dptune.engine.data import load_dataset
from dptune.training.config import RunConfig
from dptune.training.train import Trainer

TITLE = "## Iterate average against the last iterate (digits)"
MODELS = ("mlp", "scatter-linear")
EPSILONS = (1.0, 3.0, 8.0)
EMA = 0.999


def paired(model: str, epsilon: float) -> tuple[float, float]:
    """(final-test accuracy at the average, at the last iterate) of one fresh run."""
    config = RunConfig(
        method="innerouter", epsilon=epsilon, dataset="digits", model=model, epochs=40, batch_size=256,
        effective_lr=4.0, clip=0.1, ema=EMA, params={"k": 1, "beta": 0.0, "outer_momentum": 0.9},
    )  # fmt: skip
    trainer = Trainer(config, load_dataset("digits", None, None, {}))
    trainer.fit()
    averaged = trainer.final_test()[1]
    trainer.average = None  # score the last iterate of the same run
    return 100 * averaged, 100 * trainer.final_test()[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--write", action="store_true", help="write the section of bench/RESULTS.md")
    args = parser.parse_args()
    torch.set_num_threads(1)
    rows = [
        "| model | ε | average % | last iterate % | average − last (mean ± sd) |",
        "|---|---|---|---|---|",
    ]
    for model in MODELS:
        for epsilon in EPSILONS:
            pairs = [paired(model, epsilon) for _ in range(args.runs)]
            gains = [a - b for a, b in pairs]
            mean_avg = statistics.fmean(a for a, _ in pairs)
            mean_last = statistics.fmean(b for _, b in pairs)
            rows.append(
                f"| {model} | {epsilon:g} | {mean_avg:.2f} | {mean_last:.2f} | "
                f"{statistics.fmean(gains):+.2f} ± {statistics.stdev(gains):.2f} |"
            )
            print(rows[-1], flush=True)
    text = "\n".join(
        [
            TITLE,
            "",
            f"`python bench/ema_digits.py --runs {args.runs} --write`, {date.today()}, {cpu_name()}; "
            "digits (1,437 training images; the final-test half of the rest), heavy ball (innerouter k = 1, "
            "β = 0, momentum 0.9), 40 epochs, expected batch 256, C = 0.1, E = 4, δ = 1e-4 (the largest "
            f"power of ten below 1/n), ema {EMA}; {args.runs} runs per row with fresh secret randomness, "
            "each scored at the average it releases and at its last iterate (the same trajectory and ε).",
            "",
            *rows,
        ]
    )
    if args.write:
        write_section(Path(__file__).resolve().parent / "RESULTS.md", TITLE, text + "\n")


if __name__ == "__main__":
    main()
