"""Sweep spec validation: every shipped spec is valid; every invalid field is named by its YAML path."""

from __future__ import annotations

import copy
from pathlib import Path

import pytest
import yaml

from dptune.base.errors import InputError
from dptune.cli import main
from dptune.sweep.spec import load_spec, parse_spec
from tests.sweep_helpers import PER_RUN_YAML, stores_beside

pytestmark = pytest.mark.in_process  # starts no Ray, server or browser: `make test` runs it beside others

SWEEPS = sorted((Path(__file__).parents[1] / "sweeps").rglob("*.yaml"))
BASE = stores_beside(yaml.safe_load(PER_RUN_YAML.read_text()))


@pytest.mark.parametrize("path", SWEEPS, ids=lambda p: p.parent.name + "/" + p.name)
def test_shipped_specs_validate(path: Path) -> None:
    spec = load_spec(path)
    assert spec.methods and spec.trials.mean >= 1


def test_a_specs_relative_paths_are_beside_it_whatever_folder_it_is_read_from(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As a factory's module is found beside the spec, so are its store, its storage and its data folder:
    validated from another folder, it writes where it would from its own."""
    folder, elsewhere = tmp_path / "project", tmp_path / "elsewhere"
    (folder / "data").mkdir(parents=True)
    elsewhere.mkdir()
    doc = copy.deepcopy(BASE) | {"storage_path": "ray_results"}
    doc["tracking"]["uri"] = "sqlite:///mlflow.db"
    doc["dataset"] = {"name": "digits", "root": "data"}
    path = folder / "spec.yaml"
    path.write_text(yaml.safe_dump(doc))
    for cwd in (folder, elsewhere):
        monkeypatch.chdir(cwd)
        spec = load_spec(path)
        assert spec.tracking_uri == f"sqlite:///{folder / 'mlflow.db'}"
        assert spec.storage_path == str(folder / "ray_results")
        assert spec.shared.data_root == str(folder / "data")
    repo = Path(__file__).parents[1]
    quickstart = load_spec(repo / "sweeps" / "quickstart.yaml")  # the README's: the repository's root
    assert quickstart.tracking_uri == f"sqlite:///{repo / 'mlflow.db'}"
    assert quickstart.storage_path == str(repo / "ray_results")


def test_paper_specs_compare_all_seven_methods_with_equal_budgets() -> None:
    for name in ("fmnist-eps1.yaml", "fmnist-eps8.yaml", "fmnist.yaml"):
        spec = load_spec(Path(__file__).parents[1] / "sweeps" / name)
        assert (
            len(spec.methods) == 7 and spec.shared.model == "cnn5" and spec.shared.dataset == "fashion-mnist"
        )
        assert all(space.start for space in spec.methods.values())  # the papers' settings first
    # The protocol across ε: each ε's proxy runs the papers' settings; its search starts from the proxy's
    # best alone (the settings ran already), 20 + 4 configurations per method and ε.
    for index, epsilon in enumerate(spec.epsilons):
        proxy, search = spec.sweeps_at(index)
        assert proxy.shared.epsilon == search.shared.epsilon == epsilon
        assert all(space.start for space in proxy.methods.values())
        assert not any(space.start for space in search.methods.values())
        assert proxy.trials.mean + search.trials.mean == 24 and search.warm_start.top == search.trials.mean


def with_change(path: str, value, delete: bool = False) -> dict:
    doc = copy.deepcopy(BASE)
    node = doc
    keys = path.split(".")
    for key in keys[:-1]:
        node = node.setdefault(key, {})
    if delete:
        del node[keys[-1]]
    else:
        node[keys[-1]] = value
    return doc


INVALID = [
    ("privacy.epsilon", 0, "privacy.epsilon"),
    ("privacy.epsilon", "one", "privacy.epsilon"),
    ("privacy.epsilon", [], "privacy.epsilon"),
    ("privacy.epsilon", [1, -3], "privacy.epsilon[1]"),
    ("privacy.epsilon", [1, 3, 1], "privacy.epsilon"),
    ("search.warm_start", {"previous_epsilon": True}, "search.warm_start.previous_epsilon"),  # one ε
    ("search.warm_start", {"top": 2}, "search.warm_start.sweep"),
    ("privacy.delta", 1.5, "privacy.delta"),
    ("privacy.accountant", "gdp", "privacy.accountant"),
    ("privacy.sampling", "random", "privacy.sampling"),
    ("privacy.sampling", "shuffle", "privacy.sampling"),  # every bound of a sweep assumes Poisson
    ("privacy.total_epsilon", 0.5, "privacy.total_epsilon"),  # below one trial's ε
    ("privacy.total_epsilon", "all", "privacy.total_epsilon"),
    ("training.seed", -1, "training.seed"),
    ("dataset.name", "imagenet", "dataset.name"),
    ("dataset.subset", 0, "dataset.subset"),
    ("model.name", "vgg", "model.name"),
    ("budget.trials_per_method", 0, "budget.trials_per_method"),
    (
        "budget.trials_per_method",
        {"distribution": "binomial", "mean": 4},
        "budget.trials_per_method.distribution",
    ),
    ("budget.trials_per_method", {"distribution": "poisson", "mean": 0.5}, "budget.trials_per_method.mean"),
    (
        "budget.trials_per_method",
        {"distribution": "truncated-negative-binomial", "mean": 4, "shape": -1},
        "budget.trials_per_method.shape",
    ),
    ("resources.gpu", -0.5, "resources.gpu"),
    ("resources.gpu_fallback", "tpu", "resources.gpu_fallback"),
    ("resources.wait", -1, "resources.wait"),
    ("budget.max_concurrent", 0, "budget.max_concurrent"),
    ("scheduler.name", "pbt", "scheduler.name"),
    ("search.sampler", "cmaes", "search.sampler"),
    ("search.startup_trials", 0, "search.startup_trials"),
    ("search.warm_start", {"sweep": ""}, "search.warm_start.sweep"),
    ("search.warm_start", {"sweep": "earlier", "top": 0}, "search.warm_start.top"),
    ("search.warm_start", {"sweep": "earlier", "from": 1}, "search.warm_start"),
    ("methods.dpsgd", {"lr": 0.5, "effective_lr": {"loguniform": [0.1, 1.0]}}, "methods.dpsgd.effective_lr"),
    ("training.effective_lr", 1.0, "methods.dpsgd.lr"),  # the quickstart's methods search lr
    ("selection.reruns", -1, "selection.reruns"),
    ("selection.reruns", 1.5, "selection.reruns"),
    ("selection", {"rerun": 2}, "selection"),
    ("search", {"sampler": "random", "startup_trials": 3}, "search.startup_trials"),
    ("methods.dp-pmlf.k", {"int": [0, 3]}, "methods.dp-pmlf.k"),
    ("methods.dp-pmlf.k", {"uniform": [1, 3]}, "methods.dp-pmlf.k"),
    ("methods.dp-pmlf.beta", {"uniform": [0.0, 1.5]}, "methods.dp-pmlf.beta"),
    ("methods.dp-pmlf.lr", {"loguniform": [0.0, 1.0]}, "methods.dp-pmlf.lr"),
    ("methods.dp-pmlf.lr", {"uniform": [2.0, 1.0]}, "methods.dp-pmlf.lr"),
    ("methods.dp-pmlf.lr", {"normal": [0, 1]}, "methods.dp-pmlf.lr"),
    ("methods.dp-pmlf.gamma", 0.3, "methods.dp-pmlf.gamma"),
    ("methods.dpsgd.filter", {"preset": "pmlf-a0.9-b0.1"}, "methods.dpsgd.filter"),
    (
        "methods.dp-pmlf.filter",
        {"family": "first-order", "pole": {"uniform": [0.5, 1.2]}},
        "methods.dp-pmlf.filter.pole",
    ),
    ("methods.dp-pmlf.filter", {"family": "chebyshev"}, "methods.dp-pmlf.filter.family"),
    ("methods.dp-pmlf.filter", {"preset": "nope"}, "methods.dp-pmlf.filter.preset"),
    ("methods.dp-pmlf.filter", {"family": "butterworth", "order": 2}, "methods.dp-pmlf.filter.cutoff"),
    ("methods.dp-pmlf.start", [{"lr": 99.0}], "methods.dp-pmlf.start[0].lr"),
    (
        "methods.dp-pmlf.start",
        [{"filter": {"preset": "doppler-second-order"}}],
        "methods.dp-pmlf.start[0].filter",
    ),
    ("methods.dpsgd.start", [{"tuned_at": 3}], "methods.dpsgd.start[0].tuned_at"),  # no step to carry
    ("methods.dpsgd.start", [{"lr": 0.5, "tuned_at": 0}], "methods.dpsgd.start[0].tuned_at"),
    ("methods.dpsgd.start", [{"lr": 0.5, "tuned_at": "three"}], "methods.dpsgd.start[0].tuned_at"),
    ("methods.dpsgd.start", [{"lr": 0.5, "tuned_at": 0.1}], "methods.dpsgd.start[0].tuned_at"),  # lr → 5
    ("methods.dpsgd.keep_start", "yes", "methods.dpsgd.keep_start"),
    ("methods.dpsgd", {"lr": 0.5, "keep_start": True}, "methods.dpsgd.keep_start"),  # no start point to keep
    (  # a start point without clip is not a whole configuration: a random draw could match it
        "methods.dpsgd",
        {
            "lr": {"loguniform": [0.2, 4.0]},
            "clip": {"choice": [0.5, 1.0]},
            "start": [{"lr": 0.5}],
            "keep_start": True,
        },
        "methods.dpsgd.keep_start",
    ),
    ("methods.sgd", {}, "methods.sgd"),
    ("tracking.uri", "", "tracking.uri"),
    ("extra", 1, "extra"),
]


@pytest.mark.parametrize(("path", "value", "field"), INVALID, ids=[f"{p}={v}" for p, v, _ in INVALID])
def test_invalid_field_is_named(path: str, value, field: str) -> None:
    with pytest.raises(InputError) as info:
        parse_spec(with_change(path, value))
    assert info.value.field.startswith(field), str(info.value)


@pytest.mark.parametrize("adaptive", [False, True])
def test_every_sweep_needs_an_enumerable_privacy_space(adaptive: bool) -> None:
    """Repeat-and-select and composition alike count each trial at the worst plan it could be given."""
    doc = copy.deepcopy(BASE)
    if not adaptive:
        doc = with_change("budget.trials_per_method", {"distribution": "poisson", "mean": 4})
        doc["search"], doc["scheduler"] = {"sampler": "random"}, {"name": "none"}
    doc["methods"] = {"dpsgd": {"batch_size": {"int": [10, 2000]}}}
    with pytest.raises(InputError) as info:
        parse_spec(doc)
    assert info.value.field == "methods.dpsgd" and "choice" in str(info.value)
    doc["methods"] = {"dpsgd": {"batch_size": {"choice": [100, 200]}, "epochs": {"int": [1, 3]}}}
    assert parse_spec(doc).trials.random != adaptive  # 6 combinations: enumerable


def test_a_filter_needs_a_fixed_trial_cap() -> None:
    doc = with_change("budget.trials_per_method", {"distribution": "poisson", "mean": 4})
    doc["privacy"]["total_epsilon"] = 5.0
    with pytest.raises(InputError) as info:
        parse_spec(doc)
    assert info.value.field == "budget.trials_per_method"
    assert parse_spec(with_change("privacy.total_epsilon", 5.0)).total_epsilon == 5.0


def test_missing_required_key() -> None:
    with pytest.raises(InputError) as info:
        parse_spec(with_change("privacy", None, delete=True))
    assert info.value.field == "privacy"


def test_relative_paths_become_absolute(tmp_path: Path) -> None:
    spec = parse_spec(BASE, base=tmp_path)
    assert spec.tracking_uri == f"sqlite:///{tmp_path / 'mlflow.db'}"
    assert spec.storage_path == str(tmp_path / "ray_results")
    http = parse_spec(with_change("tracking.uri", "http://10.0.0.1:5000"))
    assert http.tracking_uri == "http://10.0.0.1:5000"


@pytest.mark.parametrize("command", ["validate", "run"])
def test_cli_bad_spec_exits_2_with_field_and_starts_nothing(
    command: str, tmp_path: Path, capsys, monkeypatch
) -> None:
    monkeypatch.chdir(tmp_path)
    bad = tmp_path / "bad.yaml"
    bad.write_text(yaml.safe_dump(with_change("methods.dp-pmlf.k", {"int": [0, 3]})))
    assert main([command, str(bad)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and len(err.strip().splitlines()) == 1 and "methods.dp-pmlf.k" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.yaml"]  # no store, no results


@pytest.mark.slow
def test_cli_validate_ok(capsys) -> None:
    assert main(["validate", str(SWEEPS[0])]) == 0
    assert "valid" in capsys.readouterr().out


@pytest.mark.parametrize(("budget", "startup"), [(1, 2), (3, 2), (6, 2), (7, 3), (8, 3), (24, 8), (40, 14)])
def test_model_based_samplers_draw_a_third_of_the_budget_and_two_at_least_at_random(
    budget: int, startup: int
) -> None:
    """A third of the budget, rounded up, and never fewer than two: a model needs two reads to compare."""
    doc = with_change("budget.trials_per_method", budget)
    doc["search"] = {"sampler": "tpe", "seed": 0}
    assert parse_spec(doc).startup_trials == startup
    doc["search"]["startup_trials"] = 2
    assert parse_spec(doc).startup_trials == 2  # an explicit value wins


def test_a_warm_start_needs_a_fixed_trial_count() -> None:
    doc = with_change("budget.trials_per_method", {"distribution": "poisson", "mean": 4})
    doc["search"] = {"sampler": "random", "warm_start": "earlier"}
    with pytest.raises(InputError) as info:
        parse_spec(doc)
    assert info.value.field == "search.warm_start"


def test_selection_reruns_three_times_by_default() -> None:
    assert parse_spec(with_change("selection", None, delete=True)).reruns == 3
    assert parse_spec(with_change("selection.reruns", 0)).reruns == 0


def test_a_list_of_epsilons_is_one_sweep_per_target_with_equal_budgets() -> None:
    doc = with_change("privacy.epsilon", [1, 3, 8])
    doc["search"] = {"sampler": "tpe", "seed": 0, "warm_start": {"previous_epsilon": True, "top": 2}}
    spec = parse_spec(doc)
    assert spec.epsilons == (1.0, 3.0, 8.0) and spec.describe_epsilon() == "ε ∈ {1, 3, 8}"
    sweeps = [spec.at_epsilon(i) for i in range(3)]
    assert [s.name for s in sweeps] == [f"{spec.name}.eps{e}" for e in (1, 3, 8)]
    assert [{run.epsilon for run in s.runs.values()} for s in sweeps] == [{1.0}, {3.0}, {8.0}]
    assert all(s.epsilons == (s.shared.epsilon,) for s in sweeps)
    assert {s.trials for s in sweeps} == {spec.trials} and {s.experiment for s in sweeps} == {spec.experiment}
    # Each ε after the first starts from the previous ε's sweep; the first from nothing.
    assert [s.warm_start.sweep if s.warm_start else None for s in sweeps] == [
        None,
        f"{spec.name}.eps1",
        f"{spec.name}.eps3",
    ]
    assert {s.warm_start.top for s in sweeps[1:] if s.warm_start} == {2}
    # Everything else is the spec's: only ε, the name and the warm start change.
    for s in sweeps:
        assert s.methods == spec.methods and s.reruns == spec.reruns and s.storage_path == spec.storage_path


@pytest.mark.parametrize(
    ("section", "value"),
    [
        ("scheduler", {"name": "asha"}),
        ("search", {"sampler": "tpe", "proxy": {"fraction": 0.1, "trials": 4}}),
    ],
)
def test_keeping_a_start_point_is_refused_where_its_trial_may_not_run_whole_in_the_search(
    section: str, value: dict
) -> None:
    """ASHA may stop the start point's trial; a proxy sweep runs the start points, not the search that
    selects: either would leave ``keep_start`` keeping nothing, unsaid."""
    doc = with_change(section, value)
    doc["methods"]["dpsgd"]["keep_start"] = True
    with pytest.raises(InputError) as info:
        parse_spec(doc)
    assert info.value.field == "methods.dpsgd.keep_start"
    del doc["methods"]["dpsgd"]["keep_start"]
    parse_spec(doc)


def test_a_kept_method_must_be_one_of_the_specs_methods_in_one_model_across_several() -> None:
    """``selection.keep_method`` names the method one model's pick keeps unless beaten clearly: refused,
    naming the field, where it names no method of the spec or where no pick across methods is made."""

    def pipeline(keep: str, **privacy: object) -> dict:
        doc = with_change("privacy.includes_tuning", True) | {"selection": {"keep_method": keep}}
        doc["privacy"] |= privacy
        return doc

    spec = parse_spec(pipeline("dp-pmlf"))
    assert spec.keep_method == "dp-pmlf" and spec.release.keep == "dp-pmlf"
    assert "dp-pmlf's selected trial released unless another method's" in spec.release.rule(False)
    for doc, problem in (
        (pipeline("innerouter"), "must name one of the spec's methods"),
        (with_change("selection.keep_method", "dp-pmlf"), "set privacy.includes_tuning"),
        (pipeline("dp-pmlf", release="per_method"), "privacy.release: one"),
    ):
        with pytest.raises(InputError) as info:
            parse_spec(doc)
        assert info.value.field == "selection.keep_method" and problem in info.value.problem


def test_a_start_point_tuned_at_an_epsilon_is_carried_to_each_target_by_the_linear_scaling_rule() -> None:
    """η·T ∝ ε (Panda et al. 2024) at the point's T: a point tuned at ε₀ = 3 starts each target ε at
    η·ε/3 (lr or effective_lr, whichever sets its step), every other value as given."""
    doc = with_change("privacy.epsilon", [1, 3, 8])
    doc["methods"]["dpsgd"]["start"] = [{"lr": 0.9, "tuned_at": "3e0"}, {"lr": 0.5}]  # YAML's string 3e0: 3
    del doc["methods"]["dp-pmlf"]["lr"]
    doc["methods"]["dp-pmlf"]["effective_lr"] = {"loguniform": [0.5, 16.0]}
    doc["methods"]["dp-pmlf"]["start"] = [{"effective_lr": 4.0, "k": 2, "beta": 0.1, "tuned_at": 3}]
    spec = parse_spec(doc)
    for index, epsilon in enumerate((1.0, 3.0, 8.0)):
        sweep = spec.at_epsilon(index)
        assert sweep.methods["dpsgd"].start == ({"lr": pytest.approx(0.9 * epsilon / 3)}, {"lr": 0.5})
        (pmlf,) = sweep.methods["dp-pmlf"].start
        assert pmlf == {"effective_lr": pytest.approx(4.0 * epsilon / 3), "k": 2, "beta": 0.1}
        assert sweep.at_epsilon(0).methods == sweep.methods  # carried once: no tuned_at is left
    with pytest.raises(InputError) as info:  # carried to ε = 8, 0.9·8/1 leaves [0.2, 4]
        parse_spec(
            doc
            | {
                "methods": {
                    "dpsgd": {"lr": {"loguniform": [0.2, 4.0]}, "start": [{"lr": 0.9, "tuned_at": 1}]}
                }
            }
        )
    assert info.value.field == "methods.dpsgd.start[0].tuned_at"
    assert "carried from ε 1 to ε 8, lr 7.2 lies outside" in info.value.problem


def test_a_single_epsilon_keeps_its_name_and_a_filter_needs_one_epsilon() -> None:
    spec = parse_spec(with_change("privacy.epsilon", 2))
    assert spec.at_epsilon(0) is spec and spec.describe_epsilon() == "ε=2"
    doc = with_change("privacy.epsilon", [1, 2])
    doc["privacy"]["total_epsilon"] = 5
    doc["budget"] = {"trials_per_method": 2}
    with pytest.raises(InputError) as info:
        parse_spec(doc)
    assert info.value.field == "privacy.total_epsilon"


def test_the_first_epsilon_warm_starts_from_a_named_sweep_when_given() -> None:
    doc = with_change("privacy.epsilon", [1, 3])
    doc["search"] = {"sampler": "tpe", "seed": 0, "warm_start": {"sweep": "subset", "previous_epsilon": True}}
    spec = parse_spec(doc)
    assert [spec.at_epsilon(i).warm_start.sweep for i in range(2)] == ["subset", f"{spec.name}.eps1"]


def test_a_proxy_puts_a_subset_sweep_before_each_epsilons_search() -> None:
    doc = with_change("privacy.epsilon", [1, 3])
    doc["search"] = {
        "sampler": "tpe",
        "seed": 0,
        "warm_start": {"previous_epsilon": True, "top": 2},
        "proxy": {"fraction": 0.2, "trials": 9, "top": 4},
    }
    spec = parse_spec(doc)
    sweeps = [sweep for i in range(2) for sweep in spec.sweeps_at(i)]
    name = spec.name
    assert [s.name for s in sweeps] == [
        f"{name}.eps1.proxy",
        f"{name}.eps1",
        f"{name}.eps3.proxy",
        f"{name}.eps3",
    ]
    proxies, searches = sweeps[0::2], sweeps[1::2]
    # The proxy: every run on the 0.2 subset, its own trial count (a third of it at random), no re-runs.
    assert all({r.proxy_fraction for r in s.runs.values()} == {0.2} for s in proxies)
    assert all(s.trials.mean == 9 and s.startup_trials == 3 and s.reruns == 0 for s in proxies)
    # The searches: the whole data, the spec's budget, each from its own ε's proxy's best four.
    assert all({r.proxy_fraction for r in s.runs.values()} == {None} for s in searches)
    assert all(s.trials == spec.trials and s.reruns == spec.reruns for s in searches)
    assert [(s.warm_start.sweep, s.warm_start.top) for s in searches] == [(p.name, 4) for p in proxies]
    assert all(p.methods == spec.methods for p in proxies)
    # Each ε's proxy starts where that ε's search would have: the previous ε's search (the first: nothing).
    assert [p.warm_start.sweep if p.warm_start else None for p in proxies] == [None, f"{name}.eps1"]
    assert all(s.proxy is None for s in sweeps)


@pytest.mark.parametrize(
    ("proxy", "field"),
    [
        ({"fraction": 1.0, "trials": 4}, "search.proxy.fraction"),
        ({"fraction": 0.2}, "search.proxy.trials"),
        ({"fraction": 0.2, "trials": 4, "top": 5}, "search.proxy.top"),
        ({"fraction": 0.2, "trials": 4, "size": 5}, "search.proxy.size"),
    ],
)
def test_a_bad_proxy_is_named(proxy: dict, field: str) -> None:
    doc = with_change("search.proxy", proxy)
    with pytest.raises(InputError) as info:
        parse_spec(doc)
    assert info.value.field == field


def test_a_proxy_refuses_a_subset_search_and_a_random_trial_count() -> None:
    doc = with_change("search.proxy", {"fraction": 0.2, "trials": 4})
    doc["training"]["proxy_fraction"] = 0.5
    with pytest.raises(InputError) as info:
        parse_spec(doc)
    assert info.value.field == "training.proxy_fraction"
    doc = with_change("budget.trials_per_method", {"distribution": "poisson", "mean": 4})
    doc["search"] = {"sampler": "random", "proxy": {"fraction": 0.2, "trials": 4}}
    with pytest.raises(InputError) as info:
        parse_spec(doc)
    assert info.value.field == "search.proxy"


def test_a_spec_that_gives_none_of_the_plain_settings_gets_the_documented_defaults(tmp_path: Path) -> None:
    """What the docs' settings table states (generated from ``SPEC_KEYS``) is what a spec that leaves a
    setting out gets: checked here against the values written out by hand."""
    minimal = {key: BASE[key] for key in ("name", "dataset", "model", "privacy", "methods")}
    spec = parse_spec(minimal, base=tmp_path)
    assert (spec.max_concurrent, spec.cpu, spec.gpu) == (None, 1, 0)
    assert (spec.gpu_fallback, spec.wait) == ("fail", 600)
    assert (spec.scheduler, spec.grace_period, spec.sampler, spec.reruns) == ("none", 1, "tpe", 3)
    assert spec.tracking_uri == f"sqlite:///{tmp_path.resolve() / 'mlflow.db'}"
    assert spec.experiment == BASE["name"] and spec.storage_path == str(tmp_path.resolve() / "ray_results")


def test_a_spec_file_without_a_name_is_named_by_its_file(tmp_path: Path) -> None:
    unnamed = {key: BASE[key] for key in ("dataset", "model", "privacy", "methods")}
    path = tmp_path / "my sweep.yaml"
    path.write_text(yaml.safe_dump(unnamed))
    spec = load_spec(path, base=tmp_path)
    assert spec.name == spec.experiment == "my-sweep"
    path.write_text(yaml.safe_dump({"name": "given", **unnamed}))
    assert load_spec(path, base=tmp_path).name == "given"
    with pytest.raises(InputError) as info:
        parse_spec(unnamed, base=tmp_path)  # a document without its file has no name to take
    assert info.value.field == "name"


@pytest.mark.parametrize("section", ["budget", "resources", "scheduler", "search", "selection", "tracking"])
def test_an_unknown_key_names_its_section_and_the_keys_it_takes(section: str) -> None:
    from dptune.sweep.spec_keys import SPEC_KEYS, section_keys

    with pytest.raises(InputError) as info:
        parse_spec(with_change(f"{section}.colour", "blue"))
    assert info.value.field == f"{section}.colour"
    takes = section_keys(section)
    assert {k.key for k in SPEC_KEYS if k.section == section} <= set(takes)
    assert f"valid keys here: {', '.join(takes)}" in info.value.problem
