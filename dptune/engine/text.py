"""Text classification data, tokenized once with the model's tokenizer and cached.

Two sources (``dptune.engine.text_names.TEXT_DATASETS``):

* ``glue-sst2``, ``glue-qnli``, ``glue-mnli``, ``glue-qqp``: the GLUE tasks (Wang et al. 2019) through
  ``datasets`` (``nyu-mll/glue``, from the local datasets cache first, else the hub): the training split
  is the training data, the labelled validation split (MNLI's matched one) the held-out data, split into
  validation and final test as every dataset's is (``Dataset.held_out``; GLUE's test labels are not public).
* ``text``: the user's files, CSV / TSV / JSON (lines) / Parquet read by ``datasets``: ``args.train`` and
  ``args.held_out``, a text column (``args.text``, default ``text``), optionally a second one for pairs
  (``args.text_pair``), a label column (``args.label``, default ``label``) of integers 0…K−1 or names, and
  ``args.num_classes`` K, stated (a count of the private labels would be a figure no bound counts).

Every example becomes ``[3, max_length]`` int64: token ids, attention mask and token types, padded on the
right (``dptune.models.pretrained.TextClassifier`` reads it). The tokenized tensors are cached
(``text_cache``: ``DPTUNE_CACHE/text``, e.g. on a cluster's shared storage) under a digest of the
source (the files' bytes, or the GLUE task and ``datasets``' fingerprint of it), the columns, the
tokenizer (its whole serialised vocabulary and rules) and ``max_length``: a sweep's driver tokenizes once
for all its trials, a later sweep of the same data not at all; the file is written whole, then renamed.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import torch

from dptune.base.errors import DataUnavailableError, InputError
from dptune.engine.cache import CACHE_ROOT
from dptune.engine.dataset import Dataset
from dptune.engine.text_names import GLUE_TASKS, TEXT_ARGS
from dptune.engine.user_data import LabelSource, class_indices, read_labels

DEFAULT_MAX_LENGTH = 128
FILE_KINDS = {".csv": "csv", ".tsv": "csv", ".json": "json", ".jsonl": "json", ".parquet": "parquet"}


@dataclass(frozen=True)
class TextColumns:
    text: str
    pair: str | None
    label: str


@dataclass(frozen=True)
class RawText:
    """Each part's texts (pairs: two lists), labels as read, and the number of classes."""

    name: str
    texts: dict[str, tuple[list[str], list[str] | None]]
    labels: dict[str, Any]
    classes: int
    fingerprint: str


def text_cache() -> Path:
    """Where tokenized data is cached: ``DPTUNE_CACHE/text`` (read when called, so that a trial's process
    finds what its driver wrote wherever the environment points both)."""
    configured = os.environ.get("DPTUNE_CACHE")
    return (Path(configured) if configured else CACHE_ROOT) / "text"


def check_text_args(name: str, args: dict[str, Any]) -> None:
    """Known keys; the files and columns of ``text``; ``max_length`` a positive integer."""
    allowed = TEXT_ARGS if name == "text" else ("max_length", "tokenizer", "tokenizer_revision")
    for key in args:
        if key not in allowed:
            raise InputError(f"dataset.args.{key}", f"not an argument of {name}; valid: {', '.join(allowed)}")
    length = args.get("max_length", DEFAULT_MAX_LENGTH)
    if not isinstance(length, int) or isinstance(length, bool) or length < 2:
        raise InputError("dataset.args.max_length", f"must be an integer >= 2 (tokens), got {length!r}")
    if name != "text":
        return
    for key in ("train", "held_out", "num_classes"):
        if key not in args:
            raise InputError(f"dataset.args.{key}", _required(key))
    classes = args["num_classes"]
    if not isinstance(classes, int) or isinstance(classes, bool) or classes < 2:
        raise InputError("dataset.args.num_classes", f"must be an integer >= 2, got {classes!r}")
    for key in ("train", "held_out"):
        path = Path(str(args[key]))
        if path.suffix not in FILE_KINDS:
            raise InputError(f"dataset.args.{key}", f"{path}: give a file ending in {', '.join(FILE_KINDS)}")
        if not path.is_file():
            raise InputError(f"dataset.args.{key}", f"{path} is not a file")


