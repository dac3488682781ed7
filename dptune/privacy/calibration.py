"""Noise calibration for a fixed privacy budget (ε, δ).

A method's release stage gives, for a base noise multiplier σ, the noise multiplier the accountant sees
at each of the T steps (its *noise schedule*): σ for DP-SGD; σ·C/C_t for the decreasing clip bound of
dpsgd-momentum, whose noise std stays σ·C while the clip C_t shrinks; σ_paper/β for fo-dp-sgd. ε is
strictly decreasing in σ, so we search σ on a log scale until

    (1 − tol)·ε_target ≤ ε(σ) ≤ ε_target,

never returning a σ whose ε exceeds the target (the run is never under-noised).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from dptune.methods import Hyper, MethodDefinition
from dptune.privacy.accounting import HistoryEntry, epsilon_of, run_length

NoiseSchedule = Callable[[float], Sequence[HistoryEntry]]
"""σ -> accountant history ``[(noise_multiplier, sample_rate, steps), ...]`` of the whole run."""


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


@dataclass(frozen=True)
class Calibration:
    """The calibrated base noise multiplier and what the accountant says it spends."""

    noise_multiplier: float
    epsilon: float
    delta: float
    accountant: str


def calibrate_noise(
    target_epsilon: float,
    delta: float,
    schedule: NoiseSchedule,
    accountant: str = "rdp",
    rel_tol: float = 0.01,
    initial_sigma: float = 1.0,
) -> Calibration:
    """Smallest-noise σ whose run spends ε in [(1 − rel_tol)·target, target].

    Bracketing by doubling, then the Illinois variant of regula falsi on log ε(log σ), which converges
    in a handful of accountant calls (each may be expensive for heterogeneous schedules).

    Raises:
        ValueError: the target cannot be met with σ in [1e-3, 1e4].
    """
    if target_epsilon <= 0:
        raise ValueError(f"target epsilon must be positive, got {target_epsilon}")

    def eps_at(log_sigma: float) -> float:
        return epsilon_of(schedule(math.exp(log_sigma)), delta, accountant)

    def result(log_sigma: float, eps: float) -> Calibration:
        return Calibration(math.exp(log_sigma), eps, delta, accountant)

    low_target = (1.0 - rel_tol) * target_epsilon
    step = math.log(2.0)
    # Bracket: lo spends more than the target (too little noise), hi spends at most the target.
    lo = hi = math.log(initial_sigma)
    eps_lo = eps_hi = eps_at(lo)
    if low_target <= eps_lo <= target_epsilon:
        return result(lo, eps_lo)
    while eps_hi > target_epsilon:
        lo, eps_lo = hi, eps_hi
        hi += step
        if hi > math.log(SIGMA_MAX):
            raise ValueError(f"epsilon {target_epsilon} needs a noise multiplier above {SIGMA_MAX}")
        eps_hi = eps_at(hi)
    while eps_lo <= target_epsilon:
        if eps_lo >= low_target:
            return result(lo, eps_lo)
        hi, eps_hi = lo, eps_lo
        lo -= step
        if lo < math.log(SIGMA_MIN):
            return result(hi, eps_hi)
        eps_lo = eps_at(lo)
    if eps_hi >= low_target:
        return result(hi, eps_hi)

    log_target = math.log(target_epsilon * (1.0 - rel_tol / 2))
    f_lo = math.log(eps_lo) - log_target
    f_hi = math.log(max(eps_hi, 1e-300)) - log_target
    side = 0
    for _ in range(200):
        mid = hi - f_hi * (hi - lo) / (f_hi - f_lo)
        if not lo < mid < hi:
            mid = 0.5 * (lo + hi)
        eps_mid = eps_at(mid)
        if low_target <= eps_mid <= target_epsilon:
            return result(mid, eps_mid)
        f_mid = math.log(max(eps_mid, 1e-300)) - log_target
        if eps_mid > target_epsilon:
            lo, f_lo = mid, f_mid
            if side == -1:
                f_hi /= 2
            side = -1
        else:
            hi, f_hi, eps_hi = mid, f_mid, eps_mid
            if side == 1:
                f_lo /= 2
            side = 1
    return result(hi, eps_hi)
