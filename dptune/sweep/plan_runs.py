"""The runs a plan is made of: what the planner reads from a spec (``PlanSetup``), a tuning trial's share
of the epochs, each privacy configuration's schedule calibrated at the targets a search probes
(``Schedule``), and the least per-run ε every configuration can be calibrated to (``lowest_target``).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

import numpy as np

from dptune.privacy.calibration import NoiseSchedule
from dptune.privacy.compositions import RDP
from dptune.privacy.history import HistoryEntry
from dptune.privacy.tuning import TrialCount, worst_curve
from dptune.sweep.bound import configuration_schedules, lowest_sigma
from dptune.sweep.release_policies import PER_METHOD, ReleasePolicy
from dptune.sweep.space import Dist, MethodSpace
from dptune.sweep.spec_keys import PROMOTION_FACTOR, TUNING_COMPUTE, TUNING_SHARE
from dptune.training.config import RunConfig

PER_RUN_FLOOR = 0.01
"""The least per-run ε the planner tries: below it a run's σ leaves the calibration's range."""


SEARCH_STEPS = 14  # bisection steps in log ε: within about 0.1% of the largest that fits


@dataclass(frozen=True)
class PlanSetup:
    """What a plan depends on, all fixed by the spec before the data is touched: each method's space and
    base run, the totals (ε of what is published), δ, the tuning trials K per method and total, the
    tuning's share ρ of ε and its compute in full runs (the planner chooses the subset rate)."""

    methods: Mapping[str, MethodSpace]
    runs: Mapping[str, RunConfig]
    totals: tuple[float, ...]
    delta: float
    trials: TrialCount
    tuning_share: float = TUNING_SHARE
    tuning_compute: float = TUNING_COMPUTE
    release: ReleasePolicy = PER_METHOD
    """How each total publishes (``dptune.sweep.release_policies``): its pools, the methods whose tuning
    trials are one phase and whose selection is released once."""
    promoted: int = 0
    """Each method's promoted trials (``budget.promoted_trials``: successive halving's second rung)."""
    calibrated: dict[tuple[object, ...], tuple[Schedule, ...]] = field(
        default_factory=dict, compare=False, repr=False
    )
    """The schedules of every pool the planner has read (``schedules``), kept with their calibrations: the
    planner probes the same targets again across subset rates, totals and rounds of its epochs."""

    def schedules(
        self, pool: Sequence[str], n: int, pairs: Mapping[str, Sequence[tuple[int, int]]] | None = None
    ) -> tuple[Schedule, ...]:
        """``pool_schedules`` of the pool's members (``members``), made once per pool, n and epochs."""
        key = (tuple(pool), n, None if pairs is None else tuple(tuple(pairs[m]) for m in pool))
        if key not in self.calibrated:
            self.calibrated[key] = pool_schedules(self.members(pool, pairs), n)
        return self.calibrated[key]

    def floor(
        self,
        pool: Sequence[str],
        n: int,
        high: float,
        pairs: Mapping[str, Sequence[tuple[int, int]]] | None = None,
        start: float = PER_RUN_FLOOR,
    ) -> float | None:
        """The least per-run ε every configuration of the pool can be calibrated to (``lowest_target``)."""
        return lowest_of(self.schedules(pool, n, pairs), self.delta, high, start)

    def factor(self, pairs: Mapping[str, Sequence[tuple[int, int]]]) -> int:
        """r: how many times a first-rung trial's epochs T_t a promoted trial runs, ``PROMOTION_FACTOR``
        or the most that fits in every release's T (r·T_t ≤ T); 1 where that is under 2 or the spec
        promotes none: then there is no second rung."""
        if not self.promoted:
            return 1
        fits = min(e // t for p in pairs.values() for e, t in p)
        return min(PROMOTION_FACTOR, fits) if fits >= 2 else 1

    def pools(self) -> list[tuple[str, ...]]:
        """The methods of each model a total releases (the release policy's pools)."""
        return self.release.pools(list(self.methods))

    @property
    def pooled(self) -> bool:
        """Whether a model a total releases covers several methods' tuning (one model across methods)."""
        return self.release.pooled(list(self.methods))

    def members(
        self, pool: Sequence[str], pairs: Mapping[str, Sequence[tuple[int, int]]] | None = None
    ) -> list[tuple[MethodSpace, RunConfig]]:
        """Each method of ``pool`` as its runs train: its space over its run, or, with ``pairs`` ((T, T_t)
        by method), as its tuning trials run it (``tuning_space``, ``with_tuning_epochs``)."""
        if pairs is None:
            return [(self.methods[m], self.runs[m]) for m in pool]
        tuned = [(self.methods[m], self.runs[m], pairs[m]) for m in pool]
        return [(tuning_space(space, p), with_tuning_epochs(run, p)) for space, run, p in tuned]


def tuning_epochs(epochs: int, share: float) -> int:
    """T_t = max(1, round(T·φ)): a tuning trial's epochs for a release of T, φ = ε_t/ε_B."""
    return max(1, round(epochs * share))


def epochs_pairs(space: MethodSpace, run: RunConfig, share: float) -> tuple[tuple[int, int], ...]:
    """(T, T_t) for every epochs T a run of ``space`` over ``run`` can take, T_t = ``tuning_epochs(T, φ)``
    at the least φ ≥ ``share`` at which distinct T tune for distinct T_t (the release must tell from a
    trial's T_t which T it stands for): a longer tuning where a searched epochs knob's values are close."""
    dist = space.knobs.get("epochs")
    values = sorted(set(dist.values())) if dist is not None else [run.epochs]
    while True:
        pairs = tuple((e, tuning_epochs(e, share)) for e in values)
        if len({t for _, t in pairs}) == len(pairs):
            return pairs
        share = min(1.0, share * 1.05)


def with_tuning_epochs(run: RunConfig, pairs: Sequence[tuple[int, int]]) -> RunConfig:
    """``run`` at its tuning epochs T_t (as it is where a space's epochs knob sets them)."""
    return replace(run, epochs=dict(pairs).get(run.epochs, run.epochs))


def tuning_space(space: MethodSpace, pairs: Sequence[tuple[int, int]]) -> MethodSpace:
    """``space`` as its tuning trials run it: each epochs value T replaced by its T_t."""
    dist = space.knobs.get("epochs")
    if dist is None:
        return space
    tuned = dict(pairs)
    kind = "fixed" if dist.fixed else "choice"
    return replace(space, knobs={**space.knobs, "epochs": Dist(kind, tuple(tuned[e] for e in dist.values()))})


def largest_fitting(ok: Callable[[float], bool], low: float, high: float) -> float:
    """The largest x in [low, high] with ``ok(x)`` (``ok`` true up to a threshold, false above it;
    ``ok(low)`` true), by bisection in log x; the end that is known to satisfy it."""
    if ok(high):
        return high
    for _ in range(SEARCH_STEPS):
        middle = math.sqrt(low * high)
        if ok(middle):
            low = middle
        else:
            high = middle
    return low


def lowest_target(
    space: MethodSpace, run: RunConfig, n: int, delta: float, high: float, start: float = PER_RUN_FLOOR
) -> float | None:
    """The least per-run ε from ``start`` up (by factors of 1.25, at most ``high``) every configuration of
    ``space`` can be calibrated to at δ: the conversion from RDP at orders up to 63 cannot certify much
    below log(1/δ)/62 (about 0.2 at δ = 1e-5), whatever σ."""
    return lowest_of(schedules_of(space, run, n), delta, high, start)


def lowest_of(
    schedules: Sequence[Schedule], delta: float, high: float, start: float = PER_RUN_FLOOR
) -> float | None:
    """``lowest_target`` of the configurations ``schedules``."""
    target = start
    while target <= high:
        try:
            ledgers_at(schedules, target, delta)
            return target
        except ValueError:
            target *= 1.25
    return None


class Schedule:
    """One privacy configuration's schedule (σ -> ledger) as a plan's searches calibrate it, again and again
    at targets a little apart. Each calibration starts from the σ the last one found; its probes read the
    ledger at σ = 1 scaled by σ (every release's noise std is σ times its std at σ = 1, checked here at
    σ = 2: else they read the schedule itself), a ledger of thousands of steps built once; the σ found is
    checked on the schedule's own ledger, which is kept for each target, so that a target probed again
    (the one a search settles on) gives the same."""

    def __init__(self, schedule: NoiseSchedule) -> None:
        self.schedule = functools.lru_cache(maxsize=2)(schedule)  # the σ found, checked and then written
        self.sigma = 1.0
        self.found: dict[tuple[float, float], tuple[HistoryEntry, ...]] = {}
        unit, twice = schedule(1.0), schedule(2.0)
        scales = len(unit) == len(twice) and all(
            (n, q) == (m, p) and math.isclose(2 * z, y, rel_tol=1e-12)
            for (z, q, n), (y, p, m) in zip(unit, twice, strict=False)
        )
        self.probe = (lambda s: [(s * z, q, n) for z, q, n in unit]) if scales else schedule
        self.unit: tuple[HistoryEntry, ...] | None = tuple(unit) if scales else None
        """The ledger at σ = 1 of a schedule that scales with σ (then it is the whole schedule); None."""

    def lowest(self, epsilon: float, delta: float) -> tuple[HistoryEntry, ...]:
        """The worst ledger of the configuration's runs at target (ε, δ), calibrated by RDP
        (``lowest_sigma``; the accountant of every phase but a PLD-composed one's)."""
        if (epsilon, delta) not in self.found:
            self.sigma = lowest_sigma(epsilon, delta, self.schedule, RDP, self.sigma, self.probe)
            self.found[epsilon, delta] = tuple(self.schedule(self.sigma))
        return self.found[epsilon, delta]


def schedules_of(space: MethodSpace, run: RunConfig, n: int) -> tuple[Schedule, ...]:
    """Every privacy configuration ``space`` can draw over ``run`` (``configuration_schedules``)."""
    return tuple(Schedule(s) for s in configuration_schedules(space, run, n))


def pool_schedules(members: Sequence[tuple[MethodSpace, RunConfig]], n: int) -> tuple[Schedule, ...]:
    """Every privacy configuration any of ``members`` (space, run) can draw, each schedule once: two that
    scale with σ from the same ledger at σ = 1 are one mechanism at every σ (so that methods which train
    alike compose as one, by PLD where it applies)."""
    kept: list[Schedule] = []
    for space, run in members:
        for schedule in schedules_of(space, run, n):
            if schedule.unit is None or all(schedule.unit != k.unit for k in kept):
                kept.append(schedule)
    return tuple(kept)


def ledgers_at(
    schedules: Sequence[Schedule], epsilon: float, delta: float
) -> tuple[tuple[HistoryEntry, ...], ...]:
    """The worst ledger of each of ``schedules`` when its runs target (ε, δ)."""
    return tuple(s.lowest(epsilon, delta) for s in schedules)


def curve_at(schedules: Sequence[Schedule], epsilon: float, delta: float) -> np.ndarray:
    return worst_curve(ledgers_at(schedules, epsilon, delta))
