"""The plan of a sweep whose ε includes the tuning (``privacy.includes_tuning``): phases fixed before the
data is touched, whose composition is at most the (ε, δ) the user set for the model they publish.

For each method and each total (ε, δ), two phases:

1. **tune**: K configurations of the method's space (the sweep's sampler), each trained at the per-run
   target ε_t with the proxy's plan (``RunConfig.proxy_fraction``) on one secret Poisson subset X that
   keeps each training sample with probability γ (γ = 1: the whole data); the configuration with the
   best validation accuracy is selected (the validation part is held out of the training data, so the
   choice reads no training record; ties by a secret key), or, where the method says ``keep_start``, its
   start point unless a trial beats it by more than z_m standard errors of the difference of the
   two validation accuracies, m the other trials read, and the other methods' planned trials where one
   model keeps this method's selection too (``KEEP_START_RULE``; ``START_FAMILY``): a tuning trial is
   short and noisy, a start point a setting tuned elsewhere. Either rule reads only the trials' scores,
   which the phase's bound counts.
   Every trial composes, whatever the sampler chose from earlier scores, because every trial's privacy
   parameters are fixed here (adaptive composition): RDP K·W_t, W_t the per-order maximum over the
   space's privacy configurations (``dptune.sweep.bound.worst_run``).
2. **release**: the selected configuration trained once on the whole data at ε_B, the spec's epochs T, and
   scored on the final-test part. The linear scaling rule (Panda, Tang, Mahloujifar, Sehwag & Mittal,
   ICML 2024, "A New Linear Scaling Rule for Private Adaptive Hyperparameter Optimization",
   arXiv:2212.04486: the best total step r = η·T grows about linearly with ε; their line through the
   origin, as one tuning ε fits it, where they fit it from two) carries the tuning's r_t to
   r_B = r_t·ε_B/ε_t **in steps**: a tuning trial runs T_t = max(1, round(T·ε_t/ε_B)) epochs at a step
   η, and the release runs T epochs at the same η, so r_B/r_t = T/T_t, ε_B/ε_t but for the rounding of
   T_t. The step a trial is scored at is the step the release takes: what the rule extrapolates is the
   length of training, which a larger ε lets run with less noise per step, and not the step, whose
   stability no trial at ε_t would have tested (nor a rounding's share of it: where T·ε_t/ε_B = 1.5
   rounds to 2, scaling the step by (ε_B/ε_t)·(T_t/T) would release 1.33 times the tested step).
   Shorter trials also cost less compute, which the planner spends on a larger tuning subset (below).

The tuning's per-run ε_t is the largest whose phase converts to at most the share ρ of the total
(``privacy.tuning_share``); ε_B the largest that keeps the composition within the total, by the tightest
of three compositions, all valid: the subset rate is chosen (below) with the plans composed in RDP and the
basic way, the one whose release is least noisy, and the chosen rate's plans are then composed by PLD
where it applies, which leaves their release less noise still (``plan_total``):

* **PLD** (a fixed K, and one privacy configuration per phase: every knob that changes a run's noise
  fixed, as in the shipped evidence specs): each phase repeats one Poisson-subsampled Gaussian schedule,
  chosen before the data is touched whatever the sampler picks from earlier scores, so the K + 1 runs
  compose adaptively as fixed mechanisms, and dp-accounting's privacy-loss-distribution accountant
  composes them at δ (Koskela, Jälkö & Honkela 2020; Doroshenko et al. 2022: tighter than RDP for many
  Gaussian steps; ``dptune.privacy.pld.pld_epsilon``). Tuning on a secret subset, the K runs'
  PLD on X is amplified by the subset's dominating pair (Zhu, Dong & Wang 2022, Thm. 11,
  ``dptune.privacy.amplification.amplified_pld``: Balle, Barthe & Gaboardi's profile, every ε at once)
  before it composes with the release's. Its phases' runs calibrate by PLD to their per-run ε. The rule
  above and the planner's ranking read every phase's ε by RDP (``Phase.rdp_epsilon``), one measure of
  noise whatever the composition.
* **RDP**: the tuning phase is one mechanism on X with RDP K·W_t; X is secret, so on the whole data it
  is RDP with Zhu & Wang's bound for Poisson subsampling of any mechanism (ICML 2019, Thm. 6,
  ``dptune.privacy.amplification.amplified_rdp``; Koskela & Kulkarni, NeurIPS 2023, "Practical
  Differentially Private Hyperparameter Tuning with Subsampling", tune on such a subset). The release's
  W_B adds order by order and the sum converts once (Balle et al. 2020, Thm. 21). γ = 1 is plain RDP
  composition. Where W_t is a per-order maximum over several privacy configurations, no single pair of
  distributions dominates the phase, and PLD does not apply.
* **basic** (γ < 1): the tuning phase is (ε_X, δ/2γ)-DP on X by RDP; the subset amplifies it to
  (ε_A, δ/2) = (log(1 + γ(e^{ε_X} − 1)), δ/2) on the data (Balle, Barthe & Gaboardi 2018, Thm. 8), and
  the release at (ε_B, δ/2) adds: ε = ε_A + ε_B.

With a random trial count (``budget.trials_per_method: {distribution: …}``: random search, no
scheduler, no start points) the tuning is **repeat-and-select** instead (Papernot & Steinke, ICLR 2022,
Thms. 2 and 6): a secret number K of random configurations on the whole data, each at ε_r, the best one
re-run once at ε_r and released; its RDP is the theorem's transform of W plus W itself, converted once,
with ε_r the largest that fits the total.

With a second rung of successive halving (``budget.promoted_trials``: m), each method's best m finished
tuning trials by validation train again for r·T_t epochs at the σ of the first rung (r = ``PROMOTION_FACTOR``,
or the most with r·T_t ≤ T; no rung where that is under 2), and the selection reads them: the tuning phase is
K runs of the first rung's mechanism and m of the promoted one's, both fixed here, calibrated to one σ whose
phase fits the share (``dptune.sweep.plan_candidates.second_rung``), the promoted mechanism written out with
the plan. Longer trials rank the steps a release takes better than short ones (bench/short_trials.py).

A proxy trial at ε_t on a subset of rate γ moves its parameters with γ times the full run's signal and the
full run's noise (``dptune.training.train``): what it ranks is about what a full run at γ·ε_t would. The
planner chooses γ among ``FRACTIONS`` (a subset of at least ``MIN_SUBSET`` samples) to maximise that
γ·ε_t under the tuning compute the spec allows (``tuning_compute`` full runs: K·γ·T_t/T of them),
smaller compute breaking ties. A budget whose best plan gives the tuning less than ``MIN_TUNING_EPSILON`` is
refused with the smallest total that works: tuning that noisy ranks nothing, and a user is better served
by the no-tuning run at the whole ε (``dptune train``).

One model across methods (``privacy.release: one``) spreads its tuning over every method's trials, and how
many each method gets is the planner's (``plan_spread``): the spec's trials per method, or, where those
trials would make fewer than ``MIN_RANKING_STEPS`` noisy steps each, the most (down to
``MIN_SPREAD_TRIALS``) whose trials do. Fewer trials share the tuning's ε among fewer runs, so each runs at
a larger ε_t and, by the carry rule, for more epochs: a trial of a handful of steps ranks only large
differences of step (the shortest trials favour large steps, which a full-length release pays for), and a
search across several methods would otherwise give each of its many trials least. A method's own release
(one method, or ``privacy.release: per_method``) runs the spec's count, which the user chose for it.
"""

