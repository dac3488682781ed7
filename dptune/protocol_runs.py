"""Fixed-configuration runs outside a sweep (e.g. the seeds of a reproduction) in MLflow.

Each run is one (method, ε, protocol, seed), where a protocol names where its settings came from
(``paper_settings``: the paper's fixed values; ``tuned``: a sweep's best). They are grouped into
cells of mean ± sd over seeds, printed by ``dptune report`` and plotted as accuracy against ε.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mlflow.entities import RunStatus
from mlflow.tracking import MlflowClient

from dptune.tracking import METHOD_TAG, STATUS_TAG, experiment_id, param_text

PROTOCOL_TAG = "dptune.protocol"
RUN_KEY_TAG = "dptune.run_key"
PROTOCOLS = ("paper_settings", "tuned")


def run_by_key(client: MlflowClient, experiment_id: str, key: str) -> str | None:
    """The id of the run tagged with ``key``, if one was recorded."""
    found = client.search_runs([experiment_id], filter_string=f"tags.`{RUN_KEY_TAG}` = '{key}'")
    return found[0].info.run_id if found else None


def log_final_run(client: MlflowClient, experiment: str, key: str, summary: dict[str, Any]) -> str:
    """Record a finished fixed-configuration run (e.g. one seed of a reproduction), once per ``key``."""
    exp = experiment_id(client, experiment)
    known = run_by_key(client, exp, key)
    if known is not None:
        return known
    run = client.create_run(
        exp,
        run_name=key,
        tags={
            RUN_KEY_TAG: key,
            PROTOCOL_TAG: summary["protocol"],
            METHOD_TAG: summary["method"],
            STATUS_TAG: "final",
            "dptune.epsilon_target": f"{summary['epsilon_target']:g}",
            "dptune.noise_source": summary.get("noise_source", "seeded"),  # older records were seeded
            "sampling": summary["sampling"],
            "accountant": summary["accountant"],
        }
        | ({"dptune.seed": str(summary["seed"])} if summary.get("seed") is not None else {}),
    )
    run_id = run.info.run_id
    for name in ("test_accuracy", "epsilon_spent", "delta", "noise_multiplier", "wall_seconds"):
        client.log_metric(run_id, name, float(summary[name]))
    for name, value in sorted(summary["settings"].items()):
        client.log_param(run_id, name, param_text(value))
    client.set_terminated(run_id, RunStatus.to_string(RunStatus.FINISHED))
    return run_id


@dataclass(frozen=True)
class ProtocolCell:
    """Accuracy over seeds of one method at one ε under one protocol (``paper_settings``/``tuned``)."""

    method: str
    epsilon: str
    protocol: str
    accuracies: tuple[float, ...]

    @property
    def mean(self) -> float:
        """Mean test accuracy in percent."""
        return 100 * statistics.fmean(self.accuracies)

    @property
    def sd(self) -> float:
        """Sample standard deviation over seeds in percent (0 for a single seed)."""
        return 100 * statistics.stdev(self.accuracies) if len(self.accuracies) > 1 else 0.0


def protocol_cells(client: MlflowClient, experiment: str) -> list[ProtocolCell]:
    """Final runs tagged with a protocol, grouped by (method, ε, protocol)."""
    found = client.get_experiment_by_name(experiment)
    if found is None:
        return []
    runs = client.search_runs(
        [found.experiment_id], filter_string=f"tags.`{PROTOCOL_TAG}` != ''", max_results=50000
    )
    groups: dict[tuple[str, str, str], list[float]] = {}
    for run in runs:
        tags = run.data.tags
        key = (tags[METHOD_TAG], tags["dptune.epsilon_target"], tags[PROTOCOL_TAG])
        groups.setdefault(key, []).append(run.data.metrics["test_accuracy"])
    return [ProtocolCell(m, e, p, tuple(a)) for (m, e, p), a in sorted(groups.items())]


def format_protocol_table(cells: list[ProtocolCell]) -> str:
    """method × ε: accuracy mean ± sd (seeds) at the papers' settings, tuned, then any other protocol."""
    by_key = {(c.method, c.epsilon, c.protocol): c for c in cells}
    rows = sorted({(c.method, c.epsilon) for c in cells}, key=lambda r: (float(r[1]), r[0]))
    columns = [*PROTOCOLS, *sorted({c.protocol for c in cells} - set(PROTOCOLS))]
    header = f"{'method':<15} {'ε':>4}" + "".join(f"  {p.replace('_', ' '):>20}" for p in columns)
    lines = [header, "-" * len(header)]
    for method, eps in rows:
        shown = []
        for protocol in columns:
            cell = by_key.get((method, eps, protocol))
            shown.append(f"{cell.mean:6.2f} ± {cell.sd:4.2f} (n={len(cell.accuracies)})" if cell else "-")
        lines.append(f"{method:<15} {eps:>4}" + "".join(f"  {text:>20}" for text in shown))
    return "\n".join(lines)


def plot_protocol_cells(cells: list[ProtocolCell], protocols: list[str], path: Path, title: str) -> None:
    """Accuracy (mean ± sd over seeds) against target ε, one line per (method, protocol): the first
    protocol's lines solid and labelled by method, the others dashed in their method's colour."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    chosen = [c for c in cells if c.protocol in protocols]
    if not any(c.protocol == protocols[0] for c in chosen):
        raise ValueError(f"no runs with protocol {protocols[0]!r} to plot")
    fig, ax = plt.subplots(figsize=(7, 4.5))
    lines = sorted({(c.method, c.protocol) for c in chosen}, key=lambda m: (m[0], protocols.index(m[1])))
    methods = sorted({method for method, _ in lines})
    colours = {method: f"C{index}" for index, method in enumerate(methods)}
    for index, (method, protocol) in enumerate(lines):
        line = [c for c in chosen if (c.method, c.protocol) == (method, protocol)]
        points = sorted(line, key=lambda c: float(c.epsilon))
        dodge = 2 ** (0.03 * (index - (len(lines) - 1) / 2))  # keeps equal means apart on the log axis
        first = protocol == protocols[0]
        ax.errorbar(
            [float(c.epsilon) * dodge for c in points],
            [c.mean for c in points],
            yerr=[c.sd for c in points],
            marker="o" if first else "s",
            linestyle="-" if first else "--",
            color=colours[method],
            capsize=3,
            label=method if first else f"{method} ({protocol.replace('_', ' ')})",
        )
    ax.set_xscale("log", base=2)
    epsilons = sorted({float(c.epsilon) for c in chosen})
    ax.set_xticks(epsilons, [f"{e:g}" for e in epsilons])
    ax.set_xlabel("ε (target; every run spends ≤ it)")
    ax.set_ylabel("test accuracy (%), mean ± sd over seeds")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def log_protocol_summary(client: MlflowClient, experiment: str, key: str, files: list[Path]) -> str:
    """Attach summary files (table, plot) to one run per ``key``, created once and updated in place."""
    exp = experiment_id(client, experiment)
    run_id = run_by_key(client, exp, key)
    if run_id is None:
        run = client.create_run(exp, run_name=key, tags={RUN_KEY_TAG: key, STATUS_TAG: "summary"})
        run_id = run.info.run_id
        client.set_terminated(run_id, RunStatus.to_string(RunStatus.FINISHED))
    for file in files:
        client.log_artifact(run_id, str(file))
    return run_id
