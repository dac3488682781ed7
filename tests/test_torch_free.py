"""The command line starts without torch, Ray, Optuna or MLflow (``validate`` imports torch alone, to build
the models); a trial's and the step board's Ray actors import neither MLflow nor Optuna (the driver's);
and the torch-free names it reads (the RDP orders, the per-sample engines, the models) agree
with the torch-side registries they stand for."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from opacus.accountants import RDPAccountant

from dptune.engine import persample
from dptune.models import MODELS, networks
from dptune.privacy.accounting import RDP_ORDERS
from dptune.training import config
from tests.sweep_helpers import stores_beside

QUICKSTART = Path(__file__).parents[1] / "sweeps" / "quickstart.yaml"
HEAVY = ("torch", "ray", "mlflow", "optuna")


def heavy_modules_after(code: str, cwd: Path) -> list[str]:
    """The heavy libraries a fresh interpreter has imported after running ``code``."""
    probe = f"import json, sys\n{code}\nprint(json.dumps(sorted(m for m in {HEAVY!r} if m in sys.modules)))"
    proc = subprocess.run(
        [sys.executable, "-c", probe], cwd=cwd, capture_output=True, text=True, check=True, timeout=120
    )
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.slow
def test_importing_the_cli_and_the_spec_loads_no_heavy_library(tmp_path: Path) -> None:
    assert heavy_modules_after("import dptune.cli, dptune.sweep.spec", tmp_path) == []


@pytest.mark.slow
def test_a_trial_actor_and_the_step_board_import_none_of_the_drivers_libraries(tmp_path: Path) -> None:
    """What a Ray worker unpickles (the trainable, the board's actor class) leaves MLflow and Optuna to the
    driver: every trial slot pays its imports (``bench/startup_cost.py``)."""
    assert heavy_modules_after("import ray, dptune.tune.trainable", tmp_path) == ["ray", "torch"]
    assert heavy_modules_after("import dptune.tune.step_board", tmp_path) == ["ray"]


@pytest.mark.slow
def test_help_loads_no_heavy_library_and_validate_only_torch(tmp_path: Path) -> None:
    """``validate`` builds every model on two inputs of the data (torch), and starts nothing else."""
    helps = (
        "from dptune.cli import main\n"
        "for argv in (['--help'], ['train', '--help'], ['run', '--help']):\n"
        "    try:\n"
        "        main(argv)\n"
        "    except SystemExit:\n"
        "        pass\n"
    )
    assert heavy_modules_after(helps, tmp_path) == []
    spec = stores_beside(yaml.safe_load(QUICKSTART.read_text()))
    (tmp_path / "quickstart.yaml").write_text(yaml.safe_dump(spec))
    validate = "from dptune.cli import main\nassert main(['validate', 'quickstart.yaml']) == 0"
    assert heavy_modules_after(validate, tmp_path) == ["torch"]


def test_rdp_orders_are_opacus_default_orders() -> None:
    assert tuple(RDPAccountant.DEFAULT_ALPHAS) == RDP_ORDERS


def test_engine_names_are_the_per_sample_engines() -> None:
    assert tuple(persample.ENGINES) == config.ENGINES


def test_every_model_name_has_its_builder() -> None:
    assert all(callable(getattr(networks, builder)) for builder in MODELS.values())
