"""The spec's cross-field rules: what two or more settings cannot be together, each a named rule beside
the table of plain settings (``dptune.sweep.spec_keys``), checked on the parsed spec in the order listed
(``SPEC_RULES``), each refusing with one line that names the field and the fix. The spec reference lists
them from here (``mkdocs_hooks.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from dptune.base.errors import InputError
from dptune.sweep.space import KEEP_START
from dptune.sweep.spec_keys import MODEL_BASED_SAMPLERS

if TYPE_CHECKING:
    from dptune.sweep.sweep_spec import SweepSpec

Conflict = tuple[str, str]
"""A broken rule: the YAML field to change, and what is wrong and how to fix it."""


@dataclass(frozen=True)
class SpecRule:
    """A rule over several settings: ``name``, what it requires (``requires``, as the reference says it)
    and ``conflicts``: every (field, problem) the spec breaks it with."""

    name: str
    requires: str
    conflicts: Callable[[SweepSpec], Iterator[Conflict]]


def _given(spec: SweepSpec, section: str, key: str) -> bool:
    node = spec.source.get(section)
    return isinstance(node, Mapping) and key in node


def _poisson(spec: SweepSpec) -> Iterator[Conflict]:
    sampling = spec.shared.sampling
    if sampling != "poisson":
        yield (
            "privacy.sampling",
            f"{sampling} is refused in sweeps: every bound of a sweep (per trial, with tuning, the filter) "
            "assumes Poisson sampling; use poisson, or `dptune train --sampling shuffle` for one labelled "
            "run",
        )


def _filter(spec: SweepSpec) -> Iterator[Conflict]:
    if spec.total_epsilon is None:
        return
    if len(spec.epsilons) > 1:
        yield (
            "privacy.total_epsilon",
            "a privacy filter's total is for one ε target: give privacy.epsilon one value, or no filter",
        )
    if spec.trials.random:
        yield (
            "budget.trials_per_method",
            "a random trial count is for the repeat-and-select bound; with privacy.total_epsilon (a filter) "
            "give a fixed number, the most trials the filter may admit",
        )


def _secret_order(spec: SweepSpec) -> Iterator[Conflict]:
    """With a public seed the order of configurations is public, so the one released tells which trial it
    was and that K was at least that many."""
    if spec.trials.random and _given(spec, "search", "seed") and spec.shared.seed is None:
        yield (
            "search.seed",
            "a random trial count (repeat-and-select) needs a secret search order: drop search.seed (the "
            "sampler then draws from OS entropy), or set training.seed for the labelled research mode",
        )


def _startup(spec: SweepSpec) -> Iterator[Conflict]:
    if _given(spec, "search", "startup_trials") and spec.sampler not in MODEL_BASED_SAMPLERS:
        yield (
            "search.startup_trials",
            f"only the model-based samplers ({', '.join(MODEL_BASED_SAMPLERS)}) have a random start-up phase",
        )


def _warm_start(spec: SweepSpec) -> Iterator[Conflict]:
    if spec.warm_start is not None and spec.trials.random:
        yield (
            "search.warm_start",
            "a warm start is not a random draw, so the repeat-and-select bound (a random trial count) cannot "
            "hold; give a fixed budget.trials_per_method",
        )


def _proxy(spec: SweepSpec) -> Iterator[Conflict]:
    if spec.proxy is not None and spec.shared.proxy_fraction is not None:
        yield (
            "training.proxy_fraction",
            "search.proxy makes the proxy's sweep itself: drop training.proxy_fraction (it would put the "
            "whole search on the subset)",
        )


def _effective_lr(spec: SweepSpec) -> Iterator[Conflict]:
    if not _given(spec, "training", "effective_lr"):
        return
    if _given(spec, "training", "lr"):
        yield "training.effective_lr", "give lr or effective_lr (which sets lr), not both"
    for method, space in spec.methods.items():
        if "lr" in space.knobs:
            yield (
                f"methods.{method}.lr",
                "training.effective_lr sets lr for every method: search effective_lr here instead",
            )


def _held_out(spec: SweepSpec) -> Iterator[Conflict]:
    if spec.validation != "private":
        return
    if spec.trials.random:
        yield (
            "privacy.validation",
            "private held-out data needs a fixed budget.trials_per_method (a secret count's scores cannot be "
            "counted in advance); or set privacy.validation: public if the held-out split is public",
        )
    if spec.warm_start is not None:
        yield (
            "privacy.validation",
            "private held-out data cannot count the scores an earlier sweep made on it: drop "
            "search.warm_start, or set privacy.validation: public if the held-out split is public",
        )


def _keep_start(spec: SweepSpec) -> Iterator[Conflict]:
    conflicts = (
        (spec.scheduler != "none", "ASHA may stop the start point's trial: use scheduler: none"),
        (spec.proxy is not None, "the proxy runs the start points, not the search: drop search.proxy"),
        (
            _promoted_trials(spec) > 0,
            "successive halving selects among its promoted trials, which hold the start point's only where "
            "its first rung reads among the best: drop budget.promoted_trials",
        ),
    )
    for method, space in spec.methods.items():
        for conflict, fix in conflicts:
            if space.keep_start and conflict:
                yield f"methods.{method}.{KEEP_START}", f"cannot be combined here: {fix}"


def _total(spec: SweepSpec) -> Iterator[Conflict]:
    if spec.includes_tuning is None:
        return
    conflicts = (
        ("privacy.total_epsilon", spec.total_epsilon is not None, "the plan is the total: drop the filter"),
        (
            "budget.trials_per_method",
            spec.trials.random
            and (spec.sampler != "random" or spec.scheduler != "none" or spec.has_start_points),
            "a random trial count plans repeat-and-select, which needs search.sampler: random, "
            "scheduler: none and no start points; give a number for any other search",
        ),
        ("search.proxy", spec.proxy is not None, "the planner chooses the tuning subset: drop search.proxy"),
        (
            "training.proxy_fraction",
            spec.shared.proxy_fraction is not None,
            "the planner chooses the tuning subset: drop training.proxy_fraction",
        ),
        (
            "search.warm_start",
            spec.warm_start is not None,
            "the released model's ε would not count the earlier sweep: drop the warm start",
        ),
    )
    for path, conflict, fix in conflicts:
        if conflict:
            yield path, f"cannot be combined with privacy.includes_tuning: {fix}"


def _one_model(spec: SweepSpec) -> Iterator[Conflict]:
    if spec.trials.random and spec.release.pooled(list(spec.methods)):
        yield (
            "privacy.release",
            "one model across methods needs a fixed trial count (repeat-and-select releases each method's "
            "own model): set privacy.release: per_method, or give budget.trials_per_method a number",
        )


def _keep_method(spec: SweepSpec) -> Iterator[Conflict]:
    method = spec.keep_method
    if method is None:
        return
    if method not in spec.methods:
        yield "selection.keep_method", f"must name one of the spec's methods ({', '.join(spec.methods)})"
    elif spec.includes_tuning is None or not spec.release.pooled(list(spec.methods)):
        yield (
            "selection.keep_method",
            "keeps a method in the pick of one model across methods: set privacy.includes_tuning with "
            "privacy.release: one and several methods, or drop it",
        )


def _promoted_trials(spec: SweepSpec) -> int:
    """``budget.promoted_trials``: each method's trials of successive halving's second rung (0: none, as
    without a total ε, where it cannot be set)."""
    return spec.includes_tuning.promoted if spec.includes_tuning is not None else 0


def _promoted(spec: SweepSpec) -> Iterator[Conflict]:
    promoted = _promoted_trials(spec)
    if not promoted:
        return
    if spec.trials.random:
        yield "budget.promoted_trials", "needs a fixed budget.trials_per_method: drop it, or give a number"
    elif promoted >= spec.trials.mean:
        yield (
            "budget.promoted_trials",
            f"must be fewer than budget.trials_per_method ({int(spec.trials.mean)}): the second rung "
            "trains again the best of the first",
        )
    elif spec.scheduler != "none":
        yield "budget.promoted_trials", "is early stopping of its own: set scheduler.name: none"


def _carried_starts(spec: SweepSpec) -> Iterator[Conflict]:
    """Carrying a start point raises where it leaves its space; a total's are carried by its plan."""
    if spec.includes_tuning is None:
        for index in range(len(spec.epsilons)):
            spec.at_epsilon(index)
    yield from ()


