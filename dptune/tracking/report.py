"""The best trade-offs of sweeps as values and text: one selected configuration per (method, ε target),
the Pareto front, and the tables ``dptune run`` and ``dptune report`` print. Nothing here knows a
tracking backend.

A configuration is selected on its validation score; the accuracy a row reports is the final-test score
of its re-runs (mean ± sd over fresh randomness), which no selection has looked at.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from dptune.privacy.plan_privacy import PLAN_BOUND
from dptune.sweep.results import TradeOff
from dptune.sweep.summary import WITHHELD
from dptune.training.config import report_columns
from dptune.training.trial_status import shown_score

BOUND_ABBREVIATIONS = {
    "repeat-and-select": "R&S",
    "composition": "comp.",
    "filter": "filter",
    PLAN_BOUND: "plan",
}


@dataclass(frozen=True)
class Compute:
    """What the results of one method at one ε target cost to compute, read from the tracked runs of an
    experiment: the trials its sweeps started by kind (``proxy``: a tuning proxy's search on its subset;
    ``search``; ``final``: the re-runs of the selected configuration), the run time of those trials
    summed (each from its start to its end, failed and early-stopped ones included: trial-seconds), and
    the wall time of the sweeps that ran them (their parent runs' start to end, so a resumed sweep's
    includes the time it stood still; every method of that ε shares it, as they run side by side). A run
    lost with a killed driver counts as a trial, without time (its end is unknown). None: withheld, as a
    sweep behind it keeps its trial count secret (``WITHHELD``)."""

    method: str
    epsilon_target: float
    trials: dict[str, int] | None  # kind -> trials started
    trial_seconds: float | None
    sweep_wall_seconds: float | None

    def as_dict(self) -> dict[str, Any]:
        if self.trials is None or self.trial_seconds is None:
            return {"method": self.method, "epsilon_target": self.epsilon_target, "withheld": WITHHELD}
        return {
            "method": self.method,
            "epsilon_target": self.epsilon_target,
            "trials": dict(self.trials),
            "trial_hours": self.trial_seconds / 3600,
            "sweep_wall_hours": None if self.sweep_wall_seconds is None else self.sweep_wall_seconds / 3600,
        }


@dataclass(frozen=True)
class TrialPoint:
    """One trial of a sweep as the accuracy-vs-ε plots draw it: a search trial (``role="search"``, scored
    on validation; ``selected`` marks the one its method's selection chose at that ε target) or a re-run
    of a selected configuration (``role="final"``, scored on the final test). An accuracy is None when the
    trial has no such score (e.g. it failed before its evaluation)."""

    method: str
    epsilon_target: float
    epsilon_spent: float
    validation_accuracy: float | None
    role: Literal["search", "final"]
    test_accuracy: float | None
    selected: bool
    run_id: str


@dataclass(frozen=True)
class PlotContext:
    """What a plot's title states about the sweeps behind it: dataset, model, δ, the epochs as text
    (``"10"``, or a searched range such as ``"10–40"``), for a list of totals the (ε, δ) of releasing
    all its models (``releases``) and, for released models, what each phase of their plans spent
    (``phases``: ``phase_lines``, a line per total). An empty text is left out of the title."""

    dataset: str
    model: str
    delta: float
    epochs: str
    releases: str = ""
    phases: tuple[str, ...] = ()


def phase_lines(plans: Sequence[Mapping[str, Any]]) -> tuple[str, ...]:
    """What each phase of the stored plans (``MethodPlan.as_dict``) spent, a line per total:
    ``total 1: 8 × ε_t 0.0806 (ε 0.25), then ε_B 0.955`` (the tuning phase's trials, each at ε_t,
    composing to ε on the data; then the release's run at ε_B; one model across methods:
    ``total 2: 3 methods × 4 × ε_t 0.135 (ε 0.5), then one model at ε_B 1.92``; a second rung of
    successive halving: ``8 × ε_t 0.126 + 2 × 0.22 (ε 0.5)``); plans that differ at a
    total are told apart by method, a line each. A random count reads as its mean (K itself is secret)."""
    parts: dict[float, dict[str, list[str]]] = {}
    for plan in plans:
        tuning, release = plan["stages"]
        runs = tuning["runs"]
        count = f"secret K (mean {runs['mean']:g})" if isinstance(runs, dict) else f"{runs}"
        among = plan.get("released_among", [plan["method"]])
        if len(among) > 1:  # one model across methods: every method's trials, one release
            count = f"{len(among)} methods × {count}"
        released = "then one model at ε_B" if len(among) > 1 else "then ε_B"
        promoted = tuning.get("promoted")  # a second rung: its runs per method, each at its own ε
        longer = f" + {promoted['runs']} × {promoted['per_run_epsilon']:.3g}" if promoted else ""
        text = (
            f"{count} × ε_t {tuning['per_run_epsilon']:.3g}{longer} (ε {tuning['epsilon']:.3g}), "
            f"{released} {release['per_run_epsilon']:.3g}"
        )
        parts.setdefault(plan["total_epsilon"], {}).setdefault(text, []).append(plan["method"])
    lines = []
    for total, texts in sorted(parts.items()):
        if len(texts) == 1:
            lines.append(f"total {total:g}: {next(iter(texts))}")
        else:
            lines += [f"total {total:g}, {', '.join(m)}: {t}" for t, m in texts.items()]
    return tuple(lines)


def setting(row: TradeOff) -> tuple[str, str, float]:
    """What a result is a result of besides its method and ε: (dataset, model, δ). Rows of different
    settings are never compared, nor one chosen over another."""
    return (str(row.params.get("dataset", "?")), str(row.params.get("model", "?")), row.delta)


PIPELINE_ROWS = (
    "  (a row whose ε w/ tuning reads '(plan)' is a released model: its validation, ε spent and settings\n"
    "  are those of the tuning trial its plan selected; its final test is the release, trained at the ε\n"
    "  the plan left, with the step its rule carried; the settings it trained with are on its privacy card)"
)
"""What a pipeline's row in the table reads as: the table lists the selected trials (``format_table``)."""


def format_report(rows: list[TradeOff]) -> str:
    """``format_table`` of the rows, a section per setting (dataset, model, δ) when there are several;
    then the plan of each pipeline's row (ε including the tuning: what each phase spent)."""
    settings = sorted({setting(row) for row in rows})
    plans = [
        f"  {row.method:<15} total ε {row.epsilon_target:g}: {row.tuning_note}"
        for row in rows
        if row.tuning_bound == PLAN_BOUND and row.tuning_note
    ]
    planned = (
        (
            f"\n\nplans of the released models (their ε includes the tuning):\n{PIPELINE_ROWS}\n"
            + "\n".join(plans)
        )
        if plans
        else ""
    )
    if len(settings) <= 1:
        return format_table(rows) + planned
    sections = []
    for dataset, model, delta in settings:
        group = [row for row in rows if setting(row) == (dataset, model, delta)]
        sections.append(f"{dataset} / {model}, δ = {delta:g}:\n" + format_table(group))
    return "\n\n".join(sections) + planned


def pareto_front(points: list[TradeOff]) -> list[TradeOff]:
    """Points with a final-test score not dominated in (lower ε spent, higher mean final-test accuracy),
    by increasing ε."""
    front: list[TradeOff] = []
    scored = [p for p in points if p.test_accuracy is not None]
    for point in sorted(scored, key=lambda p: (p.epsilon_spent, -(p.test_accuracy or 0.0))):
        if not front or (point.test_accuracy or 0.0) > (front[-1].test_accuracy or 0.0):
            front.append(point)
    return front


def format_test(row: TradeOff) -> str:
    """Final-test accuracy as ``mean ± sd (n)`` in %, with the std of each score's private noise after
    the count where the held-out split is private (``67.58 (1; noise ± 5.5)``), or – without re-runs."""
    if row.test_accuracy is None:
        return "–"
    sd = f" ± {100 * row.test_sd:.2f}" if row.test_sd is not None else ""
    noise = "" if row.test_noise is None else f"; noise ± {100 * row.test_noise:.2g}"
    return f"{100 * row.test_accuracy:.2f}{sd} ({len(row.test_accuracies)}{noise})"


def format_tuning(row: TradeOff, digits: str = ".3f") -> str:
    """ε including tuning with its bound, and its δ where that exceeds the run's (an earlier sweep's δ
    added by a warm start): ``2.202 (comp.)``, ``28.785 (comp., δ 3e-05)``; – without a figure."""
    if row.epsilon_including_tuning is None:
        return "–"
    notes = [BOUND_ABBREVIATIONS.get(row.tuning_bound or "", row.tuning_bound or "?")]
    if row.delta_including_tuning is not None and not math.isclose(row.delta_including_tuning, row.delta):
        notes.append(f"δ {row.delta_including_tuning:.0e}")
    return f"{row.epsilon_including_tuning:{digits}} ({', '.join(notes)})"


def significant(value: Any) -> str:
    """A setting for display: floats (also inside lists) to 4 significant digits."""
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, list):
        return "[" + ", ".join(significant(v) for v in value) + "]"
    return str(value)


