"""Small builders shared by tests."""

from __future__ import annotations

import uuid
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import torch
from dp_accounting import dp_event
from dp_accounting.rdp.rdp_privacy_accountant import RdpAccountant

from dptune.engine.dataset import Dataset
from dptune.methods.privatize import clipped_sum
from dptune.privacy.accounting import RDP_ORDERS
from dptune.training.config import RunConfig
from dptune.training.train import Trainer


def digits_trainer(
    data: Dataset,
    method: str,
    params: dict[str, Any] | None = None,
    gpu_share: float = 1.0,
    host_share: float = 1.0,
    **overrides: Any,
) -> Trainer:
    config = RunConfig(
        method=method,
        dataset="digits",
        model="mlp",
        epsilon=1.0,
        epochs=1,
        batch_size=64,
        lr=0.5,
        clip=1.0,
        params=params or {},
        physical_batch_size=32,
        seed=0,  # research mode: these tests compare runs step by step
    )
    return Trainer(replace(config, **overrides), data, gpu_share=gpu_share, host_share=host_share)


def noise_free_release(trainer: Trainer, indices: torch.Tensor) -> torch.Tensor:
    """Σ_i clip(v_i, C_t) / L of ``indices`` at the trainer's current step: the release without its noise
    (a test's view of private state; nothing accounts or applies it)."""
    total = clipped_sum(
        trainer.method,
        trainer.engine,
        trainer.steps_taken,
        [trainer.theta, *trainer.iterates],
        [(trainer.train_x[indices], trainer.train_y[indices])],
    )
    return total / trainer.expected_batch_size


def flat_grad(trainer: Trainer, theta: torch.Tensor, x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    """∇f(θ) of one sample with plain autograd on a copy of the module (independent of the engines)."""
    import copy

    import torch.nn.functional as F

    model = copy.deepcopy(trainer.flat.model)
    torch.nn.utils.vector_to_parameters(theta, model.parameters())
    loss = F.cross_entropy(model(x[None]), y[None])
    return torch.cat([g.reshape(-1) for g in torch.autograd.grad(loss, list(model.parameters()))])


def subsampled_gaussian(sigma: float, q: float, steps: int) -> dp_event.DpEvent:
    """dp-accounting's event for ``steps`` Poisson-subsampled Gaussian releases (an independent ledger)."""
    return dp_event.SelfComposedDpEvent(
        dp_event.PoissonSampledDpEvent(q, dp_event.GaussianDpEvent(sigma)), steps
    )


def dp_accounting_epsilon(events: dp_event.DpEvent | list[dp_event.DpEvent], delta: float) -> float:
    """ε at ``delta`` of ``events`` (composed, if a list) by dp-accounting's RDP accountant at dptune's
    orders: an accountant independent of dptune's own."""
    event = dp_event.ComposedDpEvent(events) if isinstance(events, list) else events
    return RdpAccountant(list(RDP_ORDERS)).compose(event).get_epsilon(delta)


def fresh_module(folder: Path, source: str, prefix: str, monkeypatch: pytest.MonkeyPatch) -> str:
    """A module of ``source`` under a new name (``PREFIX_…``: nothing cached in ``sys.modules``) in
    ``folder/code``, put on the path; its name."""
    name = f"{prefix}_{uuid.uuid4().hex[:8]}"
    code = folder / "code"
    code.mkdir()
    (code / f"{name}.py").write_text(source)
    monkeypatch.syspath_prepend(str(code))
    return name
