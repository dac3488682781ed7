"""What a sweep releases, end to end through ``dptune run`` (real Ray, MLflow on SQLite, the digits
data): a pipeline whose ε includes the tuning prints its plan first and its release as the last line's
JSON; the model loads from the Model Registry and scores on the final test what the run reported; the
run's artifacts are the model and its privacy card, nothing of the generator; the stored plan recomposes
within the total (a per-run sweep's re-runs, released the same way: ``tests/test_sweep.py``)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
import ray
import torch
from dp_accounting import dp_event
from dp_accounting.pld import pld_privacy_accountant
from mlflow.tracking import MlflowClient
from ray.tune import ExperimentAnalysis

from dptune.engine.data import load_dataset
from dptune.methods.registry import METHODS
from dptune.privacy.compositions import PLD_COMPOSITION
from dptune.sweep.plan import PLAN_ARTIFACT
from dptune.sweep.results import PLACE_KNOBS, UNRECORDED, run_settings
from dptune.tracking import tracker_for
from dptune.tracking.names import (
    ALL_RELEASES_ARTIFACT,
    FINAL_ROLE,
    PARENT_TAG,
    ROLE_TAG,
    SEARCH_ROLE,
    TUNING_COST_ARTIFACT,
)
from dptune.training.config import KNOBS, RunConfig
from dptune.training.trial_status import OBJECTIVE, route
from dptune.tune.sweep_run import TUNE_RUN_NAME
from dptune.tune.trainable import PRIVATE_NONFINITE_KEY
from tests.sweep_helpers import released_model_holds_only_its_weights, runs, write_spec
from tests.test_plan import DP_ACCOUNTING_SLACK, pld_recomposed, recomposed

pytestmark = pytest.mark.slow

TOTAL = 3.0


PIPELINE = {
    "privacy": {"epsilon": TOTAL, "delta": 1e-4, "includes_tuning": True},
    "budget": {"trials_per_method": 2, "max_concurrent": 2},
    "selection": {},
    "search": {"sampler": "random"},
}
"""The sections of a small pipeline spec on digits: a total ε that includes 2 tuning trials per method."""


def pipeline_spec(folder: Path, name: str, methods: dict[str, Any], **sections: Any) -> Path:
    """``write_spec`` of a small pipeline (``PIPELINE``, with ``sections`` in place of its own)."""
    return write_spec(folder, name, methods, **(PIPELINE | sections))


def dptune_run(spec: Path, *flags: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "dptune.cli", "run", str(spec), *flags],
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


PRIVACY_PAGE = Path(__file__).parents[1] / "docs" / "privacy.md"
METHOD_PARAMETERS = {param.name for method in METHODS.values() for param in method.params}


def named_in(outputs: str, kind: str) -> list[str]:
    """The outputs a row names: every name in backticks (a model or a description: the kind itself)."""
    return re.findall(r"`([^`]+)`", outputs) if kind not in ("model", "version") else [kind]


def documented_outputs() -> dict[tuple[str, str], str]:
    """The privacy page's table of what a release run shows: (kind, name) -> public, counted or
    identifier; its row of 'every parameter of a method' stands for each parameter in the registry."""
    section = PRIVACY_PAGE.read_text().split("### What a release run shows", 1)[1].split("\n\n| output")[1]
    table: dict[tuple[str, str], str] = {}
    for row in section.split("\n\n")[0].splitlines()[2:]:
        outputs, kind, depends, _ = (cell.strip() for cell in row.strip("|").split("|"))
        named = re.findall(r"`([^`]+)`", outputs)[:1] if kind == "version alias" else named_in(outputs, kind)
        if "every parameter of a method" in outputs:
            named += sorted(METHOD_PARAMETERS)
        table |= {(kind, name): depends for name in named}
    return table


def release_outputs(client: MlflowClient, run_id: str, model_uri: str) -> dict[tuple[str, str], Any]:
    """Everything a release run and its registered version show, keyed as the privacy page's table."""
    run = client.get_run(run_id)
    name, version = model_uri.removeprefix("models:/").rsplit("/", 1)
    registered = client.get_model_version(name, version)
    shown: dict[tuple[str, str], Any] = {}
    shown |= {("param", k): v for k, v in run.data.params.items()}
    shown |= {("metric", k): v for k, v in run.data.metrics.items()}
    shown |= {("tag", k): v for k, v in run.data.tags.items()}
    shown |= {("artifact", a.path): a.file_size for a in client.list_artifacts(run_id)}
    shown |= {("version tag", k): v for k, v in registered.tags.items()}
    shown |= {("version", "version"): registered.description, ("model", "model"): registered.source}
    shown |= {("version alias", alias.split("-")[0]): alias for alias in registered.aliases}
    return shown


