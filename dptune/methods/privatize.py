"""Stage 2: the Gaussian privatization, the only stage that touches private data.

    ĝ_t = ( Σ_{i∈S_t} v_i · min(1, C_t / ‖v_i‖₂) + N(0, s_t² I) ) / L

with S_t the sampled batch, L the expected batch size q·n under Poisson sampling (the fixed batch size
under shuffling), C_t the clip bound and s_t the noise std. One sample changes the clipped sum by at
most C_t (add/remove adjacency), so the step is a subsampled Gaussian mechanism with noise multiplier
s_t / C_t. Clipping is Abadi's g·min(1, C/‖g‖), not "automatic" clipping g/(‖g‖ + γ).
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import numpy as np

from dptune.methods.stages import Method, Privatize

if TYPE_CHECKING:
    import torch

    from dptune.engine.persample import ClippedSumEngine


def gaussian_privatize(clip: float, noise_multiplier: float) -> Privatize:
    """Constant clip C and noise std σ·C (DP-SGD, Abadi et al. 2016, Alg. 1)."""
    return Privatize(
        f"gaussian_privatize(C={clip}, sigma={noise_multiplier})",
        clip=lambda t: clip,
        noise_std=lambda t: noise_multiplier * clip,
    )


def decreasing_clip_privatize(clip: float, noise_multiplier: float, decay_steps: int) -> Privatize:
    """Clip C_t = C / min(2, 1 + t/T_c) with the noise std kept at σ·C.

    Du et al., "Dynamic differential-privacy preserving SGD" (momentum and decreasing clip), eq. (6)
    and Alg. 1: the sensitivity halves linearly over T_c steps while the noise stays, so step t has
    noise multiplier σ·C/C_t = σ·min(2, 1 + t/T_c) and later steps cost less privacy.
    """

    def clip_at(t: int) -> float:
        return clip / min(2.0, 1.0 + t / decay_steps)

    return Privatize(
        f"decreasing_clip_privatize(C={clip}, sigma={noise_multiplier}, T_c={decay_steps})",
        clip=clip_at,
        noise_std=lambda t: noise_multiplier * clip,
    )


PARALLEL_NOISE = 2**20
"""Coordinates from which a CPU noise vector's parts are drawn in threads (below, one after another: the
same values, without a thread's start-up)."""


class NoiseSampler(Protocol):
    """Where a privatized gradient's Gaussian noise comes from."""

    def gaussian(self, like: torch.Tensor, std: float) -> torch.Tensor:
        """N(0, std² I) shaped, typed and placed like ``like``, in a new tensor of its own (``add_noise``
        adds into it)."""
        ...


