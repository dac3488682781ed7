"""The plan of a sweep whose ε includes the tuning (``privacy.includes_tuning``): stages fixed before the
data is touched, whose composition is at most the (ε, δ) the user set for the model they publish.

For each method and each total (ε, δ), two stages:

1. **tune**: K configurations of the method's space (the sweep's sampler), each trained at the per-run
   target ε_t with the proxy's plan (``RunConfig.proxy_fraction``) on one secret Poisson subset X that
   keeps each training sample with probability γ (γ = 1: the whole data); the configuration with the
   best validation accuracy is selected (the validation part is held out of the training data, so the
   choice reads no training record; ties by a secret key), or, where the method says ``keep_start``, its
   start point unless a trial beats it by more than the standard error of the difference of the two
   validation accuracies (``KEEP_START_RULE``): a tuning trial is short and noisy, a start point a
   setting tuned elsewhere. Either rule reads only the trials' scores, which the stage's bound counts.
   Every trial composes, whatever the sampler chose from earlier scores, because every trial's privacy
   parameters are fixed here (adaptive composition): RDP K·W_t, W_t the per-order maximum over the
   space's privacy configurations (``dptune.sweep.bound.worst_run``).
2. **release**: the selected configuration trained once on the whole data at ε_B, the spec's epochs T, and
   scored on the final-test part. The linear scaling rule (Panda, Tang, Mahloujifar, Sehwag & Mittal,
   ICML 2024, "A New Linear Scaling Rule for Private Adaptive Hyperparameter Optimization",
   arXiv:2212.04486: the best total step r = η·T grows about linearly with ε; their line through the
   origin, as one tuning ε fits it, where they fit it from two) carries the tuning's r_t to
   r_B = r_t·ε_B/ε_t **in steps**: a tuning trial runs T_t = max(1, round(T·ε_t/ε_B)) epochs at the step
   η the release takes, and the release runs T at η_B = η·(ε_B/ε_t)·(T_t/T) (1 but for the rounding of
   T_t). The step a trial is scored at is the step the release takes: what the rule extrapolates is the
   length of training, which a larger ε lets run with less noise per step, and not the step, whose
   stability no trial at ε_t would have tested. Shorter trials also cost less compute, which the planner
   spends on a larger tuning subset (below).

The tuning's per-run ε_t is the largest whose stage converts to at most the share ρ of the total
(``privacy.tuning_share``); ε_B the largest that keeps the composition within the total, by the tightest
of three compositions, all valid: the subset rate is chosen (below) with the plans composed in RDP and the
basic way, the one whose release is least noisy, and the chosen rate's plans are then composed by PLD
where it applies, which leaves their release less noise still (``plan_total``):

* **PLD** (a fixed K, and one privacy configuration per stage: every knob that changes a run's noise
  fixed, as in the shipped evidence specs): each stage repeats one Poisson-subsampled Gaussian schedule,
  chosen before the data is touched whatever the sampler picks from earlier scores, so the K + 1 runs
  compose adaptively as fixed mechanisms, and dp-accounting's privacy-loss-distribution accountant
  composes them at δ (Koskela, Jälkö & Honkela 2020; Doroshenko et al. 2022: tighter than RDP for many
  Gaussian steps; ``dptune.privacy.accounting.pld_epsilon``). Tuning on a secret subset, the K runs'
  PLD on X is amplified by the subset's dominating pair (Zhu, Dong & Wang 2022, Thm. 11,
  ``dptune.privacy.amplification.amplified_pld``: Balle, Barthe & Gaboardi's profile, every ε at once)
  before it composes with the release's. Its stages' runs calibrate by PLD to their per-run ε. The rule
  above and the planner's ranking read every stage's ε by RDP (``Stage.rdp_epsilon``), one measure of
  noise whatever the composition.
* **RDP**: the tuning stage is one mechanism on X with RDP K·W_t; X is secret, so on the whole data it
  is RDP with Zhu & Wang's bound for Poisson subsampling of any mechanism (ICML 2019, Thm. 6,
  ``dptune.privacy.amplification.amplified_rdp``; Koskela & Kulkarni, NeurIPS 2023, "Practical
  Differentially Private Hyperparameter Tuning with Subsampling", tune on such a subset). The release's
  W_B adds order by order and the sum converts once (Balle et al. 2020, Thm. 21). γ = 1 is plain RDP
  composition. Where W_t is a per-order maximum over several privacy configurations, no single pair of
  distributions dominates the stage, and PLD does not apply.
* **basic** (γ < 1): the tuning stage is (ε_X, δ/2γ)-DP on X by RDP; the subset amplifies it to
  (ε_A, δ/2) = (log(1 + γ(e^{ε_X} − 1)), δ/2) on the data (Balle, Barthe & Gaboardi 2018, Thm. 8), and
  the release at (ε_B, δ/2) adds: ε = ε_A + ε_B.

With a random trial count (``budget.trials_per_method: {distribution: …}``: random search, no
scheduler, no start points) the tuning is **repeat-and-select** instead (Papernot & Steinke, ICLR 2022,
Thms. 2 and 6): a secret number K of random configurations on the whole data, each at ε_r, the best one
re-run once at ε_r and released; its RDP is the theorem's transform of W plus W itself, converted once,
with ε_r the largest that fits the total.

A proxy trial at ε_t on a subset of rate γ moves its parameters with γ times the full run's signal and the
full run's noise (``dptune.training.train``): what it ranks is about what a full run at γ·ε_t would. The
planner chooses γ among ``FRACTIONS`` (a subset of at least ``MIN_SUBSET`` samples) to maximise that
γ·ε_t under the tuning compute the spec allows (``tuning_compute`` full runs: K·γ·T_t/T of them),
smaller compute breaking ties. A budget whose best plan gives the tuning less than ``MIN_TUNING_EPSILON`` is
refused with the smallest total that works: tuning that noisy ranks nothing, and a user is better served
by the no-tuning run at the whole ε (``dptune train``).
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

import numpy as np

from dptune.base.errors import InputError
from dptune.privacy.accounting import HistoryEntry, pld_epsilon, pld_interval, rdp_to_epsilon
from dptune.privacy.amplification import amplified_by_subset, amplified_rdp, on_subset, subset_pld_epsilon
from dptune.privacy.calibration import NoiseSchedule, calibrate_noise
from dptune.privacy.tuning import TrialCount, repeat_and_select_curve, worst_curve
from dptune.sweep.bound import configuration_schedules, lowest_sigma
from dptune.sweep.space import Dist, MethodSpace
from dptune.sweep.spec_keys import TUNING_COMPUTE, TUNING_SHARE
from dptune.training.config import RunConfig

FRACTIONS = (1.0, 0.5, 0.25, 0.125, 0.0625)
"""Subset fractions γ the planner considers (1: tune on the whole data)."""
MIN_SUBSET = 2000
"""The fewest samples a tuning subset may expect to keep: below it validation scores rank noise."""
MIN_TUNING_EPSILON = 0.05
"""The least per-run ε a tuning trial may rank at, as a full run would (γ·ε_t)."""
SELECTION_RULE = (
    "the tuning trial with the best validation accuracy (held-out part, not training data); ties by a "
    "secret key"
)
KEEP_START_RULE = (
    "the start point's tuning trial, unless the trial with the best validation accuracy (held-out part, "
    "not training data) beats it by more than the standard error of the difference, √((a(1 − a) + "
    "b(1 − b))/n) on the n validation examples, or that trial where no start point's trial finished; "
    "ties by a secret key"
)
CARRY_RULE = (
    "linear scaling rule in steps: r_B = r_t·ε_B/ε_t with r = η·T; tuning trials run T_t = round(T·ε_t/ε_B) "
    "epochs at the release's step, the release T at η·(ε_B/ε_t)·(T_t/T) (Panda et al. 2024)"
)
PER_RUN_FLOOR = 0.01
"""The least per-run ε the planner tries: below it a run's σ leaves the calibration's range."""
PLAN_BOUND = "plan"
"""The bound of a pipeline's row in a sweep's privacy record: its plan (``plan_record``)."""
PLAN_ARTIFACT = "plan.json"
"""The plan of a pipeline stage as its sweep record stores it (every mechanism written out)."""
RDP_COMPOSITION = "RDP: K·W_t + W_B composed order by order, converted once at δ"
AMPLIFIED_RDP_COMPOSITION = (
    "RDP: the tuning's K·W_t amplified by the subset (Zhu & Wang 2019, Thm. 6), + W_B, converted once at δ"
)
REPEAT_AND_SELECT_COMPOSITION = (
    "RDP: repeat-and-select of W (Papernot & Steinke 2022), + W for the re-run released, converted once at δ"
)
ONE_RUN = TrialCount("fixed", 1)
BASIC_COMPOSITION = (
    "basic: tuning (ε_X, δ/2γ) on the subset amplified to (ε_A, δ/2) (Balle et al. 2018, Thm. 8), + the "
    "release's (ε_B, δ/2)"
)
PLD_COMPOSITION = (
    "PLD: K runs of the tuning's one mechanism and the release's, composed by dp-accounting's PLD "
    "accountant at δ"
)
AMPLIFIED_PLD_COMPOSITION = (
    "PLD: K runs of the tuning's one mechanism on the subset, their PLD amplified by it (Zhu, Dong & Wang "
    "2022, Thm. 11), and the release's, composed by dp-accounting's PLD at δ"
)
RDP = "rdp"
PLD = "pld"
"""The accountants a plan's runs calibrate with: each stage's own, the one its composition uses."""
_CARRY_ROUNDS = 5  # rounds of the tuning epochs' fixed point (plan_method): 2 or 3 in practice
_PLD_BRACKET = 1.25  # PLD's σ is 5–10% below RDP's, where its search starts (``_least_noise``)
_SEARCH_STEPS = 14  # bisection steps in log ε: within about 0.1% of the largest that fits


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


@dataclass(frozen=True)
class Stage:
    """One stage's mechanisms: ``count`` runs (a random count: repeat-and-select, the best released),
    each dominated by one of ``ledgers`` (one per privacy configuration the stage can train, (σ, q,
    steps) entries at the per-run target ``per_run_epsilon``), on a secret subset of rate ``fraction``;
    (``epsilon``, ``delta``) its guarantee on the whole data; ``accountant`` the one its runs calibrate
    with and state their per-run ε in (``RDP`` or ``PLD``, as the plan composes)."""

    name: str
    count: TrialCount
    per_run_epsilon: float
    per_run_delta: float
    fraction: float
    ledgers: tuple[tuple[HistoryEntry, ...], ...]
    epsilon: float
    delta: float
    accountant: str = RDP

    def curve(self) -> np.ndarray:
        """RDP of the stage on the data it trains on: runs × the per-order worst configuration W, or
        repeat-and-select's transform of W for a random count."""
        worst = worst_curve(self.ledgers)
        if self.count.random:
            return repeat_and_select_curve(worst, self.count)
        return self.count.mean * worst

    @property
    def rdp_epsilon(self) -> float:
        """The per-run ε of the stage's runs by RDP: its own for an RDP stage; for a PLD stage what RDP says
        its written-out mechanism spends (more than PLD says). One measure of a run's noise for stages of
        either accountant: what the planner ranks tunings by and the linear scaling rule reads."""
        if self.accountant == RDP:
            return self.per_run_epsilon
        return rdp_to_epsilon(worst_curve(self.ledgers), self.per_run_delta)

    @property
    def runs(self) -> int:
        """The runs of a fixed count (a random count's K is secret: its mean here)."""
        return math.ceil(self.count.mean)

    def as_dict(self) -> dict[str, Any]:
        runs: Any = self.runs
        if self.count.random:
            runs = {"distribution": self.count.distribution, "mean": self.count.mean}
            if self.count.distribution != "poisson":
                runs["shape"] = self.count.shape
        return {
            "stage": self.name,
            "runs": runs,
            "per_run_epsilon": self.per_run_epsilon,
            "per_run_delta": self.per_run_delta,
            "accountant": self.accountant,
            "subset_fraction": self.fraction,
            "mechanisms": [
                [
                    {"noise_multiplier": z, "sample_rate": q, "steps": steps, "mechanism": "poisson-gaussian"}
                    for z, q, steps in ledger
                ]
                for ledger in self.ledgers
            ],
            "epsilon": self.epsilon,
            "delta": self.delta,
        }


