"""Per-sample signals, their norms and the clipped sum Σ_i clip(v_i, C), for models without BatchNorm.

The quantity every DP method privatizes (before noise) is

    S = Σ_i v_i · min(1, C / ‖v_i‖₂),    v_i = Σ_j w_j ∇f_i(θ_j)

(v_i is the gradient of sample i, or DP-PMLF's per-sample momentum over past iterates θ_j). Two
engines compute S exactly; ``engine_choice.clipped_sum_engine`` picks the faster one that supports the
model:

* ``VmapEngine`` (any model): ``torch.func.vmap(grad(loss of one sample))`` materialises every
  per-sample gradient, chunked by the physical batch size so memory stays at ``chunk × n_params``.
* ``GhostEngine`` (models whose every parameter sits in a layer of ``layer_grads.LAYER_RULES``: Linear,
  Conv1d, Conv2d, Embedding, GroupNorm, LayerNorm): one forward and one backward pass per iterate give
  each layer's input a_j and output gradient g_j per sample. A weight's per-sample gradient
  G_ij = Σ_t g_ijt a_ijtᵀ is either formed, or left as its factors: then ‖v_i‖² takes its part
  Σ_{j,j'} w_j w_j' Σ_{t,t'} (a_ijt·a_ij't')(g_ijt·g_ij't') ("ghost norm", Goodfellow 2015; Li et al.
  2022) and the clipped sum its part Σ_j w_j Σ_i c_i G_ij as one product per term ("book-keeping", Bu,
  Wang, Zha & Karypis 2023); no second backward pass either way. Each weight takes the cheaper of the two
  (Bu, Mao & Xu 2022, ``layer_grads.ghost_is_cheaper``). A layer that sees the same input at every
  iterate (the input layer) sums its output gradients first: one term instead of k. Weights that read
  one input (a transformer's query, key and value) share its Gram matrix,
  Σ_l ⟨A Aᵀ, G_l G_lᵀ⟩ = ⟨A Aᵀ, Σ_l G_l G_lᵀ⟩, and its copy scaled by the clip factors.

The ghost engine sees a parameter only through its layer's input and output: a parameter the model also
reads outside that layer's forward would silently lose that use, so ``dptune.engine.engine_choice``
checks the engine against autograd before training and picks the vmap engine where it fails.

A signal that is not finite (a NaN or infinite entry, or a squared norm that overflows: one record whose
logits overflow) gets clip factor 0 and its row is zeroed before the sum (0·NaN would still be NaN), so
every clipped sum moves by at most C when one record changes, whatever that record does. Engines count
such signals (``nonfinite``): an internal figure of the run, never a published one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn
from torch.func import functional_call, grad, vmap

from dptune.engine.layer_grads import (
    LAYER_RULES,
    Factored,
    ghost_is_cheaper,
    kept_rows,
    layer_rule,
    memory_key,
)

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
        return torch.cat([p.detach().reshape(-1) for _, p in self.trained()])

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
            for (_, p), value in zip(self.trained(), self.unflatten(theta).values(), strict=True):
                p.copy_(value)

    def trained(self) -> list[tuple[str, nn.Parameter]]:
        """The trained parameters by name, in the flat vector's order."""
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


class _ChunkedEngine:
    """S = Σ_i clip(v_i, C), summed over chunks of at most ``physical_batch_size`` samples."""

    name = "engine"

    def __init__(self, flat: FlatModel, physical_batch_size: int) -> None:
        self.flat = flat
        self.physical_batch_size = physical_batch_size
        self._nonfinite: torch.Tensor | int = 0  # summed on the device: read without a sync per chunk
        self.choice = self.name
        """Which engine this is and, where ``clipped_sum_engine`` chose it, why."""

    @property
    def nonfinite(self) -> int:
        """Signals zeroed so far because they were not finite (internal: never published)."""
        return int(self._nonfinite)

    def _finite(self, squared_norms: torch.Tensor) -> torch.Tensor:
        """Which signals are finite; the others are counted."""
        finite = torch.isfinite(squared_norms)
        self._nonfinite = self._nonfinite + (~finite).sum()
        return finite

    def add_chunk_clipped_sum(
        self,
        pieces: list[torch.Tensor],
        iterates: list[torch.Tensor],
        weights: list[float],
        x: torch.Tensor,
        y: torch.Tensor,
        clip: float,
    ) -> None:
        """Add Σ_i clip(v_i, C) over one chunk of samples (x, y) to ``pieces``, views of the flat sum, one
        per parameter tensor (in place: no per-chunk vector is made and concatenated)."""
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
        pieces = list(torch.split(total, list(self.flat.layout.numels)))
        for start in range(0, x.shape[0], self.physical_batch_size):
            stop = start + self.physical_batch_size
            self.add_chunk_clipped_sum(pieces, iterates, weights.tolist(), x[start:stop], y[start:stop], clip)
        return total


