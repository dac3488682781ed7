"""Reproduce the DP-PMLF paper's Fashion-MNIST comparison with dptune (protocol: bench/reproduce_fmnist.md).

Stages, each resumable (a finished run is cached as JSON in bench/fmnist_runs/ and never run again):

    paper      every method at the papers' fixed settings (the ``start`` point of
               sweeps/fmnist-eps{ε}.yaml), seeds 0, 1, 2
    sweep      dptune run sweeps/fmnist-eps{ε}.yaml (resumed if it already exists)
    tuned      the best configuration of every method in that sweep (from MLflow), seeds 0, 1, 2
    probe      the setting a hand probe beyond the sweep chose (bench/fmnist_lr_probe.json), seeds 0, 1, 2
    summarize  bench/fmnist_results.json, the table in bench/RESULTS.md and the accuracy-vs-ε plot

    python bench/reproduce_fmnist.py --epsilon 1 --stage paper --workers 2
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parents[1]
RUNS = ROOT / "bench" / "fmnist_runs"
PLOT = ROOT / "bench" / "fmnist_accuracy_vs_epsilon.png"
PROBE = ROOT / "bench" / "fmnist_lr_probe.json"
SEEDS = (0, 1, 2)
KNOBS = ("lr", "clip", "batch_size", "epochs")


def spec_path(epsilon: str) -> Path:
    return ROOT / "sweeps" / f"fmnist-eps{epsilon}.yaml"


def paper_settings(epsilon: str) -> dict[str, dict[str, Any]]:
    """method -> the papers' settings: the first ``start`` point of its space in the sweep spec."""
    doc = yaml.safe_load(spec_path(epsilon).read_text())
    settings = {}
    for method, space in doc["methods"].items():
        start = dict(space["start"][0])
        if isinstance(start.get("filter"), dict):
            start["filter"] = start["filter"]["preset"]
        settings[method] = start
    return settings


def tuned_record(epsilon: str) -> Path:
    return ROOT / "bench" / f"fmnist_tuned_eps{epsilon}.json"


def tuned_settings(epsilon: str) -> dict[str, dict[str, Any]]:
    """method -> the resolved parameters of its best finished trial in the sweep.

    Read from MLflow once, then kept in bench/fmnist_tuned_eps{ε}.json (committed, with the sweep's
    ε including tuning), so the tuned stage can run in a later session on another machine.
    """
    record = tuned_record(epsilon)
    if record.exists():
        return json.loads(record.read_text())["settings"]
    from dptune.spec import load_spec
    from dptune.sweep import find_parent_run
    from dptune.tracking import best_tradeoffs, client_for, logged_value

    spec = load_spec(spec_path(epsilon), base=ROOT)
    parent = find_parent_run(spec)
    if parent is None:
        raise SystemExit(f"no sweep {spec.name} in {spec.tracking_uri}: run --stage sweep first")
    client = client_for(spec.tracking_uri)
    settings, tuning = {}, {}
    for row in best_tradeoffs(client, spec.experiment, parent):
        settings[row.method] = {key: logged_value(text) for key, text in row.params.items()}
        tuning[row.method] = {
            "test_accuracy": row.test_accuracy,
            "epsilon_spent": row.epsilon_spent,
            "epsilon_including_tuning": row.epsilon_including_tuning,
            "tuning_bound": row.tuning_bound,
        }
    sweep_cost = client.get_run(parent).data.metrics.get("epsilon_including_tuning")
    record.write_text(
        json.dumps(
            {
                "sweep": spec.name,
                "settings": settings,
                "best_trials": tuning,
                "sweep_epsilon_including_tuning": sweep_cost,
            },
            indent=1,
        )
    )
    return settings


def run_one(job: dict[str, Any]) -> dict[str, Any]:
    """Train one (method, settings, seed) run with the sweep spec's defaults and cache its summary."""
    from dataclasses import replace

    import torch

    from dptune.spec import load_spec
    from dptune.train import Trainer
    from trainables.trial import TrialSettings, train_config

    torch.set_num_threads(1)
    spec = load_spec(spec_path(job["epsilon"]), base=ROOT)
    trial = TrialSettings(
        method=job["method"],
        dataset=spec.dataset,
        model=spec.model,
        epsilon=spec.epsilon,
        delta=spec.delta,
        accountant=spec.accountant,
        sampling=spec.sampling,
        training=spec.training,
        cpu=1,
        gpu=0,
    )
    settings = job["settings"]
    config = replace(train_config(trial, settings), seed=job["seed"])
    started = time.time()
    trainer = Trainer(config)
    trainer.fit()
    summary = trainer.summary() | {
        "protocol": job["protocol"],
        "wall_seconds": time.time() - started,
        "settings": settings,
    }
    Path(job["out"]).write_text(json.dumps(summary, indent=1))
    return summary


