"""Public pretrained Hugging Face models, fine-tuned with DP: loaded by name, wrapped to take one input
tensor, and what of them trains (``dptune.models.trained_parts``).

A model ``hf:NAME`` (a spec's ``model: {hf: FacebookAI/roberta-base, task: sequence-classification,
revision: …}``) is ``transformers``' ``from_pretrained(NAME, revision=…)``: a local folder where NAME is
one (``save_pretrained``'s), else the Hugging Face cache (``HF_HOME``), else the hub where the network
reaches it. A ``timm`` image model (a hub name under ``timm/``, or a folder ``timm``'s ``save_for_hf``
wrote) is ``timm.create_model`` of it, from the same places. The classification head is sized to the
data's K classes (a ``transformers`` checkpoint whose head has another size is refused; a timm
checkpoint's head, of its pretraining's classes, is left out). Dropout is switched off: the model is
one fixed function of its parameters, as the per-sample engines' check assumes
(``dptune.engine.engine_choice.ghost_check``, in eval mode), and no randomness outside the run's secret
streams enters it.

The weights are public: taken as independent of the private data, which is what lets fine-tuning spend
the whole budget on the task. ``WeightsIdentity`` names what was loaded (the hub's commit, or a hash of a
folder's weight, configuration and tokenizer files), which a released model's card states among what it
assumes public.

A text model takes ``[b, 3, T]`` token ids (``TextClassifier``: the ids, the attention mask and the
token types, as ``dptune.engine.text`` tokenizes them, padded on the right): every position past a
sample's length is masked out of attention, so it reaches no output of that sample and its gradient is
exactly zero; the model reads only the batch's longest sequence. An image model takes pixel values
``[b, c, h, w]`` (``ImageClassifier``).
"""

from __future__ import annotations

import contextlib
import inspect
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import torch
import torch.nn.functional as F
from torch import nn

from dptune.base.errors import InputError
from dptune.models.pretrained_names import (
    TASKS,
    TEXT_TASK,
    WeightsIdentity,
    cached_commit,
    cached_snapshot,
    folder_identity,
    hub_reachable,
    is_pretrained,
    is_timm,
    pretrained_source,
    task_of,
)

DROPOUT_SETTINGS = (
    "hidden_dropout_prob",
    "attention_probs_dropout_prob",
    "classifier_dropout",
    "attention_dropout",
    "hidden_dropout",
    "dropout",
    "activation_dropout",
    "summary_first_dropout",
    "resid_pdrop",
    "embd_pdrop",
    "attn_pdrop",
)
"""Configuration fields that set a dropout rate in ``transformers``' models: set to 0 where present."""


def weights_identity(name: str, revision: str | None, model: nn.Module) -> WeightsIdentity:
    """What ``model`` was loaded from: a local folder's file hash, or the hub commit (a hub or cache load)
    its ``transformers`` configuration records, else (a timm model) the one the cache holds for
    ``revision``."""
    if Path(name).is_dir():
        return folder_identity(name)
    recorded = getattr(getattr(model, "config", None), "_commit_hash", None)
    return WeightsIdentity(name, recorded or cached_commit(name, revision), None)


def pretrained_weights(name: str, args: dict[str, Any], model: nn.Module) -> dict[str, dict[str, str]]:
    """``{"pretrained": {name, revision or sha256}}`` for a run of the pretrained model ``name`` (its
    ``model_args``, its module ``model``: the backbone holding the loaded configuration), else nothing."""
    if not is_pretrained(name):
        return {}
    backbone = getattr(model, "backbone", model)
    inner = getattr(backbone, "get_base_model", lambda: backbone)()
    return {"pretrained": weights_identity(pretrained_source(name), args.get("revision"), inner).as_dict()}


