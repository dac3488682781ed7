"""Benchmark: how busy a sweep keeps its slots, for a checkout of dptune (before and after a change).

slot utilisation = busy trial-seconds / (slots × wall time of the ``dptune run`` process)

where a trial's busy seconds run from its start to its last report inside the trainable (the last
result of every trial in Tune's saved experiments, not the tracker's records) and the wall time is the whole
``dptune run`` process (start-up, Ray, planning, MLflow, end-of-sweep work included). Also given: the
utilisation inside the window from the first trial's start to the last trial's end.

Two sweeps on a local Ray instance the driver starts (this machine's cores):

* **3 × 8**: dpsgd, lp-dpsgd and dpsgd-momentum, 8 trials each, digits / mlp, 120 epochs, ``cpu: 0.5``
  on 2 cores (4 slots); ``budget.max_concurrent: 4`` for a checkout that runs methods one after
  another (its default was 1), the default (what the cluster holds) otherwise;
* **quickstart**: ``sweeps/quickstart.yaml`` as a user runs it (2 slots of ``cpu: 1``; with
  ``max_concurrent: 2`` for a checkout that runs methods one after another).

    python bench/utilisation.py --code /tmp/old --label "before (abc1234)" --write   (a clone of the old one)
    python bench/utilisation.py --label "after (def5678)" --write                   (this checkout)

Labels are free text; a label "<stage> before …" is compared with the label "<stage> after …".
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import logging
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import yaml
from ray.tune import ExperimentAnalysis
from results import (  # bench/ is on the path when this file runs as a script
    cpu_name,
    fresh_process_env,
    write_section,
)

ROOT = Path(__file__).resolve().parents[1]
SECTION = "## Slot utilisation: methods side by side"
JSON = ROOT / "bench" / "utilisation.json"
METHODS = ("dpsgd", "lp-dpsgd", "dpsgd-momentum")


def three_by_eight(sequential: bool) -> dict[str, Any]:
    budget: dict[str, Any] = {"trials_per_method": 8}
    if sequential:
        budget["max_concurrent"] = 4
    return {
        "name": "three-by-eight",
        "dataset": {"name": "digits"},
        "model": {"name": "mlp"},
        "privacy": {"epsilon": 2.0, "delta": 1.0e-5},
        "training": {"epochs": 120, "batch_size": 64, "physical_batch_size": 64},
        "budget": budget,
        "resources": {"cpu": 0.5, "gpu": 0},
        "search": {"sampler": "random", "seed": 0},
        "tracking": {"experiment": "three-by-eight"},
        "methods": {m: {"lr": {"loguniform": [0.1, 2.0]}} for m in METHODS},
    }


def quickstart(sequential: bool) -> dict[str, Any]:
    doc = yaml.safe_load((ROOT / "sweeps" / "quickstart.yaml").read_text())
    if sequential:
        doc["budget"]["max_concurrent"] = 2  # what the quickstart said before methods ran side by side
    return doc


def trial_windows(sweep: Path) -> list[tuple[float, float]]:
    """(start, end) of every trial, from the last result Tune saved in each method's experiment."""
    logging.getLogger("ray.tune").setLevel(logging.ERROR)  # no per-trial result files: Tune says so
    return [
        (trial.last_result["trial_start"], trial.last_result["trial_end"])
        for experiment in sweep.iterdir()
        if experiment.is_dir()
        for trial in ExperimentAnalysis(str(experiment)).trials
        if "trial_start" in trial.last_result
    ]


