"""The GPU path: per-sample engines, noise, Poisson sampling and checkpoints on CUDA, the physical batch
measured to fit a trial's share, and the share enforced as a memory cap. The CUDA tests run where a GPU
is and are skipped elsewhere with the reason; the chunk arithmetic is checked everywhere."""

from __future__ import annotations

import math

import pytest
import torch

from dptune.data import Dataset
from dptune.gpu_memory import (
    CPU_PHYSICAL_BATCH,
    SAFETY,
    cap_process_memory,
    chunk_that_fits,
    device_index,
    measured_physical_batch,
)
from dptune.methods.release import clipped_sum
from dptune.models import build_model
from dptune.persample import FlatModel, clipped_sum_engine
from tests.helpers import digits_trainer

CUDA = pytest.mark.skipif(
    not torch.cuda.is_available(),
    reason="no CUDA GPU here (CI and the development machines have none); run on a GPU machine",
)


def test_the_memory_cap_gets_a_device_index_torch_accepts(monkeypatch: pytest.MonkeyPatch) -> None:
    """torch 2.14's ``set_per_process_memory_fraction`` resolves its device with ``_get_device_index``
    without ``optional=True``: a bare ``torch.device("cuda")`` raises there. What the cap passes is
    checked with torch's own resolution (the current device stubbed where no GPU is)."""
    from torch.cuda._utils import _get_device_index

    with pytest.raises(ValueError, match="specified index"):
        _get_device_index(torch.device("cuda"))  # what the cap passed before
    monkeypatch.setattr(torch.cuda, "current_device", lambda: 0)
    for device, index in ((torch.device("cuda"), 0), (torch.device("cuda", 3), 3)):
        assert _get_device_index(device_index(device)) == index
    calls = []
    monkeypatch.setattr(torch.cuda, "set_per_process_memory_fraction", lambda *a: calls.append(a))
    cap_process_memory(torch.device("cuda"), 0.25)
    cap_process_memory(torch.device("cpu"), 0.25)  # a CPU trial is not capped
    assert [(f, _get_device_index(d)) for f, d in calls] == [(0.25, 0)] and isinstance(calls[0][0], float)


def test_the_chunk_is_what_the_room_left_holds_at_the_measured_cost() -> None:
    # 1 GB budget, 100 MB fixed, 2 MB a sample: ⌊0.8 · 900 MB / 2 MB⌋ = 360 samples.
    assert chunk_that_fits(10**9, 10**8, 2 * 10**6, largest=4096) == math.floor(
        SAFETY * 9 * 10**8 / (2 * 10**6)
    )
    assert chunk_that_fits(10**9, 10**8, 2 * 10**6, largest=100) == 100  # never more than a batch
    assert chunk_that_fits(10**6, 10**8, 2 * 10**6, largest=100) == 1  # no room: one at a time
    assert chunk_that_fits(10**9, 0, 0, largest=64) == 64  # nothing measurable per sample


def test_an_unset_physical_batch_is_the_cpu_chunk_off_a_gpu(digits: Dataset) -> None:
    trainer = digits_trainer(digits, "dpsgd", physical_batch_size=None)
    assert trainer.engine.physical_batch_size == CPU_PHYSICAL_BATCH
    cap_process_memory(torch.device("cpu"), 0.25)  # no GPU: nothing to cap, no error


@CUDA
@pytest.mark.parametrize("engine", ["vmap", "ghost"])
def test_per_sample_clipped_sums_on_cuda_equal_the_cpus(digits: Dataset, engine: str) -> None:
    cpu = digits_trainer(digits, "dpsgd", engine=engine)
    gpu = digits_trainer(digits, "dpsgd", engine=engine, device="cuda")
    batch = torch.arange(64)
    sums = [
        clipped_sum(t.method, t.engine, 0, [t.theta], [(t.train_x[batch], t.train_y[batch])])
        for t in (cpu, gpu)
    ]
    torch.testing.assert_close(sums[1].cpu(), sums[0], rtol=1e-4, atol=1e-5)


@CUDA
def test_poisson_batches_noise_and_a_checkpoint_on_cuda(digits: Dataset) -> None:
    trainer = digits_trainer(digits, "dp-pmlf", {"k": 2}, device="cuda")
    batches = trainer._batches()
    q = trainer.sample_rate
    n = len(trainer.train_y)
    sizes = torch.tensor([float(len(b)) for b in batches])
    assert abs(float(sizes.mean()) - q * n) <= 4 * math.sqrt(q * (1 - q) * n / len(sizes)) + 1
    trainer.train_epoch()
    state = trainer.state_dict()
    again = digits_trainer(digits, "dp-pmlf", {"k": 2}, device="cuda")
    again.load_state_dict(state)
    assert again.theta.is_cuda and torch.equal(again.theta, trainer.theta)
    trainer.train_epoch()
    again.train_epoch()
    torch.testing.assert_close(again.theta, trainer.theta)  # the same noise and batches from the checkpoint


@CUDA
@pytest.mark.parametrize("share", [0.25, 0.5])
def test_a_fractional_trial_measures_a_chunk_that_fits_its_share_and_cannot_exceed_it(
    digits: Dataset, share: float
) -> None:
    device = torch.device("cuda")
    total = torch.cuda.get_device_properties(device).total_memory
    cap_process_memory(device, share)
    try:
        trainer = digits_trainer(
            digits,
            "dpsgd",
            gpu_share=share,
            batch_size=len(digits.train_y),
            physical_batch_size=None,
            device="cuda",
        )
        assert 1 <= trainer.engine.physical_batch_size <= len(digits.train_y)
        torch.cuda.reset_peak_memory_stats(device)
        trainer.train_epoch()
        assert torch.cuda.max_memory_allocated(device) <= share * total
        with pytest.raises(torch.cuda.OutOfMemoryError):
            torch.empty(int(share * total) + 2**20, dtype=torch.uint8, device=device)
    finally:
        torch.cuda.set_per_process_memory_fraction(1.0, device)
        torch.cuda.empty_cache()


@CUDA
def test_the_measured_chunk_of_a_wide_resnet_keeps_to_its_budget() -> None:
    device = torch.device("cuda")
    flat = FlatModel(build_model("wrn16-4", {}, torch.zeros(2, 3, 32, 32), 10).to(device))
    engine = clipped_sum_engine(flat, 1, "vmap")
    x = torch.randn(512, 3, 32, 32, device=device)
    y = torch.randint(0, 10, (512,), device=device)
    theta = flat.flatten()

    def run_chunk(size: int) -> None:
        engine.physical_batch_size = size
        engine.clipped_sum([theta], torch.tensor([1.0]), x[:size], y[:size], 1.0)

    budget = 2 * 2**30
    chunk = measured_physical_batch(run_chunk, device, budget, largest=512)
    torch.cuda.reset_peak_memory_stats(device)
    before = torch.cuda.memory_allocated(device)
    run_chunk(chunk)
    assert torch.cuda.max_memory_allocated(device) - before <= budget
