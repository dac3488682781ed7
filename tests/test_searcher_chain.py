"""One Tune run per sweep: every method's search with its own budget and searcher, the re-runs of
each method's selection once its search ended, and ASHA per method (the chain of ``dptune.sweep.chain``
behind ``dptune.tune.sweep_searcher``, ``dptune.tune.schedulers``), driven here by hand the way Tune's
controller calls them."""

from __future__ import annotations

import itertools
import pickle
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import scipy.stats
from ray.tune.experiment import Trial
from ray.tune.schedulers import TrialScheduler
from ray.tune.search import Searcher

from dptune.base.randomness import secret_key, trial_seed
from dptune.sweep.chain import Chain
from dptune.sweep.chain.board import SEED_OFFSETS, Board, LostRuns, LostRunsKept
from dptune.sweep.chain.selection import PickAcross, Select
from dptune.sweep.chain.steps import Tuning
from dptune.sweep.chain.tuning import Promote, Search
from dptune.sweep.ledger import FINAL, PrivateSweepState
from dptune.sweep.release_policies import ONE, RERUNS
from dptune.training.trial_status import (
    METHOD_KEY,
    OBJECTIVE,
    PLAN_SHARE,
    PROMOTED_FROM,
    RERUN_OF,
    SCORE_STD,
    challenge_margin,
    difference_error,
)
from dptune.tune.progress import SweepProgress, register
from dptune.tune.schedulers import PerMethodScheduler, asha
from dptune.tune.sweep_searcher import SearchObserver, SweepSearcher, ended_searches


class Counting(Searcher):
    """A method's searcher: suggests ``{"lr": i}`` for its i-th trial and remembers what it heard;
    ``finished`` makes it say FINISHED (a spent filter share), ``room`` is how many more re-runs its
    filter admits (None: no filter)."""

    def __init__(self) -> None:
        super().__init__(metric=OBJECTIVE, mode="max")
        self.suggested = 0
        self.finished = False
        self.room: int | None = None
        self.results: list[str] = []
        self.completed: list[str] = []

    def suggest(self, trial_id: str) -> dict | str:
        if self.finished:
            return Searcher.FINISHED
        self.suggested += 1
        return {"lr": float(self.suggested), "seed": 7}

    def admits_rerun(self) -> bool:
        if self.room is None:
            return True
        self.room -= 1
        return self.room >= 0

    def on_trial_result(self, trial_id: str, result: dict) -> None:
        self.results.append(trial_id)

    def on_trial_complete(self, trial_id: str, result: dict | None = None, error: bool = False) -> None:
        self.completed.append(trial_id)

    def save(self, checkpoint_path: str) -> None:
        Path(checkpoint_path).write_bytes(pickle.dumps(self.suggested))

    def restore(self, checkpoint_path: str) -> None:
        self.suggested = pickle.loads(Path(checkpoint_path).read_bytes())


@dataclass
class FakeTrial:
    """What the searcher reads of one of Tune's trials."""

    trial_id: str
    config: dict[str, Any]
    status: str = Trial.PENDING
    last_result: dict[str, Any] = field(default_factory=dict)

    def is_finished(self) -> bool:
        return self.status in (Trial.TERMINATED, Trial.ERROR)

    def end(self, score: float, status: str = "finished", std: float | None = None) -> None:
        """The trial ends with a validation ``score``, read with noise of standard deviation ``std`` where
        the held-out split is private."""
        self.status = Trial.TERMINATED
        self.last_result = {OBJECTIVE: score, "status": status}
        if std is not None:
            self.last_result[SCORE_STD[OBJECTIVE]] = std


TRIAL_IDS = (f"t{n}" for n in itertools.count())
"""Tune's trial ids are unique across drivers."""


class Sweep:
    """A sweep's searcher (its chain), its observer and Tune's list of trials: ``ask`` does what Tune's
    step does (show the list, then ask for a trial and add it)."""

    def __init__(
        self,
        tmp_path: Path,
        budgets: dict[str, int],
        reruns: int = 2,
        seed: int | None = None,
        limit: int = 99,
        secret: frozenset[str] = frozenset(),
        kept_starts: dict[str, list[dict[str, Any]]] | None = None,
        validation_size: int = 0,
        one_model: bool = False,
        promoted: int = 0,
        fixed_runs: bool = False,
        keep_method: str | None = None,
    ):
        self.lines: list[str] = []
        self.name = tmp_path.name
        register(self.name, SweepProgress(self.lines.append, False))
        self.state = PrivateSweepState(str(tmp_path), "sweep")
        self.searchers = {method: Counting() for method in budgets}
        search = Search(self.searchers, budgets)
        tie = self.state.tie_key(secret_key)  # kept in the private state: the same after a resume
        longer = dict.fromkeys(budgets, lambda c: {**c, "epochs": 3})
        tuning: Tuning = Promote(search, promoted, longer, tie) if promoted else search
        release = ONE.keeping(keep_method, keep_method in (kept_starts or {})) if one_model else RERUNS
        rivals = release.start_rivals(budgets)
        select = Select(
            tuning, tie, reruns, release.line(reruns), secret, kept_starts, validation_size, rivals
        )
        after = release.after_selection(select, reruns, search.admits_run, {})
        steps = [search, *([tuning] if promoted else []), select, *after]
        lost = LostRunsKept() if fixed_runs else LostRuns()
        chain = Chain(steps, Board(budgets, self.state, dict.fromkeys(budgets, seed), lost))
        self.searcher = SweepSearcher(chain, self.name, limit)
        self.observer = SearchObserver(self.searcher)
        self.trials: list[FakeTrial] = []

    def ask(self) -> FakeTrial | str | None:
        """Tune's step; a search trial written ahead in the private state, as its method's searcher
        (``AccountedSearcher``) writes it."""
        self.observer.on_step_begin(iteration=0, trials=self.trials)
        trial_id = next(TRIAL_IDS)
        config = self.searcher.suggest(trial_id)
        if not isinstance(config, dict):
            return config
        if RERUN_OF not in config and PROMOTED_FROM not in config:
            self.state.start(config[METHOD_KEY], trial_id)
        trial = FakeTrial(trial_id, config)
        self.trials.append(trial)
        return trial

    def winner(self) -> str | None:
        """One model across methods: the method whose selection is released (``PickAcross.winner``)."""
        pick = next(step for step in self.searcher.chain.steps if isinstance(step, PickAcross))
        return pick.winner(self.searcher.chain.board)

    def of(self, method: str, reruns: bool = False) -> list[FakeTrial]:
        return [t for t in self.trials if t.config[METHOD_KEY] == method and (RERUN_OF in t.config) == reruns]

    def final_records(self, method: str) -> list[str]:
        return [r.trial_id for r in self.state.trials(method) if r.role == "final"]


