"""The trial recorder against a real ``mlflow server`` on loopback (over PostgreSQL from Debian's package
where a cluster can be started, and over SQLite), with MLflow's client retries shortened: writes never
stall Tune's loop, an outage longer than the retries loses and duplicates nothing, and what a driver
killed during an outage had queued is brought in line when the sweep resumes."""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any

import pytest
from mlflow.entities import RunStatus
from mlflow.tracking import MlflowClient
from ray.train._internal.storage import StorageContext
from ray.tune.experiment import Trial

from dptune.tracking import MlflowTracker, names
from dptune.tracking.writer import BackgroundWriter
from dptune.training.trial_status import OBJECTIVE, SCORE_STD
from dptune.tune.callbacks import TrialRecorder
from tests.mlflow_server import MlflowServer, postgres_cluster, postgres_unavailable
from tests.tune_loop import TuneLoop, result

pytestmark = pytest.mark.slow

SHORT_RETRIES = {
    "MLFLOW_HTTP_REQUEST_MAX_RETRIES": "1",
    "MLFLOW_HTTP_REQUEST_BACKOFF_FACTOR": "1",
    "MLFLOW_HTTP_REQUEST_TIMEOUT": "5",
}
"""MLflow's client gives up on a dead server within about 2 s (by default it tries for minutes)."""
QUICK = 0.2
"""The most a callback may take in Tune's loop, store reachable or not (queuing takes microseconds)."""


def backend_store(kind: str, folder: Path) -> AbstractContextManager[str]:
    """The server's backend store: a throwaway PostgreSQL cluster, or a SQLite file."""
    if kind == "sqlite":
        return nullcontext(f"sqlite:///{folder / 'mlflow.db'}")
    reason = postgres_unavailable()
    if reason is not None:
        pytest.skip(reason)
    return postgres_cluster()


@pytest.fixture(scope="module", params=["postgresql", "sqlite"])
def server(request, tmp_path_factory) -> Iterator[MlflowServer]:
    folder = tmp_path_factory.mktemp(request.param)
    with backend_store(request.param, folder) as backend, MlflowServer(backend, folder) as running:
        yield running


@pytest.fixture
def short_retries(monkeypatch) -> None:
    for name, value in SHORT_RETRIES.items():
        monkeypatch.setenv(name, value)


def recorded(url: str, experiment: str, sweep: str) -> dict[str, Any]:
    """Each trial's run as the store has it: status, params, every logged step of every metric."""
    client = MlflowClient(url)
    exp = client.get_experiment_by_name(experiment)
    children = client.search_runs([exp.experiment_id], f"tags.`{names.PARENT_TAG}` = '{sweep}'")
    trial_ids = [run.data.tags[names.TRIAL_TAG] for run in children]
    assert len(trial_ids) == len(set(trial_ids)), f"duplicated runs: {sorted(trial_ids)}"
    return {
        run.data.tags[names.TRIAL_TAG]: {
            "status": run.data.tags[names.STATUS_TAG],
            "run_status": run.info.status,
            "reason": run.data.tags.get(names.REASON_TAG, ""),
            "params": run.data.params,
            "steps": {
                name: sorted(m.step for m in client.get_metric_history(run.info.run_id, name))
                for name in (*names.CHILD_METRICS, *names.END_METRICS)
            },
        }
        for run in children
    }


def check_trial(
    runs: dict[str, Any], trial_id: str, status: str, epochs: int, lr: float, reason: str = ""
) -> None:
    run = runs[trial_id]
    assert run["status"] == status, (trial_id, run)
    ending = {"failed": RunStatus.FAILED, "lost": RunStatus.KILLED}.get(status, RunStatus.FINISHED)
    assert run["run_status"] == RunStatus.to_string(ending)
    assert run["params"] == {"lr": str(lr)}
    for name in names.CHILD_METRICS:  # every epoch exactly once
        assert run["steps"][name] == list(range(1, epochs + 1)), (trial_id, name, run["steps"])
    for name in names.TRIAL_END_METRICS:  # once, at the end (a failed trial has none; a public split no
        # noise of its score)
        expected = [] if status == "failed" or name == SCORE_STD[OBJECTIVE] else [0]
        assert run["steps"][name] == expected, (trial_id, name)
    for name in names.FINAL_TEST_METRICS:  # a search trial never has a final-test score
        assert run["steps"][name] == [], (trial_id, name)
    assert reason in run["reason"]


