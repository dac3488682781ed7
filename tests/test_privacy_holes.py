"""What a sweep's privacy figures assume, tried as an adversary would: a secret search order for
repeat-and-select, every earlier sweep counted once in a curve's figure, generators whose whole state is
secret, clipping that holds whatever one record does, and a Poisson rate that never exceeds q."""

from __future__ import annotations

import copy
import math
import re
from fractions import Fraction

import numpy as np
import optuna
import pytest
import torch
from dp_accounting.rdp.rdp_privacy_accountant import RdpAccountant

from dptune.base.errors import InputError
from dptune.base.randomness import MT_STATE_WORDS, Randomness, cpu_generator, poisson_mask, poisson_threshold
from dptune.engine.dataset import Dataset, poisson_rows
from dptune.privacy.accounting import RDP_ORDERS
from dptune.sweep.bound import MethodTuningCost, PriorSweep, SweepTuningCost
from dptune.sweep.spec import parse_spec
from dptune.sweep.spec_modes import SweepOutcome, spec_mode
from dptune.tracking.report import format_table
from dptune.tune.define_by_run import SAMPLERS, DefineByRun
from dptune.tune.outcomes import NO_TRIAL, SECRET_FAILURE, failed_methods
from tests.helpers import digits_trainer, noise_free_release, subsampled_gaussian

REPEAT_AND_SELECT = {
    "name": "rs",
    "dataset": {"name": "digits"},
    "model": {"name": "mlp"},
    "privacy": {"epsilon": 1.0, "delta": 1e-4},
    "training": {"epochs": 1, "batch_size": 128, "lr": 1.0},
    "budget": {"trials_per_method": {"distribution": "poisson", "mean": 4}},
    "scheduler": {"name": "none"},
    "search": {"sampler": "random"},
    "methods": {"dpsgd": {"lr": {"loguniform": [0.01, 10.0]}}},
}


def first_configuration(doc: dict) -> dict:
    """The first configuration a sweep of ``doc`` draws for dpsgd, through the sampler the sweep builds."""
    spec = parse_spec(copy.deepcopy(doc))
    study = optuna.create_study(sampler=SAMPLERS[spec.sampler](spec.seed, spec.startup_trials))
    trial = study.ask()
    DefineByRun(spec.methods["dpsgd"])(trial)
    return dict(trial.params)


def test_two_repeat_and_select_sweeps_of_one_spec_draw_different_first_configurations() -> None:
    """A public search order would make the released configuration name its trial j (so K ≥ j)."""
    assert first_configuration(REPEAT_AND_SELECT) != first_configuration(REPEAT_AND_SELECT)


def test_a_public_search_seed_is_refused_for_repeat_and_select_outside_research_mode() -> None:
    doc = copy.deepcopy(REPEAT_AND_SELECT)
    doc["search"]["seed"] = 0
    with pytest.raises(InputError) as info:
        parse_spec(doc)
    assert info.value.field == "search.seed" and "secret search order" in str(info.value)
    doc["training"]["seed"] = 3  # the labelled research mode: reproducible on purpose
    assert first_configuration(doc) == first_configuration(doc)


def _sweep_cost(
    sigma: float, q: float, steps: int, delta: float, prior: PriorSweep | None
) -> SweepTuningCost:
    """A sweep of one method whose whole search is one subsampled-Gaussian run (its RDP curve from
    dp-accounting), warm-started from ``prior``."""
    accountant = RdpAccountant(list(RDP_ORDERS))
    curve = np.asarray(accountant.compose(subsampled_gaussian(sigma, q, steps))._rdp)  # no public getter
    method = MethodTuningCost("dpsgd", 1, "composition", "", curve, curve, curve, delta, False, None)
    return SweepTuningCost([method], delta, None, prior)


def test_the_whole_curve_counts_an_earlier_sweep_that_every_sweep_warm_started_from_once() -> None:
    """Two ε sweeps, each warm-started from the same earlier sweep (``warm_start.sweep``): the curve's
    figure is at least that sweep's (ε, δ) plus each sweep's own, by basic composition."""
    doc = copy.deepcopy(REPEAT_AND_SELECT)
    doc["privacy"] = {"epsilon": [1.0, 2.0], "delta": 1e-5}
    doc["budget"] = {"trials_per_method": 2}
    doc["search"] = {"sampler": "tpe", "warm_start": {"sweep": "earlier", "top": 1}}
    spec = parse_spec(doc)
    mode = spec_mode(spec)
    sweeps = mode.sweeps()
    earlier = PriorSweep("earlier", 5.0, 1e-5)
    runs = [(1.2, 0.02, 400), (0.8, 0.02, 400)]
    outcomes = [SweepOutcome([], "", 0.0, 0.0, 0, [], _sweep_cost(*run, 1e-5, earlier)) for run in runs]
    (text,), _ = mode.closing_lines(sweeps, outcomes, format_table)
    line = text.splitlines()[-1]
    epsilon, delta = (float(x) for x in re.search(r"ε ≤ ([\d.]+), δ ≤ ([\de.+-]+)", line).groups())
    own = [
        RdpAccountant(list(RDP_ORDERS)).compose(subsampled_gaussian(*run)).get_epsilon(1e-5) for run in runs
    ]
    assert epsilon >= earlier.epsilon + sum(own) - 1e-3
    assert delta == pytest.approx(earlier.delta + 2 * 1e-5)
    # the composed events, for contrast: more than either part, so no sweep's figure can stand for all
    assert epsilon > max(o.tuning_cost.epsilon_including_tuning for o in outcomes)


