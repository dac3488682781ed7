"""Models without BatchNorm (per-sample gradients need samples that do not mix), by name.

``MODELS`` names every model and its builder in ``dptune.models.networks``: the names are read without
torch (``dptune train --model``'s choices, spec validation); torch and the builders are imported when a
model is built.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from dptune.errors import InputError

if TYPE_CHECKING:
    from torch import nn

MODELS: dict[str, str] = {
    "cnn5": "cnn5",
    "mlp": "mlp",
    "resnet18": "resnet18",
    "vit": "SmallViT",
}
"""Every model by name: the name of its builder ``(in_channels, image_size, num_classes) -> nn.Module``
in ``dptune.models.networks``."""


def check_model_name(name: str, field: str = "model") -> str:
    if name not in MODELS:
        raise InputError(field, f"unknown model {name!r}; valid: {', '.join(MODELS)}")
    return name


def build_model(name: str, in_channels: int, image_size: int, num_classes: int) -> nn.Module:
    """The named model for the given input shape; ``InputError`` if the shape does not fit it."""
    import torch

    from dptune.models import networks

    check_model_name(name)
    try:
        model = getattr(networks, MODELS[name])(in_channels, image_size, num_classes)
        with torch.no_grad():
            model(torch.zeros(2, in_channels, image_size, image_size))
    except (RuntimeError, ValueError) as exc:
        raise InputError(
            "model",
            f"{name} does not fit {in_channels}×{image_size}×{image_size} inputs "
            f"({str(exc).splitlines()[0]}); use mlp for small images",
        ) from None
    return model
