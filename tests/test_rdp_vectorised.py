"""The vectorised RDP of the subsampled Gaussian, its grouping of a history and the lattice bounds that
calibration decides on, against Opacus's scalar ``compute_rdp`` and ``RDPAccountant`` and Google's
dp-accounting (independent implementations)."""

from __future__ import annotations

import functools

import dp_accounting
import numpy as np
import pytest
from opacus.accountants import RDPAccountant
from opacus.accountants.analysis.rdp import compute_rdp, get_privacy_spent

from dptune.methods import Hyper, get_method
from dptune.privacy import accounting
from dptune.privacy.accounting import (
    RDP_ORDERS,
    Accountant,
    rdp_curve,
    rdp_epsilon,
    rdp_epsilon_bounds,
    rdp_to_epsilon,
)
from dptune.privacy.calibration import calibrate_noise, method_schedule
from dptune.privacy.history import HistoryEntry
from dptune.privacy.rdp import subsampled_gaussian_rdp

pytestmark = pytest.mark.in_process  # starts no Ray, server or browser: `make test` runs it beside others

ORDERS = list(RDP_ORDERS)
DELTA = 1e-5


@functools.cache
def opacus_step(z: float, q: float) -> np.ndarray:
    """Opacus's scalar RDP curve of one step (cached: the same z recurs in the histories below)."""
    return np.asarray(compute_rdp(q=q, noise_multiplier=z, steps=1, orders=ORDERS))


def opacus_step_by_step(history: list[HistoryEntry]) -> float:
    """ε of ``history``: Opacus's one-step curves summed step by step, converted by Opacus."""
    curve = sum(opacus_step(z, q) for z, q, n in history for _ in range(n))
    return float(get_privacy_spent(orders=ORDERS, rdp=curve, delta=DELTA)[0])


def opacus_accountant(history: list[HistoryEntry]) -> float:
    accountant = RDPAccountant()
    accountant.history = list(history)
    return float(accountant.get_epsilon(DELTA))


def decreasing_clip(sigma: float, q: float, steps: int, decay: int) -> list[HistoryEntry]:
    """dpsgd-momentum's ledger: z_t = σ·min(2, 1 + t/T_c), one entry per step."""
    return [(sigma * min(2.0, 1.0 + t / decay), q, 1) for t in range(steps)]


def integrated_rdp(q: float, sigma: float, alpha: float) -> float:
    """ε_α of one Poisson-subsampled Gaussian step by quadrature of its definition: log A_α / (α − 1),
    A_α = E_{z∼N(0, σ²)}[((1 − q) + q·exp((2z − 1)/(2σ²)))^α] (Mironov, Talwar & Zhang 2019, §3.3)."""
    from scipy import integrate

    def integrand(z: float) -> float:
        density = np.exp(-z * z / (2 * sigma**2)) / (sigma * np.sqrt(2 * np.pi))
        return float(density * ((1 - q) + q * np.exp((2 * z - 1) / (2 * sigma**2))) ** alpha)

    value, _ = integrate.quad(integrand, -30 * sigma, 30 * sigma + 3 * alpha, limit=1000, epsrel=1e-12)
    return float(np.log(value) / (alpha - 1))


@pytest.mark.parametrize(("q", "sigma"), [(0.0341, 0.8967), (0.1365, 3.68), (0.01, 1.5)])
def test_fractional_orders_are_the_exact_moment_where_dp_accounting_bounds_it(q: float, sigma: float) -> None:
    """At fractional orders dptune's curve is the exact series (quadrature agrees to 1e-7), while
    dp-accounting's is an upper bound: a plan it recomposes may stand a little above the plan's own
    figure (``tests/test_plan.py``'s slack), never below it."""
    alphas = [2.5, 3.5, 5.5, 8.7]
    ours = subsampled_gaussian_rdp([sigma], q, alphas)[0]
    exact = [integrated_rdp(q, sigma, a) for a in alphas]
    theirs = dp_accounting.rdp.rdp_privacy_accountant._compute_rdp_poisson_subsampled_gaussian(
        q, sigma, alphas
    )
    np.testing.assert_allclose(ours, exact, rtol=1e-7)
    assert np.all(np.asarray(theirs) >= np.asarray(exact) * (1 - 1e-9))


@pytest.mark.parametrize("q", [0.0, 0.001, 0.0445, 0.3, 1.0])
def test_one_step_curves_equal_opacus_per_sigma(q: float) -> None:
    """All σ in one pass, row by row Opacus's scalar curve (σ = 0: ∞; q = 0: 0; q = 1: α/(2σ²)).
    The absolute slack covers curves of order 1e-10 (q = 0.001, σ = 50), where the series' rounding
    is that large in relative terms in Opacus as here."""
    sigmas = [0.0, 0.3, 1.0, 2.5, 50.0]
    ours = subsampled_gaussian_rdp(sigmas, q, ORDERS)
    for sigma, row in zip(sigmas, ours, strict=True):
        np.testing.assert_allclose(row, opacus_step(sigma, q), rtol=1e-9, atol=1e-13)


HISTORIES = {
    # Small σ, a decreasing clip (z = σ·min(2, 1 + t/T_c)) whose equal z are not next to each other.
    "decreasing clip, σ = 0.3": [(0.3, 0.0445, 1), (0.45, 0.0445, 2), (0.3, 0.0445, 1), (0.6, 0.0445, 3)],
    # Large σ, with full-batch (q = 1) steps between.
    "decreasing clip, σ = 50, q = 1": [
        *decreasing_clip(50.0, 0.0445, 8, 4),
        (50.0, 1.0, 3),
        (0.3, 1.0, 1),
        *decreasing_clip(50.0, 0.0445, 8, 4),
    ],
    "two sampling rates": decreasing_clip(2.5, 0.01, 6, 4)
    + decreasing_clip(2.5, 0.1, 6, 4)
    + [(2.5, 0.01, 5)],
}


