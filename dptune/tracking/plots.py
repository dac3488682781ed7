"""The plots a sweep and a reproduction attach: accuracy against ε (matplotlib, drawn off-screen)."""

from __future__ import annotations

from pathlib import Path

from dptune.tracking.protocols import ProtocolCell
from dptune.tracking.report import TradeOff, pareto_front


def plot_tradeoffs(rows: list[TradeOff], path: Path) -> None:
    """Accuracy vs ε spent: one line per method (its selected configuration at each ε target) of the
    re-runs' mean final-test accuracy with ± sd bars, the validation accuracy that selected it as a
    hollow marker, and the Pareto front of the final-test scores."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    for method in sorted({r.method for r in rows}):
        points = sorted((r for r in rows if r.method == method), key=lambda r: r.epsilon_spent)
        tested = [p for p in points if p.test_accuracy is not None]
        line = ax.errorbar(
            [p.epsilon_spent for p in tested],
            [100 * (p.test_accuracy or 0.0) for p in tested],
            yerr=[100 * (p.test_sd or 0.0) for p in tested],
            marker="o",
            capsize=3,
            label=f"{method} (final test)",
        )
        ax.scatter(
            [p.epsilon_spent for p in points],
            [100 * p.validation_accuracy for p in points],
            marker="o",
            facecolors="none",
            edgecolors=line.lines[0].get_color(),
            label=f"{method} (validation)",
        )
    front = pareto_front(rows)
    ax.step(
        [p.epsilon_spent for p in front],
        [100 * (p.test_accuracy or 0.0) for p in front],
        where="post",
        color="black",
        linestyle="--",
        linewidth=1,
        label="Pareto front (final test)",
    )
    ax.set_xlabel("ε spent")
    ax.set_ylabel("accuracy (%)")
    ax.set_title("Selected configurations: final test (filled, ± sd) and validation (hollow)")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


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
