"""The ε of repeat-and-select executions whose trial count the campaigns' records told: a valid bound for
what was published, in place of the one that assumes the count secret.

Repeat-and-select's bound (Papernot & Steinke 2022) holds while K, the secret number of runs, stays
secret. Up to 2026-12-02 ``bench/untuned_tasks.py`` (and ``bench/text_evidence.py`` through it) recorded
every execution's wall time, repeat-and-select's too, in records this repository publishes; an
execution's wall time grows with its K, so those executions' K counts as released. Since then the wall
time is withheld, but each execution's results are committed as it ends, between rows whose wall times
are published, so the commits' times bound its duration too: every execution that released a model
counts its K as told. What it published is then covered by K runs and the re-run of the best with K
told: ``revealed_count_curve`` (K's law mixes the compositions of k runs) plus the release's run,
converted at the execution's δ.

For each such execution, the plan that ran is rebuilt at the commit the execution records (in a temporary
git worktree, by that commit's own planner, on the spec at that commit and the task's training samples),
checked to state the ε the execution recorded, and its mechanisms (σ, q, steps) recomposed by this
commit's accountant (an execution run again after an interrupted one, ``interrupted_before``, counts that
one too). The script writes ``epsilon_count_told`` beside each such execution and withholds its
wall time from the record from now on (``wall_seconds: null``, ``count_told`` saying why); the campaigns'
tables show the larger figure. Run from the repository root:

    python bench/released_counts.py && python bench/untuned_tasks.py --task cnn5 --epsilon 2 --write \\
        && python bench/text_evidence.py --task health-tweets --epsilon 3 --rows --write
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from results import secret_count  # bench/ is on the path
from untuned_tasks import ROOT

from dptune.privacy.accounting import rdp_to_epsilon
from dptune.privacy.tuning import revealed_count_curve, worst_curve
from dptune.sweep.spec_parts import parse_trial_count

RECORDS = (ROOT / "bench" / "untuned_tasks.json", ROOT / "bench" / "text_evidence.json")
TRAINING_SAMPLES = {
    "cnn5": 20_000,
    "mlp": 20_000,
    "rotten-tomatoes": 10_202,
    "vader-snippets": 10_140,
    "health-tweets": 10_907,
    "npr-reuters-tweets": 7_344,
    "nbc-latimes-tweets": 6_272,
    "cnn-bbc-tweets": 6_336,
    "kaiser-cbc-tweets": 5_762,
    "everyday-wsj-tweets": 4_366,
    "msn-guardian-tweets": 4_856,
    "fox-usnews-tweets": 2_708,
    "computers-people-fortunes": 1_842,
    "genesis-psalms-kjv": 3_188,
    "isaiah-jeremiah-kjv": 2_121,
    "exodus-ezekiel-numbers-kjv": 2_916,
    "job-luke-matthew-kjv": 2_617,
    "chronicles-acts-deuteronomy-kjv": 2_326,
    "john-leviticus-proverbs-kjv": 2_099,
    "kings-samuel-2chronicles-kjv": 1_950,
    "kings2-samuel2-mark-kjv": 1_670,
    "corinthians-joshua-judges-kjv": 1_368,
    "nehemiah-revelation-romans-kjv": 991,
    "daniel-ezra-hebrews-kjv": 752,
    "corinthians2-ecclesiastes-zechariah-kjv": 552,
    "politics-science-work-fortunes": 1_567,
    "ephesians-esther-hosea-kjv": 416,
    "testaments-kjv": 1_743,
    "abc-tass-aljazeera-titles": 1_167,
    "dw-huffpost-rte-titles": 1_048,
    "bbc-chinadaily-cnn-titles": 770,
    "art-linux-men-women-fortunes": 1_106,
    "drugs-literature-perl-fortunes": 595,
    "education-food-law-fortunes": 485,
    "ethnic-kids-love-sports-fortunes": 487,
    "con-lab-commons-speeches": 662,
    "clinton-kaine-pence-trump-debates": 618,
    "guardian-january-june-headlines": 1_008,
}
"""Each task's training samples, as its campaign's docstring states them (the rebuilt plan's ε checks
them: a plan on another n states another ε)."""
TOLD = "its wall time, which grows with its secret count, was published in this record until 2026-12-02"
CLOCKED = (
    "its results were committed as it ended, between rows whose wall times are published: the commits' "
    "times bound its duration, which grows with its secret count"
)
PLAN = """
import json, sys, yaml
from pathlib import Path
from dptune.sweep.pipeline import planned
from dptune.sweep.spec import parse_spec
doc = yaml.safe_load(Path(sys.argv[1]).read_text())
doc["privacy"]["epsilon"] = float(sys.argv[2])
(plan,) = planned(parse_spec(doc, Path.cwd()), int(sys.argv[3]))
print(json.dumps(plan.as_dict()))
"""
"""Run in a worktree of the commit an execution ran: that commit's plan of its spec at one total."""


