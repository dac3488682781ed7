"""Calibration and accounting against Opacus's accountants called directly and Google's dp-accounting."""

from __future__ import annotations

import math

import dp_accounting
import dp_accounting.pld
import pytest
from opacus.accountants import PRVAccountant, RDPAccountant
from opacus.accountants.utils import get_noise_multiplier

from dptune.methods import Hyper, get_method
from dptune.privacy.accounting import (
    Accountant,
    epsilon_of,
    rdp_curve_above,
    rdp_to_epsilon,
    spends_at_least,
)
from dptune.privacy.calibration import calibrate_noise, method_schedule
from dptune.privacy.pld import (
    PLD_DISTINCT,
    PLD_INTERVALS,
    PLD_TOLERANCE,
    _merged,
    pld_bracket,
    pld_epsilon,
    pld_epsilon_bounds,
)
from dptune.sweep.bound import LOWEST_WINDOW, lowest_sigma

pytestmark = pytest.mark.in_process  # starts no Ray, server or browser: `make test` runs it beside others


def calibrated(
    method: str, params: dict, eps: float, delta: float, q: float, steps: int, accountant: str = "rdp"
) -> float:
    definition = get_method(method)
    resolved = definition.resolve(params)
    schedule = method_schedule(definition, resolved, Hyper(1.0, 0.1, steps), q)
    calib = calibrate_noise(eps, delta, schedule, accountant)
    assert calib.epsilon <= eps
    return calib.noise_multiplier


def opacus_rdp(history: list[tuple[float, float, int]], delta: float) -> float:
    accountant = RDPAccountant()
    accountant.history = list(history)
    return accountant.get_epsilon(delta)


@pytest.mark.parametrize(
    ("eps", "q", "steps"), [(1.0, 1 / 60, 600), (8.0, 1 / 60, 600), (0.5, 0.01, 2000), (3.0, 0.1, 50)]
)
def test_dpsgd_sigma_reproduces_target_with_opacus_rdp(eps: float, q: float, steps: int) -> None:
    sigma = calibrated("dpsgd", {}, eps, 1e-5, q, steps)
    spent = opacus_rdp([(sigma, q, steps)], 1e-5)
    assert 0.99 * eps <= spent <= eps
    # Opacus's own calibration (absolute tolerance 0.01) lands on nearly the same σ.
    theirs = get_noise_multiplier(
        target_epsilon=eps,
        target_delta=1e-5,
        sample_rate=q,
        steps=steps,
        accountant="rdp",
        epsilon_tolerance=0.005,
    )
    assert sigma == pytest.approx(theirs, rel=0.02)


def test_dpsgd_sigma_checked_by_a_second_accountant() -> None:
    """Google's dp-accounting RDP accountant, an independent implementation, agrees within 2%."""
    eps, delta, q, steps = 1.0, 1e-5, 1 / 60, 600
    sigma = calibrated("dpsgd", {}, eps, delta, q, steps)
    accountant = dp_accounting.rdp.RdpAccountant()
    event = dp_accounting.PoissonSampledDpEvent(q, dp_accounting.GaussianDpEvent(sigma))
    accountant.compose(event, steps)
    assert accountant.get_epsilon(delta) == pytest.approx(eps, rel=0.02)


def test_prv_calibration_matches_opacus_prv() -> None:
    eps, delta, q, steps = 2.0, 1e-5, 0.02, 500
    sigma = calibrated("dpsgd", {}, eps, delta, q, steps, accountant="prv")
    accountant = PRVAccountant()
    accountant.history = [(sigma, q, steps)]
    assert 0.98 * eps <= accountant.get_epsilon(delta) <= eps + 0.01
    # PRV is tighter than RDP: the same ε needs less noise.
    assert sigma < calibrated("dpsgd", {}, eps, delta, q, steps)


@pytest.mark.slow
def test_pld_calibration_matches_opacus_prv_and_dp_accountings_own_pld() -> None:
    """The PLD accountant's σ spends its ε by dp-accounting's PLD accountant on the event built here, and
    by Opacus's PRV accountant (another numerical method) within PRV's own error; it needs less noise
    than RDP."""
    eps, delta, q, steps = 2.0, 1e-5, 0.02, 500
    sigma = calibrated("dpsgd", {}, eps, delta, q, steps, accountant="pld")
    pld = dp_accounting.pld.PLDAccountant(value_discretization_interval=1e-5)
    pld.compose(dp_accounting.PoissonSampledDpEvent(q, dp_accounting.GaussianDpEvent(sigma)), steps)
    assert 0.98 * eps <= pld.get_epsilon(delta) <= eps
    prv = PRVAccountant()
    prv.history = [(sigma, q, steps)]
    assert 0.98 * eps - 0.01 <= prv.get_epsilon(delta) <= eps + 0.01
    assert sigma < calibrated("dpsgd", {}, eps, delta, q, steps)


