"""Sweep specs: YAML -> validated, typed objects. Every error names the YAML path of its field.

The top-level keys (see ``sweeps/quickstart.yaml`` and docs/reference.md):

    name, dataset {name, subset, root} | {factory, args, subset}, model {name} | {factory, args},
    privacy {epsilon: ε | [ε, ...], delta, accountant, sampling, total_epsilon},
    training {epochs, lr, clip, batch_size, physical_batch_size, engine, seed, noise_generator},
    budget {trials_per_method: N | {distribution, mean, shape}, max_concurrent},
    resources {cpu, gpu, gpu_fallback, wait},
    scheduler {name: none|asha, grace_period (epochs of the longest plan; ASHA's rungs are shares of each
               trial's plan: ``dptune.tune.schedulers.asha``)},
    search {sampler: tpe|random|gp|nsga2, seed, startup_trials, warm_start: {sweep, previous_epsilon, top},
            proxy: {fraction, trials, top}},
    selection {reruns}, tracking {uri, experiment}, storage_path,
    methods {METHOD: {KNOB: DIST, ..., start: [...]}}

A knob is a training setting (``lr``, ``clip``, ``batch_size``, ``epochs``) or a method parameter;
its value is a fixed scalar or one distribution: ``{uniform: [lo, hi]}``, ``{loguniform: [lo, hi]}``,
``{int: [lo, hi]}``, ``{choice: [v, ...]}``. Filters have their own families
(``dptune.methods.filter_families``).

``privacy.epsilon`` may list several targets: the spec then stands for one sweep per ε
(``SweepSpec.at_epsilon``), run one after another with the same per-(method, ε) budget, named
``NAME.epsE`` and tracked in one MLflow experiment, so that each method gets an accuracy-vs-ε curve.
With ``search.warm_start.previous_epsilon`` each ε's search starts from the configurations the
previous ε's sweep released (and its privacy figures count that sweep's whole ε and δ).
``dataset.factory`` and ``model.factory`` name the user's own code (``package.module:function``, called
with ``args``; ``dptune.base.factories``), imported with the spec's folder first on the path.
``search.proxy`` puts a tuning proxy's sweep on a secret subset of the data before each ε's search
(``SweepSpec.stages``), which then starts from the proxy's best configurations.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import yaml

from dptune.base.errors import InputError
from dptune.base.factories import is_import_path
from dptune.methods import METHODS, get_method
from dptune.methods.filter_families import PRESET, get_family
from dptune.methods.params import Param
from dptune.privacy.heldout import PrivateHeldOut
from dptune.privacy.tuning import TRIAL_DISTRIBUTIONS, TrialCount
from dptune.sweep.bound import SearchSetup
from dptune.sweep.space import (
    KEEP_START,
    TUNED_AT,
    Dist,
    FilterSpace,
    MethodSpace,
    carried_start_point,
    privacy_configurations,
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
    read_spec_keys,
    section_keys,
)
from dptune.training.config import KNOBS, SEARCHABLE_KNOBS, RunConfig

DISTRIBUTIONS = ("uniform", "loguniform", "int", "choice")
MODEL_BASED_SAMPLERS = ("tpe", "gp")
STARTUP_SHARE = 1 / 3
"""The share of a method's trial budget that TPE and GP draw at random before their model takes over
(``search.startup_trials`` overrides it): Optuna's fixed 10 would make a search of 8–24 trials mostly or
wholly random."""
DEFAULT_WARM_START_TOP = 3

RUN_SECTIONS = {
    "dataset": {"name": "dataset", "subset": "subset", "root": "data_root", "args": "dataset_args"},
    "model": {"name": "model", "args": "model_args"},
    "privacy": {"epsilon": "epsilon", "delta": "delta", "accountant": "accountant", "sampling": "sampling"},
}
"""Where a spec gives the run's knobs outside ``training``: section -> YAML key -> knob."""
SPEC_FIELD = {
    knob: f"{section}.{key}" for section, keys in RUN_SECTIONS.items() for key, knob in keys.items()
}
TRAINING_KEYS = tuple(k for k in KNOBS if k not in SPEC_FIELD and k not in ("method", "device"))
"""The ``training`` section's keys: every other knob of ``RunConfig`` but the method and the device."""


