"""The privacy cost of tuning: ε of a whole hyper-parameter search, not just of one trial.

Every trial of a sweep trains on the same private data; choosing the best of them leaks more than any
one trial spends. Two bounds, both in Rényi DP over ``RDP_ORDERS`` and converted to (ε, δ) at the end:

* **repeat-and-select** (Papernot & Steinke 2022, "Hyperparameter Tuning with Renyi Differential
  Privacy", ICLR, arXiv:2110.03620): random search with a *random* number of trials K, each an
  independent run of the same randomized mechanism Q (draw hyper-parameters, train), releasing only
  the best. If Q is (λ, ε_λ)-RDP at every order:

  - K ~ Poisson(μ) (Thm. 6):   ε'_λ = ε_λ + μ·δ̂ + log μ / (λ − 1),  δ̂ the δ of Q at ε̂ = log(1 + 1/(λ−1));
  - K ~ truncated negative binomial (η, γ) (Thm. 2; η = 1 geometric, η = 0 logarithmic):
    ε'_λ = ε_λ + (1 + η)·min_λ̂ [(1 − 1/λ̂)·ε_λ̂ + log(1/γ)/λ̂] + log E[K] / (λ − 1).

  The transform is dp-accounting's implementation of those theorems. Q draws its hyper-parameters, so
  it is a mixture of the runs it can draw; Rényi divergence is quasi-convex, so the per-order maximum
  of those runs' curves bounds Q's.
* **composition**: any other search (adaptive samplers such as TPE, GP or NSGA-II, schedulers such as
  ASHA, fixed starting points, a fixed trial count): the theorem does not apply, and the RDP curves of
  every trial run add up (Mironov 2017, Prop. 1). It also bounds releasing *every* trial's result.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from dptune.privacy.accounting import RDP_ORDERS, rdp_curve, rdp_curve_above
from dptune.privacy.history import HistoryEntry

TRIAL_DISTRIBUTIONS = ("fixed", "poisson", "truncated-negative-binomial")
REPEAT_AND_SELECT = "repeat-and-select"
COMPOSITION = "composition"
TAIL_MASS = 1e-12  # probability left out when the negative binomial's support is cut for sampling


@dataclass(frozen=True)
class TrialCount:
    """How many trials a method gets: a fixed number, or K drawn from a distribution with mean μ.

    ``truncated-negative-binomial`` follows Papernot & Steinke §2 with shape η ≥ 0:
    P[K = k] = (1 − γ)^k / (γ^{−η} − 1) · Π_{ℓ=0}^{k−1} (ℓ + η)/(ℓ + 1) for k ≥ 1 (η > 0), and
    P[K = k] = (1 − γ)^k / (k·log(1/γ)) for η = 0, with γ solved from the mean.
    """

    distribution: str
    mean: float
    shape: float = math.inf

    @property
    def random(self) -> bool:
        return self.distribution != "fixed"

    @property
    def repeat_and_select_shape(self) -> float:
        """dp-accounting's ``shape``: ∞ for Poisson, η for the truncated negative binomial."""
        return math.inf if self.distribution == "poisson" else self.shape

    def describe(self) -> str:
        if self.distribution == "fixed":
            return f"{int(self.mean)}"
        if self.distribution == "poisson":
            return f"Poisson(mean {self.mean:g})"
        return f"truncated negative binomial(mean {self.mean:g}, shape {self.shape:g})"

    def pmf(self, k: np.ndarray) -> np.ndarray:
        """P[K = k] of the truncated negative binomial at integers k ≥ 1."""
        from dp_accounting.rdp.rdp_privacy_accountant import _gamma_truncated_negative_binomial
        from scipy.special import gammaln

        gamma = _gamma_truncated_negative_binomial(self.shape, self.mean)
        k = np.asarray(k, dtype=np.float64)
        log_tail = k * math.log1p(-gamma)
        if self.shape == 0:
            logarithmic: np.ndarray = np.exp(log_tail - np.log(k) - math.log(math.log(1 / gamma)))
            return logarithmic
        log_ratio = gammaln(k + self.shape) - gammaln(self.shape) - gammaln(k + 1)
        truncated: np.ndarray = np.exp(log_tail + log_ratio - math.log(gamma ** (-self.shape) - 1))
        return truncated

    def draw(self, rng: np.random.Generator) -> int:
        """K from ``rng``. Repeat-and-select needs K secret: sweeps draw it from OS entropy
        (``dptune.base.randomness.secret_rng``) and keep it in their private state."""
        if self.distribution == "fixed":
            return int(self.mean)
        if self.distribution == "poisson":
            return int(rng.poisson(self.mean))
        support = np.arange(1, 64)
        while self.pmf(support).sum() < 1 - TAIL_MASS:
            support = np.arange(1, 2 * len(support) + 1)
        probabilities = self.pmf(support)
        return int(rng.choice(support, p=probabilities / probabilities.sum()))


