"""One layer's per-sample gradients from its input a and output gradient g: one entry per layer type.

A layer whose output at position t is W a_t (+ b) — ``nn.Linear`` on ``[b, ..., d]``, ``nn.Conv1d`` and
``nn.Conv2d`` on their input patches (im2col), ``nn.Embedding`` on one-hot token ids — gives sample i the
weight gradient

    G_i = Σ_t g_it a_itᵀ                                    (p × d, summed over the T positions t),

and the clipped sum needs three things that its factors (a_i, g_i) give without forming G_i:

    ⟨G_i, G'_i⟩ = Σ_{t,t'} (a_it·a'_it')(g_it·g'_it')       ghost norm for G' = G (Goodfellow 2015,
                                                            Li et al. 2022); G' at another iterate
                                                            for per-sample momentum
    Σ_i c_i G_i = Σ_{i,t} (c_i g_it) a_itᵀ                  book-keeping (Bu, Wang, Zha & Karypis 2023):
                                                            one product, no second backward pass

The ghost norm costs T²(d + p) a sample, forming G_i costs T·d·p (and holds d·p numbers a sample):
Bu, Mao & Xu (2022), "Scalable and efficient training of large convolutional neural networks with
differential privacy" (arXiv 2205.10683), choose per layer the cheaper of the two ("mixed ghost
clipping"), as ``ghost_is_cheaper`` does. Biases and the normalisations' affine parameters (GroupNorm,
LayerNorm) are always formed per sample: they hold a few numbers per channel.

Every rule assumes its layer's parameters are used only inside that layer's forward: a use elsewhere (a
tied output head) is not in a and g. ``engine_choice.ghost_check`` finds such a model before training.

``LAYER_RULES`` holds one ``LayerRule`` per layer type; a new layer type is one entry.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from functools import cached_property
from typing import NamedTuple

import torch
import torch.nn.functional as F
from torch import nn


def memory_key(t: torch.Tensor) -> Hashable:
    """What identifies the numbers ``t`` holds while it is alive: the same memory read the same way."""
    return (t.data_ptr(), t.shape, t.stride(), t.dtype)


def kept_rows(t: torch.Tensor, keep: torch.Tensor) -> torch.Tensor:
    """``t`` with its rows (first dimension) zeroed where ``keep`` is False. On a CPU, ``t`` itself when
    every row is kept (the usual case): zeroing copies the whole tensor, as long as a linear layer's
    weight gradient takes for a wide input; on a GPU the check would make the host wait for the device."""
    if t.device.type == "cpu" and bool(keep.all()):
        return t
    mask = keep.reshape(-1, *([1] * (t.dim() - 1)))
    return torch.where(mask, t, torch.zeros((), dtype=t.dtype, device=t.device))


class Factored(ABC):
    """A weight's per-sample gradients G_i = Σ_t g_it a_itᵀ kept as factors (module docstring); ``g`` is
    ``[b, T, p]``, the input a is the subclass's."""

    def __init__(self, g: torch.Tensor) -> None:
        self.g = g

    @property
    def positions(self) -> int:
        """T, the positions a sample's gradient sums over."""
        return self.g.shape[1]

    @property
    @abstractmethod
    def ghost_cost(self) -> int:
        """Multiply-adds a sample for one ⟨G_i, G'_i⟩ from the factors."""

    @property
    @abstractmethod
    def instantiation_cost(self) -> int:
        """Multiply-adds (and writes) a sample for forming G_i."""

    @property
    @abstractmethod
    def numel(self) -> int:
        """The numbers in one sample's G_i."""

    @property
    def formed_bytes(self) -> int:
        """What G_i formed for the whole chunk holds, ``[b, numel]``."""
        return self.g.shape[0] * self.numel * self.g.element_size()

    @property
    def gram_bytes(self) -> int:
        """What one ghost inner product holds for the whole chunk: the input and output Gram matrices,
        ``[b, T, T]`` each."""
        return 2 * self.g.shape[0] * self.positions**2 * self.g.element_size()

    @property
    @abstractmethod
    def input_key(self) -> Hashable:
        """Equal for two weights that read the same input a (``memory_key``, with the kind of input):
        a transformer's query, key and value. Such weights share a's Gram matrix and its scaled copy."""

    @abstractmethod
    def input_gram(self, other: Factored) -> torch.Tensor:
        """(a_it·a'_it') for every sample and pair of positions, ``[b, T, T']``."""

    def output_gram(self, other: Factored) -> torch.Tensor:
        """(g_it·g'_it') for every sample and pair of positions, ``[b, T, T']``; so that
        ⟨G_i, G'_i⟩ = Σ_{t,t'} (a_it·a'_it')(g_it·g'_it') is ``(input_gram * output_gram).sum((1, 2))``."""
        if self.positions == 1 and other.positions == 1:
            return torch.einsum("bto,bto->bt", self.g, other.g).unsqueeze(2)
        return torch.bmm(self.g, other.g.transpose(1, 2))

    @abstractmethod
    def instantiate(self) -> torch.Tensor:
        """G_i for every sample, ``[b, numel]`` in the weight's layout."""

    def scaled_input(self, factors: torch.Tensor, keep: torch.Tensor, outputs: int) -> torch.Tensor | None:
        """c_i a_i, zero for the samples whose ``keep`` is False, ``[b, T, d]``, where that writes no more
        numbers than scaling output gradients of ``outputs`` (Σ_l p_l) columns would (d ≤ Σ_l p_l); None
        otherwise, and where a is not dense (token ids)."""
        return None

    @abstractmethod
    def add_summed(
        self,
        out: torch.Tensor,
        factors: torch.Tensor,
        keep: torch.Tensor,
        alpha: float,
        scaled_input: torch.Tensor | None = None,
    ) -> None:
        """out += α Σ_i c_i G_i over the samples whose ``keep`` is True, ``out`` flat in the weight's
        layout (book-keeping: one product, in place). c_i scales g_i, or a_i where ``scaled_input``
        (this weight's, or one shared with weights of the same ``input_key``) is given."""


