"""Per-sample gradients of any model without BatchNorm, w.r.t. one flat parameter vector.

``torch.func``: ``vmap(grad(loss_of_one_sample))`` over the batch, chunked by a physical batch size so
memory stays at ``physical_batch_size × n_params`` floats per chunk. Gradients stay split per parameter
tensor (each ``[b, numel]``, a view of what vmap returns) so clipping needs no concatenated copy.
"""

from __future__ import annotations

from collections.abc import Iterator
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

    def weighted_per_sample_grads(
        self,
        iterates: list[torch.Tensor],
        weights: torch.Tensor,
        x: torch.Tensor,
        y: torch.Tensor,
        physical_batch_size: int,
    ) -> Iterator[PerSampleChunk]:
        """Chunks of v_i = Σ_j w_j ∇f_i(θ_j): the same sample's gradient at each iterate, combined."""
        for start in range(0, x.shape[0], physical_batch_size):
            xc = x[start : start + physical_batch_size]
            yc = y[start : start + physical_batch_size]
            combined: PerSampleChunk | None = None
            for w, theta in zip(weights.tolist(), iterates, strict=True):
                grads = self.per_sample_grads(theta, xc, yc)
                if combined is None:
                    combined = [g * w for g in grads] if w != 1.0 else grads
                else:
                    for acc, g in zip(combined, grads, strict=True):
                        acc.add_(g, alpha=w)
            assert combined is not None
            yield combined
