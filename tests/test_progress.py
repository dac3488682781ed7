"""The sweep's console: whole lines from any thread above one live status line."""

from __future__ import annotations

import io
import re
import threading
import time
from types import SimpleNamespace

import pytest
import ray
from ray.tune.experiment import Trial

from dptune.sweep.release_policies import RELEASE_NAMES
from dptune.training.trial_status import FINAL_SCORE, STATUS_KEY, TrialStatus
from dptune.tune import progress as progress_module
from dptune.tune.progress import CLEAR, SweepProgress, TrialProgress, duration, register
from dptune.tune.step_board import StepPoster, start_board


def test_durations_read_as_a_person_writes_them() -> None:
    assert [duration(s) for s in (0, 45, 65, 3599, 3720)] == ["0s", "45s", "1m05s", "59m59s", "1h02m"]


def test_the_live_line_counts_every_method_and_estimates_what_remains() -> None:
    sweep = SweepProgress(lambda line: None, None)
    sweep.track("dpsgd", 8)
    sweep.track("lp-dpsgd", 8)
    sweep.started -= 100  # 100 s into the sweep

    def finish(best: float, noise: float | None = None):
        def change(m):
            m.done += 1
            m.scored(best, noise)

        return change

    for score, noise in ((0.61, 0.05), (0.72, 0.043), (0.68, 0.03)):  # private reads: each with its noise
        sweep.update("dpsgd", finish(score, noise))
    sweep.update("lp-dpsgd", finish(0.70))
    sweep.update("lp-dpsgd", lambda m: setattr(m, "running", 2))
    line = sweep.status()
    assert "dpsgd 3/8 best 72.0% ± 4.3" in line and "lp-dpsgd 1/8 (2 running) best 70.0%" in line
    assert "70.0% ±" not in line  # a public read: no noise
    # 4 runs in 100 s, 12 left: 300 s at that pace.
    assert line.startswith("[1m40s] ") and line.endswith("about 5m00s left")


def test_a_release_after_tuning_on_a_subset_weighs_its_whole_data_in_the_estimate() -> None:
    """A pipeline's release trains on the whole data after tuning trials on a subset of rate 1/8: at the
    tuning's pace it takes the time of 8 of them, not of one."""
    sweep = SweepProgress(lambda line: None, None)
    register("weighed", sweep)
    sweep.track("innerouter", 4)
    release = TrialProgress("weighed", "innerouter", 1, final=True, rerun_cost=8.0)
    release.on_step_begin(0, [])  # its callbacks count what a restored run held: nothing here
    sweep.started -= 300  # the 4 tuning trials took 300 s
    sweep.update("innerouter", lambda m: setattr(m, "done", 4))
    line = sweep.status()
    assert "innerouter 4/4 + re-runs 0/1" in line
    assert line.endswith("about 10m00s left"), line  # 4 trials' compute in 300 s, 8 left: 600 s
    sweep.started -= 120  # two minutes into the release: two minutes less
    sweep.done_at -= 120
    assert sweep.status().endswith("about 8m00s left")


def test_one_model_shows_no_release_before_one_starts_and_then_only_its_method_s() -> None:
    """One model across methods: which method releases is not known while they tune, so no method's
    line promises a release; once the winner's starts, its line counts it, and only its."""
    sweep = SweepProgress(lambda line: None, None)
    register("one-model", sweep)
    releases = {}
    for method in ("dpsgd", "dp-pmlf"):
        sweep.track(method, 2)
        releases[method] = TrialProgress("one-model", method, 0, final=True, rerun_names=RELEASE_NAMES)
        releases[method].on_step_begin(0, [])
        sweep.update(method, lambda m: setattr(m, "done", 2))
    assert "release" not in sweep.status()
    releases["dp-pmlf"].on_trial_start(0, [], SimpleNamespace(trial_id="r1"))
    line = sweep.status()
    assert "dp-pmlf 2/2 + release 0/1 (1 running)" in line and "dpsgd 2/2 +" not in line


def test_a_secret_trial_count_shows_no_count_score_or_estimate_of_its_search() -> None:
    """Trials done, running, the best score so far: each would tell how many trials ran."""
    sweep = SweepProgress(lambda line: None, None)
    sweep.track("dpsgd", None)
    sweep.update("dpsgd", lambda m: setattr(m, "done", 5))
    sweep.update("dpsgd", lambda m: setattr(m, "running", 2))
    sweep.update("dpsgd", lambda m: setattr(m, "best", 0.7))
    line = sweep.status()
    assert line.endswith("dpsgd searching") and not re.search(r"\d", line.split("]", 1)[1]), line
    assert "left" not in line


