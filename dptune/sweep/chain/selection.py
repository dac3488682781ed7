"""The selecting steps of a sweep's chain (``dptune.sweep.chain.steps``): ``Select`` (the selection within
a method), ``PickAcross`` (one model across methods) and ``RunSelection`` (the re-runs or the release of
the selection), each beside the sentence a card states of its rule."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from dptune.sweep.chain.board import Board, Ended
from dptune.sweep.chain.steps import Knobs, Selecting, Step, Tuning, is_point, ranked, released_settings
from dptune.sweep.ledger import FINAL
from dptune.training.trial_status import (
    CLEAR_MARGIN,
    OBJECTIVE,
    RERUN_OF,
    SCORE_STD,
    challenge_margin,
    select_keeping_start,
    select_trial,
    validation_shown,
)

SELECTION_RULE = (
    "the tuning trial with the best validation accuracy (held-out part, not training data); ties by a "
    "secret key"
)
"""What a card says of ``Select``'s rule (``select_trial``)."""
MARGIN_RULE = (
    f"{CLEAR_MARGIN}, the standard error √((a(1 − a) + b(1 − b))/n + s_a² + s_b²) on the n validation "
    "examples, s the standard deviation of each read's private noise (σ_v/n; 0 on a public split)"
)
"""What a card says of the margin a kept trial must be beaten by (``challenge_margin`` times
``difference_error``)."""
KEEP_START_RULE = (
    "the start point's tuning trial, unless the trial with the best validation accuracy (held-out part, "
    f"not training data) beats it by more than {MARGIN_RULE}, or that trial where no start point's "
    "trial finished; ties by a secret key"
)
"""What a card says of ``Select``'s rule where a method keeps its start point (``select_keeping_start``)."""
ACROSS_METHODS_RULE = (
    "each method's tuning trials ranked as its own selection rule ranks them, then the selected trial of "
    "every method compared by validation accuracy (held-out part, not training data), the best released; "
    "ties by a secret key"
)
"""What a card says of ``PickAcross``'s rule."""
KEEP_METHOD_RULE = (
    "each method's tuning trials ranked as its own selection rule ranks them, then {method}'s selected "
    "trial released unless another method's selected trial beats it on validation accuracy (held-out part, "
    f"not training data) by more than {MARGIN_RULE}, or the best of the others where {{method}} "
    "selected none{family}; ties by a secret key"
)
"""What a card says of ``PickAcross``'s rule where the spec keeps a method (``selection.keep_method``), its
``family`` empty or ``START_FAMILY``."""
START_FAMILY = (
    "{method} keeping its start point too (keep_start), m is instead one family, the trials that are not "
    "that start point's: within {method}, its own read and the other methods' planned; across, while the "
    "start is kept, its own and the other methods' read; so that where no trial beats the start the chance "
    "that any displaces it stays at most about Φ(−1)"
)
"""What a card and a plan say of the margins where the kept method keeps its start point too
(``ReleasePolicy.start_rivals``, ``PickAcross.challengers``)."""


def read_noise(trial: Ended) -> float:
    """The standard deviation of the noise a trial's validation score carries (a private held-out split's
    σ_v over the validation part's records, as the trial reports it; 0 on a public split)."""
    return float(trial.result.get(SCORE_STD[OBJECTIVE], 0.0))


