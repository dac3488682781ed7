"""Benchmark: how long `dptune validate` takes to plan a spec whose ε includes the tuning, now and at
a commit before (``BEFORE`` by default), for every such spec in sweeps/ and the planned ones of bench/specs/
(``BENCH_SPECS``: the whole Fashion-MNIST training set at batch 1024 for 10 epochs, by dpsgd and by
dpsgd-momentum, whose clip decays every step; a release of 10,575 steps; the untuned tasks' pipelines).

Each spec is planned in a fresh process (cold caches, as `dptune validate` starts): the spec loaded, n its
subset or Fashion-MNIST's 60,000 training samples, and ``dptune.sweep.pipeline.planned`` timed, which is
what `dptune validate` and `dptune run` call after their checks of the data and models (about 2 s here,
not timed). ``--before [COMMIT]`` times the code of that commit the same way, extracted with
``git archive``, and writes both plans of every spec (composition, subset rate γ, ε_t, ε_B and the
composed ε of each method and total). Rounds alternate the two codes; the figures are medians over rounds.

    python bench/plan_speed.py [--rounds 3] [--before [COMMIT]] [--out bench/RESULTS.md]
"""

from __future__ import annotations

import argparse
import datetime as dt
import io
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

import yaml
from results import cpu_name, write_section  # bench/ is on the path when this file runs as a script

ROOT = Path(__file__).resolve().parents[1]
BEFORE = "09ddcb9"  # the planner before PLDs were shared, grids chosen by their error and subsets' PLD
TITLE = "## Planner speed: the plan `dptune validate` prints, before and after"
PLANNED = [p for p in sorted((ROOT / "sweeps").rglob("*.yaml")) if "includes_tuning" in p.read_text()]
BENCH_SPECS = [
    "bench/specs/full-data.yaml",
    "bench/specs/full-data-momentum.yaml",
    "bench/specs/long.yaml",
    "bench/specs/untuned/cnn5.yaml",
    "bench/specs/untuned/mlp.yaml",
]
"""The planned specs of bench/specs/: the issue's full-data spec by dpsgd and by dpsgd-momentum, a release
of 10,575 steps, and the two untuned tasks' pipelines (20,000 samples, dpsgd-momentum, totals 2 and 8)."""
SPECS = [*(str(p.relative_to(ROOT)) for p in PLANNED), *BENCH_SPECS]
FASHION_MNIST = 60000
CHILD = """
import json, sys, time
try:
    from dptune.sweep.pipeline import planned
except ImportError:  # the code before the planner's setup left the spec reader
    from dptune.sweep.preflight import planned
from dptune.sweep.spec import load_spec

spec = load_spec(sys.argv[1])
n = spec.shared.subset or int(sys.argv[2])
wall, cpu = time.perf_counter(), time.process_time()
plans = planned(spec, n)
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
rows = [
    [p.method, p.total_epsilon, str(p.composition).split(":")[0], p.tuning.fraction, p.tuning.per_run_epsilon,
     p.release.per_run_epsilon, p.epsilon]
    for p in plans or []
]
steps = sum(e[2] for e in plans[0].release.ledgers[0]) if plans else 0
print(json.dumps({"wall": wall, "cpu": cpu, "steps": steps, "plans": rows}))
"""


def timed(code: Path, spec: str) -> dict | None:
    """One fresh process planning ``spec`` with the dptune package under ``code`` (and its dependencies
    where this Python finds them); None where that code cannot read the spec (a key added since: code
    from before ``privacy.release`` reads ``release: per_method``, its only behaviour, as the key left
    out)."""
    env = {**os.environ, "PYTHONPATH": str(code)}
    path = ROOT / spec
    parts = code / "dptune" / "sweep" / "spec_parts.py"
    policies = code / "dptune" / "sweep" / "release_policies.py"
    keyed = any(f.exists() and "PER_METHOD" in f.read_text() for f in (parts, policies))
    if not keyed:  # code from before the key
        doc = yaml.safe_load(path.read_text())  # the spec without it, which meant what it did there
        if doc.get("privacy", {}).get("release") == "per_method":
            del doc["privacy"]["release"]
        path = code / "spec.yaml"
        path.write_text(yaml.safe_dump(doc))
    done = subprocess.run(  # run elsewhere: `python -c` puts its folder first on the path
        [sys.executable, "-c", CHILD, str(path), str(FASHION_MNIST)],
        cwd=tempfile.gettempdir(),
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        return None
    result: dict = json.loads(done.stdout.strip().splitlines()[-1])
    return result


VALIDATED = [*(str(p.relative_to(ROOT)) for p in sorted((ROOT / "sweeps").rglob("*.yaml"))), *BENCH_SPECS]
"""Every spec whose `dptune validate` is timed whole (its checks of the data, models, store and storage,
and the plan): every spec in sweeps/ and the planned ones of bench/specs/."""


def validate_seconds(spec: str) -> float | None:
    """Wall seconds of `dptune validate SPEC` in a fresh process (None where it refuses the spec: one that
    warm-starts from a sweep this machine has not run)."""
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "dptune.cli", "validate", str(ROOT / spec)],
        cwd=tempfile.gettempdir(),
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=False,
    )
    return time.perf_counter() - started if done.returncode == 0 else None


