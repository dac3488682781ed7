"""End to end on real Ray, real Optuna and a real MLflow SQLite store (no mocks)."""

from __future__ import annotations

import json
import math
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import optuna
import pytest
import ray
import torch
from dp_accounting import dp_event
from dp_accounting.rdp.rdp_privacy_accountant import RdpAccountant
from mlflow.tracking import MlflowClient

from dptune.cli import main
from dptune.engine.data import load_dataset
from dptune.methods.filters import validate_filter
from dptune.privacy.accounting import RDP_ORDERS
from dptune.sweep.ledger import PrivateSweepState
from dptune.sweep.spec import load_spec
from dptune.tracking import tracker_for
from dptune.tracking.report import format_table
from dptune.tune.driver import run_sweep, run_sweeps
from dptune.tune.studies import study_storage
from tests.helpers import subsampled_gaussian
from tests.sweep_helpers import released_model_holds_only_its_weights, runs, write_spec


def released_as_model(client: MlflowClient, rerun: Any, uri: str, folder: Path) -> None:
    """A re-run of a per-run sweep is a registered model holding its weights alone: it scores on the
    final test what the run logged, and its run holds only its privacy card (its method's whole search
    counted)."""
    model = released_model_holds_only_its_weights(rerun.data.tags["dptune.released_model"], uri, folder)
    data = load_dataset("digits")
    with torch.no_grad():
        accuracy = float((model(data.test_x).argmax(dim=1) == data.test_y).float().mean())
    assert accuracy == pytest.approx(rerun.data.metrics["test_accuracy"], abs=1 / len(data.test_y) + 1e-9)
    card_file = client.download_artifacts(rerun.info.run_id, "privacy_card.json")
    card = json.loads(Path(card_file).read_text())
    assert card["epsilon"] > card["per_run_epsilon"] and card["includes_tuning"] is True
    assert {a.path for a in client.list_artifacts(rerun.info.run_id)} == {"privacy_card.json"}


