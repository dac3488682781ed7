"""The privacy cost of tuning, against dp-accounting's public events and closed forms."""

from __future__ import annotations

import math
import random
from typing import Any

import numpy as np
import pytest
from dp_accounting import dp_event
from dp_accounting.pld import privacy_loss_distribution
from dp_accounting.rdp.rdp_privacy_accountant import RdpAccountant, _gamma_truncated_negative_binomial
from scipy import stats

from dptune.methods import METHODS
from dptune.privacy.accounting import RDP_ORDERS, rdp_curve, rdp_to_epsilon, truncate
from dptune.privacy.tuning import (
    COMPOSITION,
    REPEAT_AND_SELECT,
    TrialCount,
    choose_bound,
    composition_curve,
    repeat_and_select_curve,
    revealed_count_curve,
    worst_curve,
)
from dptune.sweep.bound import configuration_ledgers
from dptune.sweep.space import Dist, MethodSpace, privacy_configurations
from dptune.training.calibrated_run import calibrated_run
from dptune.training.config import RunConfig
from tests.helpers import digits_trainer, dp_accounting_epsilon, subsampled_gaussian

DELTA = 1e-5


@pytest.mark.parametrize(
    "count",
    [
        TrialCount("poisson", 8),
        TrialCount("poisson", 3),
        TrialCount("truncated-negative-binomial", 8, 1.0),
        TrialCount("truncated-negative-binomial", 5, 0.0),
        TrialCount("truncated-negative-binomial", 10, 0.5),
    ],
    ids=lambda c: f"{c.distribution}-{c.mean}-{c.shape}",
)
def test_repeat_and_select_matches_dp_accounting_event(count: TrialCount) -> None:
    ledger = [(1.1, 0.01, 1000)]
    ours = rdp_to_epsilon(repeat_and_select_curve(worst_curve([ledger]), count), DELTA)
    event = dp_event.RepeatAndSelectDpEvent(subsampled_gaussian(1.1, 0.01, 1000), count.mean, count.shape)
    assert ours == pytest.approx(dp_accounting_epsilon(event, DELTA), rel=1e-4)
    assert ours > rdp_to_epsilon(rdp_curve(ledger), DELTA)  # selecting costs more than one run


def test_repeat_and_select_over_configurations_bounds_each_one() -> None:
    count = TrialCount("poisson", 6)
    a, b = [(1.0, 0.02, 500)], [(0.8, 0.05, 100)]
    both = rdp_to_epsilon(repeat_and_select_curve(worst_curve([a, b]), count), DELTA)
    each = (rdp_to_epsilon(repeat_and_select_curve(worst_curve([x]), count), DELTA) for x in (a, b))
    assert both >= max(each) - 1e-12


def test_composition_matches_dp_accounting_composed_event() -> None:
    ledgers = [[(1.1, 0.01, 600)], [(0.9, 0.02, 300), (1.8, 0.02, 300)], [(2.0, 0.05, 40)]]
    ours = rdp_to_epsilon(composition_curve(ledgers), DELTA)
    events = [subsampled_gaussian(z, q, n) for ledger in ledgers for z, q, n in ledger]
    assert ours == pytest.approx(dp_accounting_epsilon(dp_event.ComposedDpEvent(events), DELTA), rel=1e-3)


def count_law(count: TrialCount) -> Any:
    """log P[K = k] from scipy, independent of ``TrialCount.pmf``: Poisson, or the negative binomial (η > 0)
    or logarithmic (η = 0) series truncated at k ≥ 1, with dp-accounting's γ for the mean."""
    if count.distribution == "poisson":
        return stats.poisson(count.mean).logpmf
    gamma = _gamma_truncated_negative_binomial(count.shape, count.mean)
    if count.shape == 0:
        return stats.logser(1 - gamma).logpmf
    law = stats.nbinom(count.shape, gamma)
    return lambda k: np.where(k >= 1, law.logpmf(k) - math.log1p(-law.pmf(0)), -np.inf)


@pytest.mark.parametrize(
    "count",
    [
        TrialCount("poisson", 5),
        TrialCount("truncated-negative-binomial", 5, 1.0),
        TrialCount("truncated-negative-binomial", 4, 0.0),
    ],
    ids=lambda c: f"{c.distribution}-{c.mean}-{c.shape}",
)
def test_a_released_count_costs_the_mixture_of_its_compositions(count: TrialCount) -> None:
    """Each order's ε'_λ against (1/(λ−1))·log Σ_k P[K = k]·e^{(λ−1)·k·ε_λ}, summed term by term over
    scipy's law of K with dp-accounting's curve of one run; ∞ exactly where that sum diverges."""
    run = subsampled_gaussian(1.2, 0.02, 300)
    worst = np.asarray(RdpAccountant(list(RDP_ORDERS)).compose(run)._rdp)
    ours = revealed_count_curve(worst, count)
    k = np.arange(0, 4000)
    log_pmf = count_law(count)(k)
    compared = 0
    for order, one, theirs in zip(RDP_ORDERS, worst, ours, strict=True):
        exponent = (order - 1) * k * one + log_pmf
        terms = np.exp(exponent - exponent.max())
        partial = (exponent.max() + math.log(terms.sum())) / (order - 1)
        if theirs == math.inf:  # the series diverges: its terms do not decay
            assert terms[-1] >= terms[-2]
        elif terms[-1] > 1e-30 * terms.sum():  # not converged in 4,000 terms: the sum so far bounds it
            assert theirs >= partial - 1e-12
        else:
            assert theirs == pytest.approx(partial, rel=1e-9, abs=1e-12)
            compared += 1
    assert compared >= 5
    assert rdp_to_epsilon(ours, DELTA) > rdp_to_epsilon(repeat_and_select_curve(worst, count), DELTA)


