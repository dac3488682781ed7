"""The report, sweep records and queued trial writes, on a real MLflow SQLite store
(``test_tracking_outage``: against a real MLflow server)."""

from __future__ import annotations

import dataclasses
import json
import pickle
import statistics
import time
from pathlib import Path

import PIL.Image
import pytest

from dptune.cli import main
from dptune.sweep.results import TradeOff
from dptune.tracking import MlflowTracker, TrialKey, names, tracker_for
from dptune.tracking.report import PlotContext, pareto_front
from dptune.training.config import RunConfig
from dptune.training.trial_status import TrialStatus
from dptune.tune.callbacks import TrialRecorder

pytestmark = pytest.mark.in_process  # starts no Ray, server or browser: `make test` runs it beside others


def test_pareto_front_keeps_only_undominated_final_test_scores() -> None:
    def point(eps: float, acc: float, validation: float = 0.5) -> TradeOff:
        return TradeOff("m", eps, eps, 1e-5, validation, (acc - 0.01, acc + 0.01), "s", f"{eps}-{acc}", {})

    points = [point(1, 0.70), point(1, 0.72), point(2, 0.71), point(4, 0.80), point(8, 0.79)]
    front = [(p.epsilon_spent, round(p.test_accuracy or 0, 9)) for p in pareto_front(points)]
    assert front == [(1, 0.72), (4, 0.80)]
    unscored = TradeOff("m", 0.5, 0.5, 1e-5, 0.99, (), "s", "u", {})  # no re-runs: no final-test score
    assert pareto_front([*points, unscored])[0].epsilon_spent == 1


def test_report_on_a_missing_store_creates_nothing(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["report"]) == 2
    assert "--tracking-uri" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_queued_trial_writes_are_read_back_and_a_refused_write_costs_only_itself(
    tmp_path: Path, caplog
) -> None:
    uri = f"sqlite:///{tmp_path / 'mlflow.db'}"
    tracker = tracker_for(uri)
    sweep = tracker.start_sweep("queued", "s", {}, {"epsilon": 1.0}, "name: s\n")
    key = TrialKey("queued", sweep, "t_00000")
    history = [{"epoch": 1, "validation_accuracy": 0.6, "validation_loss": 1.2, "epsilon_spent": 0.5}]
    settings = {"lr": 0.5, "delta": 1e-5, "epsilon": 1.0, "a": [0.5, 0.25], "a*b": 1}  # a name MLflow refuses
    tracker.open_trial(key, "dpsgd", "secure", settings, "search", {})
    tracker.log_epochs(key, history)
    last = {"epoch": 2, "validation_accuracy": 0.7, "validation_loss": 1.0, "epsilon_spent": 0.9}
    ended = {"history": [*history, last]} | last
    tracker.end_trial(key, TrialStatus.FINISHED, None, ended | {"noise_multiplier": 1.1, "node_id": "n"})
    (best,) = tracker.best_tradeoffs("queued", sweep)  # waits for the queued writes
    assert (best.validation_accuracy, best.epsilon_spent, best.delta) == (0.7, 0.9, 1e-5)
    assert best.test_accuracy is None  # nothing re-run: no final-test score
    assert best.params == {"lr": 0.5, "delta": 1e-5, "epsilon": 1.0, "a": [0.5, 0.25]}  # as they were
    assert "refused" in caplog.text and "a*b" in caplog.text
    run = tracker.client.get_run(best.run_id)
    assert run.data.tags["dptune.status"] == "finished" and run.data.tags["dptune.node"] == "n"
    assert run.info.run_name == "dpsgd #1 · 70.0% · ε 0.90"
    assert run.data.metrics["noise_multiplier"] == 1.1 and "delta" not in run.data.metrics
    steps = [m.step for m in tracker.client.get_metric_history(best.run_id, "validation_loss")]
    assert sorted(steps) == [1, 2]
    tracker.end_trial(key, TrialStatus.FAILED, "late", settle=True)  # settling an ended run: no change
    tracker.mark_lost("queued", sweep, "dpsgd", {"t_00000"}, "search")
    assert tracker.close()
    assert tracker.client.get_run(best.run_id).data.tags["dptune.status"] == "finished"