@pytest.mark.slow
def test_pld_merges_equal_entries_wherever_they_sit_and_bounds_a_finer_grid() -> None:
    """A history whose equal (σ, q) entries are apart composes as dp-accounting's accountant composes each
    entry in order (to its grid's pessimism: the coarser grid's ε is an upper bound on the finer's)."""
    history = [(3.0, 0.1, 40), (8.0, 0.1, 10), (3.0, 0.1, 60), (8.0, 0.05, 5)]
    fine = dp_accounting.pld.PLDAccountant(value_discretization_interval=1e-5)
    for z, q, n in history:
        fine.compose(dp_accounting.PoissonSampledDpEvent(q, dp_accounting.GaussianDpEvent(z)), n)
    ours = epsilon_of(history, 1e-5, "pld")
    assert fine.get_epsilon(1e-5) <= ours <= fine.get_epsilon(1e-5) * 1.002
    assert ours < epsilon_of(history, 1e-5, "rdp")


GRID_SETTINGS = [  # (σ, q, steps): one run to ten thousand steps, small and large ε
    (3.3, 8192 / 60000, 40),
    (2.5, 1024 / 60000, 354),
    pytest.param(0.9, 2048 / 60000, 1200, marks=pytest.mark.slow),
    pytest.param(1.0, 256 / 60000, 10000, marks=pytest.mark.slow),
    (6.0, 0.5, 10),
]


@pytest.mark.parametrize(("sigma", "q", "steps"), GRID_SETTINGS)
@pytest.mark.slow
def test_pld_on_every_grid_bounds_dp_accountings_finest_and_the_chosen_one_is_within_its_tolerance(
    sigma: float, q: float, steps: int
) -> None:
    """Every grid the PLD accountant may read ε on (the planner's searches fix one) gives an upper bound on
    dp-accounting's own PLD accountant on a grid of 1e-5; the grid it chooses by itself is within about
    its tolerance of that (the tolerance is extrapolated, hence twice it here)."""
    history = [(sigma, q, steps)]
    fine = dp_accounting.pld.PLDAccountant(value_discretization_interval=1e-5)
    fine.compose(dp_accounting.PoissonSampledDpEvent(q, dp_accounting.GaussianDpEvent(sigma)), steps)
    exact = fine.get_epsilon(1e-5)
    for interval in PLD_INTERVALS:
        assert pld_epsilon(history, 1e-5, interval) >= exact * (1 - 1e-9), interval  # 1e-5: the same
    assert exact <= pld_epsilon(history, 1e-5) <= exact * (1 + 2 * PLD_TOLERANCE)


@pytest.mark.slow
def test_decreasing_clip_composes_heterogeneous_steps() -> None:
    """σ·C/C_t = σ·min(2, 1 + t/T_c) per step, stepped one by one through Opacus's accountant."""
    eps, delta, q, steps, decay = 1.0, 1e-5, 0.05, 120, 80
    sigma = calibrated("dpsgd-momentum", {"clip_decay_steps": decay}, eps, delta, q, steps)
    accountant = RDPAccountant()
    for t in range(steps):
        accountant.step(noise_multiplier=sigma * min(2.0, 1.0 + t / decay), sample_rate=q)
    spent = accountant.get_epsilon(delta)
    assert 0.99 * eps <= spent <= eps
    # The shrinking clip lets later steps cost less: less noise is needed than for plain DP-SGD.
    assert sigma < calibrated("dpsgd", {}, eps, delta, q, steps)


def test_fo_dp_sgd_accounts_ratio_sigma_over_beta() -> None:
    eps, delta, q, steps, beta = 2.0, 1e-5, 0.04, 250, 0.8
    sigma = calibrated("fo-dp-sgd", {"beta": beta}, eps, delta, q, steps)
    assert 0.99 * eps <= opacus_rdp([(sigma / beta, q, steps)], delta) <= eps
    assert sigma == pytest.approx(beta * calibrated("dpsgd", {}, eps, delta, q, steps), rel=0.02)