def test_sweep_logs_parent_and_children_and_survives_a_diverging_method(
    tmp_path: Path, local_ray, capsys
) -> None:
    methods = {
        "dpsgd": {"lr": {"loguniform": [0.3, 2.0]}, "start": [{"lr": 0.5}]},
        "dp-pmlf": {
            "lr": {"loguniform": [0.3, 2.0]},
            "k": {"int": [1, 3]},
            "filter": {"family": "first-order", "pole": {"uniform": [0.5, 0.95]}},
        },
        "lp-dpsgd": {"lr": 1.0e300},  # diverges at once: its trials fail, the sweep goes on
    }
    path = write_spec(tmp_path, "e2e", methods, selection={"reruns": 2})
    spec = load_spec(path)
    lines: list[str] = []
    outcome = run_sweep(spec, path.read_text(), echo=lines.append)

    parents, everything = runs(spec.tracking_uri, "e2e")
    children = [c for c in everything if c.data.tags["dptune.role"] == "search"]
    reruns = [c for c in everything if c.data.tags["dptune.role"] == "final"]
    assert len(parents) == 1 and len(children) == 6 and len(reruns) == 4
    # one Tune run for the sweep: its two trial actors (processes) ran every method's trials and re-runs
    assert len(outcome.results) == 10 and len({r["pid"] for r in outcome.results}) <= 2
    parent = parents[0]
    for tag in ("dataset", "model", "epsilon", "delta", "accountant", "sampling", "code_version"):
        assert tag in parent.data.tags
    assert parent.data.tags["epsilon"] == "2.0" and parent.data.tags["sampling"] == "poisson"
    client = MlflowClient(spec.tracking_uri)
    artifacts = {a.path for a in client.list_artifacts(parent.info.run_id)}
    assert {
        "spec.yaml",
        "best_configurations.json",
        "best_configurations.txt",
        "pareto_accuracy_vs_epsilon.png",
    } <= artifacts
    # Optuna's page of each method's search, made when that search ended (a diverged trial scores 0)
    pages = {a.path for a in client.list_artifacts(parent.info.run_id, "optuna")}
    assert pages == {f"optuna/{method}.html" for method in methods}

    by_method: dict[str, list] = {}
    for child in children:
        assert child.data.tags["mlflow.parentRunId"] == parent.info.run_id
        by_method.setdefault(child.data.tags["dptune.method"], []).append(child)
    assert {m: len(r) for m, r in by_method.items()} == {"dpsgd": 2, "dp-pmlf": 2, "lp-dpsgd": 2}
    for child in by_method["dpsgd"] + by_method["dp-pmlf"]:
        assert child.data.tags["dptune.status"] == "finished"
        history = client.get_metric_history(child.info.run_id, "validation_accuracy")
        assert sorted(m.step for m in history) == [1, 2]  # per epoch
        assert "test_accuracy" not in child.data.metrics  # a search trial never sees the final test
        assert 0 < child.data.metrics["epsilon_spent"] <= 2.0
        assert child.data.metrics["noise_multiplier"] > 0 and "lr" in child.data.params
    for child in by_method["dp-pmlf"]:
        a, b = json.loads(child.data.params["a"]), json.loads(child.data.params["b"])
        validate_filter(tuple(a), tuple(b))  # the logged (resolved) filter is a valid one
    for child in by_method["lp-dpsgd"]:
        assert child.data.tags["dptune.status"] == "failed"
        assert "non-finite" in child.data.tags["dptune.reason"]

    # Selection: each method's finished search trial with the best validation accuracy is re-run twice
    # with fresh randomness (no seed), and only the re-runs are scored on the final test.
    best = {row.method: row for row in outcome.best}
    assert set(best) == {"dpsgd", "dp-pmlf"}
    for method in best:
        # a validation part of ~180 images ties two trials often: any best one is a right selection
        top = max(c.data.metrics["validation_accuracy"] for c in by_method[method])
        again = [r for r in reruns if r.data.tags["dptune.method"] == method]
        assert len(again) == 2
        (selected,) = [
            c
            for c in by_method[method]
            if c.data.tags["dptune.trial_id"] == again[0].data.tags["dptune.selected_trial"]
        ]
        assert selected.data.metrics["validation_accuracy"] == top
        for rerun in again:
            assert rerun.data.tags["dptune.selected_trial"] == selected.data.tags["dptune.trial_id"]
            assert rerun.data.params == selected.data.params and "seed" not in rerun.data.params
            released_as_model(client, rerun, spec.tracking_uri, tmp_path / rerun.info.run_id)
            assert (
                rerun.data.tags["dptune.status"] == "finished"
                and 0 < rerun.data.metrics["test_accuracy"] <= 1
            )
        scores = sorted(r.data.metrics["test_accuracy"] for r in again)
        assert best[method].validation_accuracy == selected.data.metrics["validation_accuracy"]
        assert sorted(best[method].test_accuracies) == scores
    assert sum("FAILED" in line for line in lines) == 2
    (registered,) = [line for line in lines if line.startswith("re-runs registered as models")]
    assert "e2e.dpsgd" in registered and "e2e.dp-pmlf" in registered and "models:/e2e." in registered
    assert sum(re.search(r"trial \d/2", line) is not None for line in lines) == 6  # a line per trial
    assert sum(re.search(r"re-run \d/2  final test", line) is not None for line in lines) == 4

    assert main(["report", "--tracking-uri", spec.tracking_uri, "--json"]) == 0
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert {row["method"] for row in report["best_tradeoffs"]} == {"dpsgd", "dp-pmlf"}
    for row in report["best_tradeoffs"]:
        assert row["test_accuracy"] == pytest.approx(best[row["method"]].test_accuracy)

    # The cost of tuning (TPE adapts, so composition of every started trial at the worst full plan, and
    # of the two released re-runs): at least the composition of those runs' own plans (σ, steps, q = B/n
    # as logged) by dp-accounting, an independent accountant, and close to it (every dpsgd run has the
    # same plan here).
    n = int(parent.data.params["train_size"])
    events = [
        subsampled_gaussian(c.data.metrics["noise_multiplier"], 128 / n, int(c.data.metrics["steps"]))
        for c in by_method["dpsgd"] + [r for r in reruns if r.data.tags["dptune.method"] == "dpsgd"]
    ]
    assert len(events) == 4
    expected = RdpAccountant(list(RDP_ORDERS)).compose(dp_event.ComposedDpEvent(events)).get_epsilon(1e-4)
    parent_metrics = client.get_run(parent.info.run_id).data.metrics
    assert expected <= parent_metrics["epsilon_including_tuning.dpsgd"] <= 1.02 * expected
    assert parent_metrics["epsilon_including_tuning"] > parent_metrics["epsilon_including_tuning.dpsgd"]
    for row in report["best_tradeoffs"]:
        assert row["tuning_bound"] == "composition"
        assert row["epsilon_including_tuning"] > row["epsilon_spent"]

    # Resuming the finished sweep runs nothing again: no new search trial, no new re-run (each would be
    # one more release of the data than its ε counts), the same figures; its Tune run is only read back.
    seen = len(lines)
    again = run_sweep(spec, path.read_text(), resume=True, echo=lines.append)
    assert len(runs(spec.tracking_uri, "e2e")[1]) == len(everything)
    (closing,) = [line for line in lines[seen:] if "wall time" in line]  # nothing ran this time
    assert "for 0 runs (trials and re-runs); 10 more ran before this resume" in closing
    assert closing.endswith(": 0% busy)")
    assert any("ended whole before: nothing trains" in line for line in lines[seen:])
    assert {(r.method, r.test_accuracies) for r in again.best} == {
        (r.method, r.test_accuracies) for r in outcome.best
    }
    resumed = client.get_run(parent.info.run_id).data.metrics
    assert resumed["epsilon_including_tuning.dpsgd"] == parent_metrics["epsilon_including_tuning.dpsgd"]


