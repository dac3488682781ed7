"""ScatterNet baselines on Fashion-MNIST at ε = 1, 3, 8 from the sweep alone (issue 14, point 2).

Runs ``dptune run sweeps/fmnist-scatter.yaml`` (local Ray, MLflow SQLite, fresh OS randomness) in a new
folder, then reads its best trade-offs with ``dptune report --json``: per (method, ε) the selected
configuration's final-test accuracy over its 3 re-runs with fresh randomness (never the selected trial
itself), the validation accuracy that selected it, and ε including tuning (every released run counted,
each ε's sweep adding the previous one's figure through the warm start). Beside them, Tramèr & Boneh's
published figures for the same models (ICLR 2021, ε = 3, δ = 1e-5).

    python bench/scatter_fmnist.py --write          (about 50 minutes on 2 cores; writes RESULTS.md)
    python bench/scatter_fmnist.py --long --write   (then ε = 3 with longer runs, warm-started from the
                                                     first run's ε = 3 sweep in the same --storage)
"""

from __future__ import annotations

import argparse
import dataclasses
import datetime as dt
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import yaml
from results import cpu_name, write_section  # bench/ is on the path when this file runs as a script

from dptune.tracking.report import significant

ROOT = Path(__file__).resolve().parents[1]


@dataclasses.dataclass(frozen=True)
class Variant:
    """One benchmarked spec: where its results go, and whether it continues an earlier sweep (same
    storage) instead of starting in a new folder."""

    spec: Path
    experiment: str
    json: Path
    section: str
    command: str
    continues: bool
    intro: str


FIRST = Variant(
    ROOT / "sweeps" / "fmnist-scatter.yaml",
    "fmnist-scatter",
    ROOT / "bench" / "fmnist_scatter.json",
    "## ScatterNet baselines on Fashion-MNIST (sweep alone)",
    "python bench/scatter_fmnist.py --write",
    False,
    "`sweeps/fmnist-scatter.yaml`: ScatterNet + linear, {trials} configurations per method and ε (TPE, "
    "each ε warm-started from the previous ε's released configurations)",
)
LONG = Variant(
    ROOT / "sweeps" / "fmnist-scatter-long.yaml",
    "fmnist-scatter-long",
    ROOT / "bench" / "fmnist_scatter_long.json",
    "## ScatterNet + linear at ε = 3 with longer runs (sweep alone)",
    "python bench/scatter_fmnist.py --long --write",
    True,
    "`sweeps/fmnist-scatter-long.yaml`: ScatterNet + linear at ε = 3, {trials} configurations of 40 to 80 "
    "epochs (TPE), warm-started from the configuration the first sweep released at ε = 3",
)
PUBLISHED = "Tramèr & Boneh (ICLR 2021), ε = 3: ScatterNet + linear 89.7%, ScatterNet + CNN 89.0%, cnn5 86.0%"