SPEC_RULES: tuple[SpecRule, ...] = (
    SpecRule("poisson sampling", "`privacy.sampling: poisson` in a sweep (every bound assumes it)", _poisson),
    SpecRule(
        "one filter, one ε",
        "`privacy.total_epsilon` (a filter) with one ε target and a fixed trial count",
        _filter,
    ),
    SpecRule(
        "secret search order",
        "no `search.seed` with a random trial count, but in the research mode (`training.seed`)",
        _secret_order,
    ),
    SpecRule(
        "start-up trials", "`search.startup_trials` only with a model-based sampler (tpe, gp)", _startup
    ),
    SpecRule("warm start", "`search.warm_start` only with a fixed trial count", _warm_start),
    SpecRule("one proxy", "`search.proxy` or `training.proxy_fraction`, not both", _proxy),
    SpecRule(
        "effective step",
        "`training.effective_lr` without `training.lr`, and searched as `effective_lr`, not `lr`",
        _effective_lr,
    ),
    SpecRule(
        "private held-out data",
        "`privacy.validation: private` with a fixed trial count and no warm start",
        _held_out,
    ),
    SpecRule(
        "kept start points",
        "`keep_start` with `scheduler: none`, no `search.proxy` and no `budget.promoted_trials`",
        _keep_start,
    ),
    SpecRule(
        "total ε",
        "`privacy.includes_tuning` without a filter, proxy or warm start; a random trial count only for "
        "random search without a scheduler or start points",
        _total,
    ),
    SpecRule(
        "one model",
        "`privacy.release: one` (the default) with several methods only with a fixed trial count",
        _one_model,
    ),
    SpecRule(
        "kept method",
        "`selection.keep_method` one of the methods, with `privacy.includes_tuning` and one model across "
        "several methods",
        _keep_method,
    ),
    SpecRule(
        "successive halving",
        "`budget.promoted_trials` fewer than a fixed `budget.trials_per_method`, with `scheduler: none`",
        _promoted,
    ),
    SpecRule(
        "carried start points",
        "every start point carried to every per-run ε target lies in its method's space",
        _carried_starts,
    ),
)
"""Every cross-field rule, in the order they are checked."""


def check_rules(spec: SweepSpec) -> None:
    """Refuse ``spec`` at its first broken rule, naming the field and the fix."""
    for rule in SPEC_RULES:
        for field, problem in rule.conflicts(spec):
            raise InputError(field, problem)


def rules_table() -> list[tuple[str, str]]:
    """(name, what it requires) of every rule, for the spec reference."""
    return [(rule.name, rule.requires) for rule in SPEC_RULES]
