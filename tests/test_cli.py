"""The command line contract: JSON output, one-line errors with exit code 2 for bad input, help on every
option, and ``validate`` refusing what ``run`` would refuse before it starts."""

from __future__ import annotations

import argparse
import copy
import json
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from mlflow.tracking import MlflowClient

import dptune.engine.data as data_module
from dptune.base.errors import InputError
from dptune.cli import _build_parser, main
from dptune.engine.data import load_dataset, train_size
from dptune.engine.dataset import Dataset
from dptune.sweep.ledger import PrivateSweepState
from dptune.sweep.pipeline import planned
from dptune.sweep.resume import differing, resumable_identity
from dptune.sweep.spec import load_spec
from dptune.sweep.spec_modes import spec_mode
from dptune.sweep.spec_parts import resolve_tracking_uri
from dptune.sweep.sweep_spec import SweepSpec
from tests.sweep_helpers import quickstart_spec

TRAIN = [
    "train",
    "--dataset",
    "digits",
    "--model",
    "mlp",
    "--epsilon",
    "1",
    "--epochs",
    "1",
    "--batch-size",
    "128",
    "--lr",
    "1",
]


def data_of(spec: SweepSpec) -> Dataset:
    """The data a sweep of ``spec`` runs on (what its driver loads)."""
    shared = spec.shared
    return load_dataset(shared.dataset, shared.data_root, shared.subset, shared.dataset_args)


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse errors
        code = int(exc.code)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(
    ("argv", "field"),
    [
        (["--method", "dp-sgd"], "method"),
        (["--method", "dp-pmlf", "--param", "gamma=0.3"], "param.gamma"),
        (["--method", "dp-pmlf", "--param", "k=0"], "param.k"),
        (["--method", "dp-pmlf", "--param", "k=two"], "param.k"),
        (["--method", "dp-pmlf", "--param", "beta=1.5"], "param.beta"),
        (["--method", "lp-dpsgd", "--param", "a=-0.9", "--param", "b=0.2"], "param.a/b"),
        (["--method", "lp-dpsgd", "--param", "a=-1.2", "--param", "b=-0.2"], "param.a/b"),
        (["--method", "lp-dpsgd", "--param", "filter=nope"], "param.filter"),
        (["--method", "fo-dp-sgd", "--param", "beta=0"], "param.beta"),
        (["--method", "dpsgd", "--epsilon", "0"], "epsilon"),
        (["--method", "dpsgd", "--epsilon", "-1"], "epsilon"),
        (["--method", "dpsgd", "--delta", "1.5"], "delta"),
        (["--method", "dpsgd", "--delta", "0"], "delta"),
        (["--method", "dpsgd", "--batch-size", "5000"], "batch-size"),
        (["--method", "dpsgd", "--dataset", "imagenet"], "dataset"),
        (["--method", "dpsgd", "--model", "vgg"], "model"),
        (["--method", "dpsgd", "--epsilon", "abc"], "--epsilon"),
        (["--method", "dpsgd", "--param", "k"], "--param"),
        (["--method", "dpsgd", "--seed", "-1"], "seed"),
    ],
)
def test_bad_train_input_exits_2_with_one_line(argv: list[str], field: str, capsys) -> None:
    code, out, err = run([*TRAIN, *argv], capsys)
    assert code == 2
    assert out == ""  # nothing trained, nothing printed
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert field in lines[0] and "Traceback" not in err


def test_train_json_contract(capsys) -> None:
    code, out, _ = run([*TRAIN, "--method", "dp-pmlf", "--param", "k=2", "--json"], capsys)
    assert code == 0
    result = json.loads(out.strip().splitlines()[-1])
    for key in (
        "method",
        "validation_accuracy",
        "test_accuracy",
        "epsilon_spent",
        "delta",
        "noise_multiplier",
        "steps",
        "accountant",
        "sampling",
        "noise_source",
    ):
        assert key in result
    assert result["method"] == "dp-pmlf" and result["epsilon_spent"] <= 1.0
    assert result["params"]["a"] == [-0.9] and result["params"]["b"] == [0.1]