def dptune_process(
    *args: str, cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """``dptune ARGS`` in ``cwd``, a process of its own with this interpreter (and ``env``, if given), its
    output captured and its exit status left to the caller."""
    return subprocess.run(
        [sys.executable, "-m", "dptune.cli", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        env=env,
    )


def dptune(*args: str, cwd: Path, log: Path | None = None, env: dict[str, str] | None = None) -> str:
    """``dptune ARGS`` in ``cwd`` (``dptune_process``); its stdout (also kept in ``log``), or the campaign
    exits where it failed."""
    done = dptune_process(*args, cwd=cwd, env=env)
    if log is not None:
        log.write_text(done.stdout + done.stderr)
    if done.returncode != 0:
        sys.exit(failure(done))
    return done.stdout


def failure(done: subprocess.CompletedProcess[str]) -> str:
    """The line a campaign exits with where ``dptune`` failed: its command, exit status and last words."""
    return f"dptune {' '.join(done.args[3:])} failed ({done.returncode}): {done.stderr.strip()[-500:]}"


def knobs(params: dict[str, Any]) -> dict[str, Any]:
    """What ``dptune train`` needs to repeat a run beside the method, the data and (ε, δ): the base run's
    ``lr`` dropped where ``effective_lr`` sets the step."""
    dropped = {"dataset", "method", "epsilon", "delta", "accountant", "sampling"}
    if "effective_lr" in params:
        dropped.add("lr")
    return {k: v for k, v in params.items() if k not in dropped}


def summary(report: dict[str, Any]) -> list[dict[str, Any]]:
    """One row per (method, ε target): the selected configuration and what its re-runs scored."""
    rows = []
    for row in report["best_tradeoffs"]:
        params = row["params"]
        rows.append(
            {
                "method": row["method"],
                "epsilon": row["epsilon_target"],
                "final_test_mean": 100 * row["test_accuracy"],
                "final_test_sd": 100 * (row["test_accuracy_sd"] or 0.0),
                "accuracies": [100 * a for a in row["test_accuracies"]],
                "validation_accuracy": 100 * row["validation_accuracy"],
                "epsilon_including_tuning": row["epsilon_including_tuning"],
                "delta": row["delta"],
                "delta_including_tuning": row["delta_including_tuning"],
                "model": params["model"],
                "params": knobs(params),
            }
        )
    return sorted(rows, key=lambda r: (r["epsilon"], r["method"]))


def section(variant: Variant, result: dict[str, Any]) -> str:
    lines = [
        variant.section,
        "",
        f"`{result['command']}`, {result['date']}, {result['machine']}; "
        + variant.intro.format(trials=result["trials_per_method"])
        + ", the selected one re-run 3× with fresh randomness and scored on the final-test half. "
        f"Wall time {result['wall_seconds'] / 60:.0f} min.",
        "",
        "ε incl. tuning (δ): the method's search and re-runs at that ε, plus the whole earlier sweeps it "
        "was warm-started from (every released run counted; their δ add up too, each run's own δ is 1e-5).",
        "",
        "| ε | method | final test % (3 re-runs) | validation % | ε incl. tuning (δ) | settings |",
        "|---|---|---|---|---|---|",
    ]
    for row in result["rows"]:
        p = row["params"]
        settings = ", ".join(
            f"{k}={significant(v)}"
            for k, v in p.items()
            if k
            in ("epochs", "batch_size", "lr", "effective_lr", "clip", "outer_momentum", "filter", "a", "b")
        )
        lines.append(
            f"| {row['epsilon']:g} | {row['method']} | **{row['final_test_mean']:.2f}** ± "
            f"{row['final_test_sd']:.2f} | {row['validation_accuracy']:.2f} | "
            f"{row['epsilon_including_tuning']:.2f} ({row['delta_including_tuning']:.0e}) | {settings} |"
        )
    lines += ["", f"Published: {PUBLISHED}."]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--storage", type=Path, default=Path("/tmp/dptune-fmnist-scatter"))
    parser.add_argument("--write", action="store_true", help="write the variant's JSON and RESULTS.md")
    parser.add_argument(
        "--long", action="store_true", help=f"run {LONG.spec.name} in the first run's --storage"
    )
    parser.add_argument(
        "--summarize-only",
        action="store_true",
        help="run nothing: rewrite RESULTS.md from bench/fmnist_scatter.json",
    )
    args = parser.parse_args()
    variant = LONG if args.long else FIRST
    if args.summarize_only:
        result = json.loads(variant.json.read_text())
        for row in result["rows"]:
            row["params"] = knobs(row["params"])
        variant.json.write_text(json.dumps(result, indent=1) + "\n")
        write_section(ROOT / "bench" / "RESULTS.md", variant.section, section(variant, result))
        return
    storage = args.storage.resolve()
    if variant.continues and not storage.is_dir():
        sys.exit(f"--storage {storage} does not exist: run `{FIRST.command}` there first")
    if not variant.continues:
        if storage.exists():
            sys.exit(f"--storage {storage} exists: give a new folder (the sweep is created there)")
        storage.mkdir(parents=True)
    uri = f"sqlite:///{storage / 'mlflow.db'}"
    started = time.time()
    run = ("run", str(variant.spec), "--tracking-uri", uri, "--storage-path", str(storage / "ray_results"))
    dptune(*run, cwd=storage, log=storage / f"{variant.experiment}.log")
    wall = time.time() - started
    report = json.loads(
        dptune("report", "--json", "--experiment", variant.experiment, "--tracking-uri", uri, cwd=storage)
    )
    result = {
        "date": dt.date.today().isoformat(),
        "machine": f"{cpu_name()}, {os.cpu_count()} cores, {platform.system()}",
        "command": variant.command,
        "trials_per_method": yaml.safe_load(variant.spec.read_text())["budget"]["trials_per_method"],
        "wall_seconds": wall,
        "rows": summary(report),
    }
    print(json.dumps(result, indent=1))
    if args.write:
        variant.json.write_text(json.dumps(result, indent=1) + "\n")
        write_section(ROOT / "bench" / "RESULTS.md", variant.section, section(variant, result))


if __name__ == "__main__":
    main()