def undocumented(shown: dict[tuple[str, str], Any]) -> list[tuple[str, str]]:
    table = documented_outputs()
    return sorted(key for key in shown if key not in table)


def test_the_privacy_pages_table_of_release_outputs_names_each_kind_of_output() -> None:
    """Every kind of output is in the table, and every setting a run can record as a param."""
    table = documented_outputs()
    run = RunConfig(method="dpsgd", dataset="digits", model="mlp", epsilon=1.0)
    recordable = set(run_settings(run, 1e-5))
    recordable |= set(KNOBS) - set(PLACE_KNOBS) - set(UNRECORDED) | {"dataset_args", "model_args"}
    assert not sorted(("param", name) for name in recordable if ("param", name) not in table)
    kinds = {"param", "metric", "tag", "artifact", "model", "version tag", "version", "version alias"}
    assert {kind for kind, _ in table} == kinds
    assert set(table.values()) == {"public", "counted", "identifier"}
    assert ("metric", "test_accuracy") in table and ("param", "beta") in table
    assert not [key for key in table if "nonfinite" in key[1] or key[1] == "seed"]


def test_a_pipeline_releases_a_registered_model_within_its_total(tmp_path: Path) -> None:
    spec = pipeline_spec(tmp_path, "total", {"dpsgd": {"lr": {"loguniform": [0.1, 2.0]}}})
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
    score, std = (released.data.metrics.get(k) for k in ("test_accuracy", "test_accuracy_std"))
    noise = "" if std is None else f" ± {100 * std:.2g}"  # a private split's noise, in points
    shown = f"{100 * score:.1f}%{noise}"
    assert released.info.run_name == f"dpsgd release · {shown} · ε {release['epsilon']:.2f} incl. tuning"
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
    first, *_ = tracker_for(uri).plot_context("total").phases  # the plot's title: what each phase spent
    assert first.startswith(f"total 3: 2 × ε_t {plans[0]['stages'][0]['per_run_epsilon']:.3g} (ε ")
    # the version carries the alias of its total: models:/NAME@total-3 loads the model published at it
    assert client.get_model_version_by_alias("total.dpsgd", "total-3").version == version.version
    assert 'load one with: mlflow.pytorch.load_model("models:/total.dpsgd@total-3")' in done.stdout
    # every param, metric, tag and artifact of the release run and its registered version is in the privacy
    # page's table of outputs, with what it depends on
    assert not undocumented(release_outputs(client, released.info.run_id, release["model_uri"]))

    # the release trains after its tuning, alone: it held every CPU of the node, its trials one each
    trials = ExperimentAnalysis(str(tmp_path / "ray_results" / "total" / TUNE_RUN_NAME)).trials
    asked = {bool(route(t.config).rerun): t.placement_group_factory.bundles[0]["CPU"] for t in trials}
    assert asked == {False: 1.0, True: float(ray._private.utils.get_num_cpus())}

    # A resume is the sweep that ran: at another total its figures would count a plan that did not run
    # (a release at ε_B of total 3 stated at 1.5), so it is refused before anything starts; and a sweep
    # planned differently now than when it started (here: its kept plan altered) once it plans.
    state = tmp_path / "ray_results" / "total" / "private_state.json"
    before = state.read_bytes()
    refused = dptune_run(spec, "--resume", "--epsilon", "1.5")
    assert refused.returncode == 2 and refused.stdout == "", refused.stdout
    assert refused.stderr.startswith("dptune: error: --resume: sweep 'total' started with other settings")
    assert "privacy.epsilon: 3.0 then, 1.5 now" in refused.stderr and state.read_bytes() == before
    kept = json.loads(before)
    kept["started_as"]["plan"]["dpsgd"]["stages"][0]["runs"] = 3
    state.write_text(json.dumps(kept))
    replanned = dptune_run(spec, "--resume")
    assert replanned.returncode == 2, replanned.stderr[-2000:]
    assert replanned.stderr.strip().splitlines()[-1] == (
        "dptune: error: --resume: sweep 'total' is planned differently now than when it started (another "
        "dptune version, or other data?): finish it as it started, or start a new sweep under another name"
    )
    assert json.loads(state.read_text()) == kept  # nothing written


