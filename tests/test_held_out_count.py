"""The scores a sweep makes on a private held-out split, counted as they run: a tuning trial longer than
its release (the plan's T_t above T), scored where a decision reads it, and an epoch redone after a
restore drawing fresh held-out noise; every stated figure checked against dp-accounting's PLD of what ran."""

from __future__ import annotations

import json
import math
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import torch
from dp_accounting import dp_event
from dp_accounting.pld import pld_privacy_accountant
from mlflow.tracking import MlflowClient
from ray.tune import ExperimentAnalysis
from scipy import stats

from dptune.engine.data import load_dataset
from dptune.engine.dataset import Dataset
from dptune.sweep.held_out import held_out_scores, with_held_out
from dptune.sweep.ledger import PrivateSweepState
from dptune.sweep.pipeline import planned
from dptune.sweep.resume import resumable_identity
from dptune.sweep.spec import load_spec
from dptune.training.config import RunConfig
from dptune.training.train import Trainer
from dptune.tune.sweep_run import TUNE_RUN_NAME
from tests.sweep_helpers import runs, write_spec
from tests.test_release import dptune_run

DELTA = 1e-4
EXAMPLES = Path(__file__).parents[1] / "sweeps" / "examples"
LONG_TUNING = {
    "privacy": {
        "epsilon": 8.0,
        "delta": DELTA,
        "includes_tuning": True,
        "tuning_share": 0.8,
        "validation": "private",
    },
    "training": {"epochs": 10, "batch_size": 128, "lr": 1.0, "physical_batch_size": 128},
    "budget": {"trials_per_method": 1, "max_concurrent": 1},
    "search": {"sampler": "random"},
}
"""Issue 68's first case: one tuning trial at 0.8 of a total of 8, so ε_t > ε_B and T_t = 14 > T = 10."""


def pld_epsilon(counts: int, noise: float) -> float:
    accountant = pld_privacy_accountant.PLDAccountant(value_discretization_interval=1e-4)
    accountant.compose(dp_event.GaussianDpEvent(noise), counts)
    return float(accountant.get_epsilon(DELTA))


def long_tuning_spec(folder: Path, **sections: object) -> Path:
    return write_spec(
        folder, "long", {"dpsgd": {"lr": {"loguniform": [0.1, 2.0]}}}, **(LONG_TUNING | sections)
    )


@pytest.mark.slow
def test_a_tuning_trial_longer_than_its_release_is_counted_at_its_own_epochs_under_asha(
    tmp_path: Path,
) -> None:
    """Where a scheduler reads a trial's every epoch, the count is each trial's T_t (14 here), not the
    release's T (10): the held-out records' ε of the true count, by dp-accounting, is the stated one."""
    spec = load_spec(long_tuning_spec(tmp_path, scheduler={"name": "asha"}))
    plans = planned(spec, len(load_dataset("digits").train_y))
    assert plans is not None
    ((release_epochs, tuning_epochs),) = plans[0].epochs
    assert tuning_epochs > release_epochs == 10  # the case: the trial runs longer than its release
    private = with_held_out(spec, plans, DELTA)
    assert private.held_out is not None
    ran = plans[0].tuning.runs * tuning_epochs  # every epoch of the one trial; the release: its final test
    assert held_out_scores(spec, plans).validation == ran
    assert pld_epsilon(ran, private.held_out.noise) <= 8.0 * (1 + 2e-3)
    assert pld_epsilon(ran + 1, private.held_out.noise) > 8.0  # and the noise is no larger than it needs


@pytest.mark.slow
def test_every_score_a_pipeline_makes_on_private_held_out_data_is_within_its_stated_count(
    tmp_path: Path,
) -> None:
    """The sweep of issue 68's first case, run: its trial runs T_t = 14 epochs for a release of 10, and the
    scores it made on each held-out part (read back from Tune's private results, which hold every epoch)
    are at most what the card states; the card's (ε, δ) for the held-out records is dp-accounting's PLD
    of the larger true count at the stated noise."""
    done = dptune_run(long_tuning_spec(tmp_path))
    assert done.returncode == 0, done.stderr[-3000:]
    trials = ExperimentAnalysis(str(tmp_path / "ray_results" / "long" / TUNE_RUN_NAME)).trials
    validation = test = 0
    for trial in trials:
        history = trial.last_result["history"]
        validation += sum(math.isfinite(e["validation_accuracy"]) for e in history)
        test += math.isfinite(trial.last_result.get("test_accuracy", math.nan))
    tuning = [t for t in trials if "test_accuracy" not in t.last_result]
    assert [t.last_result["epoch"] for t in tuning] == [14]  # longer than its release's 10
    client = MlflowClient(f"sqlite:///{tmp_path / 'mlflow.db'}")
    release = json.loads(done.stdout.strip().splitlines()[-1])
    name, number = release["model_uri"].removeprefix("models:/").rsplit("/", 1)
    run_id = client.get_model_version(name, number).run_id
    card = json.loads(Path(client.download_artifacts(run_id, "privacy_card.json")).read_text())
    stated = card["held_out"]
    assert (validation, test) == (1, 1)  # the selection reads one score; the release's is on the final test
    assert validation <= stated["scores"]["validation"] and test <= stated["scores"]["final_test"]
    assert pld_epsilon(max(validation, test), stated["noise_std"]) <= stated["epsilon"] * (1 + 2e-3)
    _, children = runs(client.tracking_uri, "long")
    assert all(not math.isfinite(r.data.metrics.get("validation_loss", math.nan)) for r in children)