def test_each_method_gets_its_own_budget_and_takes_turns_for_the_slots(tmp_path: Path) -> None:
    sweep = Sweep(tmp_path, {"dpsgd": 2, "innerouter": 3})
    asked = [sweep.ask() for _ in range(5)]
    assert [t.config[METHOD_KEY] for t in asked] == [
        "dpsgd",
        "innerouter",
        "dpsgd",
        "innerouter",
        "innerouter",
    ]
    assert sweep.searchers["dpsgd"].suggested == 2 and sweep.searchers["innerouter"].suggested == 3
    assert sweep.ask() is None  # every budget suggested, trials still running: wait, not finished


def test_a_method_whose_search_ended_re_runs_its_best_finished_trial(tmp_path: Path) -> None:
    sweep = Sweep(tmp_path, {"dpsgd": 3, "innerouter": 1})
    for _ in range(4):
        sweep.ask()
    first, second, third = sweep.of("dpsgd")
    first.end(0.70)
    second.end(0.80)
    assert sweep.ask() is None  # dpsgd's third trial still runs: nothing to select yet
    third.end(0.90, status="stopped")  # stopped early by ASHA: never selected
    rerun = sweep.ask()
    assert ended_searches(sweep.name).get_nowait() == "dpsgd"  # the driver makes its Optuna page now
    assert rerun.config == {"lr": second.config["lr"], METHOD_KEY: "dpsgd", RERUN_OF: second.trial_id}
    assert "seed" not in rerun.config  # fresh secret randomness, not the selected trial's
    assert sweep.final_records("dpsgd") == [rerun.trial_id]  # written ahead, role final
    assert sweep.ask().config[RERUN_OF] == second.trial_id
    assert sweep.ask() is None  # two re-runs; innerouter's trial still runs
    assert "selected trial " + second.trial_id + " (validation 80.00%)" in sweep.lines[0]
    sweep.of("innerouter")[0].end(0.5)
    sweep.ask()
    sweep.ask()
    assert sweep.ask() == Searcher.FINISHED  # every search ended and every re-run started


def test_a_second_rung_trains_the_best_trials_again_and_the_release_repeats_its_best(tmp_path: Path) -> None:
    """Successive halving (``promoted``): once the search ended, its best 2 finished trials by validation
    are trained again (the ``promote`` map: longer), written ahead with role ``promoted`` and fresh
    randomness, never shown to the method's searcher; nothing is released until both ended; the release
    repeats the best promoted trial, with its first-rung trial's knobs (which the release's carry reads)."""
    sweep = Sweep(tmp_path, {"dpsgd": 4}, reruns=1, promoted=2)
    trials = [sweep.ask() for _ in range(4)]
    for trial, score in zip(trials, (0.30, 0.90, 0.60, 0.95), strict=True):
        trial.end(score, status="stopped" if score == 0.95 else "finished")  # a stopped one is not promoted
    first, second = sweep.ask(), sweep.ask()
    assert [t.config[PROMOTED_FROM] for t in (first, second)] == [trials[1].trial_id, trials[2].trial_id]
    assert first.config == {"lr": 2.0, "epochs": 3, METHOD_KEY: "dpsgd", PROMOTED_FROM: trials[1].trial_id}
    assert [r.role for r in sweep.state.trials("dpsgd")][-2:] == ["promoted", "promoted"]
    assert sweep.ask() is None  # the second rung still trains: no release yet
    restored = Sweep(tmp_path, {"dpsgd": 4}, reruns=1, promoted=2)  # a resumed driver, the same list
    restored.trials = list(sweep.trials)
    assert restored.ask() is None  # it promotes no trial again
    first.end(0.70)
    second.end(0.80)
    release = sweep.ask()
    assert release.config == {"lr": 3.0, METHOD_KEY: "dpsgd", RERUN_OF: second.trial_id}
    assert sweep.state.selected("dpsgd")["trial_id"] == second.trial_id
    assert sweep.ask() == Searcher.FINISHED
    assert not {first.trial_id, second.trial_id} & {*sweep.searchers["dpsgd"].completed}
    assert any("promoting its best 2 trials by validation (90.00%, 60.00%)" in line for line in sweep.lines)


