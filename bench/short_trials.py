"""Benchmark: how well a pipeline's short tuning trials rank configurations against the releases they stand
for, on validation only (the design question behind successive halving: do longer trials rank better?).

The task (bench/specs/short-trials.yaml, chosen before any run, not the evidence's): cnn5 on a 10,000-image
Fashion-MNIST subset, batch 250, 10 epochs, dpsgd-momentum with its documented default space, total ε = 4.
Its plan (dptune's planner, as ``dptune validate`` prints it) gives the tuning trials' per-run ε_t, subset
rate γ and epochs T_t, and the release's ε_B. ``CONFIGURATIONS`` configurations are drawn uniformly from
the default space (seed ``DRAW_SEED``: the configurations only; every run's noise is secret OS entropy),
and each is run with ``dptune train`` three ways, at its drawn step:

* **trial**: as the plan's tuning trial, T_t epochs at ε_t on the subset γ (what the selection reads);
* **longer trial**: ``LONGER``·T_t epochs at ``LONGER``·ε_t (the linear scaling rule: about the same noise
  per step; what a successive-halving rung after the first would read);
* **release**: T epochs at ε_B on the whole data (what the selection releases).

Reported, from validation accuracy alone (no final-test score is read or kept): the Spearman rank
correlation of each kind of trial with the releases; the release's validation accuracy of each kind's
best configuration against the best release (the selection's regret, in points); and the Spearman
correlation between the effective step and (release rank − trial rank), which is positive where trials
favour large steps (the short-horizon bias). These runs are research: none is released, and their
figures count no ε (the JSON keeps each run's own).

    python bench/short_trials.py --write       (about 6 minutes on 2 cores)
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
from results import cpu_name, fresh_process_env, write_section  # bench/ is on the path
from scatter_fmnist import dptune_process
from scipy.stats import spearmanr

from dptune.privacy.history import HistoryEntry
from dptune.privacy.pld import pld_epsilon
from dptune.sweep.pipeline import planned, tuning_run
from dptune.sweep.plan_runs import largest_fitting
from dptune.sweep.preflight import check_models
from dptune.sweep.spec import load_spec
from dptune.training.calibrated_run import calibrated_run
from dptune.training.config import RunConfig

ROOT = Path(__file__).resolve().parents[1]
SPEC = ROOT / "bench" / "specs" / "short-trials.yaml"
RECORD = ROOT / "bench" / "short_trials.json"
TITLE = "## Short tuning trials: how they rank against the releases they stand for"
CONFIGURATIONS = 24
DRAW_SEED = 0
LONGER = 3
"""How many times longer (in epochs and in ε) the longer trial is than the plan's tuning trial."""
KINDS = ("trial", "longer trial", "release")
PICKS = (2, 4, 8)
"""The k of the table of selections: the release's validation accuracy of the best of k configurations."""
SUBSETS = 20000  # random k-subsets of the configurations each best-of-k averages over


HALVINGS = ((8, 2), (8, 4))
"""Two rungs of successive halving: k configurations ranked by the trial, the best m of them by the
longer trial."""


def halved(first: np.ndarray, second: np.ndarray, released: np.ndarray, k: int, kept: int) -> float:
    """The mean release validation accuracy of successive halving's pick: of k configurations drawn at
    random, the ``kept`` best by ``first``, of which the best by ``second`` (as ``best_of`` draws)."""
    rng = np.random.default_rng(0)
    picked = []
    for _ in range(SUBSETS):
        subset = rng.choice(len(first), k, replace=False)
        top = subset[np.argsort(-first[subset], kind="stable")[:kept]]
        picked.append(released[top[np.argmax(second[top])]])
    return float(np.mean(picked))


def best_of(scores: np.ndarray, released: np.ndarray, k: int) -> float:
    """The mean release validation accuracy of the configuration ``scores`` ranks best among k drawn at
    random from all of them (``SUBSETS`` draws, a fixed seed: an analysis of recorded scores): one rung,
    ``halved`` keeping one."""
    return halved(scores, scores, released, k, 1)