def test_a_pickled_recorder_queues_on_the_process_tracker_of_its_store(tmp_path: Path) -> None:
    uri = f"sqlite:///{tmp_path / 'mlflow.db'}"
    recorder = TrialRecorder(MlflowTracker(uri), "e", "sweep", "dpsgd", "secure", {})
    restored = pickle.loads(pickle.dumps(recorder))  # as Tune keeps callbacks in tuner.pkl
    assert restored.tracker is tracker_for(uri) is MlflowTracker.shared(uri)


@pytest.mark.slow
def test_a_sweep_is_named_described_and_viewed_as_a_new_user_reads_it(
    tmp_path: Path, monkeypatch, capsys
) -> None:
    workdir = tmp_path / "cwd"
    workdir.mkdir()
    monkeypatch.chdir(workdir)
    uri = f"sqlite:///{tmp_path / 'mlflow.db'}"
    tracker = tracker_for(uri)
    sweep = tracker.start_sweep(
        "desc", "s", {}, {"dataset": "digits", "model": "mlp", "epsilon": 1.0, "delta": 1e-5}, "name: s\n"
    )
    fixed = {"method": "dpsgd", "epsilon": 1.0, "delta": 1e-5, "clip": 1.0}
    outcomes = {  # trial id: (role, lr, validation, final test, ε spent)
        "t1": ("search", 0.5, 0.70, None, 0.90),
        "t2": ("search", 1.0, 0.80, None, 0.95),
        "t3": ("search", 2.0, None, None, None),  # failed
        "f1": ("final", 1.0, 0.79, 0.75, 0.95),
        "f2": ("final", 1.0, 0.81, 0.77, 0.95),
    }
    for trial, (role, lr, validation, test, spent) in outcomes.items():
        key = TrialKey("desc", sweep, trial)
        tags = {names.SELECTED_TRIAL_TAG: "t2"} if role == "final" else {}
        tracker.open_trial(key, "dpsgd", "secure", fixed | {"lr": lr}, role, tags)
        if validation is None:
            tracker.end_trial(key, TrialStatus.FAILED, "TrainingDivergedError")
            continue
        last = {"epoch": 1, "validation_accuracy": validation, "validation_loss": 1.0, "epsilon_spent": spent}
        scores = last | ({"test_accuracy": test} if test is not None else {})
        tracker.end_trial(
            key, TrialStatus.FINISHED, None, scores | {"history": [last], "noise_multiplier": 1.0}
        )
    row = {
        "method": "dpsgd",
        names.TUNING_METRIC: 2.5,
        "delta": 1e-5,
        "tuning_bound": "composition",
        "note": "n",
    }
    tracker.log_tuning_cost(sweep, {"methods": [row], names.TUNING_METRIC: 2.5, "delta": 1e-5})
    tracker.log_sweep_summary("desc", sweep)
    assert tracker.close()

    client = tracker.client
    experiment = client.get_experiment_by_name("desc")
    assert experiment.artifact_location == (tmp_path / "mlartifacts").as_uri()
    assert list(workdir.iterdir()) == []  # nothing in the working directory (no ./mlruns)
    trials = {
        r.data.tags[names.TRIAL_TAG]: r
        for r in client.search_runs([experiment.experiment_id], "tags.`dptune.trial_id` != ''")
    }
    assert {t: r.info.run_name for t, r in trials.items()} == {
        "t1": "dpsgd #1 · 70.0% · ε 0.90",
        "t2": "dpsgd #2 · 80.0% · ε 0.95",
        "t3": "dpsgd #3 · failed",
        "f1": "dpsgd final #1 · 75.0% · ε 0.95",
        "f2": "dpsgd final #2 · 77.0% · ε 0.95",
    }
    assert {t for t, r in trials.items() if names.TUNING_METRIC in r.data.metrics} == {"t2", "f1", "f2"}
    assert trials["t2"].data.params["clip"] == "1.0" and "delta" not in trials["t2"].data.metrics

    parent = client.get_run(sweep)
    mean, sd = 100 * statistics.fmean([0.75, 0.77]), 100 * statistics.stdev([0.75, 0.77])
    assert parent.info.run_name == "s · digits/mlp · ε 1 · dpsgd 80.0% validation (highest)"
    note = parent.data.tags[names.NOTE_TAG]
    assert f"| dpsgd | 1 | 80.00% | {mean:.2f} ± {sd:.2f} (2) | 0.950 | 2.500 (comp.) | lr=1 |" in note
    exp_id = experiment.experiment_id
    links = [f"#/experiments/{exp_id}/runs/{trials[t].info.run_id}" for t in ("t2", "f1", "f2")]
    assert all(f"]({link})" in note for link in links)

    view = json.loads(experiment.tags[names.VIEW_TAG])
    state = json.loads(view["state"])
    exact = ["test_accuracy", "validation_accuracy", "epsilon_spent", "epsilon_including_tuning"]
    shown = ["test accuracy", "validation accuracy", "ε spent", "ε incl. tuning"]  # 4 significant digits
    assert state["selectedColumns"][:5] == ["params.`method`", *(f"tags.`{name}`" for name in shown)]
    assert state["selectedColumns"][-4:] == [f"metrics.`{name}`" for name in exact]
    assert "params.`lr`" in state["selectedColumns"] and "params.`clip`" not in state["selectedColumns"]
    assert state["groupBy"]["groupByKeys"] == [{"mode": "tag", "groupByData": names.METHOD_TAG}]
    assert (
        f"#/experiments/{exp_id}/runs?viewStateShareKey={names.VIEW_KEY}" in experiment.tags[names.NOTE_TAG]
    )
    assert tracker.runs_view_path("desc").startswith(f"#/experiments/{exp_id}/runs?viewStateShareKey=")

    points = {p.run_id: p for p in tracker.trial_points("desc")}
    assert set(points) == {
        trials[t].info.run_id for t in ("t1", "t2", "f1", "f2")
    }  # the failed one untrained
    assert [
        t for t in trials if trials[t].info.run_id in points and points[trials[t].info.run_id].selected
    ] == ["t2"]
    assert (
        points[trials["f1"].info.run_id].test_accuracy == 0.75
        and points[trials["f1"].info.run_id].role == "final"
    )
    assert tracker.plot_context("desc") == PlotContext(
        "", "", 1e-5, ""
    )  # the trials logged no dataset, epochs

    assert main(["report", "--tracking-uri", uri, "--json"]) == 0
    (row,) = json.loads(capsys.readouterr().out)["best_tradeoffs"]
    assert row["params"]["lr"] == 1.0 and row["params"]["epsilon"] == 1.0 and row["delta"] == 1e-5  # typed
    plot = tmp_path / "tradeoff.png"
    assert main(["report", "--tracking-uri", uri, "--experiment", "desc", "--plot", str(plot)]) == 0
    assert [round(d) for d in PIL.Image.open(plot).info["dpi"]] == [300, 300]
    assert (
        main(["report", "--tracking-uri", uri, "--experiment", "desc", "--plot", str(tmp_path / "p.svg")])
        == 2
    )