def composition_curve(ledgers: Sequence[Sequence[HistoryEntry]]) -> np.ndarray:
    """RDP curve of running every ledger on the same data: Σ_trials ε_λ(trial)."""
    return sum((rdp_curve(ledger) for ledger in ledgers), np.zeros(len(RDP_ORDERS)))


def worst_curve(configurations: Sequence[Sequence[HistoryEntry]]) -> np.ndarray:
    """Per order, the largest RDP curve of ``configurations``: it bounds a random draw among them. Each
    curve is ``rdp_curve_above``'s bound (exact for a ledger of few distinct z)."""
    worst: np.ndarray = np.max([rdp_curve_above(ledger) for ledger in configurations], axis=0)
    return worst


def repeat_and_select_curve(worst: np.ndarray, count: TrialCount) -> np.ndarray:
    """RDP curve of random search whose every run Q can draw is dominated by ``worst``, best of K released.

    Raises:
        ValueError: ``count`` is not random (the theorem needs a random number of trials).
    """
    from dp_accounting.rdp.rdp_privacy_accountant import _compute_rdp_repeat_and_select

    if not count.random:
        raise ValueError("repeat-and-select needs a random number of trials (Poisson or negative binomial)")
    return np.asarray(
        _compute_rdp_repeat_and_select(list(RDP_ORDERS), worst, count.mean, count.repeat_and_select_shape)
    )


def revealed_count_curve(worst: np.ndarray, count: TrialCount) -> np.ndarray:
    """RDP curve of K runs, each dominated by ``worst``, every run's output released **and K with them**:
    what a random search costs once its count is no longer secret (a figure that tells K, such as its wall
    time), against ``repeat_and_select_curve``'s, which needs K secret.

    K's law does not depend on the data and K is part of the output, so the two output distributions are
    mixtures over k with the same weights and disjoint supports, and Rényi divergence of such mixtures adds
    up term by term: e^{(λ−1)D_λ} = Σ_k P[K = k]·e^{(λ−1)D_λ(k runs)} ≤ G_K(e^{(λ−1)ε_λ}), with
    D_λ(k runs) ≤ k·ε_λ by composition (Mironov 2017, Prop. 1) and G_K(z) = E[z^K] K's probability
    generating function. So ε'_λ = log G_K(e^{(λ−1)ε_λ}) / (λ − 1):

    - K ~ Poisson(μ): ε'_λ = μ·(e^{(λ−1)ε_λ} − 1) / (λ − 1);
    - K truncated negative binomial (η, γ): G_K(z) = ((1 − (1−γ)z)^{−η} − 1) / (γ^{−η} − 1) (η > 0),
      log(1 − (1−γ)z) / log γ (η = 0), where (1−γ)z < 1, else ε'_λ = ∞;
    - a fixed count k: k·ε_λ.
    """
    if count.distribution == "fixed":
        return np.asarray(count.mean * worst, dtype=float)
    orders = np.asarray(RDP_ORDERS, dtype=float)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        z = np.exp((orders - 1) * np.asarray(worst, dtype=float))
        if count.distribution == "poisson":
            log_pgf = count.mean * (z - 1)
        else:
            from dp_accounting.rdp.rdp_privacy_accountant import _gamma_truncated_negative_binomial

            gamma = _gamma_truncated_negative_binomial(count.shape, count.mean)
            tail = 1 - (1 - gamma) * z
            pgf = (
                np.log(tail) / math.log(gamma)
                if count.shape == 0
                else (tail ** (-count.shape) - 1) / (gamma ** (-count.shape) - 1)
            )
            log_pgf = np.where(tail > 0, np.log(pgf), np.inf)
        curve: np.ndarray = np.where(np.isfinite(log_pgf), log_pgf / (orders - 1), np.inf)
    return curve


def choose_bound(sampler: str, scheduler: str, count: TrialCount, has_start_points: bool) -> tuple[str, str]:
    """(bound, why): repeat-and-select only where Papernot & Steinke's theorem holds, else composition."""
    obstacles = []
    if sampler != "random":
        obstacles.append(f"the {sampler} sampler may choose trials from earlier results")
    if scheduler != "none":
        obstacles.append(f"the {scheduler} scheduler stops trials by their results")
    if not count.random:
        obstacles.append("the number of trials is fixed")
    if has_start_points:
        obstacles.append("start points are not random draws")
    if obstacles:
        return COMPOSITION, "composition of every trial: " + "; ".join(obstacles)
    return REPEAT_AND_SELECT, f"random search, {count.describe()} trials, best released (Papernot & Steinke)"