def test_one_model_across_methods_releases_the_best_selection_on_validation_once_every_search_ended(
    tmp_path: Path,
) -> None:
    """``one_model``: nothing is released while a method still searches; then only the method whose
    selected trial scores best on validation re-runs (once), and the others re-run nothing; the final
    test (scored by the release alone) cannot enter it."""
    sweep = Sweep(tmp_path, {"dpsgd": 2, "dp-pmlf": 2}, reruns=1, one_model=True)
    for _ in range(4):
        sweep.ask()
    (a, b), (c, d) = sweep.of("dpsgd"), sweep.of("dp-pmlf")
    for trial, score in ((a, 0.61), (b, 0.64), (c, 0.70)):
        trial.end(score)
    assert sweep.ask() is None and sweep.winner() is None  # dp-pmlf's second trial still runs
    assert all(not sweep.of(m, reruns=True) for m in ("dpsgd", "dp-pmlf"))
    d.end(0.66)
    release = sweep.ask()
    assert release.config[METHOD_KEY] == "dp-pmlf" and release.config[RERUN_OF] == c.trial_id
    assert sweep.winner() == "dp-pmlf"
    assert sweep.ask() == Searcher.FINISHED  # the one release started; dpsgd re-runs nothing
    assert not sweep.of("dpsgd", reruns=True) and sweep.final_records("dpsgd") == []
    assert any(
        "dp-pmlf's selection has the best validation accuracy of the methods' (70.00%)" in line
        for line in sweep.lines
    )


def test_one_models_tie_across_methods_goes_to_a_secret_rank(tmp_path: Path) -> None:
    """Equal validation scores across methods: the winner is the selected trial of higher secret rank
    (``tie_rank`` under the sweep's key), not the first method or trial."""
    winners = set()
    for attempt in range(12):
        sweep = Sweep(tmp_path / str(attempt), {"dpsgd": 1, "dp-pmlf": 1}, reruns=1, one_model=True)
        sweep.ask(), sweep.ask()
        for trial in sweep.trials:
            trial.end(0.5)
        sweep.ask()
        winners.add(sweep.winner())
    assert winners == {"dpsgd", "dp-pmlf"}


@pytest.mark.parametrize(
    ("kept", "others", "winner"),
    [
        (0.60, (0.66, 0.55), "dp-pmlf"),  # 0.06 ≤ 1.410 · √((0.6·0.4 + 0.66·0.34)/100) = 0.0961: kept
        (0.60, (0.55, 0.70), "dp-adambc"),  # 0.10 > 1.410 · √((0.6·0.4 + 0.7·0.3)/100) = 0.0946: beaten
        (0.60, (0.50, 0.55), "dp-pmlf"),  # the kept method's is the best anyway
    ],
)
def test_one_model_that_keeps_a_method_releases_its_selection_unless_another_beats_it_by_the_margin(
    tmp_path: Path, kept: float, others: tuple[float, float], winner: str
) -> None:
    """``selection.keep_method``: the kept method's selected trial is released unless another method's
    selected trial beats it on validation by more than z_2 = 1.410 standard errors of the difference on
    the 100 validation examples (the two other methods' one trial each), worked out by hand above; without
    it the best selection is released."""
    methods = ("dp-pmlf", "dpsgd", "dp-adambc")
    sweep = Sweep(
        tmp_path / "kept",
        dict.fromkeys(methods, 1),
        reruns=1,
        validation_size=100,
        one_model=True,
        keep_method="dp-pmlf",
    )
    plain = Sweep(tmp_path / "plain", dict.fromkeys(methods, 1), reruns=1, one_model=True)
    for each in (sweep, plain):
        for _ in methods:
            each.ask()
        for method, score in zip(methods, (kept, *others), strict=True):
            each.of(method)[0].end(score)
        release = each.ask()
        assert release.config[RERUN_OF] == each.of(release.config[METHOD_KEY])[0].trial_id
    assert sweep.winner() == winner
    scores = dict(zip(methods, (kept, *others), strict=True))
    assert plain.winner() == max(scores, key=scores.__getitem__)  # the best selection, no method kept
    said = next(line for line in sweep.lines if "one model" in line)
    assert ("is kept: no other method's beat it" in said) == (winner == "dp-pmlf")
    assert ("beat dp-pmlf's, the kept method's" in said) == (winner != "dp-pmlf")


@pytest.mark.parametrize(("std", "winner"), [(None, "dpsgd"), (0.03, "dp-pmlf")])
def test_the_margin_a_kept_selection_must_be_beaten_by_counts_each_reads_private_noise(
    tmp_path: Path, std: float | None, winner: str
) -> None:
    """On a public split 0.675 beats 0.60 by more than √((0.675·0.325 + 0.6·0.4)/100) = 0.0678; where each
    read carries private noise of standard deviation 0.03 the margin is √(0.0678² + 2·0.03²) = 0.0800, and
    the kept method's selection stays."""
    budgets = {"dp-pmlf": 1, "dpsgd": 1}
    sweep = Sweep(tmp_path, budgets, reruns=1, validation_size=100, one_model=True, keep_method="dp-pmlf")
    sweep.ask(), sweep.ask()
    sweep.of("dp-pmlf")[0].end(0.60, std=std)
    sweep.of("dpsgd")[0].end(0.675, std=std)
    assert sweep.ask().config[METHOD_KEY] == winner