def test_calibrate_json(capsys) -> None:
    code, out, _ = run(
        [
            "calibrate",
            "--epsilon",
            "1",
            "--delta",
            "1e-5",
            "--sample-rate",
            "0.01",
            "--steps",
            "1000",
            "--json",
        ],
        capsys,
    )
    assert code == 0
    result = json.loads(out.strip().splitlines()[-1])
    assert set(result) >= {"noise_multiplier", "epsilon", "delta", "accountant"}
    assert 0.99 <= result["epsilon"] <= 1.0


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        (["--epsilon", "0"], "epsilon"),
        (["--delta", "2"], "delta"),
        (["--method", "x"], "method"),
        (["--sample-rate", "0"], "sample-rate"),
        (["--param", "k=0", "--method", "dp-pmlf"], "param.k"),
    ],
)
def test_bad_calibrate_input(extra: list[str], field: str, capsys) -> None:
    base = {"--epsilon": "1", "--delta": "1e-5", "--sample-rate": "0.01", "--steps": "100"}
    for flag, value in zip(extra[::2], extra[1::2], strict=True):
        base[flag] = value
    argv = ["calibrate", *[item for pair in base.items() for item in pair]]
    code, out, err = run(argv, capsys)
    assert code == 2 and out == "" and field in err and len(err.strip().splitlines()) == 1


@pytest.mark.slow
def test_console_script_exit_code_and_single_line() -> None:
    """The installed ``dptune`` entry point, as a user runs it."""
    proc = subprocess.run(
        [sys.executable, "-m", "dptune.cli", *TRAIN, "--method", "dpsgd", "--epsilon", "-2"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [proc.stderr.strip()]
    assert "epsilon" in proc.stderr


CONSOLE_PROBE = """
import atexit, sys, threading, time
from pathlib import Path
from dptune import cli

written, ending = Path(sys.argv[1]), sys.argv[2]

def command(args):
    def late_write():
        time.sleep(0.5)
        written.write_text("written")
    threading.Thread(target=late_write).start()  # a command's non-daemon thread
    atexit.register(lambda: print("exit handler ran", flush=False))
    print("x" * 100_000, end="")  # more than a pipe's buffer, left unflushed
    if ending == "bad input":
        raise cli.InputError("--probe", "bad")
    if ending == "reader gone":
        raise BrokenPipeError(32, "Broken pipe")

cli.COMMANDS["methods"] = command
sys.argv = ["dptune", "methods"]
cli.console()
"""


@pytest.mark.parametrize(("ending", "code"), [("done", 0), ("bad input", 2), ("reader gone", 141)])
@pytest.mark.slow
def test_console_ends_after_threads_and_exit_handlers_with_mains_code(
    ending: str, code: int, tmp_path: Path
) -> None:
    """``dptune`` skips only Python's teardown: a command's threads finish, exit handlers registered
    while it ran still run, all output arrives, and the exit code is ``main``'s (a reader that went
    away: 141, as for SIGPIPE, without a traceback)."""
    written = tmp_path / "thread.txt"
    proc = subprocess.run(
        [sys.executable, "-c", CONSOLE_PROBE, str(written), ending],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == code, proc.stderr
    assert written.read_text() == "written"
    assert proc.stdout == "x" * 100_000 + "exit handler ran\n"
    assert proc.stderr == ("dptune: error: --probe: bad\n" if ending == "bad input" else "")


def test_every_option_and_command_has_help() -> None:
    """Every action of every (sub)parser but -h says what it is, in ``--help``."""
    parsers = [_build_parser()]
    missing = []
    while parsers:
        parser = parsers.pop()
        for action in parser._actions:
            if isinstance(action, argparse._HelpAction):
                continue
            if isinstance(action, argparse._SubParsersAction):
                parsers.extend(action.choices.values())
                missing += [f"{parser.prog} {c.dest}" for c in action._choices_actions if not c.help]
            if not action.help:
                missing.append(f"{parser.prog} {action.option_strings or action.dest}")
    assert missing == []


@pytest.fixture
def local_machine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A sweep that would start its own Ray instance here, on a machine without GPUs, from ``tmp_path``
    (each test's working folder, ``conftest``), with nothing in its cache of downloads."""
    monkeypatch.setattr(data_module, "CACHE_ROOT", tmp_path / "cache")
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    monkeypatch.setenv("CUDA_VISIBLE_DEVICES", "")
    return tmp_path


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"dataset.subset": 300}, "training.batch_size"),  # batch 500 > 300 training samples
        (
            {
                "dataset.subset": 300,
                "training.batch_size": 100,
                "methods.dpsgd.batch_size": {"choice": [64, 512]},
            },
            "methods.dpsgd.batch_size",
        ),
        ({"dataset.name": "cifar10", "dataset.root": "empty"}, "dataset.root"),  # no such folder
        ({"dataset.name": "cifar10"}, "dataset"),  # no local copy
        ({"search.warm_start": "earlier"}, "search.warm_start.sweep"),  # no such sweep in storage_path
        ({"resources.gpu": 1}, "resources.gpu"),  # gpu_fallback: fail, and this machine has no GPU
        ({"resources.cpu": 100_000}, "resources.cpu"),
        ({"privacy.delta": 1e-3}, "privacy.delta"),  # δ ≥ 1/n for 10,000 training images
        ({"dataset.name": "digits", "model.name": "cnn5"}, "model"),  # 8×8 images: too small for cnn5
        ({"methods.lp-dpsgd.filter": {"family": "raw", "a": [-1.5], "b": [0.5]}}, "methods.lp-dpsgd.filter"),
        ({"tracking.uri": "http://127.0.0.1:9"}, "tracking.uri"),  # nothing listens there
        ({"tracking.uri": "sqlite:////nonexistent-folder/mlflow.db"}, "tracking.uri"),  # never made
        ({"tracking.uri": "sqlite:////proc/mlflow.db"}, "tracking.uri"),  # a folder nobody writes in
        ({"storage_path": "/proc/ray_results"}, "storage_path"),
        ({"storage_path": "spec.yaml/ray_results"}, "storage_path"),  # under a file
    ],
)
@pytest.mark.slow
def test_validate_refuses_what_run_would_refuse_before_it_starts(
    changes: dict[str, Any], field: str, local_machine: Path, capsys
) -> None:
    spec = str(quickstart_spec(local_machine, **changes))
    for command in ("validate", "run"):
        code, out, err = run([command, spec], capsys)
        assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, err
        assert err.startswith(f"dptune: error: {field}: "), err
    assert sorted(p.name for p in local_machine.iterdir()) == ["spec.yaml"]  # nothing started