def test_lines_go_whole_to_the_echo_and_the_live_line_is_redrawn_under_them() -> None:
    echoed: list[str] = []
    screen = io.StringIO()
    sweep = SweepProgress(echoed.append, screen)
    sweep.track("dpsgd", 2)
    sweep.update("dpsgd", lambda m: setattr(m, "running", 1))
    threads = [threading.Thread(target=sweep, args=(f"line {i}",)) for i in range(20)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(echoed) == sorted(f"line {i}" for i in range(20))  # whole, and no status among them
    drawn = screen.getvalue()
    assert drawn.endswith(CLEAR + sweep.status())  # the live line is last, drawn in place
    assert drawn.count(CLEAR) >= 2 * 20  # cleared before every line and redrawn after it

    with sweep.running():
        pass
    assert screen.getvalue().endswith(CLEAR) and sweep.shown == ""  # cleared when the trials are done


def test_off_a_terminal_the_live_line_is_an_ordinary_line_now_and_then(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(progress_module, "LOG_SECONDS", 0.05)
    echoed: list[str] = []
    sweep = SweepProgress(echoed.append, None)
    sweep.track("dpsgd", 4)
    with sweep.running():
        time.sleep(0.3)
    status = [line for line in echoed if line.startswith("[")]
    assert 2 <= len(status) <= 8 and all("dpsgd 0/4" in line for line in status)


def test_a_restored_run_that_had_ended_counts_its_trials_and_best_score() -> None:
    """``--resume`` of a method whose search (and re-runs) ended before: Tune runs no step, so the counts
    come from the experiment's end (they showed "0/3" with no best before)."""
    sweep = SweepProgress(lambda line: None, None)
    register("restored", sweep)

    def ended(score: float, status: TrialStatus) -> SimpleNamespace:
        """What the callback reads of a Tune trial that ended."""
        result = {"validation_accuracy": score, STATUS_KEY: status}
        return SimpleNamespace(status=Trial.TERMINATED, last_result=result, config={})

    search = TrialProgress("restored", "dpsgd", 3)
    search.setup()
    trials = [
        ended(0.64, TrialStatus.FINISHED),
        ended(0.71, TrialStatus.FINISHED),
        ended(0.90, TrialStatus.RUNNING),  # ASHA stopped it: its early score is no finished score
    ]
    search.on_experiment_end(trials)
    search.on_experiment_end(trials)  # counted once
    reruns = TrialProgress("restored", "dpsgd", 2, final=True)
    reruns.on_experiment_end([ended(0.7, TrialStatus.FINISHED), ended(0.7, TrialStatus.FINISHED)])
    assert "dpsgd 3/3 + re-runs 2/2 best 71.0%" in sweep.status()


def test_a_release_line_shows_the_knobs_it_trained_with_and_no_unset_one() -> None:
    """A pipeline's release runs on the whole data (its config's ``proxy_fraction`` None): the line names
    the step the rule carried and leaves out what is not set (it read ``proxy_fraction=None``)."""
    lines: list[str] = []
    register("release-line", SweepProgress(lines.append, None))
    release = TrialProgress("release-line", "dpsgd", 1, final=True, rerun_names=RELEASE_NAMES)
    result = {FINAL_SCORE: 0.731, "epsilon_spent": 0.954, "epoch": 3, STATUS_KEY: TrialStatus.FINISHED}
    config = {"lr": 4.496, "epochs": 3, "epsilon": 0.962, "proxy_fraction": None, "method": "dpsgd"}
    trial = SimpleNamespace(trial_id="r1", config=config, last_result=result)
    release.on_trial_complete(0, [], trial)
    (line,) = lines
    assert "dpsgd" in line and "release 1/1" in line and "final test 73.10%" in line
    assert "lr=4.496" in line and "epochs=3" in line
    assert "None" not in line and "method=" not in line
    names = RELEASE_NAMES
    one_model = TrialProgress("release-line", "dpsgd", 0, final=True, rerun_names=names)
    one_model.on_trial_complete(0, [], trial)  # one model: no method knew it would release
    assert "release 1  final test" in lines[-1], lines[-1]


def test_a_trial_in_a_long_epoch_shows_where_it_is_on_the_live_line(local_ray) -> None:
    """A trial posts its step to the sweep's board (a real Ray actor) only once its epoch has run a
    minute, then every 10 s; the live line shows it for a public count, never for a secret one; the next
    epoch, or the trial's end, takes it off."""
    sweep = SweepProgress(lambda line: None, None)
    sweep.watch(start_board())
    sweep.track("dpsgd", 8)
    sweep.track("dp-pmlf", None)  # repeat-and-select: its search shows nothing per trial
    for method in ("dpsgd", "dp-pmlf"):
        sweep.update(method, lambda m: setattr(m, "running", 1))
    now = [0.0]
    epoch = [2]
    public = StepPoster("t1", "dpsgd", 3, lambda: epoch[0], clock=lambda: now[0])
    secret = StepPoster("t2", "dp-pmlf", 3, lambda: epoch[0], clock=lambda: now[0])

    def step(i: int, at: float) -> str:
        now[0] = at
        for poster in (public, secret):
            poster(i, 400)
            ray.get(poster.board.read.remote())  # its posts (ordered per handle) have arrived
        sweep.read_board()
        return sweep.status()

    assert "epoch" not in step(1, 0.0)
    assert "epoch" not in step(200, 59.0)  # an epoch under a minute shows nothing
    line = step(250, 61.0)
    assert "dpsgd 0/8 (1 running: epoch 2/3 62%)" in line
    assert "dp-pmlf searching" in line and line.count("epoch") == 1
    assert "62%" in step(300, 65.0)  # not posted again within 10 s
    assert "epoch 2/3 75%" in step(300, 72.0)
    epoch[0] = 3
    assert "epoch" not in step(1, 80.0)  # the next epoch starts: taken off
    assert "epoch 3/3 50%" in step(200, 141.0)
    register("board", sweep)
    ended = SimpleNamespace(trial_id="t1", last_result={}, config={})
    TrialProgress("board", "dpsgd", 8).on_trial_complete(0, [], ended)  # the trial ended
    assert "epoch" not in sweep.status()
    sweep.read_board()
    assert "epoch" not in sweep.status()