from __future__ import annotations

import math
from dataclasses import replace

from dptune.base.errors import InputError
from dptune.privacy.plans import MethodPlan
from dptune.privacy.tuning import TrialCount
from dptune.sweep.plan_candidates import (
    Pairs,
    Pool,
    pld_candidates,
    rdp_candidates,
    repeat_and_select_plan,
)
from dptune.sweep.plan_runs import PlanSetup, epochs_pairs

FRACTIONS = (1.0, 0.5, 0.25, 0.125, 0.0625)
"""Subset fractions γ the planner considers (1: tune on the whole data)."""


MIN_SUBSET = 2000
"""The fewest samples a tuning subset may expect to keep: below it validation scores rank noise."""


MIN_TUNING_EPSILON = 0.05
"""The least per-run ε a tuning trial may rank at, as a full run would (γ·ε_t)."""


PLAN_ARTIFACT = "plan.json"
"""The plans of a pipeline as its sweep record stores them (every mechanism written out); a seeded sweep
stores none (``SweepMode.stored_plan``: its figures are no guarantee)."""


MIN_RANKING_STEPS = 20
"""The fewest noisy steps a tuning trial makes before it ranks differences of step finer than large ones:
a one-model plan spreads fewer trials over its methods until its trials make this many (``plan_spread``),
and a plan whose trials make fewer says so (``dptune.sweep.summary.spending_line``). A floor, not a
guarantee: on a task of bench/short_trials.py, trials of 40 steps ranked a default space at a Spearman ρ
of 0.21 against their releases, trials three times longer at 0.82."""