def run(code: Path, doc: dict[str, Any], slots: int) -> dict[str, Any]:
    """Run one sweep with ``code``'s dptune in a fresh process (its own MLflow store and storage path);
    its utilisation figures."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        doc = {**doc, "tracking": {**doc["tracking"], "uri": f"sqlite:///{folder / 'mlflow.db'}"}}
        doc["storage_path"] = str(folder / "ray_results")
        spec = folder / "spec.yaml"
        spec.write_text(yaml.safe_dump(doc))
        env = fresh_process_env(code)
        started = time.time()
        subprocess.run(
            [sys.executable, "-m", "dptune.cli", "run", str(spec)], cwd=folder, env=env, check=True
        )
        ended = time.time()
        windows = trial_windows(folder / "ray_results" / doc["name"])
    busy = sum(end - start for start, end in windows)
    first, last = min(start for start, _ in windows), max(end for _, end in windows)
    wall = ended - started
    return {
        "trials": len(windows),
        "slots": slots,
        "wall_seconds": round(wall, 1),
        "busy_trial_seconds": round(busy, 1),
        "utilisation": round(busy / (slots * wall), 3),
        "utilisation_in_trial_window": round(busy / (slots * (last - first)), 3),
        "seconds_to_first_trial": round(first - started, 1),
        "seconds_after_last_trial": round(ended - last, 1),
    }


def section(results: dict[str, dict[str, Any]], machine: str) -> str:
    rows = [
        "| checkout | sweep | trials | slots | wall s | busy trial-s | utilisation | inside trial window "
        "| s to first trial | s after last trial |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for label, sweeps in results.items():
        for name, r in sweeps.items():
            rows.append(
                f"| {label} | {name} | {r['trials']} | {r['slots']} | {r['wall_seconds']:.0f} | "
                f"{r['busy_trial_seconds']:.0f} | **{r['utilisation']:.2f}** | "
                f"{r['utilisation_in_trial_window']:.2f} | {r.get('seconds_to_first_trial', '–')} | "
                f"{r.get('seconds_after_last_trial', '–')} |"
            )
    ratios = []
    for label in results:  # "<stage> before (…)" against "<stage> after (…)", measured in one run
        stage = label.partition("before")[0]
        after = next((other for other in results if other.startswith(f"{stage}after")), None)
        if "before" not in label or after is None:
            continue
        for name in results[after]:
            old, new = results[label][name], results[after][name]
            ratios.append(
                f"- {stage}{name}: wall time {old['wall_seconds'] / new['wall_seconds']:.2f}× shorter after; "
                f"busy trial-seconds {old['busy_trial_seconds'] / new['busy_trial_seconds']:.2f}× fewer; "
                f"utilisation {old['utilisation']:.2f} → {new['utilisation']:.2f}"
            )
    return "\n".join(
        [
            SECTION,
            "",
            f"`python bench/utilisation.py` ({machine}, {dt.date.today()}): busy trial-seconds / (slots ×",
            "wall time of the whole `dptune run` process). Goals: 3 × 8 ≥ 0.85, quickstart ≥ 0.8. The same",
            "sweep's busy trial-seconds differ by up to 20% from run to run on this machine (a shared 2-core",
            "VM; the quickstart's TPE draws also change dp-pmlf's k, hence its cost), so compare the",
            "utilisation of repeated runs rather than one wall time. What the start-up and the end leave",
            'of the quickstart\'s utilisation, part by part: "Start-up cost of a sweep, part by part"',
            "(`bench/startup_cost.py`).",
            "",
            *rows,
            "",
            *ratios,
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--code", type=Path, default=ROOT, help="the dptune checkout to measure")
    parser.add_argument("--label", default="after")
    parser.add_argument("--sequential", action="store_true", help="the checkout runs methods one by one")
    parser.add_argument("--write", action="store_true", help=f"write {JSON.name} and RESULTS.md")
    parser.add_argument("--only", choices=("3 methods × 8 trials", "quickstart"), help="run one sweep only")
    parser.add_argument("--section-only", action="store_true", help=f"rewrite the section from {JSON.name}")
    args = parser.parse_args()
    cores = os.cpu_count() or 1
    machine = f"{cpu_name()}, {cores} cores, Python {platform.python_version()}"
    if args.section_only:
        write_section(ROOT / "bench" / "RESULTS.md", SECTION, section(json.loads(JSON.read_text()), machine))
        return
    sweeps = {
        "3 methods × 8 trials": lambda: run(args.code, three_by_eight(args.sequential), int(cores / 0.5)),
        "quickstart": lambda: run(args.code, quickstart(args.sequential), cores),
    }
    measured = {name: measure() for name, measure in sweeps.items() if args.only in (None, name)}
    results = json.loads(JSON.read_text()) if JSON.exists() else {}
    results[args.label] = measured
    print(json.dumps(measured, indent=1))
    if args.write:
        JSON.write_text(json.dumps(results, indent=1) + "\n")
        write_section(ROOT / "bench" / "RESULTS.md", SECTION, section(results, machine))


if __name__ == "__main__":
    main()
