"""The command line contract: JSON output, and one-line errors with exit code 2 for bad input."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from dptune.cli import main

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
