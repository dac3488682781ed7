"""The edges outside a spec, tried as a new user would: servers that do not answer, YAML read the wrong
way, arguments that do not parse, a GPU that is not there, a resume of nothing, and sweeps whose every
trial failed or that drew none. Each ends with one line naming the field (exit 2), or, for a sweep with
no result for a method, with one line per method (exit 1), never a traceback or a hang."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
import yaml

from dptune.cli import main
from dptune.sweep.spec import load_spec

SPEC = {
    "name": "edges",
    "dataset": {"name": "digits"},
    "model": {"name": "mlp"},
    "privacy": {"epsilon": 1.0, "delta": 1.0e-4},
    "training": {"epochs": 1, "batch_size": 128, "lr": 1.0, "physical_batch_size": 128},
    "budget": {"trials_per_method": 2, "max_concurrent": 2},
    "selection": {"reruns": 0},
    "methods": {"dpsgd": {}},
}


def write(folder: Path, text: str) -> Path:
    path = folder / "spec.yaml"
    path.write_text(text)
    return path


def one_line_error(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """The one line ``main(argv)`` ends with (exit 2, nothing on stdout)."""
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1, err
    return err.strip()


@pytest.mark.slow
def test_a_tracking_server_that_accepts_but_never_answers_is_refused_within_seconds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A port that takes the connection and says nothing (a hung server, a firewall that swallows): the
    health check gives up after its timeout, where MLflow's retries took minutes."""
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen()
        spec = SPEC | {"tracking": {"uri": f"http://127.0.0.1:{silent.getsockname()[1]}"}}
        path = write(tmp_path, yaml.safe_dump(spec))
        started = time.monotonic()
        for command in ("validate", "run"):
            line = one_line_error([command, str(path)], capsys)
            assert line.startswith("dptune: error: tracking.uri: the MLflow server at http://127.0.0.1")
        assert time.monotonic() - started < 30
    assert sorted(p.name for p in tmp_path.iterdir()) == ["spec.yaml"]


def test_a_ray_address_that_does_not_answer_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as closed:  # a port that was free a moment ago: nothing listens there
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    monkeypatch.setenv("RAY_ADDRESS", f"127.0.0.1:{port}")
    started = time.monotonic()
    line = one_line_error(["validate", str(write(tmp_path, yaml.safe_dump(SPEC)))], capsys)
    assert line.startswith(f"dptune: error: RAY_ADDRESS: the Ray cluster at 127.0.0.1:{port} does not answer")
    assert time.monotonic() - started < 30


def test_a_key_given_twice_is_refused_with_both_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = yaml.safe_dump(SPEC, sort_keys=False) + "privacy: {epsilon: 8.0}\n"
    line = one_line_error(["validate", str(write(tmp_path, text))], capsys)
    assert re.match(r"dptune: error: privacy: given twice \(lines \d+ and \d+\); keep one$", line), line
    nested = yaml.safe_dump(SPEC, sort_keys=False).replace("epsilon: 1.0", "epsilon: 1.0\n  epsilon: 3.0")
    line = one_line_error(["validate", str(write(tmp_path, nested))], capsys)
    assert line.startswith("dptune: error: privacy.epsilon: given twice")


