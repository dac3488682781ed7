"""Datasets as in-memory tensors, resolved from local copies first.

Every dataset's held-out examples (the published test set; digits' fixed 20%; a factory's held-out part)
are split once, by a fixed public permutation (``HELD_OUT_SPLIT_SEED``, chosen without looking at any
data), into a **validation** part, which trials are scored and selected on, and a **final-test** part,
which only the re-runs of a selected configuration are evaluated on. Neither part is training data, so
neither score costs privacy of the training set; keeping them apart keeps the reported accuracy free of
the selection's bias.

Resolution order for every built-in image dataset: the configured root (``--data-root`` or
``DPTUNE_DATA``), the system copy (Debian's ``dataset-fashion-mnist`` puts Fashion-MNIST in
``/usr/share/datasets/fashion-mnist``), then a torchvision download into ``~/.cache/dptune``. If all
fail, a ``DataUnavailableError`` says in one line how to get the data. ``digits`` ships with
scikit-learn and is always offline.

A dataset factory (``package.module:function``, ``dptune.base.factories``) gives the user's own data:
``factory_dataset`` states what it returns and refuses, in one line naming ``dataset`` and the fix, what
would otherwise crash or train to nothing (inputs that are not finite numbers, labels outside 0…K−1 or of
a single class); its held-out part is split as every dataset's is.

``DATASETS`` names every dataset. Each can say how many training samples a run would get
(``train_size``) without loading it or importing torch, from the same local copy ``load_dataset`` would
read: ``dptune validate`` checks a spec's batch sizes against it.
"""

from __future__ import annotations

import contextlib
import copy
import functools
import gzip
import hashlib
import io
import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

import numpy as np

from dptune.base.errors import DataUnavailableError, InputError
from dptune.base.factories import call_factory, is_import_path
from dptune.base.randomness import cpu_generator, poisson_mask

if TYPE_CHECKING:
    import torch

SUBSET_ORDER_SEED = 0
"""Seed of the public permutation that ``--subset`` cuts: a data-independent choice, not run noise."""
HELD_OUT_SPLIT_SEED = 1
"""Seed of the public permutation that splits the held-out examples into validation and final test."""
VALIDATION_FRACTION = 0.5
"""The share of the held-out examples that the validation part gets (Fashion-MNIST: 5,000 and 5,000)."""
LARGE_INPUT = 50.0
"""A factory's inputs whose largest magnitude is above this are far from a normalised range:
``factory_dataset`` warns (it does not refuse: the scale may be intended)."""
CACHE_ROOT = Path(os.environ.get("DPTUNE_CACHE", Path.home() / ".cache" / "dptune"))

log = logging.getLogger("dptune.data")