def test_random_search_with_a_poisson_number_of_trials_reports_the_repeat_and_select_bound(
    tmp_path: Path, local_ray, capsys
) -> None:
    count = {"distribution": "poisson", "mean": 2}
    path = write_spec(
        tmp_path,
        "tuning",
        {"dpsgd": {"lr": {"loguniform": [0.3, 2.0]}}, "lp-dpsgd": {"lr": {"loguniform": [0.3, 2.0]}}},
        training={"epochs": 1, "batch_size": 128, "lr": 1.0, "physical_batch_size": 128},
        budget={"trials_per_method": count, "max_concurrent": 2},
        search={"sampler": "random"},
    )
    spec = load_spec(path)
    lines: list[str] = []
    outcome = run_sweep(spec, path.read_text(), echo=lines.append)
    drawn = [PrivateSweepState(spec.storage_path, spec.name).trial_count(m, lambda: -1) for m in spec.methods]
    parents, children = runs(spec.tracking_uri, "tuning")
    assert len(children) == sum(drawn) and outcome.trials == sum(drawn)  # the secret K, from private state
    # K is neither printed nor logged: no trial total on the console, nothing in the parent run that
    # counts trials, no trial count or all-trials ε (which would reveal K) in the public cost record.
    assert not any(re.search(r"trial \d+/\d|\d trials drawn", line) for line in lines), lines
    assert not any(re.search(r"wall time|trial time|\d runs", line) for line in lines), lines  # time tells K
    assert any(line.strip().startswith("compute withheld: the trial count is secret") for line in lines)
    parent = parents[0].data
    assert not [
        k for k in (*parent.params, *parent.tags, *parent.metrics) if "trials." in k or "all_trials" in k
    ]
    client = MlflowClient(spec.tracking_uri)
    folder = client.download_artifacts(parents[0].info.run_id, "tuning_cost.json", str(tmp_path))
    public = json.loads(Path(folder).read_text())
    assert "epsilon_all_trials" not in public
    assert all("trials_started" not in row and "epsilon_all_trials" not in row for row in public["methods"])
    assert main(["report", "--tracking-uri", spec.tracking_uri, "--json"]) == 0
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    parents, _ = runs(spec.tracking_uri, "tuning")
    n = int(parents[0].data.params["train_size"])
    for row in report["best_tradeoffs"]:
        assert row["tuning_bound"] == "repeat-and-select"
        trial = next(c for c in children if c.data.tags["dptune.method"] == row["method"]).data.metrics
        trial_run = subsampled_gaussian(trial["noise_multiplier"], 128 / n, int(trial["steps"]))
        event = dp_event.RepeatAndSelectDpEvent(trial_run, 2, math.inf)
        at_trial_sigma = RdpAccountant(list(RDP_ORDERS)).compose(event).get_epsilon(1e-4)
        # the bound holds for the smallest σ any draw can be calibrated to: at least the trials' own
        assert at_trial_sigma <= row["epsilon_including_tuning"] <= 1.03 * at_trial_sigma
        assert row["epsilon_all_trials"] is None  # releasing every trial's record would reveal K
    # Nothing released tells K or a trial's index: no search-trial line or Tune trial id (its suffix is
    # its index) on the console, no Optuna page on the sweep's run, no count or hours in the report, and
    # the plot draws only each method's selected trial and its re-runs (none here).
    assert not any(re.search(r"\btrial \d|_\d{5}\b", line) for line in lines), lines
    assert any("search trials are withheld" in line for line in lines)
    artifacts = [a.path for a in client.list_artifacts(parents[0].info.run_id)]
    assert "optuna" not in artifacts, artifacts
    best_json = client.download_artifacts(parents[0].info.run_id, "best_configurations.json", str(tmp_path))
    assert not re.search(r"_\d{5}", Path(best_json).read_text())
    assert bool(report["compute"]) == (sum(drawn) > 0)  # both methods may have drawn K = 0 (p ≈ 2%)
    assert all("trials" not in c and "withheld" in c for c in report["compute"])
    released = {row["method"] for row in report["best_tradeoffs"]}
    if released:
        assert main(["report", "--tracking-uri", spec.tracking_uri, "--plot", str(tmp_path / "p.png")]) == 0
        shown = capsys.readouterr()
        assert "withheld: the trial count is secret" in shown.out and "trial-h" not in shown.out
        assert "left out (their number is secret)" in shown.err
        points = tracker_for(spec.tracking_uri).trial_points("tuning")
        assert len(points) == len(released) and all(p.selected for p in points)
    selected = [c for c in children if c.data.tags.get("dptune.selected") == "true"]
    assert sorted(c.data.tags["dptune.method"] for c in selected) == sorted(released)


