"""Privacy amplification by a secret Poisson subset of the data (a tuning proxy's, ``proxy_fraction``).

If a mechanism M is (ε, δ)-DP under add/remove of one record, then running it on a secret subset that
keeps each record independently with probability γ is (ε', δ')-DP with

    ε' = log(1 + γ(e^ε − 1)),    δ' = γ·δ

(Balle, Barthe & Gaboardi, NeurIPS 2018, Theorem 8, Poisson subsampling under the add/remove relation;
Li, Qardaji & Su 2012 for δ = 0), for every ε: the whole privacy profile δ(ε) of M maps to M's on the
data. M may be anything that only sees the subset: one run, or a whole adaptive search with its
selection, as long as the subset is drawn once, independently of everything else, and never released
(not its members, not its size). Three forms here: the (ε, δ) pair (``amplified_by_subset``), Zhu & Wang's
RDP bound (``amplified_rdp``) and the PLD of the amplified mechanism's dominating pair (``amplified_pld``),
the tightest, which composes with other PLDs.

A per-step rate of γ·q is *not* what such a subset gives: the subset is drawn once for all the steps,
so its steps are not independent Poisson samples of the data.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from dptune.privacy.accounting import RDP_ORDERS
from dptune.privacy.history import HistoryEntry
from dptune.privacy.pld import pld_of


def amplified_by_subset(epsilon: float, delta: float, fraction: float) -> tuple[float, float]:
    """(log(1 + γ(e^ε − 1)), γδ): the guarantee on the whole data of an (ε, δ)-DP mechanism that ran on
    a secret Poisson subset keeping each record with probability γ = ``fraction``."""
    if not 0 < fraction <= 1:
        raise ValueError(f"a subset's fraction is in (0, 1], got {fraction}")
    return math.log1p(fraction * math.expm1(epsilon)), fraction * delta


def on_subset(epsilon: float, delta: float, fraction: float) -> tuple[float, float]:
    """The (ε_X, δ_X) on a secret Poisson subset of rate γ = ``fraction`` that ``amplified_by_subset`` takes
    to (ε, δ) on the data: (log(1 + (e^ε − 1)/γ), δ/γ); (ε, δ) for γ = 1."""
    if not 0 < fraction <= 1:
        raise ValueError(f"a subset's fraction is in (0, 1], got {fraction}")
    if fraction == 1:
        return epsilon, delta
    return math.log1p(math.expm1(epsilon) / fraction), delta / fraction


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


def amplified_pld(pld: Any, fraction: float, interval: float) -> Any:
    """The PLD on the whole data of a mechanism whose PLD on the subset is ``pld`` (dp-accounting's
    ``PrivacyLossDistribution``, add-or-remove), run on a secret Poisson subset of rate γ = ``fraction``, on
    the grid of ``interval`` (γ = 1: ``pld`` itself).

    Let (P, Q) be a pair whose hockey-stick divergences H_α(P‖Q) and H_α(Q‖P) are at most δ_X(log α),
    ``pld``'s larger direction, at every α > 0 (P = the mechanism on X ∪ {x}, Q = on X, for one record x).
    Then (R, Q), R = γP + (1 − γ)Q, dominates it on the data for removal and (Q, R) for addition (Zhu, Dong
    & Wang, AISTATS 2022, "Optimal Accounting of Differential Privacy via Characteristic Function",
    Thm. 11: the Markov kernel that maps (P, Q) to the mechanism's pair maps (R, Q) to the subsampled
    one's). Their divergences follow in closed form:

        H_{e^{ε'}}(R‖Q) = γ·H_{e^ε}(P‖Q) ≤ γ·δ_X(ε),      e^ε = 1 + (e^{ε'} − 1)/γ  (else 1 − e^{ε'}),
        H_{e^{ε'}}(Q‖R) = c·H_{e^ε}(Q‖P) ≤ c·δ_X(ε),      c = 1 − (1 − γ)e^{ε'},  e^ε = γe^{ε'}/c  (else 0),

    the first, for ε' ≥ 0, Balle, Barthe & Gaboardi's profile (Thm. 8). Each direction's PMF is
    dp-accounting's pessimistic connect-the-dots PMF of those bounds at the grid's points (Doroshenko,
    Ghazi, Kamath, Kumar & Manurangsi, PETS 2022, Alg. 1), from R/Q's least loss log(1 − γ) up, Q/R's
    most −log(1 − γ) down: both bounds are convex in e^{ε'} (the second a perspective of δ_X), so the
    chords between grid points lie above them and the PMF's δ(ε') is an upper bound everywhere; the mass
    past the grid (δ_X no more than 1e-15 above its infinite loss's) counts as an infinite loss.
    """
    from dp_accounting.pld import pld_pmf, privacy_loss_distribution

    if not 0 < fraction <= 1:
        raise ValueError(f"a subset's fraction is in (0, 1], got {fraction}")
    if fraction == 1:
        return pld
    infinite = float(pld.get_delta_for_epsilon(math.inf))
    top = math.log1p(fraction * math.expm1(pld.get_epsilon_for_delta(infinite + 1e-15)))
    low, high = math.floor(math.log1p(-fraction) / interval), math.ceil(top / interval)

    def bound(scale: np.ndarray, argument: np.ndarray) -> np.ndarray:
        """scale·δ_X(log argument) where the argument is positive, else 0."""
        values = np.zeros_like(scale)
        inside = argument > 0
        values[inside] = scale[inside] * divergence(pld, np.log(argument[inside]))
        return values

    removal = np.arange(low, high + 1) * interval
    removed = bound(np.full_like(removal, fraction), 1 + np.expm1(removal) / fraction)
    removed = np.where(1 + np.expm1(removal) / fraction > 0, removed, -np.expm1(removal))
    addition = np.arange(-high, -low + 1) * interval
    keep = 1 - (1 - fraction) * np.exp(addition)
    added = bound(keep, np.where(keep > 0, fraction * np.exp(addition) / np.maximum(keep, 1e-300), 0.0))
    return privacy_loss_distribution.PrivacyLossDistribution(
        pld_pmf.create_pmf_pessimistic_connect_dots_fixed_gap(interval, low, high, np.clip(removed, 0, 1)),
        pld_pmf.create_pmf_pessimistic_connect_dots_fixed_gap(interval, -high, -low, np.clip(added, 0, 1)),
    )


def subset_pld_epsilon(
    subset: Sequence[HistoryEntry],
    fraction: float,
    whole: Sequence[HistoryEntry],
    delta: float,
    interval: float,
) -> float:
    """ε at δ, by PLD on the grid of ``interval``, of ``subset``'s steps run on a secret Poisson subset of
    rate γ = ``fraction`` and ``whole``'s on the whole data: the first's PLD amplified (``amplified_pld``),
    composed with the second's."""
    composed = _amplified(tuple(subset), fraction, interval)
    if whole:
        composed = composed.compose(pld_of(whole, interval))
    return float(composed.get_epsilon_for_delta(delta))


@functools.lru_cache(maxsize=16)
def _amplified(subset: tuple[HistoryEntry, ...], fraction: float, interval: float) -> Any:
    """``amplified_pld`` of ``subset``'s PLD (a plan's release search composes one with every probe)."""
    return amplified_pld(pld_of(subset, interval), fraction, interval)


def divergence(pld: Any, epsilons: np.ndarray) -> np.ndarray:
    """δ(ε) of dp-accounting's ``PrivacyLossDistribution`` ``pld`` at every ε of ``epsilons``, the larger of
    its two directions: its ``get_delta_for_epsilon`` in numpy (that one loops in Python over the losses),

        δ(ε) = ω(∞) + Σ_{ℓ > ε} ω(ℓ)·(1 − e^{ε−ℓ})

    (Meiser & Mohammadi 2018, Observation 1), each sum taken from the largest loss down, as there. It reads
    the PMFs dp-accounting keeps (its 0.6 layout, which ``tests/test_plan.py`` holds to its own function)."""
    at = np.asarray(epsilons, dtype=float)
    larger: np.ndarray = np.maximum(_one_direction(pld._pmf_remove, at), _one_direction(pld._pmf_add, at))
    return larger


def _one_direction(pmf: Any, epsilons: np.ndarray) -> np.ndarray:
    dense = pmf.to_dense_pmf()
    losses = (dense._lower_loss + np.arange(dense.size)) * dense._discretization
    above = np.append(np.cumsum(dense._probs[::-1])[::-1], 0.0)
    scaled = np.append(np.cumsum((dense._probs * np.exp(-losses))[::-1])[::-1], 0.0)
    first = np.searchsorted(losses, epsilons, side="right")  # the first loss above each ε
    values: np.ndarray = dense._infinity_mass + above[first] - np.exp(epsilons) * scaled[first]
    return values
