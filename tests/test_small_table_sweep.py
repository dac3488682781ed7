"""The new user's path of a small table, run as written: scikit-learn's breast-cancer table through the
example factory (``sweeps/examples/own_code.py:breast_cancer``), one model across three methods at a
total ε that includes its tuning. With a private held-out split the noise of every score is printed and
carded beside it, and a plan whose noise would swamp the selection is refused (or, opted in, warned);
with a public split the release line carries the majority-class baseline, exact; the card alone
recomposes to its ε by dp-accounting."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml
from mlflow.tracking import MlflowClient

from dptune.base.errors import InputError
from dptune.engine.data import load_dataset
from dptune.privacy.heldout import heldout_noise
from dptune.sweep.held_out import SWAMPED, check_noise, held_out_records, held_out_scores, with_held_out
from dptune.sweep.pipeline import planned
from dptune.sweep.spec import load_spec
from dptune.tracking.names import NOTE_TAG
from dptune.training.calibrated_run import resolved_delta
from tests.test_plan import recomposed
from tests.test_release import dptune_run

EXAMPLES = Path(__file__).parents[1] / "sweeps" / "examples"
DP_ACCOUNTING_SLACK = 1e-3


def cancer_spec(folder: Path, share: float, **privacy: Any) -> Path:
    """The example spec (``breast-cancer.yaml``) with ``share`` of the rows held out and ``privacy``
    changed, its stores in ``folder``."""
    shutil.copy(EXAMPLES / "own_code.py", folder / "own_code.py")
    doc = yaml.safe_load((EXAMPLES / "breast-cancer.yaml").read_text())
    doc["dataset"]["args"] = {"held_out_share": share}
    doc["privacy"] |= privacy
    doc |= {
        "name": "cancer",
        "tracking": {"uri": f"sqlite:///{folder / 'mlflow.db'}", "experiment": "cancer"},
        "storage_path": str(folder / "ray_results"),
        "resources": {"cpu": 1, "gpu": 0},
        "budget": {"max_concurrent": 2},
    }
    path = folder / "cancer.yaml"
    path.write_text(yaml.safe_dump(doc))
    return path


def validate(spec: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "dptune.cli", "validate", str(spec)],
        cwd=spec.parent,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.slow
def test_the_noise_of_a_small_split_is_counted_as_planned_and_refused_where_it_swamps_the_selection(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The issue's table (86 validation records, totals 1 and 4, three methods): the plan's trials are
    each scored once on the validation part (12 scores where every epoch of every trial at the release's
    length counted 900 before), so the noise falls almost ninefold, and still swamps 86 records:
    refused, naming the field and the fixes; with ``noisy_scores: warn``, a warning; with 40% held out
    (114 validation records), accepted."""
    monkeypatch.syspath_prepend(str(tmp_path))
    spec = load_spec(cancer_spec(tmp_path, 0.3))
    shared = spec.shared
    data = load_dataset(shared.dataset, shared.data_root, shared.subset, shared.dataset_args)
    assert (len(data.train_y), len(data.val_y), len(data.test_y)) == (398, 86, 85)
    plans = planned(spec, len(data.train_y))
    assert plans is not None
    runs = sum(p.tuning.runs for p in plans)
    assert held_out_scores(spec, plans).validation == runs
    private = with_held_out(spec, plans, resolved_delta(shared, 398), held_out_records(data))
    assert private.held_out is not None
    counted_before = 2 * 3 * (4 + 1) * 30  # every epoch of every trial and release, at T: the old count
    before = heldout_noise(counted_before, 1.0, resolved_delta(shared, 398))
    assert before / private.held_out.noise > 8  # √(900/12): 77 counts then, 8.9 now (112 and 13 at δ 1e-5)
    std = private.held_out.noise / 86
    assert std > SWAMPED
    with pytest.raises(InputError) as refused:
        check_noise(private)
    assert refused.value.field == "privacy.validation" and "privacy.noisy_scores: warn" in str(refused.value)
    done = validate(cancer_spec(tmp_path, 0.3))
    assert done.returncode == 2 and done.stderr.strip().splitlines()[-1].startswith(
        "dptune: error: privacy.validation: the held-out noise would swamp the selection"
    ), done.stderr
    warned = validate(cancer_spec(tmp_path, 0.3, noisy_scores="warn"))
    assert warned.returncode == 0 and "warning: privacy.noisy_scores:" in warned.stderr, warned.stderr
    accepted = validate(cancer_spec(tmp_path, 0.4))
    assert accepted.returncode == 0, accepted.stderr
    assert re.search(r"± [0-9.]+ points on a validation score", accepted.stdout), accepted.stdout