def test_recorder_rides_out_a_server_outage_longer_than_mlflow_retries(
    server: MlflowServer, tmp_path: Path, local_ray, short_retries, caplog
) -> None:
    caplog.set_level(logging.WARNING, logger="dptune.tracking")
    tracker = MlflowTracker(server.url, wait_s=120, first_retry_s=0.5, max_retry_s=2)
    sweep = tracker.start_sweep("outage", "s", {}, {"epsilon": 1.0}, "name: s\n")
    recorder = TrialRecorder(tracker, "outage", sweep, "dpsgd", "secure", {})
    tune = TuneLoop(recorder, StorageContext(storage_path=str(tmp_path), experiment_dir_name="outage"))
    lrs = (0.1, 0.2, 0.3, 0.4)
    a, b, c, d = (tune.trial(f"t_0000{i}", lr) for i, lr in enumerate(lrs))

    tune.start(a)
    for epoch in (1, 2):
        tune.report(a, epoch, 2)
    tune.complete(a)
    tune.start(b)
    assert tracker.flush(60)
    before = len(server.requests())
    tune.report(b, 1, 3)
    assert tracker.flush(60)
    per_epoch = server.requests()[before:]
    assert per_epoch == ["POST /api/2.0/mlflow/runs/log-batch HTTP/1.1"]  # one request per reported epoch

    server.kill()  # the outage: the writes go on
    started = time.monotonic()
    tune.report(b, 2, 3)
    tune.report(b, 3, 3)
    tune.complete(b)
    tune.start(c)
    tune.report(c, 1, 3)
    tune.fail(c, "TrainingDivergedError: the loss is non-finite")
    tune.start(d)
    tune.report(d, 1, 2)
    while "cannot reach" not in caplog.text:  # MLflow's client gave up, the writer keeps the writes
        assert time.monotonic() - started < 60, caplog.text
        time.sleep(0.2)
    assert not tracker.flush(timeout=3)  # the writer retries on, and the server stays down meanwhile
    server.start()
    tune.report(d, 2, 2)
    tune.complete(d)
    tune.end()
    assert tracker.close(timeout=120), caplog.text
    outage = time.monotonic() - started
    assert "reachable again" in caplog.text

    runs = recorded(server.url, "outage", sweep)
    assert sorted(runs) == ["t_00000", "t_00001", "t_00002", "t_00003"]
    check_trial(runs, "t_00000", "finished", 2, 0.1)
    check_trial(runs, "t_00001", "finished", 3, 0.2)
    check_trial(runs, "t_00002", "failed", 1, 0.3, reason="non-finite")
    check_trial(runs, "t_00003", "finished", 2, 0.4)
    assert outage > 5 and tune.slowest < QUICK, (outage, tune.slowest)


KILLED_DRIVER = """
import sys, time
from dptune.tracking import MlflowTracker, TrialKey
from dptune.training.trial_status import TrialStatus
from tests.tune_loop import result

url, sweep = sys.argv[1:]
tracker = MlflowTracker(url, first_retry_s=0.5, max_retry_s=2)
key = lambda trial: TrialKey("killed", sweep, trial)
for trial in ("t_00000", "t_00001"):
    tracker.open_trial(key(trial), "dpsgd", "secure", {"lr": 0.1}, "search", {})
tracker.log_epochs(key("t_00000"), result(2, 2)["history"])
tracker.end_trial(key("t_00000"), TrialStatus.FINISHED, None, result(2, 2))
tracker.log_epochs(key("t_00001"), result(1, 3)["history"])
assert tracker.flush(60)
print("recorded", flush=True)
sys.stdin.readline()  # the server is down now
tracker.log_epochs(key("t_00001"), result(3, 3)["history"])
tracker.end_trial(key("t_00001"), TrialStatus.FINISHED, None, result(3, 3))
tracker.open_trial(key("t_00002"), "dpsgd", "secure", {"lr": 0.1}, "search", {})
tracker.log_epochs(key("t_00002"), result(1, 3)["history"])
print("queued", flush=True)
time.sleep(600)
"""


