"""A driver whose working folder is deleted under it (a Ray job's working directory, extracted again when a
node joins): `dptune run` keeps absolute paths and leaves that folder, so the sweep ends whole."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.sweep_helpers import runs, write_spec


@pytest.mark.slow
def test_a_sweep_whose_working_folder_is_deleted_while_it_runs_ends_whole(tmp_path: Path) -> None:
    """The spec's folder stays; the folder `dptune run` started in is deleted once a trial has saved a
    checkpoint. The run exits 0 with its summary and the MLflow UI line, and the store holds every trial."""
    started_in = tmp_path / "job"
    started_in.mkdir()
    spec = write_spec(
        tmp_path,
        "moved",
        {"dpsgd": {"lr": {"loguniform": [0.1, 2.0]}}},
        budget={"trials_per_method": 4, "max_concurrent": 1},
        training={"epochs": 3, "batch_size": 128, "lr": 1.0, "physical_batch_size": 128},
    )
    with subprocess.Popen(
        [sys.executable, "-m", "dptune.cli", "run", str(spec)],
        cwd=started_in,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as driver:
        deadline = time.monotonic() + 300
        while not any((tmp_path / "ray_results").rglob("checkpoint_*")):
            assert driver.poll() is None and time.monotonic() < deadline, "no trial reported"
            time.sleep(0.5)
        shutil.rmtree(started_in)
        out, err = driver.communicate(timeout=600)
    assert driver.returncode == 0, err[-3000:]
    assert "review in the MLflow UI" in out
    _, children = runs(f"sqlite:///{tmp_path / 'mlflow.db'}", "moved")
    assert len([r for r in children if r.info.status == "FINISHED"]) >= 4