@pytest.mark.parametrize(
    ("best", "stopped", "winner"),
    [
        (0.71, False, "dp-pmlf"),  # 0.11 ≤ 1.7546 · √((0.6·0.4 + 0.71·0.29)/100) = 0.1172 (z_3's: 0.1080)
        (0.72, False, "dp-adambc"),  # 0.12 > 1.7546 · √((0.6·0.4 + 0.72·0.28)/100) = 0.1166 (z_5's: 0.1233)
        (0.71, True, "dp-pmlf"),  # a stopped trial was read too: m stays 4
    ],
)
def test_the_margin_a_kept_selection_must_be_beaten_by_grows_with_the_other_methods_reads(
    tmp_path: Path, best: float, stopped: bool, winner: str
) -> None:
    """Two other methods of two trials each: the best of their four reads must beat the kept 0.60 by more
    than z_4 = Φ⁻¹(1 − Φ(−1)/4) = 1.7546 standard errors of the difference on 100 validation examples,
    worked out by hand above: 0.71 beats it by more than one standard error (0.0669) and would beat it at
    m = 3, yet is kept; 0.72 would be kept at m = 5 (the kept method's own trial counted), yet is released.
    A trial stopped early (by ASHA, say) was read on validation too, and counts."""
    budgets = {"dp-pmlf": 1, "dpsgd": 2, "dp-adambc": 2}
    sweep = Sweep(tmp_path, budgets, reruns=1, validation_size=100, one_model=True, keep_method="dp-pmlf")
    for _ in range(sum(budgets.values())):
        sweep.ask()
    for method, scores in {"dp-pmlf": (0.60,), "dpsgd": (0.50, 0.55), "dp-adambc": (0.55, best)}.items():
        for trial, score in zip(sweep.of(method), scores, strict=True):
            trial.end(score, status="stopped" if stopped and score == 0.50 else "finished")
    assert sweep.ask().config[METHOD_KEY] == winner
    said = next(line for line in sweep.lines if "one model" in line)
    assert "z_m = 1.75 standard errors of the difference (m = 4 trials read)" in said


@pytest.mark.parametrize(
    ("draw", "others", "released", "margin"),
    [
        (0.72, (0.50, 0.65), ("dp-pmlf", 0), "1.86"),  # 0.12 ≤ 1.8559 · √((0.6·0.4 + 0.72·0.28)/100) = 0.1233
        (
            0.55,
            (0.50, 0.72),
            ("dp-pmlf", 0),
            "1.86",
        ),  # the same margin across: z_4's 0.1166 would release 0.72
        (0.73, (0.50, 0.65), ("dp-pmlf", 1), "1.75"),  # 0.13 > 1.8559 · √((0.6·0.4 + 0.73·0.27)/100) = 0.1227
    ],
)
def test_a_kept_method_that_keeps_its_start_point_counts_every_challenger_in_one_family(
    tmp_path: Path, draw: float, others: tuple[float, float], released: tuple[str, int], margin: str
) -> None:
    """``keep_start`` on the method ``selection.keep_method`` keeps: its start point (0.60) faces its own
    other trial within the method and the other methods' four trials across, one family of m = 5 challengers
    whether it is challenged within (the others' trials as planned: two each) or
    across (its own other trial counted), so each comparison's margin is z_5 = Φ⁻¹(1 − Φ(−1)/5) = 1.8559
    standard errors of the difference on 100 validation examples, worked out by hand above. Counted apart,
    the draw's 0.72 would have beaten the start within the method at z_1 (0.0665), and dp-adambc's 0.72 would
    have beaten it across at z_4 (0.1166): two chances of Φ(−1) each of displacing a start nothing beats.
    Where the draw displaced the start within the method, the start is out of the comparison across, whose
    m is the other methods' four trials (z_4 = 1.75). Where the start is kept, the announcement gives m's
    two parts."""
    budgets = {"dp-pmlf": 2, "dpsgd": 2, "dp-adambc": 2}
    sweep = Sweep(
        tmp_path,
        budgets,
        reruns=1,
        kept_starts={"dp-pmlf": [{"lr": 1.0}]},
        validation_size=100,
        one_model=True,
        keep_method="dp-pmlf",
    )
    for _ in range(sum(budgets.values())):
        sweep.ask()
    scores = {"dp-pmlf": (0.60, draw), "dpsgd": (0.50, 0.55), "dp-adambc": others}
    for method, each in scores.items():
        for trial, score in zip(sweep.of(method), each, strict=True):
            trial.end(score)
    assert sweep.of("dp-pmlf")[0].config["lr"] == 1.0  # the start point's trial
    release = sweep.ask()
    method, index = released
    assert release.config[RERUN_OF] == sweep.of(method)[index].trial_id
    said = next(line for line in sweep.lines if "one model" in line)
    read = "m = 5 trials read: 4 of the other methods', 1 of dp-pmlf's against its start"
    reads = read if margin == "1.86" else "m = 4 trials read"
    assert f"z_m = {margin} standard errors of the difference ({reads})" in said


def test_a_kept_selections_margin_counts_both_rungs_of_successive_halving(tmp_path: Path) -> None:
    """With successive halving (one trial promoted per method) the challenger, dpsgd's promoted trial, was
    chosen through three reads: its method's two first-rung trials and its own second rung. 0.70 beats the
    kept 0.60 by 0.10, more than z_2 = 1.410 standard errors of the difference on 100 validation examples
    (0.0946) but not z_3 = 1.617 of them (0.1085): kept."""
    budgets = {"dp-pmlf": 2, "dpsgd": 2}
    sweep = Sweep(
        tmp_path, budgets, reruns=1, promoted=1, validation_size=100, one_model=True, keep_method="dp-pmlf"
    )
    for _ in range(sum(budgets.values())):
        sweep.ask()
    for method in budgets:
        for trial, score in zip(sweep.of(method), (0.50, 0.55), strict=True):
            trial.end(score)
    for promoted in (sweep.ask(), sweep.ask()):
        assert PROMOTED_FROM in promoted.config
        promoted.end(0.60 if promoted.config[METHOD_KEY] == "dp-pmlf" else 0.70)
    assert sweep.ask().config[METHOD_KEY] == "dp-pmlf"
    said = next(line for line in sweep.lines if "one model" in line)
    assert "z_m = 1.62 standard errors of the difference (m = 3 trials read)" in said


