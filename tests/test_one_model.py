"""One model per total across methods (``privacy.release: one``): the methods' tuning trials one phase on
one subset, the best selection on validation released once. Its plan, recomposed from its record alone by
dp-accounting with the release taken as the worst of the methods' (it is chosen from the tuning's
outputs), stays within the total; publishing one model per method instead costs more than any one card
says, and the cards and summary say so."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import numpy as np
import pytest
from dp_accounting.rdp import rdp_privacy_accountant as dp_rdp

from dptune.base.errors import InputError
from dptune.privacy.accounting import RDP_ORDERS
from dptune.privacy.compositions import AMPLIFIED_PLD_COMPOSITION, PLD_COMPOSITION
from dptune.privacy.plan_privacy import (
    Ran,
    curve_privacy,
    joint_privacy,
    plan_record,
    released_privacy,
    worst_release,
)
from dptune.privacy.plans import MethodPlan
from dptune.privacy.tuning import TrialCount
from dptune.sweep.chain.selection import ACROSS_METHODS_RULE
from dptune.sweep.pipeline import pipeline, plan_setup, planned
from dptune.sweep.plan import MIN_RANKING_STEPS, MIN_SPREAD_TRIALS, plan_total
from dptune.sweep.release_policies import ONE, PER_METHOD
from dptune.sweep.releases import pipeline_release
from dptune.sweep.spec import parse_spec
from dptune.sweep.summary import format_plan
from dptune.training.config import RunConfig
from tests.test_plan import (
    DP_ACCOUNTING_SLACK,
    INTEGERS,
    N_FASHION,
    amplified_by_hand,
    dp_curve,
    phase_rdp,
    recomposed,
)

pytestmark = pytest.mark.in_process  # starts no Ray, server or browser: `make test` runs it beside others

TRAINING = {"epochs": 20, "batch_size": 4096, "clip": 0.1}


def spec_doc(totals: list[float], trials: int, methods: dict[str, Any], **privacy: Any) -> dict[str, Any]:
    return {
        "name": "one",
        "dataset": {"name": "fashion-mnist"},
        "model": {"name": "scatter-linear"},
        "privacy": {"epsilon": totals, "delta": 1e-5, "includes_tuning": True} | privacy,
        "training": TRAINING,
        "budget": {"trials_per_method": trials},
        "search": {"sampler": "tpe"},
        "methods": methods,
    }


ALIKE = {  # every method trains with one privacy configuration, the same for all: PLD composes them
    "dpsgd": {"lr": {"loguniform": [0.5, 8.0]}},
    "dp-pmlf": {"lr": {"loguniform": [0.5, 8.0]}, "k": 2, "beta": {"uniform": [0.0, 0.9]}},
    "lp-dpsgd": {"lr": {"loguniform": [0.5, 8.0]}, "filter": {"preset": "doppler-first-order-v1"}},
}
APART = {  # the methods' batches differ: their mechanisms too, and the pool composes in RDP
    "dpsgd": {"lr": {"loguniform": [0.5, 8.0]}},
    "dp-pmlf": {"lr": {"loguniform": [0.5, 8.0]}, "k": 2, "batch_size": 2048},
}


def one_model_recomposed(doc: dict[str, Any]) -> float:
    """ε of one model across methods from one method's written-out plan alone: the tuning phase's runs
    are every method's (the spec's trials per method times the methods it was released among), each at
    the per-order worst of the phase's mechanisms, and the release the worst of the methods' release
    mechanisms (``recomposed``, dp-accounting)."""
    tuning, release = doc["stages"]
    methods = len(doc["released_among"])
    return recomposed(doc | {"stages": [tuning | {"runs": tuning["runs"] * methods}, release]})


@pytest.mark.slow
@pytest.mark.parametrize("methods", [ALIKE, APART], ids=["alike", "apart"])
@pytest.mark.parametrize("trials", [2, 4])
def test_a_one_model_plan_recomposed_by_dp_accounting_stays_within_its_total(
    methods: dict[str, Any], trials: int
) -> None:
    spec = parse_spec(spec_doc([1.0, 3.0, 8.0], trials, methods))
    plans = planned(spec, N_FASHION)
    assert plans is not None
    for total in (1.0, 3.0, 8.0):
        mine = [p for p in plans if p.total_epsilon == total]
        assert {p.pool for p in mine} == {tuple(methods)}
        assert {p.epsilon for p in mine} == {mine[0].epsilon} and 0.97 * total <= mine[0].epsilon <= total
        for plan in mine:
            doc = plan.as_dict()
            assert doc["released_among"] == list(methods) and doc["selection_rule"] == ACROSS_METHODS_RULE
            again = one_model_recomposed(doc)
            assert again <= total * (1 + DP_ACCOUNTING_SLACK), (total, again)
        by_pld = mine[0].composition in (PLD_COMPOSITION, AMPLIFIED_PLD_COMPOSITION)
        assert by_pld == (methods is ALIKE)


@pytest.mark.slow
def test_one_model_costs_less_than_publishing_one_per_method_and_each_card_says_what_it_covers() -> None:
    """At one total, the one model's card is the plan's (ε, δ) within the total, covering every method's
    tuning trials; the same spec released per method has each card within the total but publishing all
    of them above it, which each card states, with the note that a pick among them is covered only by
    that figure."""
    one = planned(parse_spec(spec_doc([3.0], 4, ALIKE)), N_FASHION)
    each = planned(parse_spec(spec_doc([3.0], 4, ALIKE, release="per_method")), N_FASHION)
    assert one is not None and each is not None
    k = one[0].tuning.runs  # the planner's spread (``plan_spread``): at most the spec's 4
    counts = {p.method: Ran(k, 0, k) for p in one} | {"dp-pmlf": Ran(k, 1, k)}
    epsilon, delta = released_privacy(one, counts)
    assert epsilon == one[0].epsilon <= 3.0 and delta == 1e-5
    assert joint_privacy(one, counts)[0] == pytest.approx(epsilon, rel=2e-3)  # one release, counted once
    record = plan_record({p.method: p for p in each}, {p.method: Ran(4, 1, 4) for p in each})
    assert all(row["epsilon_including_tuning"] <= 3.0 for row in record["methods"])
    assert record["epsilon_including_tuning"] > 3.0 * 1.5
    run = RunConfig(method="dp-pmlf", dataset="fashion-mnist", model="scatter-linear", epsilon=3.0)
    result = {"trial_id": "t9", "test_accuracy": 0.88}
    card = pipeline_release(one, counts, "dp-pmlf", result, run, {}, "os-entropy", ONE).card
    assert card["epsilon"] == epsilon
    assert f"{3 * k} tuning trials across dpsgd, dp-pmlf, lp-dpsgd" in card["covers"]
    assert "the method included" in card["covers"] and "published_with_the_others" not in card
    whole = (record["epsilon_including_tuning"], record["delta"])
    (mine,) = [p for p in each if p.method == "dp-pmlf"]
    published = PER_METHOD.published(record)
    separate = pipeline_release(
        [mine], {"dp-pmlf": Ran(4, 1, 4)}, "dp-pmlf", result, run, {}, "os-entropy", PER_METHOD, published
    )
    assert separate.card["published_with_the_others"]["epsilon"] == whole[0]
    assert "not by its own ε" in separate.card["published_with_the_others"]["note"]
    assert separate.registered_name("exp") == "exp.dp-pmlf"
    assert (
        pipeline_release(one, counts, "dp-pmlf", result, run, {}, "os-entropy", ONE).registered_name("exp")
        == "exp"
    )


@pytest.mark.slow
def test_the_plan_table_says_how_the_trials_are_spread_and_that_the_method_is_counted() -> None:
    plans = planned(parse_spec(spec_doc([3.0], 2, ALIKE)), N_FASHION)
    assert plans is not None
    table = format_plan(plans)
    assert "the tuning trials of each of dpsgd, dp-pmlf, lp-dpsgd (as many per method as the line" in table
    assert "2 trials per method (the planner's spread" in table
    assert "its choice counted" in table
    assert "and the best released once at ε_B" in table
    kept = parse_spec(spec_doc([3.0], 2, ALIKE) | {"selection": {"keep_method": "dp-pmlf"}})
    kept_table = format_plan(plans, kept.release)
    assert (
        "and dp-pmlf's (selection.keep_method) unless another's beats it by more than z_m standard errors "
        "of the difference, z_m = Φ⁻¹(1 − Φ(−1)/m) for the m trials read on validation that the challenger "
        "was chosen among, one per run at each rung (1 for one, 1.75 for four), released once at ε_B"
        in " ".join(kept_table.split())
    )
    points = {"dpsgd": {"lr": 1.0}, "dp-pmlf": {"lr": 1.0, "beta": 0.5}}  # each a whole configuration
    starts = {
        m: space | {"start": [points[m]], "keep_start": True} if m in points else space
        for m, space in ALIKE.items()
    }
    family = parse_spec(spec_doc([3.0], 2, starts) | {"selection": {"keep_method": "dp-pmlf"}})
    started = planned(family, N_FASHION)
    assert started is not None
    lines = format_plan(started, family.release).splitlines()
    selection = {line.split()[1]: line for line in lines if line.startswith("(selection: ")}
    assert selection.keys() == {"dpsgd", "dp-pmlf"}  # each method that keeps a start point, its own line
    assert "here m is instead one family" in selection["dp-pmlf"]  # the kept method's: one family
    assert "here m is instead one family" not in selection["dpsgd"]
    each = planned(parse_spec(spec_doc([3.0], 4, ALIKE, release="per_method")), N_FASHION)
    assert each is not None
    assert "picking one of them by a score is a selection no card counts" in format_plan(each)


def ledger_steps(plan: MethodPlan) -> int:
    """A tuning trial's noisy steps, read off its written-out mechanisms."""
    (mechanisms,) = plan.as_dict()["stages"][0]["mechanisms"]
    return sum(m["steps"] for m in mechanisms)


