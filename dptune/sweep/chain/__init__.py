"""A sweep's searcher as a chain of small steps, built by its mode (``SweepMode.chain``): search, promote
where there is a second rung, select, pick across methods where one model is released, then re-run or
release (``steps``), over the sweep's trials as Tune's list shows them (``board``). The Tune layer's
``dptune.tune.sweep_searcher.SweepSearcher`` asks the chain for trials and tells it their results."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from dptune.sweep.chain.board import Board
from dptune.sweep.chain.steps import Step
from dptune.sweep.chain.tuning import MethodSearcher, Search
from dptune.sweep.ledger import PrivateSweepState


@dataclass(frozen=True)
class Chain:
    """The steps of a sweep's searcher, in order, and the board they read."""

    steps: Sequence[Step]
    board: Board

    @property
    def search(self) -> Search:
        """The chain's search step (each method's searcher)."""
        return next(step for step in self.steps if isinstance(step, Search))


@dataclass(frozen=True)
class ChainParts:
    """What a sweep's Tune run gives its mode to build the chain from: each method's searcher and trial
    budget, the private state that writes runs ahead, each method's seed (None: secure randomness), the
    sweep's secret key for ties, the methods whose trial count is secret, each method's start points kept
    by its selection (``keep_start``, as the search's parameter values) and the validation part's size."""

    searchers: Mapping[str, MethodSearcher]
    budgets: Mapping[str, int]
    state: PrivateSweepState
    seeds: Mapping[str, int | None]
    tie_key: int
    secret: frozenset[str] = frozenset()
    kept_starts: Mapping[str, list[dict[str, Any]]] = field(default_factory=dict)
    validation_size: int = 0
