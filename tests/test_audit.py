"""The one-run audit: its bound against independent computations, every real method at or below its
claim, and broken variants, injected through the same code path, caught.

Measured at seed 0 (in brackets: seeds 0–7 at m = 20,000, seeds 0–5 at m = 50,000). Claimed ε = 1.988
(RDP, δ = 1e-5, one unsubsampled release at z = 2.16), lower bounds at 95%:
* real methods, m = 20,000: 0.748 (every k = 1 method: same draws, same standardised release), 1.341
  (dp-pmlf, innerouter, k = 2);
* dp-pmlf, k = 3, each snapshot clipped separately and summed (sensitivity 3C), m = 20,000: 3.703
  [3.10–3.70] (340 of 342 guesses right); real dp-pmlf, k = 3: 0.892 [0.89–1.46];
* dpsgd adding half its noise while declaring the original σ, m = 50,000: 2.244 [2.22–2.66]
  (531 of 570 right); real dpsgd at m = 50,000: 1.010 [1.01–1.30].
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, replace

import numpy as np
import pytest
import torch
from scipy.special import logit
from scipy.stats import beta

from dptune.engine.persample import GhostEngine
from dptune.methods import METHODS, Method, Privatize
from dptune.privacy.accounting import RDP_ORDERS
from dptune.training import audit
from dptune.training.audit import (
    AuditConfig,
    audit_step,
    audited_method,
    epsilon_lower_bound,
    p_value,
    run_audit,
)
from tests.test_cli import run

pytestmark = pytest.mark.in_process  # starts no Ray, server or browser: `make test` runs it beside others

EPSILON = 2.0
CANARIES = 20_000
CANARIES_HALF_NOISE = 50_000  # a 2× violation is the hardest to see: more canaries, wider margin


def binomial_tail(r: int, q: float, u: int) -> float:
    """P[Binomial(r, q) ≥ u] summed term by term."""
    return sum(math.comb(r, j) * q**j * (1 - q) ** (r - j) for j in range(max(u, 0), r + 1))


def paper_p_value(m: int, r: int, v: int, epsilon: float, delta: float) -> float:
    """The (ε, δ) bound written out from its definition: f(v) + 2mδ·max_i (f(v−i) − f(v))/i."""
    q = math.exp(epsilon) / (1 + math.exp(epsilon))
    f = [binomial_tail(r, q, u) for u in range(v + 1)]
    spread = max(((f[v - i] - f[v]) / i for i in range(1, v + 1)), default=0.0)
    return min(f[v] + 2 * m * delta * spread, 1.0)


def gaussian_rdp_epsilon(z: float, delta: float) -> float:
    """ε of one Gaussian release at noise multiplier z: RDP α/(2z²) (Mironov 2017, Prop. 7) converted
    by Balle et al. 2020, Thm. 21, minimised over the accountant's orders."""
    alpha = np.array(RDP_ORDERS)
    eps = alpha / (2 * z**2) - (math.log(delta) + np.log(alpha)) / (alpha - 1) + np.log((alpha - 1) / alpha)
    return float(eps.min())


@pytest.mark.parametrize(("guesses", "correct"), [(100, 80), (1000, 700), (570, 531), (64, 64)])
def test_pure_dp_bound_is_the_clopper_pearson_limit(guesses: int, correct: int) -> None:
    """δ = 0: W is dominated by Binomial(r, e^ε/(1+e^ε)), so the bound is logit of the one-sided 95%
    Clopper–Pearson lower limit of the success rate, the 5% quantile of Beta(v, r − v + 1)."""
    expected = float(logit(beta.ppf(0.05, correct, guesses - correct + 1)))
    assert epsilon_lower_bound(10_000, guesses, correct, 0.0) == pytest.approx(expected, abs=1e-5)


@pytest.mark.parametrize(
    ("m", "r", "v", "delta"), [(1000, 100, 80, 1e-5), (20_000, 200, 170, 1e-5), (500, 60, 60, 1e-3)]
)
def test_approximate_dp_bound_matches_its_definition(m: int, r: int, v: int, delta: float) -> None:
    for epsilon in (0.0, 0.5, 1.0, 2.0, 3.0):
        assert p_value(m, r, v, epsilon, delta) == pytest.approx(
            paper_p_value(m, r, v, epsilon, delta), rel=1e-9, abs=1e-15
        )
    bound = epsilon_lower_bound(m, r, v, delta)
    assert bound > 0
    assert paper_p_value(m, r, v, bound, delta) <= 0.05 < paper_p_value(m, r, v, bound + 1e-5, delta)
    assert bound < epsilon_lower_bound(m, r, v, 0.0)  # δ > 0 can only weaken the bound


RATIO_TO_SIGMA = {"dpsgd-momentum": 1.99, "fo-dp-sgd": 1 / 0.9}
"""z_t / σ of the audited step (the last of 100): C/C_t = min(2, 1 + 99/100), and 1/β."""