@pytest.mark.slow
def test_a_pipelines_release_is_named_by_its_epsilon_including_the_tuning(tmp_path: Path) -> None:
    """A release trains at the ε its plan leaves after the tuning (0.95 of a total 1): its run, the model
    page's source run, is named by the total, not by that share; a per-run sweep's re-runs keep ε spent
    (the test above). On private held-out data each name gives its score's noise (a standard deviation in
    points), as the score tags do."""
    uri = f"sqlite:///{tmp_path / 'mlflow.db'}"
    tracker = tracker_for(uri)
    params = {"dataset": "digits", "model": "mlp", "epsilon": 1.0, "delta": 1e-5, "includes_tuning": True}
    sweep = tracker.start_sweep("total", "p", {}, params, "name: p\n")
    fixed = {"method": "dpsgd", "delta": 1e-5, "clip": 1.0, "lr": 1.0}
    for trial, role, spent in (("t1", "search", 0.12), ("r1", "final", 0.954)):
        key = TrialKey("total", sweep, trial)
        tags = {names.SELECTED_TRIAL_TAG: "t1"} if role == "final" else {}
        tracker.open_trial(key, "dpsgd", "secure", fixed | {"epsilon": spent}, role, tags)
        last = {"epoch": 1, "validation_accuracy": 0.7, "epsilon_spent": spent}
        last |= {"validation_accuracy_std": 0.043}  # private held-out data: no loss, a noisy score
        scores = last | ({"test_accuracy": 0.731, "test_accuracy_std": 0.051} if role == "final" else {})
        tracker.end_trial(key, TrialStatus.FINISHED, None, scores | {"history": [last]})
    row = {"method": "dpsgd", names.TUNING_METRIC: 0.9994, "delta": 1e-5, "tuning_bound": "plan", "note": "n"}
    tracker.log_tuning_cost(sweep, {"methods": [row], names.TUNING_METRIC: 0.9994, "delta": 1e-5})
    tracker.log_sweep_summary("total", sweep)
    assert tracker.close()
    client = tracker.client
    experiment = client.get_experiment_by_name("total").experiment_id
    named = {
        r.data.tags[names.TRIAL_TAG]: r.info.run_name
        for r in client.search_runs([experiment], "tags.`dptune.trial_id` != ''")
    }
    assert named == {
        "t1": "dpsgd #1 · 70.0% ± 4.3 · ε 0.12",
        "r1": "dpsgd release · 73.1% ± 5.1 · ε 1.00 incl. tuning",
    }


