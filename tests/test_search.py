"""Define-by-run spaces under real Optuna: every sampled filter satisfies the constraints."""

from __future__ import annotations

from typing import Any

import numpy as np
import optuna
import pytest

from dptune.base.errors import InputError
from dptune.methods.filter_families import butterworth, first_order
from dptune.methods.filters import PRESETS, step_response, validate_filter
from dptune.sweep.space import start_point
from dptune.sweep.spec_parts import method_space, parse_filter
from dptune.tune.define_by_run import SAMPLERS, DefineByRun

pytestmark = pytest.mark.in_process  # starts no Ray, server or browser: `make test` runs it beside others

FAMILIES = {
    "first-order": {
        "family": "first-order",
        "pole": {"uniform": [0.0, 0.99]},
        "zero": {"uniform": [-1.0, 0.9]},
    },
    "butterworth": {"family": "butterworth", "order": {"int": [1, 4]}, "cutoff": {"uniform": [0.01, 0.6]}},
    "preset": {"family": "preset", "preset": {"choice": sorted(PRESETS)}},
    "raw": {
        "family": "raw",
        "a": [{"uniform": [-1.9, 0.9]}, {"uniform": [-0.9, 0.9]}],
        "b": [{"uniform": [-0.3, 0.3]}],
    },
}


def sample(family: str, sampler: optuna.samplers.BaseSampler, trials: int) -> list[dict]:
    space = method_space("dp-pmlf", {"k": {"int": [1, 4]}, "filter": FAMILIES[family]}, "methods.dp-pmlf")
    define = DefineByRun(space)
    study = optuna.create_study(direction="maximize", sampler=sampler)
    drawn = []
    for _ in range(trials):
        trial = study.ask()
        constants = define(trial)
        study.tell(trial, float(np.random.default_rng(len(drawn)).random()))
        chosen = constants.pop("filter")  # the drawn filter, one typed value
        flat = {"a": list(chosen.coefficients.a), "b": list(chosen.coefficients.b), "valid": chosen.valid}
        drawn.append(constants | flat | {"constraints": study.trials[-1].system_attrs})
    return drawn


@pytest.mark.parametrize("family", ["first-order", "butterworth", "preset"])
@pytest.mark.parametrize("sampler", ["random", "tpe"])
@pytest.mark.slow
def test_valid_by_construction_families(family: str, sampler: str) -> None:
    chosen = (
        optuna.samplers.RandomSampler(seed=1) if sampler == "random" else optuna.samplers.TPESampler(seed=1)
    )
    for constants in sample(family, chosen, 60):
        a, b = tuple(constants["a"]), tuple(constants["b"])
        validate_filter(a, b)  # unit DC gain, poles inside, c_t > 0
        assert constants["valid"] is True
        assert abs(-sum(a) + sum(b) - 1) <= 1e-9


@pytest.mark.slow
def test_raw_family_solves_dc_gain_and_flags_unstable_draws() -> None:
    drawn = sample("raw", optuna.samplers.RandomSampler(seed=2), 150)
    valid = [c for c in drawn if c["valid"]]
    invalid = [c for c in drawn if not c["valid"]]
    assert valid and invalid  # the space has both
    for c in drawn:
        assert abs(-sum(c["a"]) + sum(c["b"]) - 1) <= 1e-9  # b_0 solved from the constraint
        poles = np.abs(np.roots([1.0, *c["a"]]))
        assert (poles.max() < 1 and step_response_positive(c)) == c["valid"]
        assert any(k.startswith("constraints") for k in c["constraints"])


def step_response_positive(c: dict) -> bool:
    from dptune.methods.filters import IIRCoefficients

    return bool(np.all(step_response(IIRCoefficients(tuple(c["a"]), tuple(c["b"])), 3000) > 0))