def spec_field(knob: str) -> str:
    """The YAML path of a run knob (``epsilon`` -> ``privacy.epsilon``, ``lr`` -> ``training.lr``)."""
    return SPEC_FIELD.get(knob, f"training.{knob}")


def startup_trials(trials: TrialCount) -> int:
    """TPE's and GP's random start-up: ``STARTUP_SHARE`` of the (mean) trial budget, at least one."""
    return max(1, math.ceil(STARTUP_SHARE * trials.mean))


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


PROXY_SUFFIX = ".proxy"


@dataclass(frozen=True)
class IncludesTuning:
    """``privacy.includes_tuning``: each ε is the total of the model a method releases, its tuning
    included; the planner (``dptune.sweep.plan``) gives the tuning the share ``share`` of it and at most
    ``compute`` full runs' worth of compute."""

    share: float = TUNING_SHARE
    compute: float = TUNING_COMPUTE


def epsilon_sweep_name(name: str, epsilon: float) -> str:
    """The name of one ε's sweep of a spec across several ε: ``NAME.eps3``, ``NAME.eps0.5``."""
    return f"{name}.eps{epsilon:g}"


@dataclass(frozen=True)
class SweepSpec:
    """A validated sweep: ``runs`` holds, per method, the run every trial of it starts from (dataset,
    model, privacy and training defaults of the spec; a trial adds its drawn knobs)."""

    name: str
    runs: dict[str, RunConfig]
    total_epsilon: float | None  # a privacy filter's total for the whole sweep (``dptune.privacy.filter``)
    trials: TrialCount
    max_concurrent: int | None  # trials at once (every method's); None: as many as the cluster holds
    cpu: float
    gpu: float
    gpu_fallback: str
    wait: float  # seconds to wait for a node that fits a trial, on a cluster that can grow
    scheduler: str
    grace_period: int
    sampler: str
    seed: int | None  # the sampler's draws; None: secret OS entropy (always, for a secret trial count)
    startup_trials: int
    warm_start: WarmStart | None
    proxy: Proxy | None  # a tuning proxy's sweep before each ε's search (``stages``)
    epsilons: tuple[float, ...]  # the ε targets; several: one sweep per ε (``at_epsilon``)
    reruns: int  # re-runs of each method's selected configuration, on the final-test part
    tracking_uri: str
    experiment: str
    storage_path: str
    methods: dict[str, MethodSpace]
    source: dict[str, Any] = field(default_factory=dict, compare=False)
    includes_tuning: IncludesTuning | None = None  # each ε the total of a released model, tuning included
    validation: str = "public"  # ``privacy.validation``: the held-out split public, or private
    held_out: PrivateHeldOut | None = None  # its noisy scores' guarantee, once δ is known (``with_held_out``)

    def held_out_queries(self) -> int:
        """The most scores a run of this spec makes on the held-out split: for every ε and method, each
        trial (a tuning proxy's too) and each re-run or release, one score an epoch for the most epochs it
        can run (a final-test score is on other records, one per re-run: fewer)."""
        finals = 1 if self.includes_tuning is not None else self.reruns
        proxy = self.proxy.trials if self.proxy is not None else 0
        per_epsilon = sum(
            (int(self.trials.mean) + proxy + finals) * int(self.knob_range(method, "epochs")[1])
            for method in self.methods
        )
        return len(self.epsilons) * per_epsilon

    def with_held_out(self, delta: float) -> SweepSpec:
        """With ``privacy.validation: private``, this spec with every run's held-out scores noisy
        (``RunConfig.heldout_noise``): the least noise whose scores, every one a run of the spec can make,
        compose to (ε, ``delta``) for the held-out records, ε the smallest target (each total's model then
        covers them at its own ε or better); with a public split, this spec."""
        if self.validation == "public":
            return self
        held_out = PrivateHeldOut.calibrated(self.held_out_queries(), min(self.epsilons), delta)
        runs = {m: replace(run, heldout_noise=held_out.noise) for m, run in self.runs.items()}
        return replace(self, runs=runs, held_out=held_out)

    def search_setup(self) -> SearchSetup:
        """What this sweep's privacy bound depends on (``dptune.sweep.bound``)."""
        return SearchSetup(
            methods=self.methods,
            runs=self.runs,
            trials=self.trials,
            sampler=self.sampler,
            scheduler=self.scheduler,
            warm_started=self.warm_start is not None,
            reruns=self.reruns,
            total_epsilon=self.total_epsilon,
        )

    @property
    def shared(self) -> RunConfig:
        """The run settings every method shares (all but the method): the first method's run."""
        return next(iter(self.runs.values()))

    @property
    def models(self) -> tuple[str, ...]:
        """Every model a trial may train: the spec's, and each method's ``model`` draws."""
        drawn = (
            m
            for space in self.methods.values()
            if "model" in space.knobs
            for m in space.knobs["model"].values()
        )
        return tuple(dict.fromkeys((*(run.model for run in self.runs.values()), *drawn)))

    def knob_range(self, method: str, knob: str) -> tuple[Any, Any]:
        """The least and the greatest value of a numeric knob a trial of ``method`` can have: over its
        search space when the spec searches it, else the method's fixed setting."""
        dist = self.methods[method].knobs.get(knob)
        if dist is None:
            fixed = getattr(self.runs[method], knob)
            return fixed, fixed
        return min(dist.args), max(dist.args)

    def at_epsilon(self, index: int) -> SweepSpec:
        """The sweep of the ``index``-th ε target: this spec at that ε alone, named ``NAME.epsE`` when the
        spec lists several (a single ε keeps the name), warm-started from the previous ε's sweep when
        ``search.warm_start.previous_epsilon`` says so, its start points carried to that ε
        (``carried_starts``)."""
        epsilon = self.epsilons[index]
        # a total ε's start points are carried to its release's ε, by its plan (``pipeline``)
        methods = self.methods if self.includes_tuning else self.carried_starts(lambda method: epsilon)
        if len(self.epsilons) == 1:
            return self if methods == self.methods else replace(self, methods=methods)
        warm = self.warm_start
        if warm is not None and warm.previous_epsilon:
            earlier = epsilon_sweep_name(self.name, self.epsilons[index - 1]) if index else warm.sweep
            warm = WarmStart(earlier, warm.top) if earlier is not None else None
        return replace(
            self,
            name=epsilon_sweep_name(self.name, epsilon),
            runs={method: replace(run, epsilon=epsilon) for method, run in self.runs.items()},
            warm_start=warm,
            epsilons=(epsilon,),
            methods=methods,
        )

    def carried_starts(self, epsilon: Callable[[str], float]) -> dict[str, MethodSpace]:
        """Every method's space with its start points carried to the per-run ε ``epsilon(method)`` of the
        run they start (``dptune.sweep.space.carried_start_point``: a point's ``tuned_at`` ε₀ scales its
        step by ε/ε₀); an ``InputError`` where a carried step leaves its space."""
        return {
            method: replace(
                space,
                start=tuple(carried_start_point(space, i, epsilon(method)) for i in range(len(space.start))),
            )
            for method, space in self.methods.items()
        }

    def stages(self, index: int) -> list[SweepSpec]:
        """The sweeps of the ``index``-th ε target in order: with ``search.proxy``, the proxy's sweep
        (``NAME.proxy``: the subset, its own trial count, no re-runs, the start points, warm-started as
        this ε's search would be), then the search on the whole data warm-started from the proxy's best
        (the start points ran in the proxy: they lead the search only if they are among its best); else
        that ε's sweep alone."""
        sweep = self.at_epsilon(index)
        proxy = sweep.proxy
        if proxy is None:
            return [sweep]
        count = TrialCount("fixed", proxy.trials)
        subset = replace(
            sweep,
            name=sweep.name + PROXY_SUFFIX,
            runs={m: replace(run, proxy_fraction=proxy.fraction) for m, run in sweep.runs.items()},
            trials=count,
            startup_trials=startup_trials(count),
            reruns=0,
            proxy=None,
        )
        full = replace(
            sweep,
            warm_start=WarmStart(subset.name, proxy.top),
            proxy=None,
            methods={m: replace(space, start=()) for m, space in sweep.methods.items()},
        )
        return [subset, full]

    @property
    def has_start_points(self) -> bool:
        return any(space.start for space in self.methods.values())

    def describe_epsilon(self) -> str:
        """The ε target(s) as a spec's summary shows them: ``ε=1`` or ``ε ∈ {1, 3, 8}``."""
        if len(self.epsilons) == 1:
            return f"ε={self.epsilons[0]:g}"
        return "ε ∈ {" + ", ".join(f"{e:g}" for e in self.epsilons) + "}"


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


