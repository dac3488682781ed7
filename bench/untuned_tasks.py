"""Tuning that pays for itself on a task nobody tuned: released models at a total ε that includes their
tuning, on (model, data) pairs without a published setting, against three baselines at the same total.

**Tasks, chosen on 2026-11-28 before any of their runs** (specs in bench/specs/untuned/, each method
with its documented default space, ``dptune.sweep.default_spaces``, and no start point):

* ``cnn5``: Tramèr & Boneh's tanh CNN on a 20,000-image Fashion-MNIST subset, batch 512, 10 epochs,
  ``dpsgd-momentum``: the data and schedule of the task on which an earlier plan was a coin toss
  (45.9% and 73.6% from one spec). Nobody published a setting for this subset, batch and length; the
  published cnn5 setting (batch 2048, 40 epochs, the whole data) is not used.
* ``mlp``: dptune's two-layer tanh MLP (784-64-32-10) on the same subset, batch 512, 10 epochs,
  ``dpsgd``: a small network of our own, never tuned on Fashion-MNIST by anyone.

Totals 2 and 8, δ = 1e-5, 8 tuning trials. Per cell (task, total), each executed ``EXECUTIONS`` times
with fresh randomness, every command run from the repository (its last stdout line read):

    pipeline           dptune run bench/specs/untuned/TASK.yaml --epsilon E
    pipeline_halving   dptune run bench/specs/untuned/TASK-halving.yaml --epsilon E   (the same with a
                       second rung: the best 2 of 8 trials trained again 3× as long at the same noise,
                       ``budget.promoted_trials``; chosen before its runs)
    untuned_default    dptune train --method M … --epsilon E --accountant pld --json   (the method's
                       documented defaults: lr 0.5, clip 1, momentum 0.6; one run at the total)
    repeat_and_select  dptune run bench/specs/untuned/TASK-repeat-and-select.yaml --epsilon E
    oracle             dptune run bench/specs/untuned/TASK-oracle.yaml --epsilon E   (per-run: 24 trials
                       at ε = E each, not counted; its selection's 3 re-runs are the 3 executions)

The tuning tax is oracle − pipeline; the gain is pipeline − untuned default. A finished execution's
released results are kept in bench/untuned_tasks.json at once (an interrupted one left nothing and runs
again whole); ``--write`` puts the table in bench/RESULTS.md.

    python bench/untuned_tasks.py --task cnn5 --epsilon 2 --write
"""

from __future__ import annotations

import argparse
import collections
import datetime as dt
import json
import math
import shutil
import statistics
import subprocess
import time
from pathlib import Path
from typing import Any

from results import (
    drawn_count,
    fresh_process_env,
    machine,
    secret_count,
    write_section,
)  # bench/ is on the path
from scatter_fmnist import dptune, dptune_process, failure

from dptune.cli.arguments import EXIT_NO_RESULT

ROOT = Path(__file__).resolve().parents[1]
RECORD = ROOT / "bench" / "untuned_tasks.json"
SCRATCH = ROOT / "bench" / ".runs" / "untuned"
SPECS = "bench/specs/untuned"
EXECUTIONS = 3
TASKS = {
    "cnn5": {"method": "dpsgd-momentum", "model": "cnn5"},
    "mlp": {"method": "dpsgd", "model": "mlp"},
}
TRAINING = {"subset": 20000, "batch_size": 512, "epochs": 10}
TITLE = "## Tuning that pays for itself on tasks nobody tuned"
GOALS = "pipeline ≥ untuned default + 3 and > repeat-and-select, each by more than 2 standard errors; tax ≤ 1"


def commands(task: str, epsilon: float) -> dict[str, list[str]]:
    method, model = TASKS[task]["method"], TASKS[task]["model"]
    spec = f"{SPECS}/{task}"
    train = ["train", "--method", method, "--model", model, "--epsilon", f"{epsilon:g}", "--delta", "1e-5"]
    train += ["--subset", str(TRAINING["subset"]), "--batch-size", str(TRAINING["batch_size"])]
    train += ["--epochs", str(TRAINING["epochs"]), "--accountant", "pld", "--json"]
    runs = spec_runs(spec, epsilon, {"pipeline": "", "pipeline_halving": "-halving"})
    return runs | {"untuned_default": train} | spec_runs(spec, epsilon, BASELINE_SPECS)


BASELINE_SPECS = {"repeat_and_select": "-repeat-and-select", "oracle": "-oracle"}
"""The baselines' rows of a campaign, each the suffix of its spec's name."""