def probe_settings(epsilon: str) -> dict[str, dict[str, Any]]:
    """method -> the setting a hand probe beyond the sweep chose (bench/fmnist_lr_probe.json)."""
    return json.loads(PROBE.read_text())["settings"].get(epsilon, {})


SETTINGS = {"paper_settings": paper_settings, "tuned": tuned_settings, "lr_probe": probe_settings}


def jobs(epsilon: str, protocol: str) -> list[dict[str, Any]]:
    settings = SETTINGS[protocol](epsilon)
    RUNS.mkdir(parents=True, exist_ok=True)
    todo = []
    for method, values in settings.items():
        for seed in SEEDS:
            out = RUNS / f"{protocol}-{method}-eps{epsilon}-seed{seed}.json"
            if not out.exists():
                todo.append(
                    {
                        "epsilon": epsilon,
                        "method": method,
                        "settings": values,
                        "seed": seed,
                        "protocol": protocol,
                        "out": str(out),
                    }
                )
    return todo


def run_jobs(todo: list[dict[str, Any]], workers: int) -> None:
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for result in pool.map(run_one, todo):
            print(
                f"{result['protocol']:<15} {result['method']:<15} ε={result['epsilon_target']:g} "
                f"seed {result['seed']}: {100 * result['test_accuracy']:.2f}% "
                f"(ε spent {result['epsilon_spent']:.3f}, {result['wall_seconds']:.0f}s)",
                flush=True,
            )


def summarize() -> dict[str, Any]:
    """bench/fmnist_results.json: {METHOD: {EPS: {paper_settings: {...}, tuned: {...}}}} in percent;
    every cached run is also recorded (once) in the sweeps' MLflow experiment for ``dptune report``,
    and the plot of tuned accuracy against ε is written to bench/ and logged to the same experiment."""
    from dptune.protocol_runs import log_final_run, log_protocol_summary, plot_protocol_cells, protocol_cells
    from dptune.spec import load_spec
    from dptune.tracking import client_for

    spec = load_spec(spec_path("1"), base=ROOT)
    client = client_for(spec.tracking_uri)
    table: dict[str, Any] = {}
    for file in sorted(RUNS.glob("*.json")):
        run = json.loads(file.read_text())
        log_final_run(client, spec.experiment, file.stem, run)
        eps = f"{run['epsilon_target']:g}"
        cell = table.setdefault(run["method"], {}).setdefault(eps, {})
        entry = cell.setdefault(
            run["protocol"],
            {
                "seeds": [],
                "accuracies": [],
                "wall_seconds": [],
                "epsilon_spent": [],
                "params": run["settings"],
            },
        )
        entry["seeds"].append(run["seed"])
        entry["accuracies"].append(100 * run["test_accuracy"])
        entry["wall_seconds"].append(run["wall_seconds"])
        entry["epsilon_spent"].append(run["epsilon_spent"])
        entry["delta"], entry["accountant"], entry["sampling"] = (
            run["delta"],
            run["accountant"],
            run["sampling"],
        )
    for cells in table.values():
        for cell in cells.values():
            for entry in cell.values():
                accs = entry["accuracies"]
                entry["mean"] = statistics.fmean(accs)
                entry["sd"] = statistics.stdev(accs) if len(accs) > 1 else 0.0
    results = ROOT / "bench" / "fmnist_results.json"
    results.write_text(json.dumps(table, indent=1))
    write_results_section(table)
    cells = protocol_cells(client, spec.experiment)
    if any(cell.protocol == "tuned" for cell in cells):
        title = "Fashion-MNIST, cnn5, 10 epochs, tuned settings"
        plot_protocol_cells(cells, ["tuned", "lr_probe"], PLOT, title)
        log_protocol_summary(client, spec.experiment, "fmnist-reproduction", [PLOT, results])
    return table


PAPER = {  # DP-PMLF Table 3 (ResNet-18, 25 epochs, δ = 1/n): mean ± sd over 5 runs
    "dpsgd": {"1": "79.05 ± 0.08", "8": "79.00 ± 0.08"},
    "lp-dpsgd": {"1": "79.02 ± 0.11", "8": "79.02 ± 0.09"},
    "innerouter": {"1": "83.69 ± 0.15", "8": "83.93 ± 0.16"},
    "dp-pmlf": {"1": "83.30 ± 0.35", "8": "83.50 ± 0.32"},
}
SECTION = "## Fashion-MNIST reproduction"


def accuracy_text(entry: dict[str, Any]) -> str:
    return f"{entry['mean']:.2f} ± {entry['sd']:.2f} (n={len(entry['seeds'])})"


def settings_text(params: dict[str, Any]) -> str:
    from dptune.tracking import significant

    shown = sorted((k, v) for k, v in params.items() if not k.startswith("filter_"))
    return ", ".join(f"{k}={significant(v)}" for k, v in shown)