def test_four_quarter_gpu_trials_share_one_gpu_and_a_fifth_waits(tmp_path: Path, local_ray) -> None:
    """With one GPU declared to Ray, gpu: 0.25 packs four trials at once; the fifth waits for one. The
    declared GPU has no CUDA behind it here: with ``gpu_fallback: cpu`` the trials train on the CPU and
    say so, in their lines and the sweep's summary."""
    path = write_spec(
        tmp_path,
        "gpu",
        {"dpsgd": {"lr": {"loguniform": [0.3, 2.0]}}},
        training={"epochs": 40, "batch_size": 64, "lr": 1.0, "physical_batch_size": 64},
        budget={"trials_per_method": 5, "max_concurrent": 5},
        resources={"cpu": 0.5, "gpu": 0.25, "gpu_fallback": "cpu"},
    )
    spec = load_spec(path)
    lines: list[str] = []
    outcome = run_sweep(spec, path.read_text(), echo=lines.append)
    results = sorted(outcome.results, key=lambda r: r["trial_start"])
    assert len(results) == 5
    first, fifth = results[:4], results[4]
    assert max(r["trial_start"] for r in first) < min(r["trial_end"] for r in first)  # all four overlap
    assert fifth["trial_start"] >= min(r["trial_end"] for r in first)  # the fifth waited for a slot
    assert all(r["device"] == "cpu" and r["gpu_share"] == 0.25 for r in results)
    assert sum("on CPU (its node shows no CUDA device" in line for line in lines) == 5
    assert any("5 of the trials trained on the CPU although given 0.25 GPU" in line for line in lines)


