"""The iterate average a run evaluates and releases (``ema``), against a hand-rolled average of the
iterates the same run took."""

from __future__ import annotations

import pytest
import torch

from dptune.base.errors import InputError
from dptune.engine.dataset import Dataset
from dptune.training.config import RunConfig
from tests.helpers import digits_trainer


def hand_average(iterates: list[torch.Tensor], ceiling: float) -> torch.Tensor:
    """x̄_0 = x_0, then x̄_{t+1} = μ_t x̄_t + (1 − μ_t) x_{t+1} with μ_t = min(ceiling, (1 + t)/(10 + t))."""
    average = iterates[0].clone()
    for t, x in enumerate(iterates[1:]):
        mu = min(ceiling, (1 + t) / (10 + t))
        average = mu * average + (1 - mu) * x
    return average


@pytest.mark.parametrize("ceiling", [0.5, 0.999])
def test_a_run_evaluates_and_releases_the_average_of_its_iterates(digits: Dataset, ceiling: float) -> None:
    trainer = digits_trainer(digits, "dpsgd-momentum", ema=ceiling, epochs=2)
    iterates = [trainer.theta.clone()]
    for indices in trainer._batches() + trainer._batches():
        trainer.step(indices)
        iterates.append(trainer.theta.clone())
    expected = hand_average(iterates, ceiling)
    assert not torch.allclose(expected, trainer.theta)  # the average is not the last iterate
    torch.testing.assert_close(trainer.released_parameters, expected)

    released = trainer.released_module()
    flat = torch.cat([p.detach().reshape(-1) for p in released.parameters()])
    torch.testing.assert_close(flat, expected)
    with torch.no_grad():
        logits = released(digits.test_x)
    by_hand = float((logits.argmax(dim=1) == digits.test_y).float().mean())
    assert trainer.final_test()[1] == pytest.approx(by_hand)


def test_without_ema_a_run_releases_its_last_iterate(digits: Dataset) -> None:
    trainer = digits_trainer(digits, "dpsgd")
    trainer.fit()
    assert trainer.average is None
    assert torch.equal(trainer.released_parameters, trainer.theta)


def test_the_average_does_not_change_the_trajectory(digits: Dataset) -> None:
    """Post-processing only: one seed takes the same iterates and spends the same ε with or without it."""
    plain = digits_trainer(digits, "dpsgd", epochs=2)
    averaged = digits_trainer(digits, "dpsgd", epochs=2, ema=0.9)
    plain.fit()
    averaged.fit()
    assert torch.equal(plain.theta, averaged.theta)
    assert plain.summary()["epsilon_spent"] == averaged.summary()["epsilon_spent"]


def test_a_checkpoint_carries_the_average(digits: Dataset, tmp_path) -> None:
    straight = digits_trainer(digits, "dpsgd-momentum", epochs=2, ema=0.99)
    straight.fit()
    first = digits_trainer(digits, "dpsgd-momentum", epochs=2, ema=0.99)
    first.train_epoch()
    torch.save(first.state_dict(), tmp_path / "state.pt")
    resumed = digits_trainer(digits, "dpsgd-momentum", epochs=2, ema=0.99)
    resumed.load_state_dict(torch.load(tmp_path / "state.pt", weights_only=False))
    resumed.fit()
    assert torch.equal(resumed.released_parameters, straight.released_parameters)


@pytest.mark.parametrize("value", [0.0, 1.0, -0.5])
def test_an_ema_outside_zero_to_one_is_refused(value: float) -> None:
    with pytest.raises(InputError, match="ema"):
        RunConfig(method="dpsgd", epsilon=1.0, ema=value)
