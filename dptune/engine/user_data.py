"""The user's own data from a dataset factory (``package.module:function``, ``dptune.base.factories``).

``factory_dataset`` states what a factory returns and refuses, in one line naming ``dataset`` and the fix,
what would otherwise crash or train to nothing (inputs that are not finite numbers, labels outside 0…K−1
or of a single class); its held-out part is split as every dataset's is (``Dataset.held_out``). Text files'
labels (``dptune.engine.text``) are read by the same rules (``read_labels``, ``class_indices``).
"""

from __future__ import annotations

import contextlib
import copy
import logging
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import numpy as np

from dptune.base.errors import InputError
from dptune.base.factories import call_factory
from dptune.engine.dataset import VALIDATION_FRACTION, Dataset

if TYPE_CHECKING:
    import torch

LARGE_INPUT = 50.0
"""A factory's inputs whose largest magnitude is above this are far from a normalised range:
``factory_dataset`` warns (it does not refuse: the scale may be intended)."""
log = logging.getLogger("dptune.data")


@dataclass(frozen=True)
class LabelSource:
    """Whose labels ``read_labels`` and ``class_indices`` read, in its user's words: the field a refusal
    names, what the data is called, how its user sets K (``{k}``) and gives the classes by name."""

    field: str
    name: str
    set_classes: str
    by_name: str

    def refusal(self, part: str, problem: str) -> InputError:
        """A one-line refusal of ``part`` (``training``, ``held-out``) of these labels."""
        return InputError(self.field, f"{self.name}'s {part} {problem}")


def factory_labels(path: str) -> LabelSource:
    """The labels a dataset factory ``path`` returns."""
    return LabelSource("dataset", path, "return num_classes={k}", "return the classes' names as strings")


def _refusal(path: str, part: str, problem: str) -> InputError:
    """A one-line refusal of ``part`` (``training``, ``held-out``) of the factory ``path``'s data."""
    return factory_labels(path).refusal(part, problem)


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


def read_labels(value: Any, source: LabelSource, part: str, n: int) -> tuple[np.ndarray, str]:
    """A part's labels (a factory's, a text file's column) as a numpy array ``[n]``, and their kind:
    integers (bool too), or names (strings; an object array of strings). Floats, mixed types and other
    shapes are refused, in ``source``'s words."""
    import torch

    try:
        array = value.detach().cpu().numpy() if torch.is_tensor(value) else np.asarray(value)
    except ValueError:
        raise source.refusal(part, "labels must be one label per example, shape [n]") from None
    if array.ndim != 1 or len(array) != n:
        fix = " (e.g. y.ravel())" if array.ndim == 2 and array.shape[1:] == (1,) else ""
        raise source.refusal(
            part, f"labels must be one per example, shape [{n}], got {tuple(array.shape)}{fix}"
        )
    if array.dtype.kind == "O":
        if all(isinstance(v, (int, np.integer)) for v in array):
            array = array.astype(np.int64)
        elif all(isinstance(v, str) for v in array):
            array = array.astype(str)
        else:
            kinds = ", ".join(sorted({type(v).__name__ for v in array}))
            raise source.refusal(
                part, f"labels mix types ({kinds}); give integers 0…K−1 or every label as a string"
            )
    if array.dtype.kind in "biu":
        return array.astype(np.int64), _INTEGERS
    if array.dtype.kind in "US":
        return array.astype(str), _NAMES
    if array.dtype.kind == "f":
        raise source.refusal(
            part,
            f"labels are floats ({array.dtype}); give integers 0…K−1 (e.g. y.astype(int)) or the classes' "
            "names as strings",
        )
    raise source.refusal(part, f"labels are of dtype {array.dtype}; give integers 0…K−1 or strings")


def _shown(names: np.ndarray, most: int = 10) -> str:
    """``'a' → 0, 'b' → 1, …``: the first ``most`` of a mapping from names to class indices."""
    pairs = [f"{name!r} → {index}" for index, name in enumerate(names[:most].tolist())]
    return ", ".join(pairs) + (f", … ({len(names)} classes)" if len(names) > most else "")


def class_indices(
    labels: dict[str, tuple[np.ndarray, str]], source: LabelSource, classes: int
) -> tuple[dict[str, np.ndarray], tuple[str, ...] | None]:
    """Each part's labels as class indices 0…K−1, and the classes' names where the labels were strings:
    the K distinct names of the training and held-out labels together, sorted, are classes 0…K−1. Integer
    labels must lie in 0…K−1. The training labels must hold two classes or more."""
    kinds = {kind for _, kind in labels.values()}
    if len(kinds) > 1:
        raise InputError(
            source.field,
            f"{source.name}'s labels are strings in one part and integers in the other; give one kind",
        )
    names: tuple[str, ...] | None = None
    if kinds == {_NAMES}:
        found, inverse = np.unique(np.concatenate([v for v, _ in labels.values()]), return_inverse=True)
        if len(found) != classes:
            raise InputError(
                source.field,
                f"{source.name}'s labels name {len(found)} classes ({_shown(found)}) but num_classes is "
                f"{classes}; {source.set_classes.format(k=len(found))}, or integer labels 0…{classes - 1}",
            )
        cuts = np.cumsum([len(v) for v, _ in labels.values()])[:-1]
        indices = dict(zip(labels, np.split(inverse.reshape(-1), cuts), strict=True))
        names = tuple(found.tolist())
        log.warning(
            "dptune: note: dataset: %s's labels are strings, mapped to classes in sorted order: %s (the "
            "model's class scores follow this order)",
            source.name,
            _shown(found),
        )
    else:
        indices = {part: values for part, (values, _) in labels.items()}
        for part, values in indices.items():
            low, high = int(values.min()), int(values.max())
            if low < 0 or high >= classes:
                raise source.refusal(
                    part,
                    f"labels run from {low} to {high}, but must lie in 0…{classes - 1} (num_classes "
                    f"{classes}); relabel them (e.g. y - 1 for labels 1…{classes}), raise num_classes, or "
                    f"{source.by_name} (mapped to 0…K−1 in sorted order)",
                )
    present = np.unique(indices["training"])
    if len(present) < 2:
        shown = names[int(present[0])] if names is not None else int(present[0])
        raise source.refusal(
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
        labels[part] = read_labels(y, factory_labels(path), part, len(inputs[part]))
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
    indices, names = class_indices(labels, factory_labels(path), classes)
    _warn_if_far_from_normalised(path, list(inputs.values()))
    import torch

    train, held = (
        (inputs[part], torch.from_numpy(indices[part].astype(np.int64)).to(inputs[part].device))
        for part in ("training", "held-out")
    )
    return replace(Dataset.held_out(path, train, held, classes), label_names=names)


_LAST_FACTORY_DATA: list[tuple[str, dict[str, Any], Dataset]] = []
"""The last (factory, a copy of its arguments, its data) of ``cached_factory_dataset``: at most one."""


def cached_factory_dataset(path: str, args: dict[str, Any]) -> Dataset:
    """``factory_dataset(path, args)``, kept for the next call with the same factory and equal arguments:
    a sweep loads the user's data in the CLI's checks (``dptune.sweep.preflight``) and again for its
    trials, and a factory may download or preprocess for minutes. The arguments reach the factory as
    given (any values, compared by equality); only the last result is kept, and an error is not."""
    if _LAST_FACTORY_DATA and _LAST_FACTORY_DATA[0][:2] == (path, args):
        return _LAST_FACTORY_DATA[0][2]
    data = factory_dataset(path, args)
    _LAST_FACTORY_DATA[:] = [(path, copy.deepcopy(args), data)]
    return data