def test_a_trial_given_a_gpu_that_sees_no_cuda_fails_at_once_naming_the_field(
    tmp_path: Path, local_ray
) -> None:
    """Ray places the trial on a GPU it was told of, but the node shows no CUDA device (here: none at
    all; on a cluster, a container started without the GPU): it ends failed with one line naming
    ``resources.gpu``, never silently on the CPU."""
    path = write_spec(
        tmp_path,
        "nocuda",
        {"dpsgd": {}},
        training={"epochs": 3, "batch_size": 128, "lr": 1.0, "physical_batch_size": 128},
        budget={"trials_per_method": 1, "max_concurrent": 1},
        resources={"cpu": 1, "gpu": 0.5},
    )
    spec = load_spec(path)
    lines: list[str] = []
    outcome = run_sweep(spec, path.read_text(), echo=lines.append)
    (result,) = outcome.results
    assert result["status"] == "failed" and result["epoch"] == 0
    assert result["reason"].startswith("resources.gpu: the trial was given 0.5 GPU but its node shows no")
    assert "\n" not in result["reason"] and "gpu_fallback: cpu" in result["reason"]
    assert result["trial_end"] - result["trial_start"] < 5  # at once: it trained nothing
    assert any("FAILED: resources.gpu" in line for line in lines)


@pytest.mark.slow
def test_gpu_request_without_gpus_fails_fast_or_falls_back(tmp_path: Path) -> None:
    ray.init(num_cpus=2, num_gpus=0, include_dashboard=False, log_to_driver=False)
    try:
        path = write_spec(
            tmp_path,
            "nogpu",
            {"dpsgd": {}},
            resources={"cpu": 1, "gpu": 0.5},
            budget={"trials_per_method": 1, "max_concurrent": 1},
            training={"epochs": 1, "batch_size": 128},
        )
        started = time.time()
        spec = load_spec(path)
        with pytest.raises(Exception, match=r"resources\.gpu: each trial asks for 1 CPU \+ 0.5 GPU"):
            run_sweep(spec, path.read_text(), echo=lambda line: None)
        assert time.time() - started < 60  # fails fast, no hang
        # nothing of it is recorded (the store was only looked up while Ray started)
        assert MlflowClient(spec.tracking_uri).get_experiment_by_name(spec.experiment) is None
        fallback = load_spec(path, overrides={"resources.gpu_fallback": "cpu", "name": "nogpu2"})
        lines: list[str] = []
        outcome = run_sweep(fallback, path.read_text(), echo=lines.append)
        assert outcome.trials == 1 and any("running trials on CPU" in line for line in lines)
    finally:
        ray.shutdown()