@contextlib.contextmanager
def _quiet_transformers() -> Iterator[None]:
    """``transformers``' warnings about a newly initialised head (expected: the head is the task's), and
    ``huggingface_hub``'s about its requests (a load's outcome is the one line that matters)."""
    from huggingface_hub.utils import logging as hub_logging
    from transformers.utils import logging as hf_logging

    levels = hf_logging.get_verbosity(), hub_logging.get_verbosity()
    hf_logging.set_verbosity_error()
    hub_logging.set_verbosity_error()
    hf_logging.disable_progress_bar()
    try:
        yield
    finally:
        hf_logging.set_verbosity(levels[0])
        hub_logging.set_verbosity(levels[1])
        hf_logging.enable_progress_bar()


def _saved(name: str) -> str:
    """How a model like ``name`` is saved to a folder: timm's ``save_for_hf``, else ``save_pretrained``."""
    return "timm's save_for_hf" if is_timm(name) else "save_pretrained"


def _unavailable(name: str, what: str) -> InputError:
    if Path(name).is_dir():
        return InputError(
            "model",
            f"hf:{name}: {what} not found in that folder; save it there with {_saved(name)}, or give a "
            "folder that holds it",
        )
    home = os.environ.get("HF_HOME", str(Path.home() / ".cache" / "huggingface"))
    return InputError(
        "model",
        f"hf:{name}: {what} not found in a local folder or the Hugging Face cache ({home}), and the hub is "
        f"unreachable from here; download it where the hub is reachable (`hf download {name}`, into "
        f"HF_HOME) or save it with {_saved(name)} and give that folder as model.hf",
    )


def _not_on_hub(name: str, what: str, revision: str | None) -> InputError:
    return InputError(
        "model",
        f"hf:{name}: {what} not found in the Hugging Face cache or on the hub (at {revision or 'main'}); "
        f"check the name (and model.args.revision), or save the model with {_saved(name)} and give that "
        "folder as model.hf",
    )


CONFIG_FILES = ("config.json",)
WEIGHT_FILES = (
    "model.safetensors",
    "model.safetensors.index.json",
    "pytorch_model.bin",
    "pytorch_model.bin.index.json",
)
TOKENIZER_FILES = (
    "tokenizer.json",
    "vocab.json",
    "vocab.txt",
    "spiece.model",
    "sentencepiece.bpe.model",
    "tokenizer.model",
)
"""The files whose presence in a cached snapshot makes a configuration, weights or a tokenizer load from
the cache alone (``_from_local_first``): a snapshot holding only what another load fetched (a
``config.json``) is not taken for the weights or the tokenizer, which the hub may still give."""


def _from_local_first(
    load: Callable[..., Any],
    source: str,
    revision: str | None,
    what: str,
    holding: tuple[str, ...],
    **kwargs: Any,
) -> Any:
    """``load(source, revision=revision, **kwargs)`` (a ``from_pretrained``), quietly: with
    ``local_files_only`` where a folder is ``source`` or the local cache's snapshot of it at ``revision``
    holds one of the files ``holding`` (the commit a card names, ``stated_weights``; no request to the
    hub), else from the hub where ``hub_reachable``; ``InputError`` on ``model`` (``_unavailable``, naming
    ``what`` is missing) where neither has it. A revision the cache holds is read as the commit it names
    there, from the hub too: a model's configuration, weights and tokenizer are one commit's, and the card
    names that commit, even where the cache holds some of its files and the branch has moved on since."""
    with _quiet_transformers():
        if Path(source).is_dir():  # a folder is only itself: a file it lacks is not the hub's to give
            try:
                return load(source, revision=revision, local_files_only=True, **kwargs)
            except OSError:
                raise _unavailable(source, what) from None
        revision = cached_commit(source, revision) or revision
        if cached_snapshot(source, revision, holding) is not None:
            with contextlib.suppress(OSError):  # a cache lacking one of the files: the hub may hold it
                return load(source, revision=revision, local_files_only=True, **kwargs)
        if not hub_reachable():
            raise _unavailable(source, what)
        try:
            return load(source, revision=revision, **kwargs)
        except OSError:
            raise _not_on_hub(source, what, revision) from None


