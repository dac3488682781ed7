"""Datasets by name, resolved from local copies first, as ``Dataset``s (``dptune.engine.dataset``: the
training part, and the held-out examples split into validation and final test).

Resolution order for every built-in image dataset: the configured root (``--data-root`` or
``DPTUNE_DATA``), the system copy (Debian's ``dataset-fashion-mnist`` puts Fashion-MNIST in
``/usr/share/datasets/fashion-mnist``), then a torchvision download into ``~/.cache/dptune``. If all
fail, a ``DataUnavailableError`` says in one line how to get the data. ``digits`` ships with
scikit-learn and is always offline.

A dataset factory (``package.module:function``) gives the user's own data (``dptune.engine.user_data``);
text, the GLUE tasks' or the user's files, is tokenized by ``dptune.engine.text``.

``DATASETS`` names every dataset. Each can say how many training samples a run would get
(``train_size``) without loading it or importing torch, from the same local copy ``load_dataset`` would
read: ``dptune validate`` checks a spec's batch sizes against it.
"""

from __future__ import annotations

import gzip
import io
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from dptune.base.errors import DataUnavailableError, InputError
from dptune.base.factories import is_import_path
from dptune.engine.cache import CACHE_ROOT
from dptune.engine.dataset import Dataset
from dptune.engine.text_names import GLUE_TASKS, TEXT_DATASETS
from dptune.engine.user_data import cached_factory_dataset

if TYPE_CHECKING:
    import torch


@dataclass(frozen=True)
class PixelScale:
    """How a built-in image dataset's pixels become a model's inputs: uint8 images ``[n, h, w]`` or
    ``[n, h, w, c]`` to float ``[n, c, h, w]``, x/255 − mean, divided by std, per channel (public
    constants of the dataset, never the private records'). A released model's pyfunc applies the same to
    uint8 images (``dptune.tracking.dptune_released_model``, which cannot import dptune)."""

    mean: tuple[float, ...]
    std: tuple[float, ...]


def _tensors(images: np.ndarray, labels: np.ndarray, scale: PixelScale) -> tuple[torch.Tensor, torch.Tensor]:
    """``images`` as ``scale`` makes them inputs, and the labels as int64."""
    import torch

    x = torch.from_numpy(np.array(images, dtype=np.float32)).div_(255.0)
    x = x.unsqueeze(1) if x.ndim == 3 else x.permute(0, 3, 1, 2)
    m = torch.tensor(scale.mean).view(1, -1, 1, 1)
    s = torch.tensor(scale.std).view(1, -1, 1, 1)
    return ((x - m) / s).contiguous(), torch.from_numpy(np.asarray(labels, dtype=np.int64))


def _open_idx(path: Path) -> io.BufferedIOBase:
    """An IDX file for reading, decompressed if gzipped."""
    return gzip.open(path, "rb") if path.suffix == ".gz" else open(path, "rb")


def _idx_shape(header: bytes, path: Path) -> tuple[int, ...]:
    """The dimensions an IDX header declares: magic 0, 0, 0x08 (unsigned bytes) and the rank r ≥ 1, then
    r big-endian 32-bit sizes."""
    if len(header) < 4 or header[:3] != b"\x00\x00\x08" or header[3] < 1 or len(header) < 4 + 4 * header[3]:
        raise ValueError(f"{path} is not an unsigned-byte IDX file")
    return tuple(int.from_bytes(header[4 + 4 * i : 8 + 4 * i], "big") for i in range(header[3]))


def read_idx(path: Path) -> np.ndarray:
    """An IDX file (LeCun's MNIST format), optionally gzipped, as a numpy array."""
    with _open_idx(path) as handle:
        data = handle.read()
    dims = _idx_shape(data, path)
    return np.frombuffer(data, dtype=np.uint8, offset=4 + 4 * len(dims)).reshape(dims)


