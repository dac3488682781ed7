"""Per-sample signals, their norms and the clipped sum Σ_i clip(v_i, C), for models without BatchNorm.

The quantity every DP method releases (before noise) is

    S = Σ_i v_i · min(1, C / ‖v_i‖₂),    v_i = Σ_j w_j ∇f_i(θ_j)

(v_i is the gradient of sample i, or DP-PMLF's per-sample momentum over past iterates θ_j). Two
engines compute S exactly; ``clipped_sum_engine`` picks the faster one that supports the model:

* ``VmapEngine`` (any model): ``torch.func.vmap(grad(loss of one sample))`` materialises every
  per-sample gradient, chunked by the physical batch size so memory stays at ``chunk × n_params``.
* ``GhostEngine`` (models whose parameters all sit in ``nn.Linear``, ``nn.Conv2d`` and ``nn.GroupNorm``
  layers): one forward and one backward pass per iterate give each layer's input a and output gradient
  g per sample; a linear layer's per-sample gradient g_i a_iᵀ is never formed, its squared norm is
  Σ_{j,j'} w_j w_j' (a_ij·a_ij')(g_ij·g_ij') ("ghost norm", Goodfellow 2015; Li et al. 2022) and its
  clipped sum is Σ_j w_j (f∘g_j)ᵀ a_j, one matrix product ("book-keeping", Bu et al. 2023).
  Convolution gradients are formed per sample from unfolded inputs (they are small), and so are a
  GroupNorm's: it normalises each sample on its own (Wu & He 2018), so ∂f_i/∂γ_c = Σ_s g_i[c, s]·â_i[c, s]
  and ∂f_i/∂β_c = Σ_s g_i[c, s], with â_i the sample's input normalised per group and s the positions.

A signal that is not finite (a NaN or infinite entry, or a squared norm that overflows: one record whose
logits overflow) gets clip factor 0 and its row is zeroed before the sum (0·NaN would still be NaN), so
every clipped sum moves by at most C when one record changes, whatever that record does. Engines count
such signals (``nonfinite``): an internal figure of the run, never a released one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn
from torch.func import functional_call, grad, vmap

PerSampleChunk = list[torch.Tensor]
"""Per-sample vectors of a chunk of b samples, one ``[b, numel_p]`` tensor per parameter tensor."""


@dataclass(frozen=True)
class ParamLayout:
    names: tuple[str, ...]
    shapes: tuple[torch.Size, ...]
    numels: tuple[int, ...]

    @property
    def size(self) -> int:
        return sum(self.numels)


def _check_no_batchnorm(model: nn.Module) -> None:
    for name, module in model.named_modules():
        if isinstance(module, nn.modules.batchnorm._BatchNorm):
            raise ValueError(
                f"model has BatchNorm ({name}): it mixes samples, so per-sample gradients are "
                "undefined under DP; use GroupNorm or LayerNorm"
            )


def clip_factors(squared_norms: torch.Tensor, clip: float, finite: torch.Tensor) -> torch.Tensor:
    """Abadi clipping weights min(1, C/‖v_i‖₂) from ‖v_i‖₂² (a zero vector keeps weight 1), and 0 where
    ``finite`` is False (‖v_i‖₂² is not finite: the signal is left out, module docstring)."""
    factors = (clip / squared_norms.sqrt()).clamp(max=1.0)
    return torch.where(finite, factors, torch.zeros_like(factors))


def kept_rows(t: torch.Tensor, keep: torch.Tensor) -> torch.Tensor:
    """``t`` with its rows (first dimension) zeroed where ``keep`` is False. On a CPU, ``t`` itself when
    every row is kept (the usual case): zeroing copies the whole tensor, as long as a linear layer's
    weight gradient takes for a wide input; on a GPU the check would make the host wait for the device."""
    if t.device.type == "cpu" and bool(keep.all()):
        return t
    mask = keep.reshape(-1, *([1] * (t.dim() - 1)))
    return torch.where(mask, t, torch.zeros((), dtype=t.dtype, device=t.device))


class FlatModel:
    """A model whose parameters live in one flat vector θ, with per-sample gradients w.r.t. θ."""

    def __init__(self, model: nn.Module) -> None:
        _check_no_batchnorm(model)
        self.model = model
        named = [(n, p) for n, p in model.named_parameters() if p.requires_grad]
        self.layout = ParamLayout(
            tuple(n for n, _ in named),
            tuple(p.shape for _, p in named),
            tuple(p.numel() for _, p in named),
        )
        self._grads = vmap(grad(self._loss_of_one), in_dims=(None, 0, 0))

    @property
    def size(self) -> int:
        return self.layout.size

    def flatten(self) -> torch.Tensor:
        """θ: the model's current parameters as one detached vector."""
        return torch.cat([p.detach().reshape(-1) for _, p in self._named()])

    def unflatten(self, theta: torch.Tensor) -> dict[str, torch.Tensor]:
        """Views of θ shaped like each parameter."""
        pieces = torch.split(theta, list(self.layout.numels))
        return {
            name: piece.view(shape)
            for name, piece, shape in zip(self.layout.names, pieces, self.layout.shapes, strict=True)
        }

    def load(self, theta: torch.Tensor) -> None:
        """Copy θ into the module's parameters (for evaluation and export)."""
        with torch.no_grad():
            for (_, p), value in zip(self._named(), self.unflatten(theta).values(), strict=True):
                p.copy_(value)

    def _named(self) -> list[tuple[str, nn.Parameter]]:
        params = dict(self.model.named_parameters())
        return [(name, params[name]) for name in self.layout.names]

    def _loss_of_one(self, params: dict[str, torch.Tensor], x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        logits = functional_call(self.model, params, (x.unsqueeze(0),))
        return F.cross_entropy(logits, y.unsqueeze(0))

    def per_sample_grads(self, theta: torch.Tensor, x: torch.Tensor, y: torch.Tensor) -> PerSampleChunk:
        """∇_θ f_i(θ) for every sample of (x, y), as one ``[b, numel_p]`` tensor per parameter."""
        grads = self._grads(self.unflatten(theta), x, y)
        b = x.shape[0]
        return [grads[name].reshape(b, -1) for name in self.layout.names]


def _weighted_sum(weights: list[float], tensors: list[torch.Tensor]) -> torch.Tensor:
    """Σ_j w_j T_j (no copy for a single term of weight 1)."""
    if len(tensors) == 1 and weights[0] == 1.0:
        return tensors[0]
    total = weights[0] * tensors[0]
    for w, tensor in zip(weights[1:], tensors[1:], strict=True):
        total.add_(tensor, alpha=w)
    return total


def padding(conv: nn.Conv2d) -> tuple[int, int]:
    """The conv's (height, width) zero padding; one given by name (``'same'``) is refused."""
    if isinstance(conv.padding, str):
        raise ValueError(
            f"{conv}: padding={conv.padding!r} is not supported by the per-sample engines; give it as numbers"
        )
    ph, pw = conv.padding
    return ph, pw


def _patches(a: torch.Tensor, conv: nn.Conv2d) -> torch.Tensor:
    """The conv's input patches per output position, [b, positions, c_in·kh·kw] (im2col, transposed)."""
    b = a.shape[0]
    (kh, kw), (sh, sw), (ph, pw) = conv.kernel_size, conv.stride, padding(conv)
    if conv.dilation != (1, 1):
        return F.unfold(a, conv.kernel_size, conv.dilation, (ph, pw), conv.stride).transpose(1, 2)
    padded = F.pad(a, (pw, pw, ph, ph)) if ph or pw else a
    windows = padded.unfold(2, kh, sh).unfold(3, kw, sw)  # [b, c, ho, wo, kh, kw], a view
    ho, wo = windows.shape[2], windows.shape[3]
    return windows.permute(0, 2, 3, 1, 4, 5).reshape(b, ho * wo, -1)


FEW_INPUT_CHANNELS = 4
"""Up to this many input channels (image stems), a grouped convolution beats im2col (bench/)."""


def conv_per_sample_weight_grads(a: torch.Tensor, g: torch.Tensor, conv: nn.Conv2d) -> torch.Tensor:
    """∂f_i/∂W for each sample: W_i[o, c, u, v] = Σ_{h,w} g_i[o, h, w]·a_i[c, s·h + u, s·w + v], [b, numel].

    Few input channels: one grouped convolution of the inputs with each sample's output gradient
    (groups = b, dilation = stride). Otherwise: a batched matrix product with the im2col patches.
    """
    b, out_channels = g.shape[0], g.shape[1]
    if conv.in_channels > FEW_INPUT_CHANNELS or conv.dilation != (1, 1):
        return torch.bmm(g.reshape(b, out_channels, -1), _patches(a, conv)).reshape(b, -1)
    (kh, kw), (ph, pw) = conv.kernel_size, padding(conv)
    padded = F.pad(a, (pw, pw, ph, ph)) if ph or pw else a
    kernels = g.reshape(b * out_channels, 1, g.shape[2], g.shape[3])
    full = F.conv2d(padded.transpose(0, 1), kernels, dilation=conv.stride, groups=b)
    weights = full[..., :kh, :kw].reshape(conv.in_channels, b, out_channels, kh, kw)
    return weights.permute(1, 2, 0, 3, 4).reshape(b, -1)


class _ChunkedEngine:
    """S = Σ_i clip(v_i, C), summed over chunks of at most ``physical_batch_size`` samples."""

    def __init__(self, flat: FlatModel, physical_batch_size: int) -> None:
        self.flat = flat
        self.physical_batch_size = physical_batch_size
        self._nonfinite: torch.Tensor | int = 0  # summed on the device: read without a sync per chunk

    @property
    def nonfinite(self) -> int:
        """Signals zeroed so far because they were not finite (internal: never released)."""
        return int(self._nonfinite)

    def _finite(self, squared_norms: torch.Tensor) -> torch.Tensor:
        """Which signals are finite; the others are counted."""
        finite = torch.isfinite(squared_norms)
        self._nonfinite = self._nonfinite + (~finite).sum()
        return finite

    def chunk_clipped_sum(
        self,
        iterates: list[torch.Tensor],
        weights: list[float],
        x: torch.Tensor,
        y: torch.Tensor,
        clip: float,
    ) -> torch.Tensor:
        raise NotImplementedError

    def clipped_sum(
        self,
        iterates: list[torch.Tensor],
        weights: torch.Tensor,
        x: torch.Tensor,
        y: torch.Tensor,
        clip: float,
    ) -> torch.Tensor:
        """Σ_i clip(Σ_j w_j ∇f_i(θ_j), C) over the samples (x, y), as a flat vector like θ."""
        total = torch.zeros_like(iterates[0])
        for start in range(0, x.shape[0], self.physical_batch_size):
            stop = start + self.physical_batch_size
            total += self.chunk_clipped_sum(iterates, weights.tolist(), x[start:stop], y[start:stop], clip)
        return total


class VmapEngine(_ChunkedEngine):
    """Materialised per-sample gradients (any model without BatchNorm)."""

    def chunk_clipped_sum(
        self,
        iterates: list[torch.Tensor],
        weights: list[float],
        x: torch.Tensor,
        y: torch.Tensor,
        clip: float,
    ) -> torch.Tensor:
        per_iterate = [self.flat.per_sample_grads(theta, x, y) for theta in iterates]
        signals = [_weighted_sum(weights, list(pieces)) for pieces in zip(*per_iterate, strict=True)]
        squared = torch.stack([torch.einsum("bk,bk->b", v, v) for v in signals]).sum(dim=0)
        finite = self._finite(squared)
        factors = clip_factors(squared, clip, finite)
        return torch.cat([factors @ kept_rows(v, finite) for v in signals])


def group_norm_per_sample_grads(
    a: torch.Tensor, g: torch.Tensor, norm: nn.GroupNorm
) -> dict[str, torch.Tensor]:
    """A GroupNorm's per-sample affine gradients (module docstring), [b, channels] each:
    ∂f_i/∂γ_c = Σ_s g_i[c, s]·â_i[c, s] and ∂f_i/∂β_c = Σ_s g_i[c, s], â = GroupNorm(a) without γ, β."""
    normalised = F.group_norm(a, norm.num_groups, eps=norm.eps)
    positions = tuple(range(2, a.dim()))
    return {"weight": (g * normalised).sum(dim=positions), "bias": g.sum(dim=positions)}


@dataclass
class _LayerTrace:
    """One layer's per-sample quantities at one iterate."""

    module: nn.Module
    activation: torch.Tensor  # layer input, [b, ...]
    output: torch.Tensor  # layer output (graph node), [b, ...]
    output_grad: torch.Tensor | None = None

    @property
    def grad(self) -> torch.Tensor:
        """∂loss/∂output, [b, ...], once the backward pass has run."""
        if self.output_grad is None:
            raise RuntimeError(f"{self.module}: no output gradient was captured (backward has not run)")
        return self.output_grad


def ghost_supported(model: nn.Module) -> bool:
    """True if every trainable parameter is the weight or bias of a Linear, a plain Conv2d or a GroupNorm."""
    covered = 0
    for module in model.modules():
        if isinstance(module, nn.Linear | nn.GroupNorm) or (
            isinstance(module, nn.Conv2d)
            and module.groups == 1
            and module.padding_mode == "zeros"
            and isinstance(module.padding, tuple)
        ):
            covered += sum(1 for p in module.parameters(recurse=False) if p.requires_grad)
    return covered == sum(1 for p in model.parameters() if p.requires_grad)


class GhostEngine(_ChunkedEngine):
    """S = Σ_i clip(v_i, C) without materialising linear layers' per-sample gradients."""

    def __init__(self, flat: FlatModel, physical_batch_size: int) -> None:
        if not ghost_supported(flat.model):
            raise ValueError("GhostEngine needs every parameter in an nn.Linear, nn.Conv2d or nn.GroupNorm")
        super().__init__(flat, physical_batch_size)
        module_of = {}
        for prefix, module in flat.model.named_modules():
            for pname, _ in module.named_parameters(recurse=False):
                module_of[f"{prefix}.{pname}" if prefix else pname] = (module, pname)
        self._slots = [module_of[name] for name in flat.layout.names]
        self._layers = list(dict.fromkeys(module for module, _ in self._slots))
        self._copied: set[nn.Module] = set()
        """Layers whose output the model changes in place (``ReLU(inplace=True)``, ``out += skip``): the
        model is handed a copy of it, so that the traced output stays the node whose gradient is g."""

    def _trace(self, theta: torch.Tensor, x: torch.Tensor, y: torch.Tensor) -> dict[nn.Module, _LayerTrace]:
        """Forward at θ recording each layer's input and output, then ∂(Σ_i f_i)/∂output per layer. A
        layer whose output the forward changed in place is found by the output's version counter; it is
        then copied for the model from this trace on (``_copied``), which is traced again. On a CPU the
        model goes on from a convolution's output in channels-last memory format (the same values):
        the layers after it run faster on it, cnn5's stride-1 max pools several times, and a cnn5
        clipped sum takes about a fifth less time."""
        traces: dict[nn.Module, _LayerTrace] = {}
        versions: dict[nn.Module, int] = {}

        def record(module: nn.Module, inputs: tuple[torch.Tensor, ...], output: torch.Tensor) -> torch.Tensor:
            traces[module] = _LayerTrace(module, inputs[0].detach(), output)
            versions[module] = output._version
            handed = output.clone() if module in self._copied else output
            if isinstance(module, nn.Conv2d) and output.device.type == "cpu":
                handed = handed.contiguous(memory_format=torch.channels_last)
            return handed

        handles = [layer.register_forward_hook(record) for layer in self._layers]
        try:
            leaf = theta.detach().requires_grad_(True)
            logits = functional_call(self.flat.model, self.flat.unflatten(leaf), (x,))
        finally:
            for handle in handles:
                handle.remove()
        changed = {layer for layer, version in versions.items() if traces[layer].output._version != version}
        if changed:
            self._copied |= changed
            return self._trace(theta, x, y)
        loss = F.cross_entropy(logits, y, reduction="sum")
        ordered = [traces[layer] for layer in self._layers]
        grads = torch.autograd.grad(loss, [t.output for t in ordered])
        for trace, g in zip(ordered, grads, strict=True):
            trace.output_grad = g.detach()
        return traces

    @staticmethod
    def _materialise(trace: _LayerTrace) -> dict[str, torch.Tensor]:
        """Per-sample weight and bias gradients of a conv, GroupNorm or sequence-input linear layer."""
        module, a, g = trace.module, trace.activation, trace.grad
        b = a.shape[0]
        if isinstance(module, nn.GroupNorm):
            return group_norm_per_sample_grads(a, g, module)
        if isinstance(module, nn.Conv2d):
            weight = conv_per_sample_weight_grads(a, g, module)
            bias = g.sum(dim=(2, 3))
        else:  # Linear on [b, ..., d]: sum the outer products over the extra dimensions
            a3, g3 = a.reshape(b, -1, a.shape[-1]), g.reshape(b, -1, g.shape[-1])
            weight = torch.bmm(g3.transpose(1, 2), a3)
            bias = g3.sum(dim=1)
        return {"weight": weight.reshape(b, -1), "bias": bias}

    def _materialise_combined(
        self, layer: nn.Module, traces: list[dict[nn.Module, _LayerTrace]], weights: list[float]
    ) -> tuple[list[float], list[dict[str, torch.Tensor]]]:
        """(w_j, per-sample gradients of ``layer`` at iterate j) for every j; or, when the layer sees the
        same input at every iterate (the input layer), one term for Σ_j w_j g_j, as the gradient is
        linear in the output gradient g."""
        first = traces[0][layer].activation
        if len(traces) == 1 or any(t[layer].activation.data_ptr() != first.data_ptr() for t in traces):
            return weights, [self._materialise(t[layer]) for t in traces]
        output_grad = _weighted_sum(weights, [t[layer].grad for t in traces])
        return [1.0], [self._materialise(_LayerTrace(layer, first, traces[0][layer].output, output_grad))]

    def chunk_clipped_sum(
        self,
        iterates: list[torch.Tensor],
        weights: list[float],
        x: torch.Tensor,
        y: torch.Tensor,
        clip: float,
    ) -> torch.Tensor:
        traces = [self._trace(theta, x, y) for theta in iterates]
        squared = torch.zeros(x.shape[0], device=x.device, dtype=iterates[0].dtype)
        per_sample: dict[tuple[nn.Module, str], torch.Tensor] = {}  # materialised pieces of v_i
        ghost: set[nn.Module] = set()
        for layer in self._layers:
            if isinstance(layer, nn.Linear) and traces[0][layer].activation.dim() == 2:
                ghost.add(layer)
                acts = [t[layer].activation for t in traces]
                grads = [t[layer].grad for t in traces]
                # ‖Σ_j w_j g_j a_jᵀ‖² = Σ_{j,j'} w_j w_j' (a_j·a_j')(g_j·g_j')
                for w1, a1, g1 in zip(weights, acts, grads, strict=True):
                    for w2, a2, g2 in zip(weights, acts, grads, strict=True):
                        dots_a = torch.einsum("bi,bi->b", a1, a2)
                        squared += (w1 * w2) * dots_a * torch.einsum("bo,bo->b", g1, g2)
                part_weights, parts = weights, [{"bias": g} for g in grads]
            else:
                part_weights, parts = self._materialise_combined(layer, traces, weights)
            for key in parts[0]:
                if key == "bias" and layer.bias is None:
                    continue
                combined = _weighted_sum(part_weights, [p[key] for p in parts])
                per_sample[(layer, key)] = combined
                squared += torch.linalg.vector_norm(combined, dim=1).square()
        finite = self._finite(squared)
        factors = clip_factors(squared, clip, finite)
        pieces = []
        for module, pname in self._slots:
            if module in ghost and pname == "weight":
                scaled = [
                    (kept_rows(t[module].grad, finite) * factors[:, None]).T
                    @ kept_rows(t[module].activation, finite)
                    for t in traces
                ]
                pieces.append(_weighted_sum(weights, scaled).reshape(-1))
            else:
                pieces.append(factors @ kept_rows(per_sample[(module, pname)], finite))
        return torch.cat(pieces)


ClippedSumEngine = VmapEngine | GhostEngine


ENGINES: dict[str, Callable[[FlatModel, int], ClippedSumEngine]] = {
    "vmap": VmapEngine,
    "ghost": GhostEngine,
}
"""Per-sample engines by name; ``auto`` picks ghost where the model allows it."""


def clipped_sum_engine(flat: FlatModel, physical_batch_size: int, engine: str = "auto") -> ClippedSumEngine:
    """``ghost`` where the model allows it (``auto``), else ``vmap``."""
    if engine == "auto":
        engine = "ghost" if ghost_supported(flat.model) else "vmap"
    return ENGINES[engine](flat, physical_batch_size)
