"""The Fashion-MNIST sweep alone at ε = 3 and 8: each method's configuration that the sweep selected at
ε = 1, released at the larger ε (issue 12's third proxy: choose at a small ε, release at a larger one).

For every method, the configuration the ε = 1 search of ``sweeps/fmnist.yaml`` selected on validation
accuracy (``bench/fmnist_sweep.json``, ``--stage sweep-record`` of ``reproduce_fmnist.py``) is run
``RERUNS`` times at each ε of ``EPSILONS`` on the whole training set, with σ calibrated to that ε, fresh
secret randomness (no seed: OS entropy) and the sweep's base run (``sweeps/fmnist.yaml`` at that ε),
and scored on the final-test half. Nothing is chosen at ε = 3 or 8, and no hand run enters it.

Privacy (DESIGN §9, every released run counted): the runs at ε depend on the ε = 1 sweep through its
released selection only, so the figure of a cell at ε is the basic composition of the ε = 1 sweep's
own figure (its proxy, search and re-runs, ``epsilon_including_tuning`` of its record, every method's)
with the RDP composition of every run this stage has released at that ε and at the ε before it in
``EPSILONS`` (rebuilt from each run's record: σ, steps and settings; checked against the ε it spent),
converted at δ = ``RELEASE_DELTA``:

    ε_cell = ε_sweep(ε = 1) + ε_RDP(Σ_runs curve; δ_R),   δ_cell = δ_sweep(ε = 1) + δ_R.

Runs are cached one JSON file each in ``bench/fmnist_release_runs/`` (written whole or not at all), so
the stage continues where it stopped, also in a later session on another machine; the record
(``bench/fmnist_release.json``) holds the cells with all their runs, and ``reproduce_fmnist.py --stage
summarize`` folds it into ``bench/fmnist_results.json`` and bench/RESULTS.md.

    python bench/release_fmnist.py --workers 2   # what is missing, then the record and the summary
    python bench/release_fmnist.py --record      # the record and the summary from the cached runs
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import statistics
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reproduce_fmnist import (  # bench/ is on the path when this file runs as a script
    DELTA,
    RELEASE_RECORD,
    ROOT,
    SWEEP_ALONE,
    SWEEP_ALONE_RECORD,
    checked,
    ledger_curve,
    summarize,
    train_cached,
)
from results import cpu_name
from scatter_fmnist import knobs

if TYPE_CHECKING:
    from dptune.config import RunConfig

RELEASE_RUNS = ROOT / "bench" / "fmnist_release_runs"
SELECTED_AT = "1"
"""The ε whose sweep selected the configurations."""
EPSILONS = ("3", "8")
"""The ε they are released at, in order: a cell's figure counts this stage's runs up to its ε."""
RERUNS = 3
RELEASE_DELTA = 1e-6
"""δ_R of the released runs' composition (the ε = 1 sweep's δ plus this stays below 1/n)."""


def selected() -> dict[str, dict[str, Any]]:
    """method -> its cell at ε = ``SELECTED_AT`` in the sweep's record (the selected configuration, its
    scores and the sweep's ε including tuning)."""
    cells = json.loads(SWEEP_ALONE_RECORD.read_text())["cells"]
    missing = sorted(m for m, c in cells.items() if SELECTED_AT not in c)
    if missing or not cells:
        raise SystemExit(
            f"{SWEEP_ALONE_RECORD.name}: no ε = {SELECTED_AT} cell for {', '.join(missing) or 'any method'}: "
            "record the sweep first (reproduce_fmnist.py --stage sweep-record)"
        )
    return {method: c[SELECTED_AT] for method, c in cells.items()}


def release_config(epsilon: str, method: str, params: dict[str, Any]) -> RunConfig:
    """The sweep's base run of ``method`` at ε (``sweeps/fmnist.yaml``) with the selected ``params``."""
    from dptune.spec import load_spec

    spec = load_spec(SWEEP_ALONE, base=ROOT)
    run = spec.at_epsilon(spec.epsilons.index(float(epsilon))).runs[method]
    return run.with_knobs(knobs(params))


def run_path(epsilon: str, method: str, index: int) -> Path:
    return RELEASE_RUNS / f"{method}-eps{epsilon}-rerun{index}.json"


