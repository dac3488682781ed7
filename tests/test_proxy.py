"""A tuning proxy: a run on a secret Poisson subset at the full run's plan, and the amplification that
carries its privacy to the whole data (checked against exact probabilities and dp-accounting's PLD)."""

from __future__ import annotations

import math

import dp_accounting
import pytest
import torch
from dp_accounting.pld.pld_privacy_accountant import PLDAccountant
from dp_accounting.rdp.rdp_privacy_accountant import RdpAccountant

from dptune.base.errors import InputError
from dptune.engine.dataset import Dataset
from dptune.privacy.accounting import RDP_ORDERS
from dptune.privacy.amplification import amplified_by_subset
from dptune.training.train import Trainer
from tests.helpers import digits_trainer, noise_free_release, subsampled_gaussian

pytestmark = pytest.mark.in_process  # starts no Ray, server or browser: `make test` runs it beside others


@pytest.mark.parametrize("epsilon", [0.1, 1.0, 3.0, 8.0])
@pytest.mark.parametrize("fraction", [0.01, 0.2, 0.5, 1.0])
def test_amplification_is_exact_for_randomised_response_on_a_subset(epsilon: float, fraction: float) -> None:
    """Randomised response on "is the record in the data" is ε-DP; run on a Poisson subset, its largest
    log-ratio of output probabilities (both outputs, both directions) is log(1 + γ(e^ε − 1)) exactly."""
    p_in = math.exp(epsilon) / (1 + math.exp(epsilon))  # P(say 1 | the record is in what M sees)
    p_out = 1 / (1 + math.exp(epsilon))
    with_record = fraction * p_in + (1 - fraction) * p_out  # the record reaches M with probability γ
    without = p_out
    ratios = [
        with_record / without,
        without / with_record,
        (1 - with_record) / (1 - without),
        (1 - without) / (1 - with_record),
    ]
    exact = math.log(max(ratios))
    assert amplified_by_subset(epsilon, 0.0, fraction) == (pytest.approx(exact, rel=1e-12, abs=1e-12), 0.0)


@pytest.mark.parametrize("sigma", [0.8, 2.0])
@pytest.mark.parametrize("fraction", [0.05, 0.2])
@pytest.mark.slow
def test_amplification_bounds_dp_accountings_subsampled_gaussian(sigma: float, fraction: float) -> None:
    """The Gaussian mechanism's (ε, δ) amplified by the formula is at least what dp-accounting's PLD gives
    for the same mechanism on a Poisson subset at δ' = γδ (and close: the formula is tight here)."""
    delta = 1e-5 / fraction
    gaussian = PLDAccountant()
    gaussian.compose(dp_accounting.GaussianDpEvent(sigma))
    epsilon = gaussian.get_epsilon(delta)
    amplified, amplified_delta = amplified_by_subset(epsilon, delta, fraction)
    assert amplified_delta == pytest.approx(1e-5)
    subsampled = PLDAccountant()
    subsampled.compose(dp_accounting.PoissonSampledDpEvent(fraction, dp_accounting.GaussianDpEvent(sigma)))
    exact = subsampled.get_epsilon(amplified_delta)
    assert exact <= amplified + 1e-3
    assert amplified <= 1.5 * exact


def test_amplification_refuses_a_fraction_outside_zero_to_one() -> None:
    with pytest.raises(ValueError, match="fraction"):
        amplified_by_subset(1.0, 1e-5, 0.0)