def test_seeds_that_share_their_low_32_bits_give_different_streams(digits: Dataset) -> None:
    """torch's CPU Mersenne Twister keeps only 32 bits of ``manual_seed``: θ₀, batches, noise and a proxy's
    subset of seeds N and N + 2⁴⁰ must still differ."""
    low, high = 5, 5 + 2**40
    a, b = (digits_trainer(digits, "dpsgd", seed=s) for s in (low, high))
    assert not torch.equal(a.theta, b.theta)
    assert not torch.equal(a._batches()[0], b._batches()[0])
    like = torch.zeros(1000)
    assert not torch.equal(a.noise.gaussian(like, 1.0), b.noise.gaussian(like, 1.0))
    n = len(digits.train_y)
    assert not torch.equal(poisson_rows(n, 0.3, low), poisson_rows(n, 0.3, high))


def test_a_generators_whole_state_comes_from_its_secret() -> None:
    """The 624 state words are the secret's ``SeedSequence`` expansion (256-bit pool), read back from
    torch's own state bytes; secure seeds carry 256 bits."""
    secret = 2**255 + 12345
    state = cpu_generator(secret).get_state().numpy()
    words = np.frombuffer(state[24 : 24 + 8 * MT_STATE_WORDS].tobytes(), dtype="<u8")
    expected = np.random.SeedSequence(secret, pool_size=8).generate_state(MT_STATE_WORDS, np.uint32)
    assert np.array_equal(words, expected.astype(np.uint64))
    assert not torch.equal(
        torch.rand(100, generator=cpu_generator(secret)),
        torch.rand(100, generator=cpu_generator(secret ^ 2**200)),
    )
    seeds = [Randomness().stream_seeds() for _ in range(8)]
    assert max(s.noise for s in seeds).bit_length() > 200


@pytest.mark.parametrize("engine", ["vmap", "ghost"])
@pytest.mark.parametrize("bad", [math.nan, math.inf])
def test_one_record_with_a_non_finite_gradient_cannot_break_clipping(
    digits: Dataset, engine: str, bad: float
) -> None:
    """One record whose gradient is NaN or infinite: the release is finite, its noise-free part has norm
    at most C·(batch size)/L, the record is counted as zeroed in the engine's private count (never in the
    run's result record, which ``dptune train --json`` prints), and the run goes on."""
    trainer = digits_trainer(digits, "dpsgd", seed=None, engine=engine)
    batch = torch.arange(64)
    trainer.train_x = trainer.train_x.clone()
    trainer.train_x[7] = bad  # the logits of record 7 are not finite
    clean = noise_free_release(trainer, batch)
    assert torch.isfinite(clean).all()
    assert float(clean.norm()) <= trainer.config.clip * len(batch) / trainer.expected_batch_size + 1e-6
    released = trainer.step(batch).vector
    assert torch.isfinite(released).all() and torch.isfinite(trainer.theta).all()
    assert trainer.engine.nonfinite >= 2  # once in the noise-free view above, once in the step
    result = trainer.train_epoch()
    assert math.isfinite(result.validation_loss)
    assert not [key for key in trainer.summary() if "nonfinite" in key]


def test_the_realised_poisson_rate_is_at_most_q() -> None:
    """The comparison's threshold is ⌊q·2⁵³⌋/2⁵³ ≤ q exactly (float32 ``rand`` < q gave up to q + 2⁻²⁴),
    and 10⁷ draws land within sampling error of q."""
    n = 60_000
    for q in (1000 / n, 0.1, 1 / 3, 0.01 + 2**-30, 256 / 60_000):
        assert Fraction(poisson_threshold(q)) <= Fraction(q)
        assert Fraction(q) - Fraction(poisson_threshold(q)) < Fraction(1, 2**53)
    q = 1000 / n
    draws = 10**7
    hits = int(poisson_mask(draws, q, cpu_generator(2**200 + 7)).sum())
    assert abs(hits - draws * q) < 5 * math.sqrt(draws * q * (1 - q))
    # torch's float64 uniforms lie on the grid k·2⁻⁵³, so P(u < threshold) is the threshold itself
    uniforms = torch.rand(10_000, generator=cpu_generator(11), dtype=torch.float64) * 2.0**53
    assert torch.equal(uniforms, uniforms.round())


def test_a_method_without_result_reads_alike_whether_its_secret_count_was_zero_or_every_trial_failed() -> (
    None
):
    """Under repeat-and-select, "every trial failed, because …" beside silence for K = 0 would tell K ≥ 1:
    both are named, without a reason. A fixed count gives the first trial's reason."""
    doc = copy.deepcopy(REPEAT_AND_SELECT)
    doc["methods"] = {"dpsgd": {}, "dp-pmlf": {}}
    spec = parse_spec(doc)
    failed = {"method": "dp-pmlf", "status": "failed", "reason": "TrainingDivergedError: non-finite"}
    outcome = SweepOutcome([], "", 0.0, 0.0, 0, [failed], _sweep_cost(1.0, 0.02, 10, 1e-5, None))
    withheld = NO_TRIAL + SECRET_FAILURE
    assert failed_methods(spec, [outcome]) == {"dpsgd": withheld, "dp-pmlf": withheld}
    doc["budget"] = {"trials_per_method": 1}
    doc["search"] = {"sampler": "random", "seed": 0}
    fixed = parse_spec(doc)
    assert failed_methods(fixed, [outcome])["dp-pmlf"] == NO_TRIAL + "TrainingDivergedError: non-finite"