def draw(space: Any, count: int, seed: int) -> list[dict[str, float]]:
    """``count`` configurations drawn uniformly from ``space``'s loguniform and uniform knobs."""
    rng = np.random.default_rng(seed)
    drawn = []
    for _ in range(count):
        config = {}
        for name, dist in space.knobs.items():
            low, high = dist.args
            if dist.kind == "loguniform":
                config[name] = float(math.exp(rng.uniform(math.log(low), math.log(high))))
            elif dist.kind == "uniform":
                config[name] = float(rng.uniform(low, high))
            else:
                raise SystemExit(f"short_trials: knob {name} is {dist.kind}, not drawn here")
        drawn.append(config)
    return drawn


def arguments(
    run: RunConfig, config: dict[str, float], epochs: int, epsilon: float, accountant: str, fraction: float
) -> list[str]:
    """``dptune train`` arguments of one run of ``config`` on the spec's task (``run``: its shared run)."""
    args = [
        "train", "--method", "dpsgd-momentum", "--dataset", run.dataset, "--model", run.model,
        "--subset", str(run.subset), "--batch-size", str(run.batch_size), "--delta", f"{run.delta:g}",
        "--epochs", str(epochs), "--epsilon", repr(epsilon), "--accountant", accountant,
        "--effective-lr", repr(config["effective_lr"]), "--clip", repr(config["clip"]),
        "--param", f"momentum={config['momentum']!r}", "--json",
    ]  # fmt: skip
    return args + (["--proxy-fraction", repr(fraction)] if fraction < 1 else [])


def validation(args: list[str]) -> dict[str, Any]:
    """One ``dptune train`` run in a fresh process: its validation accuracy (%), ε and σ."""
    done = dptune_process(*args, cwd=ROOT, env=fresh_process_env(ROOT) | {"OMP_NUM_THREADS": "1"})
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "failed"}
    result = json.loads(done.stdout.strip().splitlines()[-1])
    return {
        "validation_accuracy": 100 * result["validation_accuracy"],
        "epsilon": result["epsilon"],
        "noise_multiplier": result["noise_multiplier"],
        "steps": result["steps"],
    }


def rung_names(k: int, kept: int) -> tuple[str, str]:
    """The record's names of a matched halving's two rungs."""
    return f"halving {k} to {kept}: rung 1", f"halving {k} to {kept}: rung 2"


def matched_epsilon(
    base: RunConfig, n: int, epochs: int, halving: tuple[int, int], target: float, delta: float
) -> float:
    """The per-run ε' of successive halving's first rung (k trials of ``epochs`` at ε', ``halving`` = (k,
    kept)) whose second rung (``kept`` trials of ``LONGER``·``epochs`` at ``LONGER``·ε') makes the two
    compose by PLD to at most the plan's tuning stage (``target``): the same ε as the plan's one rung,
    spent on two."""

    def ledger(length: int, epsilon: float) -> list[HistoryEntry]:
        return list(calibrated_run(replace(base, epochs=length, epsilon=epsilon), n).ledger)

    k, kept = halving

    def fits(epsilon: float) -> bool:
        both = ledger(epochs, epsilon) * k + ledger(LONGER * epochs, LONGER * epsilon) * kept
        return pld_epsilon(both, delta) <= target

    return largest_fitting(fits, 0.01, base.epsilon)


