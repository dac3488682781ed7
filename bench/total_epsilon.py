"""Released models at a total ε that includes their tuning, on Fashion-MNIST (δ = 1e-5), against two
baselines at the same total: no tuning, and repeat-and-select.

A cell is one (model, total ε). Every execution is one command a user runs from a fresh clone, in a
fresh folder here (``bench/.runs/``, ignored: its Ray results and private state stay on this machine),
whose last stdout line is a JSON object with the released model's ``final_test_accuracy`` (%),
``epsilon`` and ``delta`` (what its privacy card states):

    methods            dptune run sweeps/total/MODEL.yaml --epsilon E --method M      (tuning + release)
    one model          dptune run sweeps/total/MODEL.yaml --epsilon E --release one   (every method's
                       tuning, as many trials per method as the planner spreads, the best selection
                       on validation released once: one card for all)
    one model, halving the same with --promoted-trials 2 (each method's best 2 trials trained again 3×
                       as long, the release chosen among them; at totals 3 and 8: at 1 the planner
                       refuses it, its smallest total being 1.6)
    no_tuning          dptune train … --json    (Tramèr & Boneh's published setting, one run at E)
    no_tuning_ema      the same with --ema μ    (where the spec's training sets ema μ: what tuning adds)
    repeat_and_select  dptune run sweeps/total/MODEL-repeat-and-select.yaml --epsilon E

Each is executed ``EXECUTIONS`` times with fresh randomness. A finished execution's released results
(accuracy, ε, δ, the plan from its card, the configuration it trained with, wall time, trial-hours) are
kept in bench/total_epsilon.json at once, so the campaign stops anywhere and continues on a fresh clone;
an interrupted execution left nothing and is run again whole. ``--write`` puts the table in bench/RESULTS.md.

    python bench/total_epsilon.py --model scatter-linear --epsilon 3 --write
"""

from __future__ import annotations

import argparse
import json
import math
import re
import shlex
import shutil
import statistics
import time
from pathlib import Path
from typing import Any

import yaml
from results import cpu_name, fresh_process_env, secret_count, write_section  # bench/ is on the path
from scatter_fmnist import dptune

from dptune.tracking.mlflow_setup import quiet_mlflow

ROOT = Path(__file__).resolve().parents[1]
RECORD = ROOT / "bench" / "total_epsilon.json"
SCRATCH = ROOT / "bench" / ".runs"
EXECUTIONS = 3
DELTA = 1e-5
MODELS = ("scatter-linear", "cnn5")
"""The models of the evidence, each with its spec sweeps/total/MODEL.yaml, whose methods are its pipelines."""
FIXED = {"method": "innerouter (k = 1, β = 0: heavy ball)", "momentum": 0.9, "clip": 0.1, "epochs": 40}
NO_TUNING_ACCOUNTANT = "pld"
"""The no-tuning run calibrates by the tightest accountant dptune has, as a plan composed by PLD does."""
PUBLISHED = {  # Tramèr & Boneh (ICLR 2021): heavy-ball DP-SGD, 40 epochs, C = 0.1, momentum 0.9
    "scatter-linear": {"batch_size": 8192, "effective_lr": 16.0},  # their lr 16 for ScatterNet + linear
    "cnn5": {"batch_size": 2048, "effective_lr": 4.0},  # their lr 4 for the tanh CNN
}
GOALS = {"scatter-linear": {1: 88.4, 3: 89.7, 8: 90.3}, "cnn5": {1: 83.6, 3: 86.0, 8: 87.0}}
ONE_MODEL_GOALS = {"scatter-linear": {1: 87.9, 3: 89.4, 8: 90.3}}
"""One model per total across the spec's methods: at least the best per-method pipeline's mean before it."""
CELL_MINUTES = {"scatter-linear": 90, "cnn5": 150}
"""The wall time a cell (every execution of its pipelines and baselines) is planned to fit on 2 cores."""
COMMAND = "make setup && .venv/bin/dptune "
"""How a record's command starts: from a fresh clone, the set-up (quick once done), then dptune's CLI."""
REPEAT_AND_SELECT_METHOD = "innerouter"


