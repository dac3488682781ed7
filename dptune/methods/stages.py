"""The four kinds of stage a DP method is built from, and ``chain``, which enforces their order.

A method's step is

    1. per-sample signal   v_i        (gradient, or per-sample momentum over past iterates)
    2. privatize           ĝ = (Σ_i clip(v_i, C_t) + N(0, s_t² I)) / L        ← the only private part
    3. post-processing     d = P(ĝ, state)   (filters, momentum, Adam, fractional memory)
    4. update              x ← x − η·d

Post-processing stages see privatized vectors only, so by the post-processing property of DP they cost
no privacy. ``chain`` checks this boundary in code: exactly one privatize stage, after the signal, and only
post-processing stages after it (the style of optax's ``chain``, with the kinds made explicit).

States are plain dicts of tensors and numbers so they go straight into a checkpoint. The modules of
stages import torch inside the functions that compute with it: composing a method (its noise schedule
for calibration, its parameters for the CLI and specs) needs no torch.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import torch

State = dict[str, Any]


@dataclass(frozen=True)
class PerSampleSignal:
    """Stage 1: the per-sample vector v_i that is clipped, as a weighted sum of gradients at iterates.

    v_i = Σ_{j=0}^{J−1} w_j ∇f_i(x_{t−j}), with J = min(k, number of iterates seen so far) and
    weights ``weights(J)`` (J=1 and w=[1] for the plain per-sample gradient).

    Attributes:
        name: for logs.
        history: k, the number of iterates the signal reads (the current one included).
        weights: J -> tensor of J weights, newest iterate first.
    """

    name: str
    history: int
    weights: Callable[[int], torch.Tensor]


@dataclass(frozen=True)
class Privatize:
    """Stage 2: clip each sample's signal once to C_t, sum, add N(0, s_t² I), divide by L.

    The accountant sees noise multiplier z_t = s_t / C_t at step t.

    Attributes:
        clip: t -> C_t, the clip bound (the sensitivity of the sum under add/remove adjacency).
        noise_std: t -> s_t, the standard deviation of the noise added to the sum.
    """

    name: str
    clip: Callable[[int], float]
    noise_std: Callable[[int], float]

    def noise_multiplier(self, step: int) -> float:
        """z_t = s_t / C_t: what the accountant composes for this step."""
        return self.noise_std(step) / self.clip(step)


@dataclass(frozen=True)
class PostProcessing:
    """Stage 3: a deterministic map of privatized vectors, with explicit state.

    Attributes:
        init: flat parameter vector -> initial state.
        update: (privatized or already post-processed vector, state) -> (direction, new state).
        gain: the stage's DC gain g: fed the same vector v at every step, its direction tends to g·v
            (heavy ball 1/(1−μ); a unit-DC-gain filter 1); None for a stage whose direction does not
            scale with its input (Adam's normalisation). What an effective step size is measured in.
    """

    name: str
    init: Callable[[torch.Tensor], State]
    update: Callable[[torch.Tensor, State], tuple[torch.Tensor, State]]
    gain: float | None


@dataclass(frozen=True)
class Update:
    """Stage 4: x ← x − η·direction."""

    lr: float
    name: str = "sgd"

    def apply(self, params: torch.Tensor, direction: torch.Tensor) -> torch.Tensor:
        return params - self.lr * direction


Stage = PerSampleSignal | Privatize | PostProcessing | Update


@dataclass(frozen=True)
class Method:
    """A DP optimizer: one signal, one privatize stage, post-processing stages, one update."""

    name: str
    signal: PerSampleSignal
    privatize: Privatize
    post: tuple[PostProcessing, ...]
    update: Update
    info: dict[str, Any] = field(default_factory=dict)

    @property
    def gain(self) -> float | None:
        """The post-processing's DC gain: the product of its stages' gains (1 without any), None when a
        stage's direction does not scale with the privatized gradient (then neither does the step)."""
        gain = 1.0
        for stage in self.post:
            if stage.gain is None:
                return None
            gain *= stage.gain
        return gain


class StageOrderError(TypeError):
    """A chain that would break the privacy boundary or the step's shape."""


def chain(name: str, *stages: Stage, info: dict[str, Any] | None = None) -> Method:
    """Compose stages into a method, refusing any order that breaks the privacy boundary.

    Valid: ``signal, privatize, post*, update``. Raises ``StageOrderError`` for post-processing before
    the privatize stage, a second one, a missing signal/privatize/update, or anything after the update.
    """
    if len(stages) < 3:
        raise StageOrderError(f"{name}: a method needs a signal, a privatize stage and an update")
    signal, privatize, *middle, update = stages
    if not isinstance(signal, PerSampleSignal):
        raise StageOrderError(f"{name}: the first stage must be a per-sample signal, got {signal}")
    if not isinstance(privatize, Privatize):
        raise StageOrderError(f"{name}: the privatize stage must directly follow the signal, got {privatize}")
    post: list[PostProcessing] = []
    for stage in middle:
        if isinstance(stage, Privatize):
            raise StageOrderError(f"{name}: a second privatize stage ({stage.name}) is not allowed")
        if not isinstance(stage, PostProcessing):
            raise StageOrderError(f"{name}: only post-processing may follow the privatize stage, got {stage}")
        post.append(stage)
    if not isinstance(update, Update):
        raise StageOrderError(f"{name}: the last stage must be the update, got {update}")
    return Method(name, signal, privatize, tuple(post), update, dict(info or {}))