@pytest.mark.slow
@pytest.mark.parametrize("total", [3.0, 8.0])
def test_one_model_runs_the_most_trials_per_method_whose_trials_make_enough_steps(total: float) -> None:
    """``plan_spread`` against plans made by hand at each count: the one model's k per method is the
    largest up to the spec's 8 whose trials make at least ``MIN_RANKING_STEPS`` noisy steps (the plan at
    k + 1, and at the spec's 8, makes fewer); the total's sweep runs k per method, TPE's random start-up
    rescaled to them; the same spec released per method runs the spec's 8, which the user chose for it."""
    spec = parse_spec(spec_doc([total], 8, ALIKE))
    plans = planned(spec, N_FASHION)
    assert plans is not None
    k = plans[0].tuning.runs
    assert MIN_SPREAD_TRIALS <= k < 8 and {p.tuning.runs for p in plans} == {k}
    setup = plan_setup(spec, 1e-5)

    def at(count: int) -> MethodPlan:
        fixed = replace(setup, trials=TrialCount("fixed", count))
        (first, *_) = plan_total(fixed, total, N_FASHION) or [None]
        assert first is not None
        return first

    assert ledger_steps(at(k)) >= MIN_RANKING_STEPS > max(ledger_steps(at(k + 1)), ledger_steps(at(8)))
    assert ledger_steps(plans[0]) == ledger_steps(at(k)) and plans[0].epsilon <= total
    sweep = pipeline(spec, 0, plans)
    assert sweep.trials == TrialCount("fixed", k) and sweep.startup_trials == max(2, math.ceil(k / 3))
    each = planned(parse_spec(spec_doc([total], 8, ALIKE, release="per_method")), N_FASHION)
    assert each is not None and {p.tuning.runs for p in each} == {8}