def no_tuning_args(model: str, epsilon: float) -> list[str]:
    setting = PUBLISHED[model]
    return [
        "train",
        "--method", "innerouter", "--param", "k=1", "--param", "beta=0", "--param", "outer_momentum=0.9",
        "--model", model, "--epsilon", f"{epsilon:g}", "--delta", f"{DELTA:g}", "--epochs", "40",
        "--clip", "0.1", "--batch-size", str(setting["batch_size"]),
        "--effective-lr", f"{setting['effective_lr']:g}", "--accountant", NO_TUNING_ACCOUNTANT, "--json",
    ]  # fmt: skip


def spec(model: str) -> dict[str, Any]:
    """The model's pipeline spec, sweeps/total/MODEL.yaml."""
    return dict(yaml.safe_load((ROOT / "sweeps" / "total" / f"{model}.yaml").read_text()))


def spec_ema(model: str) -> float | None:
    """The iterate average the model's pipelines release (``training.ema`` of its spec), if any."""
    ema = spec(model)["training"].get("ema")
    return None if ema is None else float(ema)


def pipelines(model: str, epsilon: float) -> dict[str, list[str]]:
    """Every execution kind of a cell: its key in the record and the ``dptune`` arguments it runs."""
    path = f"sweeps/total/{model}.yaml"
    run = ["run", path, "--epsilon", f"{epsilon:g}"]
    kinds = {f"methods/{m}": [*run, "--method", m] for m in spec(model)["methods"]}
    if model in ONE_MODEL_GOALS:  # every method of the spec, one model per total (privacy.release: one)
        kinds["one_model/one model"] = [*run, "--release", "one"]
        if epsilon > 1:
            kinds["one_model/one model, halving"] = [*run, "--release", "one", "--promoted-trials", "2"]
    kinds["baselines/no_tuning"] = no_tuning_args(model, epsilon)
    if (ema := spec_ema(model)) is not None:
        kinds["baselines/no_tuning_ema"] = [*no_tuning_args(model, epsilon), "--ema", f"{ema:g}"]
    if model == "scatter-linear" or epsilon == 3:
        rs = f"sweeps/total/{model}-repeat-and-select.yaml"
        kinds["baselines/repeat_and_select"] = ["run", rs, "--epsilon", f"{epsilon:g}"]
    return kinds


def located(args: list[str]) -> list[str]:
    """``dptune`` arguments with the repository's spec paths made absolute (a run's folder is elsewhere)."""
    return [str(ROOT / a) if a.startswith("sweeps/") else a for a in args]


RUN_PARAMS = (
    "accountant", "dataset", "delta", "engine", "epsilon", "method", "model", "noise_generator",
    "proxy_fraction", "sampling",
)  # fmt: skip
"""A release run's parameters that are not its configuration: what the record's ``settings`` leaves out."""


def released(release: dict[str, Any], folder: Path) -> dict[str, Any]:
    """What the release of a run states, from the MLflow store the run wrote: its privacy card's plan and
    the configuration it trained with (the selected trial's, its step carried by the plan's rule, as
    ``trial_settings`` recorded it). Both are part of the release the plan's ε covers."""
    from mlflow.tracking import MlflowClient

    quiet_mlflow()
    name, version = release["model_uri"].removeprefix("models:/").rsplit("/", 1)
    client = MlflowClient(f"sqlite:///{folder / 'mlflow.db'}")
    run_id = client.get_model_version(name, version).run_id
    if run_id is None:
        raise SystemExit(f"bench: {release['model_uri']} names no run")
    card = json.loads(Path(client.download_artifacts(run_id, "privacy_card.json", str(folder))).read_text())
    settings = {k: v for k, v in sorted(client.get_run(run_id).data.params.items()) if k not in RUN_PARAMS}
    return {"plan": card.get("plan"), "settings": settings}