MIN_SPREAD_TRIALS = 2
"""The fewest trials per method ``plan_spread`` gives a method: its search compares two settings at least
(with a start point: the start and one draw)."""


_CARRY_ROUNDS = 5  # rounds of the tuning epochs' fixed point (plan_pool): 2 or 3 in practice


def plan_pool(
    setup: PlanSetup,
    pool: Pool,
    total: float,
    fraction: float,
    n: int,
    floor: float | None,
    composed_by_pld: bool = False,
    start: float = 1.0,
) -> list[MethodPlan] | None:
    """The plans of the model ``pool`` releases (one method, or every method of a release across methods)
    at ``total`` with a tuning subset of rate ``fraction``, composed by PLD (``composed_by_pld``; None
    where PLD does not apply) or in RDP and the basic way (None: not even the least per-run ε the
    accountant can certify, ``floor`` (``PlanSetup.floor``), fits the tuning's share).

    The tuning trials' epochs T_t = round(T·ε_t/ε_B) and the plan's ε_t, ε_B depend on each other: from
    T_t = T·``start`` (1, or the share ε_t/ε_B a plan of the same pool found at another subset rate), each
    round plans with the T_t the last one's ε_t/ε_B gives, until T_t repeats (a round or a few); where
    T·ε_t/ε_B lies near a half and its rounding goes to and fro, the plan of the cycle's longest trials.
    Every round's plan is valid as it stands (its phases are what it runs); the rounding left over moves
    the release's length of training off the rule's (T/T_t for ε_B/ε_t), never its step."""
    if setup.trials.random:
        if len(pool) > 1:
            raise AssertionError("repeat-and-select releases each method's own model")
        selected = repeat_and_select_plan(setup, pool[0], total, n, floor)
        return None if selected is None else [selected]
    if floor is None:
        return None
    members = dict(zip(pool, setup.members(pool), strict=True))
    pairs = {m: epochs_pairs(space, run, start) for m, (space, run) in members.items()}
    planned: dict[str, list[MethodPlan]] = {}  # by the rounds' epochs, in the order they ran
    plans: list[MethodPlan] | None = None
    for _ in range(_CARRY_ROUNDS):
        found = _plan_at(setup, pool, total, fraction, n, floor, pairs, composed_by_pld)
        if found is None:
            return plans
        plans = planned[repr(pairs)] = found
        share = found[0].tuning.rdp_epsilon / found[0].release.rdp_epsilon
        following = {m: epochs_pairs(space, run, share) for m, (space, run) in members.items()}
        if following == pairs:
            break
        if repr(following) in planned:  # T_t·ε_t/ε_B rounds to and fro: the cycle's longest tuning
            cycle = list(planned)[list(planned).index(repr(following)) :]
            return max((planned[key] for key in cycle), key=lambda p: max(t for _, t in p[0].epochs))
        pairs = following
    return plans


