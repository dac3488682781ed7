"""A Rényi privacy filter: a total (ε, δ) budget fixed before a search, spent by adaptively chosen work.

Composition of adaptively chosen mechanisms is an (ε, δ) bound only if every mechanism's privacy
parameters are fixed before the search starts. A search whose trials are stopped early by their scores
(ASHA), or whose batch size and epochs are chosen from earlier scores (TPE, GP), spends a data-dependent
amount: summing what it spent is an odometer, not a bound. A *filter* fixes the total in advance and
admits work only while the composition of everything admitted stays within it:

    Feldman & Zrnic, "Individual Privacy Accounting via a Rényi Filter", NeurIPS 2021, arXiv:2008.11193,
    Thm. 3.1: mechanisms A_1, A_2, … chosen adaptively, A_t (α, ρ_t)-RDP with ρ_t chosen from the
    outputs of A_1..A_{t−1}; if Σ_t ρ_t ≤ B almost surely, the adaptive composition is (α, B)-RDP.

The filter works at one order α fixed before the search, with B_α the RDP budget whose conversion to
(ε, δ) is the total (Balle et al. 2020, Thm. 21, the conversion ``rdp_to_epsilon`` uses):

    ε = B_α + log((α − 1)/α) − (log δ + log α)/(α − 1),
    B_α = ε − log((α − 1)/α) + (log δ + log α)/(α − 1).

α is chosen from the spec alone (``filter_order``): the order at which the most runs of the search's
worst full plan fit B_α, i.e. the order a fixed count of such runs would be converted at. The caller
reserves a run's worst full plan before the run starts and, once it has ended, keeps only the steps it
took (a run that stopped after e epochs is the adaptive composition of its first e epochs, each fixed
before it ran): what early-stopped runs did not spend returns to the search. Σ ρ_t ≤ B_α then holds
at every moment, so the filter's guarantee is the total, whatever the search did.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from dptune.privacy.accounting import RDP_ORDERS, rdp_to_epsilon


def rdp_budget(epsilon: float, delta: float) -> np.ndarray:
    """B_α at every order of ``RDP_ORDERS``: the RDP ε_α whose conversion at α gives exactly ``epsilon``."""
    orders = np.asarray(RDP_ORDERS)
    budget: np.ndarray = (
        epsilon - np.log((orders - 1) / orders) + (math.log(delta) + np.log(orders)) / (orders - 1)
    )
    return budget


def filter_order(epsilon: float, delta: float, worst_run: np.ndarray) -> int:
    """Index into ``RDP_ORDERS`` of the order at which most copies of ``worst_run`` fit the budget."""
    budget = rdp_budget(epsilon, delta)
    copies = np.where(budget > 0, budget / np.maximum(worst_run, 1e-300), -np.inf)
    return int(np.argmax(copies))


def runs_that_fit(epsilon: float, delta: float, run: np.ndarray) -> int:
    """How many copies of ``run`` a fixed-count composition can run within (ε, δ) at its best order."""
    budget = rdp_budget(epsilon, delta)
    positive = (budget > 0) & (run > 0)
    if not positive.any():
        return 0
    return int(np.floor(np.max(budget[positive] / run[positive]) * (1 + 1e-12)))


@dataclass(frozen=True)
class RenyiFilter:
    """A filter of ``epsilon`` total at ``delta``, held at the order ``RDP_ORDERS[order_index]``;
    ``share`` < 1 is one of several filters that split B_α (e.g. equally among a sweep's methods, so
    their searches together stay within the total)."""

    epsilon: float
    delta: float
    order_index: int
    share: float = 1.0

    @classmethod
    def for_search(cls, epsilon: float, delta: float, worst_run: np.ndarray) -> RenyiFilter:
        """The filter for a search whose every run is dominated by ``worst_run`` (chosen in advance)."""
        return cls(epsilon, delta, filter_order(epsilon, delta, worst_run))

    @property
    def order(self) -> float:
        return float(RDP_ORDERS[self.order_index])

    @property
    def budget(self) -> float:
        """This filter's part of B_α at the filter's order."""
        return self.share * float(rdp_budget(self.epsilon, self.delta)[self.order_index])

    def admits(self, committed: np.ndarray, run: np.ndarray) -> bool:
        """Whether ``run`` may start when ``committed`` (spent plus reserved) is already admitted."""
        return bool(committed[self.order_index] + run[self.order_index] <= self.budget)

    def used(self, committed: np.ndarray) -> float:
        """ε of ``committed`` (best order): what the admitted work has spent of the total, at most it.
        An odometer reading, for information: the guarantee is the filter's total."""
        return max(0.0, rdp_to_epsilon(committed, self.delta)) if committed.any() else 0.0