def test_a_driver_killed_during_an_outage_is_brought_in_line_on_resume(
    server: MlflowServer, tmp_path: Path, local_ray, short_retries, caplog
) -> None:
    tracker = MlflowTracker(server.url, wait_s=120, first_retry_s=0.5, max_retry_s=2)
    sweep = tracker.start_sweep("killed", "s", {}, {"epsilon": 1.0}, "name: s\n")
    log = tmp_path / "driver.log"
    with log.open("w") as stderr:
        driver = subprocess.Popen(
            [sys.executable, "-c", KILLED_DRIVER, server.url, sweep],
            cwd=Path(__file__).parents[1],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
            env=os.environ | SHORT_RETRIES | {"MLFLOW_SUPPRESS_PRINTING_URL_TO_STDOUT": "true"},
            start_new_session=True,
        )
    try:
        assert driver.stdout.readline() == "recorded\n", log.read_text()
        server.kill()
        driver.stdin.write("go\n")
        driver.stdin.flush()
        assert driver.stdout.readline() == "queued\n", log.read_text()
        time.sleep(5)  # longer than MLflow's retries: the driver's writer holds its writes
        assert "cannot reach" in log.read_text()
    finally:
        os.killpg(driver.pid, signal.SIGKILL)
        driver.wait()
    server.start()
    runs = recorded(server.url, "killed", sweep)
    assert runs["t_00001"]["status"] == "running" and "t_00002" not in runs  # what the kill lost

    # The resumed sweep: Tune's restored experiment holds the two ended trials and the failed one; the
    # running one continues from its checkpoint.
    recorder = TrialRecorder(tracker, "killed", sweep, "dpsgd", "secure", {})
    tune = TuneLoop(recorder, StorageContext(storage_path=str(tmp_path), experiment_dir_name="killed"))
    for trial_id, epochs in (("t_00000", 2), ("t_00001", 3)):
        tune.trial(trial_id, lr=0.1, status=Trial.TERMINATED).update_last_result(result(epochs, epochs))
    failed = tune.trial("t_00002", lr=0.1)
    failed.update_last_result(result(1, 3))
    tune.error(failed, "TrainingDivergedError: the loss is non-finite")
    running = tune.trial("t_00003", lr=0.1)
    tune.start(running)
    tune.report(running, 1, 1)
    tune.complete(running)
    tune.end()
    assert tracker.close(timeout=120), caplog.text

    runs = recorded(server.url, "killed", sweep)
    assert sorted(runs) == ["t_00000", "t_00001", "t_00002", "t_00003"]
    check_trial(runs, "t_00000", "finished", 2, 0.1)
    check_trial(runs, "t_00001", "finished", 3, 0.1)
    check_trial(runs, "t_00002", "failed", 1, 0.1, reason="non-finite")
    check_trial(runs, "t_00003", "finished", 1, 0.1)


def test_a_sweep_whose_store_is_down_at_its_end_still_gives_its_answer(
    tmp_path: Path, local_ray, short_retries, monkeypatch
) -> None:
    """The sweep's answer comes from its trials' reports, not from reading the store back: with the
    server gone once the trials have ended, the sweep still returns and prints each method's selected
    configuration and its re-runs' final-test scores, and says where its records wait."""
    from dptune.sweep.spec import load_spec
    from dptune.tune import driver
    from tests.sweep_helpers import write_spec

    with MlflowServer(f"sqlite:///{tmp_path / 'mlflow.db'}", tmp_path / "server") as server:
        methods = {"dpsgd": {"lr": {"loguniform": [0.3, 2.0]}}}
        tracking = {"uri": server.url, "experiment": "down"}
        path = write_spec(tmp_path, "down", methods, selection={"reruns": 2}, tracking=tracking)
        spec = load_spec(path)
        quick = MlflowTracker(spec.tracking_uri, wait_s=3, first_retry_s=0.2, max_retry_s=1)
        monkeypatch.setitem(MlflowTracker._shared, spec.tracking_uri, quick)
        monkeypatch.setattr(driver, "TRACKING_CATCH_UP_SECONDS", 3.0)
        searched = driver.run_searches

        def then_the_server_goes(*args: Any, **kwargs: Any) -> Any:
            ended = searched(*args, **kwargs)
            server.kill()
            return ended

        monkeypatch.setattr(driver, "run_searches", then_the_server_goes)
        lines: list[str] = []
        outcome = driver.run_sweep(spec, path.read_text(), echo=lines.append)

    (row,) = outcome.best
    assert row.method == "dpsgd" and len(row.test_accuracies) == 2
    assert all(0 < score <= 1 for score in row.test_accuracies)
    assert row.epsilon_including_tuning is not None and row.epsilon_including_tuning > row.epsilon_spent
    assert any(
        f"tracking: {spec.tracking_uri} does not answer" in line and "--resume" in line for line in lines
    )
    (table,) = [line for line in lines if "best trade-offs of this sweep" in line]
    assert f"{100 * row.validation_accuracy:.2f}%" in table and "dpsgd" in table


def test_closing_a_writer_that_never_wrote_warns_of_nothing(caplog: pytest.LogCaptureFixture) -> None:
    """A resume that trains nothing queues no write: closing its tracker says nothing is unrecorded."""
    writer: BackgroundWriter[int] = BackgroundWriter(lambda writes: None, "sqlite:///nothing.db")
    with caplog.at_level(logging.WARNING, logger="dptune.tracking"):
        assert writer.close(timeout=1.0)
    assert not caplog.records