def test_a_pipeline_with_a_second_rung_releases_the_best_promoted_trial_within_its_total(
    tmp_path: Path,
) -> None:
    """``budget.promoted_trials``: the best 2 of 4 tuning trials by validation train again, longer (Tune's
    list holds them, marked with the trial they promote), the release repeats the best of those with its
    first-rung knobs at the release's epochs; the card's ε, within the total, counts the promoted trials, and
    the stored plan (second rung written out) recomposes within it."""
    budget = {"trials_per_method": 4, "promoted_trials": 2, "max_concurrent": 2}
    spec = pipeline_spec(tmp_path, "halving", {"dpsgd": {"lr": {"loguniform": [0.1, 2.0]}}}, budget=budget)
    done = dptune_run(spec)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "promoting its best 2 trials by validation" in done.stdout
    release = json.loads(done.stdout.strip().splitlines()[-1])
    assert release["epsilon"] <= TOTAL
    trials = ExperimentAnalysis(str(tmp_path / "ray_results" / "halving" / TUNE_RUN_NAME)).trials
    first = {t.trial_id: t for t in trials if not route(t.config).promoted_from and not route(t.config).rerun}
    promoted = [t for t in trials if route(t.config).promoted_from]
    (rerun,) = [t for t in trials if route(t.config).rerun]
    assert len(first) == 4 and len(promoted) == 2
    factor = (
        promoted[0].config["epochs"] // first[route(promoted[0].config).promoted_from].last_result["epoch"]
    )
    assert factor >= 2
    (chosen,) = [t for t in promoted if t.trial_id == route(rerun.config).rerun_of]
    assert chosen.last_result[OBJECTIVE] == max(t.last_result[OBJECTIVE] for t in promoted)  # ties: secret
    assert rerun.config["lr"] == chosen.config["lr"]
    assert rerun.config["epochs"] == 2  # the release's T, carried from the first rung's T_t

    client = MlflowClient(f"sqlite:///{tmp_path / 'mlflow.db'}")
    (parent,), _ = runs(f"sqlite:///{tmp_path / 'mlflow.db'}", "halving")
    (plan,) = json.loads(Path(client.download_artifacts(parent.info.run_id, PLAN_ARTIFACT)).read_text())
    assert plan["stages"][0]["promoted"]["runs"] == 2
    assert recomposed(plan) <= TOTAL * (1 + DP_ACCOUNTING_SLACK)
    assert release["epsilon"] == pytest.approx(plan["epsilon"])
    first, *_ = tracker_for(f"sqlite:///{tmp_path / 'mlflow.db'}").plot_context("halving").phases
    assert first.startswith("total 3: 4 × ε_t ") and " + 2 × " in first  # the plot's title counts both rungs
    _, children = runs(f"sqlite:///{tmp_path / 'mlflow.db'}", "halving")
    marked = {r.data.tags.get("dptune.promoted_from") for r in children} - {None}
    assert marked == {route(t.config).promoted_from for t in promoted}  # each promoted run names its trial

    # A later per-run sweep that starts from this one's results adds the figure of everything it ran (its
    # plan, both rungs and the release, recomposed by dp-accounting), not promoted runs and a release
    # counted as first-rung trials.
    later = write_spec(
        tmp_path,
        "later",
        {"dpsgd": {"lr": {"loguniform": [0.1, 2.0]}}},
        search={"sampler": "tpe", "warm_start": {"sweep": "halving", "top": 1}},
    )
    done = dptune_run(later)
    assert done.returncode == 0, done.stderr[-3000:]
    (parent,), _ = runs(f"sqlite:///{tmp_path / 'mlflow.db'}", "later")
    cost = json.loads(Path(client.download_artifacts(parent.info.run_id, TUNING_COST_ARTIFACT)).read_text())
    assert cost["warm_start"]["sweep"] == "halving"
    assert cost["warm_start"]["epsilon"] >= recomposed(plan) / (1 + DP_ACCOUNTING_SLACK)
    assert cost["warm_start"]["epsilon"] == pytest.approx(release["epsilon"])
    assert cost["epsilon_including_tuning"] > cost["warm_start"]["epsilon"]


