"""A CPU trial's chunk of per-sample signals, measured to fit its share of the node's memory: the measured
cost of a sample against allocations of known size, the refusal of a trial that cannot fit, and the
unmeasured chunk where the kernel keeps no resettable high-water mark."""

from __future__ import annotations

import math
from pathlib import Path

import pytest
import torch

from dptune.base.errors import InputError
from dptune.engine import host_memory
from dptune.engine.chunk_probe import SAFETY
from dptune.engine.dataset import Dataset
from dptune.engine.host_memory import CPU_PHYSICAL_BATCH, measured_host_batch
from tests.helpers import digits_trainer

MB = 2**20
PER_SAMPLE = 4 * MB

pytestmark = pytest.mark.skipif(not host_memory.measurable(), reason="no resettable VmHWM on this kernel")


def hold(size: int) -> None:
    """A chunk that touches ``size`` × 4 MiB of fresh pages (every page written), then frees them."""
    block = torch.ones(size * PER_SAMPLE // 4, dtype=torch.float32)
    assert float(block[-1]) == 1.0


def test_the_chunk_is_the_budget_over_the_measured_cost_of_a_sample(monkeypatch: pytest.MonkeyPatch) -> None:
    budget = 1000 * MB
    monkeypatch.setattr(host_memory, "host_budget", lambda share: budget)
    chunk = measured_host_batch(hold, 0.5, largest=10**6)
    expected = math.floor(SAFETY * budget / PER_SAMPLE)  # 200: no fixed part, 4 MiB a sample
    assert abs(chunk - expected) <= 0.05 * expected


def test_a_chunk_is_never_more_than_the_largest_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(host_memory, "host_budget", lambda share: 1000 * MB)
    assert measured_host_batch(hold, 0.5, largest=10) == 10


def test_a_trial_whose_one_sample_exceeds_its_share_is_refused_naming_the_field(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(host_memory, "host_budget", lambda share: 2 * MB)
    with pytest.raises(InputError, match=r"resources\.cpu.*more CPUs"):
        measured_host_batch(hold, 0.01, largest=100)


def test_the_budget_is_the_share_of_what_the_node_has_left_plus_what_the_trial_holds(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(host_memory, "CGROUP", tmp_path)  # no container limit: the machine's figure
    held = host_memory.resident()
    meminfo = {line.split(":")[0]: line.split()[1] for line in Path("/proc/meminfo").read_text().splitlines()}
    available = int(meminfo["MemAvailable"]) * 1024
    assert abs(host_memory.host_budget(0.5) - (0.5 * (available + held) - held)) < 64 * MB


@pytest.mark.parametrize(
    ("files", "room"),
    [
        ({"memory.max": "4294967296", "memory.current": "1073741824"}, 3 * 2**30),  # v2, a 4 GiB container
        ({"memory.max": "max", "memory.current": "1073741824"}, None),  # v2, no limit
        ({"memory/memory.limit_in_bytes": "2147483648", "memory/memory.usage_in_bytes": "0"}, 2**31),  # v1
        ({"memory/memory.limit_in_bytes": "9223372036854771712", "memory/memory.usage_in_bytes": "5"}, None),
        ({}, None),  # no cgroup files
    ],
)
def test_a_containers_memory_limit_bounds_what_is_available(
    files: dict[str, str], room: int | None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text + "\n")
    monkeypatch.setattr(host_memory, "CGROUP", tmp_path)
    assert host_memory.cgroup_room() == room
    if room is not None:  # the budget of a whole share: the room, less nothing (all of it is the trial's)
        assert host_memory.host_budget(1.0) <= room


def test_without_a_resettable_high_water_mark_the_chunk_is_the_unmeasured_one(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setattr(host_memory, "PROC", tmp_path)  # no /proc/self/clear_refs to write
    ran: list[int] = []
    assert measured_host_batch(ran.append, 0.5, largest=10) == CPU_PHYSICAL_BATCH
    assert ran == []  # nothing probed


def test_an_unset_physical_batch_on_a_cpu_is_measured_to_fit_the_trials_share(
    digits: Dataset, monkeypatch: pytest.MonkeyPatch
) -> None:
    shares: list[float] = []

    def budget(share: float) -> int:  # a share of 1 GB; nothing left to a share under 1%
        shares.append(share)
        return int(share * 1000 * MB) if share >= 0.01 else -1

    monkeypatch.setattr(host_memory, "host_budget", budget)
    state = torch.random.get_rng_state()
    whole = digits_trainer(digits, "dpsgd", physical_batch_size=None, host_share=0.5)
    assert torch.equal(torch.random.get_rng_state(), state)  # the probes drew nothing training sees
    assert whole.engine.physical_batch_size == min(len(whole.train_y), CPU_PHYSICAL_BATCH)  # a small MLP
    with pytest.raises(InputError, match=r"resources\.cpu"):
        digits_trainer(digits, "dpsgd", physical_batch_size=None, host_share=0.001)
    assert shares == [0.5, 0.001]  # the trial's share reached the measurement
    assert (
        digits_trainer(digits, "dpsgd", physical_batch_size=64, host_share=0.001).engine.physical_batch_size
        == 64
    )
