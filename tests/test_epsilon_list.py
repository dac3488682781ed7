"""A spec across several ε: one sweep per target in one MLflow experiment, each ε warm-started from the
previous one, its figures counting the earlier sweeps, and the privacy of releasing the whole curve."""

from __future__ import annotations

from pathlib import Path

import optuna
import pytest
from dp_accounting import dp_event
from dp_accounting.rdp import RdpAccountant

from dptune.base.errors import InputError
from dptune.privacy.accounting import RDP_ORDERS
from dptune.sweep.spec import load_spec
from dptune.tune.driver import run_sweeps
from dptune.tune.studies import study_storage
from tests.helpers import subsampled_gaussian
from tests.sweep_helpers import runs, write_spec

METHODS = {"dpsgd": {"lr": {"loguniform": [0.05, 3.0]}}}


@pytest.mark.slow
def test_a_sweep_across_epsilon_warm_starts_each_target_and_counts_the_whole_curve(
    tmp_path: Path, local_ray
) -> None:
    path = write_spec(
        tmp_path,
        "curve",
        METHODS,
        privacy={"epsilon": [1.0, 4.0], "delta": 1.0e-4},
        search={"sampler": "random", "seed": 3, "warm_start": {"previous_epsilon": True, "top": 1}},
        selection={"reruns": 1},
    )
    spec = load_spec(path)
    lines: list[str] = []
    low, high = run_sweeps(spec, path.read_text(), echo=lines.append)

    # One experiment, one parent run per ε, each named for its target; each ε's runs spend at most it.
    parents, children = runs(spec.tracking_uri, "curve")
    assert sorted(p.data.tags["dptune.tune"] for p in parents) == ["curve.eps1", "curve.eps4"]
    for parent in parents:
        target = float(parent.data.params["epsilon"])
        mine = [c for c in children if c.data.tags["mlflow.parentRunId"] == parent.info.run_id]
        assert len(mine) == 3  # two trials and one re-run
        assert all(c.data.metrics["epsilon_spent"] <= target + 1e-9 for c in mine)
    assert {(row.method, row.epsilon_target) for row in low.best + high.best} == {
        ("dpsgd", 1.0),
        ("dpsgd", 4.0),
    }

    # ε = 4 began with the configuration ε = 1 released (its selected trial: the best validation score).
    first = optuna.load_study(study_name="dpsgd", storage=study_storage(spec.storage_path, "curve.eps1"))
    second = optuna.load_study(study_name="dpsgd", storage=study_storage(spec.storage_path, "curve.eps4"))
    best = max(first.trials, key=lambda t: t.value)
    assert min(second.trials, key=lambda t: t.number).params == best.params

    # ε = 4's figure adds ε = 1's whole figure to its own composition of two trials and a re-run, each
    # at its full plan (dp-accounting from what the runs reported).
    n = int(parents[0].data.params["train_size"])
    own = (
        RdpAccountant(list(RDP_ORDERS))
        .compose(
            dp_event.ComposedDpEvent(
                [subsampled_gaussian(r["noise_multiplier"], 128 / n, r["steps"]) for r in high.results]
            )
        )
        .get_epsilon(1e-4)
    )
    prior = low.tuning_cost.epsilon_including_tuning
    assert prior + own <= high.tuning_cost.epsilon_including_tuning <= prior + 1.02 * own

    # The closing lines: the curve (both targets) and the whole curve's privacy, which here is the last
    # sweep's figure (it already holds the first's), with both sweeps' δ.
    whole = next(line for line in lines if "releasing the whole curve" in line)
    assert f"ε ≤ {high.tuning_cost.epsilon_including_tuning:.3f}" in whole and "δ ≤ 0.0002" in whole
    hint = "ui --app-name dptune --backend-store-uri"
    assert any("review in the MLflow UI" in line and hint in line for line in lines)


def test_an_existing_epsilon_sweep_is_refused_before_anything_starts(tmp_path: Path) -> None:
    path = write_spec(tmp_path, "again", METHODS, privacy={"epsilon": [1.0, 4.0], "delta": 1.0e-4})
    spec = load_spec(path)
    (Path(spec.storage_path) / "again.eps4").mkdir(parents=True)
    with pytest.raises(InputError) as info:
        run_sweeps(spec, path.read_text(), echo=lambda line: None)
    assert "again.eps4" in str(info.value) and "--resume" in str(info.value)
    assert not (Path(spec.storage_path) / "again.eps1").exists()
    assert not (tmp_path / "mlflow.db").exists()
