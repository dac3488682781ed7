"""ε spent by a run of subsampled Gaussian releases, on Opacus's accountants.

Every DP method in dptune releases, at step t, a clipped sum with sensitivity C_t plus Gaussian noise of
standard deviation s_t, on a Poisson sample of rate q. For the accountant that step is a subsampled
Gaussian mechanism with noise multiplier z_t = s_t / C_t (Abadi et al. 2016; Mironov et al. 2019).
Steps with different z_t compose through the accountant's history of ``(z, q, steps)`` entries.

Two accountants are offered, both Opacus 1.6:

* ``rdp``: Rényi DP of the Poisson-subsampled Gaussian (Mironov, Talwar, Zhang 2019), converted to
  (ε, δ) by Opacus's ``get_privacy_spent``. The default: fast, and what the papers use.
* ``prv``: the privacy-random-variable accountant (Gopi, Lee, Wutschitz 2021): tighter, slower, and
  its cost grows with the number of distinct (z, q) entries in the history.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from opacus.accountants import PRVAccountant, RDPAccountant
from opacus.accountants.analysis import rdp as rdp_analysis

from dptune.errors import InputError

HistoryEntry = tuple[float, float, int]

RDP_ORDERS: tuple[float, ...] = tuple(RDPAccountant.DEFAULT_ALPHAS)


@functools.lru_cache(maxsize=4096)
def _rdp_of_one_step(noise_multiplier: float, sample_rate: float) -> np.ndarray:
    """RDP curve ε_α of one Poisson-subsampled Gaussian step at every order α in ``RDP_ORDERS``."""
    return np.asarray(
        rdp_analysis.compute_rdp(
            q=sample_rate, noise_multiplier=noise_multiplier, steps=1, orders=list(RDP_ORDERS)
        ),
        dtype=np.float64,
    )


def run_length(noise_multipliers: Iterable[float], sample_rate: float) -> list[HistoryEntry]:
    """Compress per-step noise multipliers into accountant history entries ``(z, q, count)``."""
    history: list[HistoryEntry] = []
    for z in noise_multipliers:
        if history and history[-1][0] == z:
            history[-1] = (z, sample_rate, history[-1][2] + 1)
        else:
            history.append((float(z), sample_rate, 1))
    return history


def rdp_curve(history: Sequence[HistoryEntry]) -> np.ndarray:
    """RDP ε_α of a whole history at every order α of ``RDP_ORDERS``: Σ_entries count·ε_α(z, q).

    RDP composes additively (Mironov 2017, Prop. 1), and ``compute_rdp`` is linear in the step count.
    """
    total = np.zeros(len(RDP_ORDERS))
    for z, q, count in history:
        total += count * _rdp_of_one_step(float(z), float(q))
    return total


def rdp_to_epsilon(curve: np.ndarray, delta: float) -> float:
    """(ε, δ) from an RDP curve over ``RDP_ORDERS`` by Opacus's conversion (Balle et al. 2020)."""
    eps, _ = rdp_analysis.get_privacy_spent(orders=list(RDP_ORDERS), rdp=curve, delta=delta)
    return float(eps)


def rdp_epsilon(history: Sequence[HistoryEntry], delta: float) -> float:
    """ε of a history under RDP: the curve of ``rdp_curve`` converted by ``rdp_to_epsilon``.

    Identical to ``opacus.accountants.RDPAccountant.get_epsilon`` on the same history, with the
    per-(z, q) curve cached so long heterogeneous histories and noise calibration stay cheap.
    """
    if not history:
        return 0.0
    return rdp_to_epsilon(rdp_curve(history), delta)


def truncate(history: Sequence[HistoryEntry], steps: int) -> list[HistoryEntry]:
    """The first ``steps`` steps of a history (what a run stopped after ``steps`` steps spent)."""
    kept: list[HistoryEntry] = []
    left = steps
    for z, q, count in history:
        if left <= 0:
            break
        kept.append((z, q, min(count, left)))
        left -= count
    return kept


def prv_epsilon(history: Sequence[HistoryEntry], delta: float) -> float:
    """ε of a history under Opacus's PRV accountant (its default ε error of 0.01)."""
    if not history:
        return 0.0
    accountant = PRVAccountant()
    accountant.history = [(float(z), float(q), int(n)) for z, q, n in history]
    return float(accountant.get_epsilon(delta=delta))


ACCOUNTANTS = {"rdp": rdp_epsilon, "prv": prv_epsilon}


def check_accountant(name: str, field: str = "accountant") -> str:
    """Return ``name`` if it names an accountant, else raise an ``InputError`` naming ``field``."""
    if name not in ACCOUNTANTS:
        raise InputError(field, f"unknown accountant {name!r}; valid: {', '.join(ACCOUNTANTS)}")
    return name


def epsilon_of(history: Sequence[HistoryEntry], delta: float, accountant: str) -> float:
    """ε spent by ``history`` at ``delta`` under the named accountant."""
    return ACCOUNTANTS[check_accountant(accountant)](history, delta)


class Accountant:
    """The privacy ledger of one run: a history of subsampled Gaussian steps and the ε it spends.

    Args:
        kind: ``"rdp"`` or ``"prv"``.
        history: entries ``(noise_multiplier, sample_rate, steps)`` already spent (for resuming).
    """

    def __init__(self, kind: str = "rdp", history: Sequence[HistoryEntry] = ()) -> None:
        self.kind = check_accountant(kind)
        self.history: list[HistoryEntry] = [(float(z), float(q), int(n)) for z, q, n in history]

    def step(self, noise_multiplier: float, sample_rate: float) -> None:
        """Record one release with noise multiplier z = noise std / sensitivity at rate q."""
        if not (math.isfinite(noise_multiplier) and noise_multiplier > 0):
            raise ValueError(f"noise multiplier must be positive and finite, got {noise_multiplier}")
        last = self.history[-1] if self.history else None
        if last is not None and last[0] == noise_multiplier and last[1] == sample_rate:
            self.history[-1] = (last[0], last[1], last[2] + 1)
        else:
            self.history.append((float(noise_multiplier), float(sample_rate), 1))

    @property
    def steps(self) -> int:
        return sum(n for _, _, n in self.history)

    def epsilon(self, delta: float) -> float:
        """ε spent so far at ``delta``."""
        return epsilon_of(self.history, delta, self.kind)

    def state_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "history": [list(entry) for entry in self.history]}

    @classmethod
    def from_state_dict(cls, state: dict[str, Any]) -> Accountant:
        return cls(state["kind"], [tuple(entry) for entry in state["history"]])


def make_accountant(kind: str) -> Accountant:
    """A fresh ledger for the named accountant."""
    return Accountant(kind)
