"""What of a model trains (the ``trains`` knob): every parameter, the task's head only, the bias terms and
the head (BitFit: Ben Zaken, Ravfogel & Goldberg 2022), or low-rank adapters and the head (LoRA: Hu et al.
2022, through ``peft``).

A frozen parameter is a public constant of the model: the per-sample engines see only the trained ones
(``FlatModel`` takes the parameters that require a gradient), so only they are clipped and noised, and
every figure (the noise's dimension, a clipped norm) is theirs. LoRA adds to each target linear layer W
the product (α/r)·B·A, A ``[r, d]`` drawn at random and B ``[p, r]`` zero (the pretrained function at
the start), each factor a plain ``nn.Linear``: the ghost engine's linear rule covers both exactly. The
release merges them into W (``merged``): the same function, the architecture of the pretrained model.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from dptune.base.errors import InputError

if TYPE_CHECKING:
    from torch import nn

TRAINS = ("all", "head", "bias", "lora")
"""The ``trains`` knob's values."""

LORA_KNOBS = ("lora_rank", "lora_alpha")
"""The run knobs that shape LoRA's adapters: settings of a run only where ``trains`` is ``lora``."""


@dataclass(frozen=True)
class Trained:
    """What trains (``TRAINS``), LoRA's rank r and α, and its target modules (None: peft's default for the
    architecture)."""

    what: str = "all"
    rank: int = 8
    alpha: int = 16
    targets: list[str] | None = None


def head_names(model: nn.Module) -> set[str]:
    """The parameters of a pretrained model's task head (``model.backbone``): a ``transformers`` model's
    outside its body (``base_model_prefix``, e.g. ``roberta``), a ``timm`` model's classifier (the module
    its ``pretrained_cfg`` names, e.g. ``head``); none for any other model."""
    backbone = getattr(model, "backbone", None)
    prefix = getattr(backbone, "base_model_prefix", None)
    if prefix:
        return {name for name, _ in model.named_parameters() if not name.startswith(f"backbone.{prefix}.")}
    classifier = (getattr(backbone, "pretrained_cfg", None) or {}).get("classifier")
    if not isinstance(classifier, str):
        return set()
    return {name for name, _ in model.named_parameters() if name.startswith(f"backbone.{classifier}.")}


def select_trained(model: nn.Module, trained: Trained) -> nn.Module:
    """``model`` with only the parameters ``trained`` names requiring a gradient (LoRA: adapters added
    first)."""
    if trained.what == "all":
        return model
    if trained.what == "lora":
        return with_lora(model, trained.rank, trained.alpha, trained.targets)
    head = head_names(model)
    if trained.what == "head" and not head:
        raise InputError("trains", "head needs a pretrained model (model: {hf: NAME}), whose head is known")
    for name, parameter in model.named_parameters():
        parameter.requires_grad_(name in head or (trained.what == "bias" and name.endswith(".bias")))
    if not any(p.requires_grad for p in model.parameters()):
        raise InputError("trains", f"{trained.what}: the model has no such parameters; use all")
    return model


ATTENTION_TARGETS = (("query", "value"), ("q_proj", "v_proj"), ("q_lin", "v_lin"), ("qkv",), ("c_attn",))
"""Attention's query and value projections as architectures name them: LoRA's usual targets."""


def attention_targets(layers: list[str]) -> list[str]:
    """The usual LoRA targets among a body's linear ``layers`` (``ATTENTION_TARGETS``), else its first
    two."""
    return next((list(pair) for pair in ATTENTION_TARGETS if set(pair) <= set(layers)), layers[:2])


def with_lora(model: nn.Module, rank: int, alpha: int, targets: list[str] | None) -> nn.Module:
    """``model``'s backbone with LoRA adapters of rank r and scale α/r on ``targets`` (the head trained
    whole, peft's ``modules_to_save``); the rest frozen."""
    from peft import LoraConfig, get_peft_model

    backbone = getattr(model, "backbone", None)
    if backbone is None or not head_names(model):
        raise InputError("trains", "lora needs a pretrained model (model: {hf: NAME})")
    head = sorted({name.split(".")[1] for name in head_names(model)})
    layers = [(name, m) for name, m in backbone.named_modules() if type(m).__name__ == "Linear"]
    linear = sorted({name.rsplit(".", 1)[-1] for name, _ in layers})
    body = sorted({name.rsplit(".", 1)[-1] for name, _ in layers if name.split(".")[0] not in head})
    missing = [t for t in targets or [] if t not in linear]
    if missing:
        raise InputError(
            "model.args.lora_targets",
            f"the model has no linear layer named {missing[0]!r}; its linear layers: {', '.join(linear)}",
        )
    config = LoraConfig(
        r=rank, lora_alpha=alpha, lora_dropout=0.0, target_modules=targets, modules_to_save=head, bias="none"
    )
    try:
        with warnings.catch_warnings():  # peft asks transformers' deprecated checkpointing flag
            warnings.simplefilter("ignore", FutureWarning)
            model.backbone = get_peft_model(backbone, config)
    except ValueError:
        where = (
            f"{', '.join(targets)} lie only in the classification head, which trains whole"
            if targets
            else "peft has no default LoRA targets for this architecture"
        )
        raise InputError(
            "model.args.lora_targets",
            f"{where}; name the body's linear layers to adapt, e.g. [{', '.join(attention_targets(body))}] "
            f"(the body's linear layers: {', '.join(body)})",
        ) from None
    return model


def merged(model: nn.Module) -> nn.Module:
    """A model with LoRA adapters as its pretrained architecture, the adapters merged into their layers;
    any other model as it is."""
    backbone = getattr(model, "backbone", None)
    if backbone is not None and hasattr(backbone, "merge_and_unload"):
        model.backbone = backbone.merge_and_unload()
    return model


def trained_count(model: nn.Module) -> dict[str, Any]:
    """How many parameters train, of how many."""
    total = sum(p.numel() for p in model.parameters())
    trained = sum(p.numel() for p in model.parameters() if p.requires_grad)
    return {"trained_parameters": trained, "parameters": total}