def execute(args: list[str], folder: Path) -> dict[str, Any]:
    """One execution in a fresh ``folder``: its release (the last line), wall time and trial-hours; of a
    search whose trial count is secret (``results.secret_count``), no time at all: it would tell the
    count."""
    withhold_time = secret_count(args, ROOT)
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    started = time.time()
    stdout = dptune(*located(args), cwd=folder, log=folder / "output.log", env=fresh_process_env(ROOT))
    wall = time.time() - started
    last = json.loads(stdout.strip().splitlines()[-1])
    trial_seconds = sum(float(s) for s in re.findall(r"\((\d+)s of trial time", stdout))
    entry = {
        "final_test_accuracy": last["final_test_accuracy"],
        "epsilon": last["epsilon"],
        "delta": last["delta"],
        "wall_seconds": None if withhold_time else round(wall, 1),
        "trial_hours": round(trial_seconds / 3600, 3) if trial_seconds and not withhold_time else None,
    }
    if "model_uri" in last:
        entry |= released(last, folder)
    return entry


def summarized(executions: list[dict[str, Any]]) -> dict[str, Any]:
    accuracies = [e["final_test_accuracy"] for e in executions]
    return {
        "accuracies": [round(a, 2) for a in accuracies],
        "mean": statistics.fmean(accuracies),
        "sd": statistics.stdev(accuracies) if len(accuracies) > 1 else None,
        "epsilon": max(e["epsilon"] for e in executions),
        "delta": max(e["delta"] for e in executions),
        "wall_seconds": [e["wall_seconds"] for e in executions],  # None: withheld with a secret count
        "trial_hours": [e["trial_hours"] for e in executions],
    }


def run_cell(model: str, epsilon: float, executions: int) -> None:
    record = json.loads(RECORD.read_text()) if RECORD.exists() else {}
    cell = record.setdefault(model, {}).setdefault(f"{epsilon:g}", {"methods": {}, "baselines": {}})
    for key, args in pipelines(model, epsilon).items():
        group, name = key.split("/")
        entry = cell.setdefault(group, {}).setdefault(name, {"executions": []})
        entry["command"] = COMMAND + shlex.join(args)
        while len(entry["executions"]) < executions:
            index = len(entry["executions"])
            print(f"{model} ε={epsilon:g} {key} execution {index + 1}/{executions} …", flush=True)
            folder = SCRATCH / f"{model}-eps{epsilon:g}" / f"{name}-{index}"
            result = execute(args, folder)
            entry["executions"].append(result)
            entry |= summarized(entry["executions"])
            if "plan" in result:
                entry["plan"] = result["plan"]
            if name.startswith("no_tuning"):
                entry["setting"] = PUBLISHED[model] | {
                    "source": "Tramèr & Boneh (ICLR 2021)",
                    **FIXED,
                    "accountant": NO_TUNING_ACCOUNTANT,
                    **({"ema": spec_ema(model)} if name == "no_tuning_ema" else {}),
                }
            if name == "repeat_and_select":
                entry["method"] = REPEAT_AND_SELECT_METHOD
            RECORD.write_text(json.dumps(record, indent=1) + "\n")
            print(f"  {result['final_test_accuracy']:.2f}% at ε = {result['epsilon']:.3f}", flush=True)


TITLE = "## Released models at a total ε that includes their tuning (Fashion-MNIST)"
WITHHELD = {"baseline: repeat_and_select": "withheld"}
"""Rows whose trial-hours are not shown: a secret trial count's would tell it."""