@pytest.mark.parametrize("name", HISTORIES)
def test_grouped_epsilon_equals_opacus_step_by_step(name: str) -> None:
    history = HISTORIES[name]
    ours = rdp_epsilon(history, DELTA)
    assert ours == pytest.approx(opacus_step_by_step(history), rel=1e-10)
    assert ours == pytest.approx(opacus_accountant(history), rel=1e-10)
    ledger = Accountant("rdp")
    for z, q, n in history:
        for _ in range(n):
            ledger.step(z, q)
    assert ledger.epsilon(DELTA) == pytest.approx(ours, rel=1e-12)


def test_dp_accounting_agrees_on_a_heterogeneous_history() -> None:
    """Its series differs near α = 1 (it caps iterations), not at the orders that attain ε."""
    history = [*decreasing_clip(1.3, 0.05, 12, 8), (0.3, 1.0, 2), (50.0, 0.2, 3)]
    events = [
        dp_accounting.SelfComposedDpEvent(
            dp_accounting.PoissonSampledDpEvent(q, dp_accounting.GaussianDpEvent(z)), n
        )
        for z, q, n in history
    ]
    theirs = dp_accounting.rdp.RdpAccountant(ORDERS).compose(dp_accounting.ComposedDpEvent(events))
    assert rdp_epsilon(history, DELTA) == pytest.approx(theirs.get_epsilon(DELTA), rel=1e-9)


def test_equal_steps_are_grouped_wherever_they_sit(monkeypatch: pytest.MonkeyPatch) -> None:
    """(z, q) entries apart in the history are one row, and the distinct z are one vectorised pass."""
    passes: list[int] = []
    real = accounting.subsampled_gaussian_rdp

    def counted(zs: list[float], q: float, orders: np.ndarray) -> np.ndarray:
        passes.append(len(zs))
        return real(zs, q, orders)

    monkeypatch.setattr(accounting, "subsampled_gaussian_rdp", counted)
    accounting.forget_curves()
    scattered = [(1.5, 0.05, 2), (2.0, 0.05, 1), (1.5, 0.05, 3), (2.0, 0.05, 4)]
    curve = rdp_curve(scattered)
    assert passes == [2]
    np.testing.assert_array_equal(curve, rdp_curve([(1.5, 0.05, 5), (2.0, 0.05, 5)]))


@pytest.mark.parametrize("delta", [1e-3, 1e-5, 1e-9])
def test_rdp_to_epsilon_is_opacus_conversion(delta: float) -> None:
    """Curves of every shape (tiny, large, with orders undefined as NaN) convert as Opacus converts them."""
    rng = np.random.default_rng(0)
    for _ in range(20):
        curve = rng.lognormal(-2.0, 2.0, len(ORDERS)) * np.asarray(ORDERS)
        curve[rng.random(len(ORDERS)) < 0.2] = np.nan
        expected = float(get_privacy_spent(orders=ORDERS, rdp=curve, delta=delta)[0])
        assert rdp_to_epsilon(curve, delta) == pytest.approx(expected, rel=1e-12)
    assert rdp_to_epsilon(np.full(len(ORDERS), np.nan), delta) == np.inf


def test_empty_history_spends_nothing() -> None:
    assert list(rdp_epsilon_bounds([], DELTA)) == [(0.0, 0.0)]


@pytest.mark.parametrize("sigma", [0.7, 2.5, 9.0])
def test_lattice_bounds_bracket_the_exact_epsilon(sigma: float) -> None:
    """Every pair brackets the exact ε, the first ones from the lattice (not exact), the last exact."""
    history = decreasing_clip(sigma, 0.0445, 600, 400)
    exact = rdp_epsilon(history, DELTA)
    pairs = list(rdp_epsilon_bounds(history, DELTA))
    assert pairs[0][0] < pairs[0][1]
    for lower, upper in pairs:
        assert lower <= exact <= upper
    assert pairs[-1] == pytest.approx((exact, exact), rel=1e-12)
    widths = [upper - lower for lower, upper in pairs]
    assert widths[-2] < widths[0] / 10


@pytest.mark.parametrize("eps", [1.0, 3.0])
@pytest.mark.slow
def test_decreasing_clip_calibration_checked_step_by_step(eps: float) -> None:
    """σ calibrated on lattice bounds spends, by Opacus's accountant stepped one step at a time, at most
    the target and at least 99% of it; the ε returned is a valid bound (never below the exact one)."""
    steps, q = 30, 0.2
    definition = get_method("dpsgd-momentum")
    schedule = method_schedule(definition, definition.resolve({}), Hyper(1.0, 0.1, steps), q)
    calibration = calibrate_noise(eps, DELTA, schedule)
    first_lower, first_upper = next(rdp_epsilon_bounds(schedule(calibration.noise_multiplier), DELTA))
    assert first_lower < first_upper  # the lattice was in play, not the exact curve
    reference = RDPAccountant()
    for t in range(steps):
        reference.step(
            noise_multiplier=calibration.noise_multiplier * min(2.0, 1.0 + t / steps), sample_rate=q
        )
    spent = reference.get_epsilon(DELTA)
    assert 0.99 * eps <= spent <= eps
    assert spent <= calibration.epsilon * (1 + 1e-12)
    assert 0.99 * eps <= calibration.epsilon <= eps