@pytest.mark.parametrize("method", sorted(METHODS))
@pytest.mark.slow
def test_every_real_method_stays_at_or_below_its_claim(method: str) -> None:
    result = run_audit(AuditConfig(method, EPSILON, canaries=CANARIES, seed=0))
    z = result["step_noise_multiplier"]
    assert z == pytest.approx(result["noise_multiplier"] * RATIO_TO_SIGMA.get(method, 1.0))
    assert result["epsilon_claimed"] == pytest.approx(gaussian_rdp_epsilon(z, 1e-5), rel=1e-9)
    assert 0.99 * EPSILON <= result["epsilon_claimed"] <= EPSILON
    assert result["snapshots"] == METHODS[method].resolve({}).get("k", 1)  # every iterate it reads
    assert 0 < result["epsilon_lower_bound"] <= result["epsilon_claimed"]  # canaries seen, claim holds
    assert not result["claim_refuted"]


class PerSnapshotClipping(GhostEngine):
    """The public DP-PMLF code's bug (docs/audit.md): each snapshot's gradient clipped on its
    own, the β weights dropped, the k clipped gradients summed: one sample moves the sum by up to k·C."""

    def clipped_sum(
        self,
        iterates: list[torch.Tensor],
        weights: torch.Tensor,
        x: torch.Tensor,
        y: torch.Tensor,
        clip: float,
    ) -> torch.Tensor:
        total = torch.zeros_like(iterates[0])
        for theta in iterates:
            total += super().clipped_sum([theta], torch.ones(1), x, y, clip)
        return total


@pytest.mark.slow  # trains or plans beyond the fast tier's few steps
def test_per_snapshot_clipping_is_caught() -> None:
    config = AuditConfig("dp-pmlf", EPSILON, params={"k": 3}, canaries=CANARIES, seed=0)
    real = run_audit(config)
    broken = run_audit(config, engine=PerSnapshotClipping)
    assert broken["snapshots"] == 3 and broken["epsilon_claimed"] == real["epsilon_claimed"]
    assert real["epsilon_lower_bound"] <= real["epsilon_claimed"] < broken["epsilon_lower_bound"]
    assert broken["claim_refuted"]


@dataclass(frozen=True)
class UnderNoisedPrivatize(Privatize):
    """A release that declares ``declared(t)`` to the accountant, whatever noise it adds."""

    declared: Callable[[int], float]

    def noise_multiplier(self, step: int) -> float:
        return self.declared(step)


def halve_noise(method: Method) -> Method:
    """``method`` adding half its noise while still declaring the original σ."""
    r = method.privatize
    return replace(
        method,
        privatize=UnderNoisedPrivatize(r.name, r.clip, lambda t: 0.5 * r.noise_std(t), r.noise_multiplier),
    )


@pytest.mark.slow  # trains or plans beyond the fast tier's few steps
def test_halved_noise_is_caught() -> None:
    config = AuditConfig("dpsgd", EPSILON, canaries=CANARIES_HALF_NOISE)
    method, _ = audited_method(config, config.check())
    real = audit_step(method, config.audited_step, config.canaries, config.delta, seed=0)
    broken = audit_step(halve_noise(method), config.audited_step, config.canaries, config.delta, seed=0)
    assert broken.step_noise_multiplier == real.step_noise_multiplier  # it claims the original σ
    assert real.epsilon_lower_bound <= real.epsilon_claimed < broken.epsilon_lower_bound


AUDIT = ["audit", "--method", "dp-pmlf", "--epsilon", "2", "--canaries", "2000"]


def test_cli_json_contract(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run([*AUDIT, "--method", "dpsgd-momentum", "--json"], capsys)
    assert code == 0
    result = json.loads(out.strip().splitlines()[-1])
    assert set(result) >= {
        "method",
        "epsilon_claimed",
        "epsilon_lower_bound",
        "canaries",
        "guesses",
        "correct",
        "delta",
        "noise_multiplier",
        "confidence",
    }
    assert result["method"] == "dpsgd-momentum" and result["canaries"] == 2000
    assert result["delta"] == 1e-5 and result["confidence"] == 0.95
    assert 0 <= result["correct"] <= result["guesses"] <= 2000
    assert result["epsilon_lower_bound"] <= result["epsilon_claimed"] <= 2.0


def test_cli_summary_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(AUDIT, capsys)
    assert code == 0 and "consistent with the claim" in out and len(out.strip().splitlines()) == 1


@pytest.mark.slow
def test_cli_exits_1_when_the_claim_is_refuted(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    real_run_audit = audit.run_audit
    monkeypatch.setattr(audit, "run_audit", lambda config: real_run_audit(config, engine=PerSnapshotClipping))
    argv = [*AUDIT, "--param", "k=3", "--canaries", str(CANARIES), "--seed", "0", "--json"]
    code, out, _ = run(argv, capsys)
    assert code == 1
    assert json.loads(out.strip().splitlines()[-1])["claim_refuted"] is True


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        (["--epsilon", "0"], "epsilon"),
        (["--epsilon", "1e-6"], "epsilon"),
        (["--epsilon", "abc"], "--epsilon"),
        (["--delta", "1.5"], "delta"),
        (["--clip", "0"], "clip"),
        (["--canaries", "1"], "canaries"),
        (["--steps", "0"], "steps"),
        (["--step", "100"], "step"),
        (["--method", "nope"], "method"),
        (["--param", "k=0"], "param.k"),
        (["--accountant", "moments"], "--accountant"),
        (["--attack-seed", "-3"], "attack-seed"),
    ],
)
def test_bad_audit_input_exits_2_with_one_line(extra: list[str], field: str, capsys) -> None:
    code, out, err = run([*AUDIT, *extra], capsys)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and field in lines[0] and "Traceback" not in err