def test_validate_accepts_what_run_would_start(local_machine: Path, capsys) -> None:
    spec = str(quickstart_spec(local_machine, **{"resources.gpu": 1, "resources.gpu_fallback": "cpu"}))
    code, out, _ = run(["validate", spec], capsys)
    assert code == 0 and out.startswith(f"{spec}: valid")


@pytest.mark.slow
def test_the_includes_tuning_flag_turns_a_per_run_spec_into_a_plan_of_its_total(
    local_machine: Path, capsys
) -> None:
    """``--includes-tuning`` is ``privacy.includes_tuning: true``: the spec's ε becomes the total of each
    released model, so ``validate`` prints each release's plan (a row per method) first; without it, none."""
    spec = str(quickstart_spec(local_machine))
    code, out, _ = run(["validate", spec, "--includes-tuning"], capsys)
    header, *rows = out.splitlines()
    assert code == 0 and header.split()[:3] == ["method", "total", "ε"] and "release ε_B" in header, out
    assert sorted(row.split()[0] for row in rows[:3]) == ["dp-pmlf", "dpsgd", "lp-dpsgd"]
    assert rows[-2].startswith(f"{spec}: valid") and rows[-1].startswith("held-out split: taken as public")
    code, out, _ = run(["validate", spec], capsys)
    assert code == 0 and "release ε_B" not in out


@pytest.mark.slow
def test_the_trials_flag_sets_each_methods_trial_count_and_a_bad_one_is_refused(
    local_machine: Path, capsys
) -> None:
    """``--trials N`` is ``budget.trials_per_method: N``: the plan's tuning column and the valid line say N
    (and, where one model's trials would be too short to rank, the fewer its plan runs, as the trials it
    runs); a count below 1 is
    refused naming the field, before anything starts."""
    spec = str(quickstart_spec(local_machine))
    code, out, _ = run(["validate", spec, "--includes-tuning", "--trials", "2"], capsys)
    rows = out.splitlines()[1:4]
    assert code == 0 and all(row.split()[3] == "2" for row in rows), out
    assert "; 2 trials per method;" in out
    wide = str(quickstart_spec(local_machine, **{"training.batch_size": 2000}))  # 4 steps an epoch
    code, out, _ = run(["validate", wide, "--includes-tuning", "--trials", "8"], capsys)
    said = "; 2 trials per method, as planned (the spec asks 8: see the plan's lines);"
    assert code == 0 and said in out, out
    code, out, err = run(["validate", spec, "--trials", "0"], capsys)
    assert code == 2 and out == "" and err.startswith("dptune: error: budget.trials_per_method: "), err


