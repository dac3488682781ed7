"""The largest chunk of per-sample signals that fits a memory budget, from a measurement, not a guess.

A GPU trial (``dptune.engine.gpu_memory``, the caching allocator's peak) and a CPU trial
(``dptune.engine.host_memory``, the resident set's high-water mark) size their chunks the same way; only
how a chunk's peak is read differs. A warm-up chunk runs first (one-time allocations, such as cuBLAS's
workspace or the allocator's first arenas, land there, not in a sample's cost); then two probe chunks of P
and 2P samples through the run's own engine give the memory one more sample costs and the fixed part,

    c = (peak(2P) − peak(P)) / P,        f = peak(P) − P·c,

and the chunk is ⌊SAFETY · (budget − f) / c⌋, at least 1 and at most ``largest``.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass

PROBE = 16
"""Samples in the smaller probe chunk (the larger holds twice as many)."""
SAFETY = 0.8
"""Share of the measured room a chunk may fill (the allocator's fragmentation, the optimizer's state)."""
GIB = 2**30


@dataclass(frozen=True)
class ChunkCost:
    """What a chunk of m samples adds to a process's peak memory: ``fixed + m · per_sample`` bytes."""

    fixed: float
    per_sample: float

    @property
    def one_sample(self) -> float:
        """Bytes the smallest chunk (one sample) needs."""
        return self.fixed + self.per_sample


def probed_cost(run_chunk: Callable[[int], None], peak_of: Callable[[Callable[[], None]], int]) -> ChunkCost:
    """c and f by the warm-up and the two probes (module docstring); ``run_chunk(m)`` runs the engine on m
    samples, ``peak_of(call)`` the bytes by which ``call()`` raised the process's peak above what it held
    just before. A noisy reading never gives a negative cost."""
    run_chunk(PROBE)  # warm-up: one-time allocations are not a sample's cost
    small, large = (peak_of(functools.partial(run_chunk, size)) for size in (PROBE, 2 * PROBE))
    per_sample = max(0.0, (large - small) / PROBE)
    return ChunkCost(fixed=max(0.0, small - PROBE * per_sample), per_sample=per_sample)


def chunk_that_fits(budget: int, cost: ChunkCost, largest: int) -> int:
    """⌊SAFETY · (budget − f) / c⌋ samples, at least 1 and at most ``largest``."""
    if cost.per_sample <= 0:
        return largest
    return max(1, min(largest, math.floor(SAFETY * (budget - cost.fixed) / cost.per_sample)))


def readable(size: float) -> str:
    """Bytes as people read them: ``1.3 GiB``, ``12 MiB``."""
    return f"{size / GIB:.1f} GiB" if size >= GIB else f"{size / 2**20:.0f} MiB"