class VmapEngine(_ChunkedEngine):
    """Materialised per-sample gradients (any model without BatchNorm)."""

    name = "vmap"

    def add_chunk_clipped_sum(
        self,
        pieces: list[torch.Tensor],
        iterates: list[torch.Tensor],
        weights: list[float],
        x: torch.Tensor,
        y: torch.Tensor,
        clip: float,
    ) -> None:
        per_iterate = [self.flat.per_sample_grads(theta, x, y) for theta in iterates]
        signals = [_weighted_sum(weights, list(grads)) for grads in zip(*per_iterate, strict=True)]
        squared = torch.stack([torch.einsum("bk,bk->b", v, v) for v in signals]).sum(dim=0)
        finite = self._finite(squared)
        factors = clip_factors(squared, clip, finite)
        for piece, v in zip(pieces, signals, strict=True):
            piece.addmv_(kept_rows(v, finite).T, factors)


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
    """True if every trainable parameter belongs to one layer, and that layer's type has a rule
    (``LAYER_RULES``) that supports it."""
    owners = [
        layer_rule(module) is not None
        for module in model.modules()
        for p in module.parameters(recurse=False)
        if p.requires_grad
    ]
    return all(owners) and len(owners) == sum(1 for p in model.parameters() if p.requires_grad)


def _terms(
    layer: nn.Module, traces: list[dict[nn.Module, _LayerTrace]], weights: list[float]
) -> tuple[list[float], list[tuple[torch.Tensor, torch.Tensor]]]:
    """(w_j, (a_j, g_j)) for every iterate j; or, when the layer sees the same input a at every iterate
    (the input layer), one term (1, (a, Σ_j w_j g_j)): every per-sample gradient of ``LAYER_RULES`` is
    linear in g for a fixed a, so the k evaluations of per-sample momentum cost one there."""
    first = traces[0][layer].activation
    key = memory_key(first)  # every trace keeps its activations alive, so equal keys mean equal inputs
    if len(traces) == 1 or not all(memory_key(t[layer].activation) == key for t in traces):
        return weights, [(t[layer].activation, t[layer].grad) for t in traces]
    return [1.0], [(first, _weighted_sum(weights, [t[layer].grad for t in traces]))]


@dataclass
class _SharedInput:
    """Weights left as factors that read the same input a_j at every iterate j (a transformer's query,
    key and value): ``weights`` w_j, and for each weight l its factors at every iterate."""

    weights: list[float]
    layers: list[nn.Module]
    factored: list[list[Factored]]

    def squared_norm(self) -> torch.Tensor:
        """Σ_l ‖Σ_j w_j G_lij‖² = Σ_{j≤k} (2 − [j = k]) w_j w_k Σ_{t,t'} (a_ijt·a_ikt') Σ_l (g_lijt·g_likt')
        for every sample i: each input Gram is made once for all the weights l."""
        n, first = len(self.weights), self.factored[0]
        parts = []
        for j in range(n):
            for k in range(j, n):
                outputs = first[j].output_gram(first[k])
                for weight in self.factored[1:]:
                    outputs += weight[j].output_gram(weight[k])
                inner = (first[j].input_gram(first[k]) * outputs).sum(dim=(1, 2))
                parts.append((self.weights[j] * self.weights[k] * (1 if j == k else 2)) * inner)
        return torch.stack(parts).sum(dim=0)

    def add_summed(
        self, pieces: dict[nn.Module, torch.Tensor], factors: torch.Tensor, keep: torch.Tensor
    ) -> None:
        """Σ_j w_j Σ_i c_i G_lij into each weight's piece; c_i scales a_ij once for all the weights where
        that writes fewer numbers than scaling each one's g_lij (d ≤ Σ_l p_l)."""
        first = self.factored[0]
        outputs = sum(weight[0].g.shape[2] for weight in self.factored)
        for j, w in enumerate(self.weights):
            scaled = first[j].scaled_input(factors, keep, outputs)
            for layer, weight in zip(self.layers, self.factored, strict=True):
                weight[j].add_summed(pieces[layer], factors, keep, w, scaled)
            del scaled  # one iterate's scaled copy at a time


def _shared_inputs(ghosts: dict[nn.Module, tuple[list[float], list[Factored]]]) -> list[_SharedInput]:
    """The weights left as factors, grouped by the inputs they read at every iterate."""
    groups: dict[tuple[object, ...], _SharedInput] = {}
    for layer, (weights, factored) in ghosts.items():
        key = (tuple(weights), tuple(f.input_key for f in factored))
        group = groups.setdefault(key, _SharedInput(weights, [], []))
        group.layers.append(layer)
        group.factored.append(factored)
    return list(groups.values())


Chooser = Callable[[Factored, int], bool]
"""Whether a weight (as factors, with its number of terms) takes the ghost norm rather than being formed."""