def _plan_at(
    setup: PlanSetup,
    pool: Pool,
    total: float,
    fraction: float,
    n: int,
    floor: float,
    pairs: Pairs,
    composed_by_pld: bool,
) -> list[MethodPlan] | None:
    """``plan_pool`` with the tuning trials' epochs fixed (``pairs``: (T, T_t) by method): composed by
    PLD, or of the compositions in RDP and the basic way (module docstring), the one whose release is
    least noisy (the largest ε_B by RDP, ``Phase.rdp_epsilon``); one plan per method of the pool, each
    with the pool's phases (every configuration of any of its methods)."""
    candidates = (
        pld_candidates(setup, pool, total, fraction, n, pairs)
        if composed_by_pld
        else rdp_candidates(setup, pool, total, fraction, n, floor, pairs)
    )
    if not candidates:
        return None
    tuning, release, composition, composed = max(candidates, key=lambda c: c[1].rdp_epsilon)
    if composed > total * (1 + 1e-9):
        raise AssertionError(f"a plan of {', '.join(pool)} composes to {composed} > {total}")
    trials = (tuning.runs + tuning.factor * tuning.promoted) * len(pool)  # in first-rung trials' lengths
    compute = trials * fraction * max(t / e for p in pairs.values() for e, t in p) + 1.0
    return [
        MethodPlan(
            method=method,
            total_epsilon=total,
            delta=setup.delta,
            tuning=tuning,
            release=release,
            composition=composition,
            epsilon=composed,
            run_equivalents=compute,
            epochs=tuple(pairs[method]),
            keep_start=setup.methods[method].keep_start,
            released_among=tuple(pool) if len(pool) > 1 else (),
        )
        for method in pool
    ]


def fractions(setup: PlanSetup, n: int) -> list[float]:
    """The subset rates the planner may use: each of ``FRACTIONS`` that keeps about ``MIN_SUBSET``
    samples (repeat-and-select: the whole data)."""
    if setup.trials.random:  # repeat-and-select searches the whole data
        return [1.0]
    return [g for g in FRACTIONS if g == 1 or g * n >= MIN_SUBSET]


def plan_total(setup: PlanSetup, total: float, n: int) -> list[MethodPlan] | None:
    """Every method's plan at ``total``, all on one subset rate (a sweep's trials share one secret
    subset): of the rates whose tuning, composed in RDP and the basic way, fits the compute (K·γ·T_t/T full
    runs, every method; where none does, the one needing least), the rate whose worst method ranks at the
    largest γ·ε_t, least compute breaking ties; its plans then composed by PLD where that applies to every
    method and fits the compute as well (a tighter composition: a larger ε_t, a less noisy release); None
    when no rate fits every method. One model across methods (``PlanSetup.pooled``) plans its methods
    as one pool (``plan_pool``)."""
    high = max((*setup.totals, total))
    pools = setup.pools()
    floors = {pool: setup.floor(pool, n, high) for pool in pools}
    found: list[list[MethodPlan]] = []
    shares = dict.fromkeys(pools, 1.0)  # each pool's last ε_t/ε_B: the next rate's fixed point starts there
    for fraction in fractions(setup, n):
        plans = [
            plan_pool(setup, pool, total, fraction, n, floors[pool], start=shares[pool]) for pool in pools
        ]
        for pool, plan in zip(pools, plans, strict=True):
            if plan is not None:
                shares[pool] = plan[0].tuning.rdp_epsilon / plan[0].release.rdp_epsilon
        if all(p is not None for p in plans):
            found.append([m for p in plans if p is not None for m in p])
    if not found:
        return None
    limit = setup.tuning_compute + 1.0 + 1e-9
    fitting = [plans for plans in found if _compute(plans) <= limit]
    chosen = max(fitting, key=_ranked) if fitting else min(found, key=_compute)
    if setup.trials.random:  # repeat-and-select: RDP only
        return chosen
    fraction = chosen[0].tuning.fraction
    start = {p.pool: p.tuning.rdp_epsilon / p.release.rdp_epsilon for p in chosen}
    tighter = [plan_pool(setup, pool, total, fraction, n, floors[pool], True, start[pool]) for pool in pools]
    tightened = [m for p in tighter if p is not None for m in p]
    if len(tightened) == len(chosen) and _compute(tightened) <= max(limit, _compute(chosen)):
        return tightened
    return chosen


def _compute(plans: list[MethodPlan]) -> float:
    return max(p.run_equivalents for p in plans)


def _ranked(plans: list[MethodPlan]) -> tuple[float, float]:
    return round(min(p.tuning_quality for p in plans), 12), -_compute(plans)


