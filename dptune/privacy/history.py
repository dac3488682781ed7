"""A run's privacy history: the ``(z, q, steps)`` entries an accountant composes (a run of ``steps``
Poisson-subsampled Gaussian mechanisms, its privatized steps, of noise multiplier z at sampling rate q),
and a bracket on ε."""

from __future__ import annotations

HistoryEntry = tuple[float, float, int]
"""``(z, q, steps)``: ``steps`` privatized steps with noise multiplier z on Poisson samples of rate q."""
EpsilonBounds = tuple[float, float]
"""A lower and an upper bound on ε (equal once exact)."""