def test_one_model_across_methods_is_released_once_with_a_card_covering_every_methods_trials(
    tmp_path: Path,
) -> None:
    """Two methods, one model at the total (``privacy.release: one``, the default): every method's tuning
    trials run, exactly one release (the method whose selected trial scored best on validation), registered
    as the experiment's model with the total's alias, its card within the total and covering both methods'
    trials; the plan recomposed by dp-accounting as one phase of both methods' trials and the worst release
    stays within it."""
    spec = pipeline_spec(
        tmp_path,
        "one",
        {"dpsgd": {"lr": {"loguniform": [0.1, 2.0]}}, "dpsgd-momentum": {"lr": {"loguniform": [0.1, 2.0]}}},
    )
    done = dptune_run(spec)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.strip().splitlines()
    release = json.loads(lines[-1])
    (only,) = release["releases"]
    assert release["epsilon"] <= TOTAL and release["model_uri"].startswith("models:/one/")
    assert any(
        line.startswith(f"total ε = {TOTAL:g}: one model, {only['method']}'s configuration") for line in lines
    )

    uri = f"sqlite:///{tmp_path / 'mlflow.db'}"
    client = MlflowClient(uri)
    parents, children = runs(uri, "one")
    tuned = [c for c in children if c.data.tags.get("dptune.role") == "search"]
    (released,) = [c for c in children if c.data.tags.get("dptune.role") == "final"]
    assert sorted(c.data.tags["dptune.method"] for c in tuned) == ["dpsgd"] * 2 + ["dpsgd-momentum"] * 2
    best = {
        m: max(c.data.metrics["validation_accuracy"] for c in tuned if c.data.tags["dptune.method"] == m)
        for m in ("dpsgd", "dpsgd-momentum")
    }
    assert best[only["method"]] == max(best.values())  # the release is the best selection on validation
    card = json.loads(Path(client.download_artifacts(released.info.run_id, "privacy_card.json")).read_text())
    assert card["epsilon"] == pytest.approx(release["epsilon"]) and card["epsilon"] <= TOTAL
    assert "4 tuning trials across dpsgd, dpsgd-momentum (dpsgd 2, dpsgd-momentum 2)" in card["covers"]
    assert card["plan"]["released_among"] == ["dpsgd", "dpsgd-momentum"]
    version = client.get_model_version_by_alias("one", "total-3")
    assert str(version.version) == release["model_uri"].rsplit("/", 1)[1]
    assert version.tags["dptune.method"] == only["method"]
    (parent,) = parents
    for plan in json.loads(Path(client.download_artifacts(parent.info.run_id, PLAN_ARTIFACT)).read_text()):
        tuning, phase_release = plan["stages"]
        whole = plan | {"stages": [tuning | {"runs": tuning["runs"] * 2}, phase_release]}
        assert recomposed(whole) <= TOTAL * (1 + DP_ACCOUNTING_SLACK)
    assert not undocumented(release_outputs(client, released.info.run_id, release["model_uri"]))