class Outer(Factored):
    """G_i = g_iᵀ a_i for dense inputs a ``[b, T, d]``."""

    @property
    @abstractmethod
    def a(self) -> torch.Tensor:
        """The inputs a, ``[b, T, d]``."""

    @property
    def width(self) -> int:
        """d, the input width."""
        return self.a.shape[2]

    @property
    def ghost_cost(self) -> int:
        return self.positions**2 * (self.width + self.g.shape[2])

    @property
    def instantiation_cost(self) -> int:
        return self.positions * self.width * self.g.shape[2]

    @property
    def numel(self) -> int:
        return self.width * self.g.shape[2]

    def input_gram(self, other: Factored) -> torch.Tensor:
        if not isinstance(other, Outer):
            raise TypeError(f"{other!r} has no dense input")
        if self.positions == 1 and other.positions == 1:
            return torch.einsum("btd,btd->bt", self.a, other.a).unsqueeze(2)
        return torch.bmm(self.a, other.a.transpose(1, 2))

    def instantiate(self) -> torch.Tensor:
        return torch.bmm(self.g.transpose(1, 2), self.a).reshape(self.g.shape[0], -1)

    def scaled_input(self, factors: torch.Tensor, keep: torch.Tensor, outputs: int) -> torch.Tensor | None:
        return kept_rows(self.a, keep) * factors[:, None, None] if self.width <= outputs else None

    def add_summed(
        self,
        out: torch.Tensor,
        factors: torch.Tensor,
        keep: torch.Tensor,
        alpha: float,
        scaled_input: torch.Tensor | None = None,
    ) -> None:
        p, d = self.g.shape[2], self.width
        if scaled_input is None:
            g, a = kept_rows(self.g, keep) * factors[:, None, None], kept_rows(self.a, keep)
        else:
            g, a = kept_rows(self.g, keep), scaled_input
        out.view(p, d).addmm_(g.reshape(-1, p).T, a.reshape(-1, d), alpha=alpha)


class LinearOuter(Outer):
    """A linear layer's G_i = Σ_t g_it a_itᵀ, its input a ``[b, T, d]`` as it is."""

    def __init__(self, a: torch.Tensor, g: torch.Tensor) -> None:
        super().__init__(g)
        self._a = a

    @property
    def a(self) -> torch.Tensor:
        return self._a

    @property
    def input_key(self) -> Hashable:
        return ("dense", memory_key(self._a))