def load_timm(source: str, revision: str | None, num_classes: int) -> nn.Module:
    """``timm``'s image model ``source`` (a folder ``save_for_hf`` wrote, or a hub name under ``timm/``, at
    ``revision``: from the cache's snapshot where it holds one, else from the hub) with a new K-class head
    (its pretrained head, of the pretraining's classes, is left out), every dropout and stochastic depth
    off, in eval mode; ``InputError`` on ``model`` where it cannot be found."""
    import timm

    folder = source if Path(source).is_dir() else cached_snapshot(source, revision, WEIGHT_FILES)

    def create(name: str, revision: str | None, local_files_only: bool = False) -> nn.Module:
        at = f"@{revision}" if revision else ""
        where = f"local-dir:{folder}" if local_files_only else f"hf-hub:{name}{at}"
        return timm.create_model(
            where, pretrained=True, num_classes=num_classes, drop_rate=0.0, drop_path_rate=0.0
        )

    model = _from_local_first(create, source, revision, "its weights", WEIGHT_FILES)
    for module in model.modules():
        if isinstance(module, nn.Dropout):  # attention's and projections' too
            module.p = 0.0
        if hasattr(module, "fused_attn"):  # the same function, as products vmap batches (no fused kernel)
            setattr(module, "fused_attn", False)  # noqa: B010 (a timm attribute outside nn.Module's type)
    return model.eval()


def load_pretrained(name: str, args: dict[str, Any], num_classes: int) -> nn.Module:
    """The model NAME for ``args``' task with a K-class head, dropout off, in eval mode (module
    docstring): ``transformers``' auto class of the task, or ``load_timm`` for a timm model; ``InputError``
    on ``model`` where it cannot be found or its head has another size."""
    source = pretrained_source(name)
    revision = args.get("revision")
    if is_timm(source):
        return load_timm(source, revision, num_classes)
    import transformers

    auto = getattr(transformers, TASKS[task_of(name, args)])
    config = load_config(source, revision, num_labels=num_classes)
    for setting in DROPOUT_SETTINGS:
        if isinstance(getattr(config, setting, None), float):
            setattr(config, setting, 0.0)

    def weights(source: str, revision: str | None, local_files_only: bool = False) -> nn.Module:
        # transformers looks for a peft adapter with its own options: from the cache alone, it too
        adapter = {"adapter_kwargs": {"local_files_only": True}} if local_files_only else {}
        return auto.from_pretrained(
            source, revision=revision, local_files_only=local_files_only, config=config, **adapter
        )

    try:
        model = _from_local_first(weights, source, revision, "its weights", WEIGHT_FILES)
    except (RuntimeError, ValueError) as exc:
        if "size mismatch" in str(exc) or "mismatched" in str(exc):
            raise InputError(
                "model",
                f"{name}'s checkpoint has a classification head of another size than the data's "
                f"{num_classes} classes; give the checkpoint of its body (without the head), or data with "
                "its classes",
            ) from None
        raise
    for module in model.modules():
        if isinstance(module, nn.Dropout):
            module.p = 0.0
    return model.eval()


def load_config(source: str, revision: str | None, **settings: Any) -> Any:
    """``transformers``' configuration of the pretrained model ``source`` (``_from_local_first``), with
    ``settings`` set; ``InputError`` on ``model`` where it cannot be found or read."""
    from transformers import AutoConfig

    try:
        return _from_local_first(
            AutoConfig.from_pretrained, source, revision, "its configuration", CONFIG_FILES, **settings
        )
    except ValueError:
        raise _unavailable(source, "its configuration") from None


