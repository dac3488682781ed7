"""DP-AdamBC and DP-GaLore (with and without DOPPLER's filter) against independent computation: numpy's
SVD, a hand-written loop of DOPPLER's Algorithm 3, torch's own Adam, and the variance seeded releases add."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from dptune.engine.dataset import Dataset
from dptune.engine.persample import ParamLayout
from dptune.methods import METHODS, Hyper
from dptune.methods.catalog.dp_galore import find_projector, galore
from dptune.methods.filters import IIRCoefficients, filtered_adam
from dptune.methods.privatize import TorchNoise, privatized_gradient
from tests.helpers import digits_trainer, noise_free_release

pytestmark = pytest.mark.in_process  # starts no Ray, server or browser: `make test` runs it beside others


def numpy_top_basis(matrix: np.ndarray, rank: int) -> np.ndarray:
    """Top-r left (m ≤ n) or right (m > n) singular vectors from numpy, each column's largest entry
    positive."""
    u, _, vt = np.linalg.svd(matrix, full_matrices=False)
    basis = u[:, :rank] if matrix.shape[0] <= matrix.shape[1] else vt[:rank].T
    return basis * np.sign(basis[np.abs(basis).argmax(axis=0), np.arange(rank)])


@pytest.mark.parametrize("shape", [(6, 11), (11, 6), (7, 7)])
def test_projector_is_the_top_r_singular_basis_of_a_hand_computed_svd(shape: tuple[int, int]) -> None:
    rng = np.random.default_rng(0)
    matrix = rng.standard_normal(shape)
    rank = 3
    projector = find_projector(torch.from_numpy(matrix), rank).numpy()
    expected = numpy_top_basis(matrix, rank)
    np.testing.assert_allclose(projector, expected, atol=1e-10)
    np.testing.assert_allclose(projector.T @ projector, np.eye(rank), atol=1e-12)
    # the subspace of the r largest singular values: the projection keeps exactly their energy
    singular = np.linalg.svd(matrix, compute_uv=False)
    kept = projector.T @ matrix if shape[0] <= shape[1] else matrix @ projector
    assert np.linalg.norm(kept) ** 2 == pytest.approx(np.sum(singular[:rank] ** 2), rel=1e-10)


LAYOUT = ParamLayout(
    ("linear.weight", "tall.weight", "conv.weight", "bias"),
    (torch.Size([6, 9]), torch.Size([7, 3]), torch.Size([4, 2, 2, 2]), torch.Size([5])),
    (54, 21, 32, 5),
)
"""A wide matrix (left projection), a tall one (right), a conv kernel (4 × 8 via im2col) and a vector."""


def algorithm_3(
    released: list[np.ndarray],
    rank: int,
    interval: int,
    a: float,
    b: tuple[float, float],
    beta2: float,
    eps: float,
) -> list[np.ndarray]:
    """DOPPLER Alg. 3 with GaLore, written out per tensor: projector every I steps, first-order filter
    m_t = −a m_{t−1} + b₀ g̃_t + b₁ g̃_{t−1} with c_t = −a c_{t−1} + b₀ + b₁[t ≥ 1], Adam's v̂,
    back-projection."""
    shapes = [(6, 9), (7, 3), (4, 8), None]
    state = [{"m": 0.0, "g": 0.0, "c": 0.0, "v": 0.0, "P": None} for _ in shapes]
    directions = []
    for t, vector in enumerate(released):
        pieces = np.split(vector, np.cumsum([54, 21, 32])[:3])
        out = []
        for piece, shape, s in zip(pieces, shapes, state, strict=True):
            g = piece.reshape(shape) if shape is not None else piece
            if shape is not None and t % interval == 0:
                s["P"] = numpy_top_basis(g, rank)
            wide = shape is not None and shape[0] <= shape[1]
            low = g if shape is None else (s["P"].T @ g if wide else g @ s["P"])
            m = -a * s["m"] + b[0] * low + (b[1] * s["g"] if t >= 1 else 0.0)
            c = -a * s["c"] + b[0] + (b[1] if t >= 1 else 0.0)
            v = beta2 * s["v"] + (1 - beta2) * low**2
            d = (m / c) / np.maximum(np.sqrt(v / (1 - beta2 ** (t + 1))), eps)
            s.update(m=m, g=low, c=c, v=v)
            back = d if shape is None else (s["P"] @ d if wide else d @ s["P"].T)
            out.append(back.reshape(-1))
        directions.append(np.concatenate(out))
    return directions


def test_galore_stage_is_algorithm_3_written_out_by_hand() -> None:
    rank, interval, a, b, beta2, eps = 2, 2, -9 / 11, (1 / 11, 1 / 11), 0.99, 1e-8
    stage = galore(filtered_adam(IIRCoefficients((a,), b), beta2, eps), LAYOUT, rank, interval)
    rng = np.random.default_rng(1)
    released = [rng.standard_normal(LAYOUT.size) for _ in range(5)]
    expected = algorithm_3(released, rank, interval, a, b, beta2, eps)
    state = stage.init(torch.zeros(LAYOUT.size, dtype=torch.float64))
    for vector, want in zip(released, expected, strict=True):
        direction, state = stage.update(torch.from_numpy(vector), state)
        np.testing.assert_allclose(direction.numpy(), want, rtol=1e-9, atol=1e-12)


def adam_reference(lr: float, theta: torch.Tensor, beta1: float, beta2: float) -> torch.optim.Adam:
    param = torch.nn.Parameter(theta.clone())
    return torch.optim.Adam([param], lr=lr, betas=(beta1, beta2), eps=0.0)


@pytest.mark.parametrize(("rank", "equal"), [(64, True), (4, False)])
def test_galore_at_full_rank_every_step_is_adam_without_projection(
    digits: Dataset, rank: int, equal: bool
) -> None:
    """dp-galore with r ≥ every weight matrix's smaller side (the mlp's are 64, 32, 10) and I = 1 follows
    torch's Adam fed the same releases; at r = 4 it does not (the comparison can tell them apart)."""
    lr, batch = 0.01, torch.arange(48)
    params = {"rank": rank, "update_interval": 1, "eps_adam": 1e-30}
    trainer = digits_trainer(digits, "dp-galore", params, lr=lr)
    optimizer = adam_reference(lr, trainer.theta, 0.9, 0.999)
    (param,) = optimizer.param_groups[0]["params"]
    for _ in range(4):
        param.grad = trainer.step(batch).vector.clone()
        optimizer.step()
        assert torch.allclose(trainer.theta, param.detach(), rtol=1e-5, atol=1e-6) == equal


