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

import functools
import math

import numpy as np

from dptune.privacy.accounting import RDP_ORDERS


def amplified_by_subset(epsilon: float, delta: float, fraction: float) -> tuple[float, float]:
    """(log(1 + γ(e^ε − 1)), γδ): the guarantee on the whole data of an (ε, δ)-DP mechanism that ran on
    a secret Poisson subset keeping each record with probability γ = ``fraction``."""
    if not 0 < fraction <= 1:
        raise ValueError(f"a subset's fraction is in (0, 1], got {fraction}")
    return math.log1p(fraction * math.expm1(epsilon)), fraction * delta


def amplified_rdp(curve: np.ndarray, fraction: float) -> np.ndarray:
    """RDP over ``RDP_ORDERS`` of a mechanism with RDP ``curve`` run on a secret Poisson subset of rate
    γ = ``fraction`` (Zhu & Wang, ICML 2019, "Poisson Subsampled Rényi Differential Privacy", Thm. 6, for
    any mechanism under add/remove), at every integer order α ≥ 2:

        ε'(α) ≤ 1/(α−1) · log[ (1−γ)^{α−1}(αγ − γ + 1) + C(α,2) γ² (1−γ)^{α−2} e^{ε(2)}
                               + 3 Σ_{ℓ=3}^{α} C(α,ℓ) γ^ℓ (1−γ)^{α−ℓ} e^{(ℓ−1)ε(ℓ)} ].

    ε(ℓ) at an integer the orders lack is read at the next order they hold (RDP does not decrease in α, so
    this only overstates), and every order α takes ε'(⌈α⌉) (the same monotonicity; ε'(2) below 2). All
    orders at once: the logarithm of the sum is one log-sum-exp per row of the matrix of its terms
    (``_subset_terms``, which depend on γ alone), plus (ℓ−1)ε(ℓ) in each column ℓ.
    """
    from scipy.special import logsumexp

    if not 0 < fraction <= 1:
        raise ValueError(f"a subset's fraction is in (0, 1], got {fraction}")
    if fraction == 1:
        return np.asarray(curve, dtype=float)
    at, constant, first = _subset_terms(fraction)
    base = np.asarray(curve, dtype=float)[at]  # ε(ℓ), ℓ = 2 … top
    terms = constant + np.arange(1, len(base) + 1) * base  # row α, column ℓ: C(α,ℓ)… e^{(ℓ−1)ε(ℓ)}
    amplified = logsumexp(np.column_stack([terms, first]), axis=1) / np.arange(1, len(base) + 1)
    orders = np.asarray(RDP_ORDERS)
    ceiling = np.maximum(np.ceil(orders - 1e-9), 2).astype(int)
    result: np.ndarray = amplified[ceiling - 2]
    return result


@functools.lru_cache(maxsize=64)
def _subset_terms(fraction: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What Thm. 6 (``amplified_rdp``) adds up at γ = ``fraction``, for every integer order α = 2 … 63
    (rows) and ℓ = 2 … 63 (columns), before the mechanism's e^{(ℓ−1)ε(ℓ)}: the index into ``RDP_ORDERS``
    of the first order ≥ each ℓ; log[c_ℓ C(α,ℓ) γ^ℓ (1−γ)^{α−ℓ}] (c_2 = 1, c_ℓ = 3 beyond; −∞ for ℓ > α);
    and log[(1−γ)^{α−1}(1 + (α−1)γ)] per row."""
    from scipy.special import gammaln

    orders = np.asarray(RDP_ORDERS)
    integers = np.arange(2, int(orders.max()) + 1)
    at = np.searchsorted(orders, integers - 1e-9)  # the first order >= each integer
    alpha, ell = integers[:, None], integers[None, :]
    log_keep, log_drop = math.log(fraction), math.log1p(-fraction)
    with np.errstate(invalid="ignore"):
        log_binomial = gammaln(alpha + 1) - gammaln(ell + 1) - gammaln(alpha - ell + 1)
    constant = log_binomial + ell * log_keep + (alpha - ell) * log_drop + np.where(ell > 2, math.log(3), 0.0)
    constant = np.where(ell <= alpha, constant, -np.inf)
    first = (integers - 1) * log_drop + np.log1p((integers - 1) * fraction)
    return at, constant, first