def card_of(folder: Path, release: dict[str, Any]) -> dict[str, Any]:
    client = MlflowClient(f"sqlite:///{folder / 'mlflow.db'}")
    name, number = release["model_uri"].removeprefix("models:/").rsplit("/", 1)
    run_id = client.get_model_version(name, number).run_id
    card: dict[str, Any] = json.loads(
        Path(client.download_artifacts(run_id, "privacy_card.json")).read_text()
    )
    return card


def card_recomposed(card: dict[str, Any]) -> float:
    """ε of one model across methods from its card alone: the tuning phase's runs per method times its
    methods, at the per-order worst of the phase's mechanisms, and the release, by dp-accounting."""
    plan = card["plan"]
    tuning, release = plan["stages"]
    runs = tuning["runs_per_method"] * tuning["methods"]
    return float(recomposed(plan | {"stages": [tuning | {"runs": runs}, release]}))


@pytest.mark.slow
def test_a_small_table_sweep_shows_its_noise_and_its_baseline_and_its_card_recomposes(tmp_path: Path) -> None:
    """At total 1 on 40% held out: every printed score carries its noise, the card states it (and the
    held-out records' guarantee with both counts), the noisy majority-class baseline sits beside the
    release, and the card alone recomposes to its ε. The same table with a public split: the release line
    carries the exact majority-class rate of the final-test part, computed here from the data."""
    private = tmp_path / "private"
    private.mkdir()
    done = dptune_run(cancer_spec(private, 0.4, epsilon=1.0))
    assert done.returncode == 0, done.stderr[-3000:]
    scored = [
        line
        for line in done.stdout.splitlines()
        if re.search(r"trial \d+/\d+ |selected trial [0-9a-f]{8} |validation [0-9.]+%", line)
    ]
    assert len(scored) >= 2 and all(re.search(r"validation [0-9.]+% ± [0-9.]+", line) for line in scored), (
        scored
    )
    bare = [line for line in done.stdout.splitlines() if re.search(r"[0-9.]+%(?! ± | busy)", line)]
    assert not bare, bare  # no percentage anywhere without its noise: the table's cells carry it too
    assert re.search(r"% ± [0-9.]+ +[0-9.]+ \(1; noise ± [0-9.]+\) ", done.stdout), done.stdout
    assert re.search(r"% ± [0-9.]+ final test at ε = .*; majority class [0-9.]+% ± [0-9.]+", done.stdout), (
        done.stdout
    )
    release = json.loads(done.stdout.strip().splitlines()[-1])
    assert release["final_test_accuracy_std"] > 0 and release["majority_baseline"] is not None
    card = card_of(private, release)
    client = MlflowClient(f"sqlite:///{private / 'mlflow.db'}")
    experiments = [e.experiment_id for e in client.search_experiments()]
    notes = [run.data.tags.get(NOTE_TAG, "") for run in client.search_runs(experiments)]
    described = r"\| [0-9.]+% ± [0-9.]+ \| [0-9.]+ \(1; noise ± [0-9.]+\) \|"  # the sweep run's table row
    assert any(re.search(described, note) for note in notes), notes
    named = [
        run.info.run_name for run in client.search_runs(experiments) if "validation (" in run.info.run_name
    ]
    (name,) = named  # the sweep's run, named for the one model it released, its score's noise beside it
    released = rf"· {re.escape(release['method'])} [0-9.]+% ± [0-9.]+ validation \(released\)$"
    assert re.search(released, name), name
    held_out = card["held_out"]
    assert held_out["score_std"]["validation"] == pytest.approx(held_out["noise_std"] / 114)
    assert card["final_test_accuracy_std"] == pytest.approx(100 * held_out["noise_std"] / 114)
    assert card["baseline"]["noise_std"] == pytest.approx(held_out["noise_std"] / 114)
    assert card["inputs"] == "records" and "images" not in done.stdout
    again = card_recomposed(card)
    assert again <= card["epsilon"] * (1 + DP_ACCOUNTING_SLACK) and again >= 0.97 * card["epsilon"]

    public = tmp_path / "public"
    public.mkdir()
    done = dptune_run(cancer_spec(public, 0.4, epsilon=1.0, validation="public"))
    assert done.returncode == 0, done.stderr[-3000:]
    sys.path.insert(0, str(public))
    try:
        data = load_dataset("own_code:breast_cancer", args={"held_out_share": 0.4})
    finally:
        sys.path.remove(str(public))
    exact = 100 * max(Counter(data.test_y.tolist()).values()) / len(data.test_y)
    assert f"; majority class {exact:.2f}%" in done.stdout, done.stdout
    release = json.loads(done.stdout.strip().splitlines()[-1])
    assert release["majority_baseline"] == pytest.approx(exact) and release["final_test_accuracy_std"] is None
    below = release["final_test_accuracy"] <= exact
    assert below == ("warning: " in done.stdout and "majority-class rate" in done.stdout)
