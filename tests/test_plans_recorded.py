"""Every spec in ``sweeps/`` plans and bounds as recorded: a total ε's plans (every phase's mechanisms, ε
and δ, the composition, the epochs and compute) and a per-run spec's bound per method (its kind, trial
count and worst run's ε), to six significant digits, against ``plans_recorded.json``. A change that moves
any of them shows here; one made on purpose writes the record again, and says why in its commit:

    .venv/bin/python -m tests.test_plans_recorded --write
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

from dptune.base.errors import DataUnavailableError
from dptune.engine.data import published_train_size, train_size
from dptune.privacy.accounting import rdp_to_epsilon
from dptune.sweep.bound import bounded_searches
from dptune.sweep.ledger import PrivateSweepState
from dptune.sweep.pipeline import planned
from dptune.sweep.spec import load_spec
from dptune.training.calibrated_run import default_delta

pytestmark = pytest.mark.in_process  # starts no Ray, server or browser: `make test` runs it beside others

ROOT = Path(__file__).resolve().parents[1]
RECORD = Path(__file__).with_name("plans_recorded.json")


def rounded(value: Any) -> Any:
    if isinstance(value, float):
        return float(f"{value:.6g}")
    if isinstance(value, dict):
        return {k: rounded(v) for k, v in value.items()}
    if isinstance(value, list):
        return [rounded(v) for v in value]
    return value


def plans_and_bounds(path: Path) -> dict[str, Any]:
    """A total ε's plans, or a per-run spec's bound of each method in each of its sweeps."""
    spec = load_spec(path)
    shared = spec.shared
    try:
        n = train_size(shared.dataset, shared.data_root, shared.subset, shared.dataset_args)
    except DataUnavailableError:  # GLUE or CIFAR where no copy is (CI): the size they are published with
        published = published_train_size(shared.dataset)
        assert published is not None, f"{path}: no local copy of {shared.dataset} and no published size"
        n = published
    delta = shared.delta if shared.delta is not None else default_delta(n)
    if spec.includes_tuning is not None:
        return {"plans": rounded([plan.as_dict() for plan in planned(spec, n) or []])}
    rows = []
    for index in range(len(spec.epsilons)):
        for sweep in spec.sweeps_at(index):
            with tempfile.TemporaryDirectory() as folder:
                state = PrivateSweepState(folder, sweep.name)
                for search in bounded_searches(sweep.search_setup(), n, delta, state):
                    rows.append(
                        {
                            "sweep": sweep.name,
                            "method": search.method,
                            "bound": search.bound,
                            "trials": None if search.secret_count else search.trials,
                            "worst_run_epsilon": rounded(rdp_to_epsilon(search.worst, delta)),
                        }
                    )
    return {"bounds": rows}


SPECS = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "sweeps").rglob("*.yaml"))


@pytest.mark.slow  # plans full-data specs
@pytest.mark.parametrize("spec", SPECS)
def test_every_spec_in_sweeps_plans_and_bounds_as_recorded(spec: str) -> None:
    recorded = json.loads(RECORD.read_text())
    assert spec in recorded, f"{spec} is not recorded: write the record (module docstring)"
    assert plans_and_bounds(ROOT / spec) == recorded[spec]


if __name__ == "__main__" and sys.argv[1:] == ["--write"]:
    RECORD.write_text(json.dumps({s: plans_and_bounds(ROOT / s) for s in SPECS}, indent=1, sort_keys=True))