def test_challenge_margin_keeps_the_chance_a_kept_trial_is_displaced_at_one_comparisons() -> None:
    """z_m against scipy's normal quantile, and by simulation: the kept trial and m challengers all of
    accuracy 0.7 on n = 200 validation examples, each read with private noise of standard deviation 0.02;
    the kept one is displaced (the best challenger beats it by more than z_m standard errors of the
    difference) in at most Φ(−1) ≈ 0.159 of draws, where one standard error (the margin before z_m) lets
    the four challengers displace it in over a third of them."""
    assert [challenge_margin(m) for m in (1, 2, 4, 8)] == pytest.approx(
        [1.0, *(scipy.stats.norm.ppf(1 - scipy.stats.norm.cdf(-1) / m) for m in (2, 4, 8))]
    )
    n, p, noise, m = 200, 0.7, 0.02, 4
    rng = np.random.default_rng(1)
    reads = rng.binomial(n, p, size=(20_000, m + 1)) / n + rng.normal(0.0, noise, size=(20_000, m + 1))
    kept, best = reads[:, 0], reads[:, 1:].max(axis=1)
    error = np.sqrt((kept * (1 - kept) + best * (1 - best)) / n + 2 * noise**2)
    displaced = np.mean(best - kept > challenge_margin(m) * error)
    assert displaced <= scipy.stats.norm.cdf(-1)
    assert np.mean(best - kept > error) > 1 / 3


@pytest.mark.parametrize("keep_start", [False, True])
def test_one_model_keeping_a_method_no_other_method_challenges_says_so(
    tmp_path: Path, keep_start: bool
) -> None:
    """Where no other method selected a trial (dpsgd's only trial was stopped), the kept method's selection
    is released with no margin to state, even where the kept method keeps its start point and its own other
    trial (0.55, below the start's 0.60) counts among the start's challengers across."""
    budgets = {"dp-pmlf": 2 if keep_start else 1, "dpsgd": 1}
    kept = {"dp-pmlf": [{"lr": 1.0}]} if keep_start else None
    sweep = Sweep(
        tmp_path,
        budgets,
        reruns=1,
        kept_starts=kept,
        validation_size=100,
        one_model=True,
        keep_method="dp-pmlf",
    )
    for _ in range(sum(budgets.values())):
        sweep.ask()
    for trial, score in zip(sweep.of("dp-pmlf"), (0.60, 0.55)[: budgets["dp-pmlf"]], strict=True):
        trial.end(score)
    sweep.of("dpsgd")[0].end(0.90, status="stopped")
    assert sweep.ask().config[METHOD_KEY] == "dp-pmlf"
    said = next(line for line in sweep.lines if "one model" in line)
    assert "is kept: no other method selected a trial" in said


def test_one_model_keeping_a_method_with_no_selection_releases_the_best_of_the_others(tmp_path: Path) -> None:
    budgets = {"dp-pmlf": 1, "dpsgd": 1}
    sweep = Sweep(tmp_path, budgets, reruns=1, validation_size=100, one_model=True, keep_method="dp-pmlf")
    kept, other = sweep.ask(), sweep.ask()
    kept.end(0.9, status="stopped")  # stopped early: never selected
    other.end(0.4)
    assert sweep.ask().config[METHOD_KEY] == "dpsgd"
    said = next(line for line in sweep.lines if "one model" in line)
    assert "dpsgd's selection has the best validation accuracy" in said


def test_at_most_limit_trials_and_re_runs_at_once_counted_on_tunes_list(tmp_path: Path) -> None:
    sweep = Sweep(tmp_path, {"dpsgd": 3, "innerouter": 3}, limit=2)
    first, second = sweep.ask(), sweep.ask()
    assert sweep.ask() is None  # two live: wait
    first.end(0.5)
    assert sweep.ask().config[METHOD_KEY] == first.config[METHOD_KEY]  # its slot, its method's turn
    assert sweep.ask() is None
    restored = Sweep(tmp_path, {"dpsgd": 3, "innerouter": 3}, limit=2)
    restored.trials = list(sweep.trials)  # a resumed run: its two running trials hold the two slots
    assert restored.ask() is None and second.status == Trial.PENDING


def test_a_re_run_the_privacy_filter_cannot_fit_is_not_started(tmp_path: Path) -> None:
    """A re-run beyond the reserved ones (one lost with a killed driver) starts only while the method's
    share of the filter has room; when it has none the method's re-runs are over, not waited for."""
    sweep = Sweep(tmp_path, {"dpsgd": 1}, reruns=2)
    sweep.searchers["dpsgd"].room = 1
    sweep.ask().end(0.6)
    assert RERUN_OF in sweep.ask().config
    assert sweep.ask() == Searcher.FINISHED  # the second would not fit
    assert len(sweep.final_records("dpsgd")) == 1
    assert "no more re-runs: one more would not fit its share of the privacy filter" in sweep.lines[-1]


def test_a_spent_method_waits_for_its_running_trials_before_its_search_ends(tmp_path: Path) -> None:
    """A filter says FINISHED when one more trial does not fit; while trials of the method still run
    they may give budget back (a restored run's too, which its searcher did not suggest)."""
    sweep = Sweep(tmp_path, {"dpsgd": 3}, reruns=0)
    running = sweep.ask()
    sweep.searchers["dpsgd"].finished = True
    assert sweep.ask() is None  # not finished: its trial still runs
    sweep.searchers["dpsgd"].finished = False
    running.end(0.4)
    assert sweep.ask().config["lr"] == 2.0  # budget given back: the search goes on
    sweep.trials[-1].end(0.5)
    sweep.searchers["dpsgd"].finished = True
    assert sweep.ask() == Searcher.FINISHED


