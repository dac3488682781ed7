"""A spec whose ε includes the tuning (``privacy.includes_tuning``) as the planner reads it and as its
sweeps run it: the planner's setup from the spec (``plan_setup``), every method's plan at every total
(``planned``) and the sweep of each total (``pipeline``). The spec reader (``dptune.sweep.spec``) knows
nothing of the planner; this module joins the two.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from dptune.privacy.plans import MethodPlan
from dptune.sweep.plan import plan_sweep
from dptune.sweep.plan_runs import PlanSetup, with_tuning_epochs
from dptune.sweep.spec_parts import IncludesTuning
from dptune.sweep.sweep_spec import SweepSpec
from dptune.training.calibrated_run import resolved_delta
from dptune.training.config import RunConfig

CARRY_RULE = (
    "linear scaling rule in steps: r_B = r_t·ε_B/ε_t with r = η·T, carried in the length of training; tuning "
    "trials run T_t = max(1, round(T·ε_t/ε_B)) epochs at a step η, the release T epochs at the same η "
    "(Panda et al. 2024)"
)
"""What a card says of how ``carried`` takes the selected configuration to its release."""


def plan_setup(spec: SweepSpec, delta: float) -> PlanSetup:
    """What the planner of an ε that includes the tuning reads from ``spec`` (every ε a total)."""
    settings = spec.includes_tuning or IncludesTuning()
    return PlanSetup(
        methods=spec.methods,
        runs=spec.runs,
        totals=spec.epsilons,
        delta=delta,
        trials=spec.trials,
        tuning_share=settings.share,
        tuning_compute=settings.compute,
        release=spec.release,
        promoted=settings.promoted,
    )


def plans_at(plans: Sequence[MethodPlan], total: float) -> dict[str, MethodPlan]:
    """Each method's plan at ``total``."""
    return {p.method: p for p in plans if p.total_epsilon == total}


def pipeline(spec: SweepSpec, index: int, plans: Sequence[MethodPlan]) -> SweepSpec:
    """The sweep of the ``index``-th total ε: every method's tuning trials (as many as its plan counts,
    ``dptune.sweep.plan.plan_spread``) at its plan's per-run ε_t (on the plan's secret subset,
    ``tuning_run``), then its release, once (the plan the re-run of the selected
    configuration carries it to, ``carried``, on the whole data). Its runs' epochs are
    the tuning's share: the searcher shortens a drawn epochs knob likewise (``tuning_knobs``). A start
    point stated at the ε it was tuned for is carried to its release's ε (by RDP, the measure the plan's
    linear scaling rule reads): it is a configuration of the released model, as every candidate is."""
    sweep = spec.at_epsilon(index)
    mine = plans_at(plans, spec.epsilons[index])
    runs = {method: tuning_run(run, mine[method]) for method, run in sweep.runs.items()}
    methods = spec.carried_starts(lambda method: mine[method].release.rdp_epsilon)
    (count,) = {plan.tuning.count for plan in mine.values()}
    return replace(sweep.with_trials(count), runs=runs, reruns=1, methods=methods)


def planned(spec: SweepSpec, n: int) -> list[MethodPlan] | None:
    """The plan of every model a spec whose ε includes the tuning releases, on ``n`` training samples
    (``dptune.sweep.plan``; a total too small for a useful plan refused, with the smallest that works, and
    a start point whose carried step leaves its space); None for a per-run spec."""
    if spec.includes_tuning is None:
        return None
    delta = resolved_delta(spec.shared, n)
    plans = plan_sweep(plan_setup(spec, delta), n)
    for index in range(len(spec.epsilons)):
        pipeline(spec, index, plans)  # every start point carried to its release's ε fits its space
    rule = spec.release.rule  # the card's sentences of the steps that choose and carry the release
    return [replace(p, selection_rule=rule(p.keep_start), carry_rule=CARRY_RULE) for p in plans]


def tuning_knobs(config: Mapping[str, Any], plan: MethodPlan) -> dict[str, Any]:
    """A tuning trial's knobs from a configuration of the spec's space: a spec states the released
    model's epochs, so a drawn ``epochs`` T becomes the plan's T_t (``carried`` takes it back); every
    other knob, the step included, as drawn."""
    tuned = dict(plan.epochs)
    return {k: tuned[v] if k == "epochs" else v for k, v in config.items()}


def promoted_knobs(config: Mapping[str, Any], run: RunConfig, plan: MethodPlan) -> dict[str, Any]:
    """A promoted trial's knobs from its first-rung trial's ``config`` (``tuning_knobs``'s, over the tuning
    trials' ``run``, ``tuning_run``): the same knobs, step included, for ``Phase.factor`` times its epochs
    T_t at the noise of the first rung (the per-run ε of that longer run, ``Phase.promoted_epsilon``), on
    the same subset."""
    tuning = plan.tuning
    epochs = run.with_knobs(config).epochs * tuning.factor
    return {**config, "epochs": epochs, "epsilon": tuning.promoted_epsilon}


def tuning_run(run: RunConfig, plan: MethodPlan) -> RunConfig:
    """The run a method's tuning trials start from: at the plan's per-run ε_t and δ by the phase's
    accountant, on its subset (none for γ = 1), for the plan's T_t epochs of the spec's T."""
    fraction = plan.tuning.fraction
    return replace(
        with_tuning_epochs(run, plan.epochs),
        epsilon=plan.tuning.per_run_epsilon,
        delta=plan.delta,
        accountant=plan.tuning.accountant,
        proxy_fraction=fraction if fraction < 1 else None,
    )


def carried(config: Mapping[str, Any], run: RunConfig, plan: MethodPlan) -> dict[str, Any]:
    """The release's knobs: the selected trial's ``config`` on the whole data at the release's (ε, δ) by
    its phase's accountant, for the epochs T its T_t stands for, at the step it was scored at (``lr``, or
    ``effective_lr`` where the run sets η by it): the linear scaling rule carried in the length of
    training alone (``CARRY_RULE``), so the release never takes a step no trial tested. Where T_t is
    rounded, the length T/T_t departs from the rule's ε_B/ε_t by that rounding; the step does not
    (``run``: the tuning trials' run, ``tuning_run``)."""
    tuned = run.with_knobs(config)
    return {
        **config,
        "epochs": plan.released_epochs(tuned.epochs),
        "epsilon": plan.release.per_run_epsilon,
        "delta": plan.release.per_run_delta,
        "accountant": plan.release.accountant,
        "proxy_fraction": None,
    }