@dataclass(frozen=True)
class MethodPlan:
    """One method's pipeline at one total: its stages, how they compose, the epochs its tuning trials run
    for each epochs T its release can take (``epochs``: (T, T_t) pairs) and the compute in full runs
    (K·γ·T_t/T for the tuning, 1 for the release)."""

    method: str
    total_epsilon: float
    delta: float
    tuning: Stage
    release: Stage
    composition: str
    epsilon: float
    run_equivalents: float
    epochs: tuple[tuple[int, int], ...]
    keep_start: bool = False  # the selection keeps the start point unless beaten clearly

    @property
    def selection_rule(self) -> str:
        """How the release's configuration is chosen from the tuning trials' validation scores."""
        return KEEP_START_RULE if self.keep_start else SELECTION_RULE

    def lr_scale(self, epochs: int) -> float:
        """η_B/η_t = (ε_B/ε_t)·(T_t/T) for a release of ``epochs`` T: the linear scaling rule's
        r_B/r_t = ε_B/ε_t with the tuning's T_t; 1 where T_t = T·ε_t/ε_B exactly. The ε are both by RDP
        (``Stage.rdp_epsilon``): the rule reads one measure of noise, whatever the plan composes with."""
        tuned = dict(self.epochs)[epochs]
        return self.release.rdp_epsilon / self.tuning.rdp_epsilon * tuned / epochs

    def released_epochs(self, tuned: int) -> int:
        """The release's epochs T of a tuning trial that ran ``tuned`` (T_t) of them."""
        return {t: e for e, t in self.epochs}[tuned]

    @property
    def tuning_quality(self) -> float:
        """γ·ε_t: the per-run ε a full run whose ranking a tuning trial resembles would spend (by RDP,
        ``Stage.rdp_epsilon``, so that plans of either accountant rank alike)."""
        return self.tuning.fraction * self.tuning.rdp_epsilon

    @property
    def tuning_spent(self) -> float:
        """γ·ε_t with ε_t as the plan spends it: by the tuning stage's own accountant (PLD for a PLD plan,
        whose ε_t RDP cannot certify below about 0.1 at δ = 1e-5, whatever the noise). What the guard of
        a useful plan reads (``useful``)."""
        return self.tuning.fraction * self.tuning.per_run_epsilon

    def as_dict(self) -> dict[str, Any]:
        """The plan as stored with the sweep: every mechanism written out, so that an independent accountant
        can recompose it (``tests/test_plan.py`` does, with dp-accounting), and each stage's compute in
        full runs (``compute_runs``: the tuning's K·γ·T_t/T, the release's 1)."""
        return {
            "method": self.method,
            "total_epsilon": self.total_epsilon,
            "delta": self.delta,
            "stages": [
                self.tuning.as_dict() | {"compute_runs": self.run_equivalents - 1.0},
                self.release.as_dict() | {"compute_runs": 1.0},
            ],
            "composition": self.composition,
            "epsilon": self.epsilon,
            "selection_rule": self.selection_rule,
            "carry_rule": CARRY_RULE,
            "epochs": [{"release": e, "tuning": t, "lr_scale": self.lr_scale(e)} for e, t in self.epochs],
            "run_equivalents": self.run_equivalents,
        }


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