def search_seed(value: Any, trials: TrialCount, research_seed: int | None) -> int | None:
    """The seed of the search's sampler: ``search.seed`` as given, or None (the sampler draws from secret
    OS entropy). A random trial count (repeat-and-select) needs its draws secret: with a public seed the
    order of configurations is public, so the one released tells which trial it was and that K was at
    least that many. It takes a seed only in the labelled research mode (``training.seed``), where the
    sampler is seeded by it when ``search.seed`` is not given."""
    if value is None:
        return research_seed
    seed = integer(value, "search.seed", 0)
    if trials.random and research_seed is None:
        raise InputError(
            "search.seed",
            "a random trial count (repeat-and-select) needs a secret search order: drop search.seed (the "
            "sampler then draws from OS entropy), or set training.seed for the labelled research mode",
        )
    return seed


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


PRIVACY_EXTRAS = ("total_epsilon", "includes_tuning", "tuning_share", "validation")
VALIDATION_MODES = ("public", "private")
"""``privacy.validation``: whether the held-out split (validation and final test) is taken as public, or is
private and every score on it noisy and counted (``dptune.privacy.heldout``)."""


def parse_validation(privacy: Mapping[str, Any], factory: bool, trials: TrialCount, warm: bool) -> str:
    """``privacy.validation``: ``public`` by default for a built-in dataset (its public test split),
    ``private`` for a dataset factory (the user's own held-out records). Private scores are counted by their
    number, fixed before the sweep: a secret trial count or an earlier sweep's scores cannot be."""
    mode = privacy.get("validation", "private" if factory else "public")
    if mode not in VALIDATION_MODES:
        raise InputError("privacy.validation", f"must be one of {', '.join(VALIDATION_MODES)}, got {mode!r}")
    if mode == "private" and trials.random:
        raise InputError(
            "privacy.validation",
            "private held-out data needs a fixed budget.trials_per_method (a secret count's scores cannot be "
            "counted in advance); or set privacy.validation: public if the held-out split is public",
        )
    if mode == "private" and warm:
        raise InputError(
            "privacy.validation",
            "private held-out data cannot count the scores an earlier sweep made on it: drop "
            "search.warm_start, or set privacy.validation: public if the held-out split is public",
        )
    return str(mode)