@pytest.mark.slow
def test_the_promoted_trials_flag_plans_a_second_rung_and_a_bad_one_is_refused(
    local_machine: Path, capsys
) -> None:
    """``--promoted-trials M`` is ``budget.promoted_trials: M``: the plan's tuning column says ``K+M``; M not
    below the trial count is refused naming the field."""
    spec = str(quickstart_spec(local_machine))
    flags = ["--includes-tuning", "--release", "per_method", "--method", "dpsgd", "--trials", "4"]
    code, out, _ = run(["validate", spec, *flags, "--promoted-trials", "2"], capsys)
    assert code == 0 and out.splitlines()[1].split()[3] == "4+2", out
    code, out, err = run(["validate", spec, *flags, "--promoted-trials", "4"], capsys)
    assert code == 2 and out == "" and err.startswith("dptune: error: budget.promoted_trials: "), err


@pytest.mark.slow
def test_validate_refuses_an_existing_sweep_unless_resumed(local_machine: Path, capsys) -> None:
    spec = str(quickstart_spec(local_machine))
    (local_machine / "ray_results" / "quickstart").mkdir(parents=True)
    code, _, err = run(["validate", spec], capsys)
    assert code == 2 and err.startswith("dptune: error: name: ") and "--resume" in err
    assert run(["validate", spec, "--resume"], capsys)[0] == 0
    assert run(["validate", spec, "--storage-path", "elsewhere"], capsys)[0] == 0


@pytest.mark.slow
def test_a_resume_with_other_settings_is_refused_naming_them(local_machine: Path, capsys) -> None:
    """A sweep keeps what it started as (its spec with its flags applied); a resume that changes any of it
    but where its files and records are and what a trial asks of a node (``MAY_CHANGE_ON_RESUME``) is
    refused, naming what changed: its figures would count another sweep than the one that ran."""
    path = quickstart_spec(local_machine)
    spec = load_spec(path)
    kept = PrivateSweepState(spec.storage_path, spec.name)
    assert kept.started_as(resumable_identity(spec, None, data_of(spec))) is None
    assert run(["validate", str(path), "--resume"], capsys)[0] == 0
    for flags, changed in [
        (["--epsilon", "1.5"], "privacy.epsilon: 1.0 then, 1.5 now"),
        (["--trials", "7"], "budget.trials_per_method: 3 then, 7 now"),
        (["--method", "dpsgd"], "methods."),
    ]:
        code, out, err = run(["validate", str(path), "--resume", *flags], capsys)
        assert code == 2 and out == "" and err.startswith("dptune: error: --resume: "), err
        assert changed in err and "resume it with the spec and flags it started with" in err, err
    doc = yaml.safe_load(path.read_text())
    doc["resources"] = {"cpu": 2}
    doc["tracking"]["uri"] = f"sqlite:///{local_machine / 'moved.db'}"
    path.write_text(yaml.safe_dump(doc))
    assert run(["validate", str(path), "--resume"], capsys)[0] == 0


