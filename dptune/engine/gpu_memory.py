"""A trial's GPU memory: its share capped, and the physical batch measured to fit in it.

Ray's GPU shares are logical (``gpu: 0.25`` schedules four trials on a GPU and caps nothing), so a trial
on a fraction of a GPU caps its own process with PyTorch's caching allocator
(``torch.cuda.set_per_process_memory_fraction``): beyond its cap an allocation fails in that trial, not in
a neighbour that kept to its own. The allocator's cap does not cover what the process holds outside it
(its CUDA context, cuBLAS's and cuDNN's handles: 0.3–1 GB), so the cap is the share less that overhead,
measured for the process (``context_overhead``): four caps of a quarter and their four contexts then fit
the card together.

Within the cap, a run whose ``physical_batch_size`` the user did not set takes the largest chunk of
per-sample gradients that fits, measured by ``dptune.engine.chunk_probe`` with the allocator's peak. The
budget is what the process may still allocate: its cap less what it holds, and at most the card's free
memory plus the blocks its own cache keeps (a reused actor starts its trial with an emptied cache,
``prepare_gpu``). Evaluation runs in chunks of the same size.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterator

import torch

from dptune.base.errors import InputError
from dptune.engine.chunk_probe import PROBE, chunk_that_fits, probed_cost, readable

REMEDY = "give each trial a larger share, or train fewer parameters (training.trains: lora)"
"""What a trial refused for its GPU share can change, in every refusal's line."""

CONTEXT_ALLOWANCE = 2**30
"""Bytes a process is taken to hold outside the allocator where it cannot be measured (no NVML): the
largest context overhead expected, so the caps still fit (more than measured is only a smaller cap)."""
_OVERHEAD: dict[int, int] = {}  # per device index: measured once per process (a reused actor keeps it)


def device_index(device: torch.device) -> int:
    """The index of a CUDA device: its own, or the current device for a bare ``cuda``. Some of torch's
    CUDA calls (``set_per_process_memory_fraction``) refuse a ``torch.device`` without an index."""
    return device.index if device.index is not None else torch.cuda.current_device()


def used_on_device(index: int) -> int | None:
    """Bytes in use on the GPU, every process's, from NVML (``torch.cuda.device_memory_used``, which needs
    ``nvidia-ml-py``); None where NVML cannot tell. It makes no CUDA context."""
    try:
        return int(torch.cuda.device_memory_used(index))
    except Exception:  # no pynvml, no NVML library, a driver it cannot read: unmeasured
        return None


def start_context(index: int) -> None:
    """Start this process's CUDA context and cuBLAS on GPU ``index``: one small matrix product."""
    warm = torch.ones(8, 8, device=torch.device("cuda", index))
    (warm @ warm).sum().item()


def context_overhead(index: int) -> int:
    """Bytes this process holds on GPU ``index`` outside the caching allocator: the device's used memory
    after its context and cuBLAS started (a warm-up matrix product) less before, less what the allocator
    reserved; measured once per process, before its first CUDA allocation (other processes starting at
    the same moment can only make it larger). ``CONTEXT_ALLOWANCE`` where NVML cannot tell."""
    if index in _OVERHEAD:
        return _OVERHEAD[index]
    before = used_on_device(index)
    start_context(index)
    after = used_on_device(index)
    reserved = torch.cuda.memory_reserved(index)
    measured = None if before is None or after is None else after - before - reserved
    _OVERHEAD[index] = CONTEXT_ALLOWANCE if measured is None or measured <= 0 else measured
    return _OVERHEAD[index]


def cap_fraction(share: float, total: int, overhead: int) -> float:
    """The allocator's cap as a fraction of the card: (share·total − overhead) / total, at least 0."""
    return max(0.0, (share * total - overhead) / total)


