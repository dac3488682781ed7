"""A sweep's answer comes from its trials' reports and its ledger, not from a tracking store: checked on
hand-made reports against values computed here."""

from __future__ import annotations

import itertools
import statistics
from dataclasses import replace
from types import SimpleNamespace

from dptune.privacy.plan_privacy import PLAN_BOUND
from dptune.sweep.releases import ReleasedModel, release_lines
from dptune.sweep.results import TradeOff, selected_tradeoffs
from dptune.tracking.mlflow_reader import _selected
from dptune.tracking.mlflow_view import summary_name
from dptune.tracking.names import METHOD_TAG, STATUS_TAG
from dptune.tracking.report import format_report, format_table, phase_lines
from dptune.training.trial_status import OBJECTIVE, RERUN_OF, STATUS_KEY, TrialStatus


def report(trial_id: str, method: str, config: dict, **metrics: float | str) -> dict:
    base = {"epsilon_target": 1.0, "epsilon_spent": 0.99, "delta": 1e-5, STATUS_KEY: TrialStatus.FINISHED}
    return {"trial_id": trial_id, "method": method, "config": config, **base, **metrics}


def test_the_selected_trial_its_finished_reruns_settings_and_search_privacy_make_the_answer() -> None:
    results = [
        report("s1", "dpsgd", {"lr": 0.5}, validation_accuracy=0.71),
        report("s2", "dpsgd", {"lr": 1.5}, validation_accuracy=0.69),  # selected although lower: a tie-key
        report("f2", "dpsgd", {"lr": 1.5, RERUN_OF: "s2"}, validation_accuracy=0.7, test_accuracy=0.66),
        report("f1", "dpsgd", {"lr": 1.5, RERUN_OF: "s2"}, validation_accuracy=0.7, test_accuracy=0.68),
        report("f3", "dpsgd", {"lr": 1.5, RERUN_OF: "s2"}, validation_accuracy=0.0, **{STATUS_KEY: "failed"}),
        report("p1", "dp-pmlf", {"lr": 0.8, "k": 2}, validation_accuracy=0.75, epsilon_spent=0.98),
        report("q1", "lp-dpsgd", {"lr": 0.8}, validation_accuracy=0.5),  # its search selected nothing
    ]
    costs = [
        {"method": "dpsgd", "epsilon_including_tuning": 2.2, "delta": 2e-5, "tuning_bound": "composition"},
        {
            "method": "dp-pmlf",
            "epsilon_including_tuning": 1.7,
            "delta": 1e-5,
            "tuning_bound": "repeat-and-select",
        },
    ]
    settings = {"dpsgd": {"dataset": "digits", "lr": 1.0, "clip": 1.0}, "dp-pmlf": {"dataset": "digits"}}
    rows = selected_tradeoffs(results, {"dpsgd": "s2", "dp-pmlf": "p1"}, settings, costs, "secure")
    assert [row.method for row in rows] == ["dp-pmlf", "dpsgd"]  # best validation first
    pmlf, dpsgd = rows
    assert dpsgd.validation_accuracy == 0.69 and dpsgd.test_accuracies == (0.68, 0.66)  # f1, f2; f3 failed
    assert dpsgd.test_accuracy == statistics.fmean([0.66, 0.68])
    assert dpsgd.params == {"dataset": "digits", "lr": 1.5, "clip": 1.0}  # the drawn lr replaces the default
    assert (dpsgd.epsilon_including_tuning, dpsgd.delta_including_tuning) == (2.2, 2e-5)
    assert dpsgd.tuning_bound == "composition" and dpsgd.epsilon_all_trials is None
    assert pmlf.test_accuracies == () and pmlf.test_accuracy is None and pmlf.epsilon_spent == 0.98
    assert pmlf.params == {"dataset": "digits", "lr": 0.8, "k": 2}


def test_a_report_of_released_models_lists_each_ones_plan() -> None:
    """A pipeline's row reads ``(plan)`` for its ε including the tuning, and the report lists each
    release's plan, the phases and what each spent, under the table; a per-run row adds no plan."""
    plan = "planned: 8 tuning trials at ε_t = 0.54 on a secret subset of rate 0.25, then … ε_B = 2.85"

    def row(method: str, spent: float, including: float, bound: str, note: str | None) -> TradeOff:
        return TradeOff(
            method, 3.0, spent, 1e-5, 0.83, (0.86,), "s", method, {},
            epsilon_including_tuning=including, delta_including_tuning=1e-5, tuning_bound=bound,
            tuning_note=note,
        )  # fmt: skip

    released = row("dpsgd", 0.537, 3.0, PLAN_BOUND, plan)
    per_run = row("dp-pmlf", 2.99, 9.2, "composition", "composition of every trial")
    text = format_report([released, per_run])
    assert "3.000 (plan)" in text and "(comp.)" in text
    tail = text.split("plans of the released models")[1]
    assert f"dpsgd           total ε 3: {plan}" in tail and "dp-pmlf" not in tail
    assert "settings\n  are those of the tuning trial its plan selected" in tail  # not the release's own
    assert "tuning trial its plan selected" not in format_report([per_run])


def test_each_released_model_is_said_in_one_line_leading_with_its_accuracy() -> None:
    """The run's closing lines: per released model its final-test accuracy first, at its ε including the
    tuning, then the method and where it loads from; then how to load one."""
    releases = [
        ReleasedModel("dpsgd", "t2", 75.32, 2.9963, 1e-5, {}, 3.0, "models:/total.dpsgd/2"),
        ReleasedModel("dp-pmlf", "t1", 71.66, 0.9994, 1e-5, {}, 1.0, "models:/total.dp-pmlf/1"),
    ]
    first, second, load = release_lines(releases)
    assert first.split()[:6] == ["71.66%", "final", "test", "at", "ε", "="] and "ε = 0.999," in first
    assert first.split()[-2:] == ["dp-pmlf", "models:/total.dp-pmlf/1"]
    assert second.split()[0] == "75.32%" and "(tuning included)" in second
    assert load.startswith('load one with: mlflow.pytorch.load_model("models:/total.')


