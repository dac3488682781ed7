"""Pretrained models' names and arguments, without torch (read by a run's configuration and a spec's
checks; ``dptune.models.pretrained`` loads them)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dptune.base.errors import InputError

PRETRAINED_PREFIX = "hf:"
"""A model's name ``hf:NAME``: the Hugging Face model NAME (a hub name or a local folder)."""

TIMM_HUB = "timm/"
"""Hub names under this organisation are ``timm``'s image models, which ``timm`` loads."""

TASKS: dict[str, str] = {
    "sequence-classification": "AutoModelForSequenceClassification",
    "image-classification": "AutoModelForImageClassification",
}
"""The tasks a pretrained model is fine-tuned for, each by the ``transformers`` auto class that loads it."""

TEXT_TASK = "sequence-classification"
IMAGE_TASK = "image-classification"
MODEL_ARGS = ("task", "revision", "lora_targets")
"""What ``model_args`` of a pretrained model may give (``model.args`` of a spec)."""


def is_pretrained(name: str) -> bool:
    return isinstance(name, str) and name.startswith(PRETRAINED_PREFIX) and len(name) > len(PRETRAINED_PREFIX)


def pretrained_source(name: str) -> str:
    """NAME of ``hf:NAME``."""
    return name[len(PRETRAINED_PREFIX) :]


def is_timm(source: str) -> bool:
    """Whether the pretrained model ``source`` is ``timm``'s: a hub name under ``timm/``, or a folder whose
    ``config.json`` is timm's (``save_for_hf``'s: an ``architecture``, no ``transformers`` ``model_type``)."""
    if not Path(source).is_dir():
        return source.startswith(TIMM_HUB)
    try:
        config = json.loads((Path(source) / "config.json").read_text())
    except (OSError, ValueError):
        return False
    return isinstance(config, dict) and "architecture" in config and "model_type" not in config


def check_model_args(name: str, args: dict[str, Any], field: str = "model.args") -> None:
    """A pretrained model's arguments: known keys, a known task (a timm model's: images)."""
    for key in args:
        if key not in MODEL_ARGS:
            raise InputError(
                f"{field}.{key}", f"not an argument of a pretrained model; valid: {', '.join(MODEL_ARGS)}"
            )
    task = task_of(name, args)
    if task not in TASKS:
        raise InputError(f"{field}.task", f"must be one of {', '.join(TASKS)}, got {task!r}")
    if task != IMAGE_TASK and is_timm(pretrained_source(name)):
        raise InputError(
            f"{field}.task", f"{pretrained_source(name)} is a timm image model: give {IMAGE_TASK}"
        )
    targets = args.get("lora_targets")
    if targets is not None and (
        not isinstance(targets, list) or not targets or not all(isinstance(t, str) for t in targets)
    ):
        raise InputError(
            f"{field}.lora_targets", f"must be a list of module names, e.g. [query, value], got {targets!r}"
        )


def task_of(name: str, args: dict[str, Any]) -> str:
    """The task the pretrained model ``name`` is fine-tuned for: ``args``' ``task``, else a timm model's
    images and any other model's text."""
    return str(args.get("task", IMAGE_TASK if is_timm(pretrained_source(name)) else TEXT_TASK))


IDENTITY_FILES = ("*.safetensors", "*.bin", "*.pt", "*.pth", "*.json", "*.txt", "*.model")
"""The files of a checkpoint folder that make its function: weights, configuration (an activation, a
norm's epsilon) and tokenizer (vocabulary, merges, rules)."""


@dataclass(frozen=True)
class WeightsIdentity:
    """What pretrained weights a run loaded: the name it gave, and the hub's commit (a hub or cache load)
    or the SHA-256 of the folder's files that make the model's function (``IDENTITY_FILES``: a local
    folder), 16 hex digits."""

    name: str
    revision: str | None
    sha256: str | None

    def as_dict(self) -> dict[str, str]:
        found = {"revision": self.revision, "sha256": self.sha256}
        return {"name": self.name, **{key: value for key, value in found.items() if value is not None}}


def folder_identity(name: str) -> WeightsIdentity:
    """A local checkpoint folder by the SHA-256 of its weight, configuration and tokenizer files
    (``IDENTITY_FILES``: names and bytes, in order)."""
    digest = hashlib.sha256()
    for file in sorted({f for pattern in IDENTITY_FILES for f in Path(name).glob(pattern)}):
        digest.update(file.name.encode())
        with open(file, "rb") as handle:
            for block in iter(lambda: handle.read(1 << 20), b""):
                digest.update(block)
    return WeightsIdentity(name, None, digest.hexdigest()[:16])


def cached_snapshot(
    source: str, revision: str | None, holding: tuple[str, ...] = ("config.json",)
) -> Path | None:
    """The local Hugging Face cache's snapshot folder of ``source`` at ``revision`` (a branch, tag or
    commit; default ``main``), named by its hub commit, where it holds one of the files ``holding``
    (default ``config.json``, which every ``transformers`` and ``timm`` hub model has): what a hub or
    cache load reads; None where the cache does not hold it."""
    from huggingface_hub import try_to_load_from_cache

    for name in holding:
        found = try_to_load_from_cache(source, name, revision=revision or "main")
        if isinstance(found, str):
            return Path(found).parent
    return None


def cached_commit(source: str, revision: str | None) -> str | None:
    """The hub commit of ``source`` at ``revision`` that the local cache holds (``cached_snapshot``'s
    name); None where it does not hold it."""
    snapshot = cached_snapshot(source, revision)
    return None if snapshot is None else snapshot.name


HUB_PROBE_SECONDS = 5.0
"""How long ``hub_reachable``'s one request may take."""


def hub_reachable() -> bool:
    """Whether the Hugging Face hub answers one request (a ``HEAD`` of its endpoint through
    ``huggingface_hub``'s own client, so its proxies and ``HF_ENDPOINT``): False at once with
    ``HF_HUB_OFFLINE``. A load that is not in a folder or the cache asks this first, so an unreachable hub
    is one line at once instead of ``huggingface_hub``'s retries with back-off."""
    from huggingface_hub import constants
    from huggingface_hub.utils import get_session

    if constants.HF_HUB_OFFLINE:
        return False
    try:
        get_session().head(constants.ENDPOINT, timeout=HUB_PROBE_SECONDS)
    except Exception:  # any failure to get an answer (the client's error types vary by version): unreachable
        return False
    return True


def stated_weights(model: str, args: dict[str, Any]) -> dict[str, str] | None:
    """What a card names as the pretrained weights of ``model`` (None: not pretrained): a folder's hash,
    or the hub name with the commit the cache holds for the revision the spec gives (default ``main``),
    which the trials loaded; where the cache does not hold it, the revision as given, said unresolved."""
    if not is_pretrained(model):
        return None
    source = pretrained_source(model)
    if Path(source).is_dir():
        return folder_identity(source).as_dict()
    revision = args.get("revision")
    commit = cached_commit(source, revision) or f"{revision or 'main'} (commit not in the local cache)"
    return WeightsIdentity(source, commit, None).as_dict()