def test_first_order_and_butterworth_closed_forms() -> None:
    f = first_order(0.9, 0.0)
    assert f.a == (-0.9,) and f.b == pytest.approx((0.1,))
    f = first_order(9 / 11, -1.0)
    assert f.b == pytest.approx(PRESETS["doppler-first-order-v1"].b)
    bw = butterworth(1, 0.0634)
    assert bw.a[0] == pytest.approx(-9 / 11, abs=2e-3)  # DOPPLER ver.1 is a 1st-order Butterworth
    validate_filter(bw.a, bw.b)


def test_start_points_map_presets_into_family_parameters() -> None:
    space = method_space(
        "dp-pmlf",
        {
            "lr": {"loguniform": [0.1, 2.0]},
            "filter": FAMILIES["first-order"],
            "start": [{"lr": 0.5, "filter": {"preset": "pmlf-a0.9-b0.05,0.05"}}],
        },
        "m",
    )
    point = start_point(space, space.start[0], "m.start[0]")
    assert point == {"lr": 0.5, "filter_pole": pytest.approx(0.9), "filter_zero": pytest.approx(-1.0)}
    with pytest.raises(InputError, match="cannot be expressed"):
        start_point(space, {"filter": {"preset": "doppler-second-order"}}, "m.start[1]")


def test_parse_filter_errors_name_the_path() -> None:
    with pytest.raises(InputError) as info:
        parse_filter({"family": "raw", "a": "x"}, "methods.lp-dpsgd.filter")
    assert info.value.field == "methods.lp-dpsgd.filter.a"


@pytest.mark.parametrize("sampler", ["tpe", "random", pytest.param("gp", marks=pytest.mark.slow), "nsga2"])
def test_every_spec_sampler_drives_the_space(sampler: str) -> None:
    """Each sampler a spec may name draws valid trials from a mixed space, reproducibly per seed."""

    space = method_space(
        "dp-pmlf",
        {
            "lr": {"loguniform": [0.1, 2.0]},
            "k": {"int": [1, 4]},
            "beta": {"uniform": [0.0, 0.9]},
            "filter": FAMILIES["first-order"],
        },
        "m",
    )

    def draws(seed: int, startup: int = 2) -> list[dict]:
        study = optuna.create_study(direction="maximize", sampler=SAMPLERS[sampler](seed, startup))
        out = []
        for i in range(6):
            trial = study.ask()
            constants = DefineByRun(space)(trial)
            study.tell(trial, float(i % 3))
            out.append(dict(study.trials[-1].params) | constants["filter"].coefficients.as_dict())
        return out

    first = draws(0)
    assert first == draws(0)
    for point in first:
        assert 0.1 <= point["lr"] <= 2.0 and 1 <= point["k"] <= 4
        validate_filter(tuple(point["a"]), tuple(point["b"]))
    if sampler in ("tpe", "gp"):  # the model takes over after the start-up trials, not after Optuna's 10
        unguided = draws(0, startup=10)
        assert first[:2] == unguided[:2] and first[2:] != unguided[2:]


def test_a_drawn_filter_is_validated_once_and_trusted_by_the_run(digits, monkeypatch) -> None:
    """Drawing validates (once); building, calibrating (many σ probes) and training the run do not again."""
    from dptune.methods import filters
    from tests.helpers import digits_trainer

    calls = []
    real = filters.validate_filter
    monkeypatch.setattr(filters, "validate_filter", lambda *a, **k: calls.append(a) or real(*a, **k))
    space = method_space("lp-dpsgd", {"filter": FAMILIES["first-order"]}, "methods.lp-dpsgd")
    drawn = space.filter.draw({"pole": 0.8, "zero": 0.2})
    assert drawn.valid and len(calls) == 1
    trainer = digits_trainer(digits, "lp-dpsgd", {"filter": drawn})
    trainer.train_epoch()
    assert len(calls) == 1
    assert trainer.params["a"] == list(drawn.coefficients.a) and trainer.params["filter"] == "first-order"