def test_a_proxy_run_trains_on_a_poisson_subset_with_the_full_runs_plan(digits: Dataset) -> None:
    full = digits_trainer(digits, "dpsgd")
    proxy = digits_trainer(digits, "dpsgd", proxy_fraction=0.5)
    n = len(digits.train_y)

    # The same plan: rate q = B/n of the whole data, steps and σ; the release divides by γ·q·n.
    assert proxy.sample_rate == full.sample_rate == 64 / n
    assert proxy.total_steps == full.total_steps
    assert proxy.calibration.noise_multiplier == full.calibration.noise_multiplier
    assert proxy.expected_batch_size == pytest.approx(0.5 * 64)

    # The subset: rows of the training data, about γn of them (4 binomial standard deviations).
    kept = len(proxy.train_y)
    assert abs(kept - 0.5 * n) <= 4 * math.sqrt(n * 0.25)
    members = {tuple(row.flatten().tolist()) for row in digits.train_x}
    assert all(tuple(row.flatten().tolist()) in members for row in proxy.train_x[:50])

    # Batches come from the subset at rate q: their mean size is q·|X| (4 standard errors over 300).
    sizes = torch.tensor([float(len(b)) for _ in range(10) for b in proxy._batches()])
    q = 64 / n
    assert abs(sizes.mean() - q * kept) <= 4 * math.sqrt(q * (1 - q) * kept / len(sizes))

    # One release: the clipped sum of the batch over γ·q·n, by hand (per-sample gradients, clipped to 1).
    batch = torch.arange(10)
    model = proxy.flat.model
    total = torch.zeros_like(proxy.theta)
    for i in batch:
        model.zero_grad()
        loss = torch.nn.functional.cross_entropy(model(proxy.train_x[i : i + 1]), proxy.train_y[i : i + 1])
        grad = torch.cat([g.reshape(-1) for g in torch.autograd.grad(loss, list(model.parameters()))])
        total += grad * min(1.0, 1.0 / float(grad.norm()))
    torch.testing.assert_close(noise_free_release(proxy, batch), total / (0.5 * 64), rtol=1e-4, atol=1e-6)

    # Its ledger is the full run's: after an epoch, dp-accounting's ε of the same steps at the same σ.
    proxy.train_epoch()
    expected = (
        RdpAccountant(list(RDP_ORDERS))
        .compose(subsampled_gaussian(proxy.calibration.noise_multiplier, q, proxy.steps_taken))
        .get_epsilon(proxy.delta)
    )
    assert proxy.history[-1].epsilon_spent == pytest.approx(expected, rel=1e-3)
    assert proxy.summary()["train_size"] == n  # the subset's size is secret, never reported


def test_a_proxy_steps_lr_times_its_fraction_and_corrects_for_its_own_noise(digits: Dataset) -> None:
    """θ₁ = θ₀ − (η·γ)·d(ĝ) by hand from the released ĝ: for DP-SGD d(ĝ) = ĝ; for DP-AdamBC's first
    step d(ĝ) = ĝ / √max(ĝ² − Φ, γ′) with Φ = (σC/L)² at the proxy's own L = γ·q·n (Tang et al. 2024)."""
    fraction, lr, floor = 0.5, 0.5, 1e-4
    plain = digits_trainer(digits, "dpsgd", proxy_fraction=fraction)
    before = plain.theta.clone()
    released = plain.step(torch.arange(40)).vector
    torch.testing.assert_close(plain.theta, before - lr * fraction * released)

    adam = digits_trainer(digits, "dp-adambc", {"gamma": floor}, proxy_fraction=fraction)
    before = adam.theta.clone().double()
    g = adam.step(torch.arange(40)).vector.double()
    moved = before - adam.theta.double()

    def predicted(batch: float) -> torch.Tensor:
        phi = (adam.calibration.noise_multiplier * 1.0 / batch) ** 2
        return lr * fraction * g / (g.square() - phi).clamp(min=floor).sqrt()

    phi = (adam.calibration.noise_multiplier / (fraction * 64)) ** 2
    clear = ((g.square() - phi) - floor).abs() > 0.01 * floor  # away from the floor's kink
    error = (moved - predicted(fraction * 64)).abs()
    # θ is float32: θ − moved is exact to about 2⁻²⁴·|θ| at each coordinate
    assert (error[clear] <= 1e-4 * predicted(fraction * 64)[clear].abs() + 2**-23 * before[clear].abs()).all()
    assert not torch.allclose(moved[clear], predicted(64.0)[clear], rtol=1e-2)  # the full run's Φ is wrong


def test_a_seeded_proxy_draws_the_same_subset_and_another_seed_another(digits: Dataset) -> None:
    first = digits_trainer(digits, "dpsgd", proxy_fraction=0.3, seed=5)
    again = digits_trainer(digits, "dpsgd", proxy_fraction=0.3, seed=5)
    other = digits_trainer(digits, "dpsgd", proxy_fraction=0.3, seed=6)
    torch.testing.assert_close(first.train_x, again.train_x)
    assert first.train_x.shape != other.train_x.shape or not torch.equal(first.train_x, other.train_x)


def test_a_proxy_needs_poisson_sampling_and_rows_need_a_fraction(digits: Dataset) -> None:
    with pytest.raises(InputError) as error:
        digits_trainer(digits, "dpsgd", proxy_fraction=0.5, sampling="shuffle")
    assert error.value.field == "proxy_fraction"
    with pytest.raises(ValueError, match="proxy_fraction"):
        Trainer(digits_trainer(digits, "dpsgd").config, digits, torch.arange(10))