def format_table(rows: list[TradeOff]) -> str:
    """A plain-text table of selected configurations: validation accuracy (what selected them; ± the std
    of its private noise on a private held-out split) beside the final-test accuracy of their re-runs
    (``format_test``); ε w/ tuning is the whole search's and its re-runs' (bound: R&S, comp. or filter)."""
    tests = [format_test(row) for row in rows]
    wide = max([20, *map(len, tests)])  # 20: as wide as the heading and a bare single run's cell
    header = (
        f"{'method':<15} {'ε target':>8} {'ε spent':>8} {'ε w/ tuning':>15} {'δ':>8} "
        f"{'validation':>14} {'final test':>{wide}} {'noise':>7}  settings"
    )
    lines = [header, "-" * len(header)]
    for row, test in zip(rows, tests, strict=True):
        settings = ", ".join(f"{k}={significant(row.params[k])}" for k in report_columns() if k in row.params)
        lines.append(
            f"{row.method:<15} {row.epsilon_target:>8g} {row.epsilon_spent:>8.4f} {format_tuning(row):>15} "
            f"{row.delta:>8.1e} {shown_score(row.validation_accuracy, row.validation_noise):>14} "
            f"{test:>{wide}} {row.noise_source:>7}  {settings}"
        )
    return "\n".join(lines)


def format_compute(rows: list[Compute]) -> str:
    """Per ε target, the sweeps' wall time, then per method the trials started by kind and their
    trial-hours (``Compute``); ``WITHHELD`` in their place for a secret trial count."""
    lines = []
    for target in sorted({row.epsilon_target for row in rows}):
        at = [row for row in rows if row.epsilon_target == target]
        wall = at[0].sweep_wall_seconds
        shown = (
            "withheld (a sweep of this ε keeps its trial count secret)"
            if wall is None
            else f"{wall / 3600:.2f} h"
        )
        lines.append(f"ε target {target:g}: sweeps' wall time {shown}")
        for row in at:
            if row.trials is None or row.trial_seconds is None:
                lines.append(f"  {row.method:<15} {WITHHELD}")
                continue
            kinds = ", ".join(f"{count} {kind}" for kind, count in sorted(row.trials.items()))
            lines.append(f"  {row.method:<15} {row.trial_seconds / 3600:>7.2f} trial-h  ({kinds})")
    return "\n".join(lines)