@dataclass(frozen=True)
class TorchNoise:
    """Noise from torch generators whose whole state is secret (``dptune.base.randomness.stream_generators``;
    expanded from a seed in research mode), m of them, on the tensors' device:

    * on a GPU (two Philox generators, so that each coordinate depends on ≥ 128 secret bits), N(0, std² I)
      = std·Σ_j z_j/√m over the generators' standard normals z_j, each drawn over the whole vector;
    * on a CPU (``CPU_NOISE_PARTS`` Mersenne Twisters, 19,937 bits of state each), the vector's j-th of m
      contiguous parts is std·z_j from generator j alone, the parts drawn at once in threads (torch draws
      a CPU generator's normals serially). Which generator fills which coordinates does not depend on
      the threads, so a seeded stream's draws are the same on any machine; with one generator, the
      plain draw.

    The generators must live on the tensors' device (CUDA generators for CUDA tensors): the draw is made
    there directly, never on the CPU and copied.
    """

    generators: tuple[torch.Generator, ...]

    @property
    def device(self) -> torch.device:
        return self.generators[0].device

    def gaussian(self, like: torch.Tensor, std: float) -> torch.Tensor:
        import torch

        if self.device.type != "cpu":
            scale = std / math.sqrt(len(self.generators))
            draws = [
                torch.normal(0.0, scale, size=like.shape, generator=g, dtype=like.dtype, device=like.device)
                for g in self.generators
            ]
            return draws[0] if len(draws) == 1 else torch.stack(draws).sum(dim=0)
        noise = torch.empty(like.shape, dtype=like.dtype, device=like.device)
        flat, count = noise.view(-1), len(self.generators)
        bounds = [part * flat.numel() // count for part in range(count + 1)]
        parts = [flat[bounds[j] : bounds[j + 1]] for j in range(count)]
        if count == 1 or flat.numel() < PARALLEL_NOISE:
            for part, generator in zip(parts, self.generators, strict=True):
                part.normal_(0.0, std, generator=generator)
            return noise
        with ThreadPoolExecutor(max_workers=count) as pool:  # torch releases the GIL while it draws
            pairs = zip(parts, self.generators, strict=True)
            drawn = [pool.submit(part.normal_, 0.0, std, generator=generator) for part, generator in pairs]
            for future in drawn:
                future.result()
        return noise

    def get_state(self) -> list[torch.Tensor]:
        """Every generator's state (CPU byte tensors, as ``set_state`` takes them): private state."""
        return [g.get_state() for g in self.generators]

    def set_state(self, states: list[torch.Tensor]) -> None:
        for generator, state in zip(self.generators, states, strict=True):
            generator.set_state(state)


class OsCsprngNoise:
    """Noise from the operating system's CSPRNG (``os.urandom``), Opacus ``secure_mode`` style.

    Uniform doubles u = (⌊x / 2¹¹⌋ + ½)·2⁻⁵³ from 64 random bits x, standard normals by Box–Muller
    (z = √(−2 ln u₁)·cos 2πu₂, √(−2 ln u₁)·sin 2πu₂), and, as Opacus does against floating-point
    attacks on the noise's low bits (Holohan & Braghin, "Secure Random Sampling in Differential
    Privacy", ESORICS 2021), each coordinate is (z₁ + z₂ + z₃ + z₄)/2, again N(0, 1). Nothing about
    it can be seeded or checkpointed: a resumed run draws fresh noise.
    """

    def gaussian(self, like: torch.Tensor, std: float) -> torch.Tensor:
        import torch

        count = like.numel()
        bits = np.frombuffer(os.urandom(8 * 4 * count), dtype=np.uint64)
        uniform = ((bits >> np.uint64(11)).astype(np.float64) + 0.5) * 2.0**-53
        radius = np.sqrt(-2.0 * np.log(uniform[: 2 * count]))
        angle = 2.0 * np.pi * uniform[2 * count :]
        normals = np.concatenate([radius * np.cos(angle), radius * np.sin(angle)])
        standard = normals.reshape(4, count).sum(axis=0) / 2.0
        noise = torch.from_numpy(standard * std).reshape(like.shape)
        return noise.to(dtype=like.dtype, device=like.device)


def add_noise(
    clipped: torch.Tensor,
    noise_std: float,
    expected_batch_size: float,
    noise: NoiseSampler,
) -> torch.Tensor:
    """(clipped sum + N(0, noise_std² I)) / L, in the noise's own buffer (a model's worth of memory is
    not allocated and written twice more)."""
    return noise.gaussian(clipped, noise_std).add_(clipped).div_(expected_batch_size)


def clipped_sum(
    method: Method,
    engine: ClippedSumEngine,
    step: int,
    iterates: Sequence[torch.Tensor],
    chunks: Iterable[tuple[torch.Tensor, torch.Tensor]],
) -> torch.Tensor:
    """Σ_i clip(v_i, C_t) at step t, v_i = Σ_{j<J} w_j ∇f_i(x_{t−j}), J = min(k, len(iterates)),
    w = signal.weights(J): the private, noise-free part of a privatized gradient (never published or
    accounted).

    ``iterates`` are x_t, x_{t−1}, … (newest first; the signal reads the first k). The samples come as
    disjoint chunks ``(x, y)``: the clipped sum is additive over samples, so a caller can stream samples
    it cannot hold at once (the audit's one-hot canaries).
    """
    import torch

    signal = method.signal
    used = list(iterates[: signal.history])
    weights = signal.weights(len(used))
    clip = method.privatize.clip(step)
    total = torch.zeros_like(used[0])
    for x, y in chunks:
        total += engine.clipped_sum(used, weights, x, y, clip)
    return total


@dataclass(frozen=True)
class Privatized:
    """ĝ_t as privatized at step t, with the noise multiplier z_t = s_t / C_t its noise was drawn at:
    what the accountant records for it. Made by ``privatized_gradient``."""

    vector: torch.Tensor
    step: int
    noise_multiplier: float


def privatized_gradient(
    method: Method,
    engine: ClippedSumEngine,
    step: int,
    iterates: Sequence[torch.Tensor],
    chunks: Iterable[tuple[torch.Tensor, torch.Tensor]],
    expected_batch_size: float,
    sampler: NoiseSampler,
) -> Privatized:
    """One privatized gradient of ``method`` at step t: what training computes and ``dptune audit`` audits.

    ĝ_t = (Σ_i clip(v_i, C_t) + N(0, s_t² I)) / L       (``clipped_sum`` for the sum)
    """
    total = clipped_sum(method, engine, step, iterates, chunks)
    vector = add_noise(total, method.privatize.noise_std(step), expected_batch_size, sampler)
    return Privatized(vector, step, method.privatize.noise_multiplier(step))