@pytest.mark.parametrize(
    ("start", "others", "selected"),
    [
        (0.80, (0.78, 0.805), 0),  # 0.005 ≤ 1.410 · √((0.8·0.2 + 0.805·0.195)/5000) = 0.01122: kept
        (0.80, (0.78, 0.81), 0),  # 0.01 ≤ 1.410 · √((0.8·0.2 + 0.81·0.19)/5000) = 0.01117: kept
        (0.80, (0.78, 0.812), 2),  # 0.012 > 1.410 · √((0.8·0.2 + 0.812·0.188)/5000) = 0.01115: beaten
        (0.80, (0.70, 0.75), 0),  # the start is the best anyway
    ],
)
def test_a_method_that_keeps_its_start_point_selects_it_unless_a_trial_beats_it_by_the_margin(
    tmp_path: Path, start: float, others: tuple[float, float], selected: int
) -> None:
    """``keep_start``: the start point (here the searcher's first suggestion, lr 1) is re-run unless a
    trial's validation accuracy beats it by more than z_2 = Φ⁻¹(1 − Φ(−1)/2) = 1.410 standard errors of
    the difference on the 5,000 validation examples (two other trials), worked out by hand above: 0.81
    would beat it were it the only other trial (0.01 > 0.00792), and 0.812 would not were the start's own
    trial counted (z_3: 0.01279)."""
    sweep = Sweep(tmp_path, {"dpsgd": 3}, kept_starts={"dpsgd": [{"lr": 1.0}]}, validation_size=5000)
    trials = [sweep.ask() for _ in range(3)]
    for trial, score in zip(trials, (start, *others), strict=True):
        trial.end(score)
    assert sweep.ask().config[RERUN_OF] == trials[selected].trial_id
    assert ("the start point, kept" in sweep.lines[0]) == (selected == 0)
    assert ("it beat the start point" in sweep.lines[0]) == (selected != 0)


@pytest.mark.parametrize(("std", "selected"), [(None, 1), (0.01, 0)])
def test_the_margin_a_start_point_must_be_beaten_by_counts_each_reads_private_noise(
    tmp_path: Path, std: float | None, selected: int
) -> None:
    """``keep_start`` on 5,000 validation examples: 0.81 beats the start's 0.80 by more than
    √((0.8·0.2 + 0.81·0.19)/5000) = 0.00792 on a public split, not by √(0.00792² + 2·0.01²) = 0.0162
    where each read carries private noise of standard deviation 0.01."""
    sweep = Sweep(tmp_path, {"dpsgd": 2}, kept_starts={"dpsgd": [{"lr": 1.0}]}, validation_size=5000)
    trials = [sweep.ask() for _ in range(2)]
    for trial, score in zip(trials, (0.80, 0.81), strict=True):
        trial.end(score, std=std)
    assert sweep.ask().config[RERUN_OF] == trials[selected].trial_id


def test_a_start_point_that_did_not_finish_leaves_the_best_trial_selected_and_says_so(tmp_path: Path) -> None:
    sweep = Sweep(tmp_path, {"dpsgd": 2}, kept_starts={"dpsgd": [{"lr": 1.0}]}, validation_size=5000)
    start, other = sweep.ask(), sweep.ask()
    start.end(0.9, status="stopped")
    other.end(0.5)
    assert sweep.ask().config[RERUN_OF] == other.trial_id
    assert "no start point's trial finished" in sweep.lines[0]


def test_difference_error_is_the_spread_of_two_binomial_accuracies() -> None:
    """√((a(1 − a) + b(1 − b))/n) against the standard deviation of the difference of two independent
    accuracies on n examples, simulated; with each count read with Gaussian noise of standard deviation σ
    (a private held-out split's), s = σ/n is added in quadrature for each."""
    n, a, b, sigma = 5000, 0.83, 0.79, 40.0
    rng = np.random.default_rng(0)
    draws = rng.binomial(n, [a, b], size=(20_000, 2)) / n
    assert difference_error(a, b, n) == pytest.approx(np.std(draws[:, 0] - draws[:, 1]), rel=0.03)
    noisy = draws + rng.normal(0.0, sigma, size=draws.shape) / n
    spread = np.std(noisy[:, 0] - noisy[:, 1])
    assert difference_error(a, b, n, sigma / n, sigma / n) == pytest.approx(spread, rel=0.03)


def test_a_tie_is_broken_the_same_way_after_a_resume(tmp_path: Path) -> None:
    """Tune restores its list of trials in another order than it ran them: tied trials must not swap,
    or one method's re-runs would repeat two configurations (the tie key is kept in the private state)."""
    before = Sweep(tmp_path, {"dpsgd": 2})
    one, two = before.ask(), before.ask()
    one.end(0.8)
    two.end(0.8)
    chosen = before.ask().config[RERUN_OF]
    after = Sweep(tmp_path, {"dpsgd": 2})
    after.trials = list(reversed(before.trials))
    assert after.ask().config[RERUN_OF] == chosen
    fresh = Sweep(tmp_path, {"dpsgd": 2})  # no re-run restored: the same tie-break
    fresh.trials = [two, one]
    assert fresh.ask().config[RERUN_OF] == chosen


def test_ties_go_to_a_secret_random_trial_not_the_first_one(tmp_path: Path) -> None:
    """Least-id ties would tell the released trial was the first of its score; with a fresh secret key
    per sweep each of two tied trials is selected about half the time, and the choice is recorded."""
    chosen = []
    for i in range(40):
        sweep = Sweep(tmp_path / str(i), {"dpsgd": 2}, reruns=1)
        first, second = sweep.ask(), sweep.ask()
        first.end(0.8)
        second.end(0.8)
        chosen.append(sweep.ask().config[RERUN_OF] == first.trial_id)
        recorded = sweep.state.selected("dpsgd")
        assert recorded is not None and recorded["trial_id"] in (first.trial_id, second.trial_id)
        assert recorded["params"] == {"lr": 1.0 if chosen[-1] else 2.0}  # its settings, not its seed
    assert 5 <= sum(chosen) <= 35  # P(outside) < 1e-5 for a fair coin


