"""The GPU path: per-sample engines, noise, Poisson sampling and checkpoints on CUDA, the physical batch
measured to fit a trial's share, and the share enforced as a memory cap. The CUDA tests run where a GPU
is and are skipped elsewhere with the reason; the chunk arithmetic is checked everywhere."""

from __future__ import annotations

import math

import pytest
import torch

from dptune.base.errors import InputError
from dptune.engine import gpu_memory
from dptune.engine.chunk_probe import SAFETY, ChunkCost, chunk_that_fits
from dptune.engine.dataset import Dataset
from dptune.engine.engine_choice import clipped_sum_engine
from dptune.engine.gpu_memory import (
    checked_physical_batch,
    device_index,
    measured_physical_batch,
    memory_budget,
    prepare_gpu,
    refused_if_out_of_memory,
)
from dptune.engine.persample import FlatModel
from dptune.methods.privatize import clipped_sum
from dptune.models import build_model
from dptune.training import train
from dptune.training.checkpoint import load_checkpoint, save_checkpoint
from tests.helpers import digits_trainer

CUDA = pytest.mark.skipif(
    not torch.cuda.is_available(),
    reason="no CUDA GPU here (CI and the development machines have none); run on a GPU machine",
)


GB = 10**9


@pytest.fixture
def fake_gpu(monkeypatch: pytest.MonkeyPatch) -> dict[str, list]:
    """torch's CUDA memory functions stubbed with recorded numbers of a 16 GB card (no GPU here): what the
    code asks and sets is recorded; ``used`` is NVML's device-wide figure, before and after a context."""
    calls: dict[str, list] = {"cap": [], "emptied": [], "used": [16 * GB // 10, 2 * GB]}
    monkeypatch.setattr(gpu_memory, "_OVERHEAD", {})
    monkeypatch.setattr(torch.cuda, "current_device", lambda: 0)
    monkeypatch.setattr(torch.cuda, "device_memory_used", lambda index: calls["used"].pop(0))
    monkeypatch.setattr(gpu_memory, "start_context", lambda index: None)
    monkeypatch.setattr(torch.cuda, "memory_reserved", lambda index=None: 100 * 10**6)
    monkeypatch.setattr(torch.cuda, "memory_allocated", lambda index=None: 40 * 10**6)
    monkeypatch.setattr(torch.cuda, "mem_get_info", lambda index=None: (3 * GB, 16 * GB))
    monkeypatch.setattr(torch.cuda, "empty_cache", lambda: calls["emptied"].append(True))
    monkeypatch.setattr(torch.cuda, "reset_peak_memory_stats", lambda index=None: None)
    monkeypatch.setattr(torch.cuda, "set_per_process_memory_fraction", lambda *a: calls["cap"].append(a))
    return calls


def test_the_memory_cap_is_the_share_less_the_process_context_on_a_device_torch_accepts(
    fake_gpu: dict[str, list],
) -> None:
    """torch 2.14's ``set_per_process_memory_fraction`` resolves its device with ``_get_device_index``
    without ``optional=True``: a bare ``torch.device("cuda")`` raises there, so the cap passes an index
    (checked with torch's own resolution). The cap is the share less the process's context, measured
    with NVML: 2 GB used after less 1.6 GB before less 0.1 GB reserved = 0.3 GB, so a quarter of 16 GB
    caps the allocator at (4 − 0.3)/16. A reused actor's cache is emptied first."""
    from torch.cuda._utils import _get_device_index

    with pytest.raises(ValueError, match="specified index"):
        _get_device_index(torch.device("cuda"))  # what the cap passed before
    for device, index in ((torch.device("cuda"), 0), (torch.device("cuda", 3), 3)):
        assert _get_device_index(device_index(device)) == index
    prepare_gpu(torch.device("cuda"), 0.25)
    prepare_gpu(torch.device("cpu"), 0.25)  # a CPU trial: nothing to cap or empty
    ((fraction, where),) = fake_gpu["cap"]
    assert _get_device_index(where) == 0 and isinstance(fraction, float)
    assert fraction == pytest.approx((4 * GB - 0.3 * GB) / (16 * GB))
    assert fake_gpu["emptied"] == [True]
    prepare_gpu(torch.device("cuda"), 0.25)  # the next trial of a reused actor: measured once
    assert fake_gpu["cap"][1] == fake_gpu["cap"][0] and fake_gpu["emptied"] == [True, True]


def test_a_process_nvml_cannot_measure_is_taken_at_the_largest_context(fake_gpu: dict[str, list]) -> None:
    fake_gpu["used"] = []  # NVML unreadable: ``device_memory_used`` raises
    assert gpu_memory.context_overhead(0) == gpu_memory.CONTEXT_ALLOWANCE


def test_the_budget_counts_the_processs_own_cached_blocks_as_room(fake_gpu: dict[str, list]) -> None:
    """3 GB free on the card, 0.1 GB reserved by this process of which 0.04 GB allocated: the 0.06 GB its
    cache keeps is room too; the cap (4 − 0.3 GB at a quarter) less the 0.04 GB held bounds it."""
    assert memory_budget(torch.device("cuda"), 1.0) == 3 * GB + 60 * 10**6
    assert memory_budget(torch.device("cuda"), 0.1) == int(0.1 * 16 * GB - 0.3 * GB) - 40 * 10**6


def test_the_probe_warms_up_before_it_measures(monkeypatch: pytest.MonkeyPatch) -> None:
    """The first chunk a process runs also allocates a one-time workspace W: measured then, it would
    make a sample look cheaper by W/P (or free). After a warm-up the probes see c and f exactly."""
    workspace, fixed, per_sample = 50 * 10**6, 20 * 10**6, 3 * 10**6
    peak = {"now": 0, "first": True}

    def run_chunk(size: int) -> None:
        peak["now"] = fixed + size * per_sample + (workspace if peak["first"] else 0)
        peak["first"] = False

    monkeypatch.setattr(torch.cuda, "synchronize", lambda device=None: None)
    monkeypatch.setattr(torch.cuda, "reset_peak_memory_stats", lambda device=None: None)
    monkeypatch.setattr(torch.cuda, "memory_allocated", lambda device=None: 0)
    monkeypatch.setattr(torch.cuda, "max_memory_allocated", lambda device=None: peak["now"])
    budget = 2 * GB
    chunk = measured_physical_batch(run_chunk, torch.device("cuda"), budget, largest=10**6)
    assert chunk == math.floor(SAFETY * (budget - fixed) / per_sample)


def stub_peaks(monkeypatch: pytest.MonkeyPatch, held: int, fixed: int, per_sample: int) -> None:
    """The allocator's counters of a process that holds ``held`` bytes (its model and optimiser state) and
    whose chunk of m samples peaks ``fixed + m·per_sample`` above that."""
    peak = {"now": held}

    def run_chunk(size: int) -> None:
        peak["now"] = held + fixed + size * per_sample

    monkeypatch.setattr(torch.cuda, "synchronize", lambda device=None: None)
    monkeypatch.setattr(torch.cuda, "reset_peak_memory_stats", lambda device=None: None)
    monkeypatch.setattr(torch.cuda, "memory_allocated", lambda device=None: held)
    monkeypatch.setattr(torch.cuda, "max_memory_allocated", lambda device=None: peak["now"])
    return run_chunk


def test_a_trial_that_fits_beside_what_it_holds_is_not_refused_and_one_that_does_not_is_in_one_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The budget is already the cap less what the trial holds (``memory_budget``): a process holding 2 GB
    with 1.7 GB of room left and 15 MB a sample fits (it was refused when the 2 GB counted twice); with
    0.01 GB of room it does not, and the line states the totals, what it holds included. A spec's own
    physical batch is measured the same way."""
    cuda = torch.device("cuda")
    run_chunk = stub_peaks(monkeypatch, held=2 * GB, fixed=0, per_sample=15 * 10**6)
    chunk = measured_physical_batch(run_chunk, cuda, budget=17 * GB // 10, largest=64)
    assert chunk == 64
    assert checked_physical_batch(run_chunk, cuda, 17 * GB // 10, 64) == 64
    with pytest.raises(InputError) as caught:
        measured_physical_batch(run_chunk, cuda, budget=10**7, largest=64)
    assert caught.value.field == "resources.gpu" and "needs about 1.9 GiB" in caught.value.problem  # 2.015 GB
    with pytest.raises(InputError) as caught:
        checked_physical_batch(run_chunk, cuda, 10**9, 100)  # 1.5 GB for its 100 samples
    assert caught.value.field == "resources.gpu" and "physical_batch_size" in caught.value.problem


def test_a_model_that_does_not_fit_its_share_is_refused_in_one_line() -> None:
    """Placing the model (or its state) past the trial's cap raises torch's out-of-memory error; the trial
    refuses in one line naming ``resources.gpu`` instead."""
    with pytest.raises(InputError) as caught, refused_if_out_of_memory("the model"):
        raise torch.OutOfMemoryError("CUDA out of memory. Tried to allocate 2.00 GiB")
    assert caught.value.field == "resources.gpu" and str(caught.value).count("\n") == 0


def test_an_engine_check_that_does_not_fit_its_share_is_refused_in_one_line(
    digits: Dataset, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The per-sample engine's exactness check runs on the GPU before any step (its copy of the model
    included): out of memory there is the one line too."""

    def no_room(*args: object, **kwargs: object) -> None:
        raise torch.OutOfMemoryError("CUDA out of memory. Tried to allocate 2.00 GiB")

    monkeypatch.setattr(train, "clipped_sum_engine", no_room)
    with pytest.raises(InputError) as caught:
        digits_trainer(digits, "dpsgd")
    assert caught.value.field == "resources.gpu" and "exactness check" in caught.value.problem


def test_the_chunk_is_what_the_room_left_holds_at_the_measured_cost() -> None:
    # 1 GB budget, 100 MB fixed, 2 MB a sample: ⌊0.8 · 900 MB / 2 MB⌋ = 360 samples.
    assert chunk_that_fits(10**9, ChunkCost(10**8, 2 * 10**6), largest=4096) == math.floor(
        SAFETY * 9 * 10**8 / (2 * 10**6)
    )
    assert chunk_that_fits(10**9, ChunkCost(10**8, 2 * 10**6), largest=100) == 100  # never more than a batch
    assert chunk_that_fits(10**6, ChunkCost(10**8, 2 * 10**6), largest=100) == 1  # no room: one at a time
    assert chunk_that_fits(10**9, ChunkCost(0, 0), largest=64) == 64  # nothing measurable per sample


def test_preparing_a_cpu_device_caps_nothing() -> None:
    prepare_gpu(torch.device("cpu"), 0.25)  # no GPU: nothing to cap, no error


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
def test_a_groupnorm_models_ghost_clipped_sum_on_cuda_equals_the_cpus() -> None:
    """wrn16-4 (GroupNorm) on the ghost engine, two iterates, in float64 on both devices."""
    torch.manual_seed(0)
    model = build_model("wrn16-4", {}, torch.zeros(2, 3, 16, 16), 10).double()
    x, y = torch.randn(6, 3, 16, 16, dtype=torch.float64), torch.randint(0, 10, (6,))
    sums = []
    for device in ("cpu", "cuda"):
        flat = FlatModel(model.to(device))
        theta = flat.flatten()
        iterates = [theta, theta + 0.05]
        engine = clipped_sum_engine(flat, 4, "ghost")
        weights = torch.tensor([0.7, 0.3], dtype=torch.float64)
        sums.append(engine.clipped_sum(iterates, weights, x.to(device), y.to(device), 0.5).cpu())
    torch.testing.assert_close(sums[1], sums[0], rtol=1e-9, atol=1e-11)


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
    prepare_gpu(device, share)
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
        cap = gpu_memory.cap_fraction(share, total, gpu_memory.context_overhead(0)) * total
        assert torch.cuda.max_memory_allocated(device) <= cap
        with pytest.raises(torch.cuda.OutOfMemoryError):
            torch.empty(int(cap) + 2**20, dtype=torch.uint8, device=device)
    finally:
        torch.cuda.set_per_process_memory_fraction(1.0, device_index(device))
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


def _tensors(value: object) -> list[torch.Tensor]:
    """Every tensor in a nest of dicts, lists and tuples."""
    if isinstance(value, torch.Tensor):
        return [value]
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list | tuple):
        return [t for item in value for t in _tensors(item)]
    return []


def test_a_checkpoint_is_read_onto_the_cpu_and_its_state_moved_to_the_runs_device(
    digits: Dataset, tmp_path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``map_location="cpu"`` (a GPU checkpoint loads where no GPU is, and generator states stay CPU byte
    tensors for ``set_state``), then θ, the iterates and every post-processing state on the run's
    device; a noise stream saved on another kind of device leaves the run's fresh secret one in place."""
    trainer = digits_trainer(digits, "dp-adambc", seed=None)
    trainer.train_epoch()
    save_checkpoint(trainer, tmp_path)
    seen = {}
    real_load = torch.load

    def recording_load(*args, **kwargs):
        seen.update(kwargs)
        return real_load(*args, **kwargs)

    monkeypatch.setattr(torch, "load", recording_load)
    resumed = digits_trainer(digits, "dp-adambc", seed=None)
    load_checkpoint(resumed, tmp_path)
    assert seen["map_location"] == "cpu"
    moved = [resumed.theta, *resumed.iterates, *_tensors(resumed.post_states)]
    assert len(moved) > 2 and all(t.device == resumed.device for t in moved)
    assert torch.equal(resumed.theta, trainer.theta)
    assert resumed.sampler.get_state().device.type == "cpu"
    assert resumed.noise.get_state()[0].dtype == torch.uint8

    state = trainer.state_dict() | {"noise_device": "cuda", "noise": [torch.zeros(16, dtype=torch.uint8)] * 2}
    fresh = digits_trainer(digits, "dp-adambc", seed=None)
    before = fresh.noise.get_state()[0].clone()
    fresh.load_state_dict(state)  # a GPU run's Philox pair cannot continue on the CPU: no error
    assert torch.equal(fresh.noise.get_state()[0], before)
    fresh.train_epoch()


@CUDA
@pytest.mark.parametrize("saved, resumed", [("cuda", "cpu"), ("cpu", "cuda")])
def test_a_checkpoint_resumes_on_the_other_kind_of_device(
    digits: Dataset, tmp_path, saved: str, resumed: str
) -> None:
    """Saved on one kind of device, resumed on the other through the trial's own loader, then a step."""
    first = digits_trainer(digits, "dp-adambc", seed=None, device=saved)
    first.train_epoch()
    save_checkpoint(first, tmp_path)
    again = digits_trainer(digits, "dp-adambc", seed=None, device=resumed)
    load_checkpoint(again, tmp_path)
    assert all(t.device.type == resumed for t in [again.theta, *_tensors(again.post_states)])
    again.train_epoch()
    assert torch.isfinite(again.theta).all()
