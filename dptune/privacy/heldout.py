"""Scores on private held-out data: each a count of correct predictions with Gaussian noise.

A score of a model on the held-out records (a validation or a final-test accuracy) is the count
c = Σ_{j ∈ H} 1[model(x_j) = y_j] over those records divided by their number |H| (taken as public, as the
training set's size is). Adding or removing one held-out record moves c by at most 1, whatever the
model, so the score released as (c + N(0, σ_v²))/|H| is the Gaussian mechanism with sensitivity 1. A
sweep makes m such releases on the same records (counted before it runs: ``dptune.sweep.held_out``); they
compose to one Gaussian mechanism of sensitivity √m, i.e. of noise multiplier s = σ_v/√m, whose exact
privacy profile is the analytic Gaussian's (Balle & Wang, ICML 2018, "Improving the Gaussian Mechanism
for Differential Privacy", Thm. 8):

    δ(ε) = Φ(1/(2s) − ε·s) − e^ε·Φ(−1/(2s) − ε·s).

The training data's runs never read a held-out record, and every score is a function of a trained model
and of the held-out records alone, so the two guarantees are on disjoint records (parallel composition):
the training records' (ε, δ) is the plan's or the search bound's, the held-out records' this one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from scipy.stats import norm

_BISECTION_STEPS = 80


def gaussian_delta(epsilon: float, multiplier: float) -> float:
    """δ(ε) of the Gaussian mechanism of sensitivity 1 and noise std ``multiplier`` (s above; exact)."""
    a, b = 1 / (2 * multiplier), epsilon * multiplier
    return float(norm.cdf(a - b) - math.exp(epsilon) * norm.cdf(-a - b))


def heldout_epsilon(queries: int, noise: float, delta: float) -> float:
    """The least ε with δ(ε) ≤ ``delta`` for ``queries`` noisy counts, each with noise std ``noise``
    (s = noise/√queries): the held-out records' guarantee."""
    multiplier = noise / math.sqrt(queries)
    if gaussian_delta(0.0, multiplier) <= delta:
        return 0.0
    low, high = 0.0, 1.0
    while gaussian_delta(high, multiplier) > delta:
        low, high = high, 2 * high
    for _ in range(_BISECTION_STEPS):
        middle = (low + high) / 2
        low, high = (low, middle) if gaussian_delta(middle, multiplier) <= delta else (middle, high)
    return high


def heldout_noise(queries: int, epsilon: float, delta: float) -> float:
    """The least noise std σ_v of each of ``queries`` noisy counts that keeps their composition
    (ε, δ)-DP for the held-out records (``gaussian_delta`` at s = σ_v/√queries, bisection from above)."""
    low, high = 0.0, math.sqrt(queries)
    while gaussian_delta(epsilon, high / math.sqrt(queries)) > delta:
        low, high = high, 2 * high
    for _ in range(_BISECTION_STEPS):
        middle = (low + high) / 2
        fits = gaussian_delta(epsilon, middle / math.sqrt(queries)) <= delta
        low, high = (low, middle) if fits else (middle, high)
    return high


@dataclass(frozen=True)
class HeldOutScores:
    """A number for each part of a held-out split, ``validation`` and ``final_test``: the most scores a
    sweep makes on it (a record is in one part, so it sees only its part's scores: ``most`` of them), or
    its records."""

    validation: int
    final_test: int

    @property
    def most(self) -> int:
        return max(self.validation, self.final_test, 1)


@dataclass(frozen=True)
class PrivateHeldOut:
    """A sweep's scores on private held-out data (``scores``: at most that many noisy counts on each part),
    each with noise std ``noise`` (σ_v), (``epsilon``, ``delta``)-DP for every held-out record."""

    scores: HeldOutScores
    noise: float
    epsilon: float
    delta: float
    records: HeldOutScores | None = None
    """Each part's number of records (public, as the training set's size is), where known."""

    @property
    def queries(self) -> int:
        """The most noisy counts any one held-out record is in (its part's)."""
        return self.scores.most

    @classmethod
    def calibrated(
        cls, scores: HeldOutScores, epsilon: float, delta: float, records: HeldOutScores | None = None
    ) -> PrivateHeldOut:
        """The least noise whose counts on either part compose to (``epsilon``, ``delta``)."""
        return cls(scores, heldout_noise(scores.most, epsilon, delta), epsilon, delta, records)

    def score_std(self, records: int) -> float:
        """The standard deviation of a score's noise on a part of ``records`` records: σ_v / records, a
        share as the score is (before the clamp to [0, 1], which can only narrow it)."""
        return self.noise / max(records, 1)

    def as_card(self) -> dict[str, Any]:
        """What a released model's card states of the held-out records' guarantee."""
        return {
            "epsilon": self.epsilon,
            "delta": self.delta,
            "scores": {"validation": self.scores.validation, "final_test": self.scores.final_test},
            "noise_std": self.noise,
            **(
                {
                    "score_std": {
                        "validation": self.score_std(self.records.validation),
                        "final_test": self.score_std(self.records.final_test),
                    }
                }
                if self.records is not None
                else {}
            ),
            "covers": (
                f"every score on the held-out records: at most {self.scores.validation} on the validation "
                f"part and {self.scores.final_test} on the final-test part (a record is in one part), counts "
                f"of correct predictions, each with Gaussian noise of std {self.noise:.4g} (sensitivity 1), "
                "composed exactly (analytic Gaussian); no loss on them is released"
            ),
        }
