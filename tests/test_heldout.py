"""Private held-out data (``privacy.validation: private``): every score on the held-out split is a count of
correct predictions with Gaussian noise, and its own guarantee is the exact composition of those counts
(checked against dp-accounting's PLD of the same Gaussian mechanisms); a dataset factory's held-out split
is private unless the spec says otherwise; the noise reaches a run's scores, and no loss on the split."""

from __future__ import annotations

import math
import statistics
from pathlib import Path

import pytest
from dp_accounting import dp_event
from dp_accounting.pld import pld_privacy_accountant
from dp_accounting.rdp import rdp_privacy_accountant
from scipy import integrate, stats

from dptune.base.errors import InputError
from dptune.engine.data import load_dataset
from dptune.engine.dataset import Dataset
from dptune.privacy.heldout import (
    HeldOutScores,
    PrivateHeldOut,
    gaussian_delta,
    heldout_epsilon,
    heldout_noise,
)
from dptune.sweep.held_out import held_out_scores, with_held_out
from dptune.sweep.spec import parse_spec
from dptune.training.config import RunConfig
from dptune.training.train import Trainer


def pld_epsilon_of_counts(queries: int, noise: float, delta: float) -> float:
    accountant = pld_privacy_accountant.PLDAccountant(value_discretization_interval=1e-4)
    accountant.compose(dp_event.GaussianDpEvent(noise), queries)
    return float(accountant.get_epsilon(delta))


@pytest.mark.parametrize(("queries", "epsilon", "delta"), [(1, 1.0, 1e-5), (40, 0.5, 1e-5), (600, 3.0, 1e-6)])
def test_the_noise_of_held_out_counts_composes_to_its_target_by_dp_accountings_pld(
    queries: int, epsilon: float, delta: float
) -> None:
    noise = heldout_noise(queries, epsilon, delta)
    assert pld_epsilon_of_counts(queries, noise, delta) == pytest.approx(epsilon, rel=2e-3)
    assert heldout_epsilon(queries, noise, delta) == pytest.approx(epsilon, rel=1e-6)
    rdp = rdp_privacy_accountant.RdpAccountant()  # RDP's conversion is looser, never tighter
    rdp.compose(dp_event.GaussianDpEvent(noise), queries)
    assert rdp.get_epsilon(delta) >= epsilon
    assert heldout_noise(queries, epsilon, delta) < heldout_noise(2 * queries, epsilon, delta)


def test_the_analytic_gaussian_is_its_closed_form_at_zero() -> None:
    """δ(0) = 2Φ(1/(2s)) − 1: the total variation between N(0, s²) and N(1, s²)."""
    for s in (0.3, 1.0, 7.0):
        assert gaussian_delta(0.0, s) == pytest.approx(math.erf(1 / (2 * s * math.sqrt(2))), rel=1e-9)


def spec_doc(dataset: dict, **privacy: object) -> dict:
    return {
        "name": "held",
        "dataset": dataset,
        "model": {"name": "mlp"},
        "privacy": {"epsilon": [1.0, 3.0], "delta": 1e-5, **privacy},
        "training": {"epochs": 4, "batch_size": 128},
        "budget": {"trials_per_method": 3},
        "selection": {"reruns": 2},
        "methods": {"dpsgd": {"epochs": {"int": [2, 6]}}, "dp-pmlf": {}},
    }


FACTORY = {"factory": "own_code:digits_vectors"}


def test_a_factorys_held_out_split_is_private_unless_the_spec_says_it_is_public(monkeypatch) -> None:
    monkeypatch.syspath_prepend(str(Path(__file__).parents[1] / "sweeps" / "examples"))
    assert parse_spec(spec_doc({"name": "digits"})).validation == "public"
    assert parse_spec(spec_doc(FACTORY)).validation == "private"
    assert parse_spec(spec_doc(FACTORY, validation="public")).validation == "public"
    assert parse_spec(spec_doc({"name": "digits"}, validation="private")).validation == "private"
    for doc in (
        spec_doc(FACTORY, validation="secret"),
        spec_doc(FACTORY) | {"budget": {"trials_per_method": {"distribution": "poisson", "mean": 3}}},
    ):
        with pytest.raises(InputError) as refused:
            parse_spec(doc | {"search": {"sampler": "random"}})
        assert refused.value.field == "privacy.validation"