def test_a_released_poisson_count_bounds_the_pld_mixture() -> None:
    """The (ε, δ) of a Poisson(5) count of runs plus a release, K told: at ε from the RDP curve, the δ of
    the mixture by dp-accounting's PLD, Σ_k P[K = k]·δ_{k+1 runs}(ε) (and the tail's mass), is within δ."""
    sigma, q, steps, mean = 1.2, 0.05, 40, 5
    worst = rdp_curve([(sigma, q, steps)])
    revealed = revealed_count_curve(worst, TrialCount("poisson", mean)) + worst
    epsilon = rdp_to_epsilon(revealed, DELTA)
    one = privacy_loss_distribution.from_gaussian_mechanism(
        sigma, sampling_prob=q, value_discretization_interval=1e-3
    ).self_compose(steps)
    runs, mixture, covered = one, 0.0, 0.0
    for k in range(40):
        weight = stats.poisson(mean).pmf(k)
        mixture += weight * runs.get_delta_for_epsilon(epsilon)
        covered += weight
        runs = runs.compose(one)
    assert mixture + (1 - covered) <= DELTA
    assert mixture > DELTA / 10  # the RDP bound is not loose by orders of magnitude


def test_geometric_trial_count_has_its_closed_form_and_every_count_its_mean() -> None:
    geometric = TrialCount("truncated-negative-binomial", 4.0, 1.0)
    k = np.arange(1, 40)
    np.testing.assert_allclose(geometric.pmf(k), 0.25 * 0.75 ** (k - 1), rtol=1e-9)  # γ(1−γ)^(k−1), γ = 1/μ
    for count in (
        TrialCount("truncated-negative-binomial", 6.0, 0.0),
        TrialCount("truncated-negative-binomial", 6.0, 2.5),
    ):
        support = np.arange(1, 3000)
        assert (count.pmf(support) * support).sum() == pytest.approx(6.0, rel=1e-6)
    rng = np.random.default_rng(0)
    for count in (TrialCount("poisson", 5.0), geometric):
        draws = np.array([count.draw(rng) for _ in range(4000)])
        sd = math.sqrt(5.0) if count.distribution == "poisson" else math.sqrt(0.75) / 0.25
        assert abs(draws.mean() - count.mean) < 5 * sd / math.sqrt(len(draws))
    assert TrialCount("fixed", 3).draw(rng) == 3


def test_bound_is_repeat_and_select_only_where_the_theorem_holds() -> None:
    poisson, fixed = TrialCount("poisson", 4), TrialCount("fixed", 4)
    assert choose_bound("random", "none", poisson, False)[0] == REPEAT_AND_SELECT
    for args in (
        ("tpe", "none", poisson, False),
        ("random", "asha", poisson, False),
        ("random", "none", fixed, False),
        ("random", "none", poisson, True),
    ):
        bound, why = choose_bound(*args)
        assert bound == COMPOSITION and why.startswith("composition")


def test_planned_ledger_is_what_the_trainer_records(digits) -> None:
    trainer = digits_trainer(
        digits, "dpsgd-momentum", {"clip_decay_steps": 9}, epsilon=2.0, epochs=2, batch_size=128
    )
    trainer.train_epoch()
    config = trainer.config
    plan = calibrated_run(config, len(digits.train_y))
    assert truncate(plan.ledger, trainer.steps_taken) == trainer.accountant.history  # step by step, as spent
    assert sum(n for _, _, n in plan.ledger) == 2 * trainer.steps_per_epoch


def _run(method: str) -> RunConfig:
    return RunConfig(
        method=method,
        epsilon=1.0,
        dataset="digits",
        model="mlp",
        delta=1e-4,
        epochs=2,
        batch_size=64,
        physical_batch_size=64,
    )


RANDOM_KNOBS = {
    "lr": lambda r: r.uniform(0.01, 3),
    "clip": lambda r: r.uniform(0.1, 5),
    "k": lambda r: r.randint(1, 4),
    "beta": lambda r: r.uniform(0.05, 1.0),
    "momentum": lambda r: r.uniform(0, 0.95),
    "outer_momentum": lambda r: r.uniform(0, 0.95),
    "alpha": lambda r: r.uniform(0.1, 1),
    "memory": lambda r: r.randint(1, 10),
    "beta2": lambda r: r.uniform(0.9, 0.999),
}


@pytest.mark.parametrize("method", sorted(METHODS))
def test_worst_configuration_ledger_dominates_every_trial_it_stands_for(method: str) -> None:
    """Any draw of the knobs that are not privacy knobs (lr, clip, k, β, …) yields a trial whose RDP
    curve lies below the configuration's worst ledger at every order: the repeat-and-select bound
    covers every trial random search can run, not only the ones it happened to run."""
    knobs = {"batch_size": Dist("choice", (64, 200)), "epochs": Dist("fixed", (2,))}
    if method == "dpsgd-momentum":
        knobs["clip_decay_steps"] = Dist("choice", (5, 40))
    space = MethodSpace(method, knobs, None, ())
    run, n = _run(method), 1437
    worst = [rdp_curve(ledger) for ledger in configuration_ledgers(space, run, n, 1e-4)]
    names = {p.name for p in METHODS[method].params}
    rng = random.Random(method)
    for _ in range(4):
        draw = {k: f(rng) for k, f in RANDOM_KNOBS.items() if k in names or k in ("lr", "clip")}
        for index, privacy in enumerate(privacy_configurations(space)):
            trial = rdp_curve(calibrated_run(run.with_knobs({**draw, **privacy}), n).ledger)
            assert np.all(trial <= worst[index] * (1 + 1e-9))
