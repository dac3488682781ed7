"""The privacy plan of a run, before it starts: its ledger from its ``RunConfig`` and n alone.

q = B/n, T = epochs·⌈n/B⌉ steps, the method's noise multipliers z_t(σ) for every step compressed into
accountant entries (z, q, count), and σ calibrated so that the accountant's ε of the whole ledger is
at most the target and within 1% of it (Abadi et al. 2016, §3.1; Mironov et al. 2019). The trainer,
a sweep's bounds and the campaigns in ``bench/`` all plan runs here.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from dptune.base.errors import InputError
from dptune.methods import Hyper, get_method
from dptune.privacy.accounting import truncate
from dptune.privacy.calibration import Calibration, NoiseSchedule, calibrate_noise, method_schedule
from dptune.privacy.history import HistoryEntry
from dptune.training.config import RunConfig


def default_delta(n: int) -> float:
    """The largest power of ten strictly below 1/n (1e-5 for n = 60,000; 1e-4 for n = 1,437)."""
    return 10.0 ** -(math.floor(math.log10(n)) + 1)


def resolved_delta(config: RunConfig, n: int) -> float:
    """A run's δ on ``n`` training samples: its own, else ``default_delta(n)``."""
    return config.delta if config.delta is not None else default_delta(n)


@dataclass(frozen=True)
class RunSchedule:
    """q = B/n, ⌈n/B⌉ steps per epoch, the method's hyper-parameters (T steps, L = q·n) and σ -> ledger."""

    sample_rate: float
    steps_per_epoch: int
    hyper: Hyper
    schedule: NoiseSchedule


def run_schedule(config: RunConfig, n: int) -> RunSchedule:
    """The schedule of ``config`` on n training samples (the ledger at every σ, before calibration)."""
    sample_rate = config.batch_size / n
    steps_per_epoch = math.ceil(n / config.batch_size)
    hyper = Hyper(
        config.clip,
        config.learning_rate,
        config.epochs * steps_per_epoch,
        expected_batch_size=sample_rate * n,
    )
    schedule = method_schedule(get_method(config.method), config.method_params, hyper, sample_rate)
    return RunSchedule(sample_rate, steps_per_epoch, hyper, schedule)


@dataclass(frozen=True)
class CalibratedRun:
    """A run's schedule with its calibrated σ: ``ledger`` is what the whole run will spend."""

    run: RunSchedule
    delta: float
    calibration: Calibration

    @property
    def ledger(self) -> list[HistoryEntry]:
        return list(self.run.schedule(self.calibration.noise_multiplier))

    @property
    def total_steps(self) -> int:
        return self.run.hyper.steps


def check_delta(delta: float, n: int, field: str) -> None:
    """δ < 1/n, or ``InputError`` on ``field``: at δ ≥ 1/n the mechanism that publishes each training record
    outright with probability δ is (0, δ)-DP, and releases about nδ ≥ 1 of them, so such a guarantee
    protects nobody."""
    if delta * n >= 1:
        raise InputError(
            field,
            f"δ = {delta:g} is at least 1/n = 1/{n}: a (ε, δ) guarantee then allows publishing a training "
            f"record outright; use δ < 1/n, e.g. {default_delta(n):g} (the default)",
        )


def calibrated_run(config: RunConfig, n: int) -> CalibratedRun:
    """``config`` on n samples, calibrated at its δ (default: ``default_delta(n)``; a δ ≥ 1/n refused)."""
    delta = resolved_delta(config, n)
    check_delta(delta, n, "delta")
    run = run_schedule(config, n)
    return CalibratedRun(run, delta, calibrate_noise(config.epsilon, delta, run.schedule, config.accountant))


def spent_ledger(config: RunConfig, n: int, noise_multiplier: float, steps: int) -> list[HistoryEntry]:
    """The ledger of a run of ``config`` calibrated to σ = ``noise_multiplier`` that took ``steps`` steps."""
    return truncate(list(run_schedule(config, n).schedule(noise_multiplier)), steps)
