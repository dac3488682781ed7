"""Noise calibration for a fixed privacy budget (ε, δ).

A method's privatize stage gives, for a base noise multiplier σ, the noise multiplier the accountant sees
at each of the T steps (its *noise schedule*): σ for DP-SGD; σ·C/C_t for the decreasing clip bound of
dpsgd-momentum, whose noise std stays σ·C while the clip C_t shrinks; σ_paper/β for fo-dp-sgd. ε is
strictly decreasing in σ, so we search σ on a log scale until

    (1 − tol)·ε_target ≤ ε(σ) ≤ ε_target,

never returning a σ whose ε exceeds the target (the run is never under-noised). Each probe σ is decided
on bounds L ≤ ε(σ) ≤ U that the accountant tightens only while they leave the decision open
(``AccountantKind.bounds``): under RDP a few lattice points of z stand for the thousands of distinct
noise multipliers of a decreasing-clip schedule, and the exact ε is computed only when nothing cheaper
decides.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from dptune.methods import Hyper, MethodDefinition
from dptune.privacy.accounting import ACCOUNTANTS, check_accountant, run_length
from dptune.privacy.history import EpsilonBounds, HistoryEntry

NoiseSchedule = Callable[[float], Sequence[HistoryEntry]]
"""σ -> accountant history ``[(noise_multiplier, sample_rate, steps), ...]`` of the whole run."""
Bounds = Callable[[Sequence[HistoryEntry], float], Iterator[EpsilonBounds]]
"""(history, δ) -> ever tighter (lower, upper) bounds on its ε, the last exact (``AccountantKind.bounds``)."""


def method_schedule(
    definition: MethodDefinition, params: dict[str, Any], hyper: Hyper, sample_rate: float
) -> NoiseSchedule:
    """σ -> the accountant history of a run of the method: its z_0, …, z_{T−1} at σ, each at rate q,
    compressed into ``(z, q, count)`` entries."""

    def schedule(noise_multiplier: float) -> list[HistoryEntry]:
        return run_length(definition.noise_multipliers(params, hyper, noise_multiplier), sample_rate)

    return schedule


SIGMA_MIN = 1e-3
SIGMA_MAX = 1e4
NARROWEST = 1e-5
"""The narrowest bracket in log σ the calibration refines: σ to a relative 1e-5."""


@dataclass(frozen=True)
class Calibration:
    """The calibrated base noise multiplier and what the accountant says it spends: ``epsilon`` is the
    accountant's ε at that σ or a certified upper bound on it, at most the target either way (and at
    least (1 − rel_tol)·target unless even σ = 1e-3 spends less)."""

    noise_multiplier: float
    epsilon: float
    delta: float
    accountant: str


class _Probe(NamedTuple):
    """A probe σ = exp(log_sigma), bounds lower ≤ ε(σ) ≤ upper, and its side of the window: +1 spends
    more than the target, −1 less than (1 − tol)·target, 0 inside."""

    log_sigma: float
    lower: float
    upper: float
    side: int

    def distance(self, log_center: float) -> float:
        """log ε − log center, ε estimated by the middle of the bounds (the Illinois iteration's f)."""
        return math.log(max(0.5 * (self.lower + self.upper), 1e-300)) - log_center


def calibrate_noise(
    target_epsilon: float,
    delta: float,
    schedule: NoiseSchedule,
    accountant: str = "rdp",
    rel_tol: float = 0.01,
    initial_sigma: float = 1.0,
    bounds: Bounds | None = None,
    bracket: float = 2.0,
) -> Calibration:
    """Smallest-noise σ whose run spends ε in [(1 − rel_tol)·target, target].

    Bracketing by steps of the factor ``bracket`` in σ (doubling by default), then the Illinois variant
    of regula falsi on log ε(log σ), which converges in a handful of probes. A probe is decided as soon as
    the accountant's bounds L ≤ ε ≤ U settle it: too little noise if L > target, too much if
    U < (1 − rel_tol)·target, accepted if both lie in the window. ``Calibration.epsilon`` is the accepted
    U: the exact ε or a certified bound above it, in the window either way. ``bounds`` replaces the
    accountant's own (``AccountantKind.bounds``): a PLD on a grid of the caller's choice, say.

    Raises:
        ValueError: the target cannot be met with σ in [1e-3, 1e4].
    """
    if target_epsilon <= 0:
        raise ValueError(f"target epsilon must be positive, got {target_epsilon}")
    bounds = ACCOUNTANTS[check_accountant(accountant)].bounds if bounds is None else bounds
    low_target = (1.0 - rel_tol) * target_epsilon

    def probe(log_sigma: float) -> _Probe:
        for lower, upper in bounds(schedule(math.exp(log_sigma)), delta):
            if lower > target_epsilon:
                return _Probe(log_sigma, lower, upper, 1)
            if upper < low_target:
                return _Probe(log_sigma, lower, upper, -1)
            if low_target <= lower and upper <= target_epsilon:
                return _Probe(log_sigma, lower, upper, 0)
        raise AssertionError("the last bounds are exact, and exact bounds always decide")

    found = _bracketed(probe, math.log(initial_sigma), math.log(bracket), target_epsilon)
    if isinstance(found, _Bracket):
        found = _illinois(probe, found.lo, found.hi, math.log(target_epsilon * (1.0 - rel_tol / 2)))
    return Calibration(math.exp(found.log_sigma), found.upper, delta, accountant)


@dataclass(frozen=True)
class _Bracket:
    """Two probes around the target: ``lo`` spends more than it (too little noise), ``hi`` less than the
    low end of its window."""

    lo: _Probe
    hi: _Probe


def _bracketed(
    probe: Callable[[float], _Probe], start: float, step: float, target: float
) -> _Probe | _Bracket:
    """From log σ = ``start`` by steps of ``step``: a probe that settles it (in the window, or the least
    noise allowed spending less than the target), or a ``_Bracket`` of two probes around it.

    Raises:
        ValueError: the target needs a σ above ``SIGMA_MAX``.
    """
    lo = hi = probe(start)
    while hi.side > 0:
        lo = hi
        if lo.log_sigma + step > math.log(SIGMA_MAX):
            raise ValueError(f"epsilon {target} needs a noise multiplier above {SIGMA_MAX}")
        hi = probe(lo.log_sigma + step)
    while lo.side < 0:
        hi = lo
        if hi.log_sigma - step < math.log(SIGMA_MIN):
            return hi
        lo = probe(hi.log_sigma - step)
    for p in (hi, lo):
        if p.side == 0:
            return p
    return _Bracket(lo, hi)


def _illinois(probe: Callable[[float], _Probe], lo: _Probe, hi: _Probe, log_center: float) -> _Probe:
    """The Illinois variant of regula falsi on log ε(log σ) between ``lo`` and ``hi``, aimed at
    ``log_center``: the first probe in the window (at most 200; else the last ``hi``, within the target).
    It stops at ``hi`` once the two are within ``NARROWEST`` in log σ: there ε jumps over the window (a
    ledger whose z are rounded onto a lattice is a step function of σ, ``pld.PLD_DISTINCT``)."""
    f_lo, f_hi = lo.distance(log_center), hi.distance(log_center)
    side = 0
    for _ in range(200):
        if hi.log_sigma - lo.log_sigma < NARROWEST:
            return hi
        mid = hi.log_sigma - f_hi * (hi.log_sigma - lo.log_sigma) / (f_hi - f_lo)
        if not lo.log_sigma < mid < hi.log_sigma:
            mid = 0.5 * (lo.log_sigma + hi.log_sigma)
        p = probe(mid)
        if p.side == 0:
            return p
        if p.side > 0:
            lo, f_lo = p, p.distance(log_center)
            if side == -1:
                f_hi /= 2
            side = -1
        else:
            hi, f_hi = p, p.distance(log_center)
            if side == 1:
                f_lo /= 2
            side = 1
    return hi
