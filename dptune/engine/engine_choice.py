"""Which engine a run uses, and the check that the ghost engine is exact on its model
(``dptune.engine.persample`` computes the clipped sum).

The ghost engine sees a parameter only through its layer's input and output: a parameter that the model
also reads outside that layer's forward (a tied output head ``F.linear(h, self.embed.weight)``, a weight
in a functional call) would silently lose that use. So ``clipped_sum_engine``, given two inputs shaped
like the run's (``check_inputs``: synthetic, no record is read), checks once, before training, that the
ghost engine's clipped sum of them (one clipped, one not) equals a batch-of-one autograd reference
(``ghost_check``). The check runs on a float64 deep copy of the model in eval mode (no dropout mask to
differ, no random number drawn): float64 rounding errors are around 1e-16 relative, so a 1e-9 relative
tolerance raises no false alarm (float32's 1e-7 could), while a left-out use is off by far more (a tied
head: 1e-1); a model that will not run in float64 (it casts inside its forward) is checked in its own
dtype within 1e-4. On a mismatch ``auto`` takes the vmap engine (exact for any model) and says why in the
engine's ``choice``; ``ghost`` given explicitly is refused.
"""

from __future__ import annotations

import copy
import math

import torch
import torch.nn.functional as F
from torch import nn

from dptune.base.errors import InputError
from dptune.engine.persample import (
    ENGINES,
    ClippedSumEngine,
    FlatModel,
    GhostEngine,
    VmapEngine,
    ghost_supported,
)

CHECK_TOLERANCE = 1e-9
"""Relative tolerance of ``ghost_check`` in float64 (rounding errors around 1e-16 relative)."""

OWN_DTYPE_TOLERANCE = 1e-4
"""Relative tolerance of ``ghost_check`` in the model's own dtype, for a model that will not run in
float64 (one that casts inside its forward): float32 rounding is around 1e-7, a left-out use 1e-1."""


def _reference_grads(
    model: nn.Module, params: list[nn.Parameter], x: torch.Tensor, y: torch.Tensor
) -> list[torch.Tensor]:
    """Each sample's gradient by plain autograd on a batch of one, as one flat vector per sample."""
    vectors = []
    for i in range(x.shape[0]):
        loss = F.cross_entropy(model(x[i : i + 1]), y[i : i + 1])
        grads = torch.autograd.grad(loss, params, allow_unused=True)
        vectors.append(
            torch.cat(
                [
                    (torch.zeros_like(p) if g is None else g).reshape(-1)
                    for p, g in zip(params, grads, strict=True)
                ]
            )
        )
    return vectors


def ghost_check(model: nn.Module, x: torch.Tensor, y: torch.Tensor) -> str | None:
    """None if the ghost engine computes the model's clipped sum on (x, y) exactly, else why not.

    On a float64 deep copy of ``model`` in eval mode (module docstring), the ghost engine's clipped sum of
    the samples (x, y) is compared with a batch-of-one autograd reference, in one pass of each: the clip
    C lies between the smallest and largest per-sample norm (their geometric mean), so the sum holds an
    unclipped gradient and a clipped one, whose factor C/‖v_i‖ checks the engine's norm too. The two must
    agree within ``CHECK_TOLERANCE`` of Σ_i min(‖v_i‖, C). A model whose float64 copy does not run (it
    casts inside its forward, or the copy does not fit the GPU) is checked in its own dtype, within
    ``OWN_DTYPE_TOLERANCE``. ``model`` is left as it was.
    """
    try:
        return _check_in(model, x, y, torch.float64, CHECK_TOLERANCE)
    except RuntimeError:  # the float64 reference does not run, or its copy does not fit the GPU
        pass
    return _check_in(model, x, y, None, OWN_DTYPE_TOLERANCE)  # the float64 copy freed with its error


