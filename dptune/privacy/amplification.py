"""Privacy amplification by a secret Poisson subset of the data (a tuning proxy's, ``proxy_fraction``).

If a mechanism M is (ε, δ)-DP under add/remove of one record, then running it on a secret subset that
keeps each record independently with probability γ is (ε', δ')-DP with

    ε' = log(1 + γ(e^ε − 1)),    δ' = γ·δ

(Balle, Barthe & Gaboardi, NeurIPS 2018, Theorem 8, Poisson subsampling under the add/remove relation;
Li, Qardaji & Su 2012 for δ = 0). M may be anything that only sees the subset: one run, or a whole
adaptive search with its selection, as long as the subset is drawn once, independently of everything
else, and never released (not its members, not its size).
"""

from __future__ import annotations

import math


def amplified_by_subset(epsilon: float, delta: float, fraction: float) -> tuple[float, float]:
    """(log(1 + γ(e^ε − 1)), γδ): the guarantee on the whole data of an (ε, δ)-DP mechanism that ran on
    a secret Poisson subset keeping each record with probability γ = ``fraction``."""
    if not 0 < fraction <= 1:
        raise ValueError(f"a subset's fraction is in (0, 1], got {fraction}")
    return math.log1p(fraction * math.expm1(epsilon)), fraction * delta