def _with_tuning_epochs(run: RunConfig, pairs: Sequence[tuple[int, int]]) -> RunConfig:
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


def _largest(ok: Callable[[float], bool], low: float, high: float) -> float:
    """The largest x in [low, high] with ``ok(x)`` (``ok`` true up to a threshold, false above it;
    ``ok(low)`` true), by bisection in log x; the end that is known to satisfy it."""
    if ok(high):
        return high
    for _ in range(_SEARCH_STEPS):
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
    schedules = _schedules(space, run, n)
    target = start
    while target <= high:
        try:
            _ledgers(schedules, target, delta)
            return target
        except ValueError:
            target *= 1.25
    return None


class _Schedule:
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

    def lowest(self, epsilon: float, delta: float) -> tuple[HistoryEntry, ...]:
        """The worst ledger of the configuration's runs at target (ε, δ), calibrated by RDP
        (``lowest_sigma``; the accountant of every stage but a PLD-composed one's)."""
        if (epsilon, delta) not in self.found:
            self.sigma = lowest_sigma(epsilon, delta, self.schedule, RDP, self.sigma, self.probe)
            self.found[epsilon, delta] = tuple(self.schedule(self.sigma))
        return self.found[epsilon, delta]


def _schedules(space: MethodSpace, run: RunConfig, n: int) -> tuple[_Schedule, ...]:
    """Every privacy configuration ``space`` can draw over ``run`` (``configuration_schedules``)."""
    return tuple(_Schedule(s) for s in configuration_schedules(space, run, n))


