"""Datasets as in-memory tensors, resolved from local copies first.

Every dataset's held-out images (the published test set; digits' fixed 20%) are split once, by a fixed
public permutation (``HELD_OUT_SPLIT_SEED``, chosen without looking at any data), into a **validation**
part, which trials are scored and selected on, and a **final-test** part, which only the re-runs of a
selected configuration are evaluated on. Neither part is training data, so neither score costs privacy
of the training set; keeping them apart keeps the reported accuracy free of the selection's bias.

Resolution order for every image dataset: the configured root (``--data-root`` or ``DPTUNE_DATA``),
the system copy (Debian's ``dataset-fashion-mnist`` puts Fashion-MNIST in
``/usr/share/datasets/fashion-mnist``), then a torchvision download into ``~/.cache/dptune``. If all
fail, a ``DataUnavailableError`` says in one line how to get the data. ``digits`` ships with
scikit-learn and is always offline.
"""

from __future__ import annotations

import gzip
import os
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import torch

from dptune.errors import DataUnavailableError, InputError

SUBSET_ORDER_SEED = 0
"""Seed of the public permutation that ``--subset`` cuts: a data-independent choice, not run noise."""
HELD_OUT_SPLIT_SEED = 1
"""Seed of the public permutation that splits the held-out images into validation and final test."""
VALIDATION_FRACTION = 0.5
"""The share of the held-out images that the validation part gets (Fashion-MNIST: 5,000 and 5,000)."""
CACHE_ROOT = Path(os.environ.get("DPTUNE_CACHE", Path.home() / ".cache" / "dptune"))


@dataclass(frozen=True)
class Dataset:
    """Normalised images ``[n, c, h, w]`` (float32) and integer labels: training, validation and
    final-test parts (the last two from the held-out images, ``held_out``)."""

    name: str
    train_x: torch.Tensor
    train_y: torch.Tensor
    val_x: torch.Tensor
    val_y: torch.Tensor
    test_x: torch.Tensor
    test_y: torch.Tensor
    num_classes: int

    @classmethod
    def held_out(
        cls,
        name: str,
        train: tuple[torch.Tensor, torch.Tensor],
        held: tuple[torch.Tensor, torch.Tensor],
        num_classes: int,
    ) -> Dataset:
        """The training images, and the held-out ones split by the fixed public permutation: its first
        ``VALIDATION_FRACTION`` is the validation part, the rest the final-test part."""
        held_x, held_y = held
        order = torch.randperm(len(held_y), generator=torch.Generator().manual_seed(HELD_OUT_SPLIT_SEED))
        cut = round(VALIDATION_FRACTION * len(held_y))
        val, test = order[:cut], order[cut:]
        return cls(name, *train, held_x[val], held_y[val], held_x[test], held_y[test], num_classes)

    @property
    def in_channels(self) -> int:
        return int(self.train_x.shape[1])

    @property
    def image_size(self) -> int:
        return int(self.train_x.shape[2])

    def subset(self, size: int | None) -> Dataset:
        """The first ``size`` training samples of a fixed, public permutation (the test set is kept
        whole): every run and trial of a sweep trains on the same subset, chosen independently of the
        data and of every run's (secret) randomness."""
        if size is None or size >= len(self.train_y):
            return self
        order = torch.randperm(len(self.train_y), generator=torch.Generator().manual_seed(SUBSET_ORDER_SEED))
        keep = order[:size]
        return replace(self, train_x=self.train_x[keep], train_y=self.train_y[keep])


def _normalise(images: np.ndarray, mean: tuple[float, ...], std: tuple[float, ...]) -> torch.Tensor:
    """uint8 images [n, h, w] or [n, h, w, c] -> float [n, c, h, w], (x/255 − mean)/std per channel."""
    x = torch.from_numpy(np.array(images, dtype=np.float32)).div_(255.0)
    x = x.unsqueeze(1) if x.ndim == 3 else x.permute(0, 3, 1, 2)
    m = torch.tensor(mean).view(1, -1, 1, 1)
    s = torch.tensor(std).view(1, -1, 1, 1)
    return ((x - m) / s).contiguous()


def read_idx(path: Path) -> np.ndarray:
    """An IDX file (LeCun's MNIST format), optionally gzipped, as a numpy array."""
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rb") as handle:
        data = handle.read()
    if data[0] != 0 or data[1] != 0 or data[2] != 0x08:
        raise ValueError(f"{path} is not an unsigned-byte IDX file")
    ndim = data[3]
    dims = tuple(int.from_bytes(data[4 + 4 * i : 8 + 4 * i], "big") for i in range(ndim))
    return np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * ndim).reshape(dims)


IDX_FILES = (
    "train-images-idx3-ubyte",
    "train-labels-idx1-ubyte",
    "t10k-images-idx3-ubyte",
    "t10k-labels-idx1-ubyte",
)


def _find_idx(directory: Path) -> list[Path] | None:
    """The four IDX files in ``directory`` (plain or .gz), or None."""
    found = []
    for stem in IDX_FILES:
        candidates = [directory / stem, directory / f"{stem}.gz"]
        match = next((c for c in candidates if c.is_file()), None)
        if match is None:
            return None
        found.append(match)
    return found


@dataclass(frozen=True)
class IdxSource:
    """An MNIST-format dataset: where it may be on disk, and its torchvision class for downloads."""

    name: str
    system_dirs: tuple[str, ...]
    torchvision_class: str
    mean: float
    std: float
    install_hint: str


