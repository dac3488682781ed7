"""Builders for end-to-end sweep tests: small specs on the real digits data, stores read back."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import yaml
from mlflow.tracking import MlflowClient


def write_spec(folder: Path, name: str, methods: dict[str, Any], **sections: Any) -> Path:
    doc = {
        "name": name,
        "dataset": {"name": "digits"},
        "model": {"name": "mlp"},
        "privacy": {"epsilon": 2.0, "delta": 1.0e-4},
        "training": {"epochs": 2, "batch_size": 128, "lr": 1.0, "physical_batch_size": 128},
        "budget": {"trials_per_method": 2, "max_concurrent": 2},
        "resources": {"cpu": 1, "gpu": 0},
        "search": {"sampler": "tpe", "seed": 0},
        "selection": {"reruns": 0},
        "tracking": {"uri": f"sqlite:///{folder / 'mlflow.db'}", "experiment": name},
        "storage_path": str(folder / "ray_results"),
        "methods": methods,
    }
    for key, value in sections.items():
        doc[key] = value
    path = folder / f"{name}.yaml"
    path.write_text(yaml.safe_dump(doc))
    return path


def runs(uri: str, experiment: str) -> tuple[list, list]:
    """(parent runs, child runs) of an experiment."""
    client = MlflowClient(uri)
    exp = client.get_experiment_by_name(experiment)
    assert exp is not None, f"no experiment {experiment} in {uri}"
    everything = client.search_runs([exp.experiment_id], max_results=10000)
    children = [r for r in everything if "mlflow.parentRunId" in r.data.tags]
    parents = [r for r in everything if "mlflow.parentRunId" not in r.data.tags]
    return parents, children


def stores_beside(doc: dict[str, Any]) -> dict[str, Any]:
    """``doc`` with its Ray storage and its MLflow store in the folder of the spec file a test writes, not
    the repository's (which ``make quickstart`` fills)."""
    return doc | {
        "storage_path": "./ray_results",
        "tracking": doc["tracking"] | {"uri": "sqlite:///mlflow.db"},
    }


PER_RUN_YAML = Path(__file__).parents[1] / "sweeps" / "per-run.yaml"
QUICKSTART = stores_beside(yaml.safe_load(PER_RUN_YAML.read_text()) | {"name": "quickstart"})
"""The README's per-run example (``sweeps/per-run.yaml``: three methods at a per-run ε, two re-runs of each
selection), named as the quickstart was when it was the per-run sweep: the tests' base sweep."""


def quickstart_spec(folder: Path, **changes: Any) -> Path:
    """The per-run example spec (``QUICKSTART``) with ``changes`` (dotted paths), written into ``folder``."""
    doc = copy.deepcopy(QUICKSTART)
    for dotted, value in changes.items():
        node = doc
        *parents, last = dotted.split(".")
        for key in parents:
            node = node.setdefault(key, {})
        node[last] = value
    path = folder / "spec.yaml"
    path.write_text(yaml.safe_dump(doc))
    return path


MODEL_FILES = {
    "MLmodel",
    "conda.yaml",
    "python_env.yaml",
    "requirements.txt",
    "input_example.json",
    "serving_input_example.json",
    "registered_model_meta",
    "data/model.pt2",
    "classes.json",
    "code/dptune_released_model.py",
}
"""What MLflow's ``pt2`` model of a release holds: the exported graph and its metadata (the input example
is zeros of the images' shape), and its pyfunc's loader with the classes, input shape and pixel scale it
reads."""


def numbers(value: Any) -> list[float]:
    """Every number in a JSON value."""
    if isinstance(value, dict):
        return [n for v in value.values() for n in numbers(v)]
    if isinstance(value, list):
        return [n for v in value for n in numbers(v)]
    return [value] if isinstance(value, int | float) and not isinstance(value, bool) else []


def released_model_holds_only_its_weights(model_uri: str, uri: str, folder: Path) -> Any:
    """The model at ``model_uri``, after checking that its files are MLflow's ``pt2`` model alone and
    its tensors the digits MLP's parameters (nothing of a generator, no sample): the loaded model."""
    import mlflow
    import torch

    from dptune.engine.data import load_dataset
    from dptune.models import build_model

    mlflow.set_tracking_uri(uri)
    local = Path(mlflow.artifacts.download_artifacts(model_uri, dst_path=str(folder)))
    files = {str(p.relative_to(local)) for p in local.rglob("*") if p.is_file()}
    assert files == MODEL_FILES, files
    example = json.loads((local / "input_example.json").read_text())
    assert set(numbers(example)) == {0}  # zeros of the images' shape: no sample goes with the model
    model = mlflow.pytorch.load_model(model_uri)
    data = load_dataset("digits")
    reference = build_model("mlp", {}, data.train_x[:2], data.num_classes)
    shapes = {name: tuple(t.shape) for name, t in model.state_dict().items()}
    assert shapes == {name: tuple(p.shape) for name, p in reference.named_parameters()}, shapes
    with torch.no_grad():
        model(torch.zeros(3, *data.train_x.shape[1:]))
    # its pyfunc's description: the classes, the input shape and digits' public pixel constants, no more
    described = json.loads((local / "classes.json").read_text())
    assert described == {"classes": None, "shape": [1, 8, 8], "pixels": {"mean": [0.5], "std": [0.5]}}
    from sklearn.datasets import load_digits

    raw = (load_digits().images[:20] * (255.0 / 16.0)).astype("uint8")  # digits' images as dptune reads them
    with torch.no_grad():
        expected = model(((torch.from_numpy(raw).float() / 255 - 0.5) / 0.5)[:, None]).argmax(dim=1).tolist()
    assert mlflow.pyfunc.load_model(model_uri).predict(raw).tolist() == expected
    return model
