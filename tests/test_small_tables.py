"""A user's own small table through a dataset factory (scikit-learn's breast-cancer table: 569 rows, 30
features up to 4,254, two classes): the edges of the data contract (``factory_dataset``), each refusal one
line naming ``dataset`` and its fix, and ``dptune train``'s defaults, which follow the data as
``dptune run``'s do (a batch the table holds, a private held-out split for the user's own records)."""

from __future__ import annotations

import json
import logging
import subprocess
from pathlib import Path

import numpy as np
import pytest
import torch
import yaml
from sklearn.datasets import load_breast_cancer

from dptune.base.errors import InputError
from dptune.cli import main, train_config
from dptune.engine.data import load_dataset
from dptune.engine.user_data import LARGE_INPUT, factory_dataset
from dptune.privacy.heldout import heldout_epsilon
from dptune.sweep.spec import parse_spec
from dptune.training.calibrated_run import default_delta
from tests.helpers import fresh_module
from tests.local_cluster import BIN
from tests.sweep_helpers import write_spec

SOURCE = """
import numpy as np
from sklearn.datasets import load_breast_cancer
from torch import nn


def cancer(names=False, objects=False, scale=None):
    bunch = load_breast_cancer()
    x = bunch.data.astype(np.float32) / (scale or 1.0)
    y = np.array(bunch.target_names)[bunch.target] if names else bunch.target
    y = y.astype(object) if objects else y
    order = np.random.default_rng(0).permutation(len(y))
    train, held = order[:398], order[398:]
    return {"train": (x[train], y[train]), "held_out": (x[held], y[held]), "num_classes": 2}


def with_nan():
    x = np.ones((40, 3), dtype=np.float32)
    x[7, 2] = np.nan
    return {"train": (x, np.arange(40) % 2), "held_out": (x[:10], np.arange(10) % 2), "num_classes": 2}


def given(**result):
    return result


def mlp(inputs=30, classes=2):
    return nn.Sequential(nn.Linear(inputs, 8), nn.Tanh(), nn.Linear(8, classes))
"""

TRAIN_ROWS = 398
"""The training rows of ``cancer`` (the rest, 171, are held out)."""


