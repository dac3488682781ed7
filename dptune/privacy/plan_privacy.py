"""The privacy of what a pipeline's plans ran (``dptune.privacy.plans``): a released model's (ε, δ)
(``released_privacy``), every model of one sweep's pipelines released together (``joint_privacy``: their
tuning on one secret subset amplified once), every model of several totals (``curve_privacy``), and the
public record of a sweep's pipelines (``plan_record``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np

from dptune.privacy.accounting import rdp_to_epsilon
from dptune.privacy.amplification import amplified_by_subset, amplified_rdp
from dptune.privacy.compositions import BASIC, PLD, PLD_COMPOSITION
from dptune.privacy.history import HistoryEntry
from dptune.privacy.plans import MethodPlan, Phase, after_subset
from dptune.privacy.pld import pld_epsilon
from dptune.privacy.tuning import worst_curve

PLAN_BOUND = "plan"
"""The bound of a pipeline's row in a sweep's privacy record: its plan (``plan_record``)."""


class Ran(NamedTuple):
    """What a pipeline ran of a method's plan, from the private ledger: the tuning trials started,
    the release runs started, the trial count K the search drew (secret for repeat-and-select), and the
    promoted trials started (successive halving's second rung)."""

    searched: int
    released: int
    drawn: int
    promoted: int = 0


def pools(plans: Sequence[MethodPlan]) -> list[list[MethodPlan]]:
    """``plans`` grouped by the model each may release (``MethodPlan.pool`` at its total), in order."""
    grouped: dict[tuple[float, tuple[str, ...]], list[MethodPlan]] = {}
    for plan in plans:
        grouped.setdefault((plan.total_epsilon, plan.pool), []).append(plan)
    return list(grouped.values())


def released_privacy(pool: Sequence[MethodPlan], counts: Mapping[str, Ran]) -> tuple[float, float]:
    """(ε, δ) of the one model a pool's pipelines release (one method's, or one chosen across methods):
    the plans' own figure when every one ran as planned; else (a trial lost with a killed driver ran
    again: one more run on the data) every run beyond the plan composed with them the plans' way
    (``joint_privacy`` of the pool)."""
    planned = all(
        counts[p.method].searched <= counted(p, counts[p.method]).drawn
        and counts[p.method].promoted <= p.tuning.promoted
        for p in pool
    )
    if planned and sum(counts[p.method].released for p in pool) <= pool[0].release.runs:
        return pool[0].epsilon, pool[0].delta
    return joint_privacy(pool, counts)


def as_planned(plan: MethodPlan) -> Ran:
    """What a plan runs when it runs as planned: its K tuning trials (a random K: its mean), its release
    runs and its promoted trials."""
    return Ran(plan.tuning.runs, plan.release.runs, plan.tuning.runs, plan.tuning.promoted)


def counted(plan: MethodPlan, ran: Ran | None) -> Ran:
    """The tuning runs a plan's figure counts: what ran, but never less than the plan (a trial that did
    not run for a reason the data may have caused still counts: the plan was fixed before the data was
    touched, and a figure that shrinks with what ran would be an odometer, not a bound); its release runs
    as they ran (``release_runs`` counts a pool's planned one)."""
    planned = as_planned(plan)
    if ran is None:
        return Ran(planned.searched, 0, planned.drawn, planned.promoted)
    drawn = ran.drawn if plan.tuning.count.random else planned.searched
    return Ran(max(ran.searched, drawn), ran.released, drawn, max(ran.promoted, planned.promoted))


def release_runs(pool: Sequence[MethodPlan], ran: Mapping[str, Ran]) -> int:
    """The release runs a pool's figure counts: those of its methods that ran, never fewer than its plan's
    (one model, whichever method it is)."""
    return max(pool[0].release.runs, sum(ran[p.method].released for p in pool))


def worst_release(pool: Sequence[MethodPlan]) -> np.ndarray:
    """RDP of one release of a pool, whichever method's: the per-order maximum over the methods' release
    curves (a release chosen from the tuning's outputs is adaptive; RDP composes it by its worst curve)."""
    return np.asarray(np.max([worst_curve(p.release.ledgers) for p in pool], axis=0), dtype=float)


def one_release_ledger(pool: Sequence[MethodPlan]) -> tuple[HistoryEntry, ...] | None:
    """The one mechanism every method of a pool releases with (PLD composes an adaptively chosen release
    only where the choice does not change the mechanism); None where the methods' releases differ."""
    ledgers = {p.release.ledgers for p in pool}
    if len(ledgers) != 1:
        return None
    (only,) = ledgers
    return only[0] if len(only) == 1 else None


def what_ran(plans: Mapping[str, MethodPlan], counts: Mapping[str, Ran]) -> dict[str, Ran]:
    """Each method's runs as the private ledger counts them (``counts``), a method that started none
    with its plan's trial count drawn and nothing run."""
    return {m: counts.get(m, Ran(0, 0, p.tuning.runs)) for m, p in plans.items()}


def pld_history(plans: Sequence[MethodPlan], ran: Mapping[str, Ran]) -> list[HistoryEntry]:
    """Every run of PLD-composed ``plans`` as one ledger: each plan's tuning mechanism as many times as
    its tuning trials ran, each pool's release mechanism (``one_release_ledger``) as many times as it
    released (``release_runs``; ``ran`` by method)."""
    history: list[HistoryEntry] = []
    for plan in plans:
        history += searched_history(plan, ran[plan.method])
    for pool in pools(plans):
        release = one_release_ledger(pool)
        assert release is not None, "a PLD pool releases with one mechanism"
        history += list(release) * release_runs(pool, ran)
    return history


def searched_history(plan: MethodPlan, ran: Ran) -> list[HistoryEntry]:
    """The tuning runs of a PLD-composed plan as one ledger: its one mechanism as many times as its trials
    ran, and its promoted trials' as many times as they ran."""
    (tuning,) = plan.tuning.ledgers
    return list(tuning) * ran.searched + list(plan.tuning.promoted_ledger) * ran.promoted


def tuning_curve_of(plan: MethodPlan, ran: Ran) -> np.ndarray:
    """RDP, on the data its trials trained on (the subset), of the tuning trials a plan ran: each trial's
    worst configuration W_t per trial; for a random count repeat-and-select's transform, plus W_t for
    each trial a lost driver ran again."""
    worst = worst_curve(plan.tuning.ledgers)
    if plan.tuning.count.random:
        return np.asarray(plan.tuning.curve() + max(0, ran.searched - ran.drawn) * worst, dtype=float)
    return np.asarray(ran.searched * worst + ran.promoted * plan.tuning.promoted_curve(), dtype=float)


def joint_privacy(
    plans: Sequence[MethodPlan], counts: Mapping[str, Ran] | None = None
) -> tuple[float, float]:
    """(ε, δ) of releasing every model of ``plans``, one sweep's pipelines, from what each ran (``counts``
    by method; tuning never less than planned, ``counted``; each pool's release runs, ``release_runs``).
    Every method's tuning trials ran on the one secret subset of the sweep, so the subset's whole tuning is
    amplified **once**: the amplification of a combined phase is not the sum of its parts' (randomized
    response at ε = 1 twice on a subset of rate ½: log(1 + ½(e² − 1)) = 1.433 for the two together, against
    2·log(1 + ½(e − 1)) = 1.240 added). A pool that releases one model across methods releases its worst
    method's mechanism (which one is chosen from the tuning's outputs).

    * every plan composed by PLD and every pool releasing one mechanism: PLD of every run at the plans'
      δ, the tuning trials of every method on the subset amplified once by its dominating pair
      (``subset_pld_epsilon``; γ = 1: as they are);
    * any plan composed the basic way: the tuning phase of every method composed in RDP on the subset and
      converted at δ/2γ, amplified once (Balle, Barthe & Gaboardi 2018, Thm. 8) to (ε_A, δ/2); each
      release run's (ε_B, δ_B) adds, a pool's the largest of its methods';
    * otherwise in RDP: the subset's tuning amplified once (Zhu & Wang 2019, Thm. 6; γ = 1 as it is),
      plus each release run's W_B (a pool's ``worst_release``), converted once at δ.
    """
    ran = {p.method: counted(p, (counts or {}).get(p.method)) for p in plans}
    delta, fraction = plans[0].delta, plans[0].tuning.fraction
    grouped = pools(plans)
    by_pld = all(p.composition.by == PLD for p in plans)
    ledgers = [one_release_ledger(pool) for pool in grouped]
    if by_pld and all(ledger is not None for ledger in ledgers):
        searched = [e for p in plans for e in searched_history(p, ran[p.method])]
        released = [
            e
            for pool, ledger in zip(grouped, ledgers, strict=True)
            for e in list(ledger or ()) * release_runs(pool, ran)
        ]
        return after_subset(searched, fraction, released, delta), delta
    tuning = np.sum([tuning_curve_of(p, ran[p.method]) for p in plans], axis=0)
    if any(p.composition.by == BASIC for p in plans):
        subset_delta = delta / (2 * fraction)
        epsilon_a, delta_a = amplified_by_subset(rdp_to_epsilon(tuning, subset_delta), subset_delta, fraction)
        return (
            epsilon_a
            + sum(release_runs(pool, ran) * max(p.release.epsilon for p in pool) for pool in grouped),
            delta_a + sum(release_runs(pool, ran) * max(p.release.delta for p in pool) for pool in grouped),
        )
    releases = np.sum([release_runs(pool, ran) * worst_release(pool) for pool in grouped], axis=0)
    return rdp_to_epsilon(amplified_rdp(tuning, fraction) + releases, delta), delta


def pipeline_curve(plans: Sequence[MethodPlan]) -> np.ndarray:
    """RDP of one sweep's pipelines on the same data, their tuning trials on one secret subset: the
    subset's whole tuning amplified once (γ = 1: as it is; repeat-and-select's transforms as they are),
    plus each pool's release (``worst_release``)."""
    tuning = amplified_rdp(np.sum([p.tuning.curve() for p in plans], axis=0), plans[0].tuning.fraction)
    releases = np.sum([pool[0].release.runs * worst_release(pool) for pool in pools(plans)], axis=0)
    return np.asarray(tuning + releases, dtype=float)


def curve_privacy(
    phases: Sequence[Sequence[MethodPlan]], records: Sequence[Mapping[str, Any]]
) -> tuple[float, float]:
    """(ε, δ) of releasing every model of a list of totals (the accuracy-vs-total-ε curve): one sweep
    phase per total on the same data, each tuning on the whole data or on its own secret subset (each
    sweep draws its subset from fresh entropy), so a phase amplifies by its own and the phases compose in
    RDP, converted once at δ (phases all composed by PLD: PLD of every run). A phase composed the basic
    way, or one that ran beyond its plan, makes the phases' own figures (``records``, ``plan_record``)
    add, ε and δ both."""
    plans = [p for phase in phases for p in phase]
    if all(r["as_planned"] for r in records) and all(p.composition.by != BASIC for p in plans):
        if all(p.composition == PLD_COMPOSITION for p in plans):
            history = pld_history(plans, {p.method: counted(p, None) for p in plans})
            return pld_epsilon(history, plans[0].delta), plans[0].delta
        curve = np.sum([pipeline_curve(phase) for phase in phases], axis=0)
        return rdp_to_epsilon(curve, plans[0].delta), plans[0].delta
    return added(records)


def promoted_note(tuning: Phase) -> str:
    """What a plan says of its second rung, in a clause (empty without one)."""
    if not tuning.promoted:
        return ""
    return (
        f"the best {tuning.promoted} by validation trained again {tuning.factor}× as long at the same noise "
        f"(ε {tuning.promoted_epsilon:.3g} each)"
    )


def added(figures: Sequence[Mapping[str, Any]]) -> tuple[float, float]:
    """Basic composition of records' (``epsilon_including_tuning``, ``delta``): both add."""
    return (
        sum(float(f["epsilon_including_tuning"]) for f in figures),
        sum(float(f["delta"]) for f in figures),
    )


def plan_record(plans: Mapping[str, MethodPlan], counts: Mapping[str, Ran]) -> dict[str, Any]:
    """The public privacy record of a sweep whose ε includes the tuning, shaped as a search bound's
    (``dptune.sweep.bound.SweepTuningCost.as_dict``): per method the (ε, δ) of the model its pipeline may
    release as it ran (``counts``: what each ran; one model across methods: that model's, every method's
    tuning included, ``released_privacy``), the whole sweep releasing every model (``joint_privacy``), and
    every plan written out; of a repeat-and-select search nothing that counts its trials."""
    ran = what_ran(plans, counts)
    figures = {p.method: released_privacy(pool, ran) for pool in pools(list(plans.values())) for p in pool}
    rows: list[dict[str, Any]] = []
    for method, plan in plans.items():
        epsilon, delta = figures[method]
        where = (
            f"on a secret subset of rate {plan.tuning.fraction:g}"
            if plan.tuning.fraction < 1
            else "on the whole data"
        )
        released = (
            "then the selection released"
            if len(plan.pool) == 1
            else f"then one selection across {', '.join(plan.pool)} released (one model"
            + (f": {plan.selection_rule})" if plan.selection_rule else ")")
        )
        if plan.tuning.promoted:
            where += f", then {promoted_note(plan.tuning)}"
        row = {
            "method": method,
            "tuning_bound": PLAN_BOUND,
            "note": (
                f"planned: {plan.tuning.count.describe()} tuning trials at ε_t = "
                f"{plan.tuning.per_run_epsilon:.3g} {where} (the tuning alone: ε {plan.tuning.epsilon:.3g} "
                f"on the data), {released} at ε_B = {plan.release.per_run_epsilon:.3g}; "
                f"{plan.composition}"
            ),
            "epsilon_including_tuning": epsilon,
            "delta": delta,
        }
        if not plan.tuning.count.random:
            row |= {
                "trials_started": ran[method].searched + ran[method].promoted + ran[method].released,
                "epsilon_all_trials": epsilon,
            }
        rows.append(row)
    first = next(iter(plans.values()))
    ran_as_planned = all(
        r["epsilon_including_tuning"] == p.epsilon for r, p in zip(rows, plans.values(), strict=True)
    )
    whole, whole_delta = joint_privacy(list(plans.values()), counts)
    return {
        "epsilon_including_tuning": whole,
        "delta": whole_delta,
        "as_planned": ran_as_planned,
        "methods": rows,
        "total_epsilon": first.total_epsilon,
        "plan": [p.as_dict() for p in plans.values()],
    }
