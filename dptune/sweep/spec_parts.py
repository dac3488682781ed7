"""Readers of a spec's parts, each refusing a bad value with the YAML path it came from: a knob's
distribution, a filter, a method's search space, the trial count, the search's seed, a warm start, a
tuning proxy, the ``privacy`` section's keys besides its run knobs (ε targets, a total that includes the
tuning, the held-out split's privacy), the tracking URI and a factory. ``dptune.sweep.spec`` puts them
together into a ``SweepSpec`` and checks the rules across them (``dptune.sweep.spec_rules``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dptune.base.errors import InputError
from dptune.base.factories import is_import_path
from dptune.methods import get_method
from dptune.methods.filter_families import PRESET, get_family
from dptune.methods.params import Param
from dptune.models.pretrained_names import MODEL_ARGS, PRETRAINED_PREFIX
from dptune.privacy.tuning import TRIAL_DISTRIBUTIONS, TrialCount
from dptune.sweep.release_policies import ONE, PIPELINE_RELEASES
from dptune.sweep.space import (
    KEEP_START,
    TUNED_AT,
    Dist,
    FilterSpace,
    MethodSpace,
    searched_names,
    start_point,
    step_knob,
)
from dptune.sweep.spec_keys import (
    TUNING_COMPUTE,
    TUNING_SHARE,
    integer,
    mapping,
    number,
    one_of,
    only,
)
from dptune.training.config import SEARCHABLE_KNOBS

DISTRIBUTIONS = ("uniform", "loguniform", "int", "choice")
STARTUP_SHARE = 1 / 3
"""The share of a method's trial budget that TPE and GP draw at random before their model takes over
(``search.startup_trials`` overrides it): Optuna's fixed 10 would make a search of 8–24 trials mostly or
wholly random."""
MIN_STARTUP_TRIALS = 2
"""The fewest trials TPE and GP draw at random, by default, before their model takes over
(``search.startup_trials`` may set fewer): a model fitted to one trial has no comparison to read, and
TPE's "good" set (the best min(⌈0.1·n⌉, 25) of n finished trials, Optuna's default γ) is then that trial
whatever it scored, so it draws around it. The real-text evidence's records (bench/RESULTS.md, reading of
design 7 at total 3) show a 3-trial search doing so: a first draw where no trial learned, and most of the
next draws beside it."""
DEFAULT_WARM_START_TOP = 3


def startup_trials(trials: TrialCount) -> int:
    """TPE's and GP's random start-up: ``STARTUP_SHARE`` of the (mean) trial budget, at least
    ``MIN_STARTUP_TRIALS``."""
    return max(MIN_STARTUP_TRIALS, math.ceil(STARTUP_SHARE * trials.mean))


@dataclass(frozen=True)
class WarmStart:
    """Start each method's search from the ``top`` configurations an earlier sweep ``sweep`` (same
    ``storage_path``) released (``dptune.tune.warm_start``); ``previous_epsilon``: in a sweep across
    several ε, each ε after the first from the previous ε's sweep instead (the first from ``sweep``, if
    given)."""

    sweep: str | None
    top: int
    previous_epsilon: bool = False


@dataclass(frozen=True)
class Proxy:
    """``search.proxy``: before each ε's search, a tuning proxy's sweep (``NAME.proxy``) of ``trials``
    configurations per method on one secret Poisson subset keeping each training sample with probability
    ``fraction`` (``RunConfig.proxy_fraction``: the full run's plan at about that share of the compute);
    the full search then starts from its ``top`` configurations (a warm start, whose figure, amplified by
    the subset, adds to the full sweep's)."""

    fraction: float
    trials: int
    top: int


@dataclass(frozen=True)
class IncludesTuning:
    """``privacy.includes_tuning``: each ε is the total of the model a method releases, its tuning
    included; the planner (``dptune.sweep.plan``) gives the tuning the share ``share`` of it and at most
    ``compute`` full runs' worth of compute."""

    share: float = TUNING_SHARE
    compute: float = TUNING_COMPUTE
    release: str = ONE.name  # ``privacy.release``: a pipeline's policy (``dptune.sweep.release_policies``)
    promoted: int = 0  # ``budget.promoted_trials``: a second rung of m trials per method (0: none)


def parse_dist(value: Any, param: Param, path: str) -> Dist:
    """A fixed scalar or a one-key distribution mapping, every possible draw valid for ``param``."""
    if not isinstance(value, Mapping):
        return Dist("fixed", (param.convert(value, path.rsplit(".", 1)[0]),))
    if len(value) != 1 or next(iter(value)) not in DISTRIBUTIONS:
        raise InputError(
            path, f"must be a value or one of {{{', '.join(DISTRIBUTIONS)}: ...}}, got {dict(value)!r}"
        )
    kind, args = next(iter(value.items()))
    prefix = path.rsplit(".", 1)[0]
    if kind == "choice":
        if not isinstance(args, list) or not args:
            raise InputError(f"{path}.choice", "must be a non-empty list of values")
        return Dist("choice", tuple(param.convert(v, prefix) for v in args))
    if not isinstance(args, list) or len(args) != 2:
        raise InputError(f"{path}.{kind}", f"must be [low, high], got {args!r}")
    if kind == "int" and param.kind != "int":
        raise InputError(f"{path}.int", f"{param.name} is not an integer; use uniform or loguniform")
    if kind != "int" and param.kind == "int":
        raise InputError(f"{path}.{kind}", f"{param.name} is an integer; use int or choice")
    lo, hi = (param.convert(v, prefix) for v in args)
    if not lo < hi:
        raise InputError(f"{path}.{kind}", f"needs low < high, got [{lo}, {hi}]")
    if kind == "loguniform" and lo <= 0:
        raise InputError(f"{path}.loguniform", f"needs low > 0, got {lo}")
    return Dist(kind, (lo, hi))


def parse_filter(value: Any, path: str) -> FilterSpace:
    """``{preset: NAME}``, ``{family: preset, preset: {choice: [...]}}``, ``{family: first-order,
    pole: D, zero: D}``, ``{family: butterworth, order: D, cutoff: D}``, ``{family: raw, a: [D...],
    b: [D...]}`` (b lists b_1.. ; b_0 is solved from unit DC gain): a family of
    ``dptune.methods.filter_families`` and a distribution for each of its parameters."""
    spec = mapping(value, path)
    family = get_family(spec.pop("family", PRESET if PRESET in spec else None), f"{path}.family")
    layout, shape = family.layout(spec, path)
    params = family.params(shape)
    space = FilterSpace(
        family, {name: parse_dist(raw, params[name], where) for name, (raw, where) in layout.items()}, shape
    )
    if all(dist.fixed for dist in space.params.values()):  # one filter: invalid means no trial can train
        drawn = space.draw({name: dist.args[0] for name, dist in space.params.items()})
        if not drawn.valid:
            raise InputError(path, drawn.problem or "this filter is not valid")
    return space


def search_seed(value: Any, research_seed: int | None) -> int | None:
    """The seed of the search's sampler: ``search.seed`` as given, or None (the sampler draws from secret
    OS entropy); in the labelled research mode (``training.seed``) the sampler is seeded by it when
    ``search.seed`` is not given (a public seed with a secret count: ``spec_rules``)."""
    if value is None:
        return research_seed
    return integer(value, "search.seed", 0)


def parse_trial_count(value: Any, path: str) -> TrialCount:
    """A fixed number of trials per method, or ``{distribution: poisson, mean: μ}`` /
    ``{distribution: truncated-negative-binomial, mean: μ, shape: η}`` (η ≥ 0; 1 is geometric): a
    random number of trials, drawn once per method from secret OS entropy and kept in the sweep's private
    state (``dptune.privacy.tuning``)."""
    if not isinstance(value, Mapping):
        return TrialCount("fixed", integer(value, path, 1))
    section = dict(value)
    only(section, ("distribution", "mean", "shape"), path)
    distribution = one_of(section.get("distribution"), TRIAL_DISTRIBUTIONS[1:], f"{path}.distribution")
    if distribution == "poisson":
        only(section, ("distribution", "mean"), path)
        mean = number(section.get("mean"), f"{path}.mean", lambda v: v >= 1, "a number >= 1")
        return TrialCount(distribution, mean)
    mean = number(section.get("mean"), f"{path}.mean", lambda v: v > 1, "a number > 1")
    shape = number(section.get("shape", 1.0), f"{path}.shape", lambda v: v >= 0, "a number >= 0")
    return TrialCount(distribution, mean, shape)


def method_space(name: str, value: Any, path: str) -> MethodSpace:
    definition = get_method(name, path)
    section = mapping(value, path)
    start = section.pop("start", [])
    keep_start = section.pop(KEEP_START, False)
    method_params = {p.name: p for p in definition.params if p.searchable}
    has_filter = any(p.kind == "filter" for p in definition.params)
    allowed = (*SEARCHABLE_KNOBS, *method_params, *(["filter"] if has_filter else []), "start")
    only(section, (*allowed, KEEP_START), path)
    if not isinstance(keep_start, bool):
        raise InputError(f"{path}.{KEEP_START}", f"must be true or false, got {keep_start!r}")
    if keep_start and not start:
        raise InputError(f"{path}.{KEEP_START}", "keeps a start point: give the method's start: [...] too")
    if "lr" in section and "effective_lr" in section:
        raise InputError(f"{path}.effective_lr", "search lr or effective_lr (which sets lr), not both")
    knobs = {}
    for knob, raw in section.items():
        if knob == "filter":
            continue
        param = SEARCHABLE_KNOBS.get(knob) or method_params[knob]
        knobs[knob] = parse_dist(raw, param, f"{path}.{knob}")
    filter_space = parse_filter(section["filter"], f"{path}.filter") if "filter" in section else None
    if not isinstance(start, list) or not all(isinstance(s, Mapping) for s in start):
        raise InputError(f"{path}.start", "must be a list of mappings of knob values")
    points = tuple(dict(s) for s in start)
    for i, point in enumerate(points):
        only(point, (*(a for a in allowed if a != "start"), TUNED_AT), f"{path}.start[{i}]")
        if TUNED_AT in point:
            where = f"{path}.start[{i}].{TUNED_AT}"
            point[TUNED_AT] = number(
                point[TUNED_AT], where, lambda v: v > 0, "the ε > 0 the point was tuned for"
            )
            if step_knob(point) is None:
                raise InputError(where, "carries the point's step: give its effective_lr (or lr) as well")
    space = MethodSpace(name, knobs, filter_space, points, keep_start)
    for i, point in enumerate(points):  # a carried step is checked at each ε it is carried to
        carried = (TUNED_AT, step_knob(point)) if TUNED_AT in point else ()
        given = start_point(space, {k: v for k, v in point.items() if k not in carried}, f"{path}.start[{i}]")
        missing = sorted(searched_names(space) - {*given, *carried})
        if keep_start and missing:
            raise InputError(
                f"{path}.{KEEP_START}",
                f"keeps a whole configuration: give start[{i}] a value of {', '.join(missing)} too",
            )
    return space


def parse_warm_start(value: Any, name: str, epsilons: tuple[float, ...]) -> WarmStart | None:
    """``search.warm_start``: ``{sweep: NAME, previous_epsilon: BOOL, top: N}`` (or just the earlier
    sweep's name); ``previous_epsilon`` needs several ε targets."""
    if value is None:
        return None
    section = {"sweep": value} if isinstance(value, str) else mapping(value, "search.warm_start")
    only(section, ("sweep", "previous_epsilon", "top"), "search.warm_start")
    previous = section.get("previous_epsilon", False)
    if not isinstance(previous, bool):
        raise InputError("search.warm_start.previous_epsilon", f"must be true or false, got {previous!r}")
    if previous and len(epsilons) < 2:
        raise InputError(
            "search.warm_start.previous_epsilon",
            "needs several targets in privacy.epsilon (a list); with one ε name an earlier sweep instead",
        )
    earlier = section.get("sweep")
    if earlier is None and not previous:
        raise InputError("search.warm_start.sweep", "required: the earlier sweep to start from")
    if earlier is not None and (not isinstance(earlier, str) or not earlier or earlier == name):
        raise InputError(
            "search.warm_start.sweep", f"must name an earlier sweep (not this one, {name!r}), got {earlier!r}"
        )
    top = integer(section.get("top", DEFAULT_WARM_START_TOP), "search.warm_start.top", 1)
    return WarmStart(earlier, top, previous)


def parse_proxy(value: Any, trials: TrialCount) -> Proxy | None:
    """``search.proxy``: ``{fraction: γ in (0, 1), trials: N, top: M}`` (M ≤ N; default top 3)."""
    if value is None:
        return None
    section = mapping(value, "search.proxy")
    only(section, ("fraction", "trials", "top"), "search.proxy")
    if trials.random:
        raise InputError(
            "search.proxy",
            "a proxy warm-starts the search, so the repeat-and-select bound (a random trial count) cannot "
            "hold: give budget.trials_per_method a number, or drop the proxy",
        )
    fraction = number(section.get("fraction"), "search.proxy.fraction", lambda v: 0 < v < 1, "in (0, 1)")
    count = integer(section.get("trials"), "search.proxy.trials", 1)
    top = integer(section.get("top", min(DEFAULT_WARM_START_TOP, count)), "search.proxy.top", 1)
    if top > count:
        raise InputError("search.proxy.top", f"must be at most search.proxy.trials ({count}), got {top}")
    return Proxy(fraction, count, top)


PRIVACY_EXTRAS = (
    "total_epsilon",
    "includes_tuning",
    "tuning_share",
    "validation",
    "noisy_scores",
    "release",
)
"""The ``privacy`` section's keys besides its run knobs."""
VALIDATION_MODES = ("public", "private")
"""``privacy.validation``: whether the held-out split (validation and final test) is taken as public, or is
private and every score on it noisy and counted (``dptune.privacy.heldout``)."""


def parse_validation(privacy: Mapping[str, Any], factory: bool) -> str:
    """``privacy.validation``: ``public`` by default for a built-in dataset (its public test split),
    ``private`` for a dataset factory (the user's own held-out records)."""
    mode = privacy.get("validation", "private" if factory else "public")
    if mode not in VALIDATION_MODES:
        raise InputError("privacy.validation", f"must be one of {', '.join(VALIDATION_MODES)}, got {mode!r}")
    return str(mode)


NOISY_SCORES = ("refuse", "warn")
"""``privacy.noisy_scores``: what ``validate`` and ``run`` do with a private held-out split whose noise
would swamp the selection (``dptune.sweep.held_out.SWAMPED``): refuse the spec (the default), or warn
and go on."""


def parse_noisy_scores(privacy: Mapping[str, Any]) -> str:
    """``privacy.noisy_scores`` (``NOISY_SCORES``), ``refuse`` unless the spec opts in to ``warn``."""
    choice = privacy.get("noisy_scores", NOISY_SCORES[0])
    if choice not in NOISY_SCORES:
        raise InputError("privacy.noisy_scores", f"must be one of {', '.join(NOISY_SCORES)}, got {choice!r}")
    return str(choice)


def parse_includes_tuning(
    privacy: Mapping[str, Any], compute: float | None, promoted: int | None = None
) -> IncludesTuning | None:
    """``privacy.includes_tuning: true`` (with ``privacy.tuning_share`` ρ in (0, 1), the tuning's
    ``compute``, ``budget.tuning_compute``, and its second rung's trials, ``budget.promoted_trials``): every
    ε of the spec is the total of a released model."""
    flag = privacy.get("includes_tuning", False)
    if not isinstance(flag, bool):
        raise InputError("privacy.includes_tuning", f"must be true or false, got {flag!r}")
    if not flag:
        given = [
            path
            for path, present in (
                ("privacy.tuning_share", "tuning_share" in privacy),
                ("budget.tuning_compute", compute is not None),
                ("budget.promoted_trials", promoted is not None),
                ("privacy.release", "release" in privacy),
            )
            if present
        ]
        if given:
            raise InputError(
                given[0], "is for a total ε that includes the tuning: set privacy.includes_tuning"
            )
        return None
    share = number(
        privacy.get("tuning_share", TUNING_SHARE), "privacy.tuning_share", lambda v: 0 < v < 1, "in (0, 1)"
    )
    release = privacy.get("release", ONE.name)
    if release not in PIPELINE_RELEASES:
        raise InputError("privacy.release", f"must be one of {', '.join(PIPELINE_RELEASES)}, got {release!r}")
    return IncludesTuning(share, TUNING_COMPUTE if compute is None else compute, str(release), promoted or 0)


def parse_epsilons(value: Any) -> tuple[float, ...]:
    """``privacy.epsilon``: one ε target or a list of distinct ones (each a number > 0)."""
    if not isinstance(value, list):
        return (number(value, "privacy.epsilon", lambda e: e > 0, "a number > 0"),)
    if not value:
        raise InputError("privacy.epsilon", "must be a number > 0 or a non-empty list of them, got []")
    epsilons = tuple(
        number(v, f"privacy.epsilon[{i}]", lambda e: e > 0, "a number > 0") for i, v in enumerate(value)
    )
    if len(set(epsilons)) < len(epsilons):
        raise InputError("privacy.epsilon", f"lists an ε twice: {value!r}; give each target once")
    return epsilons


def beside(base: Path, path: str) -> Path:
    """A path a spec gives, absolute: ``~`` is the user's home folder, a relative path is beside the spec
    (``base``)."""
    return (base / Path(path).expanduser()).resolve()


def resolve_tracking_uri(uri: str, base: Path, field: str = "tracking.uri") -> str:
    """An absolute SQLite URI for a relative one or a plain path (Tune runs trials in their own
    directories); other URIs unchanged.

    A plain path names a SQLite file, ``sqlite:///ABS``, when it ends in ``.db`` (made if new) or is an
    existing file. Any other plain path, a directory above all (MLflow's file store, which MLflow 3 no
    longer opens), raises an ``InputError`` naming ``field`` and what to give instead.
    """
    if uri.startswith("sqlite:///") and not uri.startswith("sqlite:////"):
        return f"sqlite:///{(base / uri[len('sqlite:///') :]).resolve()}"
    if "://" in uri:
        return uri
    path = (base / uri).resolve()
    if path.suffix == ".db" or path.is_file():
        return f"sqlite:///{path}"
    instead = "or a tracking server's URI, e.g. http://HOST:5000"
    if path.is_dir():
        raise InputError(
            field,
            f"{uri} is a directory, and MLflow's file store is not supported: name a SQLite file in it, "
            f"e.g. {Path(uri) / 'mlflow.db'}, {instead}",
        )
    raise InputError(field, f"{uri} is not a .db file: name a SQLite file, e.g. {uri}.db, {instead}")


def factory_value(given: dict[str, Any], section: str) -> dict[str, Any]:
    """``{factory: "package.module:function", args}`` of ``dataset`` or ``model`` as the run's value of
    ``name`` (the knob takes a built-in's name or an import path)."""
    if "name" in given:
        raise InputError(f"{section}.factory", "give name (a built-in) or factory (your own), not both")
    path = given.pop("factory")
    if not is_import_path(path):
        raise InputError(
            f"{section}.factory", f"must be an import path package.module:function, got {path!r}"
        )
    return given | {"name": path}


PRETRAINED_KEYS = ("hf", *MODEL_ARGS)
"""A spec's ``model`` of a pretrained Hugging Face model: ``{hf: NAME, task, revision, lora_targets}``."""


def pretrained_value(given: dict[str, Any], base: Path) -> dict[str, Any]:
    """``{hf: NAME, task, revision, lora_targets}`` as the run's ``model`` (``hf:NAME``) and its
    ``model_args``. A NAME that is a folder (beside the spec, or from ``~``) is that folder (a local
    checkpoint)."""
    if "name" in given or "factory" in given:
        raise InputError("model.hf", "give hf (a pretrained model) alone, not with name or factory")
    name = given.pop("hf")
    if not isinstance(name, str) or not name:
        raise InputError("model.hf", f"must be a Hugging Face model name or a local folder, got {name!r}")
    if (folder := beside(base, name)).is_dir():
        name = str(folder)
    args = {key: given.pop(key) for key in MODEL_ARGS if key in given}
    return given | {"name": f"{PRETRAINED_PREFIX}{name}", "args": args}


def text_files_beside(args: Any, base: Path) -> dict[str, Any]:
    """``dataset.args`` of ``text`` with its files (``train``, ``held_out``) resolved beside the spec."""
    given = dict(mapping(args, "dataset.args"))
    for key in ("train", "held_out"):
        if isinstance(given.get(key), str):
            given[key] = str(beside(base, given[key]))
    return given