@pytest.fixture
def user_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A fresh module of factories (a new name per test) on the path."""
    return fresh_module(tmp_path, SOURCE, "tables", monkeypatch)


def refusal(module: str, train: tuple, held: tuple | None = None, classes: int = 2) -> InputError:
    """The error ``factory_dataset`` raises for a factory that returns these parts."""
    result = {"train": train, "held_out": held if held is not None else train, "num_classes": classes}
    with pytest.raises(InputError) as error:
        factory_dataset(f"{module}:given", result)
    assert error.value.field == "dataset" and "\n" not in str(error.value)
    return error.value


def test_string_labels_become_classes_in_sorted_order_and_the_mapping_is_stated(
    user_module: str, caplog: pytest.LogCaptureFixture
) -> None:
    bunch = load_breast_cancer()
    for objects in (False, True):  # numpy strings, and pandas' object arrays of them
        caplog.clear()
        data = load_dataset(f"{user_module}:cancer", args={"names": True, "objects": objects})
        assert data.label_names == ("benign", "malignant")  # sorted: "benign" < "malignant"
        numbered = load_dataset(f"{user_module}:cancer")  # the same rows with scikit-learn's own 0/1
        names = np.array(bunch.target_names)  # ['malignant', 'benign']: 0 is malignant there
        as_given = names[numbered.train_y.numpy()]
        assert [data.label_names[int(i)] for i in data.train_y] == as_given.tolist()
        assert len(data.val_y) + len(data.test_y) == len(bunch.target) - TRAIN_ROWS
        stated = [r.getMessage() for r in caplog.records if "sorted order" in r.getMessage()]
        assert len(stated) == 1 and "'benign' → 0, 'malignant' → 1" in stated[0]


def test_string_labels_that_name_another_number_of_classes_are_refused(user_module: str) -> None:
    x = np.zeros((6, 2), dtype=np.float32)
    error = refusal(user_module, (x, np.array(["a", "b", "c", "a", "b", "c"])))
    assert "name 3 classes" in error.problem and "num_classes=3" in error.problem
    error = refusal(user_module, (x, np.array(["a", "b"] * 3)), (x, np.arange(6) % 2))
    assert "strings in one part and integers in the other" in error.problem


def test_a_torch_dataset_of_string_labels_is_mapped_too(user_module: str) -> None:
    class Rows(torch.utils.data.Dataset):
        def __len__(self) -> int:
            return 6

        def __getitem__(self, i: int) -> tuple[torch.Tensor, str]:
            return torch.full((2,), float(i)), ["yes", "no"][i % 2]

    data = factory_dataset(
        f"{user_module}:given",
        {"train": Rows(), "held_out": (np.zeros((4, 2)), ["no", "yes"] * 2), "num_classes": 2},
    )
    assert data.label_names == ("no", "yes") and data.train_y.tolist() == [1, 0, 1, 0, 1, 0]


@pytest.mark.parametrize(
    ("inputs", "words"),
    [
        (np.array([[0.0, np.nan], [1.0, 2.0]] * 3), "hold 3 NaN and 0 infinite values"),
        (np.array([[0.0, np.inf], [1.0, -np.inf]] * 3), "hold 0 NaN and 6 infinite values"),
        (np.array([["0.5", "red"], ["0.1", "blue"]] * 3), "not numbers"),
        (np.array([[0.5, "red"], [0.1, "blue"]] * 3, dtype=object), "not numbers"),
        ([[0.5, 1.0], [0.1]] * 3, "whose rows have one shape"),
    ],
)
def test_inputs_that_are_not_finite_numbers_are_refused(user_module: str, inputs: object, words: str) -> None:
    error = refusal(user_module, (inputs, np.arange(6) % 2), (np.zeros((2, 2)), np.array([0, 1])))
    assert error.problem.startswith(f"{user_module}:given's training inputs ") and words in error.problem


def test_nan_inputs_name_where_and_how_to_fix(user_module: str) -> None:
    with pytest.raises(InputError) as error:
        factory_dataset(f"{user_module}:with_nan", {})
    assert "the first at row 7" in error.value.problem and "public constant" in error.value.problem


@pytest.mark.parametrize(
    ("labels", "held", "classes", "words"),
    [
        (np.array([1, 2] * 3), None, 2, "training labels run from 1 to 2, but must lie in 0…1"),
        (np.array([0, 1] * 3), np.array([0, 3]), 2, "held-out labels run from 0 to 3"),
        (np.array([-1, 0] * 3), None, 2, "run from -1 to 0"),
        (np.ones(6, dtype=np.int64), np.array([0, 1]), 2, "training labels are all one class (1)"),
        (np.array(["a"] * 6), np.array(["a", "b"]), 2, "training labels are all one class ('a')"),
        (np.array([0.0, 1.0] * 3), None, 2, "labels are floats (float64); give integers"),
        (np.array([0, 1] * 3).reshape(6, 1), None, 2, "shape [6], got (6, 1) (e.g. y.ravel())"),
        (np.array([0, "b"] * 3, dtype=object), None, 2, "labels mix types (int, str)"),
    ],
)
def test_labels_outside_the_classes_or_of_one_class_are_refused(
    user_module: str, labels: np.ndarray, held: np.ndarray | None, classes: int, words: str
) -> None:
    x = np.zeros((6, 2), dtype=np.float32)
    held_part = (x[: len(held)], held) if held is not None else None
    error = refusal(user_module, (x, labels), held_part, classes)
    assert words in error.problem, error.problem


def test_inputs_far_outside_a_normalised_range_are_trained_with_one_warning(
    user_module: str, caplog: pytest.LogCaptureFixture
) -> None:
    raw = factory_dataset(f"{user_module}:cancer", {})
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "\n" not in warnings[0].getMessage()
    said = warnings[0].getMessage()
    assert (
        f"beyond |x| = {LARGE_INPUT:g}" in said
        and "fixed public bounds" in said
        and "their own privacy" in said
    )
    assert "4254" not in said  # the private maximum is not printed
    assert float(raw.train_x.abs().max()) > LARGE_INPUT  # loaded as given: a warning, not a refusal
    caplog.clear()
    factory_dataset(f"{user_module}:cancer", {"scale": 5000.0})  # a public bound above every feature
    assert [r for r in caplog.records if r.levelno == logging.WARNING] == []


@pytest.mark.slow
def test_dptune_train_on_a_small_table_with_string_labels_takes_defaults_that_fit_it(
    user_module: str, tmp_path: Path
) -> None:
    """What the user of issue 69 ran, with no batch size: it trains on a batch the 398 rows hold, its
    held-out rows private as ``dptune run`` would take them, the label mapping and the scale each one line
    on stderr, not a traceback."""
    command = [str(BIN / "dptune"), "train", "--method", "dpsgd", "--epsilon", "1", "--epochs", "2"]
    command += ["--dataset", f"{user_module}:cancer", "--dataset-arg", "names=true"]
    command += ["--model", f"{user_module}:mlp", "--json"]
    done = subprocess.run(command, cwd=tmp_path / "code", capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    stderr = done.stderr.strip().splitlines()
    assert len(stderr) == 2, done.stderr
    assert "'benign' → 0, 'malignant' → 1" in stderr[0] and "fixed public bounds" in stderr[1]
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    assert summary["train_size"] == TRAIN_ROWS and summary["batch_size"] == TRAIN_ROWS // 4
    assert "held-out split: private (--validation private)" in done.stdout
    assert summary["validation_loss"] is None  # a private split's loss is never computed: null in JSON


def test_a_factory_whose_inputs_hold_nan_is_one_line_and_trains_nothing(
    user_module: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["train", "--method", "dpsgd", "--epsilon", "1", "--dataset", f"{user_module}:with_nan"]
    assert main([*argv, "--model", f"{user_module}:mlp", "--model-arg", "inputs=3"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1
    assert err.startswith(f"dptune: error: dataset: {user_module}:with_nan's training inputs hold 1 NaN")


def test_train_defaults_its_batch_to_a_share_of_the_training_set(user_module: str) -> None:
    base = ["--method", "dpsgd", "--epsilon", "1"]
    cancer = [*base, "--dataset", f"{user_module}:cancer", "--model", f"{user_module}:mlp"]
    assert train_config(cancer).batch_size == TRAIN_ROWS // 4  # 1000 would exceed the 398 rows
    digits = [*base, "--dataset", "digits", "--model", "mlp"]
    assert train_config(digits).batch_size == 1437 // 4
    assert train_config([*digits, "--subset", "2"]).batch_size == 1
    assert train_config([*base, "--dataset", "fashion-mnist"]).batch_size == 1000  # as before, at most 1000
    assert train_config([*cancer, "--batch-size", "64"]).batch_size == 64


def test_train_takes_the_held_out_split_as_run_does(user_module: str, tmp_path: Path) -> None:
    """A factory's held-out rows are private by default in a spec and in ``dptune train`` alike; a
    built-in dataset's public. Private, each score's noise is the least that keeps the run's one
    validation score and one final-test score (ε, δ)-DP for the held-out rows."""
    doc = yaml.safe_load(write_spec(tmp_path, "own", {"dpsgd": {"lr": 1.0}}).read_text())
    base = ["--method", "dpsgd", "--epsilon", "1", "--batch-size", "50"]
    cancer = [*base, "--dataset", f"{user_module}:cancer", "--model", f"{user_module}:mlp"]
    digits = [*base, "--dataset", "digits", "--model", "mlp"]
    assert parse_spec(doc, tmp_path).validation == "public"
    assert train_config(digits).heldout_noise is None
    doc["dataset"] = {"factory": f"{user_module}:cancer"}
    doc["model"] = {"factory": f"{user_module}:mlp"}
    assert parse_spec(doc, tmp_path).validation == "private"
    run = train_config(cancer)
    assert run.heldout_noise is not None and not run.validation_every_epoch
    delta = default_delta(TRAIN_ROWS)
    assert heldout_epsilon(1, run.heldout_noise, delta) == pytest.approx(1.0, rel=1e-6)
    assert heldout_epsilon(1, 0.98 * run.heldout_noise, delta) > 1.0  # and no more noise than that
    assert train_config([*cancer, "--validation", "public"]).heldout_noise is None
    assert train_config([*digits, "--validation", "private"]).heldout_noise is not None
    assert train_config([*cancer, "--heldout-noise", "7"]).heldout_noise == 7.0


def test_a_public_split_with_held_out_noise_is_refused(user_module: str, capsys) -> None:
    argv = ["train", "--method", "dpsgd", "--epsilon", "1", "--dataset", f"{user_module}:cancer"]
    argv += ["--model", f"{user_module}:mlp", "--validation", "public", "--heldout-noise", "3"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and err.startswith("dptune: error: --validation: ")