class ConvGeometry(NamedTuple):
    """A Conv1d or Conv2d as a 2-d convolution (a Conv1d's length as a width, over a height of 1)."""

    in_channels: int
    kernel: tuple[int, int]
    stride: tuple[int, int]
    padding: tuple[int, int]
    dilation: tuple[int, int]


def conv_geometry(conv: nn.Conv1d | nn.Conv2d) -> ConvGeometry:
    """The conv's 2-d geometry; a padding given by name (``'same'``) is refused."""
    if isinstance(conv.padding, str):
        raise ValueError(
            f"{conv}: padding={conv.padding!r} is not supported by the per-sample engines; give it as numbers"
        )

    def pair(values: tuple[int, ...], one_d: int) -> tuple[int, int]:
        return (one_d, values[0]) if len(values) == 1 else (values[0], values[1])

    return ConvGeometry(
        conv.in_channels,
        pair(conv.kernel_size, 1),
        pair(conv.stride, 1),
        pair(conv.padding, 0),
        pair(conv.dilation, 1),
    )


def patches(a: torch.Tensor, geometry: ConvGeometry) -> torch.Tensor:
    """The conv's input patches per output position, [b, positions, c_in·kh·kw] (im2col, transposed)."""
    b = a.shape[0]
    kernel, stride, (ph, pw), dilation = geometry.kernel, geometry.stride, geometry.padding, geometry.dilation
    if dilation != (1, 1):
        return F.unfold(a, kernel, dilation, geometry.padding, stride).transpose(1, 2)
    (kh, kw), (sh, sw) = kernel, stride
    padded = F.pad(a, (pw, pw, ph, ph)) if ph or pw else a
    windows = padded.unfold(2, kh, sh).unfold(3, kw, sw)  # [b, c, ho, wo, kh, kw], a view
    ho, wo = windows.shape[2], windows.shape[3]
    return windows.permute(0, 2, 3, 1, 4, 5).reshape(b, ho * wo, -1)


FEW_INPUT_CHANNELS = 4
"""Up to this many input channels (image stems), a grouped convolution beats im2col (bench/)."""
MANY_POSITIONS = 256
"""From this many output positions on, a CPU forms a convolution's per-sample gradients 2–3× faster by
the backward pass of a convolution grouped by sample than by im2col (resnet18's and wrn16-4's layers at
32×32 and 16×16, 2 threads); at 64 positions and fewer, im2col is faster."""


class ConvOuter(Outer):
    """A convolution's G_i = Σ_t g_it a_itᵀ, a_it its input patch at output position t; the patches are
    unfolded only when they are used (the ghost norm, or forming G_i from many input channels)."""

    def __init__(self, a: torch.Tensor, g: torch.Tensor, geometry: ConvGeometry) -> None:
        b, out_channels = g.shape[0], g.shape[1]
        super().__init__(g.reshape(b, out_channels, -1).transpose(1, 2))
        self.images, self.image_grads, self.geometry = a, g, geometry

    @cached_property
    def a(self) -> torch.Tensor:
        """The patches, unfolded once."""
        return patches(self.images, self.geometry)

    @property
    def input_key(self) -> Hashable:
        return ("patches", memory_key(self.images), self.geometry)

    @property
    def width(self) -> int:
        kh, kw = self.geometry.kernel
        return self.geometry.in_channels * kh * kw

    def instantiate(self) -> torch.Tensor:
        """W_i[o, c, u, v] = Σ_{h,w} g_i[o, h, w]·a_i[c, s·h + u, s·w + v]. Few input channels: one grouped
        convolution of the inputs with each sample's output gradient (groups = b, dilation = stride). On a
        CPU at ``MANY_POSITIONS`` and more: the weight gradient of the convolution whose b groups are the
        samples (input ``[1, b·c, H, W]``, output gradient ``[1, b·o, H', W']``: its ``[b·o, c, kh, kw]``
        weight gradient holds each W_i; Rochette, Manoel & Tramel 2019, "Efficient per-example gradient
        computations in convolutional neural networks"). Otherwise the batched product g_iᵀ a_i with the
        patches."""
        geometry = self.geometry
        if geometry.in_channels <= FEW_INPUT_CHANNELS and geometry.dilation == (1, 1):
            return self._by_stem_groups()
        if self.images.device.type == "cpu" and self.positions >= MANY_POSITIONS:
            return self._by_sample_groups()
        return super().instantiate()

    def _by_stem_groups(self) -> torch.Tensor:
        geometry = self.geometry
        b, out_channels = self.image_grads.shape[0], self.image_grads.shape[1]
        (kh, kw), (ph, pw) = geometry.kernel, geometry.padding
        padded = F.pad(self.images, (pw, pw, ph, ph)) if ph or pw else self.images
        kernels = self.image_grads.reshape(b * out_channels, 1, *self.image_grads.shape[2:])
        full = F.conv2d(padded.transpose(0, 1), kernels, dilation=geometry.stride, groups=b)
        weights = full[..., :kh, :kw].reshape(geometry.in_channels, b, out_channels, kh, kw)
        return weights.permute(1, 2, 0, 3, 4).reshape(b, -1)

    def _by_sample_groups(self) -> torch.Tensor:
        geometry, images, grads = self.geometry, self.images, self.image_grads
        b, out_channels = grads.shape[0], grads.shape[1]
        shape = (b * out_channels, geometry.in_channels, *geometry.kernel)  # only its shape is read
        _, weights, _ = torch.ops.aten.convolution_backward(
            grads.reshape(1, b * out_channels, *grads.shape[2:]),
            images.reshape(1, b * geometry.in_channels, *images.shape[2:]),
            images.new_zeros(shape),
            None,
            geometry.stride,
            geometry.padding,
            geometry.dilation,
            False,
            [0, 0],
            b,
            [False, True, False],
        )
        return weights.reshape(b, -1)


