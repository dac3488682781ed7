"""Both clipped-sum engines against an obviously correct batch-of-one ("microbatch") reference."""

from __future__ import annotations

import copy

import pytest
import torch
import torch.nn.functional as F
from torch import nn

from dptune.engine.persample import FlatModel, GhostEngine, VmapEngine, ghost_supported
from dptune.models import build_model


def reference_clipped_sum(
    model: nn.Module,
    iterates: list[torch.Tensor],
    weights: list[float],
    x: torch.Tensor,
    y: torch.Tensor,
    clip: float,
) -> tuple[torch.Tensor, torch.Tensor]:
    """Σ_i clip(Σ_j w_j ∇f_i(θ_j), C) by looping over samples with plain autograd; also the norms."""
    replicas = []
    for theta in iterates:
        replica = copy.deepcopy(model)
        torch.nn.utils.vector_to_parameters(theta, replica.parameters())
        replicas.append(replica)
    total, norms = torch.zeros_like(iterates[0]), []
    for i in range(x.shape[0]):
        v = torch.zeros_like(iterates[0])
        for w, replica in zip(weights, replicas, strict=True):
            loss = F.cross_entropy(replica(x[i : i + 1]), y[i : i + 1])
            grads = torch.autograd.grad(loss, list(replica.parameters()))
            v += w * torch.cat([g.reshape(-1) for g in grads])
        norms.append(v.norm())
        total += v * min(1.0, clip / float(v.norm()))
    return total, torch.stack(norms)


class SequenceLinear(nn.Module):
    """Linear layers on [b, tokens, d] inputs plus a dilated conv: the engines' less common paths."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, padding=2, dilation=2)
        self.mix = nn.Linear(8, 6)
        self.head = nn.Linear(6 * 32, 10, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = torch.tanh(self.conv(x)).reshape(x.shape[0], 32, 8)
        return self.head(torch.tanh(self.mix(h)).reshape(x.shape[0], -1))


class InPlace(nn.Module):
    """Outputs changed in place after the traced layers (a conv's and a GroupNorm's), as torchvision's
    ResNets do with ``ReLU(inplace=True)`` and ``out += identity``."""

    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(1, 4, 3, padding=1)
        self.norm = nn.GroupNorm(2, 4)
        self.head = nn.Linear(4 * 8 * 8, 10)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        h = torch.relu_(self.conv(x))
        out = self.norm(h)
        out += h
        return self.head(torch.tanh_(out).reshape(x.shape[0], -1))


CASES = [
    ("cnn5", 1, 28, "ghost"),
    ("cnn5", 1, 28, "vmap"),
    ("cnn5", 3, 32, "ghost"),
    ("mlp", 1, 8, "ghost"),
    ("mlp", 1, 8, "vmap"),
    ("vit", 1, 28, "vmap"),
    ("resnet18", 3, 16, "vmap"),
    ("resnet18", 3, 16, "ghost"),
    ("wrn16-4", 3, 16, "ghost"),
    ("sequence", 1, 8, "ghost"),
    ("inplace", 1, 8, "ghost"),
]


@pytest.mark.parametrize(("name", "channels", "size", "engine"), CASES)
@pytest.mark.parametrize("weights", [[1.0], [0.6, 0.3, 0.1]])
def test_engine_matches_microbatch_reference(
    name: str, channels: int, size: int, engine: str, weights: list[float]
) -> None:
    torch.manual_seed(0)
    custom = {"sequence": SequenceLinear, "inplace": InPlace}
    model = (
        custom[name]() if name in custom else build_model(name, {}, torch.zeros(2, channels, size, size), 10)
    )
    model = model.double()  # float64 on both sides: the comparison is of the math, not of rounding
    flat = FlatModel(model)
    batch = 3 if name in ("resnet18", "wrn16-4") else 7
    x = torch.randn(batch, channels, size, size, dtype=torch.float64)
    y = torch.randint(0, 10, (batch,))
    base = flat.flatten()
    iterates = [base + 0.05 * j * torch.randn_like(base) for j in range(len(weights))]
    expected, norms = reference_clipped_sum(model, iterates, weights, x, y, clip=1.0)
    clip = float(norms.median())  # some samples clipped, some not
    expected, _ = reference_clipped_sum(model, iterates, weights, x, y, clip)
    engines = {"ghost": GhostEngine, "vmap": VmapEngine}
    result = engines[engine](flat, physical_batch_size=4).clipped_sum(
        iterates, torch.tensor(weights, dtype=torch.float64), x, y, clip
    )
    torch.testing.assert_close(result, expected, rtol=1e-9, atol=1e-11)


def test_ghost_support_detection() -> None:
    assert ghost_supported(build_model("cnn5", {}, torch.zeros(2, 1, 28, 28), 10))
    assert not ghost_supported(
        build_model("vit", {}, torch.zeros(2, 1, 28, 28), 10)
    )  # LayerNorm, class token
    assert ghost_supported(build_model("resnet18", {}, torch.zeros(2, 3, 32, 32), 10))  # GroupNorm
    assert ghost_supported(build_model("wrn16-4", {}, torch.zeros(2, 3, 32, 32), 10))
    with pytest.raises(ValueError, match=r"Linear, nn\.Conv2d or nn\.GroupNorm"):
        GhostEngine(FlatModel(build_model("vit", {}, torch.zeros(2, 1, 28, 28), 10)), 8)


def test_batchnorm_is_refused() -> None:
    with pytest.raises(ValueError, match="BatchNorm"):
        FlatModel(nn.Sequential(nn.Conv2d(1, 2, 3), nn.BatchNorm2d(2)))