def load_tokenizer(name: str, revision: str | None) -> Any:
    """The tokenizer of the pretrained model NAME (``hf:`` stripped), from where its weights come;
    ``InputError`` on ``model`` where none is found, or where what is found holds no vocabulary beyond its
    special tokens (``transformers`` makes one from a configuration alone, without an error: it reads
    every text as the same two tokens)."""
    from transformers import AutoTokenizer

    source = pretrained_source(name) if is_pretrained(name) else name
    try:
        tokenizer = _from_local_first(
            AutoTokenizer.from_pretrained, source, revision, "its tokenizer", TOKENIZER_FILES
        )
    except ValueError:
        raise _unavailable(source, "its tokenizer") from None
    if set(tokenizer.get_vocab()) <= set(tokenizer.all_special_tokens):
        raise InputError(
            "model",
            f"hf:{source}: its tokenizer has no vocabulary, only its special tokens (no tokenizer.json or "
            "vocabulary file where it was found); give a model saved with its tokenizer",
        )
    return tokenizer


PADDING_POSITIONS = (
    "roberta",
    "xlm-roberta",
    "xlm-roberta-xl",
    "camembert",
    "roberta-prelayernorm",
    "data2vec-text",
    "mpnet",
    "longformer",
    "ibert",
    "luke",
    "markuplm",
    "xmod",
    "esm",
)
"""Model types (``config.model_type``) that make each sample's position ids from its token ids, counting
from the padding index + 1 (RoBERTa's ``create_position_ids_from_input_ids``): their position table is
longer than what they read by that offset."""


def longest_positions(config: Any) -> int | None:
    """The most token positions the model reads (its position table's size, less the offset of padding
    index + 1 of ``PADDING_POSITIONS``), or None where it has no such limit."""
    positions = getattr(config, "max_position_embeddings", None)
    if not isinstance(positions, int):
        return None
    offset = config.pad_token_id + 1 if getattr(config, "model_type", "") in PADDING_POSITIONS else 0
    return positions - offset


POSITIONS_CHECKED = 8
"""Tokens of the two synthetic inputs on which ``positions_per_sample`` compares the two ways."""


def positions_per_sample(backbone: nn.Module, inputs: torch.Tensor) -> bool:
    """Whether the backbone is given its position ids 0…T−1 for each sample: one that takes
    ``position_ids`` and would otherwise slice one ``[1, T]`` row of them shared by the batch (BERT,
    ELECTRA, DeBERTa), where the position embedding's input and output gradient hold one row for the
    whole batch, its gradient summed over the samples, which no per-sample engine can split (the ghost
    engine's check fails and the vmap engine is taken). Only where the ids are the function's own:
    its scores on ``inputs`` (``[2, 3, T]``: ids, mask with padding, token types, made from the model
    alone) must be the same, bit for bit, given the ids and not; a model that counts positions from the
    padding index (RoBERTa, MPNet, Longformer) or from an offset keeps its own."""
    if "position_ids" not in inspect.signature(backbone.forward).parameters:
        return False
    ids, mask, types = inputs[:, 0], inputs[:, 1], inputs[:, 2]
    given = torch.arange(ids.shape[-1]).expand(ids.shape)
    with torch.no_grad():
        own = backbone(input_ids=ids, attention_mask=mask, token_type_ids=types).logits
        per_sample = backbone(
            input_ids=ids, attention_mask=mask, token_type_ids=types, position_ids=given
        ).logits
    return torch.equal(own, per_sample)


