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

A dataset factory (``package.module:function``, ``dptune.base.factories``) gives the user's own data:
``factory_dataset`` states what it returns; its held-out part is split as every dataset's is.

``DATASETS`` names every dataset. Each can say how many training samples a run would get
(``train_size``) without loading it or importing torch, from the same local copy ``load_dataset`` would
read: ``dptune validate`` checks a spec's batch sizes against it.
"""

from __future__ import annotations

import copy
import functools
import gzip
import hashlib
import io
import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np

from dptune.base.errors import DataUnavailableError, InputError
from dptune.base.factories import call_factory, is_import_path
from dptune.base.randomness import cpu_generator, poisson_mask

if TYPE_CHECKING:
    import torch

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
    features: str | None = None  # what the inputs are when not the images (``dptune.engine.features``)

    @functools.cached_property
    def inputs_digest(self) -> str:
        """SHA-256 of every input tensor (training, validation, final test) with its shape, 16 hex digits:
        the name a fixed transform of them is cached under (``dptune.engine.features``). Computed once per
        object and pickled with it, so the trials of a sweep whose driver computed it do not hash again."""
        digest = hashlib.sha256()
        for part in (self.train_x, self.val_x, self.test_x):
            digest.update(str(tuple(part.shape)).encode())
            # a factory's tensors may live on a GPU
            digest.update(part.detach().cpu().contiguous().numpy().data)
        return digest.hexdigest()[:16]

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
        import torch

        held_x, held_y = held
        order = torch.randperm(len(held_y), generator=torch.Generator().manual_seed(HELD_OUT_SPLIT_SEED))
        cut = round(VALIDATION_FRACTION * len(held_y))
        val, test = order[:cut], order[cut:]
        return cls(name, *train, held_x[val], held_y[val], held_x[test], held_y[test], num_classes)

    def subset(self, size: int | None) -> Dataset:
        """The first ``size`` training samples of a fixed, public permutation (the test set is kept
        whole): every run and trial of a sweep trains on the same subset, chosen independently of the
        data and of every run's (secret) randomness."""
        import torch

        if size is None or size >= len(self.train_y):
            return self
        order = torch.randperm(len(self.train_y), generator=torch.Generator().manual_seed(SUBSET_ORDER_SEED))
        keep = order[:size]
        return replace(self, train_x=self.train_x[keep], train_y=self.train_y[keep])


def poisson_rows(n: int, fraction: float, seed: int) -> torch.Tensor:
    """The rows of a Poisson subset of ``n`` training samples: each kept independently with probability
    ``fraction`` (a tuning proxy's subset; the seed is secret, and so are the rows and their number)."""
    import torch

    return torch.nonzero(poisson_mask(n, fraction, cpu_generator(seed))).squeeze(1)


def _tensors(
    images: np.ndarray, labels: np.ndarray, mean: tuple[float, ...], std: tuple[float, ...]
) -> tuple[torch.Tensor, torch.Tensor]:
    """uint8 images [n, h, w] or [n, h, w, c] -> float [n, c, h, w], (x/255 − mean)/std per channel; and
    the labels as int64."""
    import torch

    x = torch.from_numpy(np.array(images, dtype=np.float32)).div_(255.0)
    x = x.unsqueeze(1) if x.ndim == 3 else x.permute(0, 3, 1, 2)
    m = torch.tensor(mean).view(1, -1, 1, 1)
    s = torch.tensor(std).view(1, -1, 1, 1)
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
        mean, std = (self.mean,), (self.std,)
        return Dataset.held_out(
            self.name, _tensors(train_x, train_y, mean, std), _tensors(test_x, test_y, mean, std), 10
        )


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
            _tensors(train.data, train.targets, self.mean, self.std),
            _tensors(test.data, test.targets, self.mean, self.std),
            self.classes,
        )

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
            _tensors(images[train], labels[train], (0.5,), (0.5,)),
            _tensors(images[test], labels[test], (0.5,), (0.5,)),
            10,
        )

    def train_size(self, root: Path | None) -> int:
        return self._train_count(self.SAMPLES)


class DataSource(Protocol):
    """A dataset: loaded from its local copy (or downloaded), or just its training-set size."""

    def load(self, root: Path | None) -> Dataset: ...

    def train_size(self, root: Path | None) -> int: ...


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
"""Every dataset by name (the names are ``dptune train --dataset``'s choices)."""