@pytest.mark.slow
def test_the_reader_returns_each_private_scores_noise_beside_it(tmp_path: Path) -> None:
    """On a private held-out split a trial reports each score's noise std (``*_std``): the selected search
    trial's validation noise (its re-run reports none) and its re-runs' final-test noise come back with the
    trade-off, as the closing table and the sweep's description show them; a public split's with none."""
    tracker = tracker_for(f"sqlite:///{tmp_path / 'mlflow.db'}")
    settings = {"lr": 0.5, "epsilon": 1.0, "delta": 1e-5}
    for experiment, noise in (("private", {"validation_accuracy_std": 0.021}), ("public", {})):
        sweep = tracker.start_sweep(experiment, "s", {}, {"epsilon": 1.0}, "name: s\n")
        for trial, role, scores in (
            ("t1", "search", {"validation_accuracy": 0.7} | noise),
            ("r1", "final", {"validation_accuracy": 0.69, "test_accuracy": 0.68}),
        ):
            if role == "final" and noise:
                scores |= {"test_accuracy_std": 0.034}
            key = TrialKey(experiment, sweep, trial)
            tags = {names.SELECTED_TRIAL_TAG: "t1"} if role == "final" else {}
            tracker.open_trial(key, "dpsgd", "secure", settings, role, tags)
            last = {"epoch": 1, "epsilon_spent": 0.9} | scores
            tracker.end_trial(key, TrialStatus.FINISHED, None, last | {"history": [last]})
        tracker.finish_sweep(sweep)
    (private,) = tracker.best_tradeoffs("private")
    assert (private.validation_noise, private.test_noise, private.test_accuracies) == (0.021, 0.034, (0.68,))
    (public,) = tracker.best_tradeoffs("public")
    assert (public.validation_noise, public.test_noise, public.test_accuracies) == (None, None, (0.68,))
    assert tracker.close()


