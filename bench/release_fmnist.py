"""The Fashion-MNIST sweep alone at ε = 3 and 8: each method's configuration that the sweep selected at
ε = 1, released at the larger ε (issue 12's third proxy: choose at a small ε, release at a larger one).

For every method, the configuration the ε = 1 search of ``sweeps/fmnist.yaml`` selected on validation
accuracy (``bench/fmnist_sweep.json``, written by ``bench/fmnist_sweep.py``) is run ``RERUNS`` times at
each ε of ``EPSILONS`` on the whole training set, with σ calibrated to that ε, fresh secret randomness
(no seed: OS entropy) and the sweep's base run (``sweeps/fmnist.yaml`` at that ε), and scored on the
final-test half. Nothing is chosen at ε = 3 or 8, and no hand run enters it. Each run is what a user
runs: ``dptune train … --json`` in a fresh process, its arguments checked to give exactly that run
(``train_arguments``), its last stdout line (``Trainer.summary``) the run's record.

Privacy (docs/privacy.md: every released run counted). A run's plan (batch size, epochs) was
chosen by the ε = 1 search from its scores, so each run counts W_m(ε), the worst full plan the method's space
could give a run at that ε (``dptune.sweep.bound.worst_run``, as the sweep counts its own re-runs), not the
ledger it spent (that one is rebuilt from its record and checked against the ε it spent). A cell of method m
at ε counts m's ε = 1 figure (``epsilon_including_tuning`` of its cell in the sweep's record: the ε = 1 proxy,
m's search and m's re-runs) and, by RDP composition at δ_R = ``RELEASE_DELTA``, m's runs released here at ε
and at every ε before it in ``EPSILONS``; the two add (basic composition):

    ε_cell = ε_sweep,m(ε = 1) + ε_RDP(Σ_runs W_m; δ_R),   δ_cell = δ_sweep,m(ε = 1) + δ_R.

The figure of the whole table (every method's runs at every ε) is in ``fmnist_sweep.release_lines``.

Runs are cached one JSON file each in ``bench/fmnist_release_runs/`` (written whole or not at all, never
over another), so the stage continues where it stopped, also in a later session on another machine;
the record (``bench/fmnist_release.json``) holds the cells whose runs have all finished, and the
sweep's section of bench/RESULTS.md shows them (``fmnist_sweep.write_sweep_section``).

    python bench/release_fmnist.py --workers 2   # what is missing, then the record and the summary
    python bench/release_fmnist.py --record      # the record and the summary from the cached runs
"""

from __future__ import annotations

import argparse
import datetime as dt
import functools
import json
import math
import os
import platform
import statistics
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from fmnist_sweep import (  # bench/ is on the path when this file runs as a script
    DELTA,
    RELEASE_RECORD,
    ROOT,
    SPEC,
    SWEEP_RECORD,
    TRAIN_SIZE,
    write_sweep_section,
)
from results import cpu_name, fresh_process_env
from scatter_fmnist import dptune

if TYPE_CHECKING:
    from dptune.sweep.sweep_spec import SweepSpec
    from dptune.training.config import RunConfig

RELEASE_RUNS = ROOT / "bench" / "fmnist_release_runs"
SELECTED_AT = "1"
"""The ε whose sweep selected the configurations."""
EPSILONS = ("3", "8")
"""The ε they are released at, in order: a cell's figure counts its method's runs up to its ε."""
RERUNS = 3
LOST_AT = "3"
"""The ε of the sweep's stage lost with the development machine (bench/RESULTS.md says what it published)."""
RELEASE_DELTA = 1e-6
"""δ_R of the released runs' composition (a method's ε = 1 δ plus this stays below 1/n)."""


def selected() -> dict[str, dict[str, Any]]:
    """method -> its cell at ε = ``SELECTED_AT`` in the sweep's record (the selected configuration's
    ``params``, as ``dptune train`` takes them, its scores and its ε including tuning)."""
    cells = json.loads(SWEEP_RECORD.read_text())["cells"]
    missing = sorted(m for m, c in cells.items() if SELECTED_AT not in c)
    if missing or not cells:
        raise SystemExit(
            f"{SWEEP_RECORD.name}: no ε = {SELECTED_AT} cell for {', '.join(missing) or 'any method'}: "
            "record the sweep first (python bench/fmnist_sweep.py --record)"
        )
    return {method: c[SELECTED_AT] for method, c in cells.items()}


