"""Benchmark: how well a tuning proxy ranks configurations (issue 12, point 4).

The proxy (``training.proxy_fraction`` γ; Koskela & Kulkarni, NeurIPS 2023) trains every configuration
on one secret Poisson subset of the training data that keeps each sample with probability γ, at the full
run's sampling rate q = B/n, steps and σ: the same privacy plan at about γ of the compute, with the step
η·γ (its release averages over γ·q·n samples; η·γ keeps the parameters' noise per step the full run's,
and ``lr`` names the full run's step). Two real
sweeps (``dptune run``, local Ray, MLflow SQLite, Optuna journals), each method family with the same
configurations:

1. ``proxy``: random search (non-adaptive, so the configurations spread over the space), ``--trials``
   configurations per method, no early stopping, no re-runs, on the subset;
2. ``full``: the same configurations on the whole training set, enqueued from the proxy sweep's study
   (``search.warm_start`` with ``top`` = every configuration), no early stopping, no re-runs.

Per method, the Spearman rank correlation between the proxy's and the full run's last validation
accuracy over the configurations both finished (``scipy.stats.spearmanr``), and how often the proxy's
best configuration ranks among the full runs. Method families: plain DP-SGD (``dpsgd``), heavy-ball
momentum (``dpsgd-momentum``: μ searched), low-pass filtering of the release (``lp-dpsgd``: the
first-order filter's pole and zero searched). Spaces: the shipped Fashion-MNIST spec's (effective step,
clip, batch size, method parameters) with epochs in {3, 5, 8} instead of {10, 20, 40}, so that 36 full
runs fit this 2-core machine in about half an hour; the per-sample-momentum methods (``dp-pmlf``,
``innerouter``, k per-sample gradients a step) cost up to 4× more and are left out for that reason.

The privacy of a proxy's runs: each run is (ε, δ)-DP with respect to the subset, like a full run with
respect to the data; the proxy sweep's whole bound (every trial at its worst plan, composed) then holds
on the subset, and, the subset being secret and Poisson, on the data amplified to log(1 + γ(e^ε − 1)),
γδ (``dptune.privacy.amplification``); a sweep warm-started from it adds that figure to its own. Both
figures are in the JSON.

    python bench/proxy_rank.py --write        (about 35 minutes on 2 cores; writes RESULTS.md)
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import optuna
import yaml
from optuna.trial import TrialState
from results import cpu_name, write_section  # bench/ is on the path when this file runs as a script
from scipy.stats import spearmanr

from dptune.base.errors import InputError
from dptune.sweep.preflight import earlier_cost
from dptune.tune.studies import study_storage

ROOT = Path(__file__).resolve().parents[1]
SECTION = "## Tuning proxy: how a subset ranks configurations"
JSON = ROOT / "bench" / "proxy_rank.json"
BASE_SPEC = ROOT / "sweeps" / "fmnist-eps1.yaml"
FAMILIES = {"dpsgd": "plain DP-SGD", "dpsgd-momentum": "heavy-ball momentum", "lp-dpsgd": "low-pass filter"}
EPOCHS = [3, 5, 8]
HISTORY = (
    "History: the first run of this benchmark (commit c1ccb45, same configurations) stepped the proxies "
    "at the full run's lr: Spearman ρ = +0.17 (dpsgd), +0.12 (dpsgd-momentum), +0.94 (lp-dpsgd). Its noise "
    "per sample being 1/γ = 5× the full run's, the configurations with the largest effective steps, the "
    "best on the whole data, diverged on the subset; the step lr·γ is the rule since."
)


def spec(name: str, epsilon: float, trials: int, fraction: float | None, storage: Path) -> dict[str, Any]:
    """One of the two sweeps: the shipped spec's spaces for the families, random search, every trial run
    to its end, no re-runs; ``fraction`` makes it the proxy, otherwise it starts from the proxy's
    configurations."""
    base = yaml.safe_load(BASE_SPEC.read_text())
    methods = {}
    for method in FAMILIES:
        space = {k: v for k, v in base["methods"][method].items() if k != "start"}
        space["epochs"] = {"choice": EPOCHS}
        methods[method] = space
    training = dict(base["training"], epochs=EPOCHS[0])
    if fraction is not None:
        training["proxy_fraction"] = fraction
    doc: dict[str, Any] = {
        "name": name,
        "dataset": base["dataset"],
        "model": base["model"],
        "privacy": dict(base["privacy"], epsilon=epsilon),
        "training": training,
        "budget": {"trials_per_method": trials},
        "resources": {"cpu": 1, "gpu": 0},
        "scheduler": {"name": "none"},
        "search": {"sampler": "random", "seed": 0},
        "selection": {"reruns": 0},
        "tracking": {"uri": f"sqlite:///{storage}/mlflow.db", "experiment": "proxy-rank"},
        "storage_path": str(storage),
        "methods": methods,
    }
    if fraction is None:
        doc["search"]["warm_start"] = {"sweep": "proxy", "top": trials}
    return doc


def run(doc: dict[str, Any], folder: Path) -> float:
    """``dptune run`` of ``doc`` (its console in ``folder``); the wall seconds it took."""
    path = folder / f"{doc['name']}.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    started = time.time()
    with open(folder / f"{doc['name']}.log", "w") as log:
        subprocess.run(
            [sys.executable, "-m", "dptune.cli", "run", str(path)], check=True, stdout=log, stderr=log
        )
    return time.time() - started


def sweep_wall(storage: Path, sweep: str) -> float:
    """Seconds from a sweep's spec file being written to its log's last line (an interrupted run)."""
    return (storage / f"{sweep}.log").stat().st_mtime - (storage / f"{sweep}.yaml").stat().st_mtime


def scores(storage: Path, sweep: str, method: str) -> dict[str, tuple[float, float]]:
    """Each finished configuration of ``method``'s study in ``sweep`` (its parameters as a key): its
    last validation accuracy and the seconds the trial took."""
    study = optuna.load_study(study_name=method, storage=study_storage(str(storage), sweep))
    done = study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
    return {
        json.dumps(t.params, sort_keys=True): (float(t.value), t.duration.total_seconds())
        for t in done
        if t.value is not None and t.duration is not None
    }


def tuning_epsilon(storage: Path, sweep: str) -> dict[str, float] | None:
    """The sweep's (ε, δ) including tuning, as its end recorded them (None: it has not ended)."""
    try:
        doc = earlier_cost(str(storage), sweep)
    except InputError:
        return None
    return {"epsilon": doc["epsilon_including_tuning"], "delta": doc["delta"]}