def _asha(shortest: int, longest: int, trials: list) -> Any:
    """The sweep's ASHA (grace period 2) for plans of ``shortest`` to ``longest`` epochs, with
    ``trials`` added."""
    from dptune.training.trial_status import OBJECTIVE
    from dptune.tune.schedulers import asha

    scheduler = asha(grace_period=2, shortest=shortest, longest=longest)
    scheduler.set_search_properties(OBJECTIVE, "max")
    for trial in trials:
        scheduler.on_trial_add(None, trial)
    return scheduler


def _result(score: float, epoch: int, epochs: int) -> dict[str, Any]:
    """What a trial of an ``epochs``-epoch plan reports after ``epoch``."""
    from dptune.training.trial_status import OBJECTIVE, PLAN_SHARE

    return {OBJECTIVE: score, PLAN_SHARE: epoch / epochs, "training_iteration": epoch}


def _trials(*names: str) -> list:
    from ray.tune.experiment import Trial

    return [Trial("fake", trial_id=name, stub=True) for name in names]


def test_asha_compares_trials_at_the_same_share_of_their_own_plans() -> None:
    """At a fixed ε a longer plan runs noisier steps and is ahead only late: ASHA's rungs are shares of
    each trial's plan, not epochs. A 40-epoch trial that is better than a 20-epoch one at every equal share
    goes on, though at epoch 2 it is behind (an epoch clock stopped it there)."""
    from ray.tune.schedulers import TrialScheduler

    short, long, worse = _trials("short", "long", "worse")
    scheduler = _asha(20, 40, [short, long])

    def report(trial: Any, epoch: int, epochs: int) -> str:
        lead = 0.01 if trial is long else 0.0  # the longer plan leads at equal shares
        score = 0.4 + epoch / epochs + lead
        return scheduler.on_trial_result(None, trial, _result(score, epoch, epochs))

    assert report(short, 1, 20) == TrialScheduler.CONTINUE  # share 0.05: the first at the first rung
    assert report(short, 2, 20) == TrialScheduler.CONTINUE  # share 0.1: the first at the second rung
    assert report(long, 1, 40) == TrialScheduler.CONTINUE  # share 0.025: before any rung
    # share 0.05: compared with the short trial's score at 0.05 (0.45), not at epoch 2 (0.50)
    assert report(long, 2, 40) == TrialScheduler.CONTINUE
    for epoch in (3, 4):  # at 0.1 it meets the short trial's 0.50 again, with 0.51
        assert report(long, epoch, 40) == TrialScheduler.CONTINUE
    scheduler_of_a_worse_long_plan = _asha(20, 40, [short, worse])
    first = _result(0.45, 1, 20)
    assert scheduler_of_a_worse_long_plan.on_trial_result(None, short, first) == TrialScheduler.CONTINUE
    behind = _result(0.44, 2, 40)
    assert scheduler_of_a_worse_long_plan.on_trial_result(None, worse, behind) == TrialScheduler.STOP


def test_the_first_asha_rung_waits_for_an_epoch_of_the_shortest_plan() -> None:
    """A trial meets a rung at its first report past it: with plans of 10 and 40 epochs a rung at 5%
    would compare the 10-epoch trial after a tenth of its plan with the 40-epoch one after a twentieth
    (Tramèr & Boneh's setting was stopped so). The first rung is a tenth: epoch 1 of 10, epoch 4 of 40."""
    from ray.tune.schedulers import TrialScheduler

    short, long = _trials("short", "long")
    scheduler = _asha(10, 40, [short, long])

    def report(trial: Any, epoch: int, epochs: int, score: float) -> str:
        return scheduler.on_trial_result(None, trial, _result(score, epoch, epochs))

    assert report(short, 1, 10, 0.60) == TrialScheduler.CONTINUE  # the first at the first rung (0.1)
    for epoch, score in ((1, 0.40), (2, 0.50), (3, 0.58)):  # before any rung, however far behind
        assert report(long, epoch, 40, score) == TrialScheduler.CONTINUE
    assert report(long, 4, 40, 0.61) == TrialScheduler.CONTINUE  # at 0.1: ahead of the short trial
    late = _asha(10, 40, [short, long])
    late.on_trial_result(None, short, _result(0.60, 1, 10))
    assert late.on_trial_result(None, long, _result(0.59, 4, 40)) == TrialScheduler.STOP  # behind at 0.1