def test_a_seeded_sweeps_re_runs_take_seeds_no_search_trial_has(tmp_path: Path) -> None:
    sweep = Sweep(tmp_path, {"dpsgd": 1}, reruns=2, seed=11)
    sweep.ask().end(0.6)
    seeds = [sweep.ask().config["seed"] for _ in range(2)]
    assert seeds == [trial_seed(11, "dpsgd", SEED_OFFSETS[FINAL] + i) for i in range(2)]


def test_a_method_with_no_finished_trial_re_runs_nothing(tmp_path: Path) -> None:
    sweep = Sweep(tmp_path, {"dpsgd": 1})
    sweep.ask().end(0.0, status="failed")
    assert sweep.ask() == Searcher.FINISHED
    assert "nothing to select or re-run" in sweep.lines[0]


def re_run_lost_with_the_driver(
    tmp_path: Path, fixed_runs: bool = False
) -> tuple[FakeTrial, FakeTrial, list[FakeTrial]]:
    """A driver killed after writing two re-runs ahead of the best of two search trials, one of them in
    Tune's saved state: (the best trial, the re-run kept, Tune's saved list)."""
    before = Sweep(tmp_path, {"dpsgd": 2}, fixed_runs=fixed_runs)
    for _ in range(2):
        before.ask()
    best, other = before.of("dpsgd")
    best.end(0.9)
    other.end(0.8)
    kept = before.ask()
    before.ask()  # written ahead, then lost with the driver
    return best, kept, [*before.of("dpsgd"), kept]


def test_a_restored_run_continues_its_re_runs_and_counts_the_ones_it_lost(tmp_path: Path) -> None:
    """A driver killed after writing two re-runs ahead, with one of them in Tune's saved state: the new
    driver's searcher (fresh, as Tune restores it) selects the same trial from the restored list, starts
    one re-run in place of the lost one, and all three re-runs count."""
    best, kept, saved = re_run_lost_with_the_driver(tmp_path)
    after = Sweep(tmp_path, {"dpsgd": 2})
    after.trials = saved
    again = after.ask()
    assert again.config[RERUN_OF] == best.trial_id == kept.config[RERUN_OF]
    assert after.searchers["dpsgd"].suggested == 0  # the search itself is over
    assert len(after.final_records("dpsgd")) == 3  # the lost re-run keeps counting
    assert "continue from the saved Tune run (1 of 2 there)" in after.lines[0]
    kept.status = Trial.RUNNING
    assert after.ask() == Searcher.FINISHED


@pytest.mark.parametrize("fixed_runs", [False, True], ids=["public-held-out", "private-held-out"])
def test_lost_runs_count_however_many_trials_tune_asks_for_in_one_step(
    tmp_path: Path, fixed_runs: bool
) -> None:
    """Tune asks for as many trials as it has room for in one step, after one look at its list: of a budget
    of 4, 3 written ahead and 2 of them lost with the driver, the 2 are run again with the last one on a
    public split; on a private one only the last runs."""
    before = Sweep(tmp_path, {"dpsgd": 4}, fixed_runs=fixed_runs)
    kept, *_ = [before.ask() for _ in range(3)]
    after = Sweep(tmp_path, {"dpsgd": 4}, fixed_runs=fixed_runs)
    after.observer.on_step_begin(iteration=0, trials=[kept])
    asked = [after.searcher.suggest(next(TRIAL_IDS)) for _ in range(5)]
    searched = [c for c in asked if isinstance(c, dict) and RERUN_OF not in c]
    assert len(searched) == (1 if fixed_runs else 3)


def test_a_re_run_lost_with_the_driver_is_not_run_again_where_held_out_scores_are_counted(
    tmp_path: Path,
) -> None:
    """As ``test_a_restored_run_continues_its_re_runs_and_counts_the_ones_it_lost``, with private held-out
    data (``fixed_runs``): no re-run in place of the lost one; the sweep ends with the one kept."""
    _, kept, saved = re_run_lost_with_the_driver(tmp_path, fixed_runs=True)
    after = Sweep(tmp_path, {"dpsgd": 2}, fixed_runs=True)
    after.trials = saved
    kept.end(0.85)
    assert after.ask() == Searcher.FINISHED
    assert len(after.final_records("dpsgd")) == 2 and any("not run again" in line for line in after.lines)


@pytest.mark.parametrize("fixed_runs", [False, True], ids=["public-held-out", "private-held-out"])
def test_a_run_lost_with_the_driver_is_run_again_only_where_held_out_scores_are_not_counted(
    tmp_path: Path, fixed_runs: bool
) -> None:
    """A driver killed after writing ahead a second search trial (lost) and a second promoted trial (lost):
    a new driver runs one in place of each, unless every run's scores count against private held-out data's
    guarantee (``fixed_runs``): then it runs none, says so once, and the sweep still ends, the selection
    and the release made of the runs that finished; every run written ahead keeps counting."""
    before = Sweep(tmp_path, {"dpsgd": 3}, reruns=1, promoted=2, fixed_runs=fixed_runs)
    first, lost_search = before.ask(), before.ask()
    third = before.ask()
    first.end(0.9)
    third.end(0.7)
    saved = [first, third]
    after = Sweep(tmp_path, {"dpsgd": 3}, reruns=1, promoted=2, fixed_runs=fixed_runs)
    after.trials = list(saved)
    promoted = after.ask()
    if not fixed_runs:  # a search trial in place of the lost one, then the second rung
        assert RERUN_OF not in promoted.config and PROMOTED_FROM not in promoted.config
        promoted.end(0.5)
        promoted = after.ask()
    assert promoted.config[PROMOTED_FROM] == first.trial_id
    if fixed_runs:
        assert [line for line in after.lines if "not run again" in line] == [
            "  dpsgd           1 run(s) lost with an earlier driver not run again: every run's scores on "
            "the private held-out data count against their guarantee, and one in its place would score more"
        ]
    lost_promotion = after.ask()  # written ahead, then lost with this driver too
    assert lost_promotion.config[PROMOTED_FROM] == third.trial_id
    promoted.end(0.95)
    last = Sweep(tmp_path, {"dpsgd": 3}, reruns=1, promoted=2, fixed_runs=fixed_runs)
    last.trials = [t for t in after.trials if t is not lost_promotion]
    again = last.ask()
    if fixed_runs:
        assert again.config[RERUN_OF] == promoted.trial_id  # no promoted trial in place of the lost one
    else:
        assert again.config[PROMOTED_FROM] == third.trial_id
        again.end(0.6)
        again = last.ask()
        assert again.config[RERUN_OF] == promoted.trial_id
    again.end(0.9)
    assert last.ask() == Searcher.FINISHED
    roles = [r.role for r in last.state.trials("dpsgd")]
    assert roles.count("search") == 3 + (not fixed_runs) and roles.count("promoted") == 2 + (not fixed_runs)
    assert lost_search.trial_id in {r.trial_id for r in last.state.trials("dpsgd")}