def compare(storage: Path) -> dict[str, Any]:
    rows = {}
    for method, family in FAMILIES.items():
        proxy, full = scores(storage, "proxy", method), scores(storage, "full", method)
        common = sorted(set(proxy) & set(full))
        if len(common) < 3:
            continue  # an interrupted full sweep had not reached this family
        p = [proxy[k][0] for k in common]
        f = [full[k][0] for k in common]
        rho, pvalue = spearmanr(p, f)
        best_proxy = max(common, key=lambda k: proxy[k][0])
        full_rank = sorted(common, key=lambda k: -full[k][0]).index(best_proxy) + 1
        rows[method] = {
            "family": family,
            "configurations": len(common),
            "spearman": float(rho),
            "p_value": float(pvalue),
            "proxy_best_full_rank": full_rank,
            "proxy_best_full_accuracy": full[best_proxy][0],
            "full_best_accuracy": max(f),
            "proxy_trial_seconds": sum(proxy[k][1] for k in common),
            "full_trial_seconds": sum(full[k][1] for k in common),
            "pairs": [{"params": json.loads(k), "proxy": proxy[k][0], "full": full[k][0]} for k in common],
        }
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epsilon", type=float, default=3.0)
    parser.add_argument("--fraction", type=float, default=0.2, help="γ of the proxy's subset")
    parser.add_argument("--trials", type=int, default=12, help="configurations per method family")
    parser.add_argument("--storage", type=Path, default=Path("/tmp/dptune-proxy-rank"))
    parser.add_argument("--write", action="store_true", help="write bench/proxy_rank.json and RESULTS.md")
    parser.add_argument(
        "--compare-only",
        action="store_true",
        help="run nothing: compare what the sweeps in --storage finished so far (an interrupted run)",
    )
    args = parser.parse_args()
    storage = args.storage.resolve()
    if args.compare_only:
        walls = {name: sweep_wall(storage, name) for name in ("proxy", "full")}
    else:
        if storage.exists():
            sys.exit(f"--storage {storage} exists: give a new folder (the two sweeps are created there)")
        storage.mkdir(parents=True)
        os.chdir(storage)
        walls = {
            "proxy": run(spec("proxy", args.epsilon, args.trials, args.fraction, storage), storage),
            "full": run(spec("full", args.epsilon, args.trials, None, storage), storage),
        }
    result = {
        "date": dt.date.today().isoformat(),
        "machine": f"{cpu_name()}, {os.cpu_count()} cores, {platform.system()}",
        "command": "python bench/proxy_rank.py --write",
        "dataset": "fashion-mnist",
        "model": "cnn5",
        "epsilon": args.epsilon,
        "proxy_fraction": args.fraction,
        "epochs": EPOCHS,
        "wall_seconds": walls,
        "privacy": {"proxy": tuning_epsilon(storage, "proxy"), "full": tuning_epsilon(storage, "full")},
        "methods": compare(storage),
    }
    print(json.dumps({k: v for k, v in result.items() if k != "methods"}, indent=1))
    for method, row in result["methods"].items():
        print(
            f"{method:<11} n={row['configurations']:>2}  Spearman {row['spearman']:+.2f} "
            f"(p={row['p_value']:.3f})  proxy's best is full rank {row['proxy_best_full_rank']}"
        )
    if args.write:
        JSON.write_text(json.dumps(result, indent=1) + "\n")
        write_section(ROOT / "bench" / "RESULTS.md", SECTION, section(result))