@pytest.mark.slow
def test_a_proxy_trial_is_no_result_of_the_experiment_and_compute_counts_every_trial(
    tmp_path: Path, capsys
) -> None:
    assert names.PROXY_PARAM in {f.name for f in dataclasses.fields(RunConfig)}  # as trials log it
    uri = f"sqlite:///{tmp_path / 'mlflow.db'}"
    tracker = tracker_for(uri)
    settings = {"lr": 0.5, "epsilon": 1.0, "delta": 1e-5}

    def trial(
        sweep: str, trial_id: str, status: TrialStatus, scores: dict, role="search", tags=None, **extra
    ):
        key = TrialKey("proxied", sweep, trial_id)
        tracker.open_trial(key, "dpsgd", "secure", settings | extra, role, tags or {})
        time.sleep(0.05)  # every run lasts a measurable time
        epochs = [{"epoch": 1, "validation_loss": 1.0, "epsilon_spent": 0.9} | scores] if scores else []
        tracker.end_trial(key, status, None, scores | {"epsilon_spent": 0.9, "history": epochs})

    proxy = tracker.start_sweep("proxied", "p.proxy", {}, {"epsilon": 1.0}, "name: p.proxy\n")
    trial(proxy, "x1", TrialStatus.FINISHED, {"validation_accuracy": 0.9}, proxy_fraction=0.2)
    tracker.finish_sweep(proxy)
    search = tracker.start_sweep("proxied", "p", {}, {"epsilon": 1.0}, "name: p\n")
    trial(search, "s1", TrialStatus.FINISHED, {"validation_accuracy": 0.8})
    trial(search, "s2", TrialStatus.FAILED, {})
    final = {"validation_accuracy": 0.79, "test_accuracy": 0.78}
    trial(search, "f1", TrialStatus.FINISHED, final, "final", {names.SELECTED_TRIAL_TAG: "s1"})
    tracker.open_trial(TrialKey("proxied", search, "s3"), "dpsgd", "secure", settings, "search", {})
    time.sleep(0.05)
    tracker.mark_lost("proxied", search, "dpsgd", {"s1", "s2"}, "search")  # its driver was killed
    tracker.finish_sweep(search)

    # The proxy's trial scored higher on its subset, but the experiment's result is the search's choice.
    (row,) = tracker.best_tradeoffs("proxied")
    assert (row.validation_accuracy, row.test_accuracies, row.sweep) == (0.8, (0.78,), "p")
    (own,) = tracker.best_tradeoffs("proxied", proxy)  # within its own sweep, the proxy ranks its trials
    assert own.validation_accuracy == 0.9 and own.params["proxy_fraction"] == 0.2
    assert 0.9 not in {p.validation_accuracy for p in tracker.trial_points("proxied")}

    # Compute: every trial started, failed ones and the proxy's included, from the runs' own times.
    client = tracker.client
    experiment = client.get_experiment_by_name("proxied").experiment_id
    every = client.search_runs([experiment])
    parents = [r.info for r in every if "mlflow.parentRunId" not in r.data.tags]
    (used,) = tracker.compute_used("proxied")
    assert (used.method, used.epsilon_target) == ("dpsgd", 1.0)
    assert used.trials == {"proxy": 1, "search": 3, "final": 1}
    timed = [r.info for r in every if r.data.tags.get("dptune.status") not in (None, "lost")]
    assert used.trial_seconds == pytest.approx(sum(r.end_time - r.start_time for r in timed) / 1000)
    assert used.trial_seconds >= 4 * 0.05
    assert used.sweep_wall_seconds == pytest.approx(sum(r.end_time - r.start_time for r in parents) / 1000)
    assert main(["report", "--tracking-uri", uri, "--json"]) == 0
    (shown,) = json.loads(capsys.readouterr().out)["compute"]
    assert main(["report", "--tracking-uri", uri]) == 0
    assert "compute of proxied:\nε target 1: sweeps' wall time" in capsys.readouterr().out
    # the store's only experiment with runs is plotted without naming it (MLflow's "Default" is empty)
    assert main(["report", "--tracking-uri", uri, "--plot", str(tmp_path / "plot.png")]) == 0
    assert (
        shown["trial_hours"] == pytest.approx(used.trial_seconds / 3600) and shown["experiment"] == "proxied"
    )


@pytest.mark.slow
def test_the_report_keeps_sweeps_of_other_data_models_or_delta_apart(tmp_path: Path, capsys) -> None:
    """Two sweeps of dpsgd at ε = 1 in one experiment, on other datasets: two rows in two sections, never
    one row choosing between them (the better validation score of another dataset says nothing)."""
    uri = f"sqlite:///{tmp_path / 'mlflow.db'}"
    tracker = tracker_for(uri)
    for sweep_name, dataset, score in (("a", "digits", 0.9), ("b", "fashion-mnist", 0.7)):
        sweep = tracker.start_sweep("mixed", sweep_name, {}, {"epsilon": 1.0}, f"name: {sweep_name}\n")
        key = TrialKey("mixed", sweep, f"{sweep_name}1")
        settings = {"lr": 0.5, "epsilon": 1.0, "delta": 1e-5, "dataset": dataset, "model": "mlp"}
        tracker.open_trial(key, "dpsgd", "secure", settings, "search", {})
        scores = {"validation_accuracy": score, "epsilon_spent": 0.9}
        tracker.end_trial(key, TrialStatus.FINISHED, None, scores | {"history": [scores | {"epoch": 1}]})
        tracker.finish_sweep(sweep)
    rows = tracker.best_tradeoffs("mixed")
    assert sorted((r.params["dataset"], r.validation_accuracy) for r in rows) == [
        ("digits", 0.9),
        ("fashion-mnist", 0.7),
    ]
    assert main(["report", "--tracking-uri", uri]) == 0
    out = capsys.readouterr().out
    assert "digits / mlp, δ = 1e-05:" in out and "fashion-mnist / mlp, δ = 1e-05:" in out