def idx_length(path: Path) -> int:
    """The number of items of an IDX file (its first dimension), from its header alone."""
    with _open_idx(path) as handle:
        start = handle.read(4)
        header = start + handle.read(4 * start[3]) if len(start) == 4 else start
    return _idx_shape(header, path)[0]


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

    def roots(self, root: Path | None) -> list[Path]:
        """The directories that may hold the IDX files, first to last: the configured root, the system
        copies (each also in torchvision's layout, ``CLASS/raw``)."""
        return [d for d in (root, *(Path(p) for p in self.system_dirs)) if d is not None]

    def local_files(self, root: Path | None) -> list[Path] | None:
        """The four IDX files of the first local copy (the roots, then torchvision's cache), or None."""
        dirs = self.roots(root)
        tv_dirs = [d / self.torchvision_class / "raw" for d in (*dirs, CACHE_ROOT)]
        return next((files for d in (*dirs, *tv_dirs) if (files := _find_idx(d)) is not None), None)

    def not_found(self, root: Path | None, why: str) -> DataUnavailableError:
        looked = ", ".join(str(d) for d in self.roots(root)) or "(no local root)"
        return DataUnavailableError("dataset", f"{self.name} not found in {looked}{why}; {self.install_hint}")

    def load(self, root: Path | None) -> Dataset:
        files = self.local_files(root)
        if files is not None:
            return self._dataset(files)
        try:
            import torchvision.datasets as tvd

            getattr(tvd, self.torchvision_class)(str(CACHE_ROOT), train=True, download=True)
            getattr(tvd, self.torchvision_class)(str(CACHE_ROOT), train=False, download=True)
        except Exception as exc:  # no internet, proxy refusal, partial download …
            raise self.not_found(root, f" and the download failed ({type(exc).__name__})") from None
        files = _find_idx(CACHE_ROOT / self.torchvision_class / "raw")
        assert files is not None, "torchvision reported success but wrote no IDX files"
        return self._dataset(files)

    def train_size(self, root: Path | None) -> int:
        """The training images of the local copy, from its labels file's header (no download)."""
        files = self.local_files(root)
        if files is None:
            raise self.not_found(root, " (a size is read from a local copy; nothing is downloaded)")
        return idx_length(files[1])

    def _dataset(self, files: list[Path]) -> Dataset:
        train_x, train_y, test_x, test_y = (read_idx(f) for f in files)
        pixels = self.pixels
        return Dataset.held_out(
            self.name, _tensors(train_x, train_y, pixels), _tensors(test_x, test_y, pixels), 10
        )

    @property
    def pixels(self) -> PixelScale:
        return PixelScale((self.mean,), (self.std,))


@dataclass(frozen=True)
class CifarSource:
    """CIFAR-10 or CIFAR-100 in torchvision's layout (``folder`` under the root or the cache), which
    torchvision checks against its published checksums: a copy it loads has ``TRAIN_SIZE`` images."""

    name: str
    torchvision_class: str
    folder: str
    classes: int
    mean: tuple[float, float, float]
    std: tuple[float, float, float]

    TRAIN_SIZE = 50_000

    def candidates(self, root: Path | None) -> list[Path]:
        return [d for d in (root, CACHE_ROOT) if d is not None]

    def not_found(self, root: Path | None, why: str) -> DataUnavailableError:
        looked = ", ".join(str(d) for d in self.candidates(root))
        return DataUnavailableError(
            "dataset",
            f"{self.name} not found in {looked}{why}; pass --data-root DIR holding torchvision's "
            f"{self.torchvision_class} folder ({self.folder})",
        )

    def load(self, root: Path | None) -> Dataset:
        import torchvision.datasets as tvd

        cls = getattr(tvd, self.torchvision_class)
        for directory in self.candidates(root):
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
                raise self.not_found(root, f" and the download failed ({type(exc).__name__})") from None
        return Dataset.held_out(
            self.name,
            _tensors(train.data, train.targets, self.pixels),
            _tensors(test.data, test.targets, self.pixels),
            self.classes,
        )

    @property
    def pixels(self) -> PixelScale:
        return PixelScale(self.mean, self.std)

    def train_size(self, root: Path | None) -> int:
        """``TRAIN_SIZE`` where a local copy is (no download)."""
        if not any((d / self.folder).is_dir() for d in self.candidates(root)):
            raise self.not_found(root, " (a size is read from a local copy; nothing is downloaded)")
        return self.TRAIN_SIZE


class DigitsSource:
    """scikit-learn's 8×8 digits (``SAMPLES`` images, 16 grey levels): a fixed split of ``TRAIN_SHARE``
    into training images and the rest into held-out ones. Always offline; the root is not used."""

    SAMPLES = 1797
    TRAIN_SHARE = 0.8
    pixels = PixelScale((0.5,), (0.5,))
    """Of its 16 grey levels as uint8 (× 255/16, as ``load`` reads them)."""

    def _train_count(self, samples: int) -> int:
        return int(self.TRAIN_SHARE * samples)

    def load(self, root: Path | None) -> Dataset:
        from sklearn.datasets import load_digits

        bunch = load_digits()
        images = (bunch.images * (255.0 / 16.0)).astype(np.uint8)
        labels = bunch.target
        order = np.random.default_rng(0).permutation(len(labels))
        train, test = np.split(order, [self._train_count(len(labels))])
        return Dataset.held_out(
            "digits",
            _tensors(images[train], labels[train], self.pixels),
            _tensors(images[test], labels[test], self.pixels),
            10,
        )

    def train_size(self, root: Path | None) -> int:
        return self._train_count(self.SAMPLES)