def _check_in(
    model: nn.Module, x: torch.Tensor, y: torch.Tensor, dtype: torch.dtype | None, tolerance: float
) -> str | None:
    """``ghost_check`` on a copy of ``model`` in ``dtype`` (None: its own); raises what the reference
    raises."""
    replica = copy.deepcopy(model).eval()
    if dtype is not None:
        replica = replica.to(dtype)
        x = x.to(dtype) if x.is_floating_point() else x
    flat = FlatModel(replica)
    vectors = _reference_grads(replica, [p for _, p in flat.trained()], x, y)
    norms = [float(v.norm()) for v in vectors]
    positive = [n for n in norms if 0 < n < math.inf]
    clip = math.sqrt(min(positive) * max(positive)) if positive else math.inf
    try:
        got = GhostEngine(flat, x.shape[0]).clipped_sum([flat.flatten()], torch.ones(1), x, y, clip)
    except (ValueError, RuntimeError) as exc:  # a layer run twice in one forward pass, or unused
        return str(exc)
    expected = torch.zeros_like(got)
    scale = 0.0
    for v, n in zip(vectors, norms, strict=True):
        if math.isfinite(n):  # the engines leave a non-finite signal out
            expected.add_(v, alpha=1.0 if n <= clip else clip / n)
            scale += min(n, clip)
    difference = float((got - expected).norm())
    if difference <= tolerance * scale:
        return None
    return (
        f"its per-sample gradients differ from autograd's (by {difference / max(scale, 1e-300):.1e} "
        f"relative, in {got.dtype}): a parameter of a supported layer is used outside that layer's "
        "forward (a tied output head, a weight in a functional call)"
    )


def check_inputs(
    like: torch.Tensor,
    classes: int,
    device: torch.device | None = None,
    model: nn.Module | None = None,
    count: int = 2,
) -> tuple[torch.Tensor, torch.Tensor]:
    """``count`` inputs shaped and typed like ``like``'s rows, for ``ghost_check`` (two) and the memory
    probes (a chunk's worth), made from that shape alone (standard normal from a fixed seed, or token id
    0; a model that makes its own, a text model's token ids and padding, ``synthetic_inputs``; labels
    spread from 0 to the last class): no record is read, so the engine's choice and a chunk's size say
    nothing about the data, and no global random number is drawn."""
    shape = (count, *like.shape[1:])
    own = getattr(model, "synthetic_inputs", None)
    if callable(own):
        x = own(count, like.shape[-1])
    elif like.is_floating_point():
        x = torch.randn(shape, generator=torch.Generator().manual_seed(0)).to(like.dtype)
    else:
        x = torch.zeros(shape, dtype=like.dtype)
    labels = torch.linspace(0, classes - 1, count).round().long()
    return x.to(device or like.device), labels.to(device or like.device)


def clipped_sum_engine(
    flat: FlatModel,
    physical_batch_size: int,
    engine: str = "auto",
    example: tuple[torch.Tensor, torch.Tensor] | None = None,
) -> ClippedSumEngine:
    """``ghost`` where the model allows it (``auto``), else ``vmap``. With ``example`` (two inputs and
    labels, ``check_inputs``, as training passes), the ghost engine is first checked on them
    (``ghost_check``): on a mismatch ``auto`` takes ``vmap`` and an explicit ``ghost`` is refused
    (``InputError`` on ``engine``). The engine's ``choice`` says which it is and, for ``auto``, why."""
    if engine != "auto":
        chosen = ENGINES[engine](flat, physical_batch_size)  # ghost: refuses a model it does not cover
        if engine == "ghost" and example is not None and (problem := ghost_check(flat.model, *example)):
            fix = "use vmap, or keep each parameter inside its own layer"
            raise InputError("engine", f"ghost is wrong for this model, {problem}; {fix}")
        return chosen
    if not ghost_supported(flat.model):
        chosen = VmapEngine(flat, physical_batch_size)
        chosen.choice = "vmap (auto: a parameter outside the layers the ghost engine supports)"
    elif example is not None and (problem := ghost_check(flat.model, *example)):
        chosen = VmapEngine(flat, physical_batch_size)
        chosen.choice = f"vmap (auto: the ghost engine failed its check, {problem})"
    else:
        chosen = GhostEngine(flat, physical_batch_size)
        checked = "checked against autograd" if example is not None else "unchecked"
        chosen.choice = f"ghost (auto: every parameter in a supported layer, {checked})"
    return chosen