def _ledgers(
    schedules: Sequence[_Schedule], epsilon: float, delta: float
) -> tuple[tuple[HistoryEntry, ...], ...]:
    """The worst ledger of each of ``schedules`` when its runs target (ε, δ)."""
    return tuple(s.lowest(epsilon, delta) for s in schedules)


def _curve(schedules: Sequence[_Schedule], epsilon: float, delta: float) -> np.ndarray:
    return worst_curve(_ledgers(schedules, epsilon, delta))


def plan_method(
    setup: PlanSetup,
    method: str,
    total: float,
    fraction: float,
    n: int,
    floor: float | None,
    composed_by_pld: bool = False,
) -> MethodPlan | None:
    """The plan of ``method`` at ``total`` with a tuning subset of rate ``fraction``, composed by PLD
    (``composed_by_pld``; None where PLD does not apply) or in RDP and the basic way (None: not even the
    least per-run ε the accountant can certify, ``floor`` (``lowest_target``), fits the tuning's share).

    The tuning trials' epochs T_t = round(T·ε_t/ε_B) and the plan's ε_t, ε_B depend on each other: from
    T_t = T, each round plans with the T_t the last one's ε_t/ε_B gives, until T_t repeats (a few rounds).
    Every round's plan is valid as it stands (its stages are what it runs); the rounding left over is the
    release's step factor (``MethodPlan.lr_scale``)."""
    if setup.trials.random:
        return repeat_and_select_plan(setup, method, total, n, floor)
    if floor is None:
        return None
    space, run = setup.methods[method], setup.runs[method]
    pairs = epochs_pairs(space, run, 1.0)
    plan = None
    for _ in range(_CARRY_ROUNDS):
        found = _plan_at(setup, method, total, fraction, n, floor, pairs, composed_by_pld)
        if found is None:
            return plan
        plan = found
        share = found.tuning.rdp_epsilon / found.release.rdp_epsilon
        following = epochs_pairs(space, run, share)
        if following == pairs:
            break
        pairs = following
    return plan


Candidate = tuple[Stage, Stage, str, float]
"""A plan's two stages, its composition's name and the figure it composes to."""


def _plan_at(
    setup: PlanSetup,
    method: str,
    total: float,
    fraction: float,
    n: int,
    floor: float,
    pairs: tuple[tuple[int, int], ...],
    composed_by_pld: bool,
) -> MethodPlan | None:
    """``plan_method`` with the tuning trials' epochs fixed (``pairs``: (T, T_t)): composed by PLD, or of
    the compositions in RDP and the basic way (module docstring), the one whose release is least noisy
    (the largest ε_B by RDP, ``Stage.rdp_epsilon``)."""
    candidates = (
        _pld_candidates(setup, method, total, fraction, n, pairs)
        if composed_by_pld
        else _rdp_candidates(setup, method, total, fraction, n, floor, pairs)
    )
    if not candidates:
        return None
    tuning, release, composition, composed = max(candidates, key=lambda c: c[1].rdp_epsilon)
    if composed > total * (1 + 1e-9):
        raise AssertionError(f"a plan of {method} composes to {composed} > {total}")
    trials = int(setup.trials.mean)
    compute = trials * fraction * max(t / e for e, t in pairs) + 1.0
    keep = setup.methods[method].keep_start
    return MethodPlan(
        method, total, setup.delta, tuning, release, composition, composed, compute, pairs, keep
    )


def _rdp_candidates(
    setup: PlanSetup,
    method: str,
    total: float,
    fraction: float,
    n: int,
    floor: float,
    pairs: tuple[tuple[int, int], ...],
) -> list[Candidate]:
    """The plans composed in RDP (amplified by the subset) and, on a subset, the basic way: the tuning's
    per-run ε_t the largest whose stage, in RDP amplified by the subset, converts to at most ρ·total; the
    release's ε_B the largest that keeps each composition within the total."""
    space, run, delta, count = setup.methods[method], setup.runs[method], setup.delta, setup.trials
    tuned_space = tuning_space(space, pairs)
    tuned_run = _with_tuning_epochs(run, pairs)
    tuned_floor = lowest_target(tuned_space, tuned_run, n, delta, total, start=floor)
    tuned_schedules, released = _schedules(tuned_space, tuned_run, n), _schedules(space, run, n)
    if tuned_floor is None:
        return []
    trials = int(count.mean)

    def tuning_fits(e: float) -> bool:
        tuning = amplified_rdp(trials * _curve(tuned_schedules, e, delta), fraction)
        return rdp_to_epsilon(tuning, delta) <= setup.tuning_share * total

    if not tuning_fits(tuned_floor):
        return []
    per_run = _largest(tuning_fits, tuned_floor, total)
    ledgers = _ledgers(tuned_schedules, per_run, delta)
    tuned = amplified_rdp(trials * worst_curve(ledgers), fraction)

    def release_fits(e: float) -> bool:
        return rdp_to_epsilon(tuned + _curve(released, e, delta), delta) <= total

    candidates: list[Candidate] = []
    if release_fits(floor):
        release_epsilon = _largest(release_fits, floor, total)
        release_ledgers = _ledgers(released, release_epsilon, delta)
        release_curve = worst_curve(release_ledgers)
        candidates.append(
            (
                Stage("tune", count, per_run, delta, fraction, ledgers, rdp_to_epsilon(tuned, delta), delta),
                Stage(
                    "release",
                    ONE_RUN,
                    release_epsilon,
                    delta,
                    1.0,
                    release_ledgers,
                    rdp_to_epsilon(release_curve, delta),
                    delta,
                ),
                RDP_COMPOSITION if fraction == 1 else AMPLIFIED_RDP_COMPOSITION,
                rdp_to_epsilon(tuned + release_curve, delta),
            )
        )
    if fraction < 1:
        subset_delta = delta / (2 * fraction)
        on_subset = rdp_to_epsilon(trials * worst_curve(ledgers), subset_delta)
        epsilon_a, delta_a = amplified_by_subset(on_subset, subset_delta, fraction)
        release_epsilon, release_delta = total - epsilon_a, delta - delta_a
        if release_epsilon >= floor:
            release_ledgers = _ledgers(released, release_epsilon, release_delta)
            candidates.append(
                (
                    Stage("tune", count, per_run, delta, fraction, ledgers, epsilon_a, delta_a),
                    Stage(
                        "release",
                        ONE_RUN,
                        release_epsilon,
                        release_delta,
                        1.0,
                        release_ledgers,
                        release_epsilon,
                        release_delta,
                    ),
                    BASIC_COMPOSITION,
                    epsilon_a + release_epsilon,
                )
            )
    return candidates