def test_the_phases_of_stored_plans_read_as_one_part_per_total() -> None:
    """What a plot's title says of released models: per total what the tuning phase and the release
    spent; methods planned alike share a part, a method planned otherwise gets its own, a secret count
    reads as its mean."""

    def plan(method: str, total: float, runs: object, per_run: float, phase: float, release: float) -> dict:
        tuning = {"runs": runs, "per_run_epsilon": per_run, "epsilon": phase}
        return {"method": method, "total_epsilon": total, "stages": [tuning, {"per_run_epsilon": release}]}

    plans = [
        plan("dpsgd", 3.0, 8, 0.245, 0.75, 2.861),
        plan("dp-pmlf", 3.0, 8, 0.245, 0.75, 2.861),
        plan("dpsgd", 1.0, 8, 0.0806, 0.25, 0.955),
        plan("innerouter", 8.0, {"distribution": "truncated-negative-binomial", "mean": 4}, 3.81, 7.0, 3.81),
        plan("dpsgd", 8.0, 8, 0.662, 2.0, 7.586),
    ]
    assert phase_lines(plans) == (
        "total 1: 8 × ε_t 0.0806 (ε 0.25), then ε_B 0.955",
        "total 3: 8 × ε_t 0.245 (ε 0.75), then ε_B 2.86",
        "total 8, innerouter: secret K (mean 4) × ε_t 3.81 (ε 7), then ε_B 3.81",
        "total 8, dpsgd: 8 × ε_t 0.662 (ε 2), then ε_B 7.59",
    )


def test_no_selection_or_name_reads_the_final_test() -> None:
    """Permuting the final-test scores among the methods' selections (and among the re-runs a store's
    reader sees) changes neither which run is selected nor the sweep's name."""
    rows = [
        TradeOff("dpsgd", 1.0, 0.9, 1e-5, 0.81, (0.70, 0.72), "s", "r1", {}),
        TradeOff("dp-pmlf", 1.0, 0.9, 1e-5, 0.79, (0.90, 0.91), "s", "r2", {}),
        TradeOff("lp-dpsgd", 1.0, 0.9, 1e-5, 0.80, (0.60,), "s", "r3", {}),
    ]
    tests = [row.test_accuracies for row in rows]
    names = set()
    for order in itertools.permutations(range(len(rows))):
        permuted = [replace(row, test_accuracies=tests[i]) for row, i in zip(rows, order, strict=True)]
        names.add(summary_name("s", permuted))
    assert names == {"s · dpsgd 81.0% validation (highest)"}
    released = [replace(row, test_accuracies=()) for row in rows[:2]] + [rows[2]]
    assert summary_name("s", released, one_model=True) == "s · lp-dpsgd 80.0% validation (released)"
    assert summary_name("s", released) == "s · dpsgd 81.0% validation (highest)"  # others' re-runs failed
    noisy = [*released[:2], replace(released[2], validation_noise=0.043)]  # a private validation read
    assert summary_name("s", noisy, one_model=True) == "s · lp-dpsgd 80.0% ± 4.3 validation (released)"

    def run(run_id: str, method: str, score: float) -> SimpleNamespace:
        tags = {METHOD_TAG: method, STATUS_TAG: TrialStatus.FINISHED}
        data = SimpleNamespace(tags=tags, metrics={OBJECTIVE: score})
        return SimpleNamespace(data=data, info=SimpleNamespace(run_id=run_id))

    search = {("p", "t1"): run("a", "dpsgd", 0.81), ("p", "t2"): run("b", "dpsgd", 0.79)}
    chosen = set()
    for scores in itertools.permutations([0.5, 0.9]):
        finals = {("p", f"x{i}"): [s] for i, s in enumerate(scores)}  # re-runs of no search run here
        chosen.add(_selected(search, finals)[("p", "dpsgd")].info.run_id)
    assert chosen == {"a"}


def test_the_table_shows_each_private_scores_noise_beside_it() -> None:
    """On a private held-out split a trial reports each score's noise (σ_v over the part's records): the
    selected configuration carries them and the table prints them beside the scores; a public split's
    row prints bare scores."""
    private = [
        report("s1", "dpsgd", {"lr": 0.5}, validation_accuracy=0.721, validation_accuracy_std=0.043),
        report("f1", "dpsgd", {"lr": 0.5, RERUN_OF: "s1"}, test_accuracy=0.6758, test_accuracy_std=0.055),
    ]
    (row,) = selected_tradeoffs(private, {"dpsgd": "s1"}, {}, [], "secure")
    assert (row.validation_noise, row.test_noise) == (0.043, 0.055)
    shown = format_table([row])
    assert " 72.10% ± 4.3 " in shown and " 67.58 (1; noise ± 5.5) " in shown
    public = [
        report("s1", "dpsgd", {}, validation_accuracy=0.721),
        report("f1", "dpsgd", {RERUN_OF: "s1"}, test_accuracy=0.6758),
    ]
    (row,) = selected_tradeoffs(public, {"dpsgd": "s1"}, {}, [], "secure")
    shown = format_table([row])
    assert row.validation_noise is None and row.test_noise is None
    assert " 72.10% " in shown and " 67.58 (1) " in shown and "±" not in shown