def plan_at(commit: str, spec: str, total: str, samples: int, worktrees: Path) -> dict[str, Any]:
    """The plan ``commit``'s planner makes of ``spec`` (a repository path) at ``total`` on ``samples``."""
    tree = worktrees / commit
    if not tree.exists():
        git = ["git", "worktree", "add", "--quiet", "--detach", str(tree), commit]
        subprocess.run(git, cwd=ROOT, check=True)
    done = subprocess.run(
        [sys.executable, "-c", PLAN, spec, total, str(samples)],
        cwd=tree,
        env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin", "HOME": str(Path.home())},
        capture_output=True,
        text=True,
        check=True,
    )
    plan: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return plan


def ledgers(stage: dict[str, Any]) -> tuple[tuple[tuple[float, float, int], ...], ...]:
    """A plan stage's written-out mechanisms as ledgers of (σ, q, steps)."""
    return tuple(
        tuple((m["noise_multiplier"], m["sample_rate"], m["steps"]) for m in ledger)
        for ledger in stage["mechanisms"]
    )


def count_told_epsilon(plan: dict[str, Any], searches: int = 1) -> float:
    """ε at the plan's δ of its tuning's K runs with K told (``revealed_count_curve``) and its release, the
    whole search ``searches`` times on the same data (an interrupted one, discarded and run again whole,
    counted as if it had run to its end and released: its clock told its count all the same)."""
    tuning, release = plan["stages"]
    count = parse_trial_count(tuning["runs"], "plan.stages[0].runs")  # the spec's form, as the plan writes it
    curve = revealed_count_curve(worst_curve(ledgers(tuning)), count) + worst_curve(ledgers(release))
    return rdp_to_epsilon(searches * curve, plan["delta"])


def told(execution: dict[str, Any]) -> str | None:
    """How an execution's record told its count (``TOLD``, ``CLOCKED``); None where it released no model."""
    if execution["final_test_accuracy"] is None:
        return None
    if execution.get("wall_seconds") is not None or execution.get("count_told") == TOLD:
        return TOLD
    return CLOCKED


def restate(path: Path, worktrees: Path) -> None:
    """Every told execution in the record ``path`` of a row whose spec draws its trial count
    (``results.secret_count``: repeat-and-select's): its ε with K told, its time withheld."""
    record = json.loads(path.read_text())
    for task, cells in record.items():
        for total, cell in cells.items():
            for entry in cell.values():
                args = entry["command"].split()[1:]  # .venv/bin/dptune run SPEC --epsilon E
                if secret_count(args, ROOT):
                    restate_row(entry, args[1], task, total, worktrees, path.name)
    path.write_text(json.dumps(record, indent=1) + "\n")


def restate_row(entry: dict[str, Any], spec: str, task: str, total: str, worktrees: Path, name: str) -> None:
    """Each told execution of one row (``entry``, which ran ``spec``) of ``task`` at ``total``, restated in
    place."""
    for execution in filter(told, entry["executions"]):
        plan = plan_at(execution["code"], spec, total, TRAINING_SAMPLES[task], worktrees)
        if abs(plan["epsilon"] - execution["epsilon"]) > 1e-9 * execution["epsilon"]:
            sys.exit(
                f"{task} ε={total}: the plan rebuilt at {execution['code']} states ε "
                f"{plan['epsilon']}, the execution {execution['epsilon']}"
            )
        execution |= {
            "wall_seconds": None,
            "count_told": told(execution),
            "epsilon_count_told": count_told_epsilon(plan, 1 + len(execution.get("interrupted_before", []))),
        }
        print(
            f"{name} {task} ε={total}: {execution['epsilon']:.3f} with K secret, "
            f"{execution['epsilon_count_told']:.3f} with K told"
        )


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        for path in RECORDS:
            restate(path, Path(folder))
    subprocess.run(["git", "worktree", "prune"], cwd=ROOT, check=True)


if __name__ == "__main__":
    main()