def test_a_quoted_number_is_read_as_the_number_by_validate_and_run_alike(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``epsilon: "2.0"`` (and YAML's ``1e-5`` without a dot, which PyYAML reads as text) converts as every
    knob converts a flag; ``validate`` once crashed formatting it while ``run`` took it."""
    text = (
        yaml.safe_dump(SPEC).replace("epsilon: 1.0", "epsilon: '2.0'").replace("delta: 0.0001", "delta: 1e-4")
    )
    path = write(tmp_path, text)
    spec = load_spec(path)  # what both commands read (``cli._sweep_spec``)
    assert spec.epsilons == (2.0,) and spec.shared.epsilon == 2.0 and spec.shared.delta == 1e-4
    assert main(["validate", str(path)]) == 0
    assert "ε=2)" in capsys.readouterr().out
    bad = write(tmp_path, yaml.safe_dump(SPEC).replace("epsilon: 1.0", "epsilon: two"))
    assert one_line_error(["validate", str(bad)], capsys).startswith("dptune: error: privacy.epsilon: ")


def test_arguments_that_do_not_parse_and_a_missing_gpu_are_one_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    train = ["train", "--method", "dpsgd", "--dataset", "digits", "--epsilon", "1", "--epochs", "1"]
    line = one_line_error([*train, "--model", "mlp", "--model-arg", "hidden=[64"], capsys)
    assert line.startswith("dptune: error: --model-arg: hidden=[64 is not valid YAML")
    line = one_line_error([*train, "--model", "mlp", "--device", "cuda"], capsys)
    assert line.startswith("dptune: error: device: no CUDA device is visible here")
    line = one_line_error([*train, "--model", "mlp", "--delta", "0.01"], capsys)
    assert line.startswith("dptune: error: delta: δ = 0.01 is at least 1/n")
    calibrate = ["calibrate", "--epsilon", "1", "--delta", "0.01", "--sample-rate", "0.1", "--steps", "10"]
    line = one_line_error([*calibrate, "--train-size", "600"], capsys)
    assert line.startswith("dptune: error: delta: δ = 0.01 is at least 1/n = 1/600")
    line = one_line_error([*train, "--model", "mlp", "--data-root", "/nonexistent"], capsys)
    assert line.startswith("dptune: error: data-root: /nonexistent is not a folder")


def test_resuming_a_sweep_that_never_ran_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    line = one_line_error(["run", str(write(tmp_path, yaml.safe_dump(SPEC))), "--resume"], capsys)
    assert line.startswith("dptune: error: --resume: no sweep 'edges' in ")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["spec.yaml"]


def test_a_sweep_whose_every_trial_of_a_method_failed_exits_non_zero_naming_it(
    tmp_path: Path, local_ray, capsys: pytest.CaptureFixture[str]
) -> None:
    """lp-dpsgd draws only unstable filters (every trial infeasible: once the end of the sweep crashed
    making its Optuna page); dpsgd trains. The sweep ends, then exits 1 with one whole line for
    lp-dpsgd."""
    spec = SPEC | {
        "methods": {
            "dpsgd": {},
            "lp-dpsgd": {"filter": {"family": "raw", "a": [{"uniform": [-3.0, -2.0]}], "b": [0.5]}},
        },
        "tracking": {"uri": f"sqlite:///{tmp_path / 'mlflow.db'}", "experiment": "edges"},
        "storage_path": str(tmp_path / "ray_results"),
    }
    with pytest.raises(SystemExit) as stop:
        main(["run", str(write(tmp_path, yaml.safe_dump(spec)))])
    assert stop.value.code == 1
    out, err = capsys.readouterr()
    assert "best trade-offs of this sweep" in out and "Traceback" not in out + err
    (line,) = [line for line in err.splitlines() if line.startswith("dptune: error:")]
    assert line.startswith("dptune: error: lp-dpsgd: no trial trained; the first ended so: unstable")
    assert line.endswith("ε is spent as planned, and a new sweep on this data adds its own ε to it")


@pytest.mark.slow
def test_a_run_starts_its_own_ray_whatever_a_dead_local_cluster_left_behind(tmp_path: Path) -> None:
    """A ``ray start`` whose processes died without ``ray stop`` (a crash, an OOM kill) leaves Ray's file
    naming its address; a driver without ``RAY_ADDRESS`` once joined it and waited for ever. Ray's
    folder is moved to a fresh short one (``TMPDIR``: Ray's socket paths must stay short) holding such a
    file, naming a port where nothing listens."""
    temp = Path(tempfile.mkdtemp(prefix="r", dir="/tmp"))
    try:
        (temp / "ray").mkdir()
        with socket.socket() as closed:
            closed.bind(("127.0.0.1", 0))
            dead = f"127.0.0.1:{closed.getsockname()[1]}"
        (temp / "ray" / "ray_current_cluster").write_text(dead)
        spec = SPEC | {
            "budget": {"trials_per_method": 1, "max_concurrent": 1},
            "tracking": {"uri": f"sqlite:///{tmp_path / 'mlflow.db'}", "experiment": "edges"},
            "storage_path": str(tmp_path / "ray_results"),
        }
        env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"} | {"TMPDIR": str(temp)}
        done = subprocess.run(
            [sys.executable, "-m", "dptune.cli", "run", str(write(tmp_path, yaml.safe_dump(spec)))],
            cwd=tmp_path,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
        assert "best trade-offs of this sweep" in done.stdout
    finally:
        shutil.rmtree(temp, ignore_errors=True)


def test_a_long_epoch_shows_its_steps_once_a_minute(capsys: pytest.CaptureFixture[str]) -> None:
    """``dptune train`` prints a line within an epoch once ``every`` seconds have passed since the last."""
    from dptune.cli import StepProgress

    clock = iter([0.0, 0.0, 30.0, 61.0, 90.0, 125.0, 130.0])
    progress = StepProgress(10, lambda: 2, every=60.0, clock=lambda: next(clock))
    for step in range(1, 7):
        progress(step, 6)
    lines = capsys.readouterr().out.splitlines()
    assert lines == ["epoch 2/10: step 3/6 (61s)", "epoch 2/10: step 5/6 (125s)"]


def test_a_tracking_server_behind_a_login_counts_as_answering(tmp_path: Path) -> None:
    """A proxy that asks for a login on ``/health`` has answered: the check passes it to MLflow's own
    client (its login comes from MLFLOW_TRACKING_USERNAME/PASSWORD, never from the URI)."""
    import threading
    from http.server import BaseHTTPRequestHandler, HTTPServer

    from dptune.sweep.preflight import check_tracking_store

    class Login(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(401)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = HTTPServer(("127.0.0.1", 0), Login)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        check_tracking_store(f"http://user:secret@127.0.0.1:{server.server_port}")
    finally:
        server.shutdown()


def test_a_sweep_quietens_only_the_warnings_it_names() -> None:
    """A user's own warnings (and any library's not named) still show during a sweep."""
    import warnings

    from dptune.tune.startup import quiet_libraries

    with warnings.catch_warnings(record=True) as shown:
        warnings.simplefilter("always")
        quiet_libraries()
        warnings.warn("my model is odd", UserWarning, stacklevel=1)
        warnings.warn("an old argument", FutureWarning, stacklevel=1)
        warnings.warn("Target and region quantiles select the same set of trials.", UserWarning, stacklevel=1)
    assert [str(w.message) for w in shown] == ["my model is odd", "an old argument"]


def test_a_poisson_count_that_draws_no_trial_releases_nothing_and_its_resume_draws_none_again(
    tmp_path: Path, local_ray, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Papernot & Steinke's Poisson count draws K = 0 with probability e^{−μ}: the sweep then trains
    nothing and releases nothing (its JSON line lists no release), exits 1 with the method's line saying
    that its ε is spent and a new sweep adds its own, and a resume keeps that K instead of drawing again
    (drawing again until a model comes out would be a search its figure does not state)."""
    from dptune.privacy.tuning import TrialCount

    spec = SPEC | {
        "privacy": {"epsilon": 8.0, "delta": 1.0e-5, "includes_tuning": True},
        "budget": {"trials_per_method": {"distribution": "poisson", "mean": 2}},
        "search": {"sampler": "random"},
        "scheduler": {"name": "none"},
        "tracking": {"uri": f"sqlite:///{tmp_path / 'mlflow.db'}", "experiment": "edges"},
        "storage_path": str(tmp_path / "ray_results"),
    }
    path = str(write(tmp_path, yaml.safe_dump(spec)))
    monkeypatch.setattr(TrialCount, "draw", lambda self, rng: 0)
    with pytest.raises(SystemExit) as stop:
        main(["run", path])
    assert stop.value.code == 1
    out, err = capsys.readouterr()
    assert json.loads(out.strip().splitlines()[-1])["releases"] == [] and "Traceback" not in out + err
    (line,) = [line for line in err.splitlines() if line.startswith("dptune: error:")]
    assert line.startswith("dptune: error: dpsgd: no trial trained")
    assert line.endswith("a new sweep on this data adds its own ε to it")

    def drawn_again(self: TrialCount, rng: object) -> int:
        raise AssertionError("a resume drew the trial count again")

    monkeypatch.setattr(TrialCount, "draw", drawn_again)
    with pytest.raises(SystemExit) as stop:
        main(["run", path, "--resume"])
    assert stop.value.code == 1
    out, err = capsys.readouterr()
    assert json.loads(out.strip().splitlines()[-1])["releases"] == [] and "Traceback" not in out + err
    assert [line for line in err.splitlines() if line.startswith("dptune: error:")] == [line]