def _accounted_optuna(tmp_path: Any, longest: int) -> tuple[Any, Any]:
    """A method's ``AccountedSearcher`` (no filter) over Ray's ``OptunaSearch`` of one learning rate, on a
    journal study ``s`` under ``tmp_path``, for plans of up to ``longest`` epochs; and that storage."""
    from ray import tune
    from ray.tune.search.optuna import OptunaSearch

    from dptune.sweep.ledger import PrivateSweepState
    from dptune.training.config import RunConfig
    from dptune.training.trial_status import OBJECTIVE
    from dptune.tune.searcher import AccountedSearcher, SpentCurve

    storage = optuna.storages.JournalStorage(optuna.storages.journal.JournalFileBackend(str(tmp_path / "j")))
    inner = OptunaSearch(
        space={"lr": tune.loguniform(0.1, 1.0)}, metric=OBJECTIVE, mode="max", storage=storage, study_name="s"
    )
    run = RunConfig(method="dpsgd", dataset="digits", model="mlp", epsilon=1.0, epochs=longest)
    state = PrivateSweepState(str(tmp_path), "sweep")
    spent = SpentCurve(run, 1000)
    return AccountedSearcher(inner, state, "dpsgd", np.zeros(3), None, spent, longest=longest), storage


def test_optuna_hears_a_trials_scores_at_its_share_of_the_longest_plan(tmp_path) -> None:
    """A 10-epoch trial in a space of up to 40 epochs, stopped after its 2nd epoch, is pruned at step 8
    (a fifth of its plan), as a 40-epoch trial stopped after its 8th: Optuna ranks pruned trials by their
    last step, which on an epoch clock put every short plan behind the long ones."""
    from dptune.training.trial_status import STATUS_KEY, TrialStatus

    searcher, storage = _accounted_optuna(tmp_path, longest=40)
    assert isinstance(searcher.suggest("short"), dict)
    for epoch in (1, 2):
        result = _result(0.5 + epoch / 10, epoch, 10)
        if epoch == 1:
            searcher.on_trial_result("short", result)
        else:  # the result ASHA stopped it with reaches on_trial_complete
            searcher.on_trial_complete("short", {**result, STATUS_KEY: TrialStatus.RUNNING})
    (trial,) = optuna.load_study(study_name="s", storage=storage).trials
    assert trial.state == optuna.trial.TrialState.PRUNED
    assert trial.intermediate_values == {4: 0.6, 8: 0.7}


def test_a_trial_restarted_from_its_checkpoint_reports_no_epoch_optuna_holds(tmp_path) -> None:
    """Tune restarts a trial whose node was lost from its last checkpoint, and the trial reports again the
    epochs after it: Optuna keeps the first score of each step and would warn of the rest. Its study
    holds each step's first score, the epochs past the restart's too, and nothing warned."""
    import warnings

    searcher, storage = _accounted_optuna(tmp_path, longest=4)
    assert isinstance(searcher.suggest("t"), dict)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for epoch, score in ((1, 0.5), (2, 0.6), (2, 0.55), (3, 0.7)):  # restarted after epoch 1's checkpoint
            searcher.on_trial_result("t", _result(score, epoch, 4))
    (trial,) = optuna.load_study(study_name="s", storage=storage).trials
    assert trial.intermediate_values == {1: 0.5, 2: 0.6, 3: 0.7}
