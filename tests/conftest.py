"""Shared fixtures: every test in a temporary working folder; the real digits dataset (scikit-learn,
offline) loaded once; a local Ray. And the test tiers: a test on a real Ray is end to end, so it is in the
``slow`` tier (``make test-fast`` leaves it out; ``make test`` runs both: the tests that start no process
of their own, the fast tier and the modules marked ``in_process``, side by side, then the rest one at a
time)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import torch

import dptune.engine.features
from dptune.engine.data import load_dataset
from dptune.engine.dataset import Dataset

torch.set_num_threads(1)  # tests are small: a second thread barely helps, and beside a busy process its
# OpenMP barriers wait on a descheduled thread at every op (a float64 reference loop took minutes)
os.environ["HF_HUB_OFFLINE"] = "1"  # no hub from tests: models and data they load are ones they made
os.environ["HF_DATASETS_OFFLINE"] = "1"


@pytest.fixture(autouse=True)
def temporary_working_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test runs in its own temporary folder, so that whatever it or a library writes to a relative
    path (MLflow's ``./mlruns``, a spec's ``./ray_results``, ``sqlite:///mlflow.db``) stays out of the
    checkout; its caches (ScatterNet features) too, in this process and in the Ray workers it starts."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DPTUNE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(dptune.engine.features, "FEATURES_DIR", tmp_path / "cache" / "features")
    return tmp_path


@pytest.fixture(scope="session")
def digits() -> Dataset:
    return load_dataset("digits")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test that uses ``local_ray`` is marked ``slow`` (those that start a Ray of their own, a
    cluster or a ``dptune run`` process carry the mark themselves); one in a module marked ``in_process``
    (run beside other tests) is refused, since its Ray would share the cores with them."""
    for item in items:
        if "local_ray" in getattr(item, "fixturenames", ()):
            if item.get_closest_marker("in_process"):
                raise pytest.UsageError(f"{item.nodeid} starts a Ray: its module cannot be marked in_process")
            item.add_marker(pytest.mark.slow)


@pytest.fixture
def local_ray():
    """A local Ray with 4 CPUs and one declared GPU (scheduling only: no GPU is used). One per test: tests
    of their own Ray (other resources, a dead cluster left behind, a fresh driver) run between them. Ray is
    imported here, not at the top, so that the CUDA tests run where only torch and dptune's lower layers
    are installed (a lent GPU machine)."""
    import ray

    ray.init(num_cpus=4, num_gpus=1, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()