class Select(Selecting):
    """The selection within a method, once its tuning has ended: the trial its runs in Tune's list already
    repeat, else ``select_trial``'s choice among the tuning's candidates (``select_keeping_start``'s where
    the method keeps its start points ``kept_starts``, as its trials' knobs, on ``validation_size``
    examples, its margin counting the method's trials that are not a start point's and the ``rivals``: the
    trials of other methods that may displace its start later, as ``ReleasePolicy.start_rivals`` counts
    them), ties going to the secret rank. The selection is kept in the private state, and the console says
    it, with what follows it (``then``), where the method runs it (``runs`` > 0); a method in ``secret`` (a
    secret trial count) is said without its trial id (its index bounds K from below)."""

    def __init__(
        self,
        tuning: Tuning,
        tie_key: int,
        runs: int,
        then: str,
        secret: frozenset[str] = frozenset(),
        kept_starts: Mapping[str, list[dict[str, Any]]] | None = None,
        validation_size: int = 0,
        rivals: Mapping[str, int] | None = None,
    ) -> None:
        if kept_starts and validation_size < 1:
            raise ValueError("a selection that keeps start points needs the validation part's size")
        self.tuning = tuning
        self.tie_key = tie_key
        self.runs = runs
        self.then = then
        self.secret = secret
        self.kept_starts = dict(kept_starts or {})
        self.validation_size = validation_size
        self.rivals = dict(rivals or {})
        self.announced: set[str] = set()

    def selected(self, board: Board, method: str) -> Ended | None:
        candidates = self.tuning.candidates(board, method)
        repeated = [t for t in candidates if t.trial_id in board.runs[method][FINAL].sources]
        if repeated:
            return repeated[0]
        if method not in self.kept_starts:
            return select_trial(candidates, *ranked(self.tie_key))

        def is_start(trial: Ended) -> bool:
            return self.is_start(method, trial.config)

        challengers = self.start_challengers(board, method) + self.rivals.get(method, 0)
        return select_keeping_start(
            candidates, *ranked(self.tie_key), is_start, self.validation_size, read_noise, challengers
        )

    def start_challengers(self, board: Board, method: str) -> int:
        """The method's trials read on validation (``Tuning.read_trials``) that are not a start point's."""
        return sum(not self.is_start(method, t.config) for t in self.tuning.read_trials(board, method))

    def is_start(self, method: str, config: Mapping[str, Any]) -> bool:
        """Whether ``config`` is the trial of a start point the method's selection keeps."""
        return any(is_point(config, p) for p in self.kept_starts.get(method, []))

    def observe(self, board: Board, method: str) -> None:
        if method in self.announced or not self.ended(board, method):
            return
        self.announced.add(method)
        board.ended_tunings.append(method)
        selected = self.selected(board, method)
        if selected is not None:
            drawn = self.first_rung(board, method, selected).config
            board.state.select(method, selected.trial_id, released_settings(drawn))
        if self.runs:
            board.say(f"  {method:<15} {self.line(board, method, selected)}")

    def line(self, board: Board, method: str, selected: Ended | None) -> str:
        """What the console says of the method's selection."""
        if selected is None:
            return "no trial finished every epoch: nothing to select or re-run"
        restored = board.runs[method][FINAL].started
        doing = f"its re-runs continue from the saved Tune run ({restored} of {self.runs} there)"
        which = "a trial" if method in self.secret else f"trial {selected.trial_id}"
        score = f"validation {validation_shown(selected.result)}{self.kept(board, method, selected)}"
        return f"selected {which} ({score}); {doing if restored else self.then}"

    def kept(self, board: Board, method: str, selected: Ended) -> str:
        """What the announcement says of a method that keeps its start point (empty for others)."""
        if method not in self.kept_starts:
            return ""
        if self.is_start(method, selected.config):
            return "; the start point, kept"
        finished = [t for t in self.tuning.candidates(board, method) if t.finished]
        if any(self.is_start(method, t.config) for t in finished):
            return "; it beat the start point by more than z_m standard errors of the difference"
        return "; no start point's trial finished"

    def restore(self, saved: Any) -> None:
        self.announced = set()