class OneHot(Factored):
    """An embedding's G_i = Σ_t g_it e(x_it)ᵀ, e(v) the one-hot vector of token v: the input Gram is
    [x_it = x'_it'] (T² comparisons, not T²·V products), and G_i has the rows Σ_{t: x_it = v} g_it."""

    def __init__(self, ids: torch.Tensor, g: torch.Tensor, vocabulary: int) -> None:
        super().__init__(g)
        self.ids, self.vocabulary = ids, vocabulary

    @property
    def input_key(self) -> Hashable:
        return ("ids", memory_key(self.ids), self.vocabulary)

    @property
    def ghost_cost(self) -> int:
        return self.positions**2 * (1 + self.g.shape[2])

    @property
    def instantiation_cost(self) -> int:
        return (self.positions + self.vocabulary) * self.g.shape[2]

    @property
    def numel(self) -> int:
        return self.vocabulary * self.g.shape[2]

    def input_gram(self, other: Factored) -> torch.Tensor:
        if not isinstance(other, OneHot):
            raise TypeError(f"{other!r} has no token ids")
        return (self.ids[:, :, None] == other.ids[:, None, :]).to(self.g.dtype)

    def instantiate(self) -> torch.Tensor:
        b, p = self.g.shape[0], self.g.shape[2]
        rows = (self.ids + self.vocabulary * torch.arange(b, device=self.ids.device)[:, None]).reshape(-1)
        dense = torch.zeros(b * self.vocabulary, p, dtype=self.g.dtype, device=self.g.device)
        return dense.index_add_(0, rows, self.g.reshape(-1, p)).reshape(b, -1)

    def add_summed(
        self,
        out: torch.Tensor,
        factors: torch.Tensor,
        keep: torch.Tensor,
        alpha: float,
        scaled_input: torch.Tensor | None = None,
    ) -> None:
        if scaled_input is not None:
            raise TypeError("token ids cannot be scaled: c_i scales the output gradients")
        p = self.g.shape[2]
        scaled = (kept_rows(self.g, keep) * factors[:, None, None]).reshape(-1, p)
        out.view(self.vocabulary, p).index_add_(0, self.ids.reshape(-1), scaled, alpha=alpha)


FORMED_BYTES = 2**30
"""The most a chunk's formed per-sample gradients of one weight may hold (all its terms together) before
the ghost norm is taken instead, where its Gram matrices hold less."""


