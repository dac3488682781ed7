"""The user's own model and data from an import path (``package.module:function``): modules written by
the tests, checked against the arrays they return and a hand count of their parameters; every refusal
a one-line error naming the field. (A sweep of a user's model on a two-node Ray cluster, whose worker can
import the module only through Ray's runtime environment: ``tests/test_cluster.py``.)"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch
import yaml

from dptune.base import factories
from dptune.base.errors import InputError
from dptune.engine.data import load_dataset
from dptune.sweep.preflight import check_models, preflight
from dptune.sweep.spec import parse_spec
from dptune.training.config import RunConfig
from dptune.training.train import Trainer
from tests.helpers import fresh_module
from tests.local_cluster import BIN
from tests.sweep_helpers import write_spec

ROOT = Path(__file__).parents[1]

SOURCE = """
import numpy as np
import torch
from torch import nn


def vectors(n=300, held=100, features=12, as_dataset=False):
    rng = np.random.default_rng(7)
    x = rng.normal(size=(n + held, features)).astype(np.float32)
    y = (x[:, 0] > 0).astype(np.int64) + 2 * (x[:, 1] > 0).astype(np.int64)
    train, rest = (x[:n], y[:n]), (x[n:], y[n:])
    if as_dataset:
        train = torch.utils.data.TensorDataset(torch.from_numpy(train[0]), torch.from_numpy(train[1]))
    return {"train": train, "held_out": rest, "num_classes": 4}


def mlp(inputs=12, hidden=16, classes=4):
    return nn.Sequential(nn.Linear(inputs, hidden), nn.Tanh(), nn.Linear(hidden, classes))


def batchnorm(inputs=12, classes=4):
    return nn.Sequential(nn.Linear(inputs, 8), nn.BatchNorm1d(8), nn.Linear(8, classes))


class Tied(nn.Module):
    def __init__(self, inputs=12, classes=4):
        super().__init__()
        self.fc = nn.Linear(inputs, classes)
        self.back = nn.Linear(classes, classes)

    def forward(self, x):
        h = torch.tanh(self.fc(x))
        return self.back(torch.tanh(torch.nn.functional.linear(h, self.fc.weight[:, :4])))


def tied(inputs=12, classes=4):
    return Tied(inputs, classes)


def not_a_module():
    return "a string"


def wrong_outputs(inputs=12):
    return nn.Linear(inputs, 3)


def counted(log, when=None):
    if when is not None and type(when).__name__ != "date":
        raise TypeError(f"when is a {type(when).__name__}, not the date the spec gave")
    with open(log, "a") as calls:
        calls.write("called\\n")
    return vectors()


def bad_data():
    return {"train": ([[0.0]], [0]), "held_out": ([[0.0]], [0])}
