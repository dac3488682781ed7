"""Datasets: the real Fashion-MNIST copy on disk, digits, the one-line error when data is missing, and the
training-set size read without loading (what ``dptune validate`` checks batch sizes against)."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch
import torchvision.datasets

import dptune.engine.data as data_module
from dptune.base.errors import DataUnavailableError, InputError
from dptune.engine.data import load_dataset, read_idx, train_size

pytestmark = pytest.mark.in_process  # starts no Ray, server or browser: `make test` runs it beside others

SYSTEM_FMNIST = Path("/usr/share/datasets/fashion-mnist")


@pytest.mark.slow
def test_fashion_mnist_resolves_the_debian_copy() -> None:
    data = load_dataset("fashion-mnist")
    assert data.train_x.shape == (60000, 1, 28, 28) and data.test_x.shape == (5000, 1, 28, 28)
    assert sorted(data.train_y.unique().tolist()) == list(range(10))
    assert abs(float(data.train_x.mean())) < 0.01 and abs(float(data.train_x.std()) - 1) < 0.01
    raw = read_idx(SYSTEM_FMNIST / "train-labels-idx1-ubyte.gz")
    assert torch.equal(data.train_y, torch.from_numpy(raw.astype("int64")))


def test_configured_root_is_checked_first(tmp_path: Path) -> None:
    for f in SYSTEM_FMNIST.iterdir():
        (tmp_path / f.name).symlink_to(f)
    data = load_dataset("fashion-mnist", root=tmp_path, subset=500)
    assert len(data.train_y) == 500 and len(data.val_y) + len(data.test_y) == 10000


def test_digits_split_is_fixed() -> None:
    a, b = load_dataset("digits"), load_dataset("digits")
    assert a.train_x.shape == (1437, 1, 8, 8)
    assert a.val_x.shape == (180, 1, 8, 8) and a.test_x.shape == (180, 1, 8, 8)
    assert torch.equal(a.train_y, b.train_y)
    assert torch.equal(a.val_x, b.val_x) and torch.equal(a.test_x, b.test_x)


@pytest.mark.slow
def test_the_held_out_images_split_into_validation_and_final_test_by_a_fixed_public_permutation() -> None:
    """Fashion-MNIST's 10,000 test images: halves by the permutation of seed 1, whatever the subset."""
    raw_x = read_idx(SYSTEM_FMNIST / "t10k-images-idx3-ubyte.gz")
    raw_y = torch.from_numpy(read_idx(SYSTEM_FMNIST / "t10k-labels-idx1-ubyte.gz").astype("int64"))
    order = torch.randperm(10000, generator=torch.Generator().manual_seed(1))
    whole, cut = load_dataset("fashion-mnist"), load_dataset("fashion-mnist", subset=500)
    for data in (whole, cut):
        assert len(data.val_y) == len(data.test_y) == 5000
        assert torch.equal(data.val_y, raw_y[order[:5000]]) and torch.equal(data.test_y, raw_y[order[5000:]])
    # the parts are the raw images (normalised), disjoint and together the whole held-out set
    first_val = torch.from_numpy(raw_x[int(order[0])].astype("float32")) / 255
    assert torch.allclose(whole.val_x[0, 0] * 0.3530 + 0.2860, first_val, atol=1e-5)
    assert set(order[:5000].tolist()).isdisjoint(order[5000:].tolist())


def test_missing_dataset_says_how_to_get_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No local copy and a download that fails (a closed local port stands in for no internet)."""
    monkeypatch.setattr(data_module, "CACHE_ROOT", tmp_path / "cache")
    monkeypatch.setattr(torchvision.datasets.MNIST, "mirrors", ["http://127.0.0.1:9/"])
    (tmp_path / "empty").mkdir()  # a root without the dataset
    with pytest.raises(DataUnavailableError) as info:
        load_dataset("mnist", root=tmp_path / "empty")
    message = str(info.value)
    assert message.startswith("dataset: mnist not found") and "--data-root" in message
    assert "\n" not in message


@pytest.mark.parametrize(
    ("name", "subset"),
    [("digits", None), ("digits", 100), ("digits", 5000), ("fashion-mnist", None), ("fashion-mnist", 500)],
)
def test_train_size_is_what_a_run_trains_on(name: str, subset: int | None) -> None:
    assert train_size(name, subset=subset) == len(load_dataset(name, subset=subset).train_y)


def test_train_size_reads_the_configured_root_first(tmp_path: Path) -> None:
    """A root with its own IDX copy (here: Fashion-MNIST's test files as training files) decides."""
    for stem in ("train-images-idx3-ubyte", "train-labels-idx1-ubyte"):
        (tmp_path / f"{stem}.gz").symlink_to(SYSTEM_FMNIST / f"{stem.replace('train', 't10k')}.gz")
    for stem in ("t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"):
        (tmp_path / f"{stem}.gz").symlink_to(SYSTEM_FMNIST / f"{stem}.gz")
    assert (
        train_size("fashion-mnist", root=tmp_path)
        == 10000
        == len(load_dataset("fashion-mnist", tmp_path).train_y)
    )


def test_a_data_root_that_is_no_folder_is_refused_not_passed_over(tmp_path: Path) -> None:
    """A root that does not exist once fell back to the system's copy without a word."""
    for root in (tmp_path / "missing", tmp_path / "a-file"):
        if root.name == "a-file":
            root.touch()
        with pytest.raises(InputError) as info:
            train_size("digits", root=root)
        assert info.value.field == "data_root" and "is not a folder" in info.value.problem


@pytest.mark.parametrize("name", ["mnist", "cifar10", "cifar100"])
def test_train_size_without_a_local_copy_says_how_to_get_it(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(data_module, "CACHE_ROOT", tmp_path / "cache")
    (tmp_path / "empty").mkdir()  # a root without the dataset
    with pytest.raises(DataUnavailableError) as info:
        train_size(name, root=tmp_path / "empty")
    message = str(info.value)
    assert message.startswith(f"dataset: {name} not found") and "--data-root" in message
    assert "\n" not in message and not (tmp_path / "cache").exists()  # nothing downloaded