@pytest.mark.slow
def test_ledger_equals_opacus_on_same_history() -> None:
    ledger = Accountant("rdp")
    reference = RDPAccountant()
    for t in range(50):
        z = 1.0 + 0.01 * (t % 7)
        ledger.step(z, 0.03)
        reference.step(noise_multiplier=z, sample_rate=0.03)
    assert ledger.epsilon(1e-5) == pytest.approx(reference.get_epsilon(1e-5), rel=1e-12)
    restored = Accountant.from_state_dict(ledger.state_dict())
    assert restored.epsilon(1e-5) == ledger.epsilon(1e-5)
    assert restored.steps == 50


@pytest.mark.slow
def test_a_ledger_of_more_distinct_noise_multipliers_than_a_pld_composes_is_bounded_from_above() -> None:
    """A clip that decays every step (z from 1 to 2 over 120 steps, each its own): the PLD rounds each z
    down onto the lattice 2^(k/32), an upper bound on dp-accounting's composition of all 120 steps on the
    same grid, and within 3% of it (each z moves by less than 2.2%)."""
    history = [(1.0 + t / 120, 0.05, 1) for t in range(120)]
    accountant = dp_accounting.pld.PLDAccountant(value_discretization_interval=1e-3)
    for z, q, steps in history:
        accountant.compose(dp_accounting.PoissonSampledDpEvent(q, dp_accounting.GaussianDpEvent(z)), steps)
    exact = accountant.get_epsilon(1e-5)
    rounded = pld_epsilon(history, 1e-5, 1e-3)
    assert exact <= rounded <= 1.03 * exact
    assert len(_merged(history)) <= PLD_DISTINCT + 1


def decaying_clip(sigma: float, steps: int, q: float) -> list[tuple[float, float, int]]:
    """The ledger of a clip halving linearly over the run while the noise std stays: z_t = 2σ/(2 − t/T)."""
    return [(sigma * 2 / (2 - t / steps), q, 1) for t in range(steps)]


@pytest.mark.slow
@pytest.mark.parametrize("sigma", [0.8, 1.5, 4.0])
def test_the_rdp_curve_bound_of_a_decaying_clip_is_above_opacus_and_within_1e_3(sigma: float) -> None:
    """``rdp_curve_above`` (chords on a lattice of z): its ε is at least Opacus's RDP accountant's on the
    same 400 distinct steps, and within 1e-3 of it."""
    history = decaying_clip(sigma, 400, 0.02)
    opacus = opacus_rdp(history, 1e-5)
    above = rdp_to_epsilon(rdp_curve_above(history), 1e-5)
    assert opacus * (1 - 1e-9) <= above <= opacus * (1 + 1e-3)


@pytest.mark.slow
@pytest.mark.parametrize("sigma", [0.9, 2.0])
def test_the_pld_bracket_of_a_decaying_clip_holds_dp_accounting_s_composition(sigma: float) -> None:
    """``pld_bracket``'s two histories: dp-accounting's PLD of all 150 distinct steps (its own accountant,
    the same grid) lies between their figures, and the bounds ``pld_epsilon_bounds`` gives first are
    those figures, then ``pld_epsilon`` itself, which is above dp-accounting's."""
    history = decaying_clip(sigma, 150, 0.05)
    accountant = dp_accounting.pld.PLDAccountant(value_discretization_interval=1e-3)
    for z, q, steps in history:
        accountant.compose(dp_accounting.PoissonSampledDpEvent(q, dp_accounting.GaussianDpEvent(z)), steps)
    exact = accountant.get_epsilon(1e-5)
    bracket = pld_bracket(history)
    assert bracket is not None
    below, above = (pld_epsilon(h, 1e-5, 1e-3) for h in bracket)
    assert below <= exact <= above
    (first_lower, first_upper), (lower, upper) = pld_epsilon_bounds(history, 1e-5, 1e-3)
    assert (first_lower, first_upper) == (below, above)
    assert lower == upper == pld_epsilon(history, 1e-5, 1e-3) >= exact
    assert pld_bracket([(1.0, 0.05, 100), (2.0, 0.05, 50)]) is None  # few z: the exact PLD is cheap