@pytest.fixture(scope="module")
def digits() -> Dataset:
    return load_dataset("digits")


@pytest.mark.slow
def test_an_epoch_redone_after_a_restore_draws_fresh_held_out_noise(digits: Dataset) -> None:
    """A trial killed mid-epoch restarts from its last checkpoint: the epoch it redoes is scored with a
    fresh draw of the held-out noise, not the draw the lost attempt made (or would have made) from the
    checkpoint's stream, so no two scores of the run share a draw: the restarts' first draws are
    independent standard normals (Kolmogorov–Smirnov), none the lost attempt's, and the same parameters
    scored by the lost attempt and by a restart differ."""
    config = RunConfig(
        method="dpsgd",
        dataset="digits",
        model="mlp",
        epsilon=2.0,
        delta=1e-4,
        epochs=2,
        batch_size=128,
        heldout_noise=5.0,
    )
    first = Trainer(config, digits)
    first.train_epoch()
    checkpoint = first.state_dict()
    continued = first.held_out_noise.get_state()  # the stream the lost attempt went on drawing from
    lost_draw = float(torch.randn((), generator=first.held_out_noise, dtype=torch.float64))
    draws = []
    for _ in range(200):
        restored = Trainer(config, digits)
        restored.load_state_dict(checkpoint)  # the restart of the attempt killed in its second epoch
        draws.append(float(torch.randn((), generator=restored.held_out_noise, dtype=torch.float64)))
    assert lost_draw not in draws
    assert stats.kstest(draws, "norm").pvalue > 1e-3
    lost = Trainer(config, digits)
    lost.load_state_dict(checkpoint)
    lost.held_out_noise.set_state(continued)
    restored = Trainer(config, digits)
    restored.load_state_dict(checkpoint)
    restored.theta = lost.theta = first.theta.clone()
    assert lost.evaluate(digits.val_x, digits.val_y) != restored.evaluate(digits.val_x, digits.val_y)


def test_a_private_trial_scores_its_validation_part_where_a_decision_reads_it(digits: Dataset) -> None:
    """On private held-out data a search trial is scored after its last epoch only (after each with a
    scheduler), a re-run or release never on the validation part; on a public split after every epoch."""
    base = {"method": "dpsgd", "dataset": "digits", "model": "mlp", "epsilon": 2.0, "delta": 1e-4}
    private = RunConfig(**base, epochs=3, batch_size=256, heldout_noise=2.0, validation_every_epoch=False)
    trainer = Trainer(private, digits)
    scored = [math.isfinite(r.validation_accuracy) for r in trainer.fit()]
    assert scored == [False, False, True]
    release = Trainer(private, digits)
    assert [math.isfinite(release.train_epoch(final_test=True).validation_accuracy) for _ in range(3)] == [
        False
    ] * 3
    every = Trainer(
        RunConfig(**base, epochs=2, batch_size=256, heldout_noise=2.0, validation_every_epoch=True), digits
    )
    assert all(math.isfinite(r.validation_accuracy) for r in every.fit())
    public = Trainer(RunConfig(**base, epochs=2, batch_size=256, validation_every_epoch=False), digits)
    assert all(math.isfinite(r.validation_accuracy) for r in public.fit())


FACTORY = """
import numpy as np
from sklearn.datasets import load_digits

def data():
    digits = load_digits()
    x, y = (digits.data / 16.0).astype(np.float32)[:{keep}], digits.target[:{keep}]
    y = (y + {shift}) % 10
    cut = len(x) * 4 // 5
    return {{"train": (x[:cut], y[:cut]), "held_out": (x[cut:], y[cut:]), "num_classes": 10}}
"""


def factory_spec(folder: Path, storage: str, keep: int, shift: int = 0) -> Path:
    (folder / "mydata.py").write_text(FACTORY.format(keep=keep, shift=shift))
    (folder / "own_code.py").write_text((EXAMPLES / "own_code.py").read_text())
    spec = write_spec(
        folder, "mine", {"dpsgd": {}}, dataset={"factory": "mydata:data"}, model={"factory": "own_code:mlp"}
    )
    text = spec.read_text().replace(str(folder / "ray_results"), storage)
    spec.write_text(text)
    return spec


