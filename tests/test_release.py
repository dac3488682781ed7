"""What a sweep releases, end to end through ``dptune run`` (real Ray, MLflow on SQLite, the digits
data): a pipeline whose ε includes the tuning prints its plan first and its release as the last line's
JSON; the model loads from the Model Registry and scores on the final test what the run reported; the
run's artifacts are the model and its privacy card, nothing of the generator; the stored plan recomposes
within the total (a per-run sweep's re-runs, released the same way: ``tests/test_sweep.py``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import ray
import torch
from mlflow.tracking import MlflowClient
from ray.tune import ExperimentAnalysis

from dptune.engine.data import load_dataset
from dptune.sweep.plan import PLAN_ARTIFACT
from dptune.tracking import tracker_for
from dptune.tracking.names import ALL_RELEASES_ARTIFACT, FINAL_ROLE, PARENT_TAG, ROLE_TAG, SEARCH_ROLE
from dptune.training.trial_status import route
from dptune.tune.driver import STAGE_EXPERIMENT
from tests.sweep_helpers import released_model_holds_only_its_weights, runs, write_spec
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
    # the released model is said once, in the run's last block, leading with its accuracy
    (said,) = [i for i, line in enumerate(lines) if "final test at ε" in line]
    assert lines[said].split()[0] == f"{release['final_test_accuracy']:.2f}%" and said > len(lines) - 6
    assert 30 < release["final_test_accuracy"] <= 100

    uri = f"sqlite:///{tmp_path / 'mlflow.db'}"
    model = released_model_holds_only_its_weights(release["model_uri"], uri, tmp_path / "model")
    assert final_test_accuracy(model) == pytest.approx(release["final_test_accuracy"], abs=100 / 180 + 1e-9)

    client = MlflowClient(uri)
    parents, children = runs(uri, "total")
    (released,) = [r for r in children if r.data.tags.get("dptune.role") == "final"]
    assert {a.path for a in client.list_artifacts(released.info.run_id)} == {"privacy_card.json"}
    score = 100 * released.data.metrics["test_accuracy"]
    assert released.info.run_name == f"dpsgd release · {score:.1f}% · ε {release['epsilon']:.2f} incl. tuning"
    card = json.loads(Path(client.download_artifacts(released.info.run_id, "privacy_card.json")).read_text())
    assert card["epsilon"] == pytest.approx(release["epsilon"]) and card["includes_tuning"] is True
    assert card["plan"]["total_epsilon"] == TOTAL and "seed" not in card["settings"]
    assert "start points" in card["assumes"] and "outside this ε" in card["assumes"]  # what it does not cover

    (parent,) = parents
    plans = json.loads(Path(client.download_artifacts(parent.info.run_id, PLAN_ARTIFACT)).read_text())
    assert recomposed(plans[0]) <= TOTAL * (1 + DP_ACCOUNTING_SLACK)
    version = client.get_model_version("total.dpsgd", release["model_uri"].rsplit("/", 1)[1])
    assert float(version.tags["dptune.epsilon"]) == pytest.approx(release["epsilon"])
    assert f"Assumed: {card['assumes']}" in version.description
    first, *_ = tracker_for(uri).plot_context("total").stages  # the plot's title: what each stage spent
    assert first.startswith(f"total 3: 2 × ε_t {plans[0]['stages'][0]['per_run_epsilon']:.3g} (ε ")
    assert f'load one with: mlflow.pytorch.load_model("{release["model_uri"]}")' in done.stdout

    # the release trains after its tuning, alone: it held every CPU of the node, its trials one each
    trials = ExperimentAnalysis(str(tmp_path / "ray_results" / "total" / STAGE_EXPERIMENT)).trials
    asked = {bool(route(t.config).rerun): t.placement_group_factory.bundles[0]["CPU"] for t in trials}
    assert asked == {False: 1.0, True: float(ray._private.utils.get_num_cpus())}


def test_a_list_of_totals_tunes_on_secret_subsets_as_planned_and_counts_every_release(tmp_path: Path) -> None:
    """Fashion-MNIST (10,000 images: a subset of a quarter keeps 2,500), totals 2 and 6, 4 trials within
    one full run of tuning compute: each total's stage tunes on a secret subset of rate ¼; every tuning
    trial and every release trained with the σ and steps its stored plan writes out; the closing lines,
    the last JSON line and the last total's sweep run give the figure of releasing every model, between
    the largest release's and their sum."""
    totals = [2.0, 6.0]
    spec = write_spec(
        tmp_path,
        "totals",
        {"dpsgd": {"lr": {"loguniform": [0.1, 2.0]}}},
        dataset={"name": "fashion-mnist", "subset": 10000},
        training={"epochs": 1, "batch_size": 256, "lr": 1.0, "physical_batch_size": 256},
        privacy={"epsilon": totals, "delta": 1e-5, "includes_tuning": True},
        budget={"trials_per_method": 4, "max_concurrent": 2, "tuning_compute": 1.0},
        selection={},
        search={"sampler": "random"},
    )
    done = dptune_run(spec)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.strip().splitlines()
    last = json.loads(lines[-1])
    releases = last["releases"]
    assert sorted(r["total_epsilon"] for r in releases) == totals
    figure = last["all_releases"]
    assert max(r["epsilon"] for r in releases) < figure["epsilon"] < sum(r["epsilon"] for r in releases)
    assert figure["delta"] == 1e-5
    assert any(
        line.startswith("releasing them all") and f"ε ≤ {figure['epsilon']:.3f}" in line for line in lines
    )

    uri = f"sqlite:///{tmp_path / 'mlflow.db'}"
    client = MlflowClient(uri)
    parents, children = runs(uri, "totals")
    by_total = {float(p.data.tags["epsilon"]): p for p in parents}
    assert sorted(by_total) == totals
    stored = client.download_artifacts(by_total[6.0].info.run_id, ALL_RELEASES_ARTIFACT, str(tmp_path))
    assert json.loads(Path(stored).read_text())["epsilon"] == pytest.approx(figure["epsilon"])
    for total, parent in by_total.items():
        (plan,) = json.loads(Path(client.download_artifacts(parent.info.run_id, PLAN_ARTIFACT)).read_text())
        tuning, release = plan["stages"]
        assert tuning["subset_fraction"] == 0.25 and tuning["runs"] == 4, (total, tuning)
        trained = [c for c in children if c.data.tags[PARENT_TAG] == parent.info.run_id]
        roles = {SEARCH_ROLE: tuning, FINAL_ROLE: release}
        assert sorted(c.data.tags[ROLE_TAG] for c in trained) == [FINAL_ROLE] + [SEARCH_ROLE] * 4
        for child in trained:
            ((mechanism,),) = roles[child.data.tags[ROLE_TAG]]["mechanisms"]
            # the plan writes the smallest σ a run at its per-run ε can be calibrated to (a run lands within
            # 1% of ε below its target): what ran is that mechanism or a noisier one
            trained_sigma, planned_sigma = (
                child.data.metrics["noise_multiplier"],
                mechanism["noise_multiplier"],
            )
            assert planned_sigma <= trained_sigma <= 1.01 * planned_sigma, (child.data.tags[ROLE_TAG], total)
            assert child.data.metrics["steps"] == mechanism["steps"]