def test_every_score_a_private_spec_can_make_is_counted_where_a_decision_reads_it() -> None:
    """Per ε (2) and method (2): 3 trials, each scored on the validation part once, at its end (no
    scheduler reads its rungs), and 2 re-runs scored on the final-test part alone, with the sweep's
    majority-class baseline: 12 validation and 2·(4 + 1) = 10 final-test scores, the noise calibrated to
    the larger count at the smallest target ε = 1. With ASHA a trial is scored at every epoch of its
    longest plan (dpsgd searches 2–6 epochs, dp-pmlf runs 4): 2·3·(6 + 4)."""
    spec = parse_spec(spec_doc({"name": "digits"}, validation="private"))
    assert held_out_scores(spec, None) == HeldOutScores(validation=12, final_test=10)
    private = with_held_out(spec, None, 1e-5)
    assert private.held_out == PrivateHeldOut.calibrated(HeldOutScores(12, 10), 1.0, 1e-5)
    assert {run.heldout_noise for run in private.runs.values()} == {private.held_out.noise}
    assert not any(run.validation_every_epoch for run in private.runs.values())
    assert pld_epsilon_of_counts(12, private.held_out.noise, 1e-5) == pytest.approx(1.0, rel=2e-3)
    asha = parse_spec(spec_doc({"name": "digits"}, validation="private") | {"scheduler": {"name": "asha"}})
    assert held_out_scores(asha, None) == HeldOutScores(validation=60, final_test=10)
    assert all(run.validation_every_epoch for run in with_held_out(asha, None, 1e-5).runs.values())
    public = parse_spec(spec_doc({"name": "digits"}))
    assert with_held_out(public, None, 1e-5) is public


@pytest.fixture(scope="module")
def digits() -> Dataset:
    return load_dataset("digits")


def test_a_runs_scores_on_private_held_out_data_are_its_counts_with_their_noise(digits: Dataset) -> None:
    """The scores of one set of parameters: exact without noise; with σ_v, the exact count c plus N(0, σ_v²)
    clamped to [0, n] (n the held-out part's size), divided by n, and no loss: the draws' mean and standard
    deviation against the censored normal's, integrated here (c may lie near 0 after one epoch)."""
    base = {"method": "dpsgd", "dataset": "digits", "model": "mlp", "epsilon": 2.0, "delta": 1e-4}
    exact = Trainer(RunConfig(**base, epochs=1, batch_size=128), digits)
    loss, accuracy = exact.evaluate(digits.val_x, digits.val_y)
    exact_count = accuracy * len(digits.val_y)
    assert math.isfinite(loss) and exact_count == pytest.approx(round(exact_count))
    noisy = Trainer(RunConfig(**base, epochs=1, batch_size=128, heldout_noise=3.0), digits)
    noisy.theta = exact.theta.clone()
    scores = [noisy.evaluate(digits.val_x, digits.val_y) for _ in range(400)]
    assert all(math.isnan(loss) for loss, _ in scores)
    n = len(digits.val_y)
    counts = [score * n for _, score in scores]

    def moment(power: int) -> float:
        inside = integrate.quad(lambda z: (exact_count + 3.0 * z) ** power * stats.norm.pdf(z), *limits)[0]
        return inside + n**power * stats.norm.sf(limits[1])  # below 0: 0; above n: n

    limits = (-exact_count / 3.0, (n - exact_count) / 3.0)
    mean = moment(1)
    sd = math.sqrt(moment(2) - mean**2)
    assert statistics.fmean(counts) == pytest.approx(mean, abs=4 * sd / math.sqrt(400))
    assert statistics.stdev(counts) == pytest.approx(sd, rel=0.15)