@pytest.mark.parametrize("stop", [signal.SIGKILL, signal.SIGINT], ids=["killed", "ctrl-c"])
@pytest.mark.slow
def test_resume_after_stopping_the_driver_loses_and_duplicates_nothing(
    stop: signal.Signals, tmp_path: Path
) -> None:
    """A driver killed, or stopped with Ctrl+C (SIGINT to its whole process group, as a terminal sends
    it), while both methods' trials train: the stopped one ends at once, and --resume completes the
    sweep with every trial once."""
    methods = {"dpsgd": {"lr": {"loguniform": [0.3, 2.0]}}, "lp-dpsgd": {"lr": {"loguniform": [0.3, 2.0]}}}
    path = write_spec(
        tmp_path,
        "resume",
        methods,
        training={"epochs": 6, "batch_size": 64, "lr": 1.0},
        budget={"trials_per_method": 3, "max_concurrent": 1},
        selection={"reruns": 1},
    )
    spec = load_spec(path)
    command = [sys.executable, "-m", "dptune.cli", "run", str(path)]
    errors = tmp_path / "stderr.txt"
    driver = subprocess.Popen(
        command, cwd=tmp_path, start_new_session=True, stdout=subprocess.DEVNULL, stderr=errors.open("w")
    )
    client = MlflowClient(spec.tracking_uri)
    finished_before: set[str] = set()
    methods_before: set[str] = set()
    deadline = time.time() + 300
    while time.time() < deadline and driver.poll() is None:
        time.sleep(0.5)
        try:
            _, children = runs(spec.tracking_uri, "resume")
        except Exception:  # the store or the experiment does not exist yet
            continue
        done = {c.info.run_id for c in children if c.data.tags.get("dptune.status") == "finished"}
        if len(done) >= 2:
            finished_before = done
            methods_before = {c.data.tags["dptune.method"] for c in children}
            break
    assert driver.poll() is None, "the sweep ended before it could be interrupted"
    os.killpg(driver.pid, stop)
    code = driver.wait(timeout=60)  # without the interrupt, Ctrl+C waited for the whole sweep to end
    if stop == signal.SIGINT:
        assert code == 130, errors.read_text()[-2000:]
        assert errors.read_text().strip().splitlines()[-1] == (
            f"dptune: interrupted by SIGINT: the sweep stopped as it stood (Tune saved its state at its last "
            f"step); continue it with: dptune run {path} --resume"
        )
    assert len(finished_before) >= 2
    assert methods_before == set(methods)  # the kill hit both methods' searches, running side by side

    resumed = subprocess.run(
        [*command, "--resume"], cwd=tmp_path, capture_output=True, text=True, timeout=600, check=False
    )
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    parents, children = runs(spec.tracking_uri, "resume")
    assert len(parents) == 1
    # Ray copies its saved state to storage asynchronously and not atomically: a trial started just
    # before the kill can be missing from it (Tune runs another in its place), and a copy cut by the kill
    # makes a method start afresh. Such runs are kept, marked lost (the tuning cost still counts them).
    kept = [c for c in children if c.data.tags["dptune.status"] != "lost"]
    searched = [c for c in kept if c.data.tags["dptune.role"] == "search"]
    trial_ids = [c.data.tags["dptune.trial_id"] for c in searched]
    assert len(trial_ids) == 6 and len(set(trial_ids)) == 6, resumed.stdout  # nothing lost or duplicated
    assert all(c.data.tags["dptune.status"] == "finished" for c in kept), resumed.stdout
    reruns = [c for c in kept if c.data.tags["dptune.role"] == "final"]
    assert sorted(c.data.tags["dptune.method"] for c in reruns) == sorted(methods)  # one re-run each
    for run_id in finished_before:  # the finished runs keep their whole history, nothing duplicated
        history = client.get_metric_history(run_id, "validation_accuracy")
        assert sorted(m.step for m in history) == [1, 2, 3, 4, 5, 6]
    assert "best trade-offs" in resumed.stdout


def test_asha_stops_weak_trials_early_and_logs_them_as_stopped(tmp_path: Path, local_ray) -> None:
    path = write_spec(
        tmp_path,
        "asha",
        {"dpsgd": {"lr": {"loguniform": [0.01, 3.0]}}},
        training={"epochs": 4, "batch_size": 128, "lr": 1.0},
        budget={"trials_per_method": 6, "max_concurrent": 2},
        scheduler={"name": "asha", "grace_period": 1},
        search={"sampler": "random", "seed": 3},
    )
    spec = load_spec(path)
    outcome = run_sweep(spec, path.read_text(), echo=lambda line: None)
    epochs = sorted(r["epoch"] for r in outcome.results)
    assert epochs[0] < 4 and epochs[-1] == 4  # some trials stopped at a rung, the best ran to the end
    parents, children = runs(spec.tracking_uri, "asha")
    statuses = {c.data.tags["dptune.status"] for c in children}
    assert statuses == {"finished", "stopped"}

    # Optuna hears of a stopped trial as pruned, with the validation score of every epoch it ran (read
    # from the study's journal file, not from what the driver returned).
    study = optuna.load_study(study_name="dpsgd", storage=study_storage(spec.storage_path, spec.name))
    client = MlflowClient(spec.tracking_uri)
    stopped = sorted(  # the epochs each stopped trial's run logged
        len(client.get_metric_history(c.info.run_id, "validation_accuracy"))
        for c in children
        if c.data.tags["dptune.status"] == "stopped"
    )
    pruned = [t for t in study.trials if t.state == optuna.trial.TrialState.PRUNED]
    assert sorted(max(t.intermediate_values) for t in pruned) == stopped
    for trial in pruned:
        assert sorted(trial.intermediate_values) == list(range(1, max(trial.intermediate_values) + 1))
    assert sum(t.state == optuna.trial.TrialState.COMPLETE for t in study.trials) == len(children) - len(
        stopped
    )

    # The bound must not depend on which trials ASHA stopped: it is at least the composition of every
    # started trial's *full* plan (dp-accounting, from what each trial logged), above the odometer of
    # the steps the trials happened to take.
    n = int(parents[0].data.params["train_size"])
    q, per_epoch = 128 / n, math.ceil(n / 128)

    def composed(steps_of) -> float:
        events = [subsampled_gaussian(c.data.metrics["noise_multiplier"], q, steps_of(c)) for c in children]
        return RdpAccountant(list(RDP_ORDERS)).compose(dp_event.ComposedDpEvent(events)).get_epsilon(1e-4)

    full_plans = composed(lambda c: 4 * per_epoch)
    odometer = composed(lambda c: int(c.data.metrics["steps"]))
    reported = MlflowClient(spec.tracking_uri).get_run(parents[0].info.run_id).data.metrics
    assert reported["epsilon_including_tuning.dpsgd"] >= full_plans > odometer
    assert reported["epsilon_including_tuning.dpsgd"] <= 1.02 * full_plans