def _pld_candidates(
    setup: PlanSetup, method: str, total: float, fraction: float, n: int, pairs: tuple[tuple[int, int], ...]
) -> list[Candidate]:
    """The plan composed by PLD, where it applies: a fixed K, and one privacy configuration for the tuning
    trials and one for the release (every knob that changes a run's noise fixed), so that each stage
    repeats one Poisson-subsampled Gaussian schedule whatever the sampler chooses from earlier scores
    (adaptive composition of mechanisms fixed in advance). The tuning's σ_t is the smallest whose K runs
    spend at most ρ·total on the data: on the whole data by dp-accounting's PLD, on a secret subset of
    rate γ at most (ε_X, δ/γ) on the subset, log(1 + γ(e^{ε_X} − 1)) = ρ·total (Balle, Barthe & Gaboardi
    2018, Thm. 8, ``amplified_by_subset``). The release's σ_B is the smallest that keeps all K + 1 runs
    within the total: the K runs' PLD (amplified by the subset, ``amplified_pld``) composed with the
    release's. The runs calibrate by PLD to the per-run ε their σ spends (a calibrated σ is at least it:
    ε decreases in σ), a tuning trial on the subset as a run on it."""
    if setup.trials.random:
        return []
    space, run, delta = setup.methods[method], setup.runs[method], setup.delta
    tuned = _schedules(tuning_space(space, pairs), _with_tuning_epochs(run, pairs), n)
    released = _schedules(space, run, n)
    if len(tuned) != 1 or len(released) != 1:
        return []
    (tune_schedule,), (release_schedule,) = tuned, released
    trials = int(setup.trials.mean)

    def tuning(sigma: float) -> list[HistoryEntry]:
        return list(tune_schedule.probe(sigma)) * trials

    subset_epsilon, subset_delta = on_subset(setup.tuning_share * total, delta, fraction)
    tuning_found = _least_noise(tuning, subset_epsilon, subset_delta)
    if tuning_found is None:
        return []
    sigma_t, tuning_grid = tuning_found
    tune_ledger = tuple(tune_schedule.schedule(sigma_t))
    searched = list(tune_ledger) * trials
    release_found = _least_noise(release_schedule.probe, total, delta, searched, fraction)
    if release_found is None:
        return []
    sigma_b, grid = release_found
    release_ledger = tuple(release_schedule.schedule(sigma_b))
    release_alone = pld_epsilon(release_ledger, delta)
    on_data, _ = amplified_by_subset(pld_epsilon(searched, subset_delta, tuning_grid), subset_delta, fraction)
    return [
        (
            Stage(
                "tune",
                setup.trials,
                pld_epsilon(tune_ledger, delta),
                delta,
                fraction,
                (tune_ledger,),
                on_data,
                delta,
                PLD,
            ),
            Stage(
                "release", ONE_RUN, release_alone, delta, 1.0, (release_ledger,), release_alone, delta, PLD
            ),
            PLD_COMPOSITION if fraction == 1 else AMPLIFIED_PLD_COMPOSITION,
            _after(searched, fraction, release_ledger, delta, grid),
        )
    ]


def _after(
    searched: Sequence[HistoryEntry],
    fraction: float,
    history: Sequence[HistoryEntry],
    delta: float,
    interval: float | None = None,
) -> float:
    """ε at δ by PLD of ``history`` on the whole data after ``searched`` on a secret subset of rate
    ``fraction`` (1: the whole data; ``subset_pld_epsilon``), on the grid of ``interval`` (by default the
    one ``pld_interval`` chooses for the two on the whole data)."""
    if fraction == 1 or not searched:
        return pld_epsilon([*searched, *history], delta, interval)
    grid = pld_interval([*searched, *history], delta) if interval is None else interval
    return subset_pld_epsilon(searched, fraction, history, delta, grid)