def _required(key: str) -> str:
    what = {
        "train": "the training file (CSV, TSV, JSON lines or Parquet)",
        "held_out": "the held-out file, split into validation and final test",
        "num_classes": "K, the number of classes (labels 0…K−1, or K names)",
    }[key]
    return f"required: {what}"


def _file_digest(paths: list[Path]) -> str:
    digest = hashlib.sha256()
    for path in paths:
        with open(path, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    return digest.hexdigest()


def _datasets() -> Any:
    """``datasets``, its progress bars off (a sweep's terminal shows its own progress)."""
    import datasets

    datasets.disable_progress_bars()
    return datasets


def _text_column(table: Any, column: str, path: Path, key: str) -> list[str]:
    """``table``'s column ``column`` (``dataset.args.KEY``): text in every row (an empty cell, which
    ``datasets`` reads as None, is refused rather than read as the word "None")."""
    values = table[column]
    if not all(isinstance(t, str) for t in values):
        raise InputError(f"dataset.args.{key}", f"{path}'s column {column!r} must hold text in every row")
    return list(values)


def _read_table(path: Path) -> Any:
    """The user's file ``path`` as ``datasets`` reads it, its Arrow copy kept beside the tokenized data
    (``text_cache``), not in the Hugging Face cache: the private data's copies in one place, the one the
    docs name."""
    options = {"delimiter": "\t"} if path.suffix == ".tsv" else {}
    return _datasets().load_dataset(
        FILE_KINDS[path.suffix],
        data_files=str(path),
        split="train",
        cache_dir=str(text_cache() / "arrow"),
        **options,
    )


def _read_files(args: dict[str, Any]) -> RawText:
    columns = TextColumns(
        str(args.get("text", "text")), args.get("text_pair"), str(args.get("label", "label"))
    )
    texts: dict[str, tuple[list[str], list[str] | None]] = {}
    labels: dict[str, Any] = {}
    paths = [Path(str(args["train"])), Path(str(args["held_out"]))]
    for part, key, path in zip(("training", "held-out"), ("train", "held_out"), paths, strict=True):
        try:
            table = _read_table(path)
        except Exception as exc:  # a malformed file: any of pyarrow's or datasets' errors
            raise InputError(
                f"dataset.args.{key}",
                f"{path} cannot be read as {FILE_KINDS[path.suffix]} ({type(exc).__name__})",
            ) from None
        wanted = [c for c in (columns.text, columns.pair, columns.label) if c is not None]
        fields = {columns.text: "text", columns.pair: "text_pair", columns.label: "label"}
        missing = [c for c in wanted if c not in table.column_names]
        if missing:
            raise InputError(
                f"dataset.args.{fields[missing[0]]}",
                f"{path} has no column {missing[0]!r}; its columns: {', '.join(table.column_names)}",
            )
        first = _text_column(table, columns.text, path, "text")
        second = None if columns.pair is None else _text_column(table, columns.pair, path, "text_pair")
        texts[part] = (first, second)
        labels[part] = table[columns.label]
    fingerprint = json.dumps([_file_digest(paths), columns.text, columns.pair, columns.label])
    return RawText("text", texts, labels, int(args["num_classes"]), fingerprint)


def _read_glue(name: str, root: Path | None) -> RawText:
    datasets = _datasets()
    from huggingface_hub.utils import logging as hub_logging

    task, (first, second), held_split, classes, _ = GLUE_TASKS[name]
    level = hub_logging.get_verbosity()
    hub_logging.set_verbosity_error()  # its lines about each unanswered request: the refusal says it once
    try:
        loaded = datasets.load_dataset("nyu-mll/glue", task, cache_dir=None if root is None else str(root))
    except Exception as exc:  # offline and not cached: datasets raises one of several errors
        home = os.environ.get("HF_HOME", "~/.cache/huggingface")
        raise DataUnavailableError(
            "dataset",
            f"{name}: GLUE's {task} is not in the local datasets cache ({home}) and the hub is unreachable "
            f"({type(exc).__name__}); download it where the hub is reachable "
            f"(datasets.load_dataset('nyu-mll/glue', '{task}')), or give its files as dataset: {{name: text, "
            "args: {train: …, held_out: …}}",
        ) from None
    finally:
        hub_logging.set_verbosity(level)
    texts, labels = {}, {}
    for part, split in (("training", "train"), ("held-out", held_split)):
        table = loaded[split]
        texts[part] = (list(table[first]), None if second is None else list(table[second]))
        labels[part] = table["label"]
    fingerprint = json.dumps([name, loaded["train"]._fingerprint, loaded[held_split]._fingerprint])
    return RawText(name, texts, labels, classes, fingerprint)


def _tokenizer_digest(tokenizer: Any) -> str:
    backend = getattr(tokenizer, "backend_tokenizer", None)
    described = backend.to_str() if backend is not None else repr(sorted(tokenizer.get_vocab().items()))
    return hashlib.sha256(described.encode()).hexdigest()


def _encoded(tokenizer: Any, texts: tuple[list[str], list[str] | None], length: int) -> torch.Tensor:
    tokenizer.padding_side = "right"
    encoded = tokenizer(
        texts[0],
        texts[1],
        max_length=length,
        truncation=True,
        padding="max_length",
        return_tensors="pt",
        return_token_type_ids=True,
    )
    return torch.stack([encoded["input_ids"], encoded["attention_mask"], encoded["token_type_ids"]], 1).long()


def _check_length(tokenizer: Any, length: int, model_name: str, revision: str | None) -> None:
    from dptune.models.pretrained import load_config, longest_positions, pretrained_source

    try:
        positions = longest_positions(load_config(pretrained_source(model_name), revision))
    except InputError:  # a tokenizer without a model's configuration: its own limit alone
        positions = None
    limit = min(p for p in (positions, getattr(tokenizer, "model_max_length", None)) if isinstance(p, int))
    if length > limit:
        raise InputError(
            "dataset.args.max_length",
            f"{length} is above the {limit} token positions {model_name} reads; give at most {limit}",
        )


def load_text(name: str, root: Path | None, args: dict[str, Any]) -> Dataset:
    """The text dataset ``name`` (module docstring), tokenized with ``args['tokenizer']`` (the model's
    ``hf:NAME``, filled in by the run's configuration) to ``max_length``, from the cache where it is."""
    from dptune.models.pretrained import load_tokenizer

    check_text_args(name, args)
    model_name = args.get("tokenizer")
    if not model_name:
        raise InputError(
            "model", f"{name} is text: give a pretrained model (model: {{hf: …}}) whose tokenizer reads it"
        )
    raw = _read_files(args) if name == "text" else _read_glue(name, root)
    tokenizer = load_tokenizer(model_name, args.get("tokenizer_revision"))
    length = int(args.get("max_length", DEFAULT_MAX_LENGTH))
    _check_length(tokenizer, length, model_name, args.get("tokenizer_revision"))
    key = hashlib.sha256(  # the classes too: a cached copy was checked against its own K only
        json.dumps([raw.fingerprint, raw.classes, _tokenizer_digest(tokenizer), length]).encode()
    ).hexdigest()
    folder = text_cache()
    path = folder / f"{name}-{key[:16]}.pt"
    if path.is_file():
        return torch.load(path, weights_only=False)
    inputs = {part: _encoded(tokenizer, texts, length) for part, texts in raw.texts.items()}
    source = LabelSource(
        "dataset.args.label",
        "the text files" if name == "text" else name,
        "set dataset.args.num_classes: {k}",
        "write the classes' names in the label column",
    )
    read = {part: read_labels(values, source, part, len(inputs[part])) for part, values in raw.labels.items()}
    indices, names = class_indices(read, source, raw.classes)
    train, held = (
        (inputs[part], torch.from_numpy(np.asarray(indices[part], dtype=np.int64)))
        for part in ("training", "held-out")
    )
    data = replace(Dataset.held_out(name, train, held, raw.classes), label_names=names)
    folder.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(f".{os.getpid()}.partial")
    torch.save(data, partial)
    partial.replace(path)
    return data


def text_train_size(name: str, root: Path | None, args: dict[str, Any]) -> int:
    """The training examples of a text dataset, without tokenizing: GLUE's published count where the
    local cache holds the task, a file's rows."""
    check_text_args(name, args)
    if name == "text":
        return len(_read_table(Path(str(args["train"]))))
    return len(_read_glue(name, root).labels["training"])