def section(result: dict[str, Any]) -> str:
    rows = result["methods"].values()
    ratio = sum(r["full_trial_seconds"] for r in rows) / sum(r["proxy_trial_seconds"] for r in rows)
    lines = [
        SECTION,
        "",
        f"`{result['command']}`, {result['date']}, {result['machine']}; Fashion-MNIST, cnn5, "
        f"ε = {result['epsilon']:g}, δ = 1e-5, epochs in {result['epochs']}; proxy: a secret Poisson "
        f"subset with γ = {result['proxy_fraction']:g}, same q, steps and σ, step lr·γ. Trial time of the "
        f"compared configurations (in the same run): a full run takes {ratio:.1f}× its proxy's.",
        "",
        "| family (method) | configurations | Spearman ρ (p) | proxy's best: full-run rank | its full "
        "validation % | best full validation % |",
        "|---|---|---|---|---|---|",
    ]
    for method, row in result["methods"].items():
        lines.append(
            f"| {row['family']} ({method}) | {row['configurations']} | {row['spearman']:+.2f} "
            f"({row['p_value']:.3f}) | {row['proxy_best_full_rank']} | "
            f"{100 * row['proxy_best_full_accuracy']:.2f} | {100 * row['full_best_accuracy']:.2f} |"
        )
    lines += ["", privacy_text(result), "", HISTORY]
    return "\n".join(lines) + "\n"


def privacy_text(result: dict[str, Any]) -> str:
    """What the two sweeps' bounds say (every run counted at its worst plan, composed)."""
    proxy, full = result["privacy"]["proxy"], result["privacy"]["full"]
    text = "Privacy (every run at its worst plan, composed): the proxy sweep's bound on its subset"
    if proxy:
        text += f", amplified to the data, is ε = {proxy['epsilon']:.3f} (δ = {proxy['delta']:g})"
    else:
        text += " was not recorded (the sweep did not end)"
    if full:
        return text + (
            f"; the full sweep, warm-started from it, ε = {full['epsilon']:.3f} (δ = {full['delta']:g}) "
            "including the proxy's."
        )
    return text + (
        "; the full sweep was stopped before its end and recorded no figure (each of its runs spent at "
        f"most ε = {result['epsilon']:g})."
    )


if __name__ == "__main__":
    main()