def test_models_per_method_state_the_figure_of_publishing_them_all(tmp_path: Path) -> None:
    """``privacy.release: per_method`` at one total: each method's model has its own pipeline's card, and
    the card, the registry's description, the closing lines and the last line's JSON all give the figure
    of publishing both, which dp-accounting's composition of both plans' runs does not exceed, and say that
    a pick between them by a score is covered by that figure alone."""
    space = {"lr": {"loguniform": [0.1, 2.0]}}
    methods = {"dpsgd": space, "dpsgd-momentum": space}
    privacy = PIPELINE["privacy"] | {"release": "per_method"}
    done = dptune_run(pipeline_spec(tmp_path, "each", methods, privacy=privacy))
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stdout.strip().splitlines()
    last = json.loads(lines[-1])
    assert sorted(r["method"] for r in last["releases"]) == ["dpsgd", "dpsgd-momentum"]
    figure = last["all_releases"]
    assert max(r["epsilon"] for r in last["releases"]) < figure["epsilon"] < TOTAL * 2
    (said,) = [line for line in lines if line.startswith(f"total ε = {TOTAL:g}: one model per method")]
    assert (
        f"publishing all of them: ε ≤ {figure['epsilon']:.3f}" in said
        and "not covered by its own card" in said
    )

    uri = f"sqlite:///{tmp_path / 'mlflow.db'}"
    client = MlflowClient(uri)
    (parent,), children = runs(uri, "each")
    plans = json.loads(Path(client.download_artifacts(parent.info.run_id, PLAN_ARTIFACT)).read_text())
    assert {plan["composition"] for plan in plans} == {PLD_COMPOSITION.sentence}
    both = pld_recomposed([p["stages"][0] for p in plans], [p["stages"][1] for p in plans], figure["delta"])
    assert both <= figure["epsilon"] * (1 + DP_ACCOUNTING_SLACK)
    for run in (c for c in children if c.data.tags.get("dptune.role") == "final"):
        card = json.loads(Path(client.download_artifacts(run.info.run_id, "privacy_card.json")).read_text())
        assert card["epsilon"] <= TOTAL
        assert card["published_with_the_others"]["epsilon"] == pytest.approx(figure["epsilon"])
        version = client.get_model_version_by_alias(f"each.{card['method']}", "total-3")
        assert f"{figure['epsilon']:.4g}" in version.description


CANARY_CODE = textwrap.dedent(
    """
    import numpy as np
    from sklearn.datasets import load_digits
    from torch import nn


    def digits():
        data = load_digits()
        x = (data.data / 16.0).astype(np.float32)
        order = np.random.default_rng(0).permutation(len(x))
        train, held = np.split(order, [1437])
        train_x = x[train].copy()
        if NAN_RECORD:
            train_x[5::20] = 0.0  # every gradient of these records is NaN (the model divides by their sum);
            # one in 20, so that the secret tuning subset holds some and a trial samples one whatever the
            # randomness (inputs that are NaN themselves the data's checks refuse before anything runs)
        held_out = (x[held], data.target[held])
        return {"train": (train_x, data.target[train]), "held_out": held_out, "num_classes": 10}


    class ShareOfInk(nn.Module):
        def forward(self, x):
            return x / x.sum(dim=1, keepdim=True)  # 0/0 for an empty record: NaN, whatever the parameters


    def mlp():
        return nn.Sequential(ShareOfInk(), nn.Linear(64, 32), nn.Tanh(), nn.Linear(32, 10))
    """
)


def canary_release(folder: Path, nan_record: bool) -> tuple[dict[tuple[str, str], Any], int]:
    """A pipeline's release on digits (a factory: its held-out split private) with one training record in
    20 whose gradients are NaN (or none): what its release run and registered version show, and the private
    count of signals its trials zeroed."""
    folder.mkdir()
    (folder / "canary.py").write_text(f"NAN_RECORD = {nan_record}\n" + CANARY_CODE)  # the spec alike
    spec = write_spec(
        folder,
        "canary",
        {"dpsgd": {"lr": {"loguniform": [0.1, 2.0]}}},
        dataset={"factory": "canary:digits"},
        model={"factory": "canary:mlp"},
        privacy={"epsilon": TOTAL, "delta": 1e-4, "includes_tuning": True, "validation": "private"},
        budget={"trials_per_method": 2, "max_concurrent": 2},
        selection={},
        search={"sampler": "random"},
    )
    done = dptune_run(spec)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "nonfinite" not in done.stdout
    release = json.loads(done.stdout.strip().splitlines()[-1])
    client = MlflowClient(f"sqlite:///{folder / 'mlflow.db'}")
    _, children = runs(client.tracking_uri, "canary")
    (released,) = [r for r in children if r.data.tags.get("dptune.role") == "final"]
    trials = ExperimentAnalysis(str(folder / "ray_results" / "canary" / TUNE_RUN_NAME)).trials
    zeroed = sum(int(t.last_result[PRIVATE_NONFINITE_KEY]) for t in trials)
    return release_outputs(client, released.info.run_id, release["model_uri"]), zeroed