def _load_idx_dataset(source: IdxSource, root: Path | None) -> Dataset:
    dirs = [d for d in (root, *(Path(p) for p in source.system_dirs)) if d is not None]
    tv_dirs = [d / source.torchvision_class / "raw" for d in (*dirs, CACHE_ROOT)]
    for directory in (*dirs, *tv_dirs):
        files = _find_idx(directory)
        if files is not None:
            return _dataset_from_idx(source, files)
    try:
        import torchvision.datasets as tvd

        getattr(tvd, source.torchvision_class)(str(CACHE_ROOT), train=True, download=True)
        getattr(tvd, source.torchvision_class)(str(CACHE_ROOT), train=False, download=True)
    except Exception as exc:  # no internet, proxy refusal, partial download …
        looked = ", ".join(str(d) for d in dirs) or "(no local root)"
        raise DataUnavailableError(
            "dataset",
            f"{source.name} not found in {looked} and the download failed "
            f"({type(exc).__name__}); {source.install_hint}",
        ) from None
    files = _find_idx(CACHE_ROOT / source.torchvision_class / "raw")
    assert files is not None, "torchvision reported success but wrote no IDX files"
    return _dataset_from_idx(source, files)


def _dataset_from_idx(source: IdxSource, files: list[Path]) -> Dataset:
    train_x, train_y, test_x, test_y = (read_idx(f) for f in files)
    return Dataset.held_out(
        source.name,
        (_normalise(train_x, (source.mean,), (source.std,)), torch.from_numpy(train_y.astype(np.int64))),
        (_normalise(test_x, (source.mean,), (source.std,)), torch.from_numpy(test_y.astype(np.int64))),
        10,
    )


FASHION_MNIST = IdxSource(
    "fashion-mnist",
    ("/usr/share/datasets/fashion-mnist",),
    "FashionMNIST",
    0.2860,
    0.3530,
    "install it with `apt-get install dataset-fashion-mnist` or pass --data-root DIR holding its IDX files",
)
MNIST = IdxSource(
    "mnist",
    ("/usr/share/datasets/mnist",),
    "MNIST",
    0.1307,
    0.3081,
    "pass --data-root DIR holding MNIST's four IDX files (train-images-idx3-ubyte …)",
)


def _load_cifar(name: str, root: Path | None) -> Dataset:
    import torchvision.datasets as tvd

    cls, classes = (tvd.CIFAR10, 10) if name == "cifar10" else (tvd.CIFAR100, 100)
    mean, std = {
        "cifar10": ((0.4914, 0.4822, 0.4465), (0.2470, 0.2435, 0.2616)),
        "cifar100": ((0.5071, 0.4865, 0.4409), (0.2673, 0.2564, 0.2762)),
    }[name]
    candidates = [d for d in (root, CACHE_ROOT) if d is not None]
    for directory in candidates:
        try:
            train, test = cls(str(directory), train=True), cls(str(directory), train=False)
            break
        except RuntimeError:  # "Dataset not found or corrupted"
            continue
    else:
        try:
            train = cls(str(CACHE_ROOT), train=True, download=True)
            test = cls(str(CACHE_ROOT), train=False, download=True)
        except Exception as exc:
            looked = ", ".join(str(d) for d in candidates)
            raise DataUnavailableError(
                "dataset",
                f"{name} not found in {looked} and the download failed ({type(exc).__name__}); "
                f"pass --data-root DIR holding torchvision's {cls.__name__} folder "
                f"(cifar-10-batches-py or cifar-100-python)",
            ) from None
    return Dataset.held_out(
        name,
        (_normalise(train.data, mean, std), torch.tensor(train.targets, dtype=torch.int64)),
        (_normalise(test.data, mean, std), torch.tensor(test.targets, dtype=torch.int64)),
        classes,
    )


def _load_digits(root: Path | None) -> Dataset:
    """scikit-learn's 8×8 digits (1,797 images, 16 grey levels): a fixed 80/20 split into training and
    held-out images."""
    from sklearn.datasets import load_digits

    bunch = load_digits()
    images = (bunch.images * (255.0 / 16.0)).astype(np.uint8)
    labels = bunch.target.astype(np.int64)
    order = np.random.default_rng(0).permutation(len(labels))
    cut = int(0.8 * len(labels))
    train, test = order[:cut], order[cut:]
    return Dataset.held_out(
        "digits",
        (_normalise(images[train], (0.5,), (0.5,)), torch.from_numpy(labels[train])),
        (_normalise(images[test], (0.5,), (0.5,)), torch.from_numpy(labels[test])),
        10,
    )


LOADERS: dict[str, Callable[[Path | None], Dataset]] = {
    "fashion-mnist": lambda root: _load_idx_dataset(FASHION_MNIST, root),
    "mnist": lambda root: _load_idx_dataset(MNIST, root),
    "cifar10": lambda root: _load_cifar("cifar10", root),
    "cifar100": lambda root: _load_cifar("cifar100", root),
    "digits": _load_digits,
}


def check_dataset_name(name: str, field: str = "dataset") -> str:
    if name not in LOADERS:
        raise InputError(field, f"unknown dataset {name!r}; valid: {', '.join(LOADERS)}")
    return name


def load_dataset(name: str, root: str | Path | None = None, subset: int | None = None) -> Dataset:
    """The named dataset, resolved locally first; ``subset`` keeps that many training samples."""
    check_dataset_name(name)
    if subset is not None and subset < 1:
        raise InputError("subset", f"must be a positive number of training samples, got {subset}")
    configured = root if root is not None else os.environ.get("DPTUNE_DATA")
    return LOADERS[name](Path(configured) if configured else None).subset(subset)
