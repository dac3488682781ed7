"""Default search spaces: one for every method of the registry, each containing the method's documented
defaults, read by the spec's own reader; a spec of a few lines (methods named without spaces) is a
complete tuning job, planned."""

from __future__ import annotations

import copy

import pytest

from dptune.base.errors import InputError
from dptune.methods import METHODS
from dptune.methods.filters import preset
from dptune.sweep.default_spaces import DEFAULT_SPACES, default_space
from dptune.sweep.pipeline import planned
from dptune.sweep.spec import only_methods, parse_spec
from dptune.training.config import KNOBS

pytestmark = pytest.mark.in_process  # starts no Ray, server or browser: `make test` runs it beside others

FEW_LINES = {
    "name": "few",
    "dataset": {"name": "digits"},
    "model": {"name": "mlp"},
    "privacy": {"epsilon": 3.0, "delta": 1e-4, "includes_tuning": True},
    "methods": ["dpsgd", "dp-pmlf", "lp-dpsgd"],
}


def test_every_method_of_the_registry_has_a_default_space() -> None:
    assert set(DEFAULT_SPACES) == set(METHODS)


def inside(value: float, dist: dict) -> bool:
    ((kind, (low, high)),) = dist.items()
    return low <= value <= high if kind != "int" else low <= value <= high and value == int(value)


@pytest.mark.parametrize("method", list(METHODS))
def test_a_default_space_contains_the_methods_documented_defaults(method: str) -> None:
    """Each searched parameter's default, the clip bound's, and a default filter's pole and zero (its
    first-order form) lie inside the space."""
    space = default_space(method)
    defaults = {p.name: p.default for p in METHODS[method].params} | {"clip": KNOBS["clip"].default}
    for knob, dist in space.items():
        if knob == "filter":
            coefficients = preset(defaults["filter"])
            pole = -coefficients.a[0]
            zero = -coefficients.b[1] / coefficients.b[0] if len(coefficients.b) == 2 else 0.0
            assert inside(pole, dist["pole"]) and inside(zero, dist["zero"]), (method, pole, zero)
        elif knob in defaults:
            assert inside(defaults[knob], dist), (method, knob, defaults[knob], dist)
        else:
            assert knob == "effective_lr"  # a step, searched in its own units: no default to contain


@pytest.mark.slow
def test_methods_named_without_spaces_search_their_default_spaces_and_plan() -> None:
    spec = parse_spec(copy.deepcopy(FEW_LINES))
    assert list(spec.methods) == FEW_LINES["methods"]
    for method, space in spec.methods.items():
        expected = {k for k in DEFAULT_SPACES[method] if k != "filter"}
        assert set(space.knobs) == expected and (space.filter is not None) == (
            "filter" in DEFAULT_SPACES[method]
        )
    plans = planned(spec, 1437)
    assert plans is not None and {p.method for p in plans} == set(FEW_LINES["methods"])
    assert all(p.epsilon <= 3.0 for p in plans)


def test_an_unknown_method_in_the_list_is_refused_by_its_place() -> None:
    doc = copy.deepcopy(FEW_LINES) | {"methods": ["dpsgd", "sgd"]}
    with pytest.raises(InputError) as refused:
        parse_spec(doc)
    assert refused.value.field == "methods[1]"


def test_a_method_given_only_its_start_searches_its_default_space_from_there() -> None:
    """``{dp-pmlf: {start: [...], keep_start: true}}`` reads as the default space written out (by hand
    here, from the documented ranges) with that start; an empty mapping, or a start naming no knob, still
    fixes every knob, and ``keep_start`` alone still asks for a start."""
    start = [{"effective_lr": 0.5, "clip": 1.0, "k": 2, "beta": 0.1, "filter": {"preset": "pmlf-a0.9-b0.1"}}]
    written = {
        "effective_lr": {"loguniform": [0.5, 10.0]},
        "clip": {"loguniform": [0.1, 2.0]},
        "k": {"int": [1, 4]},
        "beta": {"uniform": [0.0, 0.9]},
        "filter": {
            "family": "first-order",
            "pole": {"uniform": [0.5, 0.95]},
            "zero": {"uniform": [-1.0, 0.5]},
        },
        "start": start,
        "keep_start": True,
    }
    given = {"dp-pmlf": {"start": start, "keep_start": True}}
    short = parse_spec(FEW_LINES | {"methods": given})
    long = parse_spec(FEW_LINES | {"methods": {"dp-pmlf": written}})
    assert short.methods == long.methods
    assert given == {"dp-pmlf": {"start": start, "keep_start": True}}  # the spec's own mapping stays short
    picked = only_methods(FEW_LINES | {"methods": given | {"dpsgd": {}}}, ["dp-pmlf"])
    assert picked["methods"] == given  # ``--method`` keeps the spec's own form
    assert short.methods["dp-pmlf"].keep_start and short.methods["dp-pmlf"].start[0]["k"] == 2
    for nothing in ({}, {"start": []}, {"start": [{}]}):
        fixed = parse_spec(FEW_LINES | {"methods": {"dpsgd": nothing}})
        assert fixed.methods["dpsgd"].knobs == {} and fixed.methods["dpsgd"].filter is None
    with pytest.raises(InputError) as refused:
        parse_spec(FEW_LINES | {"methods": {"dpsgd": {"keep_start": True}}})
    assert refused.value.field == "methods.dpsgd.keep_start"
