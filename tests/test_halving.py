"""Successive halving at a fixed plan (``budget.promoted_trials``): the plan writes its second rung out
(each method's best m first-rung trials trained again r·T_t epochs at the first rung's σ), composes it by
every accountant it plans with, and dp-accounting recomposes the record within the total; a promoted
trial, calibrated as the trainer calibrates a run, adds no less noise than its written-out mechanism; a
spec that cannot promote is refused naming the field (the searcher's second rung: test_searcher_chain;
a sweep end to end: test_release)."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest

from dptune.base.errors import InputError
from dptune.privacy.compositions import AMPLIFIED_PLD_COMPOSITION, BASIC_COMPOSITION, PLD_COMPOSITION
from dptune.privacy.plans import MethodPlan
from dptune.sweep.pipeline import plan_setup, promoted_knobs, tuning_run
from dptune.sweep.plan import fewest_spread, plan_pool, plan_spread, plan_sweep, ranks
from dptune.sweep.spec import parse_spec
from dptune.sweep.spec_keys import PROMOTION_FACTOR
from dptune.training.calibrated_run import calibrated_run
from tests.test_plan import CELLS, DP_ACCOUNTING_SLACK, N_FASHION, floor_of, recomposed, spec_doc

pytestmark = pytest.mark.in_process  # starts no Ray, server or browser: `make test` runs it beside others


def halving_doc(model: str, total: float, promoted: int = 2, **budget: Any) -> dict[str, Any]:
    doc = spec_doc(model, [total], 8, CELLS[model])
    doc["budget"] |= {"promoted_trials": promoted} | budget
    return doc


def check_record(plan: MethodPlan) -> dict[str, Any]:
    """The plan's record recomposed by dp-accounting within its total, its second rung written out: m runs
    of a ledger r times the first rung's steps at its σ (one privacy configuration, its noise scaled)."""
    record = json.loads(json.dumps(plan.as_dict()))  # what the sweep stores, and nothing else
    again = recomposed(record)
    assert 0.97 * plan.total_epsilon <= again <= plan.total_epsilon * (1 + DP_ACCOUNTING_SLACK), again
    tuning = record["stages"][0]
    promoted = tuning["promoted"]
    ((first,),), ((longer,),) = tuning["mechanisms"], promoted["mechanisms"]
    assert promoted["runs"] == 2 and promoted["epochs_factor"] == PROMOTION_FACTOR
    assert longer["steps"] == PROMOTION_FACTOR * first["steps"]
    assert longer["noise_multiplier"] == pytest.approx(first["noise_multiplier"], rel=1e-12)
    assert promoted["per_run_epsilon"] > tuning["per_run_epsilon"]
    return record


@pytest.mark.parametrize(
    ("model", "total", "compute"),
    [("cnn5", 3.0, 2.0), pytest.param("cnn5", 3.0, 0.3, marks=pytest.mark.slow)],
)
@pytest.mark.slow
def test_a_halving_plan_by_pld_recomposed_by_dp_accounting_stays_within_its_total(
    model: str, total: float, compute: float
) -> None:
    """On the whole data and on a secret subset (0.3 full runs of tuning compute): PLD of K first-rung
    runs and m promoted ones (amplified by the subset), and the release's."""
    spec = parse_spec(halving_doc(model, total, tuning_compute=compute))
    (plan,) = plan_sweep(plan_setup(spec, 1e-5), N_FASHION)
    assert plan.composition == (PLD_COMPOSITION if compute == 2.0 else AMPLIFIED_PLD_COMPOSITION)
    check_record(plan)
    # the compute counts each promoted trial as r first-rung trials
    ((_, t_t),) = plan.epochs
    fraction = plan.tuning.fraction
    assert plan.run_equivalents == pytest.approx((8 + 2 * PROMOTION_FACTOR) * fraction * t_t / 40 + 1.0)


@pytest.mark.parametrize("fraction", [1.0, 0.25])
def test_a_halving_plan_in_rdp_or_the_basic_way_recomposed_by_dp_accounting_stays_within_its_total(
    fraction: float,
) -> None:
    """The same phases planned in RDP (amplified by Zhu & Wang's bound on a subset) or the basic way:
    each promoted trial's curve added to the K trials', recomposed from the record alone."""
    setup = plan_setup(parse_spec(halving_doc("cnn5", 3.0)), 1e-5)
    (plan,) = plan_pool(setup, ("dpsgd",), 3.0, fraction, N_FASHION, floor_of(setup, 3.0)) or []
    assert plan.composition not in (PLD_COMPOSITION, AMPLIFIED_PLD_COMPOSITION)
    assert fraction < 1 or plan.composition != BASIC_COMPOSITION
    check_record(plan)