class PickAcross(Selecting):
    """One model across methods: the method whose selection is released is the one whose run Tune's list
    already holds, else, once every method's tuning has ended, the one whose selected trial has the best
    validation score, ties going to the highest secret rank; where the spec keeps a method (``keep``,
    ``selection.keep_method``), that method's selected trial unless the best of them beats it by more than
    ``challenge_margin(m)`` standard errors of the difference (``select_keeping_start`` across the
    selections, on the validation part's size), m the other methods' trials read on validation that their
    selections were chosen among, and the kept method's own that are not a start point's where its
    selection kept its start (``challengers``). No other method's selection runs."""

    def __init__(self, select: Select, keep: str | None = None) -> None:
        if keep is not None and select.validation_size < 1:
            raise ValueError("a pick across methods that keeps a method needs the validation part's size")
        self.select = select
        self.tuning = select.tuning
        self.keep = keep
        self.announced = False

    def winner(self, board: Board) -> str | None:
        """The method released (None before every tuning has ended, or where no method has a selection)."""
        released = [m for m in board.methods if board.runs[m][FINAL].started]
        if released:
            return released[0]
        if not all(self.ended(board, m) for m in board.methods):
            return None
        picks = self.picks(board)
        kept = picks.get(self.keep) if self.keep is not None else None
        is_kept = lambda t: t is kept  # noqa: E731
        size = self.select.validation_size
        challengers = self.challengers(board, picks)
        chosen = select_keeping_start(
            picks.values(), *ranked(self.select.tie_key), is_kept, size, read_noise, challengers
        )
        return next((m for m, s in picks.items() if s is chosen), None)

    def picks(self, board: Board) -> dict[str, Ended]:
        """Each method's selection, for the methods that have one."""
        return {m: s for m in board.methods if (s := self.select.selected(board, m)) is not None}

    def challengers(self, board: Board, picks: Mapping[str, Ended]) -> int:
        """m: the trials read on validation that the challengers to the kept selection were chosen among,
        ``challenger_parts``' two counts together."""
        return sum(self.challenger_parts(board, picks))

    def challenger_parts(self, board: Board, picks: Mapping[str, Ended]) -> tuple[int, int]:
        """m's two parts: the trials read on validation of the methods other than the kept one that have a
        selection (``picks``), every rung's (``Tuning.read_trials``); and where the kept method's selection
        is its start point (a method that keeps one: ``keep_start``, whose start the kept method's
        ``Select.rivals`` count these trials against), its own trials that are not a start point's, which
        challenged that start within the method (else 0): one family of comparisons, so that where no trial
        is better than the start, the chance that any displaces it, within the method or across, stays at
        most about Φ(−1) (``challenge_margin``)."""
        others = sum(len(self.tuning.read_trials(board, m)) for m in picks if m != self.keep)
        keep = self.keep
        if keep is None or keep not in picks or not self.select.is_start(keep, picks[keep].config):
            return others, 0
        return others, self.select.start_challengers(board, keep)

    def selected(self, board: Board, method: str) -> Ended | None:
        return self.select.selected(board, method) if method == self.winner(board) else None

    def observe_all(self, board: Board) -> None:
        if self.announced or not all(self.ended(board, m) for m in board.methods):
            return
        self.announced = True
        method = self.winner(board)
        selected = None if method is None else self.select.selected(board, method)
        if method is None or selected is None:
            line = "no method's trial finished every epoch: nothing to release"
        else:
            line = (
                f"{method}'s selection {self.why(board, method)} "
                f"({validation_shown(selected.result)}); releasing it: trained once on the whole data at "
                "the plan's ε, for all its epochs"
            )
        board.say(f"  {'one model':<15} {line}")

    def why(self, board: Board, method: str) -> str:
        """What the announcement says of why ``method``'s selection is released."""
        if self.keep is None or self.select.selected(board, self.keep) is None:
            return "has the best validation accuracy of the methods'"
        picks = self.picks(board)
        if picks.keys() == {self.keep}:
            return "is kept: no other method selected a trial"
        others, own = self.challenger_parts(board, picks)
        m = others + own
        parts = f": {others} of the other methods', {own} of {self.keep}'s against its start" if own else ""
        margin = (
            f"z_m = {challenge_margin(m):.2f} standard errors of the difference (m = {m} trials read{parts})"
        )
        if method == self.keep:
            return f"is kept: no other method's beat it by more than {margin}"
        return f"beat {self.keep}'s, the kept method's, by more than {margin}"

    def restore(self, saved: Any) -> None:
        self.announced = False


class RunSelection(Step):
    """``count`` runs of the selection (``before``'s) with fresh randomness, written ahead (role ``final``)
    once the method's tuning has ended: re-runs scored on the final test, or a pipeline's release, whose
    knobs ``knobs`` carries the selection to (the plan's ε, on the whole data). A run the method's share of
    the privacy filter cannot fit (``admits``) is not started, and none after it."""

    kind = FINAL

    def __init__(
        self,
        before: Selecting,
        count: int,
        admits: Callable[[str], bool],
        knobs: Mapping[str, Knobs] | None = None,
    ) -> None:
        self.before = before
        self.count = count
        self.admits = admits
        self.knobs = dict(knobs or {})
        self.refused: set[str] = set()

    def done(self, board: Board, method: str) -> bool:
        """Whether the method runs no more of its selection."""
        return (
            board.started(method, FINAL) >= self.count
            or method in self.refused
            or self.before.selected(board, method) is None
        )

    def ended(self, board: Board, method: str) -> bool:
        return self.before.ended(board, method) and self.done(board, method)

    def suggest(self, board: Board, method: str, trial_id: str) -> dict[str, Any] | None:
        if not self.before.ended(board, method) or board.started(method, FINAL) >= self.count:
            return None
        if method in self.refused:
            return None
        selected = self.before.selected(board, method)
        if selected is None:
            return None
        if not self.admits(method):
            self.refused.add(method)
            board.say(
                f"  {method:<15} no more re-runs: one more would not fit its share of the privacy filter "
                f"({board.runs[method][FINAL].started} of {self.count} started)"
            )
            return None
        seed = board.write_ahead(method, trial_id, FINAL, selected.trial_id)
        drawn = self.before.first_rung(board, method, selected).config
        config = {k: v for k, v in drawn.items() if k != "seed"} | {RERUN_OF: selected.trial_id}
        if method in self.knobs:  # a release: the selected configuration carried to the plan's ε
            config = self.knobs[method](config)
        return config if seed is None else config | {"seed": seed}

    def restore(self, saved: Any) -> None:
        self.refused = set()