def spec_runs(spec: str, epsilon: float, suffixes: dict[str, str]) -> dict[str, list[str]]:
    """Each row's ``dptune run`` of the spec ``spec`` + its suffix (``.yaml``) at the total ``epsilon``."""
    return {
        name: ["run", f"{spec}{suffix}.yaml", "--epsilon", f"{epsilon:g}"]
        for name, suffix in suffixes.items()
    }


NOTHING: dict[str, Any] = {
    "final_test_accuracy": None,
    "epsilon": None,
    "delta": None,
    "released": "nothing: the search ran to its end and released no model (its ε spent as planned)",
}
"""An execution that ran to its end and released no model (``last_line``): kept, never run again."""


def last_line(done: subprocess.CompletedProcess[str]) -> dict[str, Any] | None:
    """The JSON last line of a dptune command that ran to its end, whatever its exit status: 0, or, for a
    ``dptune run`` (its releases, ``release_json``), ``EXIT_NO_RESULT`` where some method had no trial that
    trained or a trial was lost, with or without a model (a secret Poisson count draws none with
    probability e^{−μ}); None where it did not end (an interruption, a crash)."""
    lines = done.stdout.strip().splitlines()
    if not lines or not lines[-1].startswith("{"):
        return None
    if done.returncode == 0 or (done.returncode == EXIT_NO_RESULT and '"releases"' in lines[-1]):
        last: dict[str, Any] = json.loads(lines[-1])
        return last
    return None