@pytest.mark.slow
def test_a_resume_that_gives_the_same_settings_another_way_is_accepted(
    local_machine: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    """What the spec reads, not how it is written: a store named by ``--tracking-uri`` where the spec has
    no ``tracking`` section, a ``budget`` section that held only what may change, a default written out,
    ``1e-5`` (which YAML reads as text), a relative data folder given from another working folder; a
    different seed is still refused."""
    doc = yaml.safe_load(quickstart_spec(local_machine).read_text())
    del doc["tracking"]
    doc |= {"budget": {"max_concurrent": 2}, "search": {"seed": 0}}
    doc["dataset"]["root"] = "data"
    (local_machine / "data").mkdir()
    started = local_machine / "started.yaml"
    started.write_text(yaml.safe_dump(doc))
    spec = load_spec(started)
    kept = PrivateSweepState(spec.storage_path, spec.name)
    assert kept.started_as(resumable_identity(spec, None, data_of(spec))) is None
    elsewhere = local_machine / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    again = copy.deepcopy(doc)
    del again["budget"]
    again["search"]["sampler"] = "tpe"
    again["dataset"]["root"] = "../data"
    again["storage_path"] = str(local_machine / "ray_results")
    resumed = elsewhere / "resumed.yaml"
    resumed.write_text(yaml.safe_dump(again).replace("1.0e-05", "1e-5"))
    assert "delta: 1e-5" in resumed.read_text()
    store = ["--tracking-uri", f"sqlite:///{local_machine / 'mlflow.db'}"]
    code, _, err = run(["validate", str(resumed), "--resume", *store], capsys)
    assert code == 0, err
    again["search"]["seed"] = 1
    resumed.write_text(yaml.safe_dump(again))
    code, _, err = run(["validate", str(resumed), "--resume", *store], capsys)
    assert code == 2 and "search.seed: 0 then, 1 now" in err, err
    again |= {"search": {"seed": 0}, "dataset": doc["dataset"]}  # "data" now names another folder
    (elsewhere / "data").mkdir()
    resumed.write_text(yaml.safe_dump(again))
    code, _, err = run(["validate", str(resumed), "--resume", *store], capsys)
    assert code == 2 and f"dataset.root: '{local_machine / 'data'}' then" in err, err


@pytest.mark.slow
def test_a_pipeline_resumed_with_its_methods_in_another_order_is_accepted(
    local_machine: Path, capsys
) -> None:
    """The plans of a sweep whose ε includes its tuning compared method by method: the spec's order of
    methods is not part of what the sweep is."""
    path = quickstart_spec(
        local_machine, **{"privacy.includes_tuning": True, "privacy.release": "per_method"}
    )
    spec = load_spec(path)
    (sweep,) = spec_mode(spec, planned(spec, train_size(spec.shared.dataset, None, 10000))).sweeps()
    kept = PrivateSweepState(spec.storage_path, sweep.spec.name)
    assert kept.started_as(resumable_identity(sweep.spec, sweep.plan_text(), data_of(sweep.spec))) is None
    doc = yaml.safe_load(path.read_text())
    doc["methods"] = dict(reversed(doc["methods"].items()))
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    code, _, err = run(["validate", str(path), "--resume"], capsys)
    assert code == 0, err
    doc["privacy"]["tuning_share"] = 0.3
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    code, _, err = run(["validate", str(path), "--resume"], capsys)
    assert code == 2 and "privacy.tuning_share: 0.25 then, 0.3 now" in err, err


def test_two_json_documents_differ_where_a_value_does() -> None:
    then = {"a": {"b": 1, "c": [1, 2]}, "d": "x"}
    assert differing(then, then) == []
    now = {"a": {"b": 1.0, "c": [1, 3]}, "e": 0}
    assert differing(then, now) == [("a.c[1]", 2, 3), ("d", "x", None), ("e", None, 0)]
    assert differing([{"s": 2.0}], [{"s": 2.0 * (1 + 1e-12)}], tolerance=1e-9) == []
    assert differing([{"s": 2.0}], [{"s": 2.0 * (1 + 1e-6)}], tolerance=1e-9) == [("[0].s", 2.0, 2.000002)]
    assert differing([1, 2], [1, 2, 3]) == [("", [1, 2], [1, 2, 3])]
    assert differing({"a": float("nan")}, {"a": float("nan")}) == []


@pytest.mark.slow
def test_a_resume_with_another_list_of_totals_is_refused(local_machine: Path, capsys) -> None:
    """Each ε's sweep keeps the spec's whole list of targets: the held-out noise and a warm start from the
    previous ε depend on it, so a sweep of the list [1, 3] is not resumed as one of [1, 3, 8] or [1, 8]."""
    path = quickstart_spec(local_machine, **{"privacy.epsilon": [1.0, 3.0]})
    for sweep in spec_mode(load_spec(path)).sweeps():
        kept = PrivateSweepState(sweep.spec.storage_path, sweep.spec.name)
        assert kept.started_as(resumable_identity(sweep.spec, None, data_of(sweep.spec))) is None
    assert run(["validate", str(path), "--resume"], capsys)[0] == 0
    for totals in (["1", "3", "8"], ["1", "8"]):
        code, _, err = run(["validate", str(path), "--resume", *(f"--epsilon={e}" for e in totals)], capsys)
        assert code == 2 and "started with other settings (privacy.epsilon" in err, err


def test_resuming_a_sweep_an_earlier_dptune_ran_per_method_is_refused(local_machine: Path, capsys) -> None:
    """Before every method shared one Tune run per sweep, each had its own folder: resuming such a sweep
    here would start every search anew, so it is refused, naming the methods found."""
    spec = str(quickstart_spec(local_machine))
    older = local_machine / "ray_results" / "quickstart" / "dpsgd"
    older.mkdir(parents=True)
    (older / "tuner.pkl").touch()
    code, _, err = run(["validate", spec, "--resume"], capsys)
    assert (
        code == 2 and err.startswith("dptune: error: --resume: ") and "one Tune run per method: dpsgd" in err
    )


def test_validate_leaves_a_cluster_to_ray(
    local_machine: Path, monkeypatch: pytest.MonkeyPatch, capsys
) -> None:
    """A driver that joins a cluster (``RAY_ADDRESS``) finds its GPU nodes only once Ray starts (a
    listening loopback port stands in for the cluster's address: it answers)."""
    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        monkeypatch.setenv("RAY_ADDRESS", f"127.0.0.1:{listening.getsockname()[1]}")
        assert run(["validate", str(quickstart_spec(local_machine, **{"resources.gpu": 1}))], capsys)[0] == 0


def test_a_plain_db_path_is_a_sqlite_store(tmp_path: Path) -> None:
    (tmp_path / "runs").mkdir()
    (tmp_path / "store.sqlite").touch()
    assert resolve_tracking_uri("results/mlflow.db", tmp_path) == f"sqlite:///{tmp_path}/results/mlflow.db"
    assert resolve_tracking_uri("store.sqlite", tmp_path) == f"sqlite:///{tmp_path}/store.sqlite"
    assert resolve_tracking_uri(str(tmp_path / "a.db"), Path("/")) == f"sqlite:///{tmp_path}/a.db"
    for plain in ("runs", "mlruns"):  # a directory, a new path that is not a .db file
        with pytest.raises(InputError) as info:
            resolve_tracking_uri(plain, tmp_path, "--tracking-uri")
        assert info.value.field == "--tracking-uri" and ".db" in info.value.problem


@pytest.mark.parametrize("command", ["report", "run", "validate"])
def test_a_directory_as_tracking_uri_is_one_line(command: str, local_machine: Path, capsys) -> None:
    (local_machine / "runs").mkdir()
    argv = [
        command,
        *([str(quickstart_spec(local_machine))] if command != "report" else []),
        "--tracking-uri",
        "runs",
    ]
    code, out, err = run(argv, capsys)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert err.startswith("dptune: error: --tracking-uri: runs is a directory") and "runs/mlflow.db" in err


@pytest.mark.slow
def test_report_reads_a_plain_db_path(local_machine: Path, capsys) -> None:
    MlflowClient(f"sqlite:///{local_machine / 'store.db'}").search_experiments()  # an empty store
    code, out, _ = run(["report", "--tracking-uri", "store.db"], capsys)
    assert code == 0 and out.strip() == f"no finished trials in sqlite:///{local_machine / 'store.db'}"


@pytest.mark.parametrize("uri", ["junk.db", "file:///nowhere/mlruns"])
def test_a_store_mlflow_cannot_read_is_one_line(uri: str, local_machine: Path, capsys) -> None:
    (local_machine / "junk.db").write_text("not a database")
    code, out, err = run(["report", "--tracking-uri", uri], capsys)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1, err
    assert err.startswith("dptune: error: --tracking-uri: cannot read the MLflow store at")


def test_train_config_is_the_run_dptune_train_trains() -> None:
    from dptune.cli import train_config
    from dptune.training.config import RunConfig

    argv = [
        "--method", "dp-pmlf", "--epsilon", "3.0", "--delta", "1e-05", "--batch-size", "2048",
        "--effective-lr", "9.47867594863468", "--clip", "0.06787867621502348",
        "--param", "a=-0.5621823281068762", "--param", "b=0.25676551435381134,0.18105215753931247",
        "--param", "filter=first-order", "--param", "k=1",
    ]  # fmt: skip
    run = train_config(argv)
    expected = RunConfig(
        method="dp-pmlf",
        epsilon=3.0,
        delta=1e-5,
        batch_size=2048,
        effective_lr=9.47867594863468,
        clip=0.06787867621502348,
        params={
            "a": [-0.5621823281068762],
            "b": [0.25676551435381134, 0.18105215753931247],
            "filter": "first-order",
            "k": 1,
        },
    )
    assert run.method_params == expected.method_params
    assert run.learning_rate == expected.learning_rate == 9.47867594863468 / 0.06787867621502348
    assert (run.epochs, run.model, run.dataset, run.sampling) == (10, "cnn5", "fashion-mnist", "poisson")
    with pytest.raises(InputError, match="effective-lr"):
        train_config(["--method", "dpsgd", "--epsilon", "1", "--lr", "0.1", "--effective-lr", "2"])
