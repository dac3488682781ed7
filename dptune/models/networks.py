"""The models' builders ``(in_channels, image_size, num_classes) -> nn.Module``, named in ``MODELS``
(``dptune.models``): no BatchNorm, as per-sample gradients need samples that do not mix."""

from __future__ import annotations

import torch
from torch import nn


def cnn5(in_channels: int, image_size: int, num_classes: int) -> nn.Module:
    """The small tanh CNN of Papernot et al. (2021) / Tramèr & Boneh (2021) for MNIST-like data.

    conv 8×8/2 (16) → tanh → maxpool 2/1 → conv 4×4/2 (32) → tanh → maxpool 2/1 → fc 32 → tanh → fc.
    26,010 parameters on 28×28 greyscale input; the same layers on 3-channel 32×32 input.
    """
    features = nn.Sequential(
        nn.Conv2d(in_channels, 16, 8, stride=2, padding=3),
        nn.Tanh(),
        nn.MaxPool2d(2, 1),
        nn.Conv2d(16, 32, 4, stride=2),
        nn.Tanh(),
        nn.MaxPool2d(2, 1),
        nn.Flatten(),
    )
    with torch.no_grad():
        width = features(torch.zeros(1, in_channels, image_size, image_size)).shape[1]
    return nn.Sequential(features, nn.Linear(width, 32), nn.Tanh(), nn.Linear(32, num_classes))


def mlp(in_channels: int, image_size: int, num_classes: int) -> nn.Module:
    """Flatten → 64 → tanh → 32 → tanh → classes (the FO-DP-SGD paper's MLP)."""
    return nn.Sequential(
        nn.Flatten(),
        nn.Linear(in_channels * image_size * image_size, 64),
        nn.Tanh(),
        nn.Linear(64, 32),
        nn.Tanh(),
        nn.Linear(32, num_classes),
    )


def resnet18(in_channels: int, image_size: int, num_classes: int) -> nn.Module:
    """ResNet-18 with GroupNorm (groups of ≤ 32 channels), CIFAR-style stem: 3×3/1 conv, no max-pool.

    torchvision is imported here, not with the module: it costs about a second of every trial's start.
    """
    from torchvision.models import resnet18 as tv_resnet18

    model = tv_resnet18(num_classes=num_classes, norm_layer=lambda c: nn.GroupNorm(min(32, c), c))
    model.conv1 = nn.Conv2d(in_channels, 64, 3, stride=1, padding=1, bias=False)
    model.maxpool = nn.Identity()
    return model