@dataclass(frozen=True)
class Dataset:
    """Normalised inputs (float32; a built-in dataset's images ``[n, c, h, w]``, a factory's ``[n, …]``; a
    text dataset's token ids, attention masks and token types, int64 ``[n, 3, T]``) and
    integer labels 0…K−1: training, validation and final-test parts (the last two from the held-out
    examples, ``held_out``). ``label_names``: where a factory gave its labels as strings, the name of
    each class index (sorted: ``factory_dataset``)."""

    name: str
    train_x: torch.Tensor
    train_y: torch.Tensor
    val_x: torch.Tensor
    val_y: torch.Tensor
    test_x: torch.Tensor
    test_y: torch.Tensor
    num_classes: int
    features: str | None = None  # what the inputs are when not the data's own (``dptune.engine.features``)
    label_names: tuple[str, ...] | None = None

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
        """The training examples, and the held-out ones split by the fixed public permutation: its first
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
"""Every image dataset by name (with ``TEXT_DATASETS``, ``dptune train --dataset``'s choices)."""


class GlueTask(NamedTuple):
    """A GLUE task (Wang et al. 2019) as ``datasets`` holds it (``nyu-mll/glue``)."""

    task: str
    columns: tuple[str, str | None]
    held_out_split: str
    classes: int
    published_train_size: int


GLUE_TASKS: dict[str, GlueTask] = {
    "glue-sst2": GlueTask("sst2", ("sentence", None), "validation", 2, 67_349),
    "glue-qnli": GlueTask("qnli", ("question", "sentence"), "validation", 2, 104_743),
    "glue-mnli": GlueTask("mnli", ("premise", "hypothesis"), "validation_matched", 3, 392_702),
    "glue-qqp": GlueTask("qqp", ("question1", "question2"), "validation", 2, 363_846),
}
"""GLUE tasks by name: the task, its text column(s), the labelled split held out, its classes, and its
published training size."""
TEXT_DATASETS = (*GLUE_TASKS, "text")
"""Text datasets (``dptune.engine.text``): the GLUE tasks, and the user's files (``text``)."""
TEXT_ARGS = (
    "train",
    "held_out",
    "text",
    "text_pair",
    "label",
    "num_classes",
    "max_length",
    "tokenizer",
    "tokenizer_revision",
)
"""What ``dataset.args`` of ``text`` may give (``tokenizer`` and its revision: the model's, filled in)."""
ALL_DATASETS = (*DATASETS, *TEXT_DATASETS)


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


def _refusal(path: str, part: str, problem: str) -> InputError:
    """A one-line refusal of ``part`` (``training``, ``held-out``) of the factory ``path``'s data."""
    return InputError("dataset", f"{path}'s {part} {problem}")


def _pairs(value: Any, path: str, part: str) -> tuple[Any, Any]:
    """A factory part as ``(inputs, labels)``: the pair itself, or a torch dataset's ``(input, label)``
    items gathered (inputs stacked, labels as a list)."""
    import torch

    if isinstance(value, torch.utils.data.Dataset):
        try:
            items = [value[i] for i in range(len(value))]  # type: ignore[arg-type]
            inputs, labels = zip(*items, strict=True) if items else ((), ())
        except (TypeError, ValueError):
            raise _refusal(path, part, "dataset's items must be (input, label) pairs") from None
        as_tensors = all(torch.is_tensor(x) for x in inputs)
        stacked = torch.stack(list(inputs)) if as_tensors and inputs else [np.asarray(x) for x in inputs]
        return stacked, [y.item() if torch.is_tensor(y) and y.numel() == 1 else y for y in labels]
    if not isinstance(value, (tuple, list)) or len(value) != 2:
        raise InputError(
            "dataset",
            f"{path}: each part must be (inputs, labels) or a dataset of (input, label) items",
        )
    return value[0], value[1]


def _inputs(value: Any, path: str, part: str) -> torch.Tensor:
    """A factory part's inputs as float32 ``[n, …]`` (a tensor stays on its device): numbers only (an
    array or tensor of them, or an object array of them), every one finite."""
    import torch

    if torch.is_tensor(value):
        x = value
        if x.is_complex():
            raise _refusal(path, part, "inputs are complex numbers; give real numbers [n, …]")
    else:
        try:
            array = np.asarray(value)
        except ValueError:  # rows of different lengths
            raise _refusal(path, part, "inputs must be one array [n, …] whose rows have one shape") from None
        if array.dtype.kind == "O" and not any(isinstance(v, (str, bytes)) for v in array.flat):
            with contextlib.suppress(TypeError, ValueError):  # refused below as not numbers
                array = array.astype(np.float32)
        if array.dtype.kind not in "biuf":
            raise _refusal(
                path,
                part,
                f"inputs are not numbers (dtype {array.dtype}); encode every feature as a number in the "
                "factory (a category as one-hot columns or an index from a fixed public list)",
            )
        x = torch.from_numpy(np.ascontiguousarray(array))
    x = x.float().contiguous()
    if x.ndim == 0 or len(x) == 0:
        raise _refusal(path, part, f"inputs must be an array [n, …] of n >= 1 examples, got {tuple(x.shape)}")
    finite = torch.isfinite(x)
    if not bool(finite.all()):
        nan = int(torch.isnan(x).sum())
        rows = torch.nonzero(~finite.reshape(len(x), -1).all(1)).squeeze(1)
        raise _refusal(
            path,
            part,
            f"inputs hold {nan} NaN and {int((~finite).sum()) - nan} infinite values (or values beyond "
            f"float32), in {len(rows)} of {len(x)} examples, the first at row {int(rows[0])}; fill them in "
            "the factory with a public constant (e.g. 0 for a missing value) or drop those examples",
        )
    return x


_NAMES = "names"
_INTEGERS = "integers"


def _labels(value: Any, path: str, part: str, n: int) -> tuple[np.ndarray, str]:
    """A factory part's labels as a numpy array ``[n]``, and their kind: integers (bool too), or names
    (strings; an object array of strings). Floats, mixed types and other shapes are refused."""
    import torch

    try:
        array = value.detach().cpu().numpy() if torch.is_tensor(value) else np.asarray(value)
    except ValueError:
        raise _refusal(path, part, "labels must be one label per example, shape [n]") from None
    if array.ndim != 1 or len(array) != n:
        fix = " (e.g. y.ravel())" if array.ndim == 2 and array.shape[1:] == (1,) else ""
        raise _refusal(
            path, part, f"labels must be one per example, shape [{n}], got {tuple(array.shape)}{fix}"
        )
    if array.dtype.kind == "O":
        if all(isinstance(v, (int, np.integer)) for v in array):
            array = array.astype(np.int64)
        elif all(isinstance(v, str) for v in array):
            array = array.astype(str)
        else:
            kinds = ", ".join(sorted({type(v).__name__ for v in array}))
            raise _refusal(
                path, part, f"labels mix types ({kinds}); give integers 0…K−1 or every label as a string"
            )
    if array.dtype.kind in "biu":
        return array.astype(np.int64), _INTEGERS
    if array.dtype.kind in "US":
        return array.astype(str), _NAMES
    if array.dtype.kind == "f":
        raise _refusal(
            path,
            part,
            f"labels are floats ({array.dtype}); give integers 0…K−1 (e.g. y.astype(int)) or the classes' "
            "names as strings",
        )
    raise _refusal(path, part, f"labels are of dtype {array.dtype}; give integers 0…K−1 or strings")


def _shown(names: np.ndarray, most: int = 10) -> str:
    """``'a' → 0, 'b' → 1, …``: the first ``most`` of a mapping from names to class indices."""
    pairs = [f"{name!r} → {index}" for index, name in enumerate(names[:most].tolist())]
    return ", ".join(pairs) + (f", … ({len(names)} classes)" if len(names) > most else "")


def _class_indices(
    labels: dict[str, tuple[np.ndarray, str]], path: str, classes: int
) -> tuple[dict[str, np.ndarray], tuple[str, ...] | None]:
    """Each part's labels as class indices 0…K−1, and the classes' names where the labels were strings:
    the K distinct names of the training and held-out labels together, sorted, are classes 0…K−1. Integer
    labels must lie in 0…K−1. The training labels must hold two classes or more."""
    kinds = {kind for _, kind in labels.values()}
    if len(kinds) > 1:
        raise InputError(
            "dataset", f"{path}'s labels are strings in one part and integers in the other; give one kind"
        )
    names: tuple[str, ...] | None = None
    if kinds == {_NAMES}:
        found, inverse = np.unique(np.concatenate([v for v, _ in labels.values()]), return_inverse=True)
        if len(found) != classes:
            raise InputError(
                "dataset",
                f"{path}'s labels name {len(found)} classes ({_shown(found)}) but num_classes is {classes}; "
                f"return num_classes={len(found)}, or integer labels 0…{classes - 1}",
            )
        cuts = np.cumsum([len(v) for v, _ in labels.values()])[:-1]
        indices = dict(zip(labels, np.split(inverse.reshape(-1), cuts), strict=True))
        names = tuple(found.tolist())
        log.warning(
            "dptune: note: dataset: %s's labels are strings, mapped to classes in sorted order: %s (the "
            "model's class scores follow this order)",
            path,
            _shown(found),
        )
    else:
        indices = {part: values for part, (values, _) in labels.items()}
        for part, values in indices.items():
            low, high = int(values.min()), int(values.max())
            if low < 0 or high >= classes:
                raise _refusal(
                    path,
                    part,
                    f"labels run from {low} to {high}, but must lie in 0…{classes - 1} (num_classes "
                    f"{classes}); relabel them (e.g. y - 1 for labels 1…{classes}), raise num_classes, or "
                    "return the classes' names as strings (mapped to 0…K−1 in sorted order)",
                )
    present = np.unique(indices["training"])
    if len(present) < 2:
        shown = names[int(present[0])] if names is not None else int(present[0])
        raise _refusal(
            path,
            "training",
            f"labels are all one class ({shown!r}); a classifier needs training examples of two classes "
            "or more",
        )
    return indices, names


def _warn_if_far_from_normalised(path: str, parts: list[torch.Tensor]) -> None:
    """One warning where an input's magnitude is above ``LARGE_INPUT``: DP training clips each example's
    gradient to a fixed norm, and a few features on a scale of thousands swamp it (a model then learns
    little more than the majority class)."""
    largest = max(float(x.abs().max()) for x in parts)
    if largest > LARGE_INPUT:  # said as above the threshold only: the private maximum itself is not shown
        log.warning(
            "dptune: warning: dataset: %s's inputs reach beyond |x| = %g, far outside a normalised range, "
            "where a few features dominate every clipped gradient; scale each feature in the factory by "
            "fixed public bounds such as its documented range (statistics of the private data, its mean, "
            "std, min or max, would need their own privacy)",
            path,
            LARGE_INPUT,
        )


def factory_dataset(path: str, args: dict[str, Any]) -> Dataset:
    """The data a dataset factory returns: a mapping ``{"train": T, "held_out": H, "num_classes": K}``,
    T and H each ``(inputs, labels)`` (tensors or arrays, inputs ``[n, …]`` already normalised) or a
    torch dataset of ``(input, label)`` items. The held-out part is split into validation and final test
    as every dataset's is (``Dataset.held_out``).

    Inputs must be numbers (numeric arrays or tensors, or object arrays of numbers), every one finite:
    text or NaN/inf is refused. Inputs whose largest magnitude is above ``LARGE_INPUT`` (50) are taken,
    with a warning, as not normalised. Labels are integers in 0…K−1, or strings: then the K distinct
    strings of both parts, sorted, are classes 0…K−1 (stated in a warning line and kept as
    ``Dataset.label_names``; K names must appear). The training labels must hold two classes or more.
    Every refusal is one ``InputError`` naming ``dataset`` and the fix."""
    result = call_factory(path, args, "dataset")
    if not isinstance(result, Mapping) or set(result) != {"train", "held_out", "num_classes"}:
        raise InputError(
            "dataset",
            f"{path} must return {{'train': (x, y), 'held_out': (x, y), 'num_classes': K}}, got "
            f"{type(result).__name__}",
        )
    classes = result["num_classes"]
    if not isinstance(classes, int) or isinstance(classes, bool) or classes < 2:
        raise InputError("dataset", f"{path}'s num_classes must be an integer >= 2, got {classes!r}")
    inputs, labels = {}, {}
    for part, key in (("training", "train"), ("held-out", "held_out")):
        x, y = _pairs(result[key], path, part)
        inputs[part] = _inputs(x, path, part)
        labels[part] = _labels(y, path, part, len(inputs[part]))
    if inputs["training"].shape[1:] != inputs["held-out"].shape[1:]:
        raise InputError("dataset", f"{path}'s training and held-out inputs differ in shape")
    held_rows = len(labels["held-out"])
    if min(round(VALIDATION_FRACTION * held_rows), held_rows - round(VALIDATION_FRACTION * held_rows)) < 1:
        raise _refusal(
            path,
            "held-out",
            f"part has {held_rows} rows: it is split into a validation and a final-test part, so give at "
            "least 2 (a useful selection needs hundreds)",
        )
    indices, names = _class_indices(labels, path, classes)
    _warn_if_far_from_normalised(path, list(inputs.values()))
    import torch

    train, held = (
        (inputs[part], torch.from_numpy(indices[part].astype(np.int64)).to(inputs[part].device))
        for part in ("training", "held-out")
    )
    return replace(Dataset.held_out(path, train, held, classes), label_names=names)


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
    if name in TEXT_DATASETS:
        from dptune.engine.text import text_train_size

        n = text_train_size(name, _root(root, subset), args or {})
    else:
        n = DATASETS[name].train_size(_root(root, subset))
    return n if subset is None else min(subset, n)