@pytest.fixture(scope="module")
def clean_release(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict[tuple[str, str], Any], int]:
    """``canary_release`` without NaN records, shared by the tests below: its folder, outputs and count."""
    folder = tmp_path_factory.mktemp("release") / "clean"
    return folder, *canary_release(folder, nan_record=False)


def test_records_whose_input_is_nan_change_no_public_output_of_a_release(
    tmp_path: Path, clean_release: tuple[Path, dict[tuple[str, str], Any], int]
) -> None:
    """The canary: training records whose every gradient is NaN are left out of every clipped sum and
    counted only in the private state; every output of the release is in the privacy page's table, the
    same outputs with and without it, and each one the table calls public has the same value."""
    _, clean, clean_zeroed = clean_release
    canary, canary_zeroed = canary_release(tmp_path / "canary", nan_record=True)
    assert clean_zeroed == 0 < canary_zeroed  # some were sampled, and their signals left out
    assert not undocumented(clean) and set(clean) == set(canary)
    public = [key for key, depends in documented_outputs().items() if depends == "public" and key in clean]
    assert len(public) > 10
    assert {key: clean[key] for key in public} == {key: canary[key] for key in public}


def test_a_release_on_private_held_out_data_states_both_guarantees_and_shows_no_exact_score(
    clean_release: tuple[Path, dict[tuple[str, str], Any], int],
) -> None:
    """A factory's held-out split (private): the card and the registered version state the training
    records' (ε, δ) and the held-out records' own, which dp-accounting's PLD of the stated noisy counts
    confirms; no loss on the held-out split is released, and every output is in the privacy page's table.
    The version's description and the release run's name give the final-test score with its noise."""
    folder, shown, _ = clean_release
    assert not undocumented(shown)
    assert ("metric", "validation_loss") not in shown and ("metric", "test_loss") not in shown
    noise = float(shown[("param", "heldout_noise")])
    assert f"Held-out records: ({TOTAL:.4g}, 0.0001)-DP" in shown[("version", "version")]
    client = MlflowClient(f"sqlite:///{folder / 'mlflow.db'}")
    (version,) = client.search_model_versions("name='canary.dpsgd'")
    card = json.loads(Path(client.download_artifacts(version.run_id, "privacy_card.json")).read_text())
    held_out = card["held_out"]
    assert held_out["epsilon"] == TOTAL and held_out["delta"] == 1e-4 and card["epsilon"] <= TOTAL
    accuracy, std = card["final_test_accuracy"], card["final_test_accuracy_std"]  # points, noise's std
    assert f"final-test accuracy {accuracy:.2f}% ± {std:.2g}." in version.description
    assert f" · {accuracy:.1f}% ± {std:.2g} · ε " in client.get_run(version.run_id).info.run_name
    queries = max(held_out["scores"]["validation"], held_out["scores"]["final_test"])
    accountant = pld_privacy_accountant.PLDAccountant(value_discretization_interval=1e-4)
    accountant.compose(dp_event.GaussianDpEvent(noise), queries)
    assert accountant.get_epsilon(1e-4) == pytest.approx(TOTAL, rel=5e-3)


def test_a_list_of_totals_tunes_on_secret_subsets_as_planned_and_counts_every_release(tmp_path: Path) -> None:
    """Fashion-MNIST (10,000 images: a subset of a quarter keeps 2,500), totals 2 and 6, 4 trials within
    one full run of tuning compute: each total's phase tunes on a secret subset of rate ¼; every tuning
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