def prepare_gpu(device: torch.device, share: float) -> None:
    """Before a trial trains on ``device``: the cache a reused actor's last trial left is emptied and its
    peaks reset; a fractional trial (0 < ``share`` < 1) is capped at ``cap_fraction`` of the card."""
    if device.type != "cuda":
        return
    index = device_index(device)
    overhead = context_overhead(index)
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats(index)
    if 0 < share < 1:
        total = torch.cuda.mem_get_info(index)[1]
        torch.cuda.set_per_process_memory_fraction(cap_fraction(share, total, overhead), index)


def memory_budget(device: torch.device, share: float) -> int:
    """Bytes a trial may still allocate: its cap (``cap_fraction`` of the card; the whole card for a whole
    share) less what it holds, at most the card's free memory plus what its own cache keeps free."""
    index = device_index(device)
    free, total = torch.cuda.mem_get_info(index)
    allocated = torch.cuda.memory_allocated(index)
    cached = torch.cuda.memory_reserved(index) - allocated
    cap = total if share >= 1 else int(cap_fraction(share, total, context_overhead(index)) * total)
    return min(free + cached, cap - allocated)


def _peak_of(device: torch.device, call: Callable[[], None]) -> int:
    """Bytes by which ``call()`` raised the caching allocator's peak above what it held just before."""
    torch.cuda.synchronize(device)
    torch.cuda.reset_peak_memory_stats(device)
    before = torch.cuda.memory_allocated(device)
    call()
    torch.cuda.synchronize(device)
    return torch.cuda.max_memory_allocated(device) - before


def measured_physical_batch(
    run_chunk: Callable[[int], None], device: torch.device, budget: int, largest: int
) -> int:
    """The chunk that fits ``budget`` (``dptune.engine.chunk_probe``), each probe's peak the caching
    allocator's above what it held before; ``run_chunk(m)`` runs the engine on m samples. Refused in one
    line (``refuse_if_unfit``) where one sample does not fit."""
    cost = probed_cost(run_chunk, functools.partial(_peak_of, device))
    refuse_if_unfit(device, budget, cost.one_sample, "one sample's per-sample signals", REMEDY)
    return chunk_that_fits(budget, cost, largest)


def checked_physical_batch(
    run_chunk: Callable[[int], None], device: torch.device, budget: int, size: int
) -> int:
    """``size``, the physical batch a spec sets, once a chunk of it is measured to fit ``budget`` (refused
    in one line where it does not, ``refuse_if_unfit``)."""
    run_chunk(min(size, PROBE))  # warm-up: one-time allocations are not the chunk's
    needed = _peak_of(device, functools.partial(run_chunk, size))
    remedy = f"set a smaller training.physical_batch_size, {REMEDY}"
    refuse_if_unfit(device, budget, needed, f"a chunk of {size} samples' per-sample signals", remedy)
    return size


def refuse_if_unfit(device: torch.device, budget: int, needed: float, what: str, remedy: str) -> None:
    """``InputError`` on ``resources.gpu`` where ``what`` (``needed`` bytes, measured before the first
    step) exceeds ``budget``, what the trial may still allocate beside the model and its optimiser state
    that it already holds; the line states both totals, what it holds included, and ``remedy``."""
    if needed > budget:
        held = torch.cuda.memory_allocated(device)
        raise InputError(
            "resources.gpu",
            f"a trial needs about {readable(held + needed)} (the model, its optimiser state and {what}), "
            f"its share of the GPU allows {readable(held + max(budget, 0))}; {remedy}",
        )


@contextlib.contextmanager
def refused_if_out_of_memory(what: str) -> Iterator[None]:
    """``InputError`` on ``resources.gpu`` where placing ``what`` on the GPU runs out of the trial's share
    (its cap, ``prepare_gpu``), before any step: the one line, not torch's out-of-memory trace."""
    try:
        yield
    except torch.OutOfMemoryError:
        raise InputError(
            "resources.gpu",
            f"{what} does not fit this trial's share of the GPU; {REMEDY}",
        ) from None
