"""Fixed-configuration runs outside a sweep (e.g. the seeds of a reproduction), grouped into cells.

Each run is one (method, ε, protocol, seed), where a protocol names where its settings came from
(``paper_settings``: the paper's fixed values; ``tuned``: a sweep's best). They are grouped into
cells of mean ± sd over seeds, printed by ``dptune report`` and plotted as accuracy against ε.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass

PROTOCOLS = ("paper_settings", "tuned")


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