def _least_noise(
    history: NoiseSchedule,
    target: float,
    delta: float,
    searched: Sequence[HistoryEntry] = (),
    fraction: float = 1.0,
) -> tuple[float, float] | None:
    """The smallest σ (within 0.1%: its ε within 0.1% of ``target``, at most it) whose ``history``, after
    ``searched`` on a secret subset of rate ``fraction`` (``_after``), spends at most ``target`` by PLD,
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
        epsilon = _after(searched, fraction, ledger, at, interval)
        yield epsilon, epsilon

    try:
        found = calibrate_noise(target, delta, history, PLD, 1e-3, start, on_grid, _PLD_BRACKET)
    except ValueError:
        return None
    return found.noise_multiplier, interval


def repeat_and_select_plan(
    setup: PlanSetup, method: str, total: float, n: int, floor: float | None
) -> MethodPlan | None:
    """Repeat-and-select within ``total``: the largest per-run ε_r whose theorem's transform of W, plus
    W for the released re-run of the best, converts to at most the total (None: not even ``floor``)."""
    space, run, delta, count = setup.methods[method], setup.runs[method], setup.delta, setup.trials
    schedules = _schedules(space, run, n)

    def composed(e: float) -> float:
        worst = _curve(schedules, e, delta)
        return rdp_to_epsilon(repeat_and_select_curve(worst, count) + worst, delta)

    if floor is None or composed(floor) > total:
        return None
    per_run = _largest(lambda e: composed(e) <= total, floor, total)
    ledgers = _ledgers(schedules, per_run, delta)
    worst = worst_curve(ledgers)
    search = rdp_to_epsilon(repeat_and_select_curve(worst, count), delta)
    tuning = Stage("tune", count, per_run, delta, 1.0, ledgers, search, delta)
    release = Stage("release", ONE_RUN, per_run, delta, 1.0, ledgers, rdp_to_epsilon(worst, delta), delta)
    epsilon = composed(per_run)
    return MethodPlan(
        method,
        total,
        delta,
        tuning,
        release,
        REPEAT_AND_SELECT_COMPOSITION,
        epsilon,
        count.mean + 1.0,
        epochs_pairs(space, run, 1.0),
    )


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
    when no rate fits every method."""
    high = max((*setup.totals, total))
    floors = {m: lowest_target(setup.methods[m], setup.runs[m], n, setup.delta, high) for m in setup.methods}
    found: list[list[MethodPlan]] = []
    for fraction in fractions(setup, n):
        plans = [plan_method(setup, m, total, fraction, n, floors[m]) for m in setup.methods]
        if all(p is not None for p in plans):
            found.append([p for p in plans if p is not None])
    if not found:
        return None
    limit = setup.tuning_compute + 1.0 + 1e-9
    fitting = [plans for plans in found if _compute(plans) <= limit]
    chosen = max(fitting, key=_ranked) if fitting else min(found, key=_compute)
    if setup.trials.random:  # repeat-and-select: RDP only
        return chosen
    fraction = chosen[0].tuning.fraction
    tighter = [plan_method(setup, p.method, total, fraction, n, floors[p.method], True) for p in chosen]
    tightened = [p for p in tighter if p is not None]
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


def smallest_total(setup: PlanSetup, n: int, above: float) -> float:
    """The smallest total ε above ``above`` whose plan is useful, rounded up to two significant digits."""
    high = max(2 * above, 0.5)
    while not useful(plan_total(setup, high, n)):
        above, high = high, 2 * high
        if high > 1e4:
            raise InputError("privacy.epsilon", "no total ε up to 1e4 gives this search a useful plan")
    for _ in range(7):
        middle = math.sqrt(above * high)
        if useful(plan_total(setup, middle, n)):
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
        found = plan_total(setup, total, n)
        if found is None or not useful(found):
            raise InputError(
                "privacy.epsilon",
                f"a total ε = {total:g} (tuning included) is too small for a useful plan with "
                f"{setup.trials.describe()} tuning trials per method: they would rank at ε below "
                f"{MIN_TUNING_EPSILON:g}; use a total ε of at least {smallest_total(setup, n, total):g}, "
                "or fewer trials",
            )
        plans.extend(found)
    return plans


def tuning_knobs(config: Mapping[str, Any], plan: MethodPlan) -> dict[str, Any]:
    """A tuning trial's knobs from a configuration of the spec's space: a spec states the released
    model's epochs, so a drawn ``epochs`` T becomes the plan's T_t (``carried`` takes it back); every
    other knob, the step included, as drawn."""
    tuned = dict(plan.epochs)
    return {k: tuned[v] if k == "epochs" else v for k, v in config.items()}


def tuning_run(run: RunConfig, plan: MethodPlan) -> RunConfig:
    """The run a method's tuning trials start from: at the plan's per-run ε_t and δ by the stage's
    accountant, on its subset (none for γ = 1), for the plan's T_t epochs of the spec's T."""
    fraction = plan.tuning.fraction
    return replace(
        _with_tuning_epochs(run, plan.epochs),
        epsilon=plan.tuning.per_run_epsilon,
        delta=plan.delta,
        accountant=plan.tuning.accountant,
        proxy_fraction=fraction if fraction < 1 else None,
    )


def carried(config: Mapping[str, Any], run: RunConfig, plan: MethodPlan) -> dict[str, Any]:
    """The release's knobs: the selected trial's ``config`` on the whole data at the release's (ε, δ) by
    its stage's accountant, for the epochs T its T_t stands for, its step (``lr``, or ``effective_lr``
    where the run sets η by it) times the rule's (ε_B/ε_t)·(T_t/T) (``MethodPlan.lr_scale``; ``run``:
    the tuning trials' run, ``tuning_run``)."""
    tuned = run.with_knobs(config)
    epochs = plan.released_epochs(tuned.epochs)
    scale = plan.lr_scale(epochs)
    step = (
        {"effective_lr": tuned.effective_lr * scale}
        if tuned.effective_lr is not None
        else {"lr": tuned.lr * scale}
    )
    return {
        **config,
        **step,
        "epochs": epochs,
        "epsilon": plan.release.per_run_epsilon,
        "delta": plan.release.per_run_delta,
        "accountant": plan.release.accountant,
        "proxy_fraction": None,
    }


class Ran(NamedTuple):
    """What a pipeline stage ran of a method's plan, from the private ledger: the tuning trials started,
    the release runs started, and the trial count K the search drew (secret for repeat-and-select)."""

    searched: int
    released: int
    drawn: int