def jobs(chosen: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """The runs not cached yet, ε by ε, the shortest plans first (whole cells sooner)."""
    todo = []
    for epsilon in EPSILONS:
        for method in sorted(chosen, key=lambda m: chosen[m]["params"]["epochs"]):
            for index in range(RERUNS):
                out = run_path(epsilon, method, index)
                if not out.exists():
                    todo.append({"epsilon": epsilon, "method": method, "index": index, "out": str(out)})
    return todo


def release_one(job: dict[str, Any]) -> dict[str, Any]:
    """Run one release (``train_cached``) of the selected configuration of ``job["method"]`` at its ε."""
    params = selected()[job["method"]]["params"]
    config = release_config(job["epsilon"], job["method"], params)
    extra = {"protocol": "released_at_larger_epsilon", "selected_at_epsilon": SELECTED_AT, "settings": params}
    return train_cached(config, Path(job["out"]), extra)


def run(workers: int) -> None:
    todo = jobs(selected())
    RELEASE_RUNS.mkdir(parents=True, exist_ok=True)
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for job, result in zip(todo, pool.map(release_one, todo), strict=True):
            print(
                f"{job['method']:<15} ε={job['epsilon']} re-run {job['index']}: "
                f"{100 * result['test_accuracy']:.2f}% final test, "
                f"{100 * result['validation_accuracy']:.2f}% validation "
                f"(ε spent {result['epsilon_spent']:.3f}, {result['wall_seconds']:.0f}s)",
                flush=True,
            )


def released_runs() -> dict[str, dict[str, list[dict[str, Any]]]]:
    """ε -> method -> the cached runs' records."""
    runs: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for file in sorted(RELEASE_RUNS.glob("*.json")):
        record = json.loads(file.read_text())
        runs.setdefault(f"{record['epsilon_target']:g}", {}).setdefault(record["method"], []).append(
            record | {"file": file.name}
        )
    return runs


def wall_hours(records: list[dict[str, Any]]) -> float:
    """Hours from the first of ``records``' runs starting to the last one finishing (the wall time of
    that ε's runs, which every method's cell shares)."""
    if not records:
        return 0.0
    finished = [dt.datetime.fromisoformat(r["finished_at"]).timestamp() for r in records]
    started = [end - r["wall_seconds"] for end, r in zip(finished, records, strict=True)]
    return (max(finished) - min(started)) / 3600


def release_record() -> dict[str, Any]:
    """bench/fmnist_release.json: per method and ε, the ``tuned`` cell (``selected_by: "sweep"``) once
    its ``RERUNS`` runs are all cached, and the privacy of each ε's figure (module docstring)."""
    from dptune.privacy.accounting import rdp_to_epsilon

    chosen = selected()
    sweep_epsilon = max(c["epsilon_including_tuning"] for c in chosen.values())
    sweep_delta = max(c["delta_including_tuning"] for c in chosen.values())
    runs = released_runs()
    curves = []
    privacy: dict[str, Any] = {}
    cells: dict[str, dict[str, Any]] = {}
    for epsilon in EPSILONS:
        for method, records in sorted(runs.get(epsilon, {}).items()):
            for record in records:
                if (record["delta"], record["settings"]) != (DELTA, chosen[method]["params"]):
                    raise SystemExit(
                        f"{record['file']}: not a run of the selected configuration at δ = {DELTA:g}"
                    )
                config = release_config(epsilon, method, record["settings"])
                curve = ledger_curve(config, record["noise_multiplier"], record["steps"])
                curves.append(checked(curve, record["epsilon_spent"], record["file"]))
        released = rdp_to_epsilon(sum(curves), RELEASE_DELTA) if curves else 0.0
        privacy[epsilon] = {
            "released_runs_counted": len(curves),
            "epsilon_released_runs": released,
            "delta_released_runs": RELEASE_DELTA,
            "epsilon_including_tuning": sweep_epsilon + released,
            "delta_including_tuning": sweep_delta + RELEASE_DELTA,
            "wall_hours": wall_hours([r for records in runs.get(epsilon, {}).values() for r in records]),
        }
        for method, records in runs.get(epsilon, {}).items():
            if len(records) < RERUNS:
                continue
            accuracies = [100 * r["test_accuracy"] for r in records]
            cells.setdefault(method, {})[epsilon] = {
                "selected_by": "sweep",
                "selected_at_epsilon": SELECTED_AT,
                "mean": statistics.fmean(accuracies),
                "sd": statistics.stdev(accuracies),
                "accuracies": [round(a, 4) for a in accuracies],
                "validation_accuracy": statistics.fmean(100 * r["validation_accuracy"] for r in records),
                "selection_validation_accuracy": chosen[method]["validation_accuracy"],
                "params": chosen[method]["params"],
                "model": chosen[method]["model"],
                "noise_multiplier": records[0]["noise_multiplier"],
                "epsilon_spent": max(r["epsilon_spent"] for r in records),
                "epsilon_including_tuning": privacy[epsilon]["epsilon_including_tuning"],
                "delta_including_tuning": privacy[epsilon]["delta_including_tuning"],
                "tuning_bound": "composition",
                "trials": {"final": len(records)},
                "trial_hours": sum(r["wall_seconds"] for r in records) / 3600,
                "wall_hours": privacy[epsilon]["wall_hours"],
                "selection_trial_hours": chosen[method]["trial_hours"],
                "selection_trials": chosen[method]["trials"],
                "selection_wall_hours": chosen[method]["sweep_wall_hours"],
                "runs": [r["file"] for r in records],
            }
    return {
        "command": "python bench/release_fmnist.py --workers 2",
        "date": dt.date.today().isoformat(),
        "machine": f"{cpu_name()}, {os.cpu_count()} cores, {platform.system()}",
        "selected_at_epsilon": SELECTED_AT,
        "epsilons": list(EPSILONS),
        "sweep_epsilon_including_tuning": sweep_epsilon,
        "sweep_delta_including_tuning": sweep_delta,
        "privacy": privacy,
        "cells": cells,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2, help="runs at a time, one thread each")
    parser.add_argument("--record", action="store_true", help="only the record, from the cached runs")
    args = parser.parse_args()
    if not args.record:
        run(args.workers)
    RELEASE_RECORD.write_text(json.dumps(release_record(), indent=1) + "\n")
    summarize()


if __name__ == "__main__":
    main()