def released(runs: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The executions of ``runs`` that released a model (a row's mean, sd and ε are theirs)."""
    return [e for e in runs if e["final_test_accuracy"] is not None]


def execute(args: list[str], folder: Path) -> list[dict[str, Any]]:
    """One execution in a fresh ``folder``: the released model's accuracy and (ε, δ) (the oracle: each
    re-run of its selection, the best on validation across methods, from ``dptune report``), and its
    wall time; of a search whose trial count is secret (``results.secret_count``: repeat-and-select's),
    no time: it would tell the count, which the search's ε assumes secret. A spec is copied into
    ``folder`` first, so that its store and Tune results (beside it) are the execution's own. A search that
    ran to its end and released no model is a finished execution (``NOTHING``), never run again: a second
    run on the same data is a mechanism the row's ε does not count; any other failure ends the campaign,
    and that execution, which left nothing, runs again whole, except a search whose count is secret: an
    interruption is likelier the larger its count, so a fresh draw after one would condition the count on
    the clock; it is resumed instead (``--resume`` keeps the count it drew, from its private state)."""
    withhold_time = secret_count(args, ROOT)
    resume = withhold_time and any(folder.glob("*/*/private_state.json"))
    if not resume:
        shutil.rmtree(folder, ignore_errors=True)
        folder.mkdir(parents=True)
    located = [str(shutil.copy(ROOT / a, folder)) if a.endswith(".yaml") else a for a in args]
    located += ["--resume"] if resume else []
    started = time.time()
    done = dptune_process(*located, cwd=folder, env=fresh_process_env(ROOT))
    (folder / "output.log").write_text(done.stdout + done.stderr)
    wall = None if withhold_time else round(time.time() - started, 1)
    if "oracle" in args[1] and done.returncode == 0:
        return oracle_rows(folder, wall)
    last = last_line(done)
    if last is None:
        raise SystemExit(failure(done))
    if last.get("releases") == []:
        return [NOTHING | {"wall_seconds": wall}]
    return [{k: last[k] for k in ("final_test_accuracy", "epsilon", "delta")} | {"wall_seconds": wall}]


def oracle_rows(folder: Path, wall: float | None) -> list[dict[str, Any]]:
    """The per-run oracle's executions from its sweep in ``folder`` (``dptune report``): each re-run of its
    selection, the best on validation across methods."""
    report = json.loads(dptune("report", "--json", cwd=folder, env=fresh_process_env(ROOT)))
    rerun = [r for r in report["best_tradeoffs"] if r["test_accuracies"]]
    row = max(rerun, key=lambda r: r["validation_accuracy"])  # across methods, on validation
    return [
        {
            "final_test_accuracy": 100 * a if a <= 1 else a,
            "per_run_epsilon": row["epsilon_target"],
            "epsilon_including_tuning": row["epsilon_including_tuning"],
            "delta": row["delta"],
            "wall_seconds": wall,
            "selected": row["params"],
        }
        for a in row["test_accuracies"]
    ]


def code_version(record: Path) -> str:
    """The commit a row's executions run: the tree but the campaign's ``record`` and results clean, so
    that a row runs what is committed."""
    mine = [f":!{record.relative_to(ROOT)}", ":!bench/RESULTS.md"]
    status = ["git", "status", "--porcelain", "--untracked-files=no", "--", ".", *mine]
    if subprocess.run(status, cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip():
        raise SystemExit("bench: commit the working tree first: a row records the commit it ran")
    head = ["git", "rev-parse", "--short", "HEAD"]
    return subprocess.run(head, cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()


def run_cell(
    record_file: Path,
    task: str,
    epsilon: float,
    rows: dict[str, list[str]],
    executions: int,
    scratch: Path,
    inputs: dict[str, str] | None = None,
) -> None:
    """Each of the cell's ``rows`` (a name and its dptune command) executed ``executions`` times, each
    finished execution's released results kept in ``record_file`` at once (an interrupted one left nothing
    and runs again whole, with fresh randomness); each execution runs in a fresh folder under ``scratch``
    and records beside its results the commit and the machine it ran on, and ``inputs`` (what it read that
    the commit does not fix, by hash)."""
    record = json.loads(record_file.read_text()) if record_file.exists() else {}
    cell = record.setdefault(task, {}).setdefault(f"{epsilon:g}", {})
    for name, args in rows.items():
        if name not in cell:
            cell[name] = {"executions": [], "code": code_version(record_file)}
        entry = cell[name]
        entry["command"] = ".venv/bin/dptune " + " ".join(args)
        while len(entry["executions"]) < executions:
            index = len(entry["executions"])
            print(f"{task} ε={epsilon:g} {name} execution {index + 1}/{executions} …", flush=True)
            code = code_version(record_file)
            folder = scratch / f"{task}-eps{epsilon:g}" / f"{name}-{index}"
            results = execute(args, folder)
            first = entry["code"].split(", ")[0]  # executions recorded before each kept its own
            ran = {"code": code, "machine": machine()}
            entry["executions"] += [result | ran | (inputs or {}) for result in results]
            entry["code"] = ", ".join(dict.fromkeys(e.get("code", first) for e in entry["executions"]))
            entry |= summary(entry["executions"])
            record_file.write_text(json.dumps(record, indent=1) + "\n")
            print("  " + ", ".join(map(shown_accuracy, results)), flush=True)


def summary(runs: list[dict[str, Any]]) -> dict[str, float | None]:
    """The mean and sd (None below two) of the final-test accuracies of ``runs``' released models."""
    accuracies = [e["final_test_accuracy"] for e in released(runs)]
    return {
        "mean": statistics.fmean(accuracies) if accuracies else None,
        "sd": statistics.stdev(accuracies) if len(accuracies) > 1 else None,
    }


def shown_mean(entry: dict[str, Any]) -> str:
    """A row's mean as the tables show it: over its released models, "–" where it has none."""
    return "–" if entry["mean"] is None else f"{entry['mean']:.2f}"


def shown_accuracy(execution: dict[str, Any]) -> str:
    """An execution's final-test accuracy as the tables show it, or that it released no model."""
    accuracy = execution["final_test_accuracy"]
    return "no model released" if accuracy is None else f"{accuracy:.2f}"


def difference(a: dict[str, Any], b: dict[str, Any]) -> tuple[float, float] | None:
    """(mean of row ``a`` − mean of row ``b``, its standard error); None where either released no model."""
    if a["mean"] is None or b["mean"] is None:
        return None
    return a["mean"] - b["mean"], standard_error(a, b)


def standard_error(a: dict[str, Any], b: dict[str, Any]) -> float:
    """The standard error of the difference of two means of executions."""
    return float(
        (a["sd"] ** 2 / len(released(a["executions"])) + b["sd"] ** 2 / len(released(b["executions"]))) ** 0.5
        if a.get("sd") is not None and b.get("sd") is not None
        else float("nan")
    )


PIPELINES = ("pipeline", "pipeline_halving")
"""The rows each held to the goals against the baselines."""


def verdict(cell: dict[str, Any], row: str) -> str:
    pipe = cell.get(row)
    if not pipe or len(pipe["executions"]) < EXECUTIONS:
        return f"{row} not finished"
    if pipe["mean"] is None:
        return f"{row}: no model released"
    parts = []
    for name, need in (("untuned_default", 3.0), ("repeat_and_select", 0.0)):
        base = cell.get(name)
        if not base or len(base["executions"]) < EXECUTIONS:
            parts.append(f"{name}: not run")
            continue
        compared = difference(pipe, base)
        if compared is None:
            parts.append(f"{name}: no model released")
            continue
        gain, error = compared
        met = gain >= need and gain > 2 * error
        parts.append(f"over {name} {gain:+.2f} (2 SE {2 * error:.2f}): {'met' if met else 'not met'}")
    one_rung = cell.get("pipeline")
    if row != "pipeline" and one_rung and len(one_rung["executions"]) >= EXECUTIONS:
        compared = difference(pipe, one_rung)
        parts.append(
            "against the one-rung pipeline: no model released"
            if compared is None
            else f"against the one-rung pipeline {compared[0]:+.2f} (2 SE {2 * compared[1]:.2f})"
        )
    oracle, default = cell.get("oracle"), cell.get("untuned_default")
    if oracle and oracle["executions"]:
        tax = oracle["mean"] - pipe["mean"]
        parts.append(f"tax {tax:+.2f}: {'met' if tax <= 1 else 'not met'}")
        if default and default["executions"]:
            parts.append(f"headroom (oracle − untuned default) {oracle['mean'] - default['mean']:+.2f}")
    return "; ".join(parts)


COUNT_TOLD = (
    "- repeat_and_select's ε: its bound holds while the count K stays secret. Until 2026-12-02 these records "
    "published each execution's wall time, which grows with K, and since then each execution's results "
    "were committed as it ended, between rows whose wall times are published, so the commits' times bound "
    "its duration: every execution's ε is restated with K told (`python bench/released_counts.py`: K runs "
    "and the release, composed over K's law, each plan rebuilt at the commit that ran it). Their accuracies "
    "are still those of the searches as designed, which the verdicts compare"
)
"""Why some repeat-and-select rows state two figures, in each campaign's section."""


def run_again(record: dict[str, Any]) -> str:
    """Why repeat-and-select's executions in ``record`` (task → total → row) recorded before commit f22f613
    hold at a larger δ, for a campaign whose Poisson counts share one mean μ and whose executions one δ (its
    specs' and records'; a campaign with several would need a line per pair).

    A Poisson(μ) count draws no trial with probability c = e^{−μ}, and such a search touches no data and
    releases nothing; a campaign that ran it again until it released a model ran a search whose count is
    Poisson(μ) given K ≥ 1, where no other outcome releases nothing (a search whose every trial failed also
    ends so, and a run after that is a second run on the data, which this does not cover). Neighbours'
    output laws are then the Poisson search's, less its no-trial outcome (the same mass c on both), divided
    by 1 − c, so at each order λ
    e^{(λ−1)ε'_λ} ≤ (e^{(λ−1)D_λ} − c)/(1 − c) ≤ e^{(λ−1)ε_λ}/(1 − c), the same for the count-told curve's
    Σ_k P[K = k | K ≥ 1]·e^{(λ−1)k·ε_λ}: ε'_λ ≤ ε_λ + log(1/(1 − c))/(λ − 1), and δ enters the conversion
    (``rdp_to_epsilon``) only as −log δ/(λ − 1), so each stated (ε, δ) holds at δ/(1 − c)."""
    entries = row_entries(record)
    counts = [drawn_count(entry["command"].split()[1:], ROOT) for entry in entries]
    drawn = [(entry, count) for entry, count in zip(entries, counts, strict=True) if count is not None]
    (mean,) = {count.mean for _, count in drawn if count.distribution == "poisson"}
    (delta,) = {e["delta"] for entry, _ in drawn for e in released(entry["executions"])}
    widened = delta / (1 - math.exp(-mean))
    return (
        "- repeat_and_select's executions recorded before commit f22f613: the campaign then ran again, whole "
        "and with a fresh count, any execution that ended without a model or did not end. A search whose "
        f"Poisson count (mean {mean:g}) draws no trial, with probability e^-{mean:g}, ends without a model "
        "and without touching the data; run again until it released, its count is Poisson given K ≥ 1, so "
        f"each of its figures holds at δ {widened:.5g} in place of {delta:g} (`bench/untuned_tasks.py`, "
        "`run_again`). A search whose every trial failed also ends without a model, and one interrupted at a "
        "session's end was run again whole; a run after either is a second search on the data, counted where "
        "the record names it (`interrupted_before`, as a whole second search), and the records cannot tell "
        "whether others were. Since then an execution that ran to its end is kept, with or without a model "
        "(`no model released`), and an interrupted one whose count is secret is resumed with the count it "
        "drew"
    )


def row_bound(runs: list[dict[str, Any]]) -> str:
    """The ε (δ) of a row's models: each execution's, or the larger one where its record told a secret
    trial count (``epsilon_count_told``: bench/released_counts.py)."""
    runs = released(runs)
    if not runs:
        return "no model released"
    bound = f"{max(e.get('epsilon_count_told', e['epsilon']) for e in runs):.3f} ({runs[0]['delta']:g})"
    if any("epsilon_count_told" in e for e in runs):
        secret = max(e["epsilon"] for e in runs)
        bound += f", its count told by the records' times ({secret:.3f} had it stayed secret)"
    return bound


def row_entries(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Every row's entry in ``record``, across its tasks and totals."""
    return [entry for cells in record.values() for cell in cells.values() for entry in cell.values()]


def machines_line(record: dict[str, Any]) -> str:
    """Where the executions in ``record`` ran (``run_cell`` records each one's machine) and how many
    ran on each."""
    entries = row_entries(record)
    seen = collections.Counter(e.get("machine") for entry in entries for e in entry["executions"])
    ran = [f"{name}: {n}" for name, n in seen.most_common() if name is not None]
    unknown = [f"not recorded (run before executions recorded it): {seen[None]}"] if seen[None] else []
    return "executions by machine: " + "; ".join(ran + unknown)


def result_rows(record: dict[str, Any]) -> list[str]:
    """A Markdown table of every execution in ``record`` (task → total → row), a line per row."""
    lines = [
        "| task | total ε | row | final test % (executions) | mean ± sd | ε (δ) of the model | command | "
        "commit |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for task, cells in record.items():
        for total, cell in cells.items():
            for name, entry in cell.items():
                runs = entry["executions"]
                accuracies = ", ".join(map(shown_accuracy, runs))
                sd = f" ± {entry['sd']:.2f}" if entry.get("sd") is not None else ""
                if name == "oracle":
                    bound = f"not a bound (per run {runs[0]['per_run_epsilon']:g}, tuning not counted)"
                else:
                    bound = row_bound(runs)
                lines.append(
                    f"| {task} | {total} | {name} | {accuracies} | {shown_mean(entry)}{sd} | {bound} | "
                    f"`{entry['command']}` | {entry.get('code', '')} |"
                )
    return lines


def table(record: dict[str, Any]) -> str:
    lines = [
        TITLE,
        "",
        f"- written on {dt.date.today()} on {machine()}; {machines_line(record)}; command: "
        "`python bench/untuned_tasks.py --task TASK --epsilon E --write` (each row's command "
        "below); tasks, spaces and defaults chosen before any run (the script's docstring)",
        f"- goals: {GOALS}",
        "- pipeline_scaled_step: the pipeline as it ran up to commit 49d64c4, whose release took the "
        "selected trial's step times (ε_B/ε_t)·(T_t/T) for the rounding of T_t (by the plans: ×1.03 "
        "and ×1.5 for cnn5 at totals 2 and 8, ×1.11 and ×0.79 for mlp); pipeline: the release takes the "
        "step its trial was scored at (docs/privacy.md says why), from commit f05f212 on",
        COUNT_TOLD,
        run_again(record),
        "",
        *result_rows(record),
    ]
    verdicts = [
        f"- {task}, total ε = {total}, {row}: {verdict(cell, row)}"
        for task, cells in record.items()
        for total, cell in cells.items()
        for row in PIPELINES
    ]
    return "\n".join([*lines, "", *verdicts]) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", choices=tuple(TASKS), required=True)
    parser.add_argument("--epsilon", type=float, choices=(2.0, 8.0), required=True)
    parser.add_argument("--executions", type=int, default=EXECUTIONS)
    parser.add_argument("--write", action="store_true", help="write the table into bench/RESULTS.md")
    args = parser.parse_args()
    run_cell(RECORD, args.task, args.epsilon, commands(args.task, args.epsilon), args.executions, SCRATCH)
    record = json.loads(RECORD.read_text())
    print(table(record))
    if args.write:
        write_section(ROOT / "bench" / "RESULTS.md", TITLE, table(record))


if __name__ == "__main__":
    main()
