"""Builders for end-to-end sweep tests: small specs on the real digits data, stores read back."""

from __future__ import annotations

import copy
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


QUICKSTART = yaml.safe_load((Path(__file__).parents[1] / "sweeps" / "quickstart.yaml").read_text())


def quickstart_spec(folder: Path, **changes: Any) -> Path:
    """The quickstart spec with ``changes`` (dotted paths), written into ``folder``."""
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