"""The ``privacy`` section's keys besides its run knobs."""


def parse_includes_tuning(privacy: Mapping[str, Any], compute: float | None) -> IncludesTuning | None:
    """``privacy.includes_tuning: true`` (with ``privacy.tuning_share`` ρ in (0, 1) and the tuning's
    ``compute``, ``budget.tuning_compute``): every ε of the spec is the total of a released model."""
    flag = privacy.get("includes_tuning", False)
    if not isinstance(flag, bool):
        raise InputError("privacy.includes_tuning", f"must be true or false, got {flag!r}")
    if not flag:
        given = [
            path
            for path, present in (
                ("privacy.tuning_share", "tuning_share" in privacy),
                ("budget.tuning_compute", compute is not None),
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
    return IncludesTuning(share, TUNING_COMPUTE if compute is None else compute)


def refuse_with_total(spec: SweepSpec) -> None:
    """What a spec whose ε includes the tuning cannot combine with: the plan fixes the trial count, the
    subset and the one release, and counts nothing an earlier sweep spent."""
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
            raise InputError(path, f"cannot be combined with privacy.includes_tuning: {fix}")


def refuse_with_keep_start(spec: SweepSpec) -> None:
    """What a method that keeps its start point (``keep_start``) cannot combine with: a search whose
    start point might not train every epoch (ASHA stops trials) or is run by a proxy stage, not by the
    search that selects (``search.proxy``)."""
    conflicts = (
        (spec.scheduler != "none", "ASHA may stop the start point's trial: use scheduler: none"),
        (spec.proxy is not None, "the proxy runs the start points, not the search: drop search.proxy"),
    )
    for method, space in spec.methods.items():
        for conflict, fix in conflicts:
            if space.keep_start and conflict:
                raise InputError(f"methods.{method}.{KEEP_START}", f"cannot be combined here: {fix}")


def unused_with_total(spec: SweepSpec) -> str:
    """The note a spec whose ε includes the tuning prints under its plan for what it gives but the plan
    replaces (empty if nothing): ``selection.reruns``, since each plan releases one run per method."""
    selection = spec.source.get("selection")
    if isinstance(selection, Mapping) and "reruns" in selection:
        return (
            f"\nselection.reruns ({selection['reruns']}) is not used: with privacy.includes_tuning each plan "
            "releases one run per method, the run its ε counts"
        )
    return ""


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


def _factory(given: dict[str, Any], section: str) -> dict[str, Any]:
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


def parse_spec(raw: Any, base: Path | None = None) -> SweepSpec:
    """Validate a loaded YAML document; relative paths resolve against ``base`` (the working dir)."""
    base = (base or Path.cwd()).resolve()
    doc = mapping(raw, "spec")
    only(doc, section_keys(""), "")
    settings = read_spec_keys(doc)
    for key in ("name", "dataset", "model", "privacy", "methods"):
        if key not in doc:
            raise InputError(key, "required")
    name = doc["name"]
    if not isinstance(name, str) or not name or any(c in name for c in "/\\ "):
        raise InputError("name", f"must be a non-empty name without spaces or slashes, got {name!r}")

    values: dict[str, Any] = {}
    factories: set[str] = set()
    for section, keys in RUN_SECTIONS.items():
        given = mapping(doc[section], section)
        extra = {"privacy": PRIVACY_EXTRAS, "dataset": ("factory",), "model": ("factory",)}
        only(given, tuple(keys) + extra.get(section, ()), section)
        if "factory" in given:
            given = _factory(given, section)
            factories.add(section)
        if "args" in given:
            given["args"] = mapping(given["args"], f"{section}.args")
        values |= {knob: given[key] for key, knob in keys.items() if key in given}
    if "epsilon" not in values:
        raise InputError("privacy.epsilon", "required: the fixed privacy budget ε > 0")
    epsilons = parse_epsilons(values["epsilon"])
    values["epsilon"] = epsilons[0]  # the runs below; ``at_epsilon`` gives each target its own
    if "dataset" not in values:
        raise InputError("dataset.name", "required")
    if "model" not in values:
        raise InputError("model.name", "required")
    if values.get("data_root") is not None:
        values["data_root"] = str((base / str(values["data_root"])).resolve())
    training = mapping(doc.get("training"), "training")
    only(training, TRAINING_KEYS, "training")
    values |= training
    methods = mapping(doc["methods"], "methods")
    if not methods:
        raise InputError("methods", f"name at least one method: {', '.join(METHODS)}")
    for method in methods:
        get_method(method, f"methods.{method}")

    def where(knob: str) -> str:
        return f"{knob}.factory" if knob in factories else spec_field(knob)

    runs = {method: RunConfig.parse(values | {"method": method}, where) for method in methods}
    shared = next(iter(runs.values()))
    if shared.sampling != "poisson":
        raise InputError(
            "privacy.sampling",
            f"{shared.sampling} is refused in sweeps: every bound of a sweep (per trial, with tuning, the "
            "filter) assumes Poisson sampling; use poisson, or `dptune train --sampling shuffle` for "
            "one labelled run",
        )
    total_epsilon = mapping(doc["privacy"], "privacy").get("total_epsilon")
    if total_epsilon is not None and len(epsilons) > 1:
        raise InputError(
            "privacy.total_epsilon",
            "a privacy filter's total is for one ε target: give privacy.epsilon one value, or no filter",
        )
    if total_epsilon is not None:
        total_epsilon = number(
            total_epsilon,
            "privacy.total_epsilon",
            lambda v: v >= shared.epsilon,
            f"a number >= privacy.epsilon ({shared.epsilon:g})",
        )

    budget = mapping(doc.get("budget"), "budget")
    includes_tuning = parse_includes_tuning(
        mapping(doc["privacy"], "privacy"), settings["budget.tuning_compute"]
    )
    trials = parse_trial_count(budget.get("trials_per_method", 4), "budget.trials_per_method")
    if trials.random and total_epsilon is not None:
        raise InputError(
            "budget.trials_per_method",
            "a random trial count is for the repeat-and-select bound; with privacy.total_epsilon (a filter) "
            "give a fixed number, the most trials the filter may admit",
        )
    search = mapping(doc.get("search"), "search")
    sampler = settings["search.sampler"]
    seed = search_seed(search.get("seed"), trials, shared.seed)
    if "startup_trials" in search and sampler not in MODEL_BASED_SAMPLERS:
        raise InputError(
            "search.startup_trials",
            f"only the model-based samplers ({', '.join(MODEL_BASED_SAMPLERS)}) have a random start-up phase",
        )
    startup = (
        integer(search["startup_trials"], "search.startup_trials", 1)
        if "startup_trials" in search
        else startup_trials(trials)
    )
    warm_start = parse_warm_start(search.get("warm_start"), name, epsilons)
    if warm_start is not None and trials.random:
        raise InputError(
            "search.warm_start",
            "a warm start is not a random draw, so the repeat-and-select bound (a random trial count) cannot "
            "hold; give a fixed budget.trials_per_method",
        )

    proxy = parse_proxy(search.get("proxy"), trials)
    if proxy is not None and shared.proxy_fraction is not None:
        raise InputError(
            "training.proxy_fraction",
            "search.proxy makes the proxy's sweep itself: drop training.proxy_fraction (it would put the "
            "whole search on the subset)",
        )

    storage = settings["storage_path"]
    storage_path = storage if "://" in storage else str((base / storage).resolve())

    validation = parse_validation(
        mapping(doc["privacy"], "privacy"), "dataset" in factories, trials, warm_start is not None
    )
    spaces = {m: method_space(m, v, f"methods.{m}") for m, v in methods.items()}
    if "effective_lr" in training:
        if "lr" in training:
            raise InputError("training.effective_lr", "give lr or effective_lr (which sets lr), not both")
        for method, space in spaces.items():
            if "lr" in space.knobs:
                raise InputError(
                    f"methods.{method}.lr",
                    "training.effective_lr sets lr for every method: search effective_lr here instead",
                )
    for space in spaces.values():
        privacy_configurations(space)  # every bound counts each trial at the worst plan it could be given

    spec = SweepSpec(
        name=name,
        runs=runs,
        total_epsilon=total_epsilon,
        trials=trials,
        max_concurrent=settings["budget.max_concurrent"],
        cpu=settings["resources.cpu"],
        gpu=settings["resources.gpu"],
        gpu_fallback=settings["resources.gpu_fallback"],
        wait=settings["resources.wait"],
        scheduler=settings["scheduler.name"],
        grace_period=settings["scheduler.grace_period"],
        sampler=sampler,
        seed=seed,
        startup_trials=startup,
        warm_start=warm_start,
        proxy=proxy,
        epsilons=epsilons,
        reruns=settings["selection.reruns"],
        tracking_uri=resolve_tracking_uri(settings["tracking.uri"], base),
        experiment=settings["tracking.experiment"] or name,
        storage_path=storage_path,
        methods=spaces,
        source=doc,
        includes_tuning=includes_tuning,
        validation=validation,
    )
    refuse_with_keep_start(spec)
    if includes_tuning is not None:
        refuse_with_total(spec)  # its start points are carried to each release's ε by its plan
    else:
        for index in range(len(epsilons)):
            spec.at_epsilon(index)  # every start point carried to every ε fits its space
    return spec


def check_batch_sizes(spec: SweepSpec, n: int) -> None:
    """Every batch size a trial can draw must fit the training set (checked before anything starts)."""
    for method, space in spec.methods.items():
        _, largest = spec.knob_range(method, "batch_size")
        if largest > n:
            field = f"methods.{method}.batch_size" if "batch_size" in space.knobs else "training.batch_size"
            raise InputError(field, f"batch size {largest} exceeds the {n} training samples")


def apply_overrides(doc: Any, overrides: Mapping[str, Any]) -> Any:
    """Set dotted paths (``tracking.uri``) in a loaded spec document, e.g. from command-line flags."""
    for dotted, value in overrides.items():
        node = doc
        *parents, last = dotted.split(".")
        for key in parents:
            if not isinstance(node, dict):
                break
            node = node.setdefault(key, {})
        if isinstance(node, dict):
            node[last] = value
    return doc


def refuse_duplicate_keys(node: yaml.Node | None, path: str = "") -> None:
    """An ``InputError`` naming the first key that a mapping of the YAML document ``node`` gives twice:
    PyYAML keeps the last silently, so a second ``privacy:`` would replace the first without a word."""
    if isinstance(node, yaml.MappingNode):
        seen: dict[str, int] = {}
        for key, value in node.value:
            name = str(key.value)
            where = f"{path}.{name}" if path else name
            line = key.start_mark.line + 1
            if name in seen:
                raise InputError(where, f"given twice (lines {seen[name]} and {line}); keep one")
            seen[name] = line
            refuse_duplicate_keys(value, where)
    elif isinstance(node, yaml.SequenceNode):
        for index, item in enumerate(node.value):
            refuse_duplicate_keys(item, f"{path}[{index}]")


def load_spec(
    path: str | Path,
    base: Path | None = None,
    overrides: Mapping[str, Any] | None = None,
    methods: Sequence[str] = (),
) -> SweepSpec:
    """Read and validate a YAML spec file, with optional dotted-path overrides, and only ``methods`` of
    its methods where given (``dptune run --method``)."""
    file = Path(path)
    if not file.is_file():
        raise InputError("spec", f"no such file: {file}")
    loader = yaml.SafeLoader(file.read_text())
    try:  # composed once: its nodes are checked for keys given twice, then built into Python values
        node = loader.get_single_node()
        refuse_duplicate_keys(node)
        raw = None if node is None else loader.construct_document(node)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark else ""
        raise InputError("spec", f"{file} is not valid YAML{where}") from None
    finally:
        loader.dispose()
    folder = str(file.resolve().parent)  # a factory's module may sit beside the spec
    if folder not in sys.path:
        sys.path.insert(0, folder)
    return parse_spec(only_methods(apply_overrides(raw, overrides or {}), methods), base)


def only_methods(doc: Any, methods: Sequence[str]) -> Any:
    """The spec document with only ``methods`` of its ``methods`` section (all of them when empty)."""
    if not methods or not isinstance(doc, dict) or not isinstance(doc.get("methods"), Mapping):
        return doc
    given = doc["methods"]
    for method in methods:
        if method not in given:
            raise InputError("--method", f"{method} is not a method of the spec; it has {', '.join(given)}")
    return doc | {"methods": {m: v for m, v in given.items() if m in methods}}