def before_code(folder: Path, commit: str) -> Path:
    """The dptune package of ``commit`` extracted under ``folder``."""
    archive = subprocess.run(
        ["git", "archive", "--format=tar", commit, "dptune"], cwd=ROOT, check=True, capture_output=True
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument(
        "--before", nargs="?", const=BEFORE, help=f"also time the planner of this commit (default {BEFORE})"
    )
    parser.add_argument("--out", type=Path, default=ROOT / "bench" / "RESULTS.md")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        codes = {"after": ROOT}
        if args.before:
            codes["before"] = before_code(Path(folder), args.before)
        runs: dict[tuple[str, str], list[dict]] = {}
        for _ in range(args.rounds):
            for spec in SPECS:
                for name, code in codes.items():
                    found = timed(code, spec)
                    if found is not None:
                        runs.setdefault((name, spec), []).append(found)
                    print(name, spec, "unread" if found is None else f"{found['wall']:.2f} s", flush=True)
    validated = {spec: [validate_seconds(spec) for _ in range(args.rounds)] for spec in VALIDATED}
    load = os.getloadavg()
    lines = [
        TITLE,
        "",
        f"- date: {dt.date.today().isoformat()}; machine: {os.cpu_count()} cores, {cpu_name()}, Python "
        f"{sys.version.split()[0]}; command: `python bench/plan_speed.py --rounds {args.rounds}"
        f"{f' --before {args.before}' if args.before else ''}`",
        f"- a shared machine, loaded by other work while this ran (load average {load[0]:.1f} at the end): "
        "wall and CPU seconds of `dptune.sweep.pipeline.planned` in a fresh process, medians over "
        f"{args.rounds} rounds that alternate the codes; before = commit {args.before}. `dptune validate` "
        "adds its checks of the data and models to each (2–6 s here, the ScatterNet specs building "
        "features). The issue's full-data spec (dpsgd-momentum, bench/specs/full-data-momentum.yaml) took "
        "1,022 s to plan where it was reported.",
        "",
        "| spec | release steps | before s (CPU) | after s (CPU) | before / after (wall) |",
        "|---|---|---|---|---|",
    ]
    for spec in SPECS:
        after = runs["after", spec]
        steps = after[0]["steps"]
        wall, cpu = (statistics.median(r[k] for r in after) for k in ("wall", "cpu"))
        if args.before and ("before", spec) in runs:
            old = runs["before", spec]
            old_wall, old_cpu = (statistics.median(r[k] for r in old) for k in ("wall", "cpu"))
            lines.append(
                f"| {spec} | {steps} | {old_wall:.1f} ({old_cpu:.1f}) | {wall:.1f} ({cpu:.1f}) | "
                f"{old_wall / wall:.1f}× |"
            )
        else:
            lines.append(f"| {spec} | {steps} | – | {wall:.1f} ({cpu:.1f}) | |")
    if args.before:
        lines += [
            "",
            "Plans before → after (composition, subset rate γ, per-run ε_t and release ε_B, each by its "
            "stage's own accountant, PLD for a PLD plan, and the composed ε of the released model):",
            "",
            "| spec | method | total ε | composition | γ | ε_t | ε_B | composed |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for spec in (s for s in SPECS if ("before", s) in runs):
            pairs = zip(runs["before", spec][0]["plans"], runs["after", spec][0]["plans"], strict=True)
            for old, new in pairs:
                changes = " | ".join(f"{old[k]:.3f} → {new[k]:.3f}" for k in (4, 5, 6))
                lines.append(
                    f"| {spec} | {new[0]} | {new[1]:g} | {old[2]} → {new[2]} | {old[3]:g} → {new[3]:g} | "
                    f"{changes} |"
                )
    lines += [
        "",
        f"`dptune validate SPEC` whole (data, models, store, storage and the plan), wall seconds in a fresh "
        f"process, median of {args.rounds} (goal: at most 10 s for every spec in sweeps/ and the full-data "
        "specs):",
        "",
        "| spec | dptune validate s |",
        "|---|---|",
    ]
    for spec, seconds in validated.items():
        shown = [t for t in seconds if t is not None]
        figure = (
            f"{statistics.median(shown):.1f}"
            if shown
            else "refused: it warm-starts from a sweep not run here"
        )
        lines.append(f"| {spec} | {figure} |")
    write_section(args.out, TITLE, "\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