def test_one_model_with_a_secret_trial_count_is_refused_in_one_line() -> None:
    doc = spec_doc([3.0], {"distribution": "poisson", "mean": 4}, {m: {"lr": 1.0} for m in ALIKE})
    doc["search"] = {"sampler": "random"}
    doc["scheduler"] = {"name": "none"}
    with pytest.raises(InputError, match=r"privacy\.release: .*set privacy\.release: per_method"):
        parse_spec(doc)
    doc["privacy"]["release"] = "per_method"
    parse_spec(doc)
    with pytest.raises(InputError, match=r"privacy\.release: must be one of one, per_method"):
        parse_spec(spec_doc([3.0], 4, ALIKE, release="best"))
    without = spec_doc([3.0], 4, ALIKE, release="one")
    without["privacy"]["includes_tuning"] = False
    with pytest.raises(InputError, match=r"privacy\.release: is for a total ε"):
        parse_spec(without)


@pytest.mark.slow
def test_the_one_models_rdp_release_is_dp_accountings_worst_at_every_order() -> None:
    """``worst_release`` against dp-accounting: the per-order maximum of the two methods' release curves
    (either alone would understate a release chosen from the tuning's outputs)."""
    plans = planned(parse_spec(spec_doc([3.0], 4, APART)), N_FASHION)
    assert plans is not None
    release = plans[0].as_dict()["stages"][1]
    curves = [dp_curve(m) for m in release["mechanisms"]]
    assert len(curves) == 2 and not np.allclose(curves[0], curves[1])
    expected = np.max(curves, axis=0)
    integers = np.asarray([float(a).is_integer() for a in RDP_ORDERS])  # dp-accounting's exact orders
    assert np.allclose(worst_release(plans)[integers], expected[integers], rtol=1e-6)
    epsilon = dp_rdp.compute_epsilon(RDP_ORDERS, expected, 1e-5)[0]
    assert math.isfinite(epsilon)


