"""The effective step E = η·C·g: every method's declared DC gain g against a simulated steady state, and
the learning rate a run derives from E against closed forms."""

from __future__ import annotations

import pytest
import torch

from dptune.cli import main
from dptune.engine.persample import FlatModel
from dptune.methods import METHODS, Hyper, get_method
from dptune.models import build_model
from dptune.sweep.results import run_settings, trial_settings
from dptune.training.config import RunConfig
from tests.helpers import digits_trainer

pytestmark = pytest.mark.in_process  # starts no Ray, server or browser: `make test` runs it beside others

STEPS = 3000


def post_processed(method: str, release: torch.Tensor) -> torch.Tensor:
    """The direction after ``STEPS`` steps of the method's post-processing (default parameters), fed
    the same released vector ``release`` at every step."""
    flat = FlatModel(build_model("mlp", {}, torch.zeros(2, 1, 8, 8), 10))
    theta = flat.flatten().double()
    hyper = Hyper(1.0, 1.0, STEPS, expected_batch_size=100.0, layout=flat.layout)
    built = get_method(method).build(get_method(method).resolve({}), 1.0, hyper)
    states = [stage.init(theta) for stage in built.post]
    direction = release
    for _ in range(STEPS):
        direction = release
        for i, stage in enumerate(built.post):
            direction, states[i] = stage.update(direction, states[i])
    return direction


SLOW_TO_SETTLE = ("dp-galore", "lp-dp-galore", "dp-adambc", "lp-dpadam", "lp-dpadambc")
"""Methods whose post-processing takes many steps to settle (the slow tier runs them)."""


@pytest.mark.parametrize(
    "method", [pytest.param(m, marks=pytest.mark.slow) if m in SLOW_TO_SETTLE else m for m in METHODS]
)
def test_the_declared_gain_is_the_steady_state_of_the_post_processing(method: str) -> None:
    """g·v is where the direction settles under a constant release v; a method without a gain (None) is
    scale-free: ten times the release moves its direction by far less than ten times."""
    size = FlatModel(build_model("mlp", {}, torch.zeros(2, 1, 8, 8), 10)).flatten().numel()
    release = torch.linspace(-1.0, 1.0, size, dtype=torch.float64) + 0.01
    gain = get_method(method).build(get_method(method).resolve({}), 1.0, Hyper(1.0, 1.0, 1)).gain
    settled = post_processed(method, release)
    if gain is not None:
        assert torch.allclose(settled, gain * release, rtol=1e-6, atol=1e-9)
    else:
        louder = post_processed(method, 10 * release)
        assert float(louder.norm() / settled.norm()) < 2.0


@pytest.mark.parametrize(
    ("method", "params", "expected"),
    [
        ("dpsgd", {}, 2.0 / 0.1),  # η = E / C
        ("dpsgd-momentum", {"momentum": 0.6}, 2.0 * 0.4 / 0.1),  # η = E (1 − μ) / C
        ("innerouter", {"outer_momentum": 0.75}, 2.0 * 0.25 / 0.1),
        ("lp-dpsgd", {}, 2.0 / 0.1),  # unit DC gain filter
        ("dp-pmlf", {}, 2.0 / 0.1),
        ("lp-dpadam", {}, 2.0),  # Adam: η = E
    ],
)
def test_a_run_derives_its_learning_rate_from_the_effective_step(
    method: str, params: dict, expected: float
) -> None:
    config = RunConfig(method=method, epsilon=1.0, clip=0.1, effective_lr=2.0, params=params)
    assert config.learning_rate == pytest.approx(expected)
    assert RunConfig(method=method, epsilon=1.0, clip=0.1, lr=0.3, params=params).learning_rate == 0.3


def test_the_trainer_steps_with_the_derived_learning_rate(digits) -> None:
    trainer = digits_trainer(digits, "dpsgd-momentum", {"momentum": 0.5}, clip=0.5, effective_lr=1.0)
    assert trainer.method.update.lr == pytest.approx(1.0 * 0.5 / 0.5)
    summary = trainer.summary()
    assert summary["lr"] == pytest.approx(1.0) and summary["effective_lr"] == 1.0


def test_dptune_train_refuses_both_lr_and_effective_lr(capsys) -> None:
    argv = ["train", "--method", "dpsgd", "--epsilon", "1", "--dataset", "digits", "--model", "mlp"]
    assert main([*argv, "--lr", "0.5", "--effective-lr", "1"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "effective-lr" in err[0]


@pytest.mark.parametrize(
    ("base", "drawn", "recorded_lr"),
    [
        ({"effective_lr": 4.0}, {"clip": 0.2}, None),  # the spec sets E: its lr field is never read
        ({}, {"effective_lr": 8.0}, None),  # a drawn E sets η too
        ({}, {"lr": 0.7}, 0.7),  # no E: lr is the step
    ],
)
def test_a_trial_records_no_learning_rate_that_its_effective_step_overrides(
    base: dict, drawn: dict, recorded_lr: float | None
) -> None:
    """What MLflow shows for a trial: ``lr`` only where it is the η the run steps with."""
    run = RunConfig(method="dpsgd", epsilon=1.0, clip=0.1, lr=0.3, **base)
    recorded = trial_settings(run_settings(run, 1e-5), drawn)
    assert recorded.get("lr") == recorded_lr
    assert all(recorded[k] == v for k, v in (base | drawn).items())
