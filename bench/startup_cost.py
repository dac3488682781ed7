"""Benchmark: what a ``dptune run`` spends before its first trial starts, part by part (issue 11's
quickstart utilisation goal).

Each part runs in a fresh interpreter, ``--repeats`` times; the table gives the median wall time and the
median CPU time of every process involved (Ray's own processes included, summed from Linux's /proc
while they still run):

* **driver imports**: ``import dptune.tune.driver`` (torch, Ray Tune, Optuna, MLflow), what ``dptune run``
  imports before it starts anything;
* **local Ray start**: ``ray.init`` as the driver calls it (GCS, raylet, agents, pre-started workers);
* **new MLflow store**: opening a new SQLite tracking store (MLflow runs its schema migrations), what a
  first sweep in a fresh folder does beside Ray's start;
* **quickstart data**: loading and splitting the quickstart's Fashion-MNIST subset, also beside Ray's start;
* **trial actor imports**: what a trial actor imports before its first trial (``dptune.tune.trainable``:
  torch, Ray Tune and the training loop, not the driver's MLflow or Optuna), after the Ray worker itself
  is up. Every slot pays it once: Tune gives its trial actors their own runtime environment, so Ray
  starts a new worker process for each instead of handing it a pre-started one.

The section also states the bound these costs put on slot utilisation (``bench/utilisation.py``):
with ``B`` busy trial-seconds on ``S`` slots, a fraction ``w`` of the slots busy between the first trial's
start and the last trial's end, ``a`` seconds before the first trial and ``z`` after the last,

    utilisation = B / (S · (B / (S · w) + a + z)),

so utilisation ≥ u needs a + z ≤ B / (S · u) − B / (S · w).

    python bench/startup_cost.py --write
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import statistics
import string
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

from results import (  # bench/ is on the path when this file runs as a script
    fresh_process_env,
    machine,
    write_section,
)

ROOT = Path(__file__).resolve().parents[1]
SECTION = "## Start-up cost of a sweep, part by part"
UTILISATION = ROOT / "bench" / "utilisation.json"
JSON = ROOT / "bench" / "startup_cost.json"
MARK = "startup-cost: "
"""Marks the measuring process's line of figures among whatever else it prints."""

MEASURE = string.Template("""
import json, os, tempfile, time
from pathlib import Path

def cpu_seconds():  # user + system CPU seconds of this process and every live descendant
    stats = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        # its own user and system time, and that of its children it has waited for
        stats[int(entry.name)] = (int(fields[1]), sum(int(f) for f in fields[11:15]))
    mine, grew = {os.getpid()}, True
    while grew:
        more = {pid for pid, (parent, _) in stats.items() if parent in mine} - mine
        mine |= more
        grew = bool(more)
    return sum(stats[pid][1] for pid in mine if pid in stats) / os.sysconf("SC_CLK_TCK")

$setup
cpu, wall = cpu_seconds(), time.perf_counter()
$timed
wall, cpu = time.perf_counter() - wall, cpu_seconds() - cpu
print("$mark" + json.dumps({"wall": wall, "cpu": cpu}))
$teardown
""")

PARTS: dict[str, dict[str, str]] = {
    "driver imports": {"setup": "", "timed": "import dptune.tune.driver", "teardown": ""},
    "local Ray start": {
        "setup": "import logging, ray",
        "timed": "ray.init(include_dashboard=False, logging_level=logging.WARNING, log_to_driver=False)",
        "teardown": "ray.shutdown()",
    },
    "new MLflow store": {
        "setup": "import shutil\nfrom mlflow.tracking import MlflowClient\nfolder = tempfile.mkdtemp()",
        "timed": "MlflowClient(f'sqlite:///{folder}/mlflow.db').search_experiments()",
        "teardown": "shutil.rmtree(folder)",
    },
    "quickstart data": {
        "setup": "from dptune.sweep.spec import load_spec\nfrom dptune.tune.startup import sweep_data\n"
        "stage = load_spec('sweeps/quickstart.yaml').sweeps_at(0)[0]",
        "timed": "sweep_data(stage)",
        "teardown": "",
    },
    "trial actor imports": {"setup": "import ray", "timed": "import dptune.tune.trainable", "teardown": ""},
}


PATH = ("driver imports", "local Ray start", "trial actor imports")
"""The parts that follow one another before the first trial."""
BESIDE_RAY = ("local Ray start", "new MLflow store", "quickstart data")
"""Ray's start and what the driver does at the same time."""


def measure(part: dict[str, str]) -> dict[str, float]:
    """One part's wall and CPU seconds, in a fresh interpreter run from the repository's root."""
    code = MEASURE.substitute(part, mark=MARK)
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=fresh_process_env(ROOT), capture_output=True, text=True
    )
    lines = [line for line in done.stdout.splitlines() if line.startswith(MARK)]
    if done.returncode or not lines:
        raise RuntimeError(f"measuring failed ({done.returncode}):\n{done.stderr[-2000:]}")
    return json.loads(lines[-1].removeprefix(MARK))