def verdict(model: str, total: str, cell: dict[str, Any]) -> str | None:
    """The cell against its goal and its baselines: every method's pipeline (mean of executions), in the
    spec's order. None is picked by its final-test score: these are one model per method (``release:
    per_method``), each card covering its own pipeline, and a pick among them by a score is covered only
    by the figure of publishing them all; the one model per total is another cell."""
    methods = {m: e for m, e in cell["methods"].items() if e.get("executions")}
    if not methods:
        return None
    goal = GOALS[model][int(float(total))]
    lines = []
    for method, entry in methods.items():
        parts = [f"{model}, total ε = {total}, {method}'s pipeline {entry['mean']:.2f}"]
        parts.append(f"goal {goal}: {'met' if entry['mean'] >= goal else 'not met'}")
        for name, base in cell["baselines"].items():
            if base.get("executions"):
                difference, error = entry["mean"] - base["mean"], standard_error(entry, base)
                side = "level with"
                if abs(difference) > 2 * error:
                    side = "above" if difference > 0 else "below"
                parts.append(
                    f"{side} {name.replace('_', ' ')} ({base['mean']:.2f}; {difference:+.2f} ± {error:.2f})"
                )
        lines.append("- " + "; ".join(parts))
    groups = ("methods", "one_model", "baselines")
    for name, one in cell.get("one_model", {}).items():
        if name not in ("one model", "one model, halving") or not one.get("executions"):
            continue
        want = ONE_MODEL_GOALS[model][int(float(total))]
        lines.append(
            f"- {model}, total ε = {total}, {name} across the methods: {one['mean']:.2f}; goal {want}: "
            f"{'met' if one['mean'] >= want else 'not met'}; its card's ε {one['epsilon']:.3f} covers every "
            "method's trials"
        )
    timed = [e for group in groups for e in cell.get(group, {}).values() if e.get("executions")]
    seconds = sum(w for e in timed for w in e["wall_seconds"] if w is not None)
    lines.append(
        f"- {model}, total ε = {total}: its runs but repeat-and-select took {seconds / 60:.0f} min of the "
        f"cell's {CELL_MINUTES[model]}"
    )
    return "\n".join(lines)


def standard_error(a: dict[str, Any], b: dict[str, Any]) -> float:
    """The standard error of the difference of two means of executions: √(s_a²/n_a + s_b²/n_b)."""
    return math.sqrt(sum(e["sd"] ** 2 / len(e["accuracies"]) for e in (a, b)))


def scaled(epochs: dict[str, Any]) -> str:
    """`` step ×1.14``: the factor a plan of the rule in steps put on the selected step for T_t's rounding
    (plans up to commit 49d64c4); nothing where the release took the step its trial was scored at."""
    factor = epochs.get("lr_scale", 1.0)
    return "" if factor == 1.0 else f" step ×{factor:.2f}"


def plan_text(plan: dict[str, Any] | None, setting: dict[str, Any] | None = None) -> str:
    """``8 × 0.672 on 1 → 7.6 (T 4/40, PLD)``: the tuning trials, their per-run ε and subset, the release,
    the carry (a tuning trial's epochs of the release's, the rule in steps; or ``lr ×5.27``, the rule in
    the step, as plans before commit fa434a5 carried it) and the composition; of a no-tuning run, its
    accountant (``one run, PLD``; none named: RDP, as before the PLD plans)."""
    if not plan:
        return f"one run, {(setting or {}).get('accountant', 'rdp').upper()}" if setting else ""
    tune, release = plan["stages"]
    runs = tune["runs"] if isinstance(tune["runs"], int) else f"secret K (mean {tune['runs']['mean']:g})"
    if "promoted" in tune:  # a second rung: its runs, each r times as long at its own ε
        promoted = tune["promoted"]
        longer = f"{promoted['epochs_factor']} as long at {promoted['per_run_epsilon']:.3g}"
        runs = f"{runs} (+{promoted['runs']} × {longer})"
    carry = (
        "T " + ", ".join(f"{e['tuning']}/{e['release']}" + scaled(e) for e in plan["epochs"])
        if "epochs" in plan
        else f"lr ×{plan['lr_scale']:.2f}"
    )
    composition = plan["composition"].split(":")[0]
    return (
        f"{runs} × {tune['per_run_epsilon']:.3g} on {tune['subset_fraction']:g} → "
        f"{release['per_run_epsilon']:.3g} ({carry}, {composition})"
    )