def run_all(previous: dict[str, Any] | None) -> dict[str, Any]:
    """Every run of the record: those ``previous`` holds are kept, the rest run (a record from before the
    matched halvings gains them)."""
    spec = load_spec(str(SPEC))
    n = check_models(spec.shared, spec.models)
    (plan,) = planned(spec, n) or []
    (pair,) = plan.epochs
    release_epochs, trial_epochs = pair
    tuning, release = plan.tuning, plan.release
    configs = draw(spec.methods["dpsgd-momentum"], CONFIGURATIONS, DRAW_SEED)
    base = tuning_run(spec.runs["dpsgd-momentum"], plan)
    subset = (tuning.accountant, tuning.fraction)
    runs = {
        "trial": (trial_epochs, tuning.per_run_epsilon, *subset),
        "longer trial": (LONGER * trial_epochs, LONGER * tuning.per_run_epsilon, *subset),
        "release": (release_epochs, release.per_run_epsilon, release.accountant, 1.0),
    }
    matched = {}
    for k, kept in HALVINGS:
        epsilon = matched_epsilon(base, n, trial_epochs, (k, kept), tuning.epsilon, plan.delta)
        first, second = rung_names(k, kept)
        matched[f"{k} to {kept}"] = epsilon
        runs[first] = (trial_epochs, epsilon, *subset)
        runs[second] = (LONGER * trial_epochs, LONGER * epsilon, *subset)
    results: list[dict[str, Any]] = (previous or {}).get("runs") or [{"configuration": c} for c in configs]
    if [r["configuration"] for r in results] != configs:
        raise SystemExit("short_trials: the record's configurations are not this draw's")
    jobs = [(i, kind) for i in range(len(configs)) for kind in runs if kind not in results[i]]
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
        found = list(
            pool.map(lambda job: validation(arguments(spec.shared, configs[job[0]], *runs[job[1]])), jobs)
        )
    for (i, kind), outcome in zip(jobs, found, strict=True):
        results[i][kind] = outcome
        print(i, kind, outcome, flush=True)
    return {
        "date": dt.date.today().isoformat(),
        "machine": f"{os.cpu_count()} cores, {cpu_name()}",
        "command": "python bench/short_trials.py --write",
        "spec": str(SPEC.relative_to(ROOT)),
        "plan": {
            "tuning_epsilon": tuning.per_run_epsilon,
            "tuning_stage_epsilon": tuning.epsilon,
            "subset_fraction": tuning.fraction,
            "trial_epochs": trial_epochs,
            "release_epochs": release_epochs,
            "release_epsilon": release.per_run_epsilon,
            "accountant": tuning.accountant,
        },
        "matched_first_rung_epsilon": matched,
        "longer": LONGER,
        "draw_seed": DRAW_SEED,
        "runs": results,
    }


def scores_of(runs: list[dict[str, Any]], kind: str) -> np.ndarray:
    """The validation accuracy (%) of every configuration's run of ``kind``."""
    return np.array([r[kind]["validation_accuracy"] for r in runs])


