"""The strong baselines as built-in models: ScatterNet features (computed once per dataset, per sample,
cached) with Tramèr & Boneh's linear and CNN heads, and WideResNet-16-4 with GroupNorm; parameter
counts by hand, features against Kymatio's transform of each image alone."""

from __future__ import annotations

import hashlib
import pickle
from pathlib import Path

import pytest
import torch
from kymatio.scattering2d.frontend.torch_frontend import ScatteringTorch2D

import dptune.engine.features as features
from dptune.engine.dataset import Dataset
from dptune.engine.persample import ghost_supported
from dptune.models import build_model
from dptune.sweep.spec import load_spec
from dptune.tune.driver import run_sweep
from tests.helpers import digits_trainer
from tests.sweep_helpers import runs, write_spec


@pytest.fixture
def cache() -> Path:
    """The test's own feature cache (``conftest``)."""
    return features.FEATURES_DIR


@pytest.mark.slow
def test_scattering_features_are_kymatios_transform_of_each_image_alone(digits: Dataset, cache: Path) -> None:
    data = features.model_inputs("scatter-linear", digits)
    assert data.features == "scattering"
    assert data.train_x.shape == (len(digits.train_y), 81, 2, 2)  # 81 channels of (8/4)×(8/4)
    transform = ScatteringTorch2D(J=2, shape=(8, 8), L=8)
    for i in (0, 7, 100):  # one image at a time: no statistic of other samples enters a feature
        alone = transform(digits.train_x[i : i + 1]).reshape(1, 81, 2, 2)
        torch.testing.assert_close(data.train_x[i : i + 1], alone)
    torch.testing.assert_close(data.train_y, digits.train_y)
    torch.testing.assert_close(data.test_x[:3], transform(digits.test_x[:3]).reshape(3, 81, 2, 2))


def test_the_inputs_digest_of_a_factorys_tensors_does_not_depend_on_where_they_live(digits: Dataset) -> None:
    """A factory may hand over tensors that track gradients or live on a GPU (``.numpy()`` refuses both):
    the digest reads a detached CPU copy, the same bytes as the plain tensors'."""
    from dataclasses import replace

    tracked = replace(digits, train_x=digits.train_x.clone().requires_grad_(True))
    assert tracked.inputs_digest == replace(digits).inputs_digest


@pytest.mark.slow  # trains or plans beyond the fast tier's few steps
def test_features_are_computed_once_then_read_from_the_cache(
    digits: Dataset, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = features.model_inputs("scatter-cnn", digits)
    (written,) = cache.iterdir()
    assert written.suffix == ".pt"
    # named by SHA-256 of the inputs and their shapes, hashed once: a pickled copy (what a sweep's trials
    # receive from its driver) carries the digest
    parts = (digits.train_x, digits.val_x, digits.test_x)
    by_hand = hashlib.sha256(b"".join(str(tuple(t.shape)).encode() + t.numpy().tobytes() for t in parts))
    assert written.name.endswith(f"-{by_hand.hexdigest()[:16]}.pt")
    assert vars(pickle.loads(pickle.dumps(digits)))["inputs_digest"] == by_hand.hexdigest()[:16]
    other = features.model_inputs("scatter-linear", digits.subset(100))  # other inputs, another file
    assert len(list(cache.iterdir())) == 2 and len(other.train_y) == 100

    def refuse(images: torch.Tensor) -> torch.Tensor:
        raise AssertionError("features recomputed despite the cache")

    monkeypatch.setattr(features, "scattering_features", refuse)
    again = features.model_inputs("scatter-linear", digits)
    torch.testing.assert_close(again.train_x, first.train_x)
    assert features.model_inputs("scatter-linear", again) is again  # already features: as is
    assert features.model_inputs("mlp", digits) is digits  # other models train on the images


def test_scatter_models_have_tramer_and_bonehs_layers() -> None:
    sample = torch.zeros(2, 81, 7, 7)
    linear = build_model("scatter-linear", {}, sample, 10)
    assert sum(p.numel() for p in linear.parameters()) == 81 * 7 * 7 * 10 + 10
    norm = linear[0]
    assert isinstance(norm, torch.nn.GroupNorm) and norm.num_groups == 27 and not norm.affine
    cnn = build_model("scatter-cnn", {}, sample, 10)
    by_hand = (81 * 16 * 9 + 16) + (16 * 32 * 9 + 32) + (32 * 4 * 4 * 32 + 32) + (32 * 10 + 10)
    assert sum(p.numel() for p in cnn.parameters()) == by_hand
    assert ghost_supported(linear) and ghost_supported(cnn)  # GroupNorm without affine: nothing to train


def test_wrn16_4_has_its_published_size_and_groupnorm_only() -> None:
    model = build_model("wrn16-4", {}, torch.zeros(2, 3, 32, 32), 10)

    def conv(cin: int, cout: int, k: int = 3) -> int:
        return cin * cout * k * k

    blocks = 0
    width = 16
    for channels in (64, 128, 256):
        for block in range(2):
            shortcut = conv(width, channels, 1) if width != channels or (block == 0 and channels > 64) else 0
            blocks += 2 * width + conv(width, channels) + 2 * channels + conv(channels, channels) + shortcut
            width = channels
    by_hand = conv(3, 16) + blocks + 2 * 256 + 256 * 10 + 10
    assert sum(p.numel() for p in model.parameters()) == by_hand
    norms = [m for m in model.modules() if isinstance(m, torch.nn.GroupNorm)]
    assert norms and all(m.num_groups == 16 for m in norms)
    assert not any(isinstance(m, torch.nn.modules.batchnorm._BatchNorm) for m in model.modules())


@pytest.mark.slow  # trains or plans beyond the fast tier's few steps
def test_a_scatternet_run_trains_on_the_features(digits: Dataset, cache: Path) -> None:
    trainer = digits_trainer(
        digits, "dpsgd", model="scatter-linear", epsilon=3.0, epochs=3, batch_size=256, lr=2.0, clip=0.5
    )
    assert trainer.train_x.shape[1:] == (81, 2, 2)
    for _ in range(3):
        result = trainer.train_epoch()
    assert result.validation_accuracy > 0.5  # 10 classes: well above chance after 3 epochs
    assert trainer.summary()["model"] == "scatter-linear"


def test_a_sweep_searches_the_model_and_computes_the_features_once(
    tmp_path: Path, local_ray, cache: Path
) -> None:
    path = write_spec(
        tmp_path,
        "models",
        {
            "dpsgd": {
                "model": {"choice": ["mlp", "scatter-linear"]},
                "lr": {"loguniform": [0.5, 2.0]},
                "start": [{"model": "mlp", "lr": 1.0}, {"model": "scatter-linear", "lr": 1.0}],
            }
        },
        budget={"trials_per_method": 3, "max_concurrent": 2},
    )
    outcome = run_sweep(load_spec(path), path.read_text(), echo=lambda line: None)
    assert len(outcome.results) == 3
    _, children = runs(f"sqlite:///{tmp_path / 'mlflow.db'}", "models")
    models = [c.data.params["model"] for c in children]
    assert {"mlp", "scatter-linear"} <= set(models)
    assert all(c.data.tags["dptune.status"] == "finished" for c in children)
    assert len(list(cache.iterdir())) == 1  # the driver's one computation; every trial read it