def ghost_is_cheaper(weight: Factored, terms: int) -> bool:
    """Bu, Mao & Xu (2022)'s choice for a weight whose per-sample signal is a sum of ``terms`` gradients
    Σ_j w_j G_ij (per-sample momentum): ghost norms of its J(J+1)/2 pairs cost J(J+1)/2·T²(d + p) a
    sample, forming its J gradients J·T·d·p. Memory counts too: forming holds J·b·d·p numbers at once,
    the ghost J(J+1)/2·2·b·T². Where forming would hold more than ``FORMED_BYTES`` and the ghost less, the
    ghost is taken even at more multiply-adds: an embedding formed holds its whole vocabulary for each
    sample (V·p: 147 MiB a sample for RoBERTa-base in float32), of which only T rows are not zero."""
    pairs = terms * (terms + 1) // 2
    if pairs * weight.ghost_cost < terms * weight.instantiation_cost:
        return True
    formed, ghost = terms * weight.formed_bytes, pairs * weight.gram_bytes
    return formed > FORMED_BYTES and ghost < formed


def _linear_weight(layer: nn.Module, a: torch.Tensor, g: torch.Tensor) -> Factored:
    b = a.shape[0]
    return LinearOuter(a.reshape(b, -1, a.shape[-1]), g.reshape(b, -1, g.shape[-1]))


def _linear_others(layer: nn.Module, a: torch.Tensor, g: torch.Tensor) -> dict[str, torch.Tensor]:
    """∂f_i/∂b = Σ_t g_it."""
    return {"bias": g.reshape(g.shape[0], -1, g.shape[-1]).sum(dim=1)}


def _as_2d(t: torch.Tensor) -> torch.Tensor:
    """A Conv1d's ``[b, c, L]`` tensor as ``[b, c, 1, L]``; a Conv2d's as it is."""
    return t.unsqueeze(2) if t.dim() == 3 else t


def _conv_weight(layer: nn.Module, a: torch.Tensor, g: torch.Tensor) -> Factored:
    if not isinstance(layer, nn.Conv1d | nn.Conv2d):
        raise TypeError(f"{layer} is not a Conv1d or Conv2d")
    return ConvOuter(_as_2d(a), _as_2d(g), conv_geometry(layer))


def _conv_others(layer: nn.Module, a: torch.Tensor, g: torch.Tensor) -> dict[str, torch.Tensor]:
    """∂f_i/∂b_o = Σ_t g_i[o, t]."""
    return {"bias": g.sum(dim=tuple(range(2, g.dim())))}


def _plain_conv(layer: nn.Module) -> bool:
    """One group, zero padding given as numbers."""
    return (
        isinstance(layer, nn.Conv1d | nn.Conv2d)
        and layer.groups == 1
        and layer.padding_mode == "zeros"
        and isinstance(layer.padding, tuple)
    )


def _embedding_weight(layer: nn.Module, a: torch.Tensor, g: torch.Tensor) -> Factored:
    """The token ids and their output gradients; a padding token's gradient is zero, as in the layer's own
    backward pass."""
    if not isinstance(layer, nn.Embedding):
        raise TypeError(f"{layer} is not an Embedding")
    b, p = a.shape[0], g.shape[-1]
    ids, grads = a.reshape(b, -1), g.reshape(b, -1, p)
    if layer.padding_idx is not None:
        grads = grads.masked_fill((ids == layer.padding_idx)[:, :, None], 0.0)
    return OneHot(ids, grads, layer.num_embeddings)


def _plain_embedding(layer: nn.Module) -> bool:
    """Dense, no re-normalisation of the table in the forward pass, and no gradient scaled by the batch's
    token counts (which would mix the samples)."""
    return (
        isinstance(layer, nn.Embedding)
        and layer.max_norm is None
        and not layer.scale_grad_by_freq
        and not layer.sparse
    )


def _affine_grads(
    g: torch.Tensor, normalised: torch.Tensor, positions: tuple[int, ...]
) -> dict[str, torch.Tensor]:
    """∂f_i/∂γ = Σ_s g_i[s]·â_i[s] and ∂f_i/∂β = Σ_s g_i[s] over the positions s, ``[b, numel]`` each."""
    b = g.shape[0]
    return {
        "weight": (g * normalised).sum(dim=positions).reshape(b, -1),
        "bias": g.sum(dim=positions).reshape(b, -1),
    }