def averaged(entry: dict[str, Any]) -> str:
    """`` (ema 0.999)`` after a pipeline whose released models were the moving average of their iterates,
    as its executions' settings (a no-tuning baseline's setting) state; nothing where none states one."""
    stated = [e["settings"].get("ema") for e in entry["executions"] if "settings" in e]
    stated.append(entry.get("setting", {}).get("ema"))
    return "".join(f" (ema {mu:g})" for mu in sorted({float(m) for m in stated if m is not None}))


def goal_of(model: str, total: str, name: str) -> float:
    """A row's goal: the one model's across methods for its rows, else the published per-run figure."""
    goals = ONE_MODEL_GOALS if name.startswith("one model") else GOALS
    return goals[model][int(float(total))]


def row(model: str, total: str, name: str, entry: dict[str, Any]) -> str:
    sd = f" ± {entry['sd']:.2f}" if entry.get("sd") is not None else ""
    plan = plan_text(entry.get("plan"), entry.get("setting"))
    hours = [h for h in entry["trial_hours"] if h is not None]
    walls = [w for w in entry["wall_seconds"] if w is not None]
    return (
        f"| {model} | {total} | {name}{averaged(entry)} | "
        f"**{entry['mean']:.2f}**{sd} (n={len(entry['executions'])}) | "
        f"{entry['epsilon']:.3f} ({entry['delta']:.0e}) | {plan} | "
        f"{f'{statistics.fmean(walls) / 60:.1f}' if walls else 'withheld'} | "
        f"{f'{statistics.fmean(hours):.2f}' if hours else WITHHELD.get(name, '–')} | "
        f"{goal_of(model, total, name)} |"
    )


def in_epsilon_order(cells: dict[str, Any]) -> list[tuple[str, Any]]:
    """A model's cells, smallest total ε first (the record keeps them in the order they ran)."""
    return sorted(cells.items(), key=lambda c: float(c[0]))


