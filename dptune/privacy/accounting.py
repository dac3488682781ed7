"""ε spent by a run of subsampled Gaussian privatized steps, on Opacus's accountants.

Every DP method in dptune privatizes, at step t, a clipped sum of sensitivity C_t with Gaussian noise of
standard deviation s_t, on a Poisson sample of rate q. For the accountant that step is a subsampled
Gaussian mechanism with noise multiplier z_t = s_t / C_t (Abadi et al. 2016; Mironov et al. 2019).
Steps with different z_t compose through the accountant's history of ``(z, q, steps)`` entries.

Three accountants are offered:

* ``rdp``: Rényi DP of the Poisson-subsampled Gaussian (Mironov, Talwar, Zhang 2019), converted to
  (ε, δ) by Opacus's ``get_privacy_spent``. The default: fast, and what the papers use.
* ``prv``: Opacus's privacy-random-variable accountant (Gopi, Lee, Wutschitz 2021): tighter, slower, and
  its cost grows with the number of distinct (z, q) entries in the history.
* ``pld``: dp-accounting's privacy-loss-distribution accountant (``dptune.privacy.pld``). As tight as
  ``prv``, and equal (z, q) entries anywhere in the history cost one self-composition: what a plan whose
  phases repeat one mechanism composes with (``dptune.sweep.plan``).

Under RDP, equal (z, q) entries are grouped wherever they sit in the history and the distinct z of a
sampling rate are evaluated together (``dptune.privacy.rdp``). For noise calibration, which asks only
whether a schedule's ε is above, below or inside a window, ``rdp_epsilon_bounds`` brackets the exact ε from
a few lattice points of z, so a schedule with a different z at every step costs little more than one
with a single z.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, NamedTuple

import numpy as np

from dptune.base.errors import InputError
from dptune.privacy.history import EpsilonBounds, HistoryEntry
from dptune.privacy.pld import pld_epsilon, pld_epsilon_bounds
from dptune.privacy.rdp import subsampled_gaussian_rdp

RDP_ORDERS: tuple[float, ...] = (*(1 + x / 10.0 for x in range(1, 100)), *range(12, 64))
"""The orders α of every RDP curve: Opacus's ``RDPAccountant.DEFAULT_ALPHAS`` (1.1 to 10.9 by 0.1, then 12
to 63), spelled out so that this module imports without Opacus and torch (``tests/test_torch_free.py``
checks that they agree)."""

_CACHED_CURVES = 8192  # one-step curves kept (1.2 kB each): a long heterogeneous ledger and a lattice
_curves: dict[tuple[float, float], np.ndarray] = {}
_REFINE = 2  # a lattice that does not decide is refined to this many times more bins per octave


def _one_step_curves(
    noise_multipliers: Sequence[float], sample_rate: float, wanted: np.ndarray | None = None
) -> np.ndarray:
    """RDP ε_α of one step at each distinct z of ``noise_multipliers`` (rows) and every order of
    ``RDP_ORDERS`` (columns), NaN at the orders not ``wanted`` (a mask; default all) that were never
    computed. What is not cached is computed in one vectorised pass."""
    wanted = np.ones(len(RDP_ORDERS), dtype=bool) if wanted is None else wanted
    rows: dict[float, np.ndarray] = {}
    for z in noise_multipliers:
        cached = _curves.get((z, sample_rate))
        if cached is None:
            cached = _curves[(z, sample_rate)] = np.full(len(RDP_ORDERS), np.nan)
        rows[z] = cached
    missing = [z for z, row in rows.items() if np.isnan(row[wanted]).any()]
    if missing:
        orders = wanted & np.isnan(np.array([rows[z] for z in missing])).any(axis=0)
        computed = subsampled_gaussian_rdp(missing, sample_rate, np.asarray(RDP_ORDERS)[orders])
        for z, values in zip(missing, computed, strict=True):
            rows[z][orders] = values
        for key in list(_curves)[: max(0, len(_curves) - _CACHED_CURVES)]:
            _curves.pop(key, None)
    return np.array([rows[z] for z in noise_multipliers]).reshape(-1, len(RDP_ORDERS))


def forget_curves() -> None:
    """Empty the cache of one-step curves (a cold start, as in a fresh process: for timings)."""
    _curves.clear()


def run_length(noise_multipliers: Iterable[float], sample_rate: float) -> list[HistoryEntry]:
    """Compress per-step noise multipliers into accountant history entries ``(z, q, count)``: one entry per
    run of equal consecutive z."""
    return [(float(z), sample_rate, len(list(run))) for z, run in itertools.groupby(noise_multipliers)]


def _grouped(history: Sequence[HistoryEntry]) -> list[tuple[float, np.ndarray, np.ndarray]]:
    """``(q, distinct z, steps at each z)`` per sampling rate: equal (z, q) entries merged wherever they
    sit in the history (RDP composition is a sum, so order does not matter)."""
    flat = itertools.chain.from_iterable(history)
    entries = np.fromiter(flat, dtype=np.float64, count=3 * len(history)).reshape(-1, 3)
    entries = entries[entries[:, 2] > 0]
    groups = []
    for q in np.unique(entries[:, 1]):
        mine = entries[entries[:, 1] == q]
        zs, which = np.unique(mine[:, 0], return_inverse=True)
        groups.append((float(q), zs, np.bincount(which, weights=mine[:, 2])))
    return groups


def rdp_curve(history: Sequence[HistoryEntry]) -> np.ndarray:
    """RDP ε_α of a whole history at every order α of ``RDP_ORDERS``: Σ_entries count·ε_α(z, q).

    RDP composes additively (Mironov 2017, Prop. 1). Equal (z, q) are grouped, and the distinct z of a
    sampling rate are evaluated in one vectorised pass (``subsampled_gaussian_rdp``).
    """
    total = np.zeros(len(RDP_ORDERS))
    for q, zs, steps in _grouped(history):
        total += steps @ _one_step_curves(zs.tolist(), q)
    return total


RDP_CURVE_BINS = 128
"""The lattice ``rdp_curve_above`` bounds a curve on: ε within about 1e-4 (relative) of the exact."""


def rdp_curve_above(history: Sequence[HistoryEntry]) -> np.ndarray:
    """An upper bound on ``rdp_curve(history)`` at every order, cheap for a history with a different z at
    every step: at a rate with more distinct z than lattice points, each z's ε_α by the chord of its bin
    of the lattice 2^(k/``RDP_CURVE_BINS``) (``_lattice_bounds``, whose points are shared by every σ); the
    exact curve elsewhere."""
    _, upper, _ = _curve_bounds(_grouped(history), RDP_CURVE_BINS, np.ones(len(RDP_ORDERS), dtype=bool))
    return upper


def _lattice_bounds(
    q: float, zs: np.ndarray, steps: np.ndarray, bins_per_octave: int, wanted: np.ndarray
) -> tuple[np.ndarray, np.ndarray] | None:
    """Lower and upper bounds on Σ steps·ε_α(z, q) from ε_α at the lattice z = 2^(k/b), b bins per octave;
    None when the lattice needs as many points as there are distinct z (then evaluate them all).

    With τ = 1/z², K_α(τ) = (α − 1)·ε_α is convex in τ with K_α(0) = 0 (``rdp_epsilon_bounds``). A z in
    the bin [g_k, g_{k+1}] has τ between τ_{k+1} and τ_k, so ε_α(z) lies below the chord of the bin,
    and above the line through the origin and g_{k+1} and above any secant through two lattice points
    on one side of the bin, extended into it: the nearest ones below (tight near g_k) and above (tight
    near g_{k+1}). Every line is affine in τ, so a sum over z needs only N = Σ steps and D = Σ steps·τ;
    the lower bounds are taken per half bin, where the nearer secant is tight.
    """
    k = np.floor(np.log2(zs) * bins_per_octave)
    k -= np.exp2(k / bins_per_octave) > zs  # rounding: make sure g_k ≤ z ≤ g_{k+1}
    k += np.exp2((k + 1) / bins_per_octave) < zs
    offset = (k - k.min()).astype(np.intp)
    occupied = np.bincount(offset) > 0
    on_lattice = np.append(occupied, False) | np.insert(occupied, 0, False)  # bin ends g_k and g_{k+1}
    if np.count_nonzero(on_lattice) >= zs.size:
        return None
    g = np.exp2((np.flatnonzero(on_lattice) + k.min()) / bins_per_octave)
    tau = 1 / g**2
    curves = _one_step_curves(g.tolist(), q, wanted)
    # Slopes between neighbouring lattice points, NaN past either end (no such secant).
    slopes = np.full((g.size + 1, len(RDP_ORDERS)), np.nan)
    slopes[1:-1] = np.diff(curves, axis=0) / np.diff(tau)[:, None]
    # Each z's g_k as an index into g, and its half bin: 2·bin nearer g_k, 2·bin + 1 nearer g_{k+1}.
    low_of_z = (np.cumsum(on_lattice) - 1)[offset]
    tau_z = 1 / zs**2
    half = 2 * (np.cumsum(occupied) - 1)[offset] + (tau_z < (tau[low_of_z] + tau[low_of_z + 1]) / 2)
    halves = 2 * np.count_nonzero(occupied)
    n = np.bincount(half, weights=steps, minlength=halves)[:, None]
    d = np.bincount(half, weights=steps * tau_z, minlength=halves)[:, None]
    low = np.repeat((np.cumsum(on_lattice) - 1)[np.flatnonzero(occupied)], 2)

    def line(at: np.ndarray, slope: np.ndarray) -> np.ndarray:
        """Σ over each half bin of the line through lattice point ``at`` with ``slope``, at its z."""
        total: np.ndarray = n * curves[at] + (d - n * tau[at][:, None]) * slope
        return total

    upper = line(low + 1, slopes[low + 1])
    lower = np.fmax(line(low, slopes[low]), line(low + 1, slopes[low + 2]))
    lower = np.fmax(lower, d * curves[low + 1] / tau[low + 1][:, None])
    return lower.sum(axis=0), upper.sum(axis=0)


def _curve_bounds(
    groups: list[tuple[float, np.ndarray, np.ndarray]], bins_per_octave: int, wanted: np.ndarray
) -> tuple[np.ndarray, np.ndarray, bool]:
    """Lower and upper bounds on the RDP curve of ``groups`` (``_grouped``) at the ``wanted`` orders (NaN
    at the others), and whether they are exact: ``_lattice_bounds`` where 0 < q < 1 and the lattice is
    cheaper than the distinct z, else exact."""
    lower, upper = np.zeros(len(RDP_ORDERS)), np.zeros(len(RDP_ORDERS))
    exact = True
    for q, zs, steps in groups:
        bounds = None
        if 0 < q < 1 and np.all((zs > 0) & np.isfinite(zs)):
            bounds = _lattice_bounds(q, zs, steps, bins_per_octave, wanted)
        if bounds is None:
            bounds = (steps @ _one_step_curves(zs.tolist(), q, wanted),) * 2
        else:
            exact = False
        lower += bounds[0]
        upper += bounds[1]
    return lower, upper, exact


def _conversion_offsets(delta: float) -> np.ndarray:
    """What the conversion of ``rdp_to_epsilon`` adds to the RDP at each order before taking the
    minimum: log((α − 1)/α) − (log δ + log α)/(α − 1) (Balle et al. 2020, Thm. 21)."""
    orders = np.asarray(RDP_ORDERS)
    correction: np.ndarray = np.log((orders - 1) / orders) - (math.log(delta) + np.log(orders)) / (orders - 1)
    return correction


def rdp_to_epsilon(curve: np.ndarray, delta: float) -> float:
    """(ε, δ) from an RDP curve over ``RDP_ORDERS`` (Balle et al. 2020, Thm. 21):

        ε = min_α  RDP(α) + log((α − 1)/α) − (log δ + log α)/(α − 1),

    the conversion of Opacus's ``get_privacy_spent`` (orders whose RDP is NaN are skipped; ∞ when all are).
    Written here rather than imported: ``opacus.accountants`` loads all of Opacus and SciPy's statistics,
    seconds of every trial's start; tests hold it to Opacus's function.
    """
    eps = np.asarray(curve, dtype=float) + _conversion_offsets(delta)
    return math.inf if np.isnan(eps).all() else float(np.nanmin(eps))


def rdp_epsilon(history: Sequence[HistoryEntry], delta: float) -> float:
    """ε of a history under RDP: the curve of ``rdp_curve`` converted by ``rdp_to_epsilon``.

    Equal to ``opacus.accountants.RDPAccountant.get_epsilon`` on the same history up to rounding.
    """
    if not history:
        return 0.0
    return rdp_to_epsilon(rdp_curve(history), delta)


def rdp_epsilon_bounds(history: Sequence[HistoryEntry], delta: float) -> Iterator[EpsilonBounds]:
    """Ever tighter (lower, upper) bounds on ``rdp_epsilon(history, delta)``, the last one exact.

    A schedule whose z changes every step (dpsgd-momentum) has thousands of distinct z, and noise
    calibration needs its ε at every probe σ. The bounds evaluate ε_α only at the lattice z = 2^(k/b)
    that brackets those z, b = 1, 2, 4, … bins per octave (each lattice contains the previous one, and
    nearby probes share points through the cache), until the lattice would cost as much as the z
    themselves and the exact curve is taken. The conversion to ε is monotone in every order's RDP, so
    bounds on the curve bound ε. A finer lattice is evaluated only at the orders that can still attain
    the minimum, those whose lower bound converts below the upper bound on ε; the others keep their
    bounds (most orders, and the costly ones: α near 1, long series).

    Convexity, on which the bounds rest. For every order α > 1 and 0 < q < 1, K_α = log A_α (Mironov,
    Talwar, Zhang 2019, §3.3) is convex in τ = 1/σ², with K_α(0) = 0. A_α = E[φ(M_τ)] for
    φ(x) = (1 − q + qx)^α and M_τ = exp(B_τ − τ/2), the likelihood ratio of N(1, σ²) to N(0, σ²) at a
    N(0, σ²) draw (B a Brownian motion). By Itô, dA/dτ = E[ψ(M_τ)] and d²A/dτ² = E[χ(M_τ)] with
    ψ = x²φ''/2 and χ = x²ψ''/2 (derivatives in x); pointwise, with u = 1 − q + qx,
    φχ − ψ² = ¼α(α−1)q²x²u^{2α−4}(1 − q)(2(1 − q) + 4(α − 1)qx) ≥ 0, so by Cauchy–Schwarz
    (dA/dτ)² ≤ A·d²A/dτ². (For integer α, A_α is a positive sum of exp((i² − i)τ/2): plainly so.)
    """
    if not history:
        yield 0.0, 0.0
        return
    groups = _grouped(history)
    offsets = _conversion_offsets(delta)
    bins_per_octave = 1
    wanted = np.ones(len(RDP_ORDERS), dtype=bool)
    lower = upper = np.zeros(len(RDP_ORDERS))
    while True:
        finer_lower, finer_upper, exact = _curve_bounds(groups, bins_per_octave, wanted)
        lower = np.where(wanted, finer_lower, lower)
        upper = np.where(wanted, finer_upper, upper)
        bounds = rdp_to_epsilon(lower, delta), rdp_to_epsilon(upper, delta)
        yield bounds
        if exact:
            return
        bins_per_octave *= _REFINE
        wanted = lower + offsets < bounds[1]


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
    from opacus.accountants import PRVAccountant

    if not history:
        return 0.0
    accountant = PRVAccountant()
    accountant.history = [(float(z), float(q), int(n)) for z, q, n in history]
    return float(accountant.get_epsilon(delta=delta))


def prv_epsilon_bounds(history: Sequence[HistoryEntry], delta: float) -> Iterator[EpsilonBounds]:
    """The PRV accountant's ε, as its only (lower, upper) pair."""
    epsilon = prv_epsilon(history, delta)
    yield epsilon, epsilon


