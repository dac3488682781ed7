"""A spec whose ε includes the tuning (``privacy.includes_tuning``) as the planner reads it and as its
sweeps run it: the planner's setup from the spec (``plan_setup``), every method's plan at every total
(``planned``) and the sweep of each total (``pipeline``). The spec reader (``dptune.sweep.spec``) knows
nothing of the planner; this module joins the two.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from dptune.sweep.plan import MethodPlan, PlanSetup, plan_sweep, tuning_run
from dptune.sweep.spec import SweepSpec
from dptune.sweep.spec_parts import IncludesTuning
from dptune.training.calibrated_run import default_delta


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
    )


def plans_at(plans: Sequence[MethodPlan], total: float) -> dict[str, MethodPlan]:
    """Each method's plan at ``total``."""
    return {p.method: p for p in plans if p.total_epsilon == total}


def pipeline(spec: SweepSpec, index: int, plans: Sequence[MethodPlan]) -> SweepSpec:
    """The sweep of the ``index``-th total ε: every method's tuning trials at its plan's per-run ε_t (on
    the plan's secret subset, ``tuning_run``), then its release, once (the plan the re-run of the selected
    configuration carries it to, ``dptune.sweep.plan.carried``, on the whole data). Its runs' epochs are
    the tuning's share: the searcher shortens a drawn epochs knob likewise (``tuning_knobs``). A start
    point stated at the ε it was tuned for is carried to its release's ε (by RDP, the measure the plan's
    linear scaling rule reads): it is a configuration of the released model, as every candidate is."""
    sweep = spec.at_epsilon(index)
    mine = plans_at(plans, spec.epsilons[index])
    runs = {method: tuning_run(run, mine[method]) for method, run in sweep.runs.items()}
    methods = spec.carried_starts(lambda method: mine[method].release.rdp_epsilon)
    return replace(sweep, runs=runs, reruns=1, methods=methods)


def planned(spec: SweepSpec, n: int) -> list[MethodPlan] | None:
    """The plan of every model a spec whose ε includes the tuning releases, on ``n`` training samples
    (``dptune.sweep.plan``; a total too small for a useful plan refused, with the smallest that works, and
    a start point whose carried step leaves its space); None for a per-run spec."""
    if spec.includes_tuning is None:
        return None
    delta = spec.shared.delta if spec.shared.delta is not None else default_delta(n)
    plans = plan_sweep(plan_setup(spec, delta), n)
    for index in range(len(spec.epsilons)):
        pipeline(spec, index, plans)  # every start point carried to its release's ε fits its space
    return plans
