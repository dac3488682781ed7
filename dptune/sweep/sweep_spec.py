"""A validated sweep spec (``SweepSpec``): what a sweep runs, per method and per ε target, as
``dptune.sweep.spec`` parses it from YAML and ``dptune.sweep.spec_rules`` checks it."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from dptune.privacy.heldout import PrivateHeldOut
from dptune.privacy.tuning import TrialCount
from dptune.sweep.bound import SearchSetup
from dptune.sweep.release_policies import ONE, PER_METHOD, RELEASE_POLICIES, RERUNS, ReleasePolicy
from dptune.sweep.space import (
    MethodSpace,
    carried_start_point,
)
from dptune.sweep.spec_parts import (
    IncludesTuning,
    Proxy,
    WarmStart,
    startup_trials,
)
from dptune.training.config import RunConfig

PROXY_SUFFIX = ".proxy"


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
    proxy: Proxy | None  # a tuning proxy's sweep before each ε's search (``sweeps_at``)
    epsilons: tuple[float, ...]  # the ε targets; several: one sweep per ε (``at_epsilon``)
    reruns: int  # re-runs of each method's selected configuration, on the final-test part
    tracking_uri: str
    experiment: str
    storage_path: str
    methods: dict[str, MethodSpace]
    source: dict[str, Any] = field(default_factory=dict, compare=False)
    includes_tuning: IncludesTuning | None = None  # each ε the total of a released model, tuning included
    validation: str = "public"  # ``privacy.validation``: the held-out split public, or private
    noisy_scores: str = "refuse"  # ``privacy.noisy_scores``: a private split's noise that swamps it
    held_out: PrivateHeldOut | None = None  # its noisy scores' guarantee (``dptune.sweep.held_out``)
    keep_method: str | None = None  # ``selection.keep_method``: the method one model's pick keeps

    @property
    def release(self) -> ReleasePolicy:
        """How the spec publishes its selections (``dptune.sweep.release_policies``): per-run ε targets
        re-run each selection; an ε that includes the tuning releases as ``privacy.release`` says, one model
        across a single method being that method's own, one across several keeping ``keep_method``'s
        selection unless beaten clearly (``selection.keep_method``)."""
        if self.includes_tuning is None:
            return RERUNS
        name = self.includes_tuning.release
        if name == ONE.name and len(self.methods) < 2:
            return PER_METHOD
        if name == ONE.name:
            family = self.keep_method is not None and self.methods[self.keep_method].keep_start
            return ONE.keeping(self.keep_method, family)
        return RELEASE_POLICIES[name]

    def with_trials(self, count: TrialCount) -> SweepSpec:
        """This spec with ``count`` trials per method, TPE's and GP's random start-up rescaled to it unless
        the spec states ``search.startup_trials``."""
        search = self.source.get("search")
        given = isinstance(search, Mapping) and "startup_trials" in search
        startup = self.startup_trials if given else startup_trials(count)
        return replace(self, trials=count, startup_trials=startup)

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

    @property
    def trained_parts(self) -> tuple[str, ...]:
        """Every ``trains`` a trial may have: the runs', and each method's ``trains`` draws."""
        drawn = (
            part
            for space in self.methods.values()
            if "trains" in space.knobs
            for part in space.knobs["trains"].values()
        )
        return tuple(dict.fromkeys((*(run.trains for run in self.runs.values()), *drawn)))

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

    def sweeps_at(self, index: int) -> list[SweepSpec]:
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