@pytest.mark.parametrize("accountant", ["rdp", "pld"])
@pytest.mark.slow
def test_spends_at_least_agrees_with_the_exact_epsilon(accountant: str) -> None:
    """Whether a decaying clip's ledger spends at least a target, decided on bounds, is the comparison of
    its exact ε with the target, just above and just below it."""
    history = decaying_clip(1.2, 200, 0.03)
    exact = epsilon_of(history, 1e-5, accountant)
    for target, expected in ((exact * 0.999, True), (exact, True), (exact * 1.001, False)):
        assert spends_at_least(history, 1e-5, accountant, target) is expected


def test_calibration_ends_where_epsilon_jumps_over_its_window() -> None:
    """A ledger whose z are rounded onto a coarse lattice is a step function of σ, whose steps can be wider
    than the window: the calibration ends within the target, just below the jump, in a few dozen probes."""
    probes: list[float] = []

    def schedule(sigma: float) -> list[tuple[float, float, int]]:
        probes.append(sigma)
        z = 2.0 ** (math.floor(math.log2(sigma) * 8) / 8)  # a lattice of 9% steps: ε jumps by about 15%
        return [(z, 0.05, 200)]

    found = calibrate_noise(2.0, 1e-5, schedule, "rdp", rel_tol=1e-3)
    assert found.epsilon <= 2.0 and len(probes) < 60
    just_below = [(2.0 ** (math.floor(math.log2(found.noise_multiplier) * 8 - 1) / 8), 0.05, 200)]
    assert epsilon_of(just_below, 1e-5, "rdp") > 2.0


@pytest.mark.slow
def test_the_lowest_sigma_spends_at_least_its_target_and_is_within_its_window() -> None:
    """``lowest_sigma`` of a decaying clip: Opacus's RDP of its ledger is at least the target (so every run
    calibrated to the target has at least its σ), and at most (1 + ``LOWEST_WINDOW``) times it."""
    schedule = lambda s: decaying_clip(s, 300, 0.02)  # noqa: E731
    sigma = lowest_sigma(1.5, 1e-5, schedule, "rdp")
    assert 1.5 <= opacus_rdp(schedule(sigma), 1e-5) <= 1.5 * (1 + LOWEST_WINDOW) * (1 + 1e-6)


@pytest.mark.parametrize(  # the grids finer than 1e-4 are the costly ones
    "interval", [i if i >= 1e-4 else pytest.param(i, marks=pytest.mark.slow) for i in PLD_INTERVALS]
)
@pytest.mark.slow
def test_the_self_composition_window_by_powers_is_dp_accountings(interval: float) -> None:
    """``chernoff_window`` against dp-accounting's ``compute_self_convolve_bounds`` on the PMFs a plan
    self-composes (one Poisson-subsampled Gaussian step, both neighbouring directions, on every grid the
    accountant reads), from one step to ten thousand: the same window, to the bin."""
    from dp_accounting.pld import common, privacy_loss_distribution

    from dptune.privacy.self_convolution import chernoff_window

    compared = 0
    for sigma, q in ((0.7, 0.02), (1.5, 8192 / 60000), (4.0, 0.004), (20.0, 0.5)):
        pld = privacy_loss_distribution.from_gaussian_mechanism(
            standard_deviation=sigma, value_discretization_interval=interval, sampling_prob=q
        )
        for pmf in (pld._pmf_remove, pld._pmf_add):
            probabilities = getattr(pmf, "_probs", None)
            if probabilities is None:  # a sparse PMF: its own composition, no window
                continue
            for steps in (1, 16, 354, 10000):
                expected = common.compute_self_convolve_bounds(probabilities, steps, 1e-15)
                assert chernoff_window(probabilities, steps, 1e-15) == expected, (sigma, q, steps)
                compared += 1
    assert compared >= 16


def test_a_self_composition_with_the_window_by_powers_spends_what_dp_accountings_own_does() -> None:
    """The PLD accountant's ε of a run (``pld_epsilon``: self-composed within ``windows_by_powers``) is
    dp-accounting's own self-composition's, to the last digit, and the library's function is its own again
    after the block."""
    from dp_accounting.pld import common, privacy_loss_distribution

    original = common.compute_self_convolve_bounds
    for sigma, q, steps in ((1.2, 1024 / 60000, 590), (3.3, 8192 / 60000, 16)):
        interval = PLD_INTERVALS[1]
        own = privacy_loss_distribution.from_gaussian_mechanism(
            standard_deviation=sigma, value_discretization_interval=interval, sampling_prob=q
        ).self_compose(steps)
        assert pld_epsilon([(sigma, q, steps)], 1e-5, interval) == own.get_epsilon_for_delta(1e-5)
    assert common.compute_self_convolve_bounds is original
