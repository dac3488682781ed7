"""A pipeline's plan as the planner writes it out (``Phase``, ``MethodPlan``: every mechanism, fixed before
the data is touched), and the rules it states. The planner that makes the plans is ``dptune.sweep.plan``;
how each composition is chosen, its docstring (``dptune.privacy.compositions``); the privacy of what the
plans ran, ``dptune.privacy.plan_privacy``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from dptune.privacy.accounting import rdp_to_epsilon
from dptune.privacy.amplification import subset_pld_epsilon
from dptune.privacy.compositions import RDP, Composition
from dptune.privacy.history import HistoryEntry
from dptune.privacy.pld import pld_epsilon, pld_interval
from dptune.privacy.tuning import TrialCount, repeat_and_select_curve, worst_curve

ONE_RUN = TrialCount("fixed", 1)


@dataclass(frozen=True)
class Phase:
    """One phase of a plan (tuning or release; the plan's record lists them under ``stages``): ``count``
    runs (a random count: repeat-and-select, the best released), each dominated by one of ``ledgers`` (one
    per privacy configuration the phase can train, (σ, q,
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
    promoted: int = 0
    """Successive halving's second rung: this many of the best trials by validation (per method) trained
    again for ``factor`` times their epochs at the same σ, each run the mechanism ``promoted_ledger`` at
    the per-run ``promoted_epsilon`` (0: no second rung)."""
    factor: int = 1
    promoted_ledger: tuple[HistoryEntry, ...] = ()
    promoted_epsilon: float = 0.0

    def curve(self) -> np.ndarray:
        """RDP of the phase on the data it trains on: runs × the per-order worst configuration W (and each
        promoted trial's curve), or repeat-and-select's transform of W for a random count."""
        worst = worst_curve(self.ledgers)
        if self.count.random:
            return repeat_and_select_curve(worst, self.count)
        return np.asarray(self.count.mean * worst + self.promoted * self.promoted_curve(), dtype=float)

    def promoted_curve(self) -> np.ndarray:
        """RDP of one promoted trial (zero without a second rung)."""
        if not self.promoted_ledger:
            return np.zeros_like(worst_curve(self.ledgers))
        return worst_curve((self.promoted_ledger,))

    @property
    def rdp_epsilon(self) -> float:
        """The per-run ε of the phase's runs by RDP: its own for an RDP phase; for a PLD phase what RDP says
        its written-out mechanism spends (more than PLD says). One measure of a run's noise for phases of
        either accountant: what the planner ranks tunings by and the linear scaling rule reads."""
        if self.accountant == RDP:
            return self.per_run_epsilon
        return rdp_to_epsilon(worst_curve(self.ledgers), self.per_run_delta)

    @classmethod
    def one_run(
        cls,
        per_run_epsilon: float,
        per_run_delta: float,
        ledgers: tuple[tuple[HistoryEntry, ...], ...],
        epsilon: float,
        accountant: str = RDP,
    ) -> Phase:
        """A release: one run on the whole data at (``per_run_epsilon``, ``per_run_delta``), which is its
        guarantee on the data too (``epsilon`` as its accountant states it)."""
        return cls(
            name="release",
            count=ONE_RUN,
            per_run_epsilon=per_run_epsilon,
            per_run_delta=per_run_delta,
            fraction=1.0,
            ledgers=ledgers,
            epsilon=epsilon,
            delta=per_run_delta,
            accountant=accountant,
        )

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
        promoted = (
            {
                "promoted": {
                    "runs": self.promoted,
                    "epochs_factor": self.factor,
                    "per_run_epsilon": self.promoted_epsilon,
                    "mechanisms": [_mechanisms(self.promoted_ledger)],
                }
            }
            if self.promoted
            else {}
        )
        return {
            "stage": self.name,
            "runs": runs,
            "per_run_epsilon": self.per_run_epsilon,
            "per_run_delta": self.per_run_delta,
            "accountant": self.accountant,
            "subset_fraction": self.fraction,
            "mechanisms": [_mechanisms(ledger) for ledger in self.ledgers],
            "epsilon": self.epsilon,
            "delta": self.delta,
        } | promoted


def _mechanisms(ledger: Sequence[HistoryEntry]) -> list[dict[str, Any]]:
    return [
        {"noise_multiplier": z, "sample_rate": q, "steps": steps, "mechanism": "poisson-gaussian"}
        for z, q, steps in ledger
    ]


@dataclass(frozen=True)
class MethodPlan:
    """One method's pipeline at one total: its phases, how they compose, the epochs its tuning trials run
    for each epochs T its release can take (``epochs``: (T, T_t) pairs) and the compute in full runs
    (K·γ·T_t/T for the tuning, 1 for the release)."""

    method: str
    total_epsilon: float
    delta: float
    tuning: Phase
    release: Phase
    composition: Composition
    epsilon: float
    run_equivalents: float
    epochs: tuple[tuple[int, int], ...]
    keep_start: bool = False  # the selection keeps the start point unless beaten clearly
    released_among: tuple[str, ...] = ()
    """The methods whose tuning trials one release is chosen among (``privacy.release: one``: every method
    of the spec, the method a dimension of the search); empty: this method's own release."""
    selection_rule: str = ""
    """How the release's configuration is chosen from the tuning trials' validation scores, as the card
    states it: the sentence of the step that chooses it (``dptune.sweep.pipeline.planned`` sets it)."""
    carry_rule: str = ""
    """How the chosen configuration is carried to the release, as the card states it (the same)."""

    @property
    def pool(self) -> tuple[str, ...]:
        """The methods of the one model this plan's release may be: its own, or every method of one
        release across methods."""
        return self.released_among or (self.method,)

    def released_epochs(self, tuned: int) -> int:
        """The release's epochs T of a tuning trial that ran ``tuned`` (T_t) of them."""
        return {t: e for e, t in self.epochs}[tuned]

    @property
    def tuning_quality(self) -> float:
        """γ·ε_t: the per-run ε a full run whose ranking a tuning trial resembles would spend (by RDP,
        ``Phase.rdp_epsilon``, so that plans of either accountant rank alike)."""
        return self.tuning.fraction * self.tuning.rdp_epsilon

    @property
    def tuning_steps(self) -> int:
        """The noisy steps of a tuning trial (the fewest of its privacy configurations')."""
        return min(sum(steps for _, _, steps in ledger) for ledger in self.tuning.ledgers)

    @property
    def selection_steps(self) -> int:
        """The noisy steps of the trials the selection reads: the promoted trials' where the plan has a
        second rung (it chooses the release among them; the first rung only screens), else
        ``tuning_steps``."""
        if self.tuning.promoted:
            return sum(steps for _, _, steps in self.tuning.promoted_ledger)
        return self.tuning_steps

    @property
    def tuning_spent(self) -> float:
        """γ·ε_t with ε_t as the plan spends it: by the tuning phase's own accountant (PLD for a PLD plan,
        whose ε_t RDP cannot certify below about 0.1 at δ = 1e-5, whatever the noise). What the guard of
        a useful plan reads (``useful``)."""
        return self.tuning.fraction * self.tuning.per_run_epsilon

    def as_dict(self) -> dict[str, Any]:
        """The plan as stored with the sweep: every mechanism written out, so that an independent accountant
        can recompose it (``tests/test_plan.py`` does, with dp-accounting), and each phase's compute in
        full runs (``compute_runs``: the tuning's K·γ·T_t/T, the release's 1). The tuning phase's ``runs``
        are one method's (``runs_per_method``): one model across ``methods`` methods runs that many of
        each method's, the phase's mechanisms the worst of them."""
        tuning = self.tuning.as_dict()
        return {
            "method": self.method,
            "total_epsilon": self.total_epsilon,
            "delta": self.delta,
            "stages": [
                tuning
                | {
                    "runs_per_method": tuning["runs"],
                    "methods": len(self.pool),
                    "compute_runs": self.run_equivalents - 1.0,
                },
                self.release.as_dict() | {"compute_runs": 1.0},
            ],
            "composition": self.composition.sentence,
            "epsilon": self.epsilon,
            "released_among": list(self.pool),
            "selection_rule": self.selection_rule,
            "carry_rule": self.carry_rule,
            "epochs": [{"release": e, "tuning": t} for e, t in self.epochs],
            "run_equivalents": self.run_equivalents,
        }


def after_subset(
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