class AccountantKind(NamedTuple):
    """One accountant: ε of a history, and ever tighter bounds on it ending with ε itself (what noise
    calibration decides its probes on)."""

    epsilon: Callable[[Sequence[HistoryEntry], float], float]
    bounds: Callable[[Sequence[HistoryEntry], float], Iterator[EpsilonBounds]]


ACCOUNTANTS = {
    "rdp": AccountantKind(rdp_epsilon, rdp_epsilon_bounds),
    "prv": AccountantKind(prv_epsilon, prv_epsilon_bounds),
    "pld": AccountantKind(pld_epsilon, pld_epsilon_bounds),
}


def check_accountant(name: str, field: str = "accountant") -> str:
    """Return ``name`` if it names an accountant, else raise an ``InputError`` naming ``field``."""
    if name not in ACCOUNTANTS:
        raise InputError(field, f"unknown accountant {name!r}; valid: {', '.join(ACCOUNTANTS)}")
    return name


def epsilon_of(history: Sequence[HistoryEntry], delta: float, accountant: str) -> float:
    """ε spent by ``history`` at ``delta`` under the named accountant."""
    return ACCOUNTANTS[check_accountant(accountant)].epsilon(history, delta)


def spends_at_least(history: Sequence[HistoryEntry], delta: float, accountant: str, target: float) -> bool:
    """Whether ``history`` spends at least ``target`` at ``delta`` under the named accountant, decided on
    its bounds (``AccountantKind.bounds``) as soon as they settle it: the lower one at least the target,
    or the upper one below it (the last bounds are exact, so they always settle it)."""
    for lower, upper in ACCOUNTANTS[check_accountant(accountant)].bounds(history, delta):
        if lower >= target:
            return True
        if upper < target:
            return False
    raise AssertionError("the last bounds are exact, and exact bounds always decide")


class Accountant:
    """The privacy ledger of one run: a history of subsampled Gaussian steps and the ε it spends.

    Args:
        kind: a key of ``ACCOUNTANTS``.
        history: entries ``(noise_multiplier, sample_rate, steps)`` already spent (for resuming).
    """

    def __init__(self, kind: str = "rdp", history: Sequence[HistoryEntry] = ()) -> None:
        self.kind = check_accountant(kind)
        self.history: list[HistoryEntry] = [(float(z), float(q), int(n)) for z, q, n in history]

    def step(self, noise_multiplier: float, sample_rate: float) -> None:
        """Record one privatized step with noise multiplier z = noise std / sensitivity at rate q."""
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