class TextClassifier(nn.Module):
    """A ``transformers`` sequence classifier on one input tensor ``[b, 3, T]``: token ids, attention mask
    (1 for a token, 0 for padding, on the right) and token types; class scores ``[b, K]`` out."""

    def __init__(self, backbone: nn.Module, vocabulary: int) -> None:
        super().__init__()
        self.backbone = backbone
        self.vocabulary = vocabulary
        length = min(
            POSITIONS_CHECKED, longest_positions(getattr(backbone, "config", None)) or POSITIONS_CHECKED
        )
        self.positions_per_sample = positions_per_sample(backbone, self.synthetic_inputs(2, length))
        """Given position ids per sample (``positions_per_sample``), fixed before LoRA wraps the backbone."""
        self.tokenizer: Any = None
        """The tokenizer training read its text with, set on a released model (``with_tokenizer``)."""
        self.max_length: int | None = None

    def with_tokenizer(self, tokenizer: Any, max_length: int) -> TextClassifier:
        """This model with the tokenizer and the length its training data was tokenized with: what a
        released model needs to read raw text."""
        self.tokenizer, self.max_length = tokenizer, max_length
        return self

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        ids, mask, types = x[:, 0], x[:, 1], x[:, 2]
        if torch._C._functorch.is_functorch_wrapped_tensor(x):  # under vmap: no data-dependent length
            return self.backbone(
                input_ids=ids,
                attention_mask=self._additive(mask),
                token_type_ids=types,
                **self._positions(ids),
            ).logits
        longest = max(int(mask.sum(dim=1).max()), 1)  # right padding: no sample has more tokens
        ids, mask, types = ids[:, :longest], mask[:, :longest], types[:, :longest]
        return self.backbone(
            input_ids=ids, attention_mask=mask, token_type_ids=types, **self._positions(ids)
        ).logits

    def _positions(self, ids: torch.Tensor) -> dict[str, torch.Tensor]:
        """``position_ids`` 0…T−1 for each sample where ``positions_per_sample``, else nothing."""
        if not self.positions_per_sample:
            return {}
        return {"position_ids": torch.arange(ids.shape[-1], device=ids.device).expand(ids.shape)}

    def _additive(self, mask: torch.Tensor) -> torch.Tensor:
        """The attention mask as the additive ``[b, 1, 1, T]`` one attention applies (0 for a token, the
        dtype's lowest number for padding), which ``transformers`` takes as given: its own conversion of a
        0/1 mask branches on the data, which ``torch.func.vmap`` (the vmap engine) cannot trace."""
        dtype = next(self.backbone.parameters()).dtype
        return (1.0 - mask[:, None, None, :].to(dtype)) * torch.finfo(dtype).min

    def synthetic_inputs(self, count: int, length: int) -> torch.Tensor:
        """``count`` inputs of ``length`` positions made from the model alone (token ids from a fixed
        seed, the second input's last quarter padding): the engine check's inputs, no record read."""
        ids = torch.randint(self.vocabulary, (count, length), generator=torch.Generator().manual_seed(0))
        mask = torch.ones_like(ids)
        if count > 1 and length > 1:
            mask[1, length - max(length // 4, 1) :] = 0
        return torch.stack([ids, mask, torch.zeros_like(ids)], dim=1)


class ImageClassifier(nn.Module):
    """A pretrained image classifier (``transformers``' ViT, or a ``timm`` model) on pixel values
    ``[b, c, h, w]``, resized (bilinear, each image on its own) to the square ``side`` its position
    embeddings were pretrained at (CIFAR's 32 to a ViT-B/16's 224; None: as given)."""

    def __init__(self, backbone: nn.Module, side: int | None) -> None:
        super().__init__()
        self.backbone = backbone
        self.side = side

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.side is not None and tuple(x.shape[-2:]) != (self.side, self.side):
            x = F.interpolate(x, size=(self.side, self.side), mode="bilinear", align_corners=False)
        scores = self.backbone(x)
        return scores if isinstance(scores, torch.Tensor) else scores.logits


def image_side(backbone: nn.Module) -> int | None:
    """The square side a pretrained image model reads: its configuration's ``image_size``
    (``transformers``), or its pretrained input size (``timm``, when fixed)."""
    config = getattr(backbone, "config", None)
    if config is not None:
        return int(getattr(config, "image_size", 0)) or None
    cfg = getattr(backbone, "pretrained_cfg", {})
    return int(cfg["input_size"][-1]) if cfg.get("fixed_input_size") and cfg.get("input_size") else None


def pretrained_classifier(name: str, args: dict[str, Any], num_classes: int) -> nn.Module:
    """The pretrained model NAME wrapped for its task (``TextClassifier`` or ``ImageClassifier``)."""
    backbone = load_pretrained(name, args, num_classes)
    if task_of(name, args) == TEXT_TASK:
        config: Any = backbone.config
        return TextClassifier(backbone, int(config.vocab_size))
    return ImageClassifier(backbone, image_side(backbone))