@functools.cache
def sweep_at(epsilon: str) -> SweepSpec:
    """``sweeps/fmnist.yaml``'s sweep at ε (its base runs and the methods' spaces)."""
    from dptune.sweep.spec import load_spec

    spec = load_spec(SPEC, base=ROOT)
    return spec.at_epsilon(spec.epsilons.index(float(epsilon)))


def release_config(epsilon: str, method: str, params: dict[str, Any]) -> RunConfig:
    """The sweep's base run of ``method`` at ε with the selected ``params``."""
    return sweep_at(epsilon).runs[method].with_knobs(params)


@functools.cache
def worst_curve(epsilon: str, method: str) -> np.ndarray:
    """W_m(ε): per RDP order, the largest curve of any full plan ``method``'s space could give a run at ε
    (the curve every release of its selection counts)."""
    from dptune.sweep.bound import worst_run

    sweep = sweep_at(epsilon)
    return worst_run(sweep.methods[method], sweep.runs[method], TRAIN_SIZE, DELTA)


def run_path(epsilon: str, method: str, index: int) -> Path:
    """The cache file of re-run ``index`` of ``method``'s selection at ε."""
    return RELEASE_RUNS / f"{method}-eps{epsilon}-rerun{index}.json"


def jobs(chosen: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    """The runs not cached yet, ε by ε, the shortest plans first (whole cells sooner); each job carries
    its configuration, read once."""
    todo = []
    for epsilon in EPSILONS:
        for method in sorted(chosen, key=lambda m: chosen[m]["params"]["epochs"]):
            for index in range(RERUNS):
                out = run_path(epsilon, method, index)
                if not out.exists():
                    params = chosen[method]["params"]
                    todo.append(
                        {
                            "epsilon": epsilon,
                            "method": method,
                            "index": index,
                            "params": params,
                            "out": str(out),
                        }
                    )
    return todo


def argument(value: Any) -> str:
    """A value as ``dptune train`` reads it: a list comma-separated, a float exactly (``repr``)."""
    if isinstance(value, list | tuple):
        return ",".join(argument(v) for v in value)
    return repr(value) if isinstance(value, float) else str(value)


def train_arguments(config: RunConfig) -> list[str]:
    """The arguments of ``dptune train`` that train ``config``: every knob that differs from its default,
    every method parameter as ``--param``; refused unless the command's own parser gives ``config`` back."""
    from dptune.cli import cli_field, train_config
    from dptune.training.config import KNOBS

    arguments = []
    for name, knob in KNOBS.items():
        value = getattr(config, name)
        if value is not None and value != knob.default:
            arguments += [f"--{cli_field(name)}", argument(value)]
    for name, value in config.params.items():
        arguments += ["--param", f"{name}={argument(value)}"]

    def run(c: RunConfig) -> tuple[Any, ...]:
        return (*(getattr(c, name) for name in KNOBS), c.method_params)

    if run(train_config(arguments)) != run(config):
        raise SystemExit(f"dptune train {' '.join(arguments)} would not train the selected run")
    return arguments


def release_one(job: dict[str, Any]) -> dict[str, Any]:
    """One release of ``job``'s configuration at its ε: ``dptune train … --json`` in a fresh process and
    folder, ``threads`` torch threads; its summary (the last stdout line), with the job's protocol, its
    wall time and when it finished (UTC), written to ``job["out"]`` whole or not at all (an existing one
    is an error, never overwritten: that run was released too)."""
    config = release_config(job["epsilon"], job["method"], job["params"])
    env = fresh_process_env(ROOT) | {"OMP_NUM_THREADS": str(job["threads"])}
    started = time.time()
    with tempfile.TemporaryDirectory() as folder:
        stdout = dptune("train", *train_arguments(config), "--json", cwd=Path(folder), env=env)
    summary = json.loads(stdout.strip().splitlines()[-1]) | {
        "protocol": "released_at_larger_epsilon",
        "selected_at_epsilon": SELECTED_AT,
        "settings": job["params"],
        "wall_seconds": time.time() - started,
        "finished_at": dt.datetime.now(dt.UTC).isoformat(),
    }
    out = Path(job["out"])
    partial = out.with_suffix(".partial")
    with partial.open("w") as file:
        file.write(json.dumps(summary, indent=1))
        file.flush()
        os.fsync(file.fileno())
    os.link(partial, out)
    partial.unlink()
    return summary


def run(workers: int) -> None:
    """Run every release not cached yet, ``workers`` at a time, each with an equal share of the cores."""
    threads = max(1, (os.cpu_count() or 1) // workers)
    todo = [job | {"threads": threads} for job in jobs(selected())]
    RELEASE_RUNS.mkdir(parents=True, exist_ok=True)
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for job, result in zip(todo, pool.map(release_one, todo), strict=True):
            print(release_line(job, result), flush=True)


def release_line(job: dict[str, Any], result: dict[str, Any]) -> str:
    """The progress line of one release."""
    return (
        f"{job['method']:<15} ε={job['epsilon']} re-run {job['index']}: "
        f"{100 * result['test_accuracy']:.2f}% final test, "
        f"{100 * result['validation_accuracy']:.2f}% validation "
        f"(ε spent {result['epsilon_spent']:.3f}, {result['wall_seconds']:.0f}s)"
    )


def released_runs(chosen: dict[str, dict[str, Any]]) -> dict[str, dict[str, list[dict[str, Any]]]]:
    """ε -> method -> the cached runs' records, each checked: a run of the method's selection at an ε of
    ``EPSILONS``, on n = ``TRAIN_SIZE`` at δ = ``DELTA``, whose rebuilt ledger spends the ε it recorded."""
    runs: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for file in sorted(RELEASE_RUNS.glob("*.json")):
        record = json.loads(file.read_text()) | {"file": file.name}
        epsilon, method = f"{record['epsilon_target']:g}", record["method"]
        if epsilon not in EPSILONS or method not in chosen:
            raise SystemExit(f"{file.name}: a run at ε = {epsilon} of {method}, not one this stage releases")
        if record["settings"] != chosen[method]["params"]:
            raise SystemExit(f"{file.name}: not a run of {method}'s selection")
        config = release_config(epsilon, method, record["settings"])
        record_curve(file.name, record, config)  # checks n, δ and the ε it spent
        runs.setdefault(epsilon, {}).setdefault(method, []).append(record)
    return runs


def record_curve(name: str, record: dict[str, Any], config: RunConfig) -> np.ndarray:
    """RDP curve of a released run of ``config`` (on n = ``TRAIN_SIZE`` at δ = ``DELTA``): the ledger it
    spent (σ and steps from its record), rebuilt, and refused unless its ε at δ is the ε it recorded."""
    from dptune.privacy.accounting import rdp_curve, rdp_to_epsilon
    from dptune.training.calibrated_run import spent_ledger

    if (record["train_size"], record["delta"]) != (TRAIN_SIZE, DELTA):
        raise SystemExit(
            f"{name}: n = {record['train_size']}, δ = {record['delta']}, not {TRAIN_SIZE}, {DELTA}"
        )
    curve = rdp_curve(spent_ledger(config, TRAIN_SIZE, record["noise_multiplier"], record["steps"]))
    rebuilt = rdp_to_epsilon(curve, DELTA)
    if not math.isclose(rebuilt, record["epsilon_spent"], rel_tol=1e-6):
        raise SystemExit(
            f"{name}: the rebuilt ledger spends ε = {rebuilt:.6f}, the record says "
            f"{record['epsilon_spent']:.6f}"
        )
    return curve


def busy_hours(records: list[dict[str, Any]]) -> float:
    """Hours during which at least one of ``records``' runs was running (the union of their intervals:
    the wall time of those runs, without the gaps between sessions)."""
    ends = [dt.datetime.fromisoformat(r["finished_at"]).timestamp() for r in records]
    intervals = sorted((end - r["wall_seconds"], end) for end, r in zip(ends, records, strict=True))
    total, reach = 0.0, float("-inf")
    for start, end in intervals:
        total += max(0.0, end - max(start, reach))
        reach = max(reach, end)
    return total / 3600


def cell_privacy(
    method: str, epsilon: str, chosen: dict[str, Any], runs: dict[str, dict[str, list[dict[str, Any]]]]
) -> dict[str, Any]:
    """The figure of ``method``'s cell at ε (module docstring): its ε = 1 figure plus its runs here up to
    ε, each at W_m of its ε."""
    from dptune.privacy.accounting import rdp_to_epsilon

    earlier = EPSILONS[: EPSILONS.index(epsilon) + 1]
    counted = {e: len(runs.get(e, {}).get(method, [])) for e in earlier}
    curve = np.sum([n * worst_curve(e, method) for e, n in counted.items() if n], axis=0)
    released = rdp_to_epsilon(curve, RELEASE_DELTA)
    return {
        "epsilon_including_tuning": chosen["epsilon_including_tuning"] + released,
        "delta_including_tuning": chosen["delta_including_tuning"] + RELEASE_DELTA,
        "epsilon_released_runs": released,
        "released_runs_counted": counted,
    }


def cell(method: str, epsilon: str, chosen: dict[str, Any], runs: dict[str, Any]) -> dict[str, Any]:
    """The ``tuned`` cell of ``method`` at ε from its finished runs (``selected_by: "sweep"``)."""
    records = runs[epsilon][method]
    accuracies = [100 * r["test_accuracy"] for r in records]
    return {
        "selected_by": "sweep",
        "selected_at_epsilon": SELECTED_AT,
        "mean": statistics.fmean(accuracies),
        "sd": statistics.stdev(accuracies),
        "accuracies": [round(a, 4) for a in accuracies],
        "validation_accuracy": statistics.fmean(100 * r["validation_accuracy"] for r in records),
        "selection_validation_accuracy": chosen["validation_accuracy"],
        "params": chosen["params"],
        "model": chosen["model"],
        "noise_multiplier": records[0]["noise_multiplier"],
        "epsilon_spent": max(r["epsilon_spent"] for r in records),
        **cell_privacy(method, epsilon, chosen, runs),
        "tuning_bound": "composition",
        "trials": {"final": len(records)},
        "trial_hours": sum(r["wall_seconds"] for r in records) / 3600,
        "wall_hours": busy_hours([r for rs in runs[epsilon].values() for r in rs]),
        "selection": {
            "trials": chosen["trials"],
            "trial_hours": chosen["trial_hours"],
            "wall_hours": chosen["sweep_wall_hours"],
            "sweep": chosen["sweep"],
        },
        "runs": [r["file"] for r in records],
    }


def whole_table(runs: dict[str, dict[str, list[dict[str, Any]]]]) -> dict[str, Any]:
    """What the figure of the whole table adds beyond the lost ε = 3 stage's published figure (its
    ε = 1 stage and proxy) by RDP composition at δ_R: every run released here, each at W_m of its ε, and
    the lost stage's whole search on the full data (``lost_search``), every trial it could have started
    at W_m(3), since one of its scores was published."""
    from dptune.privacy.accounting import rdp_to_epsilon

    released = [len(rs) * worst_curve(e, m) for e, by_method in runs.items() for m, rs in by_method.items()]
    lost = lost_search()
    curves = released + [trials * worst_curve(LOST_AT, m) for m, trials in lost.items()]
    return {
        "released_runs": sum(len(rs) for by_method in runs.values() for rs in by_method.values()),
        "lost_search_trials": sum(lost.values()),
        "epsilon": rdp_to_epsilon(np.sum(curves, axis=0), RELEASE_DELTA),
        "delta": RELEASE_DELTA,
    }


def lost_search() -> dict[str, int]:
    """method -> the trials of its search in the sweep's lost ε = ``LOST_AT`` stage (its whole budget)."""
    sweep = sweep_at(LOST_AT)
    if sweep.trials.random:
        raise SystemExit(f"{SPEC.name}: a random trial count; this stage counts a fixed one")
    return dict.fromkeys(sweep.methods, int(sweep.trials.mean))


def release_record(workers: int) -> dict[str, Any]:
    """bench/fmnist_release.json: per method and ε, the ``tuned`` cell once its ``RERUNS`` runs have all
    finished; the runs finished at each ε; what the stage adds to the figure of the whole table."""
    chosen = selected()
    runs = released_runs(chosen)
    cells: dict[str, dict[str, Any]] = {}
    for epsilon in EPSILONS:
        for method, records in runs.get(epsilon, {}).items():
            if len(records) >= RERUNS:
                cells.setdefault(method, {})[epsilon] = cell(method, epsilon, chosen[method], runs)
    return {
        "command": f"python bench/release_fmnist.py --workers {workers}",
        "date": dt.date.today().isoformat(),
        "machine": f"{cpu_name()}, {os.cpu_count()} cores, {platform.system()}",
        "selected_at_epsilon": SELECTED_AT,
        "epsilons": list(EPSILONS),
        "reruns": RERUNS,
        "methods": len(chosen),
        "finished_runs": {e: sum(len(rs) for rs in runs.get(e, {}).values()) for e in EPSILONS},
        "wall_hours": {e: busy_hours([r for rs in runs.get(e, {}).values() for r in rs]) for e in EPSILONS},
        "whole_table": whole_table(runs),
        "cells": cells,
    }


def main() -> None:
    """Run what is missing (unless ``--record``), then write the record and the summary."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2, help="runs at a time, one thread each")
    parser.add_argument("--record", action="store_true", help="only the record, from the cached runs")
    args = parser.parse_args()
    if not args.record:
        run(args.workers)
    RELEASE_RECORD.write_text(json.dumps(release_record(args.workers), indent=1) + "\n")
    write_sweep_section()


if __name__ == "__main__":
    main()
