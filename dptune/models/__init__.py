"""Models without BatchNorm (per-sample gradients need samples that do not mix), by name, or the user's
from a factory (``package.module:function``, ``dptune.base.factories``), checked the same way.

``MODELS`` names every model and its builder in ``dptune.models.networks``: the names are read without
torch (``dptune train --model``'s choices, spec validation); torch and the builders are imported when a
model is built.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from dptune.base.errors import InputError
from dptune.base.factories import call_factory, is_import_path
from dptune.models.pretrained_names import PRETRAINED_PREFIX, is_pretrained

if TYPE_CHECKING:
    import torch
    from torch import nn

    from dptune.models.trained_parts import Trained

MODELS: dict[str, str] = {
    "cnn5": "cnn5",
    "mlp": "mlp",
    "resnet18": "resnet18",
    "vit": "SmallViT",
    "wrn16-4": "wrn16_4",
    "scatter-linear": "scatter_linear",
    "scatter-cnn": "scatter_cnn",
}
"""Every model by name: the name of its builder ``(in_channels, image_size, num_classes) -> nn.Module``
in ``dptune.models.networks`` (for a model in ``MODEL_FEATURES``, the shape is its features')."""

MODEL_FEATURES: dict[str, str] = {"scatter-linear": "scattering", "scatter-cnn": "scattering"}
"""Models that train on features computed once from the images (``dptune.engine.features``), not on them."""


def check_model_name(name: str, field: str = "model") -> str:
    if name not in MODELS and not is_import_path(name) and not is_pretrained(name):
        raise InputError(
            field,
            f"unknown model {name!r}; valid: {', '.join(MODELS)}, a factory package.module:function, or a "
            f"pretrained model {PRETRAINED_PREFIX}NAME",
        )
    return name


def build_model(
    name: str, args: dict[str, Any], sample: torch.Tensor, num_classes: int, trained: Trained | None = None
) -> nn.Module:
    """The named model, a factory's (``package.module:function`` called with ``args``) or a pretrained
    one (``hf:NAME``, ``dptune.models.pretrained``), with what of it trains (``trained``, default all:
    ``dptune.models.trained_parts``), for inputs like ``sample`` (a few training inputs) and
    ``num_classes`` outputs; ``InputError`` naming the field where it does not fit: a built-in needs
    images ``[n, c, h, h]``; a factory must return a ``torch.nn.Module`` whose layers the per-sample
    engines support (Opacus's ``ModuleValidator``: no BatchNorm and other layers that mix the samples of a
    batch); every model must map the sample to ``[len(sample), num_classes]`` scores."""
    import torch

    from dptune.models.trained_parts import Trained, select_trained

    if is_pretrained(name):
        from dptune.models.pretrained import pretrained_classifier

        model = pretrained_classifier(name, args, num_classes)
        _check_layers(name, model)
    elif is_import_path(name):
        model = call_factory(name, args, "model")
        if not isinstance(model, torch.nn.Module):
            raise InputError("model", f"{name} must return a torch.nn.Module, got {type(model).__name__}")
        _check_layers(name, model)
    else:
        model = _built_in(name, sample, num_classes)
    given = trained or Trained()
    model = select_trained(model, Trained(given.what, given.rank, given.alpha, args.get("lora_targets")))
    try:
        with torch.no_grad():
            scores = model(sample)
    except (RuntimeError, ValueError, TypeError) as exc:
        raise InputError(
            "model", f"{name} does not take inputs of shape {tuple(sample.shape[1:])} ({_first_line(exc)})"
        ) from None
    if tuple(scores.shape) != (len(sample), num_classes):
        raise InputError(
            "model",
            f"{name} maps {len(sample)} inputs to scores of shape {tuple(scores.shape)}; it needs "
            f"[{len(sample)}, {num_classes}] (one score per class)",
        )
    return model


def _first_line(exc: Exception) -> str:
    return (str(exc).splitlines() or [type(exc).__name__])[0]


def _built_in(name: str, sample: torch.Tensor, num_classes: int) -> nn.Module:
    from dptune.models import networks

    check_model_name(name)
    if sample.ndim != 4 or sample.shape[2] != sample.shape[3]:
        raise InputError(
            "model",
            f"{name} takes square images [n, c, h, h], the data gives {tuple(sample.shape)}; "
            "give a model factory (model.factory) for other inputs",
        )
    channels, size = int(sample.shape[1]), int(sample.shape[2])
    try:
        return getattr(networks, MODELS[name])(channels, size, num_classes)
    except (RuntimeError, ValueError) as exc:
        raise InputError(
            "model", f"{name} does not fit {channels}×{size}×{size} inputs ({_first_line(exc)}); use mlp"
        ) from None


def _check_layers(name: str, model: nn.Module) -> None:
    """Opacus's ``ModuleValidator`` on the user's module: BatchNorm, or else its first problem in a
    sentence, as a one-line error that says what to do (a wrapping factory that returns Opacus's ``fix``
    of it, or a built-in GroupNorm model)."""
    import torch
    from opacus.validators import ModuleValidator

    norm = torch.nn.modules.batchnorm._BatchNorm
    batch_norms = [n for n, m in model.named_modules() if isinstance(m, norm)]
    if batch_norms:
        raise InputError(
            "model",
            f"{name} has {len(batch_norms)} BatchNorm layers (the first: {batch_norms[0]}), which mix the "
            "samples of a batch, so per-sample gradients do not exist: wrap it in a factory of your own "
            "that returns opacus.validators.ModuleValidator.fix(...) of it (docs/data.md: Your own model "
            "and data), or use a built-in GroupNorm model (model: resnet18)",
        )
    problems = ModuleValidator.validate(model, strict=False)
    if problems:
        first = _first_line(problems[0]).split(". ")[0][:200]
        raise InputError(
            "model",
            f"{name}: {first} (per-sample gradients need layers that do not mix the samples of a batch); "
            "wrap it in a factory of your own that returns opacus.validators.ModuleValidator.fix(...) of it",
        )
