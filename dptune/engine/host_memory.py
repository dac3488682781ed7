"""A CPU trial's host memory: its share of the node, and the physical batch measured to fit in it.

Ray schedules a CPU trial by its CPUs alone, so two trials on one node each believe the node's memory is
theirs: two DP-PMLF trials of a small RoBERTa, each holding a chunk of 512 samples' activations at k
iterates, took 11 and 9 GB of a 23.5 GB machine, and Ray's memory monitor killed one (which Tune does not
take for a lost actor: it ends the whole Tune run). A CPU trial therefore sizes its chunk of per-sample
signals to its own share of the node's memory, as a GPU trial sizes it to its share of the card
(``dptune.engine.gpu_memory``): its share is its CPUs over the node's (a release, which asks for every
slot's CPUs, gets the whole node), of the memory the node has left plus what the trial holds:

    budget = share · (available + RSS) − RSS,

available being the kernel's ``MemAvailable``, or less where the process's control group (a container) has
a memory limit: that limit less the group's usage (cgroup v2 ``memory.max`` / ``memory.current``, v1
``memory.limit_in_bytes`` / ``memory.usage_in_bytes``).

Within the budget the chunk comes from the same measurement as on a GPU (``dptune.engine.chunk_probe``),
each probe's peak read from the process's resident set after ``malloc_trim`` (glibc's free lists handed
back, so that a probe's growth shows) to its high-water mark (``VmHWM``, reset before each probe by writing
``5`` to ``/proc/self/clear_refs``, Linux ≥ 4.0). Where the kernel offers no resettable high-water mark
(macOS, an old kernel) nothing is measured and the chunk is ``CPU_PHYSICAL_BATCH``.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import functools
from collections.abc import Callable
from pathlib import Path

from dptune.base.errors import InputError
from dptune.engine.chunk_probe import chunk_that_fits, probed_cost, readable

CPU_PHYSICAL_BATCH = 1000
"""The chunk on a CPU where host memory cannot be measured."""
PROC = Path("/proc")
CGROUP = Path("/sys/fs/cgroup")
CGROUP_LIMITS = (
    ("memory.max", "memory.current"),
    ("memory/memory.limit_in_bytes", "memory/memory.usage_in_bytes"),
)
"""Where a control group's memory limit and usage are read: cgroup v2, then v1."""


def _kilobytes(file: Path, field: str) -> int | None:
    """The ``field:  N kB`` line of a ``/proc`` file, in bytes; None where it has none."""
    for line in file.read_text().splitlines():
        name, _, value = line.partition(":")
        if name == field:
            return int(value.split()[0]) * 1024
    return None


def reset_peak() -> None:
    """Resets the process's resident high-water mark (``VmHWM``) to its resident set now."""
    (PROC / "self" / "clear_refs").write_text("5")


def measurable() -> bool:
    """Whether this kernel keeps a resettable high-water mark of the process's resident set."""
    try:
        reset_peak()
        return _kilobytes(PROC / "self" / "status", "VmHWM") is not None
    except OSError:
        return False


@functools.cache
def _malloc_trim() -> Callable[[int], int] | None:
    """glibc's ``malloc_trim``, which hands the free lists' memory back to the kernel; None elsewhere."""
    name = ctypes.util.find_library("c")
    return getattr(ctypes.CDLL(name), "malloc_trim", None) if name is not None else None


def resident() -> int:
    """Bytes of the process's resident set now (``VmRSS``), after glibc's free lists are trimmed."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)
    return _kilobytes(PROC / "self" / "status", "VmRSS") or 0


def cgroup_room() -> int | None:
    """Bytes the process's control group may still take (its memory limit less its usage); None where no
    limit is set or none can be read."""
    for limit_file, usage_file in CGROUP_LIMITS:
        try:
            limit, usage = (
                (CGROUP / limit_file).read_text().strip(),
                (CGROUP / usage_file).read_text().strip(),
            )
        except OSError:
            continue
        if limit.isdigit() and usage.isdigit() and int(limit) < 2**62:  # "max", or v1's unlimited 2^63 − page
            return int(limit) - int(usage)
        return None
    return None


def peak_since_reset() -> int:
    """Bytes of the process's largest resident set since the last reset (``VmHWM``)."""
    return _kilobytes(PROC / "self" / "status", "VmHWM") or 0


def host_budget(share: float) -> int:
    """Bytes a trial of ``share`` of the node may still take: share · (available + RSS) − RSS, available
    being ``MemAvailable``, at most its control group's room (module docstring)."""
    held = resident()
    available = _kilobytes(PROC / "meminfo", "MemAvailable") or 0
    room = cgroup_room()
    if room is not None:
        available = min(available, room)
    return int(share * (available + held)) - held


def measured_host_batch(run_chunk: Callable[[int], None], share: float, largest: int) -> int:
    """The chunk that fits ``share`` of the node by the warm-up and two-probe measurement (module
    docstring), ``CPU_PHYSICAL_BATCH`` where the kernel cannot measure; ``run_chunk(m)`` runs the engine
    on m samples. Refuses (``InputError``) a trial whose model and one sample do not fit its share."""
    if not measurable():
        return CPU_PHYSICAL_BATCH

    def peak_of(call: Callable[[], None]) -> int:
        before = resident()
        reset_peak()
        call()
        return max(0, peak_since_reset() - before)

    cost = probed_cost(run_chunk, peak_of)
    budget = host_budget(share)
    if cost.one_sample > budget:
        raise InputError(
            "resources.cpu",
            f"a trial needs about {readable(cost.one_sample)} more host memory (the model's per-sample "
            f"signals for one sample), its share of the node ({share:.3g}: its CPUs over the node's) has "
            f"{readable(max(budget, 0))} left; give each trial more CPUs (resources.cpu), or train fewer "
            "parameters (training.trains: lora)",
        )
    return chunk_that_fits(budget, cost, largest)
