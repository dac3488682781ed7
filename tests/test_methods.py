"""Every method through its own code path: per-sample momentum, sensitivity, noise, training."""

from __future__ import annotations

from dataclasses import replace

import pytest
import torch

from dptune.engine.dataset import Dataset
from dptune.methods import METHODS, PostProcessing, Privatize, StageOrderError, Update, chain
from dptune.methods.privatize import gaussian_privatize
from dptune.methods.signal import per_sample_gradient
from tests.helpers import digits_trainer, flat_grad, noise_free_release

pytestmark = pytest.mark.in_process  # starts no Ray, server or browser: `make test` runs it beside others

ALL_METHODS = sorted(METHODS)


def test_per_sample_momentum_equals_hand_written_loop_over_snapshots(digits: Dataset) -> None:
    """v_i = Σ_j β^j/c_β ∇f_i(x_{t−j}) over the k most recent iterates (renormalised early), clipped once."""
    k, beta, clip = 3, 0.5, 0.3
    trainer = digits_trainer(digits, "dp-pmlf", {"k": k, "beta": beta}, clip=clip)
    batch = torch.arange(20)
    seen: list[torch.Tensor] = []  # our own record of x_0, x_1, …
    for _ in range(5):
        seen.append(trainer.theta.clone())
        snapshots = seen[::-1][:k]  # x_t, x_{t−1}, …
        weights = [beta**j for j in range(len(snapshots))]
        weights = [w / sum(weights) for w in weights]
        expected = torch.zeros_like(trainer.theta)
        for i in batch.tolist():
            x, y = trainer.train_x[i], trainer.train_y[i]
            v = sum(w * flat_grad(trainer, s, x, y) for w, s in zip(weights, snapshots, strict=True))
            expected += v * min(1.0, clip / float(v.norm()))
        released = noise_free_release(trainer, batch)
        torch.testing.assert_close(released * trainer.expected_batch_size, expected, rtol=1e-4, atol=1e-6)
        trainer.step(batch)


def adversarial(data: Dataset, index: int) -> Dataset:
    """``data`` with sample ``index`` turned into an outlier whose gradient is far above any clip bound."""
    train_x = data.train_x.clone()
    train_x[index] = 40.0 * torch.sign(
        torch.randn_like(train_x[index], generator=torch.Generator().manual_seed(3))
    )
    return replace(data, train_x=train_x)


@pytest.mark.parametrize("method", ALL_METHODS)
def test_removing_one_sample_moves_the_release_by_at_most_c(digits: Dataset, method: str) -> None:
    """Neighbouring datasets (one sample removed), noise off: the released sum moves by ≤ C_t (β·C_t for
    fo-dp-sgd, whose release is β·s_t + (1−β)·u_{t−1}), after a few steps of history."""
    outlier = 5
    data = adversarial(digits, outlier)
    trainer = digits_trainer(data, method, {"k": 3} if method in ("dp-pmlf", "innerouter") else {}, clip=0.7)
    with_outlier = torch.arange(40)
    without = with_outlier[with_outlier != outlier]
    for _ in range(3):
        trainer.step(with_outlier)
    scale = trainer.expected_batch_size
    a = noise_free_release(trainer, with_outlier)
    b = noise_free_release(trainer, without)
    bound = trainer.method.privatize.clip(trainer.steps_taken)
    if method == "fo-dp-sgd":
        stage, state = trainer.method.post[0], trainer.post_states[0]
        a, _ = stage.update(a, state)
        b, _ = stage.update(b, state)
        bound *= trainer.params["beta"]
    moved = float((a - b).norm()) * scale
    assert moved <= bound * (1 + 1e-5)
    assert moved >= 0.99 * bound  # the outlier really is clipped: the bound is tight, not vacuous


@pytest.mark.parametrize("method", ALL_METHODS)
def test_noise_std_is_sigma_c_over_l(digits: Dataset, method: str) -> None:
    """An empty batch releases pure noise: std s_t / L with s_t = σ·C (σ·C/β inside fo-dp-sgd's release)."""
    trainer = digits_trainer(digits, method, clip=0.8)
    noise = trainer.step(torch.empty(0, dtype=torch.long)).vector
    sigma = trainer.calibration.noise_multiplier
    expected = sigma * 0.8 / trainer.expected_batch_size
    if method == "fo-dp-sgd":
        expected /= trainer.params["beta"]
    assert float(noise.std()) == pytest.approx(expected, rel=0.05)
    assert abs(float(noise.mean())) < 5 * expected / noise.numel() ** 0.5


LEARNING_RATES = {
    "dp-adambc": 0.003,
    "lp-dpadambc": 0.003,
    "dp-galore": 0.03,
    "lp-dp-galore": 0.03,
    "lp-dpadam": 0.01,
}
"""η for one epoch on digits where the SGD default 1.0 does not suit the method (Adam-type steps)."""


@pytest.mark.parametrize("method", ALL_METHODS)
def test_each_method_trains_one_epoch_on_digits_above_chance(digits: Dataset, method: str) -> None:
    lr = LEARNING_RATES.get(method, 1.0)
    trainer = digits_trainer(digits, method, lr=lr, batch_size=128, epsilon=2.0)
    result = trainer.train_epoch()
    summary = trainer.summary()
    assert summary["test_accuracy"] > 0.4  # chance is 0.1
    assert result.epsilon_spent <= 2.0
    assert summary["epsilon_spent"] == pytest.approx(result.epsilon_spent)
    assert summary["sampling"] == "poisson" and summary["accountant"] == "rdp"


@pytest.mark.parametrize(
    "method",
    [
        pytest.param("dp-pmlf", marks=pytest.mark.slow),
        pytest.param("fo-dp-sgd", marks=pytest.mark.slow),
        "lp-dpadam",
        "dpsgd-momentum",
        "lp-dpadambc",
        "lp-dp-galore",
    ],
)
def test_checkpoint_resumes_exactly(digits: Dataset, method: str, tmp_path) -> None:
    straight = digits_trainer(digits, method, epochs=2)
    straight.fit()
    first = digits_trainer(digits, method, epochs=2)
    first.train_epoch()
    torch.save(first.state_dict(), tmp_path / "state.pt")
    resumed = digits_trainer(digits, method, epochs=2)
    resumed.load_state_dict(torch.load(tmp_path / "state.pt", weights_only=False))
    resumed.fit()
    assert torch.equal(resumed.theta, straight.theta)
    assert resumed.summary()["epsilon_spent"] == straight.summary()["epsilon_spent"]


def test_chain_enforces_the_privacy_boundary() -> None:
    signal, privatize = per_sample_gradient(), gaussian_privatize(1.0, 1.0)
    post = PostProcessing("identity", lambda p: {}, lambda d, s: (d, s), gain=1.0)
    update = Update(0.1)
    chain("ok", signal, privatize, post, update)
    with pytest.raises(StageOrderError, match="privatize stage must directly follow"):
        chain("bad", signal, post, privatize, update)
    with pytest.raises(StageOrderError, match="second privatize stage"):
        chain("bad", signal, privatize, Privatize("again", lambda t: 1.0, lambda t: 1.0), update)
    with pytest.raises(StageOrderError, match="first stage"):
        chain("bad", privatize, signal, update)
    with pytest.raises(StageOrderError, match="last stage"):
        chain("bad", signal, privatize, post)


def test_shuffled_sampling_is_labelled(digits: Dataset) -> None:
    trainer = digits_trainer(digits, "dpsgd", sampling="shuffle")
    trainer.train_epoch()
    summary = trainer.summary()
    assert summary["sampling"] == "shuffle"
    assert "Poisson" in summary["sampling_note"]