def validate(spec: Path, *flags: str) -> tuple[int, str]:
    done = subprocess.run(
        [sys.executable, "-m", "dptune.cli", "validate", str(spec), *flags],
        cwd=spec.parent,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return done.returncode, done.stderr.strip()


@pytest.mark.slow
@pytest.mark.parametrize("uri", [False, True], ids=["folder", "file-uri"])
def test_a_resume_on_other_data_is_refused_naming_what_changed(tmp_path: Path, uri: bool) -> None:
    """A sweep keeps the sizes of its training set and held-out parts and a private digest of its labels:
    a factory edited to return fewer rows, or other labels, is refused on resume in one line naming it;
    storage behind a URI (``file://``) goes through the same checks as a folder: nothing to resume is
    refused, and an existing sweep is not started again without --resume."""
    storage = f"file://{tmp_path / 'ray_results'}" if uri else str(tmp_path / "ray_results")
    path = factory_spec(tmp_path, storage, keep=1500)
    if uri:
        code, err = validate(path, "--resume")
        assert code == 2 and err.startswith("dptune: error: --resume: no sweep 'mine'"), err
    spec = load_spec(path)
    shared = spec.shared
    data = load_dataset(shared.dataset, shared.data_root, shared.subset, shared.dataset_args)
    kept = PrivateSweepState(spec.storage_path, spec.name)
    assert kept.started_as(resumable_identity(spec, None, data)) is None  # the sweep started
    assert validate(path, "--resume") == (0, "")
    code, err = validate(path)
    assert code == 2 and "already exists" in err and "--resume" in err, err
    factory_spec(tmp_path, storage, keep=900)
    code, err = validate(path, "--resume")
    assert code == 2 and err.startswith("dptune: error: --resume: sweep 'mine' started on other data"), err
    assert "training records: 1200 then, 720 now" in err and len(err.splitlines()) == 1, err
    factory_spec(tmp_path, storage, keep=1500, shift=1)
    code, err = validate(path, "--resume")
    assert code == 2 and "started on other data (the labels differ)" in err, err


KILLED_MODEL = """
import os
from pathlib import Path

from torch import nn



class KilledOnce(nn.Module):
    \"\"\"digits' 64 features to 10 scores; its process killed at its ``kill_at``-th call, once.\"\"\"

    def __init__(self, kill_at, mark):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(64, 10))
        self.kill_at = kill_at
        self.mark = Path(mark)
        self.calls = 0

    def forward(self, x):
        self.calls += 1
        if self.calls == self.kill_at and not self.mark.exists():
            self.mark.write_text("killed")
            os._exit(1)
        return self.net(x)


def model(kill_at=0, mark=""):
    return KilledOnce(kill_at, mark)
"""


KILL_AT = 20
"""The model's call its process is killed at: 2 checks and 12 steps an epoch (1,438 records, batch 128),
so the 6th step of its second epoch."""


@pytest.mark.slow
def test_a_trial_killed_mid_epoch_reports_each_scored_epoch_once(tmp_path: Path) -> None:
    """A private trial's process killed in the middle of its second epoch: Tune restarts it from its first
    epoch's checkpoint, it redoes the second epoch, and the held-out split is scored where the count says,
    once: its last epoch's validation score alone reaches Tune and MLflow (each epoch appears once), and
    the restart drew its held-out noise afresh (``test_an_epoch_redone_after_a_restore_...``)."""
    (tmp_path / "killed_model.py").write_text(KILLED_MODEL)
    mark = tmp_path / "killed"
    shutil.copy(EXAMPLES / "own_code.py", tmp_path / "own_code.py")
    spec = write_spec(
        tmp_path,
        "killed",
        {"dpsgd": {}},
        dataset={"factory": "own_code:digits_vectors"},
        model={"factory": "killed_model:model", "args": {"kill_at": KILL_AT, "mark": str(mark)}},
        training={"epochs": 3, "batch_size": 128, "lr": 1.0, "physical_batch_size": 256},
        budget={"trials_per_method": 1, "max_concurrent": 1},
        search={"sampler": "random"},
        privacy={"epsilon": 2.0, "delta": 1e-4, "validation": "private"},
    )
    done = dptune_run(spec)
    assert done.returncode == 0, done.stderr[-3000:]
    assert mark.exists()  # the process was killed
    (trial,) = ExperimentAnalysis(str(tmp_path / "ray_results" / "killed" / TUNE_RUN_NAME)).trials
    assert trial.num_failures >= 1  # restarted from its checkpoint
    history = trial.last_result["history"]
    assert [e["epoch"] for e in history] == [1, 2, 3]
    assert [math.isfinite(e["validation_accuracy"]) for e in history] == [False, False, True]
    client = MlflowClient(f"sqlite:///{tmp_path / 'mlflow.db'}")
    (child,) = runs(client.tracking_uri, "killed")[1]
    scores = client.get_metric_history(child.info.run_id, "validation_accuracy")
    assert [(s.step, s.value) for s in scores] == [(3, history[-1]["validation_accuracy"])]