@pytest.mark.slow
def test_the_plan_says_how_each_total_spends_its_tuning_and_when_trials_are_too_short_to_rank() -> None:
    """A line per total: trials, their epochs and noisy steps, γ·ε_t (what they rank like) and the
    compute; where a trial makes fewer than ``MIN_RANKING_STEPS`` steps, what would rank finer."""
    doc = spec_doc([3.0], 4, ALIKE)
    doc["dataset"] = {"name": "fashion-mnist", "subset": 10000}
    doc["model"] = {"name": "cnn5"}
    doc["training"] = {"epochs": 3, "batch_size": 500}
    plans = planned(parse_spec(doc), 10000)
    assert plans is not None
    (line,) = [x for x in format_plan(plans).splitlines() if x.startswith("(tuning at total 3:")]
    plan = plans[0]
    steps = sum(n for _, _, n in plan.tuning.ledgers[0])
    assert (
        f"{plan.epochs[0][1]} of 3 epochs ({steps} noisy steps)" in line and steps == 20 * plan.epochs[0][1]
    )
    assert f"γ·ε_t = {plan.tuning_quality:.3g}" in line and "note:" not in line
    doc["training"] = {"epochs": 3, "batch_size": 5000}  # 2 steps an epoch
    short = planned(parse_spec(doc), 10000)
    assert short is not None
    assert f"note: {2 * short[0].epochs[0][1]} steps rank only large differences" in format_plan(short)


@pytest.mark.slow
def test_releasing_the_one_model_of_every_total_counts_one_release_a_total() -> None:
    """A list of totals, one model each: the figure of publishing all of them composes each total's phase
    (every method's trials, amplified by its own subset) with one release, recomposed here in RDP by
    dp-accounting from the written-out plans, not a release per method."""
    plans = planned(parse_spec(spec_doc([1.0, 3.0], 4, ALIKE)), N_FASHION)
    assert plans is not None
    phases = [[p for p in plans if p.total_epsilon == total] for total in (1.0, 3.0)]
    records = [plan_record({p.method: p for p in phase}, {}) for phase in phases]
    epsilon, _ = curve_privacy(phases, records)

    def curve(releases: int) -> np.ndarray:
        total = np.zeros(len(RDP_ORDERS))
        for phase in phases:
            tuning, release = phase[0].as_dict()["stages"]
            runs = tuning | {"runs": tuning["runs"] * len(ALIKE)}
            fraction = tuning["subset_fraction"]
            if fraction < 1:
                total += amplified_by_hand(phase_rdp(runs, INTEGERS), fraction)
            else:
                total += phase_rdp(runs)
            total += releases * phase_rdp(release)
        return total

    once = dp_rdp.compute_epsilon(RDP_ORDERS, curve(1), 1e-5)[0]
    assert epsilon <= once * (1 + DP_ACCOUNTING_SLACK)
    assert epsilon < dp_rdp.compute_epsilon(RDP_ORDERS, curve(len(ALIKE)), 1e-5)[0]  # not one per method


@pytest.mark.slow
def test_a_total_too_small_for_one_model_at_two_trials_is_refused_with_the_smallest_that_works() -> None:
    """Below a useful plan at ``MIN_SPREAD_TRIALS`` per method the refusal says so and names the smallest
    total whose spread plan is useful, which then plans."""
    refusal = r"as few as 2 tuning trials per method.*at least ([0-9.]+)"
    with pytest.raises(InputError, match=refusal) as refused:
        planned(parse_spec(spec_doc([0.3], 8, ALIKE)), N_FASHION)
    smallest = float(str(refused.value).split("at least ")[1].split(",")[0])
    assert smallest > 0.3
    assert planned(parse_spec(spec_doc([smallest], 8, ALIKE)), N_FASHION) is not None