class DataSource(Protocol):
    """A dataset: loaded from its local copy (or downloaded), or just its training-set size."""

    def load(self, root: Path | None) -> Dataset: ...

    def train_size(self, root: Path | None) -> int: ...

    @property
    def pixels(self) -> PixelScale: ...


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

DATASETS: dict[str, DataSource] = {
    "fashion-mnist": FASHION_MNIST,
    "mnist": MNIST,
    "cifar10": CifarSource(
        "cifar10", "CIFAR10", "cifar-10-batches-py", 10, (0.4914, 0.4822, 0.4465), (0.2470, 0.2435, 0.2616)
    ),
    "cifar100": CifarSource(
        "cifar100", "CIFAR100", "cifar-100-python", 100, (0.5071, 0.4865, 0.4409), (0.2673, 0.2564, 0.2762)
    ),
    "digits": DigitsSource(),
}
"""Every image dataset by name (with ``TEXT_DATASETS``, ``dptune train --dataset``'s choices)."""


ALL_DATASETS = (*DATASETS, *TEXT_DATASETS)


def pixel_scale(name: str) -> PixelScale | None:
    """How the built-in image dataset ``name``'s uint8 pixels become inputs; None for any other data."""
    source = DATASETS.get(name)
    return None if source is None else source.pixels


def published_train_size(name: str) -> int | None:
    """The training size a built-in dataset is published with (GLUE's tasks, CIFAR's), None for the
    others: what a plan of a spec on it is made for where no local copy is (``tests``' records)."""
    if name in GLUE_TASKS:
        return GLUE_TASKS[name].published_train_size
    source = DATASETS.get(name)
    return source.TRAIN_SIZE if isinstance(source, CifarSource) else None


def users_own(name: str) -> bool:
    """Whether the dataset ``name`` is the user's own records (a factory's, or text files), whose held-out
    part is as private as its training part by default; a built-in's held-out part is a published split."""
    return is_import_path(name) or name == "text"


def check_dataset_name(name: str, field: str = "dataset") -> str:
    if name not in ALL_DATASETS and not is_import_path(name):
        raise InputError(
            field,
            f"unknown dataset {name!r}; valid: {', '.join(ALL_DATASETS)}, or a factory "
            "package.module:function",
        )
    return name


def _root(root: str | Path | None, subset: int | None) -> Path | None:
    """The configured root (``root``, else ``DPTUNE_DATA``), the subset checked. A root that is not a
    folder is refused (it would otherwise fall back to the system's copy without a word)."""
    if subset is not None and subset < 1:
        raise InputError("subset", f"must be a positive number of training samples, got {subset}")
    field = "data_root" if root is not None else "DPTUNE_DATA"
    configured = root if root is not None else os.environ.get("DPTUNE_DATA")
    if configured and not Path(configured).is_dir():
        raise InputError(field, f"{configured} is not a folder; give the folder that holds the dataset")
    return Path(configured) if configured else None


def load_dataset(
    name: str, root: str | Path | None = None, subset: int | None = None, args: dict[str, Any] | None = None
) -> Dataset:
    """The named dataset, resolved locally first, or a factory's (``args`` its keyword arguments);
    ``subset`` keeps that many training samples."""
    check_dataset_name(name)
    directory = _root(root, subset)
    if name in TEXT_DATASETS:
        from dptune.engine.text import load_text

        return load_text(name, directory, args or {}).subset(subset)
    if is_import_path(name):
        return cached_factory_dataset(name, args or {}).subset(subset)
    data = DATASETS[name].load(directory)
    return data.subset(subset)


def train_size(
    name: str, root: str | Path | None = None, subset: int | None = None, args: dict[str, Any] | None = None
) -> int:
    """``len(load_dataset(name, root, subset, args).train_y)``: for a named dataset from the local copy's
    size alone (no torch, no download; ``DataUnavailableError`` where there is no local copy), for a
    factory by calling it."""
    if is_import_path(name):
        return len(load_dataset(name, root, subset, args).train_y)
    check_dataset_name(name)
    if name in TEXT_DATASETS:
        from dptune.engine.text import text_train_size

        n = text_train_size(name, _root(root, subset), args or {})
    else:
        n = DATASETS[name].train_size(_root(root, subset))
    return n if subset is None else min(subset, n)