def tuning_costs(epsilons: set[str]) -> dict[tuple[str, str], str]:
    """(method, ε) -> ε including tuning of that method's search in the sweep at ε, from its record."""
    costs = {}
    for epsilon in epsilons:
        record = tuned_record(epsilon)
        if record.exists():
            for method, best in json.loads(record.read_text())["best_trials"].items():
                costs[method, epsilon] = f"{best['epsilon_including_tuning']:.2f}"
    return costs


def write_results_section(table: dict[str, Any]) -> None:
    """The reproduction table in bench/RESULTS.md (the section is replaced, the rest kept)."""
    lines = [
        SECTION,
        "",
        "cnn5, full Fashion-MNIST, 10 epochs, δ = 1e-5, RDP (Opacus), Poisson sampling; accuracy in % as",
        "mean ± sd over seeds (n); protocol in bench/reproduce_fmnist.md; per-run records in",
        "bench/fmnist_runs/ (ε spent, σ, wall time) and bench/fmnist_results.json.",
        "",
        "ε spent: the most any one run of the row spent; ε incl. tuning: the sweep's whole search for",
        "that method (bound: composition, as TPE and ASHA adapt), what releasing the tuned model costs.",
        "",
        "| method | ε | paper settings | tuned | tuned hyper-parameters | ε spent | ε incl. tuning | s / run "
        "| paper (ResNet-18) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    costs = tuning_costs({eps for cells in table.values() for eps in cells})
    for method in sorted(table):
        for eps in sorted(table[method], key=float):
            cell = table[method][eps]
            shown = {p: accuracy_text(c) for p, c in cell.items()}
            main = [entry for protocol, entry in cell.items() if protocol in ("paper_settings", "tuned")]
            lines.append(
                f"| {method} | {eps} | {shown.get('paper_settings', '–')} | {shown.get('tuned', '–')} | "
                f"{settings_text(cell.get('tuned', {}).get('params', {})) or '–'} | "
                f"{max(e for entry in main for e in entry['epsilon_spent']):.3f} | "
                f"{costs.get((method, eps), '–')} | "
                f"{statistics.fmean(s for entry in main for s in entry['wall_seconds']):.0f} | "
                f"{PAPER.get(method, {}).get(eps, '–')} |"
            )
    extra = [
        (method, eps, protocol, entry)
        for method in sorted(table)
        for eps in sorted(table[method], key=float)
        for protocol, entry in table[method][eps].items()
        if protocol not in ("paper_settings", "tuned")
    ]
    if extra:
        lines += [
            "",
            "Beyond the protocol (hand probes after the sweep, bench/fmnist_lr_probe.json; their runs add to",
            "the tuning cost):",
            "",
            "| method | ε | protocol | accuracy | settings | ε spent | ε incl. sweep and probe |",
            "|---|---|---|---|---|---|---|",
        ]
        probe_costs = {
            (method, eps): str(cost["value"])
            for eps, methods in json.loads(PROBE.read_text())["epsilon_including_tuning"].items()
            for method, cost in methods.items()
        }
        lines += [
            f"| {method} | {eps} | {protocol} | {accuracy_text(entry)} | {settings_text(entry['params'])} | "
            f"{max(entry['epsilon_spent']):.3f} | {probe_costs.get((method, eps), '–')} |"
            for method, eps, protocol, entry in extra
        ]
    lines += ["", f"![Tuned accuracy against ε, mean ± sd over seeds]({PLOT.name})"]
    out = ROOT / "bench" / "RESULTS.md"
    text = out.read_text() if out.exists() else "# Benchmark results\n\n"
    if SECTION in text:
        head, rest = text.split(SECTION, 1)
        tail = rest[rest.index("\n## ") :] if "\n## " in rest else ""
        text = head + "\n".join(lines) + "\n" + tail
    else:
        text = text.rstrip("\n") + "\n\n" + "\n".join(lines) + "\n"
    out.write_text(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--epsilon", choices=("1", "8"), required=True)
    parser.add_argument("--stage", choices=("paper", "sweep", "tuned", "probe", "summarize"), required=True)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    protocols = {"paper": "paper_settings", "tuned": "tuned", "probe": "lr_probe"}
    if args.stage in protocols:
        run_jobs(jobs(args.epsilon, protocols[args.stage]), args.workers)
    elif args.stage == "sweep":
        spec = spec_path(args.epsilon)
        resume = ["--resume"] if (ROOT / "ray_results" / spec.stem).exists() else []
        subprocess.run([sys.executable, "-m", "dptune.cli", "run", str(spec), *resume], cwd=ROOT, check=True)
        tuned_settings(args.epsilon)
    summarize()


if __name__ == "__main__":
    main()