def useful(plans: list[MethodPlan] | None) -> bool:
    """Whether every method's tuning ranks at γ·ε_t ≥ ``MIN_TUNING_EPSILON``, ε_t as each plan spends it
    (``MethodPlan.tuning_spent``)."""
    return plans is not None and all(p.tuning_spent >= MIN_TUNING_EPSILON for p in plans)


def ranks(plans: list[MethodPlan] | None) -> bool:
    """Whether a plan is ``useful`` and the trials its selection reads make at least ``MIN_RANKING_STEPS``
    noisy steps (``MethodPlan.selection_steps``: with a second rung, the promoted trials')."""
    return useful(plans) and all(p.selection_steps >= MIN_RANKING_STEPS for p in plans or [])


def fewest_kept(promoted: int) -> int:
    """The fewest trials per method a spread gives: ``MIN_SPREAD_TRIALS``, or with a second rung of
    ``promoted`` trials one more than it promotes (a rung that promotes every trial halves nothing)."""
    return max(MIN_SPREAD_TRIALS, promoted + 1)


def fewest_spread(setup: PlanSetup) -> int:
    """The fewest trials per method ``plan_spread`` may give: ``fewest_kept``, or the spec's count where
    that is fewer."""
    return min(fewest_kept(setup.promoted), int(setup.trials.mean))


def plan_spread(setup: PlanSetup, total: float, n: int) -> list[MethodPlan] | None:
    """``plan_total`` at the trials per method the plan runs (module docstring): the spec's K; for one model
    across methods whose plan at K does not ``rank``, the largest k in [``fewest_spread``, K) whose
    plan does (by bisection: fewer trials make longer ones), or, where none does, ``fewest_spread``
    (the longest trials it allows; the spending line notes them). The k chosen is the plan's tuning
    count (``Phase.count``), which the total's sweep runs (``dptune.sweep.pipeline.pipeline``)."""
    plans = plan_total(setup, total, n)
    asked = int(setup.trials.mean)
    low = fewest_spread(setup)
    if not setup.pooled or setup.trials.random or low == asked or ranks(plans):
        return plans

    def at(k: int) -> list[MethodPlan] | None:
        return plan_total(replace(setup, trials=TrialCount("fixed", k)), total, n)

    best, high = at(low), asked
    if not ranks(best):
        return best
    while high - low > 1:
        middle = (low + high) // 2
        found = at(middle)
        if ranks(found):
            best, low = found, middle
        else:
            high = middle
    return best


def smallest_total(setup: PlanSetup, n: int, above: float) -> float:
    """The smallest total ε above ``above`` whose plan (``plan_spread``) is useful, rounded up to two
    significant digits."""
    high = max(2 * above, 0.5)
    while not useful(plan_spread(setup, high, n)):
        above, high = high, 2 * high
        if high > 1e4:
            raise InputError("privacy.epsilon", "no total ε up to 1e4 gives this search a useful plan")
    for _ in range(7):
        middle = math.sqrt(above * high)
        if useful(plan_spread(setup, middle, n)):
            high = middle
        else:
            above = middle
    digits = 1 - math.floor(math.log10(high))
    return float(math.ceil(high * 10**digits) / 10**digits)


def plan_sweep(setup: PlanSetup, n: int) -> list[MethodPlan]:
    """Every method's plan at every total, fixed before the data is touched.

    Raises:
        InputError: on ``privacy.epsilon`` when a total is too small for a useful plan, with the
            smallest total that works.
    """
    plans: list[MethodPlan] = []
    for total in setup.totals:
        found = plan_spread(setup, total, n)
        if found is None or not useful(found):
            trials = f"as few as {fewest_spread(setup)}" if setup.pooled else setup.trials.describe()
            raise InputError(
                "privacy.epsilon",
                f"a total ε = {total:g} (tuning included) is too small for a useful plan with "
                f"{trials} tuning trials per method: they would rank at ε below "
                f"{MIN_TUNING_EPSILON:g}; use a total ε of at least {smallest_total(setup, n, total):g}, "
                "or fewer trials",
            )
        plans.extend(found)
    return plans
