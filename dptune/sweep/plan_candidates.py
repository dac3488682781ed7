"""The candidate plans of one method at one total and subset rate, each a composition that is valid for
it (``dptune.sweep.plan``'s docstring): in RDP (amplified by the subset) and the basic way
(``rdp_candidates``), by PLD where one privacy configuration per phase makes it apply
(``pld_candidates``), and repeat-and-select for a random trial count (``repeat_and_select_plan``).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from dptune.base.errors import InputError
from dptune.privacy.accounting import rdp_to_epsilon
from dptune.privacy.amplification import amplified_by_subset, amplified_rdp, on_subset
from dptune.privacy.calibration import NoiseSchedule, calibrate_noise
from dptune.privacy.compositions import (
    AMPLIFIED_PLD_COMPOSITION,
    AMPLIFIED_RDP_COMPOSITION,
    BASIC_COMPOSITION,
    PLD,
    PLD_COMPOSITION,
    RDP,
    RDP_COMPOSITION,
    REPEAT_AND_SELECT_COMPOSITION,
    Composition,
)
from dptune.privacy.history import HistoryEntry
from dptune.privacy.plans import MethodPlan, Phase, after_subset
from dptune.privacy.pld import pld_bracket, pld_epsilon, pld_interval
from dptune.privacy.tuning import repeat_and_select_curve, worst_curve
from dptune.sweep.plan_runs import (
    PlanSetup,
    Schedule,
    curve_at,
    epochs_pairs,
    largest_fitting,
    ledgers_at,
    schedules_of,
)

PLD_WINDOW = 1e-3
"""How far below its target ``least_noise``'s σ may spend (relative). Where a ledger's z are rounded onto
``pld.PLD_DISTINCT``'s lattice, ε moves with σ in steps that can be wider (up to 2e-3): then the
calibration ends just below the step (``calibration.NARROWEST``)."""
PLD_BRACKET = 1.25  # PLD's σ is 5–10% below RDP's, where its search starts (``least_noise``)


Candidate = tuple[Phase, Phase, Composition, float]
"""A plan's two phases, its composition's name and the figure it composes to."""
Pairs = Mapping[str, tuple[tuple[int, int], ...]]
"""Per method of a pool, (T, T_t): the release's epochs and its tuning trials'."""
Pool = Sequence[str]
"""The methods of one released model: one method, or every method of a release across methods, whose
tuning trials make one phase (K = the spec's trials per method times the methods) and whose release is
the worst of theirs."""


@dataclass(frozen=True)
class SecondRung:
    """Successive halving's second rung of a pool's tuning (``budget.promoted_trials``): each method's best
    ``promoted`` first-rung trials by validation trained again for ``factor``·T_t epochs
    (``PlanSetup.factor``) at the σ of the first rung; ``short`` and ``long`` the one privacy
    configuration's schedule at T_t epochs and at factor·T_t."""

    promoted: int
    factor: int
    short: Schedule
    long: Schedule

    def ledger(self, first: Sequence[HistoryEntry]) -> tuple[HistoryEntry, ...]:
        """A promoted trial's ledger: the long schedule at the σ of a first-rung trial's ledger ``first``
        (every noise multiplier of a schedule that scales is σ times its value at σ = 1)."""
        assert self.short.unit is not None
        return tuple(self.long.schedule(first[0][0] / self.short.unit[0][0]))


def second_rung(setup: PlanSetup, pool: Pool, n: int, pairs: Pairs) -> SecondRung | None:
    """The pool's second rung (None: the spec promotes none, or no release's T holds 2·T_t).

    Raises:
        InputError: on ``budget.promoted_trials`` where a tuning trial can draw several privacy
            configurations (a promoted trial must add the noise of its first-rung trial, whichever).
    """
    factor = setup.factor(pairs)
    if factor == 1:
        return None
    longer = {m: tuple((e, t * factor) for e, t in pairs[m]) for m in pool}
    short, long = setup.schedules(pool, n, pairs), setup.schedules(pool, n, longer)
    if len(short) != 1 or len(long) != 1 or short[0].unit is None or long[0].unit is None:
        raise InputError(
            "budget.promoted_trials",
            f"needs one privacy configuration for the tuning trials of {', '.join(pool)} (a promoted trial "
            "adds its first-rung trial's noise): fix every knob that changes the noise, or drop it",
        )
    return SecondRung(setup.promoted, factor, short[0], long[0])


def promotion_of(
    rung: SecondRung | None, first: Sequence[HistoryEntry], delta: float, accountant: str
) -> dict[str, Any]:
    """The second rung's fields of a tuning ``Phase`` whose first-rung ledger is ``first``: the promoted
    trial's ledger and its per-run ε by the phase's ``accountant`` (a promoted trial calibrates to it, so
    adds no less noise than planned: ε decreases in σ); none without a rung."""
    if rung is None:
        return {}
    ledger = rung.ledger(first)
    epsilon = (
        pld_epsilon(ledger, delta) if accountant == PLD else rdp_to_epsilon(worst_curve([ledger]), delta)
    )
    return {
        "promoted": rung.promoted,
        "factor": rung.factor,
        "promoted_ledger": ledger,
        "promoted_epsilon": epsilon,
    }


@dataclass(frozen=True)
class RdpTuning:
    """A tuning phase planned in RDP: its per-run ε_t, the worst ledger of each privacy configuration at it,
    its RDP on the subset it trains on (``raw``: K trials per method and any promoted ones) and on the data
    (``curve``: amplified by the subset), and its second rung."""

    per_run: float
    ledgers: tuple[tuple[HistoryEntry, ...], ...]
    raw: np.ndarray
    curve: np.ndarray
    rung: SecondRung | None


def rdp_tuning(
    setup: PlanSetup, pool: Pool, total: float, fraction: float, n: int, floor: float, pairs: Pairs
) -> RdpTuning | None:
    """The tuning's per-run ε_t: the largest whose phase (every method of ``pool``'s trials, each bounded
    by the worst configuration of any), in RDP amplified by the subset, converts to at most ρ·total (None:
    not even the least ε_t its configurations calibrate to)."""
    delta = setup.delta
    tuned_floor = setup.floor(pool, n, total, pairs, start=floor)
    if tuned_floor is None:
        return None
    schedules, trials = setup.schedules(pool, n, pairs), int(setup.trials.mean) * len(pool)
    rung = second_rung(setup, pool, n, pairs)

    def tuning_rdp(e: float) -> np.ndarray:
        ledgers = ledgers_at(schedules, e, delta)
        curve = trials * worst_curve(ledgers)
        if rung is not None:
            curve = curve + rung.promoted * len(pool) * worst_curve([rung.ledger(ledgers[0])])
        return np.asarray(curve, dtype=float)

    def tuning_fits(e: float) -> bool:
        return rdp_to_epsilon(amplified_rdp(tuning_rdp(e), fraction), delta) <= setup.tuning_share * total

    if not tuning_fits(tuned_floor):
        return None
    per_run = largest_fitting(tuning_fits, tuned_floor, total)
    raw = tuning_rdp(per_run)
    return RdpTuning(per_run, ledgers_at(schedules, per_run, delta), raw, amplified_rdp(raw, fraction), rung)


def rdp_candidates(
    setup: PlanSetup, pool: Pool, total: float, fraction: float, n: int, floor: float, pairs: Pairs
) -> list[Candidate]:
    """The plans composed in RDP (amplified by the subset) and, on a subset, the basic way: the tuning's
    ε_t as ``rdp_tuning`` plans it, the release's ε_B the largest that keeps each composition within the
    total."""
    tuning = rdp_tuning(setup, pool, total, fraction, n, floor, pairs)
    if tuning is None:
        return []
    released = setup.schedules(pool, n)
    found = [_rdp_candidate(setup, tuning, released, total, fraction, floor)]
    if fraction < 1:
        found.append(_basic_candidate(setup, tuning, released, total, fraction, floor))
    return [candidate for candidate in found if candidate is not None]


def _tuning_phase(
    setup: PlanSetup, tuning: RdpTuning, fraction: float, epsilon: float, delta: float
) -> Phase:
    return Phase(
        name="tune",
        count=setup.trials,
        per_run_epsilon=tuning.per_run,
        per_run_delta=setup.delta,
        fraction=fraction,
        ledgers=tuning.ledgers,
        epsilon=epsilon,
        delta=delta,
        **promotion_of(tuning.rung, tuning.ledgers[0], setup.delta, RDP),
    )


def _rdp_candidate(
    setup: PlanSetup,
    tuning: RdpTuning,
    released: Sequence[Schedule],
    total: float,
    fraction: float,
    floor: float,
) -> Candidate | None:
    """K·W_t (amplified) + W_B in RDP, converted once: ε_B the largest that keeps it within the total."""
    delta = setup.delta

    def release_fits(e: float) -> bool:
        return rdp_to_epsilon(tuning.curve + curve_at(released, e, delta), delta) <= total

    if not release_fits(floor):
        return None
    release_epsilon = largest_fitting(release_fits, floor, total)
    release_ledgers = ledgers_at(released, release_epsilon, delta)
    release_curve = worst_curve(release_ledgers)
    release = Phase.one_run(release_epsilon, delta, release_ledgers, rdp_to_epsilon(release_curve, delta))
    return (
        _tuning_phase(setup, tuning, fraction, rdp_to_epsilon(tuning.curve, delta), delta),
        release,
        RDP_COMPOSITION if fraction == 1 else AMPLIFIED_RDP_COMPOSITION,
        rdp_to_epsilon(tuning.curve + release_curve, delta),
    )


def _basic_candidate(
    setup: PlanSetup,
    tuning: RdpTuning,
    released: Sequence[Schedule],
    total: float,
    fraction: float,
    floor: float,
) -> Candidate | None:
    """The tuning (ε_X, δ/2γ) on the subset amplified to (ε_A, δ/2) (Balle et al. 2018, Thm. 8), the
    release at (total − ε_A, δ/2)."""
    delta = setup.delta
    subset_delta = delta / (2 * fraction)
    on_subset = rdp_to_epsilon(tuning.raw, subset_delta)
    epsilon_a, delta_a = amplified_by_subset(on_subset, subset_delta, fraction)
    release_epsilon, release_delta = total - epsilon_a, delta - delta_a
    if release_epsilon < floor:
        return None
    release_ledgers = ledgers_at(released, release_epsilon, release_delta)
    release = Phase.one_run(release_epsilon, release_delta, release_ledgers, release_epsilon)
    return (
        _tuning_phase(setup, tuning, fraction, epsilon_a, delta_a),
        release,
        BASIC_COMPOSITION,
        epsilon_a + release_epsilon,
    )


def one_schedule_each(setup: PlanSetup, pool: Pool, n: int, pairs: Pairs) -> tuple[Schedule, Schedule] | None:
    """The one schedule of ``pool``'s tuning trials and the one of its release, or None where its runs
    take more than one (a knob that changes a run's noise is searched)."""
    tuned, released = setup.schedules(pool, n, pairs), setup.schedules(pool, n)
    return (tuned[0], released[0]) if len(tuned) == 1 and len(released) == 1 else None


def pld_candidates(
    setup: PlanSetup, pool: Pool, total: float, fraction: float, n: int, pairs: Pairs
) -> list[Candidate]:
    """The plan composed by PLD, where it applies: a fixed K, and one privacy configuration for the tuning
    trials and one for the release (every knob that changes a run's noise fixed), so that each phase
    repeats one Poisson-subsampled Gaussian schedule whatever the sampler chooses from earlier scores
    (adaptive composition of mechanisms fixed in advance). The tuning's σ_t is the smallest whose K runs
    spend at most ρ·total on the data: on the whole data by dp-accounting's PLD, on a secret subset of
    rate γ at most (ε_X, δ/γ) on the subset, log(1 + γ(e^{ε_X} − 1)) = ρ·total (Balle, Barthe & Gaboardi
    2018, Thm. 8, ``amplified_by_subset``). The release's σ_B is the smallest that keeps all K + 1 runs
    within the total: the K runs' PLD (amplified by the subset, ``amplified_pld``) composed with the
    release's. The runs calibrate by PLD to the per-run ε their σ spends (a calibrated σ is at least it:
    ε decreases in σ), a tuning trial on the subset as a run on it. Every method of ``pool`` must train
    alike (one schedule for all their tuning trials, one for any release: ``pool_schedules``)."""
    if setup.trials.random or (fixed := one_schedule_each(setup, pool, n, pairs)) is None:
        return []
    delta, (tune_schedule, release_schedule) = setup.delta, fixed
    trials = int(setup.trials.mean) * len(pool)
    rung = second_rung(setup, pool, n, pairs)
    promoted = rung.promoted * len(pool) if rung is not None else 0

    def tuning(sigma: float) -> list[HistoryEntry]:
        longer = list(rung.long.probe(sigma)) if rung is not None else []
        return list(tune_schedule.probe(sigma)) * trials + longer * promoted

    subset_epsilon, subset_delta = on_subset(setup.tuning_share * total, delta, fraction)
    tuning_found = least_noise(tuning, subset_epsilon, subset_delta)
    if tuning_found is None:
        return []
    sigma_t, tuning_grid = tuning_found
    tune_ledger = tuple(tune_schedule.schedule(sigma_t))
    promotion = promotion_of(rung, tune_ledger, delta, PLD)
    searched = list(tune_ledger) * trials + list(promotion.get("promoted_ledger", ())) * promoted
    release_found = least_noise(release_schedule.probe, total, delta, searched, fraction)
    if release_found is None:
        return []
    sigma_b, grid = release_found
    release_ledger = tuple(release_schedule.schedule(sigma_b))
    release_alone = pld_epsilon(release_ledger, delta)
    on_data, _ = amplified_by_subset(pld_epsilon(searched, subset_delta, tuning_grid), subset_delta, fraction)
    return [
        (
            Phase(
                name="tune",
                count=setup.trials,
                per_run_epsilon=pld_epsilon(tune_ledger, delta),
                per_run_delta=delta,
                fraction=fraction,
                ledgers=(tune_ledger,),
                epsilon=on_data,
                delta=delta,
                accountant=PLD,
                **promotion,
            ),
            Phase.one_run(release_alone, delta, (release_ledger,), release_alone, PLD),
            PLD_COMPOSITION if fraction == 1 else AMPLIFIED_PLD_COMPOSITION,
            after_subset(searched, fraction, release_ledger, delta, grid),
        )
    ]


def least_noise(
    history: NoiseSchedule,
    target: float,
    delta: float,
    searched: Sequence[HistoryEntry] = (),
    fraction: float = 1.0,
) -> tuple[float, float] | None:
    """The smallest σ (its ε within ``PLD_WINDOW`` of ``target``, at most it) whose ``history``, after
    ``searched`` on a secret subset of rate ``fraction`` (``after_subset``), spends at most ``target`` by PLD,
    and the grid it was read on (None: no σ in the calibration's range). The calibration every run makes
    (``calibrate_noise``), from RDP's σ for both on the whole data, which PLD's tighter bound (and the
    subset's amplification) always admits (from σ = 1 where RDP has none), on the one grid
    ``pld_interval`` chooses there: any grid's ε is an upper bound, and one grid for every probe builds
    each probe's PLD once."""

    def after(sigma: float) -> list[HistoryEntry]:
        return [*searched, *history(sigma)]

    try:
        start = calibrate_noise(target, delta, after, RDP).noise_multiplier
    except ValueError:  # no σ fits in RDP without the subset's amplification: PLD's search from σ = 1
        start = 1.0
    interval = pld_interval(after(start), delta)

    def on_grid(ledger: Sequence[HistoryEntry], at: float) -> Iterator[tuple[float, float]]:
        bracket = pld_bracket(ledger)
        if bracket is not None:  # a probe far from the target is decided on a few PLDs
            yield tuple(after_subset(searched, fraction, h, at, interval) for h in bracket)  # type: ignore[misc]
        epsilon = after_subset(searched, fraction, ledger, at, interval)
        yield epsilon, epsilon

    try:
        found = calibrate_noise(target, delta, history, PLD, PLD_WINDOW, start, on_grid, PLD_BRACKET)
    except ValueError:
        return None
    return found.noise_multiplier, interval


def repeat_and_select_plan(
    setup: PlanSetup, method: str, total: float, n: int, floor: float | None
) -> MethodPlan | None:
    """Repeat-and-select within ``total``: the largest per-run ε_r whose theorem's transform of W, plus
    W for the released re-run of the best, converts to at most the total (None: not even ``floor``)."""
    space, run, delta, count = setup.methods[method], setup.runs[method], setup.delta, setup.trials
    schedules = schedules_of(space, run, n)

    def composed(e: float) -> float:
        worst = curve_at(schedules, e, delta)
        return rdp_to_epsilon(repeat_and_select_curve(worst, count) + worst, delta)

    if floor is None or composed(floor) > total:
        return None
    per_run = largest_fitting(lambda e: composed(e) <= total, floor, total)
    ledgers = ledgers_at(schedules, per_run, delta)
    worst = worst_curve(ledgers)
    search = rdp_to_epsilon(repeat_and_select_curve(worst, count), delta)
    tuning = Phase(
        name="tune",
        count=count,
        per_run_epsilon=per_run,
        per_run_delta=delta,
        fraction=1.0,
        ledgers=ledgers,
        epsilon=search,
        delta=delta,
    )
    release = Phase.one_run(per_run, delta, ledgers, rdp_to_epsilon(worst, delta))
    epsilon = composed(per_run)
    return MethodPlan(
        method=method,
        total_epsilon=total,
        delta=delta,
        tuning=tuning,
        release=release,
        composition=REPEAT_AND_SELECT_COMPOSITION,
        epsilon=epsilon,
        run_equivalents=count.mean + 1.0,
        epochs=epochs_pairs(space, run, 1.0),
    )