def realised(plan: MethodPlan, ran: Ran) -> tuple[float, float]:
    """(ε, δ) of what a pipeline ran: the plan's own figure when it ran as planned; else (a trial lost with
    a killed driver ran again: one more run on the data) every run beyond the plan composed with it the
    plan's way (``joint_privacy`` of the one plan)."""
    lost = max(0, ran.searched - ran.drawn)
    if lost == 0 and ran.released <= plan.release.runs:
        return plan.epsilon, plan.delta
    return joint_privacy([plan], {plan.method: ran})


def as_planned(plan: MethodPlan) -> Ran:
    """What a plan runs when it runs as planned: its K tuning trials (a random K: its mean) and its
    release runs."""
    return Ran(plan.tuning.runs, plan.release.runs, plan.tuning.runs)


def counted(plan: MethodPlan, ran: Ran | None) -> Ran:
    """The runs a plan's figure counts: what ran, but never less than the plan (a trial that did not run
    for a reason the data may have caused still counts: the plan was fixed before the data was touched,
    and a figure that shrinks with what ran would be an odometer, not a bound)."""
    planned = as_planned(plan)
    if ran is None:
        return planned
    drawn = ran.drawn if plan.tuning.count.random else planned.searched
    return Ran(max(ran.searched, drawn), max(ran.released, planned.released), drawn)


def _pld_history(plans: Sequence[MethodPlan], ran: Mapping[str, Ran]) -> list[HistoryEntry]:
    """Every run of PLD-composed ``plans`` as one ledger: each plan's tuning mechanism as many times as
    its tuning trials ran, its release's as many as its release runs (``ran`` by method)."""
    history: list[HistoryEntry] = []
    for plan in plans:
        (tuning,), (release,) = plan.tuning.ledgers, plan.release.ledgers
        history += list(tuning) * ran[plan.method].searched
        history += list(release) * ran[plan.method].released
    return history


def _tuning_curve(plan: MethodPlan, ran: Ran) -> np.ndarray:
    """RDP, on the data its trials trained on (the subset), of the tuning trials a plan ran: each trial's
    worst configuration W_t per trial; for a random count repeat-and-select's transform, plus W_t for
    each trial a lost driver ran again."""
    worst = worst_curve(plan.tuning.ledgers)
    if plan.tuning.count.random:
        return np.asarray(plan.tuning.curve() + max(0, ran.searched - ran.drawn) * worst, dtype=float)
    return np.asarray(ran.searched * worst, dtype=float)


def joint_privacy(
    plans: Sequence[MethodPlan], counts: Mapping[str, Ran] | None = None
) -> tuple[float, float]:
    """(ε, δ) of releasing every model of ``plans``, one sweep stage's pipelines, from what each ran
    (``counts`` by method, never less than planned: ``counted``). Every method's tuning trials ran on the
    one secret subset of the stage, so the subset's whole tuning is amplified **once**: the amplification
    of a combined stage is not the sum of its parts' (randomized response at ε = 1 twice on a subset of rate
    ½: log(1 + ½(e² − 1)) = 1.433 for the two together, against 2·log(1 + ½(e − 1)) = 1.240 added).

    * every plan composed by PLD: PLD of every run at the plans' δ, the tuning trials of every method on
      the subset amplified once by its dominating pair (``subset_pld_epsilon``; γ = 1: as they are);
    * any plan composed the basic way: the tuning stage of every method composed in RDP on the subset and
      converted at δ/2γ, amplified once (Balle, Barthe & Gaboardi 2018, Thm. 8) to (ε_A, δ/2); each
      release run's (ε_B, δ_B) adds;
    * otherwise in RDP: the subset's tuning amplified once (Zhu & Wang 2019, Thm. 6; γ = 1 as it is),
      plus each release run's W_B, converted once at δ.
    """
    ran = {p.method: counted(p, (counts or {}).get(p.method)) for p in plans}
    delta, fraction = plans[0].delta, plans[0].tuning.fraction
    if all(p.composition in (PLD_COMPOSITION, AMPLIFIED_PLD_COMPOSITION) for p in plans):
        searched = [e for p in plans for e in list(p.tuning.ledgers[0]) * ran[p.method].searched]
        released = [e for p in plans for e in list(p.release.ledgers[0]) * ran[p.method].released]
        return _after(searched, fraction, released, delta), delta
    tuning = np.sum([_tuning_curve(p, ran[p.method]) for p in plans], axis=0)
    if any(p.composition == BASIC_COMPOSITION for p in plans):
        subset_delta = delta / (2 * fraction)
        epsilon_a, delta_a = amplified_by_subset(rdp_to_epsilon(tuning, subset_delta), subset_delta, fraction)
        return (
            epsilon_a + sum(ran[p.method].released * p.release.epsilon for p in plans),
            delta_a + sum(ran[p.method].released * p.release.delta for p in plans),
        )
    releases = np.sum([ran[p.method].released * worst_curve(p.release.ledgers) for p in plans], axis=0)
    return rdp_to_epsilon(amplified_rdp(tuning, fraction) + releases, delta), delta


def stage_curve(plans: Sequence[MethodPlan]) -> np.ndarray:
    """RDP of one sweep stage's pipelines on the same data, their tuning trials on one secret subset: the
    subset's whole tuning amplified once (γ = 1: as it is; repeat-and-select's transforms as they are),
    plus each release."""
    tuning = amplified_rdp(np.sum([p.tuning.curve() for p in plans], axis=0), plans[0].tuning.fraction)
    releases = np.sum([p.release.curve() for p in plans], axis=0)
    return np.asarray(tuning + releases, dtype=float)