@pytest.mark.parametrize("proxy", [None, 0.5], ids=["full-data", "subset-proxy"])
def test_a_warm_start_begins_with_the_earlier_sweeps_best_and_counts_its_privacy(
    tmp_path: Path, local_ray, proxy: float | None
) -> None:
    """The earlier sweep on the whole data, or as a tuning proxy on a secret Poisson subset (γ = 0.5)."""
    methods = {"dpsgd": {"lr": {"loguniform": [0.05, 3.0]}}}
    training = {"epochs": 2, "batch_size": 128, "lr": 1.0, "physical_batch_size": 128}
    earlier_path = write_spec(
        tmp_path,
        "earlier",
        methods,
        search={"sampler": "random", "seed": 1},
        training=training | ({"proxy_fraction": proxy} if proxy else {}),
    )
    earlier = load_spec(earlier_path)
    before = run_sweep(earlier, earlier_path.read_text(), echo=lambda line: None)
    if proxy:
        # The proxy's figure: dp-accounting's composition of its runs (its bound on the subset),
        # amplified by the secret subset, log(1 + γ(e^ε − 1)) at δ' = γδ; the subset's seed is private.
        parents, children = runs(earlier.tracking_uri, "earlier")
        n = int(parents[0].data.params["train_size"])
        assert {c.data.params["proxy_fraction"] for c in children} == {"0.5"}
        events = [
            subsampled_gaussian(c.data.metrics["noise_multiplier"], 128 / n, int(c.data.metrics["steps"]))
            for c in children
        ]
        on_subset = (
            RdpAccountant(list(RDP_ORDERS)).compose(dp_event.ComposedDpEvent(events)).get_epsilon(1e-4)
        )
        figure = before.tuning_cost.epsilon_including_tuning
        assert (
            math.log1p(0.5 * math.expm1(on_subset))
            <= figure
            <= math.log1p(0.5 * math.expm1(1.02 * on_subset))
        )
        assert before.tuning_cost.as_dict()["delta"] == pytest.approx(0.5e-4)
        assert isinstance(PrivateSweepState(earlier.storage_path, "earlier").read()["proxy_subset_seed"], int)
        logged = json.dumps([c.data.params | c.data.metrics for c in children])
        assert "proxy_subset_seed" not in logged
    later_path = write_spec(
        tmp_path,
        "later",
        methods,
        budget={"trials_per_method": 3, "max_concurrent": 2},
        search={"sampler": "tpe", "seed": 2, "warm_start": {"sweep": "earlier", "top": 2}},
    )
    later = load_spec(later_path)
    after = run_sweep(later, later_path.read_text(), echo=lambda line: None)

    # The later study's first two trials are the earlier study's two best (read from both journals).
    done = optuna.load_study(study_name="dpsgd", storage=study_storage(earlier.storage_path, "earlier"))
    ranked = sorted(done.trials, key=lambda t: t.value, reverse=True)
    new = optuna.load_study(study_name="dpsgd", storage=study_storage(later.storage_path, "later"))
    first_two = sorted(new.trials, key=lambda t: t.number)[:2]
    assert [t.params for t in first_two] == [t.params for t in ranked[:2]]

    # Its figures add the earlier sweep's (ε, δ) to its own composition of three full runs (dp-accounting).
    parents, children = runs(later.tracking_uri, "later")
    n = int(parents[0].data.params["train_size"])
    events = [
        subsampled_gaussian(c.data.metrics["noise_multiplier"], 128 / n, int(c.data.metrics["steps"]))
        for c in children
    ]
    own = RdpAccountant(list(RDP_ORDERS)).compose(dp_event.ComposedDpEvent(events)).get_epsilon(1e-4)
    prior = before.tuning_cost.epsilon_including_tuning
    total = after.tuning_cost.epsilon_including_tuning
    assert prior + own <= total <= prior + 1.02 * own
    assert after.tuning_cost.as_dict()["delta"] == pytest.approx(1e-4 + (proxy or 1.0) * 1e-4)
    assert after.tuning_cost.as_dict()["warm_start"]["sweep"] == "earlier"
    # the reported row carries that δ beside its ε (each run's own δ stays 1e-4), and the table shows it
    (row,) = after.best
    assert row.delta == 1e-4 and row.delta_including_tuning == pytest.approx(1e-4 + (proxy or 1.0) * 1e-4)
    assert f"(comp., δ {row.delta_including_tuning:.0e})" in format_table(after.best)


