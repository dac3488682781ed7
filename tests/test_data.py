"""Datasets: the real Fashion-MNIST copy on disk, digits, and the one-line error when data is missing."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch
import torchvision.datasets

import dptune.data as data_module
from dptune.data import load_dataset, read_idx
from dptune.errors import DataUnavailableError

SYSTEM_FMNIST = Path("/usr/share/datasets/fashion-mnist")


def test_fashion_mnist_resolves_the_debian_copy() -> None:
    data = load_dataset("fashion-mnist")
    assert data.train_x.shape == (60000, 1, 28, 28) and data.test_x.shape == (10000, 1, 28, 28)
    assert sorted(data.train_y.unique().tolist()) == list(range(10))
    assert abs(float(data.train_x.mean())) < 0.01 and abs(float(data.train_x.std()) - 1) < 0.01
    raw = read_idx(SYSTEM_FMNIST / "train-labels-idx1-ubyte.gz")
    assert torch.equal(data.train_y, torch.from_numpy(raw.astype("int64")))


def test_configured_root_is_checked_first(tmp_path: Path) -> None:
    for f in SYSTEM_FMNIST.iterdir():
        (tmp_path / f.name).symlink_to(f)
    data = load_dataset("fashion-mnist", root=tmp_path, subset=500)
    assert len(data.train_y) == 500 and len(data.test_y) == 10000


def test_digits_split_is_fixed() -> None:
    a, b = load_dataset("digits"), load_dataset("digits")
    assert a.train_x.shape == (1437, 1, 8, 8) and a.test_x.shape == (360, 1, 8, 8)
    assert torch.equal(a.train_y, b.train_y)


def test_missing_dataset_says_how_to_get_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No local copy and a download that fails (a closed local port stands in for no internet)."""
    monkeypatch.setattr(data_module, "CACHE_ROOT", tmp_path / "cache")
    monkeypatch.setattr(torchvision.datasets.MNIST, "mirrors", ["http://127.0.0.1:9/"])
    with pytest.raises(DataUnavailableError) as info:
        load_dataset("mnist", root=tmp_path / "empty")
    message = str(info.value)
    assert message.startswith("dataset: mnist not found") and "--data-root" in message
    assert "\n" not in message
