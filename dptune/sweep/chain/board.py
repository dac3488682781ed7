"""What a sweep's searcher chain reads of its trials: Tune's list as the searcher saw it at the start of the
step, per method and kind of run, with the runs suggested since (``Board``).

The kinds of run are the private state's roles (``dptune.sweep.ledger``): a search trial (``search``), a
promoted trial of successive halving's second rung (``promoted``) and a run of a selected configuration
(``final``: a re-run, or a pipeline's release). A run is written ahead in the private state before Tune
receives it; one written ahead that Tune's list lacks was lost with an earlier driver and keeps counting.
Whether a run starts in its place is the board's ``LostRuns`` rule.

The board is rebuilt from Tune's list every step (``read``), never from memory: Tune saves that list every
step and restores it after the driver is killed, so a resumed sweep's chain continues from what the
restored experiment holds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from dptune.base.randomness import trial_seed
from dptune.sweep.ledger import FINAL, PROMOTED, SEARCH, PrivateSweepState
from dptune.training.trial_status import TrialStatus, route

KINDS = (SEARCH, PROMOTED, FINAL)
"""The kinds of a method's runs, as the private state's roles name them."""
SEED_OFFSETS = {PROMOTED: 2_000_000, FINAL: 1_000_000}
"""Trial numbers from here on seed a seeded sweep's promoted trials and re-runs: no search trial has that
many (``Board.write_ahead``)."""


@dataclass(frozen=True)
class Ended:
    """A run that ended without an error: its trial id, configuration and last result."""

    trial_id: str
    config: dict[str, Any]
    result: dict[str, Any]

    @property
    def finished(self) -> bool:
        """Whether it trained every planned epoch (not stopped early, not infeasible)."""
        return TrialStatus.of_ended(self.result) is TrialStatus.FINISHED

    @property
    def trained(self) -> bool:
        """Whether it trained a model and read it on validation (finished, or stopped early)."""
        return TrialStatus.of_ended(self.result).trained


@dataclass(frozen=True)
class ListedTrial:
    """What the board reads of one of Tune's trials: its id, configuration, whether it ended, and its last
    result where it ended without an error (None otherwise)."""

    trial_id: str
    config: dict[str, Any]
    ended: bool
    result: dict[str, Any] | None


@dataclass
class Runs:
    """One kind of a method's runs in Tune's list, with those suggested since: how many (``started``), how
    many have not ended (``running``), the ones that ended without an error (``ended``) and the trials
    they repeat (``sources``: a promoted trial's first-rung trial, a re-run's selection)."""

    started: int = 0
    running: int = 0
    ended: list[Ended] = field(default_factory=list)
    sources: set[str] = field(default_factory=set)


def source_of(config: Mapping[str, Any]) -> tuple[str, str | None]:
    """A run's kind and the trial it repeats (None for a search trial)."""
    whose = route(config)
    if whose.rerun_of is not None:
        return FINAL, whose.rerun_of
    if whose.promoted_from is not None:
        return PROMOTED, whose.promoted_from
    return SEARCH, None


class LostRuns:
    """Runs written ahead and lost with an earlier driver are run again: none counts against a budget."""

    def lost(self, board: Board, method: str) -> Counter[str]:
        return Counter()


class LostRunsKept(LostRuns):
    """Where every run's scores on the held-out data count against a guarantee (private held-out data,
    ``dptune.sweep.held_out``), no run starts in place of one lost with an earlier driver: one in its
    place would score more. Each kind's lost runs count against its budget; said once."""

    def lost(self, board: Board, method: str) -> Counter[str]:
        written = Counter(record.role for record in board.state.trials(method))
        lost = Counter({kind: max(0, written[kind] - board.listed(method, kind)) for kind in KINDS})
        if sum(lost.values()):
            board.say(
                f"  {method:<15} {sum(lost.values())} run(s) lost with an earlier driver not run again: "
                "every run's scores on the private held-out data count against their guarantee, and one in "
                "its place would score more"
            )
        return lost


class Board:
    """The sweep's trials per method and kind (module docstring), the private state that writes them ahead,
    each method's seed (None: secure randomness), and the console lines and ended tunings the chain left
    for the searcher to pass on (``said``, ``ended_tunings``)."""

    def __init__(
        self,
        methods: Iterable[str],
        state: PrivateSweepState,
        seeds: Mapping[str, int | None],
        lost_runs: LostRuns,
    ) -> None:
        self.methods = list(methods)
        self.state = state
        self.seeds = dict(seeds)
        self.lost_runs = lost_runs
        self.said: list[str] = []
        self.ended_tunings: list[str] = []
        self.forget()

    def forget(self) -> None:
        """Drop what was read (a restored searcher reads Tune's list afresh)."""
        self.runs = self._empty()
        self.owners: dict[str, tuple[str, str]] = {}
        self.lost: dict[str, Counter[str]] | None = None

    def read(self, trials: Iterable[ListedTrial]) -> None:
        """Tune's list at the start of a step; the first time, each method's runs lost with a driver."""
        runs = self._empty()
        for trial in trials:
            method = route(trial.config).method
            if method not in runs:
                continue
            kind, source = source_of(trial.config)
            self.owners[trial.trial_id] = (method, kind)
            mine = runs[method][kind]
            mine.started += 1
            mine.running += not trial.ended
            if source is not None:
                mine.sources.add(source)
            if trial.result is not None:
                mine.ended.append(Ended(trial.trial_id, trial.config, trial.result))
        self.runs = runs
        if self.lost is None:
            self.lost = {m: self.lost_runs.lost(self, m) for m in self.methods}

    def _empty(self) -> dict[str, dict[str, Runs]]:
        """No run of any kind for any method."""
        return {m: {k: Runs() for k in KINDS} for m in self.methods}

    def listed(self, method: str, kind: str) -> int:
        """The method's runs of a kind in Tune's list and suggested since (a promoted trial: each first-rung
        trial promoted)."""
        runs = self.runs[method][kind]
        return len(runs.sources) if kind == PROMOTED else runs.started

    def started(self, method: str, kind: str) -> int:
        """The method's runs of a kind that count against its budget of them: ``listed``, and those lost
        with an earlier driver that are not run again (``LostRuns``)."""
        lost = self.lost[method][kind] if self.lost is not None else 0
        return self.listed(method, kind) + lost

    def live(self, method: str | None = None) -> int:
        """Runs not ended: the method's, or (None) every method's."""
        methods = self.methods if method is None else [method]
        return sum(runs.running for m in methods for runs in self.runs[m].values())

    def add(self, method: str, trial_id: str, kind: str, source: str | None = None) -> None:
        """A run suggested since Tune's list was read."""
        self.owners[trial_id] = (method, kind)
        runs = self.runs[method][kind]
        runs.started += 1
        runs.running += 1
        if source is not None:
            runs.sources.add(source)

    def write_ahead(self, method: str, trial_id: str, kind: str, source: str) -> int | None:
        """A promoted trial or a run of a selection, written ahead in the private state (its role ``kind``)
        and added; its seed where the sweep is seeded: the i-th written ahead of its kind is seeded
        ``trial_seed(seed, method, SEED_OFFSETS[kind] + i)``, never a search trial's (None: secure
        randomness, drawn from OS entropy when it starts)."""
        written = sum(record.role == kind for record in self.state.trials(method))
        self.state.start(method, trial_id, role=kind)
        self.add(method, trial_id, kind, source)
        seed = self.seeds[method]
        return None if seed is None else trial_seed(seed, method, SEED_OFFSETS[kind] + written)

    def say(self, line: str) -> None:
        """A console line for the searcher to print."""
        self.said.append(line)