CURRENT_LABELS = ("stop 29",)
"""Labels of bench/utilisation.json's runs of the code as it stands (one Tune run per sweep stage; a
re-run's final-test evaluation inside its trial's busy window)."""


def quickstart_runs() -> list[dict[str, Any]]:
    """The quickstart runs of the current code in bench/utilisation.json."""
    if not UTILISATION.exists():
        return []
    rows = json.loads(UTILISATION.read_text())
    return [s["quickstart"] for label, s in rows.items() if any(c in label for c in CURRENT_LABELS)]


def bound_lines(runs: list[dict[str, Any]], goal: float) -> list[str]:
    """What the measured quickstart runs allow: the utilisation their start and end permit at their own
    inside-window figure, and the start + end that ``goal`` would need."""
    lines = []
    for r in runs:
        busy, slots, inside = r["busy_trial_seconds"], r["slots"], r["utilisation_in_trial_window"]
        start, end = r["seconds_to_first_trial"], r["seconds_after_last_trial"]
        window = busy / (slots * inside)
        need = busy / (slots * goal) - window
        lines.append(
            f"| {busy:.0f} | {inside:.2f} | {start:.1f} + {end:.1f} = {start + end:.1f} | "
            f"{busy / (slots * (window + start + end)):.2f} | {need:.1f} | {need - end:.1f} |"
        )
    return lines


def section(record: dict[str, Any]) -> str:
    results: dict[str, list[dict[str, float]]] = record["parts"]
    rows = []
    for name, samples in results.items():
        walls = [s["wall"] for s in samples]
        cpus = [s["cpu"] for s in samples]
        rows.append(
            f"| {name} | {statistics.median(walls):.2f} ({min(walls):.2f}–{max(walls):.2f}) | "
            f"{statistics.median(cpus):.2f} |"
        )
    runs = quickstart_runs()
    median = {name: statistics.median(s["wall"] for s in samples) for name, samples in results.items()}
    path = sum(median[name] for name in PATH)
    beside = sum(statistics.median(s["cpu"] for s in results[name]) for name in BESIDE_RAY)
    text = [
        SECTION,
        "",
        textwrap.fill(
            f"`python bench/startup_cost.py --write` ({record['machine']}, {record['date']}): each part in "
            f"a fresh interpreter, {record['repeats']} times; median wall seconds (min–max) and median CPU "
            "seconds of every process involved (Ray's own processes included).",
            width=104,
        ),
        "",
        "| part | wall s | CPU s |",
        "|---|---|---|",
        *rows,
        "",
        textwrap.fill(
            "A sweep's driver imports, then starts Ray while a thread loads the data and opens the tracking "
            "store; Tune then starts one trial actor per slot, each a new process that imports torch, Ray "
            "Tune and dptune before its first trial. Ray's start and the parts beside it need "
            f"{beside:.1f} CPU seconds, {beside / median['local Ray start']:.1f} cores for as long as Ray's "
            "start takes alone: on 2 cores they slow one another. The path to the first trial is at least "
            "the driver's imports, Ray's start and one actor's imports: "
            f"{' + '.join(f'{median[name]:.1f}' for name in PATH)} = {path:.1f} s here, before the worker "
            "process's own start, Tune's and that contention.",
            width=104,
        ),
        "",
    ]
    if runs:
        text += [
            textwrap.fill(
                "What that start-up (a) and the end of the sweep (z) allow the quickstart, from its runs in "
                "`bench/utilisation.json` (utilisation = B / (S · (B / (S · w) + a + z)), S = 2 slots):",
                width=104,
            ),
            "",
            "| busy trial-s B | inside window w | a + z (s) | utilisation they allow | a + z for 0.8 (s) "
            "| a for 0.8 with that z (s) |",
            "|---|---|---|---|---|---|",
            *bound_lines(runs, 0.8),
            "",
            textwrap.fill(
                f"The path above ({path:.1f} s) leaves no room for 0.8 in a run whose last column is below "
                "it; the end (z: Tune's end, the sweep's summary and plots in the tracking store, Ray's "
                "shutdown) takes seconds of its own.",
                width=104,
            ),
        ]
    return "\n".join(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--write", action="store_true", help="write the section of bench/RESULTS.md")
    parser.add_argument("--section-only", action="store_true", help=f"rewrite the section from {JSON.name}")
    args = parser.parse_args()
    if args.section_only:
        record = json.loads(JSON.read_text())
    else:
        results: dict[str, list[dict[str, float]]] = {name: [] for name in PARTS}
        for _ in range(args.repeats):  # parts interleaved, so that a busy spell of the machine hits each
            for name, part in PARTS.items():
                results[name].append(measure(part))
        record = {
            "machine": machine(),
            "date": str(dt.date.today()),
            "repeats": args.repeats,
            "parts": results,
        }
    text = section(record)
    print(text)
    if args.write or args.section_only:
        JSON.write_text(json.dumps(record, indent=1) + "\n")
        write_section(ROOT / "bench" / "RESULTS.md", SECTION, text)


if __name__ == "__main__":
    main()