def test_a_spec_with_a_proxy_runs_its_subset_sweep_first_and_starts_the_search_from_its_best(
    tmp_path: Path, local_ray
) -> None:
    methods = {"dpsgd": {"lr": {"loguniform": [0.05, 3.0]}}}
    path = write_spec(
        tmp_path,
        "tuned",
        methods,
        budget={"trials_per_method": 2, "max_concurrent": 2},
        search={"sampler": "tpe", "seed": 3, "proxy": {"fraction": 0.5, "trials": 3, "top": 1}},
    )
    spec = load_spec(path)
    lines: list[str] = []
    proxy, search = run_sweeps(spec, path.read_text(), echo=lines.append)
    headers = [line.strip() for line in lines if line.strip().startswith("===")]
    assert headers == ["=== tuned.proxy: ε = 2 (tuning proxy) ===", "=== tuned: ε = 2 ==="]

    # Both sweeps in one experiment; the proxy's three runs on the subset, the search's two on all data.
    parents, children = runs(spec.tracking_uri, "tuned")
    assert sorted(p.data.tags["mlflow.runName"].split(" ·")[0] for p in parents) == ["tuned", "tuned.proxy"]
    on_subset = [c for c in children if c.data.params.get("proxy_fraction") == "0.5"]
    assert len(on_subset) == 3 and len(children) == 5

    # The search's first trial is the proxy's best configuration (both Optuna journals).
    earlier = optuna.load_study(study_name="dpsgd", storage=study_storage(spec.storage_path, "tuned.proxy"))
    later = optuna.load_study(study_name="dpsgd", storage=study_storage(spec.storage_path, "tuned"))
    assert min(later.trials, key=lambda t: t.number).params == earlier.best_trial.params

    # The proxy's figure is its bound on the subset amplified by γ = 0.5; the search's adds its own.
    n = int(parents[0].data.params["train_size"])

    def composed(runs_: list) -> float:
        events = [
            subsampled_gaussian(c.data.metrics["noise_multiplier"], 128 / n, int(c.data.metrics["steps"]))
            for c in runs_
        ]
        return RdpAccountant(list(RDP_ORDERS)).compose(dp_event.ComposedDpEvent(events)).get_epsilon(1e-4)

    amplified = proxy.tuning_cost.epsilon_including_tuning
    assert math.log1p(0.5 * math.expm1(composed(on_subset))) <= amplified
    assert amplified <= math.log1p(0.5 * math.expm1(1.02 * composed(on_subset)))
    own = composed([c for c in children if c not in on_subset])
    assert amplified + own <= search.tuning_cost.epsilon_including_tuning <= amplified + 1.02 * own
    assert search.tuning_cost.delta_including_tuning == pytest.approx(1.5e-4)
