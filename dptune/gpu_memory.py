"""A trial's GPU memory: its share capped, and the physical batch measured to fit in it.

Ray's GPU shares are logical (``gpu: 0.25`` schedules four trials on a GPU and caps nothing), so a trial
on a fraction of a GPU caps its own process with PyTorch's caching allocator
(``torch.cuda.set_per_process_memory_fraction``): beyond its share an allocation fails in that trial, not
in a neighbour that kept to its own. Within the share, a run whose ``physical_batch_size`` the user did
not set takes the largest chunk of per-sample gradients that fits, from a measurement, not a guess: two
probe chunks of P and 2P samples through the run's own engine give the memory one more sample costs,
c = (peak(2P) − peak(P)) / P, and the fixed part f = peak(P) − P·c; the chunk is
⌊SAFETY · (budget − f) / c⌋, the budget being min(free memory, share × total).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import torch

PROBE = 16
"""Samples in the smaller probe chunk (the larger holds twice as many)."""
SAFETY = 0.8
"""Share of the measured room a chunk may fill (the allocator's fragmentation, the optimizer's state)."""
CPU_PHYSICAL_BATCH = 1000
"""The chunk on a CPU, where host memory is not the constraint."""


def device_index(device: torch.device) -> int:
    """The index of a CUDA device: its own, or the current device for a bare ``cuda``. Some of torch's
    CUDA calls (``set_per_process_memory_fraction``) refuse a ``torch.device`` without an index."""
    return device.index if device.index is not None else torch.cuda.current_device()


def cap_process_memory(device: torch.device, share: float) -> None:
    """A fractional GPU trial (0 < ``share`` < 1) may allocate at most ``share`` of its GPU's memory."""
    if device.type == "cuda" and 0 < share < 1:
        torch.cuda.set_per_process_memory_fraction(float(share), device_index(device))


def memory_budget(device: torch.device, share: float) -> int:
    """Bytes a trial may still allocate: the GPU's free memory, at most ``share`` of its total."""
    free, total = torch.cuda.mem_get_info(device)
    return min(free, int(share * total) - torch.cuda.memory_allocated(device))


def chunk_that_fits(budget: int, fixed: float, per_sample: float, largest: int) -> int:
    """⌊SAFETY · (budget − fixed) / per_sample⌋ samples, at least 1 and at most ``largest``."""
    if per_sample <= 0:
        return largest
    return max(1, min(largest, math.floor(SAFETY * (budget - fixed) / per_sample)))


def measured_physical_batch(
    run_chunk: Callable[[int], None], device: torch.device, budget: int, largest: int
) -> int:
    """The chunk that fits ``budget`` by the two-probe measurement (module docstring); ``run_chunk(m)``
    runs the engine on m samples."""
    peaks = []
    for size in (PROBE, 2 * PROBE):
        torch.cuda.synchronize(device)
        torch.cuda.reset_peak_memory_stats(device)
        before = torch.cuda.memory_allocated(device)
        run_chunk(size)
        torch.cuda.synchronize(device)
        peaks.append(torch.cuda.max_memory_allocated(device) - before)
    per_sample = (peaks[1] - peaks[0]) / PROBE
    return chunk_that_fits(budget, peaks[0] - PROBE * per_sample, per_sample, largest)