def curve_privacy(
    stages: Sequence[Sequence[MethodPlan]], records: Sequence[Mapping[str, Any]]
) -> tuple[float, float]:
    """(ε, δ) of releasing every model of a list of totals (the accuracy-vs-total-ε curve): one sweep
    stage per total on the same data, each tuning on the whole data or on its own secret subset (each
    sweep draws its subset from fresh entropy), so a stage amplifies by its own and the stages compose in
    RDP, converted once at δ (stages all composed by PLD: PLD of every run). A stage composed the basic
    way, or one that ran beyond its plan, makes the stages' own figures (``records``, ``plan_record``)
    add, ε and δ both."""
    plans = [p for stage in stages for p in stage]
    if all(r["as_planned"] for r in records) and all(p.composition != BASIC_COMPOSITION for p in plans):
        if all(p.composition == PLD_COMPOSITION for p in plans):
            history = _pld_history(plans, {p.method: as_planned(p) for p in plans})
            return pld_epsilon(history, plans[0].delta), plans[0].delta
        curve = np.sum([stage_curve(stage) for stage in stages], axis=0)
        return rdp_to_epsilon(curve, plans[0].delta), plans[0].delta
    return added(records)


def added(figures: Sequence[Mapping[str, Any]]) -> tuple[float, float]:
    """Basic composition of records' (``epsilon_including_tuning``, ``delta``): both add."""
    return (
        sum(float(f["epsilon_including_tuning"]) for f in figures),
        sum(float(f["delta"]) for f in figures),
    )


def plan_record(plans: Mapping[str, MethodPlan], counts: Mapping[str, Ran]) -> dict[str, Any]:
    """The public privacy record of a sweep stage whose ε includes the tuning, shaped as a search bound's
    (``dptune.sweep.bound.SweepTuningCost.as_dict``): per method its pipeline's (ε, δ) as it ran
    (``counts``: what each ran), the whole stage releasing every method's model (``joint_privacy``), and
    every plan written out; of a repeat-and-select search nothing that counts its trials."""
    rows: list[dict[str, Any]] = []
    for method, plan in plans.items():
        ran = counts.get(method, Ran(0, 0, plan.tuning.runs))
        epsilon, delta = realised(plan, ran)
        where = (
            f"on a secret subset of rate {plan.tuning.fraction:g}"
            if plan.tuning.fraction < 1
            else "on the whole data"
        )
        row = {
            "method": method,
            "tuning_bound": PLAN_BOUND,
            "note": (
                f"planned: {plan.tuning.count.describe()} tuning trials at ε_t = "
                f"{plan.tuning.per_run_epsilon:.3g} {where} (the tuning alone: ε {plan.tuning.epsilon:.3g} "
                f"on the data), then the selection released at ε_B = {plan.release.per_run_epsilon:.3g}; "
                f"{plan.composition}"
            ),
            "epsilon_including_tuning": epsilon,
            "delta": delta,
        }
        if not plan.tuning.count.random:
            row |= {"trials_started": ran.searched + ran.released, "epsilon_all_trials": epsilon}
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


def tuning_runs(count: TrialCount) -> str:
    """A stage's run count as the plan's table shows it: ``8``, ``K~P(8)`` (secret K, Poisson mean 8)
    or ``K~NB(8)`` (truncated negative binomial)."""
    if not count.random:
        return f"{int(count.mean)}"
    return f"K~{'P' if count.distribution == 'poisson' else 'NB'}({count.mean:g})"


def epochs_text(plan: MethodPlan) -> str:
    """``4/40``: a tuning trial's epochs of the release's (each value of a searched epochs knob)."""
    return ",".join(f"{t}/{e}" for e, t in plan.epochs)


def format_plan(plans: list[MethodPlan]) -> str:
    """The plan as the first table of ``dptune run``: per method and total, each stage's share."""
    lines = [
        f"{'method':<15} {'total ε':>7} │ {'tuning':>6} {'ε_t':>6} {'subset γ':>8} {'its ε':>6} │ "
        f"{'release ε_B':>11} {'epochs':>8} │ {'composed':>8} {'runs':>5}  composition"
    ]
    for p in plans:
        lines.append(
            f"{p.method:<15} {p.total_epsilon:>7g} │ {tuning_runs(p.tuning.count):>6} "
            f"{p.tuning.per_run_epsilon:>6.3f} "
            f"{p.tuning.fraction:>8g} {p.tuning.epsilon:>6.3f} │ {p.release.per_run_epsilon:>11.3f} "
            f"{epochs_text(p):>8} │ {p.epsilon:>8.3f} {p.run_equivalents:>5.2f}  "
            f"{p.composition.split(':')[0]}"
        )
    delta = plans[0].delta
    lines.append(
        f"(δ = {delta:g}; tuning: trials per method, each at ε_t on a secret subset of rate γ, 'its ε' their "
        "whole stage's; the release: one run at ε_B; 'epochs': a tuning trial's T_t of the release's T, "
        "the rule's r_B/r_t = ε_B/ε_t carried in steps; 'composed': the released model's (ε, δ), tuning "
        "included; 'runs': the compute in full runs, the tuning's K·γ·T_t/T and the release's 1)"
    )
    if any(p.composition == BASIC_COMPOSITION for p in plans):
        lines.append(
            "(a plan composed the basic way splits δ: δ/2 for the tuning on the data, δ/2 for the release)"
        )
    kept = ", ".join(dict.fromkeys(p.method for p in plans if p.keep_start))
    if kept:
        lines.append(
            f"(selection: {kept} keeps its start point unless a tuning trial beats its validation accuracy "
            "by more than the standard error of the difference, keep_start; any other method takes its best "
            "tuning trial)"
        )
    return "\n".join(lines)