class _Block(nn.Module):
    """Pre-norm transformer block with plain-tensor attention (vmap-friendly, no fused kernels)."""

    def __init__(self, dim: int, heads: int, mlp_ratio: int = 2) -> None:
        super().__init__()
        self.heads = heads
        self.norm1 = nn.LayerNorm(dim)
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = nn.Sequential(nn.Linear(dim, mlp_ratio * dim), nn.GELU(), nn.Linear(mlp_ratio * dim, dim))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, n, d = x.shape
        q, k, v = self.qkv(self.norm1(x)).reshape(b, n, 3, self.heads, d // self.heads).unbind(2)
        q, k, v = (t.transpose(1, 2) for t in (q, k, v))
        attn = torch.softmax(q @ k.transpose(-2, -1) / (d // self.heads) ** 0.5, dim=-1)
        x = x + self.proj((attn @ v).transpose(1, 2).reshape(b, n, d))
        return x + self.mlp(self.norm2(x))


class SmallViT(nn.Module):
    """A small Vision Transformer (Dosovitskiy et al. 2021): patches 4×4 (7×7 on 28×28), dim 64,
    4 blocks of 4 heads, class token, learned positions."""

    def __init__(
        self,
        in_channels: int,
        image_size: int,
        num_classes: int,
        dim: int = 64,
        depth: int = 4,
        heads: int = 4,
    ) -> None:
        super().__init__()
        patch = 4 if image_size % 4 == 0 and image_size >= 16 else 2
        if image_size % patch:
            raise ValueError(f"image size {image_size} is not a multiple of the patch size {patch}")
        self.embed = nn.Conv2d(in_channels, dim, patch, stride=patch)
        tokens = (image_size // patch) ** 2
        self.cls = nn.Parameter(torch.zeros(1, 1, dim))
        self.pos = nn.Parameter(torch.randn(1, tokens + 1, dim) * 0.02)
        self.blocks = nn.Sequential(*(_Block(dim, heads) for _ in range(depth)))
        self.norm = nn.LayerNorm(dim)
        self.head = nn.Linear(dim, num_classes)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.embed(x).flatten(2).transpose(1, 2)
        x = torch.cat([self.cls.expand(x.shape[0], -1, -1), x], dim=1) + self.pos
        return self.head(self.norm(self.blocks(x))[:, 0])


def _group_norm(channels: int, groups: int) -> nn.GroupNorm:
    """Per-sample normalisation over ``groups`` groups of channels, without learned scale and shift."""
    return nn.GroupNorm(groups, channels, affine=False)


def scatter_linear(in_channels: int, image_size: int, num_classes: int) -> nn.Module:
    """Tramèr & Boneh's ScatterNet + linear model on scattering features ``[K, s, s]`` (K = 81 per image
    channel, s = image side / 4; ``dptune.models.scattering``): GroupNorm of K/3 groups (27 for one
    channel, their Fashion-MNIST setting; no learned affine) → flatten → fc."""
    return nn.Sequential(
        _group_norm(in_channels, in_channels // 3),
        nn.Flatten(),
        nn.Linear(in_channels * image_size * image_size, num_classes),
    )


def scatter_cnn(in_channels: int, image_size: int, num_classes: int) -> nn.Module:
    """Tramèr & Boneh's ScatterNet + CNN for 28×28 data on scattering features ``[K, 7, 7]``: GroupNorm
    of K/3 groups → conv 3×3/2 (16) → tanh → conv 3×3/1 (32) → tanh → fc 32 → tanh → fc."""
    features = nn.Sequential(
        _group_norm(in_channels, in_channels // 3),
        nn.Conv2d(in_channels, 16, 3, stride=2, padding=1),
        nn.Tanh(),
        nn.Conv2d(16, 32, 3, stride=1, padding=1),
        nn.Tanh(),
        nn.Flatten(),
    )
    with torch.no_grad():
        width = features(torch.zeros(1, in_channels, image_size, image_size)).shape[1]
    return nn.Sequential(features, nn.Linear(width, 32), nn.Tanh(), nn.Linear(32, num_classes))


class _WideBlock(nn.Module):
    """Pre-activation residual block of a WideResNet: GN → ReLU → conv 3×3 → GN → ReLU → conv 3×3, with a
    1×1 convolution on the shortcut where the width or the stride changes."""

    def __init__(self, inputs: int, outputs: int, stride: int, groups: int) -> None:
        super().__init__()
        self.norm1 = nn.GroupNorm(groups, inputs)
        self.conv1 = nn.Conv2d(inputs, outputs, 3, stride=stride, padding=1, bias=False)
        self.norm2 = nn.GroupNorm(groups, outputs)
        self.conv2 = nn.Conv2d(outputs, outputs, 3, stride=1, padding=1, bias=False)
        changes = inputs != outputs or stride != 1
        self.shortcut = nn.Conv2d(inputs, outputs, 1, stride=stride, bias=False) if changes else None

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        out = torch.relu(self.norm1(x))
        skip = x if self.shortcut is None else self.shortcut(out)
        out = self.conv2(torch.relu(self.norm2(self.conv1(out))))
        return out + skip


def wrn16_4(in_channels: int, image_size: int, num_classes: int) -> nn.Module:
    """WideResNet-16-4 (Zagoruyko & Komodakis 2016) with GroupNorm of 16 groups in place of BatchNorm, as
    De et al. (2022) train it with DP-SGD: conv 3×3 (16) → 3 groups of 2 pre-activation blocks of widths
    64, 128, 256 (strides 1, 2, 2) → GN → ReLU → global average pool → fc; 2.75M parameters for CIFAR-10.
    (De et al. also standardise the convolutions' weights and augment each sample several times; neither
    is done here.)"""
    layers: list[nn.Module] = [nn.Conv2d(in_channels, 16, 3, padding=1, bias=False)]
    width = 16
    for group, channels in enumerate((64, 128, 256)):
        for block in range(2):
            stride = 2 if group > 0 and block == 0 else 1
            layers.append(_WideBlock(width, channels, stride, groups=16))
            width = channels
    layers += [nn.GroupNorm(16, width), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten()]
    return nn.Sequential(*layers, nn.Linear(width, num_classes))