def _group_norm_others(layer: nn.Module, a: torch.Tensor, g: torch.Tensor) -> dict[str, torch.Tensor]:
    """A GroupNorm normalises each sample on its own (Wu & He 2018): â_i is a_i normalised per group
    without γ, β; s runs over the spatial positions of each channel."""
    if not isinstance(layer, nn.GroupNorm):
        raise TypeError(f"{layer} is not a GroupNorm")
    normalised = F.group_norm(a, layer.num_groups, eps=layer.eps)
    return _affine_grads(g, normalised, tuple(range(2, a.dim())))


def _layer_norm_others(layer: nn.Module, a: torch.Tensor, g: torch.Tensor) -> dict[str, torch.Tensor]:
    """A LayerNorm normalises each sample's last dimensions (Ba, Kiros & Hinton 2016): â_i is a_i
    normalised over them without γ, β; s runs over the dimensions between the batch and them."""
    if not isinstance(layer, nn.LayerNorm):
        raise TypeError(f"{layer} is not a LayerNorm")
    normalised = F.layer_norm(a, layer.normalized_shape, eps=layer.eps)
    return _affine_grads(g, normalised, tuple(range(1, a.dim() - len(layer.normalized_shape))))


def _always(layer: nn.Module) -> bool:
    return True


def _nothing(layer: nn.Module, a: torch.Tensor, g: torch.Tensor) -> dict[str, torch.Tensor]:
    return {}


@dataclass(frozen=True)
class LayerRule:
    """How one layer type gives its parameters' per-sample gradients from its input a and output gradient
    g at one iterate: ``weight`` its weight as factors (None: formed per sample, in ``others``),
    ``others`` every other parameter's, ``[b, numel]`` by parameter name; ``supports`` says which
    instances the two are exact for."""

    supports: Callable[[nn.Module], bool]
    weight: Callable[[nn.Module, torch.Tensor, torch.Tensor], Factored] | None
    others: Callable[[nn.Module, torch.Tensor, torch.Tensor], dict[str, torch.Tensor]]


LAYER_RULES: dict[type[nn.Module], LayerRule] = {
    nn.Linear: LayerRule(_always, _linear_weight, _linear_others),
    nn.Conv1d: LayerRule(_plain_conv, _conv_weight, _conv_others),
    nn.Conv2d: LayerRule(_plain_conv, _conv_weight, _conv_others),
    nn.Embedding: LayerRule(_plain_embedding, _embedding_weight, _nothing),
    nn.GroupNorm: LayerRule(_always, None, _group_norm_others),
    nn.LayerNorm: LayerRule(_always, None, _layer_norm_others),
}
"""The layer types the ghost engine covers, by exact type: a subclass may compute its output otherwise
(a standardised weight, a weight used outside ``forward``), so it is not covered by its base's rule."""


def _vit_embeddings_others(layer: nn.Module, a: torch.Tensor, g: torch.Tensor) -> dict[str, torch.Tensor]:
    """A ViT's embeddings (Dosovitskiy et al. 2021, Eq. 1): z_0 = [x_class; x_p^1 E; …; x_p^N E] + E_pos, so
    ∂f_i/∂x_class = g_i[0] and ∂f_i/∂E_pos = g_i (the patch projection E is its own Conv2d layer)."""
    b = g.shape[0]
    return {"cls_token": g[:, 0, :], "position_embeddings": g.reshape(b, -1)}


def _plain_vit_embeddings(layer: nn.Module) -> bool:
    """No mask token (a masked-image-modelling variant replaces patches by it)."""
    return getattr(layer, "mask_token", None) is None


NAMED_RULES: dict[str, LayerRule] = {
    "transformers.models.vit.modeling_vit.ViTEmbeddings": LayerRule(
        _plain_vit_embeddings, None, _vit_embeddings_others
    ),
}
"""Rules of layers from other libraries, by their class's full name (no import of the library here):
``transformers``' ViT embeddings, whose class token and position embeddings are parameters of their own.
Interpolated position embeddings (``interpolate_pos_encoding``) are not covered: the engine's check
(``engine_choice.ghost_check``) then fails and the vmap engine runs."""


def layer_rule(layer: nn.Module) -> LayerRule | None:
    """The rule of ``layer``'s exact type, if there is one and it supports this instance."""
    kind = type(layer)
    rule = LAYER_RULES.get(kind) or NAMED_RULES.get(f"{kind.__module__}.{kind.__qualname__}")
    return rule if rule is not None and rule.supports(layer) else None
