"""One-run privacy audit of a method's privatized step: an ε lower bound that catches a broken implementation.

Steinke, Nasr & Jagielski, "Privacy Auditing with One (1) Training Run", NeurIPS 2023, arXiv:2305.08846:
m canaries are each included independently with probability 1/2, the mechanism runs once, the auditor
guesses "in" or "out" for r of them and abstains on the rest. If the mechanism is (ε, δ)-DP, the number
W of correct guesses satisfies

    P[W ≥ v] ≤ f(v) + 2mδ · max_{1≤i≤v} (f(v−i) − f(v)) / i,    f(u) = P[Binomial(r, e^ε/(1+e^ε)) ≥ u]

(for δ = 0: W is dominated by Binomial(r, e^ε/(1+e^ε))), computed as in the paper's Appendix D. Every ε
whose bound is ≤ 1 − confidence at the observed v is refuted; the largest is the lower bound.

What is audited, and why (docs/audit.md). Over a whole subsampled run this bound is far too
loose to catch even a k×-under-noised method. One privatized step with *Dirac* canaries is not: each
canary's clipped signal lives in its own coordinates, so the privatized gradient gives m independent Gaussian
tests of the same mechanism. We audit one privatized step of the method exactly as training computes it
(``methods.privatize``: the method's own per-sample signal over its k iterates, the real clipped-sum engine,
the privatize stage's C_t and s_t), white-box, with crafted gradient canaries:

* the model is a bias-free ``nn.Linear(m, 2)`` under cross-entropy and canary i is (c·e_i, label 0).
  At any parameters W its gradient is c·p₁·(−1, 1) in column i of W (p₁ = softmax(c·W[:, i])₁), so
  every v_i = Σ_j w_j ∇f_i(x_{t−j}) points along u = (−1, 1)/√2 in column i. The snapshots x_{t−j}
  are public: independent uniform draws in [−1/(2c), 1/(2c)], so p₁ ≥ sigmoid(−1) and
  ‖∇f_i‖ ≥ 0.38·c = 380·C_t: every canary is clipped, to exactly C_t·u (non-negative weights w_j).
* canary i is scored by ⟨column i of the privatized gradient, u⟩ ~ N(C_t·[i included], s_t²); the k highest
  scores are guessed "in" and the k lowest "out" (r = 2k).
* the claim is the accountant's ε of that one step at the noise multiplier its privatize stage declares,
  z_t = s_t / C_t, without subsampling (q = 1): the inclusion coin is the auditor's secret, not
  privacy amplification. A privatize stage that adds less noise than it declares, or whose sum moves by more
  than C_t per sample, yields a lower bound above the claim.

Cost: the real engine sees dense one-hot rows, so its work grows as m² (about 5 s for m = 50,000 and
k = 2 on two CPU cores). The canaries are streamed in chunks, never held as an m × m matrix.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np
import torch
from scipy.optimize import brentq
from scipy.special import expit
from scipy.stats import binom, norm
from torch import nn

from dptune.base.errors import InputError
from dptune.base.randomness import Randomness, cpu_generator
from dptune.engine.engine_choice import clipped_sum_engine
from dptune.engine.persample import ClippedSumEngine, FlatModel
from dptune.methods import Hyper, Method, get_method
from dptune.methods.privatize import TorchNoise, privatized_gradient
from dptune.privacy.accounting import epsilon_of
from dptune.privacy.calibration import Calibration, calibrate_noise
from dptune.privacy.history import HistoryEntry
from dptune.training.config import KNOBS, RunConfig

EngineFactory = Callable[[FlatModel, int], ClippedSumEngine]

CANARY_SCALE = 1000.0
"""c / C_t: canary inputs c·e_i have gradients of norm ≥ 0.38·c, far above the clip bound."""

CHUNK_ELEMENTS = 1 << 24
"""One-hot canary inputs are built this many floats (64 MB) at a time, never as an m × m matrix."""

GUESS_FRACTIONS = tuple(0.0005 * 1.5**j for j in range(14))
"""Candidate k/m (0.05% … 9.7%) for ``plan_guesses``."""


def p_value(canaries: int, guesses: int, correct: int, epsilon: float, delta: float) -> float:
    """Upper bound on P[W ≥ v] for an (ε, δ)-DP mechanism (the bound of the module docstring).

    m = ``canaries`` each included with probability 1/2, r = ``guesses``, v = ``correct``.
    """
    if not 0 <= correct <= guesses <= canaries:
        raise ValueError(f"need 0 <= correct <= guesses <= canaries, got {correct}, {guesses}, {canaries}")
    q = float(expit(epsilon))
    tail = float(binom.sf(correct - 1, guesses, q))
    if delta == 0 or correct == 0:
        return min(tail, 1.0)
    i = np.arange(1, correct + 1)
    between = np.cumsum(binom.pmf(correct - i, guesses, q))  # f(v−i) − f(v) = P[v−i ≤ B < v]
    return min(tail + 2 * canaries * delta * float(np.max(between / i)), 1.0)


def epsilon_lower_bound(
    canaries: int, guesses: int, correct: int, delta: float, confidence: float = 0.95, tol: float = 1e-6
) -> float:
    """The largest ε refuted at ``confidence``: sup {ε ≥ 0 : p_value(m, r, v, ε, δ) ≤ 1 − confidence}.

    Doubling then bisection, returning the refuted end of the final bracket (never an ε that is not
    refuted); 0 when even ε = 0 is not refuted. Refuting ε refutes every smaller ε, as (ε', δ)-DP
    implies (ε, δ)-DP for ε' ≤ ε.
    """
    alpha = 1.0 - confidence

    def refuted(epsilon: float) -> bool:
        return p_value(canaries, guesses, correct, epsilon, delta) <= alpha

    if not refuted(0.0):
        return 0.0
    lo, hi = 0.0, 1.0
    while refuted(hi):
        lo, hi = hi, 2.0 * hi
    while hi - lo > tol:
        mid = 0.5 * (lo + hi)
        lo, hi = (mid, hi) if refuted(mid) else (lo, mid)
    return lo


def plan_guesses(canaries: int, noise_multiplier: float, delta: float, confidence: float = 0.95) -> int:
    """k, the number of top (and of bottom) scores guessed, fixed before the privatized gradient is drawn.

    k maximises the *expected* lower bound if the privatize stage had half the noise it declares: scores (in
    units of s_t) N(μ, 1) for included and N(0, 1) for excluded canaries, μ = 2/z. For k = f·m on the
    grid ``GUESS_FRACTIONS``, the threshold t solves ½Φ̄(t − μ) + ½Φ̄(t) = f, and by the symmetry of the
    two laws about μ/2 both tails have precision Φ̄(t − μ) / (Φ̄(t − μ) + Φ̄(t)), so E[v] = 2k·precision.

    Only public quantities (m, z_t, δ, confidence) enter, so the bound needs no correction for the
    choice. Choosing k after seeing the scores would need one: a Bonferroni correction over five
    candidates costs 12–20% of the bound at m = 20,000–100,000 (the δ term 2mδ·(…) grows fast at small
    levels), about the whole margin by which a 2× under-noised privatize stage is caught.
    """
    mu = 2.0 / noise_multiplier

    def excess_mass(t: float, fraction: float) -> float:
        return 0.5 * (norm.sf(t - mu) + norm.sf(t)) - fraction

    best_k, best = 1, -1.0
    for fraction in GUESS_FRACTIONS:
        k = max(1, round(fraction * canaries))
        if 2 * k > canaries:
            break
        t = brentq(excess_mass, -40.0, 40.0, args=(k / canaries,))
        precision = norm.sf(t - mu) / (norm.sf(t - mu) + norm.sf(t))
        bound = epsilon_lower_bound(canaries, 2 * k, round(2 * k * precision), delta, confidence)
        if bound > best:
            best_k, best = k, bound
    return best_k


def _canary_chunks(
    included: torch.Tensor, canaries: int, magnitude: float
) -> Iterator[tuple[torch.Tensor, torch.Tensor]]:
    """(c·e_i, 0) for every included canary i, in chunks of at most ``CHUNK_ELEMENTS`` floats."""
    rows = max(1, CHUNK_ELEMENTS // canaries)
    for start in range(0, len(included), rows):
        index = included[start : start + rows]
        x = torch.zeros(len(index), canaries)
        x[torch.arange(len(index)), index] = magnitude
        yield x, torch.zeros(len(index), dtype=torch.long)


@dataclass(frozen=True)
class AuditResult:
    """One audit: the claim, the bound and the guessing game behind it (``as_dict``: the JSON fields).

    ``step_noise_multiplier`` is z_t = s_t / C_t, what the privatize stage declares to the accountant at the
    audited step; ``epsilon_claimed`` is the accountant's ε of one unsubsampled privatized step at z_t.
    """

    epsilon_claimed: float
    epsilon_lower_bound: float
    canaries: int
    included: int
    guesses: int
    correct: int
    delta: float
    confidence: float
    accountant: str
    step: int
    snapshots: int
    clip_at_step: float
    step_noise_multiplier: float
    seconds: float

    @property
    def claim_refuted(self) -> bool:
        """True when the audit shows, at ``confidence``, that the privatized step is not (ε_claimed, δ)-DP."""
        return self.epsilon_lower_bound > self.epsilon_claimed

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "claim_refuted": self.claim_refuted}


def _canary_design(
    generator: torch.Generator, canaries: int, size: int, snapshots: int, magnitude: float
) -> tuple[torch.Tensor, list[torch.Tensor]]:
    """The auditor's draws, in the order the privatized step's generator makes them before its noise: which
    canaries are included (probability 1/2 each) and the public snapshots x_{t−j}."""
    member = torch.rand(canaries, generator=generator) < 0.5
    points = [(torch.rand(size, generator=generator) - 0.5) / magnitude for _ in range(snapshots)]
    return member, points


def correct_guesses(weight: torch.Tensor, member: torch.Tensor, k: int) -> int:
    """The adversary's right guesses: each canary scored by the privatized weight gradient's difference
    along it, (w_1 − w_0)/√2, the k highest guessed in and the k lowest guessed out, checked against
    ``member``."""
    order = torch.argsort((weight[1] - weight[0]) / math.sqrt(2.0))
    return int(member[order[-k:]].sum()) + int((~member[order[:k]]).sum())


def audit_step(
    method: Method,
    step: int,
    canaries: int,
    delta: float,
    *,
    accountant: str = "rdp",
    confidence: float = 0.95,
    seed: int | None = None,
    attack_seed: int | None = None,
    engine: EngineFactory = clipped_sum_engine,
) -> AuditResult:
    """Audit ``method``'s privatized step ``step`` with ``canaries`` Dirac canaries (module docstring).

    The canary design and the privatize stage's noise come from one generator seeded with ``seed`` (research
    mode) or with secret OS entropy (``seed=None``, the default, as in training). ``attack_seed``: the
    adversary replays that generator from this seed, regenerates the noise and subtracts it before
    scoring; it succeeds exactly when the seed is the run's, i.e. when a seeded run's seed is known.
    ``engine`` builds the clipped-sum engine (the real one by default; tests inject broken ones).
    """
    start = time.perf_counter()
    stage = method.privatize
    clip = stage.clip(step)
    declared = stage.noise_multiplier(step)
    k = plan_guesses(canaries, declared, delta, confidence)
    flat = FlatModel(nn.Linear(canaries, 2, bias=False))
    magnitude = CANARY_SCALE * clip
    generator = cpu_generator(Randomness(seed).stream_seeds().init)
    snapshot_count = min(method.signal.history, step + 1)
    member, snapshots = _canary_design(generator, canaries, flat.size, snapshot_count, magnitude)
    privatized = privatized_gradient(
        method,
        engine(flat, max(1, CHUNK_ELEMENTS // canaries)),
        step,
        snapshots,
        _canary_chunks(torch.nonzero(member).squeeze(1), canaries, magnitude),
        1.0,  # L: dividing by it is post-processing and changes no ranking
        TorchNoise((generator,)),
    ).vector
    if attack_seed is not None:
        replay = cpu_generator(Randomness(attack_seed).stream_seeds().init)
        _canary_design(replay, canaries, flat.size, snapshot_count, magnitude)
        privatized = privatized - TorchNoise((replay,)).gaussian(privatized, stage.noise_std(step))
    correct = correct_guesses(flat.unflatten(privatized)["weight"], member, k)
    return AuditResult(
        epsilon_claimed=epsilon_of([(declared, 1.0, 1)], delta, accountant),
        epsilon_lower_bound=epsilon_lower_bound(canaries, 2 * k, correct, delta, confidence),
        canaries=canaries,
        included=int(member.sum()),
        guesses=2 * k,
        correct=correct,
        delta=delta,
        confidence=confidence,
        accountant=accountant,
        step=step,
        snapshots=len(snapshots),
        clip_at_step=clip,
        step_noise_multiplier=declared,
        seconds=time.perf_counter() - start,
    )


@dataclass(frozen=True)
class AuditConfig:
    """``dptune audit``: the method, its claimed ε for one privatized step, and the audit's size.

    The method is composed for a run of ``steps`` steps (e.g. dpsgd-momentum's clip decay) and its
    privatized step ``step`` (default: the last) is audited, with every snapshot its signal reads.
    """

    method: str
    epsilon: float
    params: dict[str, Any] = field(default_factory=dict)
    delta: float = 1e-5
    clip: float = 1.0
    canaries: int = 50_000
    steps: int = 100
    step: int | None = None
    confidence: float = 0.95
    accountant: str = "rdp"
    seed: int | None = None
    attack_seed: int | None = None

    @property
    def audited_step(self) -> int:
        return self.steps - 1 if self.step is None else self.step

    def check(self) -> dict[str, Any]:
        """Validate every field (the run's knobs by ``RunConfig``'s table); return the method's parameters."""
        run = RunConfig.parse(
            {
                "method": self.method,
                "epsilon": self.epsilon,
                "params": self.params,
                "delta": self.delta,
                "clip": self.clip,
                "accountant": self.accountant,
                "seed": self.seed,
            },
            lambda name: name.replace("_", "-"),
        )
        if self.attack_seed is not None:
            KNOBS["seed"].checked(self.attack_seed, "attack-seed")
        if self.canaries < 2:
            raise InputError("canaries", f"must be an integer >= 2, got {self.canaries}")
        if self.steps < 1:
            raise InputError("steps", f"must be an integer >= 1, got {self.steps}")
        if not 0 <= self.audited_step < self.steps:
            raise InputError("step", f"must be in [0, steps) = [0, {self.steps}), got {self.step}")
        if not 0 < self.confidence < 1:
            raise InputError("confidence", f"must be in (0, 1), got {self.confidence}")
        return run.method_params


def audited_method(config: AuditConfig, params: dict[str, Any]) -> tuple[Method, Calibration]:
    """The method at the σ whose audited privatized step alone (q = 1, one step) spends ``config.epsilon``.

    The accountant sees z_t(σ) = s_t / C_t of the audited step (σ/β for fo-dp-sgd, σ·C/C_t for
    dpsgd-momentum's decreasing clip). The learning rate plays no part in a privatized step.
    """
    definition = get_method(config.method)
    hyper = Hyper(config.clip, 1.0, config.steps)
    step = config.audited_step

    def schedule(sigma: float) -> list[HistoryEntry]:
        return [(definition.build(params, sigma, hyper).privatize.noise_multiplier(step), 1.0, 1)]

    try:
        calibration = calibrate_noise(config.epsilon, config.delta, schedule, config.accountant)
    except ValueError as exc:
        raise InputError("epsilon", str(exc)) from None
    return definition.build(params, calibration.noise_multiplier, hyper), calibration


def run_audit(config: AuditConfig, engine: EngineFactory = clipped_sum_engine) -> dict[str, Any]:
    """Calibrate, build and audit ``config.method``: the JSON record of ``dptune audit``."""
    params = config.check()
    method, calibration = audited_method(config, params)
    result = audit_step(
        method,
        config.audited_step,
        config.canaries,
        config.delta,
        accountant=config.accountant,
        confidence=config.confidence,
        seed=config.seed,
        attack_seed=config.attack_seed,
        engine=engine,
    )
    return {
        "method": config.method,
        "params": params,
        "epsilon_target": config.epsilon,
        "noise_multiplier": calibration.noise_multiplier,
        "clip": config.clip,
        "steps": config.steps,
        **Randomness(config.seed).label(),
        "attack_seed": config.attack_seed,
        **result.as_dict(),
        **method.info,
    }
