"""The release policies (``dptune.sweep.release_policies``): the spec names its policy once, each policy
owns its pools, the chain's steps after the selection and the methods it did not release, and a sweep's
mode builds its searcher's chain from them (``SweepMode.chain``)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from dptune.base.errors import InputError
from dptune.cli import _build_parser
from dptune.cli.commands import spec_overrides
from dptune.sweep.chain import ChainParts
from dptune.sweep.chain.board import LostRuns, LostRunsKept
from dptune.sweep.chain.selection import PickAcross, RunSelection, Select
from dptune.sweep.chain.tuning import Search
from dptune.sweep.ledger import PrivateSweepState
from dptune.sweep.modes import PerRunSweep
from dptune.sweep.release_policies import (
    ONE,
    PER_METHOD,
    PIPELINE_RELEASES,
    RELEASE_POLICIES,
    RERUNS,
)
from dptune.sweep.spec import load_spec, parse_spec
from dptune.training.trial_status import METHOD_KEY, RERUN_OF
from tests.test_searcher_chain import Counting

METHODS = {"dpsgd": {"lr": {"loguniform": [0.5, 8.0]}}, "lp-dpsgd": {"lr": {"loguniform": [0.5, 8.0]}}}


def spec_doc(methods: dict[str, Any], **privacy: Any) -> dict[str, Any]:
    return {
        "name": "policies",
        "dataset": {"name": "fashion-mnist"},
        "model": {"name": "scatter-linear"},
        "privacy": {"epsilon": 3.0, "delta": 1e-5} | privacy,
        "training": {"epochs": 4, "batch_size": 1024},
        "budget": {"trials_per_method": 3},
        "methods": methods,
    }


@pytest.mark.parametrize(
    ("privacy", "methods", "policy"),
    [
        ({}, METHODS, RERUNS),
        ({"includes_tuning": True}, METHODS, ONE),
        ({"includes_tuning": True}, {"dpsgd": METHODS["dpsgd"]}, PER_METHOD),  # one method: its own model
        ({"includes_tuning": True, "release": "per_method"}, METHODS, PER_METHOD),
    ],
    ids=["per-run", "one-model", "one-method", "per-method"],
)
def test_a_spec_names_its_release_policy_once(
    privacy: dict[str, Any], methods: dict[str, Any], policy: object
) -> None:
    assert parse_spec(spec_doc(methods, **privacy)).release is policy


def test_every_policy_is_registered_by_name_and_a_pipeline_takes_those_of_its_own() -> None:
    assert set(RELEASE_POLICIES) == {"reruns", "per_method", "one"}
    assert all(RELEASE_POLICIES[p.name] is p for p in (RERUNS, PER_METHOD, ONE))
    assert PIPELINE_RELEASES == ("one", "per_method")
    for name in PIPELINE_RELEASES:
        assert _build_parser().parse_args(["run", "spec.yaml", "--release", name]).release == name
    with pytest.raises(SystemExit):  # a per-run spec's policy, not a pipeline's choice
        _build_parser().parse_args(["run", "spec.yaml", "--release", "reruns"])
    with pytest.raises(InputError, match=r"privacy\.release"):
        parse_spec(spec_doc(METHODS, includes_tuning=True, release="reruns"))


def test_each_policy_pools_and_scores_its_runs_on_the_final_test() -> None:
    methods = ["dpsgd", "lp-dpsgd", "dp-pmlf"]
    assert ONE.pools(methods) == [tuple(methods)] and ONE.pooled(methods)
    assert PER_METHOD.pools(methods) == [(m,) for m in methods] and not PER_METHOD.pooled(methods)
    assert RERUNS.final_test_runs(methods, 3) == 9  # every method's three re-runs
    assert PER_METHOD.final_test_runs(methods, 1) == 3
    assert ONE.final_test_runs(methods, 1) == 1  # one release across the methods
    assert PER_METHOD.final_test_runs(methods, 3) == 3 and ONE.final_test_runs(methods, 3) == 1  # one a pool
    assert ONE.runs_known(1) == 0 and PER_METHOD.runs_known(1) == 1  # which method releases is unknown


def _result(method: str, rerun: bool, reason: str | None = None) -> dict[str, Any]:
    config = {METHOD_KEY: method} | ({RERUN_OF: "t0"} if rerun else {})
    return {"method": method, "config": config} | ({"reason": reason} if reason else {})


def test_one_model_names_the_methods_it_did_not_release_only_where_it_released_none() -> None:
    methods = ["dpsgd", "lp-dpsgd"]
    searched = [_result("dpsgd", False), _result("lp-dpsgd", False)]
    assert ONE.unreleased(methods, {"lp-dpsgd"}, searched) == {}  # one model: the one released covers all
    failed = [*searched, _result("lp-dpsgd", True, "diverged")]
    assert set(ONE.unreleased(methods, set(), failed)) == {"lp-dpsgd"}  # dpsgd's selection never ran
    assert "(diverged)" in ONE.unreleased(methods, set(), failed)["lp-dpsgd"]
    assert set(ONE.unreleased(methods, set(), searched)) == {"dpsgd", "lp-dpsgd"}  # none ran at all
    assert set(PER_METHOD.unreleased(methods, {"lp-dpsgd"}, failed)) == {"dpsgd"}


def test_after_the_selection_one_model_picks_across_methods_and_the_others_run_each_selection(
    tmp_path: Path,
) -> None:
    spec = parse_spec(spec_doc(METHODS))
    state = PrivateSweepState(str(tmp_path), "policies")
    parts = ChainParts({m: Counting() for m in METHODS}, dict.fromkeys(METHODS, 3), state, {}, 7)
    chain = PerRunSweep(spec).chain(parts)
    assert [type(step) for step in chain.steps] == [Search, Select, RunSelection]
    assert isinstance(chain.board.lost_runs, LostRuns) and not isinstance(chain.board.lost_runs, LostRunsKept)
    select = chain.steps[1]
    assert isinstance(select, Select)
    after = ONE.after_selection(select, 1, lambda m: True, {})
    assert [type(step) for step in after] == [PickAcross, RunSelection]
    assert [type(step) for step in PER_METHOD.after_selection(select, 1, lambda m: True, {})] == [
        RunSelection
    ]


def test_one_model_keeping_a_method_says_so_where_it_says_what_it_releases(tmp_path: Path) -> None:
    """``selection.keep_method``: the opening line, the closing line and the card's rule say the kept
    method's selection is released unless another's beats it clearly, not that the best one is; a run of a
    subset of the methods without the kept one, or with one method left, keeps none (``dptune run
    --method``)."""
    doc = spec_doc(METHODS, includes_tuning=True) | {"selection": {"keep_method": "lp-dpsgd"}}
    kept = parse_spec(doc).release
    assert ONE.keeping(None) is ONE and kept == ONE.keeping("lp-dpsgd") and kept.keep == "lp-dpsgd"
    assert "best" not in kept.opening and "lp-dpsgd's selection released once" in kept.opening
    assert "best" in ONE.opening
    assert kept.picked(["dpsgd", "lp-dpsgd"]).startswith("picked among dpsgd, lp-dpsgd by keeping lp-dpsgd's")
    assert ONE.picked(["dpsgd", "lp-dpsgd"]) == "the best on validation of dpsgd, lp-dpsgd"
    path = tmp_path / "kept.yaml"
    path.write_text(yaml.safe_dump(doc | {"methods": METHODS | {"dp-pmlf": METHODS["dpsgd"]}}))
    assert load_spec(path, methods=["dpsgd", "lp-dpsgd"]).keep_method == "lp-dpsgd"
    assert load_spec(path, methods=["dpsgd", "dp-pmlf"]).keep_method is None
    assert load_spec(path, methods=["lp-dpsgd"]).keep_method is None
    typo = tmp_path / "typo.yaml"
    typo.write_text(yaml.safe_dump(doc | {"selection": {"keep_method": "lp-dpsg"}}))
    with pytest.raises(InputError) as info:  # a name the spec lacks is refused, a subset or not
        load_spec(typo, methods=["dpsgd", "lp-dpsgd"])
    assert info.value.field == "selection.keep_method"
    run = _build_parser().parse_args(["validate", str(path), "--release", "per_method"])
    per_method = load_spec(path, overrides=spec_overrides(run))  # a model per method: nothing to keep
    assert per_method.keep_method is None and per_method.release is PER_METHOD


@pytest.mark.parametrize("keeps_start", ["lp-dpsgd", "dpsgd", None])
def test_one_model_keeping_a_method_that_keeps_its_start_counts_one_family_of_challengers(
    tmp_path: Path, keeps_start: str | None
) -> None:
    """Where ``selection.keep_method`` keeps a method whose selection keeps its start point (``keep_start``),
    the release policy says so (its pick, its card's rule, its closing line and its plan's margin of that
    start), and the chain a mode builds (``SweepMode.chain``) gives that method's selection the other
    methods' planned trials as further challengers of its start (here dpsgd's 3); where the kept method
    keeps no start (another method does, or none), none, and no text says it."""
    keep_start = keeps_start == "lp-dpsgd"
    start = {"start": [{"lr": 1.0}], "keep_start": True}
    methods = {m: space | start if m == keeps_start else space for m, space in METHODS.items()}
    doc = spec_doc(methods, includes_tuning=True) | {"selection": {"keep_method": "lp-dpsgd"}}
    spec = parse_spec(doc)
    release = spec.release
    assert release.keep == "lp-dpsgd" and release.family == keep_start
    said = "within lp-dpsgd, its own read and the other methods' planned"
    assert (said in release.pick) == keep_start and (said in release.rule(keep_start)) == keep_start
    assert (said in release.opening) == keep_start and (said in release.picked(list(methods))) == keep_start
    family = "here m is instead one family"
    assert (family in release.start_margin("lp-dpsgd")) == keep_start
    assert family not in release.start_margin("dpsgd") and family not in PER_METHOD.start_margin("lp-dpsgd")
    state = PrivateSweepState(str(tmp_path), "family")
    parts = ChainParts(
        {m: Counting() for m in methods}, dict.fromkeys(methods, 3), state, {}, 7, validation_size=100
    )
    select = next(step for step in PerRunSweep(spec).chain(parts).steps if isinstance(step, Select))
    assert select.rivals == ({"lp-dpsgd": 3} if keep_start else {})