@pytest.mark.slow
def test_a_promoted_trial_calibrated_as_the_trainer_does_adds_at_least_its_planned_noise() -> None:
    """The promoted trial's run (``promoted_knobs`` over the tuning run: r·T_t epochs at its per-run ε),
    calibrated by the trainer's own path (``calibrated_run``), has every written-out (q, steps) and a σ no
    smaller than the plan's: its privacy is dominated by what the plan composed."""
    spec = parse_spec(halving_doc("cnn5", 3.0))
    (plan,) = plan_sweep(plan_setup(spec, 1e-5), N_FASHION)
    run = tuning_run(spec.runs["dpsgd"], plan)
    knobs = promoted_knobs({"lr": 0.5}, run, plan)
    ((_, t_t),) = plan.epochs
    assert knobs["epochs"] == PROMOTION_FACTOR * t_t <= 40
    promoted = calibrated_run(replace(run.with_knobs(knobs)), N_FASHION)
    ((z, q, steps),) = plan.tuning.promoted_ledger
    ((z_run, q_run, steps_run),) = promoted.ledger
    assert (q_run, steps_run) == (q, steps) and z_run >= z * (1 - 1e-9)


@pytest.mark.slow
def test_no_second_rung_where_a_release_does_not_hold_twice_a_trials_epochs() -> None:
    """A plan whose first-rung trials run more than half the release's epochs has no room for a rung: it
    plans one rung, and says nothing of promotion."""
    doc = halving_doc("cnn5", 3.0)
    doc["training"] = dict(doc["training"], epochs=1)  # T_t = 1 of 1
    (plan,) = plan_sweep(plan_setup(parse_spec(doc), 1e-5), N_FASHION)
    assert plan.tuning.promoted == 0 and "promoted" not in plan.as_dict()["stages"][0]


@pytest.mark.parametrize(
    ("change", "says"),
    [
        (lambda d: d["budget"].update(promoted_trials=8), "must be fewer than budget.trials_per_method"),
        (lambda d: d.update(scheduler={"name": "asha"}), "is early stopping of its own"),
        (
            lambda d: d["budget"].update(trials_per_method={"distribution": "poisson", "mean": 8}),
            "needs a fixed budget.trials_per_method",
        ),
        (lambda d: d["privacy"].update(includes_tuning=False), "set privacy.includes_tuning"),
        (lambda d: d["budget"].update(promoted_trials=0), "an integer >= 1"),
    ],
)
def test_a_spec_that_cannot_promote_is_refused_naming_the_field(change: Any, says: str) -> None:
    doc = halving_doc("cnn5", 3.0)
    change(doc)
    with pytest.raises(InputError, match=r"budget\.promoted_trials") as refused:
        parse_spec(doc)
    assert says in str(refused.value)


def test_keeping_a_start_point_is_refused_with_successive_halving() -> None:
    """The selection reads only the promoted trials (the best first-rung ones), so a start point whose first
    rung reads below them would not be kept, unsaid: ``keep_start`` with ``promoted_trials`` is refused
    naming the method's key, and either alone is a valid spec."""
    doc = halving_doc("cnn5", 3.0)
    doc["methods"]["dpsgd"] |= {"start": [{"lr": 0.5}], "keep_start": True}
    with pytest.raises(InputError) as refused:
        parse_spec(doc)
    assert refused.value.field == "methods.dpsgd.keep_start"
    assert "drop budget.promoted_trials" in str(refused.value)
    parse_spec(dict(doc, budget={k: v for k, v in doc["budget"].items() if k != "promoted_trials"}))
    del doc["methods"]["dpsgd"]["keep_start"]
    parse_spec(doc)


def test_a_space_of_several_privacy_configurations_cannot_promote() -> None:
    """A promoted trial adds its first-rung trial's noise: where the trials can draw several privacy
    configurations (batch sizes), the plan is refused naming the field and the fix."""
    doc = halving_doc("cnn5", 3.0)
    doc["methods"]["dpsgd"]["batch_size"] = {"choice": [1024, 2048]}
    with pytest.raises(InputError, match=r"budget\.promoted_trials.*one privacy configuration"):
        plan_sweep(plan_setup(parse_spec(doc), 1e-5), N_FASHION)


@pytest.mark.slow
def test_one_model_spreads_its_trials_by_the_promoted_trials_length_and_keeps_more_than_it_promotes() -> None:
    """Across methods (one model), the spread reads the trials the selection reads: with a second rung,
    the promoted ones (the first rung only screens, and may be short); it never gives a method as few
    trials as it promotes (a rung that promotes every trial halves nothing)."""
    doc = halving_doc("scatter-linear", 3.0)
    doc["methods"] |= {"innerouter": {"k": 1, "beta": 0.0, "lr": {"loguniform": [0.1, 4.0]}}}  # trains alike
    doc["privacy"]["release"] = "one"
    doc["budget"]["trials_per_method"] = 4
    setup = plan_setup(parse_spec(doc), 1e-5)
    assert fewest_spread(setup) == 3
    plans = plan_spread(setup, 3.0, N_FASHION)
    assert plans is not None and all(p.tuning.promoted == 2 for p in plans)
    assert all(p.selection_steps == PROMOTION_FACTOR * p.tuning_steps for p in plans)
    assert plans[0].tuning.count.mean in (3, 4)
    assert ranks(plans) or plans[0].tuning.count.mean == 3
