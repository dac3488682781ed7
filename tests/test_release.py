"""What a sweep releases, end to end through ``dptune run`` (real Ray, MLflow on SQLite, the digits
data): a pipeline whose ε includes the tuning prints its plan first and its release as the last line's
JSON; the model loads from the Model Registry and scores on the final test what the run reported; the
run's artifacts are the model and its privacy card, nothing of the generator; the stored plan recomposes
within the total; a per-run sweep's re-runs are released the same way."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import mlflow
import pytest
import torch
from mlflow.tracking import MlflowClient

from dptune.engine.data import load_dataset
from dptune.sweep.plan import PLAN_ARTIFACT
from tests.sweep_helpers import runs, write_spec
from tests.test_plan import DP_ACCOUNTING_SLACK, recomposed

pytestmark = pytest.mark.slow

TOTAL = 3.0


def dptune_run(spec: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "dptune.cli", "run", str(spec)],
        cwd=spec.parent,
        capture_output=True,
        text=True,
        timeout=900,
    )


def artifacts(client: MlflowClient, run_id: str, path: str = "") -> list[str]:
    """Every artifact file of a run, by path."""
    found = []
    for item in client.list_artifacts(run_id, path):
        found += artifacts(client, run_id, item.path) if item.is_dir else [item.path]
    return found


def final_test_accuracy(model: torch.nn.Module) -> float:
    data = load_dataset("digits")
    with torch.no_grad():
        predicted = model(data.test_x).argmax(dim=1)
    return 100 * float((predicted == data.test_y).float().mean())


def test_a_pipeline_releases_a_registered_model_within_its_total(tmp_path: Path) -> None:
    spec = write_spec(
        tmp_path,
        "total",
        {"dpsgd": {"lr": {"loguniform": [0.1, 2.0]}}},
        privacy={"epsilon": TOTAL, "delta": 1e-4, "includes_tuning": True},
        budget={"trials_per_method": 2, "max_concurrent": 2},
        selection={},
        search={"sampler": "random"},
    )
    done = dptune_run(spec)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.strip().splitlines()
    assert lines[0].startswith("plan of every released model"), lines[:3]
    release = json.loads(lines[-1])
    assert release["epsilon"] <= TOTAL and release["delta"] == 1e-4
    assert 30 < release["final_test_accuracy"] <= 100

    uri = f"sqlite:///{tmp_path / 'mlflow.db'}"
    mlflow.set_tracking_uri(uri)
    model = mlflow.pytorch.load_model(release["model_uri"])
    assert final_test_accuracy(model) == pytest.approx(release["final_test_accuracy"], abs=100 / 180 + 1e-9)

    client = MlflowClient(uri)
    parents, children = runs(uri, "total")
    (released,) = [r for r in children if r.data.tags.get("dptune.role") == "final"]
    files = artifacts(client, released.info.run_id)
    assert "privacy_card.json" in files
    assert all(f == "privacy_card.json" or f.startswith("model/") for f in files), files
    assert not any("trainer_state" in f for f in files)
    card = json.loads(Path(client.download_artifacts(released.info.run_id, "privacy_card.json")).read_text())
    assert card["epsilon"] == pytest.approx(release["epsilon"]) and card["includes_tuning"] is True
    assert card["plan"]["total_epsilon"] == TOTAL and "seed" not in card["settings"]
    weights = set(model.state_dict())
    assert weights and all(name.split(".")[-1] in ("weight", "bias") for name in weights), weights

    (parent,) = parents
    plans = json.loads(Path(client.download_artifacts(parent.info.run_id, PLAN_ARTIFACT)).read_text())
    assert recomposed(plans[0]) <= TOTAL * (1 + DP_ACCOUNTING_SLACK)
    version = client.get_model_version("total.dpsgd", release["model_uri"].rsplit("/", 1)[1])
    assert float(version.tags["dptune.epsilon"]) == pytest.approx(release["epsilon"])


def test_a_per_run_sweep_releases_each_re_run_with_its_whole_search_counted(tmp_path: Path) -> None:
    spec = write_spec(
        tmp_path,
        "perrun",
        {"dpsgd": {"lr": {"loguniform": [0.1, 2.0]}}},
        budget={"trials_per_method": 2, "max_concurrent": 2},
        selection={"reruns": 1},
    )
    done = dptune_run(spec)
    assert done.returncode == 0, done.stderr[-3000:]
    uri = f"sqlite:///{tmp_path / 'mlflow.db'}"
    client = MlflowClient(uri)
    _, children = runs(uri, "perrun")
    (rerun,) = [r for r in children if r.data.tags.get("dptune.role") == "final"]
    model_uri = rerun.data.tags["dptune.released_model"]
    card = json.loads(Path(client.download_artifacts(rerun.info.run_id, "privacy_card.json")).read_text())
    assert card["epsilon"] > card["per_run_epsilon"]  # its search and re-run counted, not the run alone
    mlflow.set_tracking_uri(uri)
    accuracy = final_test_accuracy(mlflow.pytorch.load_model(model_uri))
    assert accuracy == pytest.approx(100 * rerun.data.metrics["test_accuracy"], abs=100 / 180 + 1e-9)