def test_dpadambc_without_noise_and_floor_is_adam() -> None:
    """σ = 0 (so Φ = 0) and γ′ → 0: m̂/√max(v̂, γ′) is Adam's m̂/(√v̂ + 0), step for step."""
    definition = METHODS["dp-adambc"]
    params = definition.resolve({"gamma": 1e-30, "beta1": 0.8, "beta2": 0.95})
    method = definition.build(params, 0.0, Hyper(1.0, 0.05, 20, expected_batch_size=64.0))
    (stage,) = method.post
    generator = torch.Generator().manual_seed(2)
    theta = torch.randn(40, generator=generator)
    optimizer = adam_reference(0.05, theta, 0.8, 0.95)
    (param,) = optimizer.param_groups[0]["params"]
    state = stage.init(theta)
    for _ in range(20):
        released = torch.randn(40, generator=generator) + 0.3
        direction, state = stage.update(released, state)
        theta = method.update.apply(theta, direction)
        param.grad = released
        optimizer.step()
        torch.testing.assert_close(theta, param.detach(), rtol=1e-5, atol=1e-6)


@pytest.mark.slow  # trains or plans beyond the fast tier's few steps
@pytest.mark.parametrize("method", ["dp-adambc", "lp-dpadambc"])
def test_correction_subtracts_the_variance_seeded_releases_add(digits: Dataset, method: str) -> None:
    """The per-coordinate variance of many seeded releases of one batch (around their noise-free value)
    is the Φ the stage subtracts: one step on a constant input x gives x/√(x² − Φ), or x/√γ′ where
    x² − Φ < γ′."""
    trainer = digits_trainer(digits, method, clip=0.8)
    batch = torch.arange(32)
    clean = noise_free_release(trainer, batch)
    noise = TorchNoise((torch.Generator().manual_seed(5),))
    chunk = [(trainer.train_x[batch], trainer.train_y[batch])]
    draws = torch.stack(
        [
            privatized_gradient(
                trainer.method, trainer.engine, 0, [trainer.theta], chunk, trainer.expected_batch_size, noise
            ).vector
            for _ in range(200)
        ]
    )
    measured = float((draws - clean).double().square().mean())
    sigma, scale = trainer.calibration.noise_multiplier, trainer.expected_batch_size
    assert measured == pytest.approx((sigma * 0.8 / scale) ** 2, rel=0.01)  # what a release adds

    (stage,) = trainer.method.post
    x = torch.full_like(trainer.theta, 2.0 * measured**0.5)  # x² = 4Φ: corrected v̂ = 3Φ > γ′
    x[:10] = 1e-3 * measured**0.5  # x² < Φ: the floor γ′
    direction, _ = stage.update(x, stage.init(trainer.theta))
    subtracted = (x[10:].double() ** 2 - (x[10:].double() / direction[10:].double()) ** 2).mean()
    assert float(subtracted) == pytest.approx(measured, rel=0.01)
    gamma = trainer.params["gamma"]
    torch.testing.assert_close(direction[:10], x[:10] / gamma**0.5)