def section() -> str:
    record = json.loads(RECORD.read_text())
    lines = [
        TITLE,
        "",
        f"`python bench/total_epsilon.py --model MODEL --epsilon E --write` per cell, {cpu_name()}, 2 "
        f"cores; δ = {DELTA:g}. Final-test accuracy (%) of the released model, mean ± sd over executions "
        "with fresh randomness; its ε covers everything that chose it (the plan's tuning trials and the "
        "release). Baselines at the same total: no tuning (Tramèr & Boneh's published setting, one run at "
        "the total; where a model's pipelines release an iterate average, `training.ema` of its spec, also "
        "that setting with the same average, no_tuning_ema: what the tuning adds beyond the average) and "
        "repeat-and-select (random search with a secret geometric trial count, its mean in "
        "the table, the best re-run and released, at its spec's epochs: sweeps/total/MODEL-repeat-and-select"
        ".yaml; its times are withheld with the count, which they would tell). Trial-hours: the trials' time "
        "on their slots; a release that held every slot of the machine counts once per slot. Carry: "
        "'T 4/40', a tuning trial ran 4 of the "
        "release's 40 epochs (the linear scaling rule carried in steps, from commit fa434a5 on), at the "
        "release's step ('step ×1.14': the release took the trial's step times 1.14 for T_t's rounding, "
        "in plans up to commit 49d64c4; from f05f212 on, the step its trial was scored at); "
        "'lr ×7.39', it ran all 40 at the release's step divided by 7.39 (the rule carried in the step, "
        "before). The last word of the plan: how its stages compose (PLD: dp-accounting's PLD accountant, "
        "its runs calibrated by PLD, in plans from 2026-11-27 on where each stage repeats one mechanism on "
        "the whole data; RDP or basic otherwise); of a no-tuning run, the accountant it "
        "calibrated by. '(ema 0.999)' after a pipeline: its released models were the moving average of their "
        "iterates (`training.ema`; as its executions' settings in the record state). innerouter with k = 1, "
        "β = 0 is heavy-ball momentum, Tramèr & Boneh's optimiser. Goal: the published per-run figure at "
        "that ε, which counted no tuning (scatter-linear's at ε = 1, DPSUR's, counts only its run's accepted "
        "updates; recounted in the section on what the goals' published ε counts).",
        "",
        "What no ε here counts: the specs. Their start points are Tramèr & Boneh's published settings, "
        "which their authors tuned on this data, and the specs were revised over several working sessions "
        "while earlier versions of this table were in view (the commits that changed them say which rows "
        "each re-ran; the changes from 2026-11-27 on were chosen on digits or fixed before their runs). A "
        "pipeline's ε covers the runs it made; how its spec came to be is taken as public (the privacy "
        "card's `assumes`). Each method's pipeline releases its own model (`privacy.release: per_method`), "
        "its card covering that pipeline alone: no row is picked by its final-test score, and a pick among "
        "them by any score is covered only by the figure of publishing them all (the stage's, in "
        "bench/total_epsilon.json); the one model per total across methods is `privacy.release: one`.",
        "",
        "The one model's rows: 'one model', as many trials per method as the planner spreads (from "
        "commit c72424f: the spec's 8, or where 8 would give trials of fewer than 20 noisy steps, the "
        "most that make 20; the count stands in its plan); 'one model, 8 trials per method', the spec's 8 "
        "at every total that planned them (before c72424f; at total 1, which refused 8, both ran 4 per "
        "method, the same plan, so that row was not run again); 'one model, step scaled', the release's "
        "step scaled for T_t's rounding (before f05f212); 'one model, halving', with a second rung of "
        "successive halving (`--promoted-trials 2`: each method's best 2 first-rung trials by validation "
        "trained again 3× as long at the same noise, the release chosen among them; chosen before its "
        "runs). Their goal: the best per-method pipeline's mean before them.",
        "",
        "| model | total ε | pipeline | final test % | ε (δ) | tuning: trials × ε_t on γ → release ε_B "
        "(carry) | wall min | trial-hours | goal |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for model, cells in record.items():
        for total, cell in in_epsilon_order(cells):
            named = [
                *cell["methods"].items(),
                *cell.get("one_model", {}).items(),
                *((f"baseline: {b}", e) for b, e in cell["baselines"].items()),
            ]
            lines += [row(model, total, name, entry) for name, entry in named if entry.get("executions")]
    verdicts = [
        v
        for model, cells in record.items()
        for total, cell in in_epsilon_order(cells)
        if (v := verdict(model, total, cell))
    ]
    lines += [
        "",
        *verdicts,
        "",
        "Beside each baseline: the pipeline's mean less the baseline's, ± the standard error of that "
        "difference (√(s²/n + s'²/n')); above or below: by more than two standard errors, else level with. "
        "A cell's time leaves out repeat-and-select, whose time is withheld with its count.",
        "Every execution's command, plan and figures: bench/total_epsilon.json.",
    ]
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", choices=MODELS)
    parser.add_argument("--epsilon", type=float, choices=(1.0, 3.0, 8.0))
    parser.add_argument("--executions", type=int, default=EXECUTIONS)
    parser.add_argument("--write", action="store_true", help="write the section of bench/RESULTS.md")
    args = parser.parse_args()
    if args.model is not None and args.epsilon is not None:
        run_cell(args.model, args.epsilon, args.executions)
    if args.write:
        write_section(ROOT / "bench" / "RESULTS.md", TITLE, section())


if __name__ == "__main__":
    main()
