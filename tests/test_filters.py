"""The IIR low-pass filter against independent computations (scipy, hand-written recursions)."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from scipy.signal import lfilter

from dptune.base.errors import InputError
from dptune.methods.filters import PRESETS, filtered_adam, iir_filter, make_filter, validate_filter


def random_stable_filter(rng: np.random.Generator) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Random real poles/conjugate pairs inside the unit circle, b rescaled to unit DC gain, c_t > 0."""
    while True:
        n_a = int(rng.integers(0, 4))
        poles: list[complex] = []
        while len(poles) < n_a:
            r = rng.uniform(0.0, 0.97)
            if n_a - len(poles) >= 2 and rng.random() < 0.5:
                phi = rng.uniform(0, np.pi)
                poles += [r * np.exp(1j * phi), r * np.exp(-1j * phi)]
            else:
                poles.append(r * rng.choice([-1.0, 1.0]))
        a = tuple(np.real(np.poly(poles))[1:]) if poles else ()
        b = rng.uniform(0.05, 1.0, size=int(rng.integers(1, 4)))
        b = b * (1.0 + sum(a)) / b.sum()  # −Σa + Σb = 1
        try:
            validate_filter(a, tuple(b))
        except InputError:
            continue
        return a, tuple(b)


@pytest.mark.parametrize("seed", range(20))
def test_filter_equals_normalised_impulse_response_convolution(seed: int) -> None:
    """DP-PMLF Lemma 2: m_t / c_t = Σ_{r≤t} κ_r ĝ_{t−r} / Σ_{r≤t} κ_r, κ the impulse response."""
    rng = np.random.default_rng(seed)
    a, b = random_stable_filter(rng)
    steps, dim = 40, 5
    inputs = rng.normal(size=(steps, dim))
    impulse = np.zeros(steps)
    impulse[0] = 1.0
    kappa = lfilter(np.array(b), np.array([1.0, *a]), impulse)  # scipy's own recursion

    stage = iir_filter(make_filter(a, b))
    state = stage.init(torch.zeros(dim, dtype=torch.float64))
    for t in range(steps):
        out, state = stage.update(torch.tensor(inputs[t]), state)
        weights = kappa[: t + 1]
        expected = (weights[:, None] * inputs[t::-1]).sum(0) / weights.sum()
        np.testing.assert_allclose(out.numpy(), expected, rtol=1e-9, atol=1e-12)


def test_momentum_preset_is_normalised_ema() -> None:
    """a = (−0.9,), b = (0.1,): m_t = 0.9 m + 0.1 g, c_t = 1 − 0.9^{t+1} (closed form)."""
    stage = iir_filter(PRESETS["pmlf-a0.9-b0.1"])
    state = stage.init(torch.zeros(1, dtype=torch.float64))
    m = 0.0
    for t, g in enumerate([3.0, -1.0, 2.0, 0.5]):
        out, state = stage.update(torch.tensor([g], dtype=torch.float64), state)
        m = 0.9 * m + 0.1 * g
        assert float(out) == pytest.approx(m / (1 - 0.9 ** (t + 1)), rel=1e-12)
    first, _ = stage.update(torch.tensor([7.0], dtype=torch.float64), stage.init(torch.zeros(1)))
    assert float(first) == pytest.approx(7.0)  # the first update is exactly ĝ_0, not 1.5× it


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_presets_are_valid(name: str) -> None:
    coeffs = PRESETS[name]
    validate_filter(coeffs.a, coeffs.b)
    assert -sum(coeffs.a) + sum(coeffs.b) == pytest.approx(1.0, abs=1e-9)


@pytest.mark.parametrize(
    ("a", "b", "words"),
    [
        ((-0.9,), (0.2,), "DC gain"),
        ((-1.2,), (-0.2,), "unstable"),
        ((-1.0,), (1e-12,), "unstable"),  # a pole on the unit circle is not strictly inside
        ((-1.5, 0.5), (0.0 + 1e-12,), "unstable"),
        ((-0.5,), (-0.2, 0.7), "c_0"),
        ((), (0.0, 1.0), "c_0"),
        ((), (), "b needs"),
    ],
)
def test_invalid_filters_are_refused(a: tuple, b: tuple, words: str) -> None:
    with pytest.raises(InputError, match=words):
        validate_filter(a, b)


def test_dc_gain_tolerance_is_1e_9() -> None:
    validate_filter((-0.9,), (0.1 + 5e-10,))
    with pytest.raises(InputError):
        validate_filter((-0.9,), (0.1 + 5e-9,))


def test_filtered_adam_matches_hand_written_loop() -> None:
    """LP-DPAdam: first moment = bias-corrected filter output, second moment of the raw release."""
    rng = np.random.default_rng(1)
    coeffs = PRESETS["doppler-first-order-v1"]
    beta2, eps = 0.99, 1e-3
    stage = filtered_adam(coeffs, beta2, eps)
    state = stage.init(torch.zeros(3, dtype=torch.float64))
    (a1,), (b0, b1) = coeffs.a, coeffs.b
    m_prev = g_prev = np.zeros(3)
    c_prev, v = 0.0, np.zeros(3)
    for t in range(10):
        g = rng.normal(size=3)
        out, state = stage.update(torch.tensor(g), state)
        m = -a1 * m_prev + b0 * g + b1 * g_prev
        c = -a1 * c_prev + b0 + (b1 if t >= 1 else 0.0)
        v = beta2 * v + (1 - beta2) * g**2
        v_hat = v / (1 - beta2 ** (t + 1))
        np.testing.assert_allclose(out.numpy(), (m / c) / np.maximum(np.sqrt(v_hat), eps), rtol=1e-10)
        m_prev, g_prev, c_prev = m, g, c