"""


@pytest.fixture
def user_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """A fresh module (a new name per test: nothing cached in ``sys.modules``) on the path."""
    return fresh_module(tmp_path, SOURCE, "usercode", monkeypatch)


def run_config(module: str, **overrides: object) -> RunConfig:
    values = {
        "method": "dpsgd",
        "epsilon": 2.0,
        "dataset": f"{module}:vectors",
        "model": f"{module}:mlp",
        "model_args": {"hidden": 16},
        "epochs": 2,
        "batch_size": 60,
        "lr": 1.0,
        "seed": 0,
    }
    return RunConfig(**(values | overrides))


def test_a_dataset_factory_gives_its_arrays_and_the_held_out_split(user_module: str) -> None:
    data = load_dataset(f"{user_module}:vectors", args={"n": 300, "held": 100})
    module = sys.modules[user_module]
    given = module.vectors(n=300, held=100)
    np.testing.assert_array_equal(data.train_x.numpy(), given["train"][0])
    np.testing.assert_array_equal(data.train_y.numpy(), given["train"][1])
    assert data.num_classes == 4 and len(data.val_y) == len(data.test_y) == 50
    held = {tuple(row) for row in given["held_out"][0].tolist()}
    split = {tuple(row) for row in torch.cat([data.val_x, data.test_x]).tolist()}
    assert split == held  # validation and final test partition the held-out rows
    as_dataset = load_dataset(f"{user_module}:vectors", args={"as_dataset": True})
    torch.testing.assert_close(as_dataset.train_x, load_dataset(f"{user_module}:vectors").train_x)


def test_a_model_factory_is_built_with_its_arguments_and_trains(user_module: str) -> None:
    trainer = Trainer(run_config(user_module, model_args={"hidden": 5}))
    layers = [m for m in trainer.flat.model.modules() if isinstance(m, torch.nn.Linear)]
    assert [(m.in_features, m.out_features) for m in layers] == [(12, 5), (5, 4)]
    assert trainer.theta.numel() == 12 * 5 + 5 + 5 * 4 + 4  # the hand count of the user's MLP
    for _ in range(2):
        trainer.train_epoch()
    summary = trainer.summary()
    assert summary["model"] == f"{user_module}:mlp" and summary["train_size"] == 300
    assert summary["epsilon_spent"] <= 2.0


def test_a_model_that_reads_a_weight_outside_its_layer_trains_on_vmap_and_ghost_is_refused(
    user_module: str,
) -> None:
    """The ghost engine would leave that use out of every gradient: the check before training sends
    ``auto`` to vmap (the record says why) and refuses an explicit ``ghost`` in one line."""
    trainer = Trainer(run_config(user_module, model=f"{user_module}:tied", model_args={}, epochs=1))
    assert trainer.engine.name == "vmap"
    trainer.train_epoch()
    assert trainer.summary()["engine"].startswith("vmap (auto: the ghost engine failed its check")
    with pytest.raises(InputError, match=r"^engine: ghost is wrong for this model.*own layer$"):
        Trainer(run_config(user_module, model=f"{user_module}:tied", model_args={}, engine="ghost"))
    plain = Trainer(run_config(user_module, epochs=1))
    assert plain.engine.name == "ghost" and "checked against autograd" in plain.engine.choice


def test_a_users_factories_are_imported_once_per_process_not_once_per_trial(
    user_module: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    imports: list[str] = []
    real = importlib.import_module
    monkeypatch.setattr(
        factories.importlib, "import_module", lambda name, *a: imports.append(name) or real(name, *a)
    )
    run = run_config(user_module)
    for lr in (0.5, 1.0, 2.0):  # what a sweep does for each trial's knobs
        assert run.with_knobs({"lr": lr}).lr == lr
    assert imports == [user_module] * 2  # the model's and the dataset's factory, once each
    with pytest.raises(InputError, match="cannot import"):  # a failure is not remembered
        run_config(user_module, model=f"{user_module}_missing:mlp")
    with pytest.raises(InputError, match="cannot import"):
        run_config(user_module, model=f"{user_module}_missing:mlp")
    assert imports[2:] == [f"{user_module}_missing"] * 2


@pytest.mark.parametrize(
    ("overrides", "field", "words"),
    [
        ({"model": "no_such_module_xyz:mlp"}, "model", "cannot import no_such_module_xyz"),
        ({"model": "{m}:missing"}, "model", "has no function 'missing'"),
        ({"model": "{m}:not_a_module", "model_args": {}}, "model", "must return a torch.nn.Module"),
        ({"model": "{m}:batchnorm", "model_args": {}}, "model", "ModuleValidator.fix(...) of it"),
        ({"model": "{m}:wrong_outputs", "model_args": {}}, "model", "needs [2, 4]"),
        ({"model": "{m}:mlp", "model_args": {"width": 3}}, "model", "unexpected keyword argument"),
        ({"model": "cnn5", "model_args": {}}, "model", "give a model factory"),
        ({"dataset": "{m}:bad_data"}, "dataset", "must return {'train'"),
        ({"dataset": "not a path"}, "dataset", "one of fashion-mnist"),
    ],
)
def test_what_does_not_fit_is_refused_in_one_line_naming_the_field(
    user_module: str, overrides: dict, field: str, words: str
) -> None:
    values = {k: v.format(m=user_module) if isinstance(v, str) else v for k, v in overrides.items()}
    with pytest.raises(InputError) as error:
        check_models(run_config(user_module, **values))
    assert error.value.field == field
    assert words in str(error.value) and "\n" not in str(error.value)


@pytest.mark.slow
def test_dptune_train_takes_factories_and_their_arguments_from_the_working_folder(
    user_module: str, tmp_path: Path
) -> None:
    command = [str(BIN / "dptune"), "train", "--method", "dpsgd", "--epsilon", "2", "--epochs", "2"]
    command += ["--batch-size", "60", "--dataset", f"{user_module}:vectors", "--json"]
    command += ["--model", f"{user_module}:mlp", "--model-arg", "hidden=7", "--dataset-arg", "n=240"]
    done = subprocess.run(command, cwd=tmp_path / "code", capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    summary = json.loads(done.stdout.strip().splitlines()[-1])
    assert summary["train_size"] == 240 and summary["model"] == f"{user_module}:mlp"
    bad = subprocess.run(
        [*command[:-4], "--model", f"{user_module}:batchnorm"],
        cwd=tmp_path / "code",
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1, bad.stderr
    assert bad.stderr.startswith("dptune: error: model:") and "ModuleValidator.fix" in bad.stderr


def test_a_spec_names_factories_with_arguments_and_refuses_name_beside_factory(
    user_module: str, tmp_path: Path
) -> None:
    doc = yaml.safe_load(write_spec(tmp_path, "own", {"dpsgd": {"lr": {"loguniform": [0.5, 2]}}}).read_text())
    doc["dataset"] = {"factory": f"{user_module}:vectors", "args": {"n": 200}}
    doc["model"] = {"factory": f"{user_module}:mlp", "args": {"hidden": 9}}
    run = parse_spec(doc, tmp_path).runs["dpsgd"]
    assert (run.dataset, run.dataset_args) == (f"{user_module}:vectors", {"n": 200})
    assert (run.model, run.model_args) == (f"{user_module}:mlp", {"hidden": 9})
    for section, value, words in [
        ("model", {"name": "mlp", "factory": f"{user_module}:mlp"}, "not both"),
        ("model", {"factory": "no colon"}, "import path"),
        ("dataset", {"factory": "absent_pkg_q:vectors"}, "cannot import absent_pkg_q"),
        ("model", {"factory": f"{user_module}:mlp", "args": [1]}, "must be a mapping"),
        ("model", {"name": "mlp", "args": {"hidden": 3}}, "only a model factory"),
    ]:
        with pytest.raises(InputError) as error:
            parse_spec(doc | {section: value}, tmp_path)
        assert error.value.field.startswith(section) and words in str(error.value)


def test_preflight_builds_every_model_a_method_may_draw(user_module: str, tmp_path: Path) -> None:
    doc = yaml.safe_load(write_spec(tmp_path, "own", {"dpsgd": {"lr": 1.0}}).read_text())
    doc["dataset"] = {"factory": f"{user_module}:vectors"}
    doc["model"] = {"factory": f"{user_module}:mlp"}
    doc["methods"] = {"dpsgd": {"model": {"choice": [f"{user_module}:mlp", f"{user_module}:batchnorm"]}}}
    doc["training"]["batch_size"] = 60
    with pytest.raises(InputError) as error:
        preflight(parse_spec(doc, tmp_path), resume=False)
    assert error.value.field == "model" and "ModuleValidator.fix" in str(error.value)
    doc["methods"]["dpsgd"]["model"] = {"choice": [f"{user_module}:mlp", f"{user_module}:wrong_outputs"]}
    with pytest.raises(InputError, match="needs \\[2, 4\\]"):
        preflight(parse_spec(doc, tmp_path), resume=False)
    doc["methods"]["dpsgd"]["model"] = {"choice": [f"{user_module}:mlp"]}
    assert preflight(parse_spec(doc, tmp_path), resume=False) == 300


def test_a_sweep_calls_its_dataset_factory_once(user_module: str, tmp_path: Path) -> None:
    """``dptune run`` checks the user's code (``preflight``) and then loads the sweep's data
    (``sweep_data``): one call of the factory for both, its arguments as the spec gives them (a YAML
    date stays a date); other arguments call it again."""
    from dptune.tune.startup import sweep_data

    log = tmp_path / "calls.txt"
    doc = yaml.safe_load(write_spec(tmp_path, "own", {"dpsgd": {"lr": 1.0}}).read_text())
    args = yaml.safe_load(f"{{log: {log}, when: 2026-11-24}}")
    doc["dataset"] = {"factory": f"{user_module}:counted", "args": args}
    doc["model"] = {"factory": f"{user_module}:mlp"}
    doc["training"]["batch_size"] = 60
    spec = parse_spec(doc, tmp_path)
    assert preflight(spec, resume=False) == 300
    assert len(sweep_data(spec).train_y) == 300
    assert log.read_text().splitlines() == ["called"]
    doc["dataset"]["args"]["log"] = str(tmp_path / "other.txt")
    sweep_data(parse_spec(doc, tmp_path))
    assert (tmp_path / "other.txt").read_text().splitlines() == ["called"]
    assert log.read_text().splitlines() == ["called"]


@pytest.mark.slow
def test_the_shipped_example_spec_validates() -> None:
    done = subprocess.run(
        [str(BIN / "dptune"), "validate", str(ROOT / "sweeps" / "examples" / "own-code.yaml")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "valid" in done.stdout