class GhostEngine(_ChunkedEngine):
    """S = Σ_i clip(v_i, C) from one forward and one backward pass per iterate (module docstring); each
    weight takes the ghost norm where ``choose`` says so (default: the cheaper way, ``ghost_is_cheaper``)
    and is formed per sample elsewhere."""

    name = "ghost"

    def __init__(self, flat: FlatModel, physical_batch_size: int, choose: Chooser = ghost_is_cheaper) -> None:
        if not ghost_supported(flat.model):
            kinds = ", ".join(f"nn.{kind.__name__}" for kind in LAYER_RULES)
            raise ValueError(f"GhostEngine needs every parameter in one layer of a supported type: {kinds}")
        super().__init__(flat, physical_batch_size)
        self.choose = choose
        module_of = {}
        for prefix, module in flat.model.named_modules():
            for pname, _ in module.named_parameters(recurse=False):
                module_of[f"{prefix}.{pname}" if prefix else pname] = (module, pname)
        self._slots = [module_of[name] for name in flat.layout.names]
        self._layers = list(dict.fromkeys(module for module, _ in self._slots))
        self._rules = {layer: rule for layer in self._layers if (rule := layer_rule(layer)) is not None}
        self._trained = {layer: tuple(p for m, p in self._slots if m is layer) for layer in self._layers}
        self._copied: set[nn.Module] = set()
        """Layers whose output the model changes in place (``ReLU(inplace=True)``, ``out += skip``): the
        model is handed a copy of it, so that the traced output stays the node whose gradient is g."""

    def _trace(self, theta: torch.Tensor, x: torch.Tensor, y: torch.Tensor) -> dict[nn.Module, _LayerTrace]:
        """Forward at θ recording each layer's input and output, then ∂(Σ_i f_i)/∂output per layer. A
        layer whose output the forward changed in place is found by the output's version counter; it is
        then copied for the model from this trace on (``_copied``), which is traced again. On a CPU the
        model goes on from a convolution's output in channels-last memory format (the same values):
        the layers after it run faster on it, cnn5's stride-1 max pools several times, and a cnn5
        clipped sum takes about a fifth less time. A layer that runs twice in one forward pass (shared
        weights) is refused: its per-sample gradient would sum over the calls, which one trace does not
        hold."""
        traces: dict[nn.Module, _LayerTrace] = {}
        versions: dict[nn.Module, int] = {}

        def record(module: nn.Module, inputs: tuple[torch.Tensor, ...], output: torch.Tensor) -> torch.Tensor:
            if module in traces:
                raise ValueError(f"{module} runs more than once in a forward pass: use the vmap engine")
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

    def add_chunk_clipped_sum(
        self,
        pieces: list[torch.Tensor],
        iterates: list[torch.Tensor],
        weights: list[float],
        x: torch.Tensor,
        y: torch.Tensor,
        clip: float,
    ) -> None:
        traces = [self._trace(theta, x, y) for theta in iterates]
        squared = torch.zeros(x.shape[0], device=x.device, dtype=iterates[0].dtype)
        formed: dict[tuple[nn.Module, str], torch.Tensor] = {}  # per-sample pieces of v_i, [b, numel]
        ghosts: dict[nn.Module, tuple[list[float], list[Factored]]] = {}  # weights left as factors
        for layer in self._layers:
            rule = self._rules[layer]
            term_weights, terms = _terms(layer, traces, weights)
            parts = [rule.others(layer, a, g) for a, g in terms]
            if rule.weight is not None and "weight" in self._trained[layer]:
                factored = [rule.weight(layer, a, g) for a, g in terms]
                if self.choose(factored[0], len(factored)):
                    ghosts[layer] = (term_weights, factored)
                else:
                    for part, weight in zip(parts, factored, strict=True):
                        part["weight"] = weight.instantiate()
            for key in self._trained[layer]:
                if layer not in ghosts or key != "weight":
                    combined = _weighted_sum(term_weights, [part[key] for part in parts])
                    formed[(layer, key)] = combined
                    squared += torch.linalg.vector_norm(combined, dim=1).square()
        shared = _shared_inputs(ghosts)
        for group in shared:
            squared += group.squared_norm()
        finite = self._finite(squared)
        factors = clip_factors(squared, clip, finite)
        ghost_pieces = {}
        for piece, (module, pname) in zip(pieces, self._slots, strict=True):
            if module in ghosts and pname == "weight":
                ghost_pieces[module] = piece
            else:
                piece.addmv_(kept_rows(formed[(module, pname)], finite).T, factors)
        for group in shared:
            group.add_summed(ghost_pieces, factors, finite)


ClippedSumEngine = VmapEngine | GhostEngine


ENGINES: dict[str, Callable[[FlatModel, int], ClippedSumEngine]] = {
    "vmap": VmapEngine,
    "ghost": GhostEngine,
}
"""Per-sample engines by name; ``auto`` picks ghost where the model allows it."""