def test_results_reach_their_own_methods_searcher_and_a_re_run_ends_at_its_whole_plan(tmp_path: Path) -> None:
    sweep = Sweep(tmp_path, {"dpsgd": 1, "innerouter": 1})
    one, two = sweep.ask(), sweep.ask()
    sweep.searcher.on_trial_result(two.trial_id, {OBJECTIVE: 0.5})
    sweep.searcher.on_trial_complete(one.trial_id, {OBJECTIVE: 0.6})
    assert sweep.searchers["innerouter"].results == [two.trial_id] and not sweep.searchers["dpsgd"].results
    assert sweep.searchers["dpsgd"].completed == [one.trial_id]
    one.end(0.6)
    rerun = sweep.ask()
    sweep.searcher.on_trial_complete(rerun.trial_id, {OBJECTIVE: 0.6}, error=False)
    record = next(r for r in sweep.state.trials("dpsgd") if r.trial_id == rerun.trial_id)
    assert (record.state, record.role, record.spent) == ("ended", "final", None)
    assert sweep.searchers["dpsgd"].completed == [one.trial_id]  # Optuna never hears of a re-run


def test_every_methods_searcher_state_is_saved_and_restored(tmp_path: Path) -> None:
    sweep = Sweep(tmp_path, {"dpsgd": 3, "innerouter": 3})
    for _ in range(3):
        sweep.ask()
    sweep.searcher.save(str(tmp_path / "searcher.pkl"))
    restored = Sweep(tmp_path, {"dpsgd": 3, "innerouter": 3})
    restored.searcher.restore(str(tmp_path / "searcher.pkl"))
    assert {m: s.suggested for m, s in restored.searchers.items()} == {"dpsgd": 2, "innerouter": 1}


def _trial(name: str, method: str, rerun: bool = False) -> Trial:
    config = {METHOD_KEY: method} | ({RERUN_OF: "t0"} if rerun else {})
    return Trial("dptune_sweep", config=config, trial_id=name, stub=True)


def test_asha_compares_a_trial_only_with_trials_of_its_own_method_and_never_stops_a_re_run() -> None:
    scheduler = PerMethodScheduler({m: asha(grace_period=1, shortest=4, longest=4) for m in ("a", "b")})
    assert scheduler.set_search_properties(OBJECTIVE, "max")
    good_a, bad_b, rerun = _trial("a1", "a"), _trial("b1", "b"), _trial("r", "a", rerun=True)
    for trial in (good_a, bad_b, rerun):
        scheduler.on_trial_add(None, trial)

    def report(trial: Trial, score: float) -> str:
        return scheduler.on_trial_result(None, trial, {OBJECTIVE: score, PLAN_SHARE: 0.25})

    assert report(good_a, 0.9) == TrialScheduler.CONTINUE
    assert report(bad_b, 0.1) == TrialScheduler.CONTINUE  # the first of its method at the rung
    worse_a = _trial("a2", "a")
    scheduler.on_trial_add(None, worse_a)
    assert report(worse_a, 0.2) == TrialScheduler.STOP  # behind its own method's trial
    assert report(rerun, 0.0) == TrialScheduler.CONTINUE


def test_one_models_choice_of_method_reads_no_final_test_score(tmp_path: Path) -> None:
    """Trials of three methods with validation scores and final-test scores drawn at random; the
    final-test scores permuted among the trials: the method released, and the trial whose configuration
    it repeats, stay the same (the choice reads validation alone)."""
    rng = np.random.default_rng(3)
    methods = ("dpsgd", "dp-pmlf", "lp-dpsgd")
    validation = rng.uniform(0.5, 0.8, size=9)
    tests = rng.uniform(0.5, 0.9, size=9)
    chosen = set()
    for attempt, order in enumerate((np.arange(9), rng.permutation(9), rng.permutation(9))):
        sweep = Sweep(tmp_path / str(attempt), dict.fromkeys(methods, 3), reruns=1, one_model=True)
        for _ in range(9):
            sweep.ask()
        for i, trial in enumerate(sorted(sweep.trials, key=lambda t: (t.config[METHOD_KEY], t.config["lr"]))):
            trial.end(float(validation[i]))
            trial.last_result["test_accuracy"] = float(tests[order[i]])
        release = sweep.ask()
        repeated = next(t for t in sweep.trials if t.trial_id == release.config[RERUN_OF])
        chosen.add((release.config[METHOD_KEY], repeated.config["lr"], repeated.last_result[OBJECTIVE]))
    (only,) = chosen
    assert only[2] == pytest.approx(float(validation.max()))
