"""The best trade-offs of sweeps as values and text: one best trial per (method, ε target), the Pareto
front, and the tables ``dptune run`` and ``dptune report`` print. Nothing here knows a tracking backend.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from dptune.config import report_columns

BOUND_ABBREVIATIONS = {"repeat-and-select": "R&S", "composition": "comp.", "filter": "filter"}


@dataclass(frozen=True)
class TradeOff:
    """The best finished trial of one method at one privacy target, from MLflow."""

    method: str
    epsilon_target: float
    epsilon_spent: float
    delta: float
    test_accuracy: float
    sweep: str
    run_id: str
    params: dict[str, str]
    epsilon_including_tuning: float | None = None  # the method's whole search in its sweep
    tuning_bound: str | None = None  # repeat-and-select or composition
    epsilon_all_trials: float | None = None  # releasing every trial of the search (None: private)
    noise_source: str = "secure"  # or "seeded" (research mode: the seeds are logged)

    def as_dict(self) -> dict[str, Any]:
        return {
            "noise_source": self.noise_source,
            "method": self.method,
            "epsilon_target": self.epsilon_target,
            "epsilon_spent": self.epsilon_spent,
            "epsilon_including_tuning": self.epsilon_including_tuning,
            "tuning_bound": self.tuning_bound,
            "epsilon_all_trials": self.epsilon_all_trials,
            "delta": self.delta,
            "test_accuracy": self.test_accuracy,
            "sweep": self.sweep,
            "run_id": self.run_id,
            "params": self.params,
        }


def pareto_front(points: list[TradeOff]) -> list[TradeOff]:
    """Points not dominated in (lower ε spent, higher accuracy), by increasing ε."""
    front: list[TradeOff] = []
    for point in sorted(points, key=lambda p: (p.epsilon_spent, -p.test_accuracy)):
        if not front or point.test_accuracy > front[-1].test_accuracy:
            front.append(point)
    return front


def significant(value: Any) -> str:
    """A setting for display: floats (also inside lists) to 4 significant digits."""
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, list):
        return "[" + ", ".join(significant(v) for v in value) + "]"
    return str(value)


def _short(text: str) -> str:
    """A logged parameter with numbers shown to 4 significant digits."""
    try:
        return significant(json.loads(text))
    except ValueError:
        return text


def format_table(rows: list[TradeOff]) -> str:
    """A plain-text table of best trade-offs; ε w/ tuning is the whole search's (bound: R&S or comp.)."""
    header = (
        f"{'method':<15} {'ε target':>8} {'ε spent':>8} {'ε w/ tuning':>15} {'δ':>8} "
        f"{'accuracy':>9} {'noise':>7}  settings"
    )
    lines = [header, "-" * len(header)]
    for row in rows:
        settings = ", ".join(f"{k}={_short(row.params[k])}" for k in report_columns() if k in row.params)
        tuning = (
            f"{row.epsilon_including_tuning:.3f} ({BOUND_ABBREVIATIONS.get(row.tuning_bound or '', '?')})"
            if row.epsilon_including_tuning is not None
            else "–"
        )
        lines.append(
            f"{row.method:<15} {row.epsilon_target:>8g} {row.epsilon_spent:>8.4f} {tuning:>15} "
            f"{row.delta:>8.1e} {100 * row.test_accuracy:>8.2f}% {row.noise_source:>7}  {settings}"
        )
    return "\n".join(lines)