def section(record: dict[str, Any]) -> str:
    plan = record["plan"]
    done = [r for r in record["runs"] if all("validation_accuracy" in r[k] for k in KINDS)]
    released = scores_of(done, "release")
    steps = np.array([r["configuration"]["effective_lr"] for r in done])
    rows = []
    for kind in KINDS[:2]:
        scores = scores_of(done, kind)
        rho, p = spearmanr(scores, released)
        pick = int(np.argmax(scores))
        trial_rank = np.argsort(np.argsort(-scores))
        release_rank = np.argsort(np.argsort(-released))
        bias, bias_p = spearmanr(steps, release_rank - trial_rank)
        rows.append(
            f"| {kind} | {plan['trial_epochs'] * (LONGER if kind != 'trial' else 1)} of "
            f"{plan['release_epochs']} | {plan['tuning_epsilon'] * (LONGER if kind != 'trial' else 1):.3g} | "
            f"{rho:+.2f} ({p:.3f}) | {int(release_rank[pick]) + 1} of {len(done)} | "
            f"{released[pick]:.2f} | {released.max() - released[pick]:.2f} | {bias:+.2f} ({bias_p:.3f}) |"
        )
    picks = [
        f"| {kind} | " + " | ".join(f"{best_of(scores, released, k):.2f}" for k in PICKS) + " |"
        for kind, scores in (
            *((kind, scores_of(done, kind)) for kind in KINDS[:2]),
            ("release (uncounted: an oracle)", released),
        )
    ]
    trials, longer = (scores_of(done, kind) for kind in KINDS[:2])
    matched_rows = [
        f"| one rung: best of 8 by the plan's trial | 8 × {plan['trial_epochs']} epoch at "
        f"{plan['tuning_epsilon']:.3g} | – | {best_of(trials, released, 8):.2f} |"
    ]
    for k, kept in HALVINGS:
        first, second = rung_names(k, kept)
        if not all("validation_accuracy" in r.get(kind, {}) for r in done for kind in (first, second)):
            continue
        epsilon = record["matched_first_rung_epsilon"][f"{k} to {kept}"]
        rung_scores = (scores_of(done, first), scores_of(done, second))
        matched_rows.append(
            f"| halving {k} → {kept} | {k} × {plan['trial_epochs']} at {epsilon:.3g} | {kept} × "
            f"{LONGER * plan['trial_epochs']} at {LONGER * epsilon:.3g} | "
            f"{halved(*rung_scores, released, k, kept):.2f} |"
        )
    halvings = [
        f"- of {k} by the trial, the best {kept} then by the longer trial: "
        f"{halved(trials, longer, released, k, kept):.2f}"
        for k, kept in HALVINGS
    ]
    return "\n".join(
        [
            TITLE,
            "",
            f"`{record['command']}`, {record['date']}, {record['machine']}; {record['spec']} (cnn5, "
            "Fashion-MNIST 10,000-image subset, batch 250, dpsgd-momentum's default space, total ε = 4): the "
            f"plan's tuning trial runs {plan['trial_epochs']} of {plan['release_epochs']} epochs at ε_t = "
            f"{plan['tuning_epsilon']:.3g} on γ = {plan['subset_fraction']:g}, the release at ε_B = "
            f"{plan['release_epsilon']:.3g}. {len(done)} configurations drawn uniformly (seed "
            f"{record['draw_seed']}), each run as the trial, as a trial {record['longer']}× longer at "
            f"{record['longer']}× the ε, and as the release, at its drawn step; validation accuracy only "
            "(no final-test score is read). Research runs: none is released, and no ε counts them.",
            "",
            "| ranked by | epochs | per-run ε | Spearman ρ with the releases (p) | its best: release rank "
            "| its release % | regret (points) | ρ(step, release rank − trial rank) (p) |",
            "|---|---|---|---|---|---|---|---|",
            *rows,
            "",
            "The release's validation accuracy (%) of the best of k configurations drawn at random from "
            f"these, as each ranks them (mean over {SUBSETS:,} draws of k; one configuration at random: "
            f"{float(np.mean(released)):.2f}, the mean release):",
            "",
            "| ranked by | " + " | ".join(f"best of {k}" for k in PICKS) + " |",
            "|---|" + "---|" * len(PICKS),
            *picks,
            "",
            "Successive halving at the plan's own tuning ε (its two rungs compose by PLD to the one rung's "
            f"{plan.get('tuning_stage_epsilon', float('nan')):.3f}; rung runs of their own, the same "
            "configurations), against the plan's one rung, by the release's validation accuracy (%) of its "
            f"pick (mean over {SUBSETS:,} draws of 8 of the configurations):",
            "",
            "| tuning | first rung (trials × epochs at per-run ε) | second rung | release % |",
            "|---|---|---|---|",
            *matched_rows,
            "",
            "Over the first runs' scores instead (the rungs' ε not matched: the longer trial at 3ε_t):",
            "",
            *halvings,
            "",
            f"Best release: {released.max():.2f}% validation; median {float(np.median(released)):.2f}%. "
            "The last column is positive where the trials rank large steps above where their releases "
            "land (the short-horizon bias). Every run's configuration, ε and score: bench/short_trials.json.",
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="write the section of bench/RESULTS.md")
    parser.add_argument("--table", action="store_true", help="only write the table from the record")
    args = parser.parse_args()
    if not args.table:
        previous = json.loads(RECORD.read_text()) if RECORD.exists() else None
        RECORD.write_text(json.dumps(run_all(previous), indent=1) + "\n")
    text = section(json.loads(RECORD.read_text()))
    print(text)
    if args.write:
        write_section(ROOT / "bench" / "RESULTS.md", TITLE, text)


if __name__ == "__main__":
    main()