def _part(value: Any, path: str) -> tuple[torch.Tensor, torch.Tensor]:
    """A factory's ``(inputs, labels)`` pair of tensors or arrays, or a torch dataset of ``(input,
    label)`` items, as float32 inputs ``[n, …]`` and int64 labels ``[n]``."""
    import torch

    if isinstance(value, torch.utils.data.Dataset):
        items = [value[i] for i in range(len(value))]  # type: ignore[arg-type]
        value = (
            torch.stack([torch.as_tensor(x) for x, _ in items]) if items else torch.zeros(0),
            torch.tensor([int(y) for _, y in items], dtype=torch.int64),
        )
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        raise InputError(
            "dataset",
            f"{path}: each part must be (inputs, labels) or a dataset of (input, label) items",
        )
    x, y = (torch.as_tensor(np.asarray(v)) if not torch.is_tensor(v) else v for v in value)
    if y.ndim != 1 or y.is_floating_point() or len(y) != len(x) or len(x) == 0:
        raise InputError(
            "dataset",
            f"{path}: needs one integer label per input, got {tuple(x.shape)} and {tuple(y.shape)}",
        )
    return x.float().contiguous(), y.long()


def factory_dataset(path: str, args: dict[str, Any]) -> Dataset:
    """The data a dataset factory returns: a mapping ``{"train": T, "held_out": H, "num_classes": K}``,
    T and H each ``(inputs, labels)`` (tensors or arrays, inputs ``[n, …]`` already normalised) or a
    torch dataset of ``(input, label)`` items, labels in 0…K−1. The held-out part is split into
    validation and final test as every dataset's is (``Dataset.held_out``)."""
    result = call_factory(path, args, "dataset")
    if not isinstance(result, Mapping) or set(result) != {"train", "held_out", "num_classes"}:
        raise InputError(
            "dataset",
            f"{path} must return {{'train': (x, y), 'held_out': (x, y), 'num_classes': K}}, got "
            f"{type(result).__name__}",
        )
    classes = result["num_classes"]
    if not isinstance(classes, int) or classes < 2:
        raise InputError("dataset", f"{path}'s num_classes must be an integer >= 2, got {classes!r}")
    train, held = _part(result["train"], path), _part(result["held_out"], path)
    if train[0].shape[1:] != held[0].shape[1:]:
        raise InputError("dataset", f"{path}'s training and held-out inputs differ in shape")
    for _, labels in (train, held):
        if int(labels.min()) < 0 or int(labels.max()) >= classes:
            raise InputError("dataset", f"{path}'s labels must lie in 0…{classes - 1}")
    return Dataset.held_out(path, train, held, classes)


def check_dataset_name(name: str, field: str = "dataset") -> str:
    if name not in DATASETS and not is_import_path(name):
        raise InputError(
            field,
            f"unknown dataset {name!r}; valid: {', '.join(DATASETS)}, or a factory package.module:function",
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
    data = _factory_data(name, args or {}) if is_import_path(name) else DATASETS[name].load(directory)
    return data.subset(subset)


_LAST_FACTORY_DATA: list[tuple[str, dict[str, Any], Dataset]] = []
"""The last (factory, a copy of its arguments, its data) of ``_factory_data``: at most one."""


def _factory_data(path: str, args: dict[str, Any]) -> Dataset:
    """``factory_dataset(path, args)``, kept for the next call with the same factory and equal arguments:
    a sweep loads the user's data in the CLI's checks (``dptune.sweep.preflight``) and again for its
    trials, and a factory may download or preprocess for minutes. The arguments reach the factory as
    given (any values, compared by equality); only the last result is kept, and an error is not."""
    if _LAST_FACTORY_DATA and _LAST_FACTORY_DATA[0][:2] == (path, args):
        return _LAST_FACTORY_DATA[0][2]
    data = factory_dataset(path, args)
    _LAST_FACTORY_DATA[:] = [(path, copy.deepcopy(args), data)]
    return data


def train_size(
    name: str, root: str | Path | None = None, subset: int | None = None, args: dict[str, Any] | None = None
) -> int:
    """``len(load_dataset(name, root, subset, args).train_y)``: for a named dataset from the local copy's
    size alone (no torch, no download; ``DataUnavailableError`` where there is no local copy), for a
    factory by calling it."""
    if is_import_path(name):
        return len(load_dataset(name, root, subset, args).train_y)
    check_dataset_name(name)
    n = DATASETS[name].train_size(_root(root, subset))
    return n if subset is None else min(subset, n)
