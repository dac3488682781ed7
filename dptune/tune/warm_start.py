"""A warm start: begin each method's search from the best configurations an earlier sweep released.

``search.warm_start: {sweep: NAME, top: N}`` reads the earlier sweep (same ``storage_path``):

* its Optuna study of each method (``dptune.tune.studies``), whose completed trials ranked
  by validation accuracy give the ``top`` configurations, enqueued as the new search's first trials.
  Only what the earlier sweep's bound released is used: every trial under composition or a filter; under
  repeat-and-select the selected one alone, as its searcher recorded it in its private state (the
  study's best might be another trial of equal score);
* its privacy figures (``tuning_cost`` in its private state): the new sweep's choice of configurations
  depends on the earlier sweep's results, so the new figures add the earlier sweep's whole ε and δ
  (basic composition; ``dptune.sweep.bound.PriorSweep``).

A configuration whose value lies outside the new space is not used: every trial must stay within the
plans the new search's worst run W bounds.
"""

from __future__ import annotations

from typing import Any

import optuna
from optuna.storages import JournalStorage
from optuna.trial import TrialState

from dptune.base.errors import InputError
from dptune.privacy.tuning import REPEAT_AND_SELECT
from dptune.sweep.bound import PriorSweep
from dptune.sweep.ledger import PrivateSweepState
from dptune.sweep.preflight import earlier_cost
from dptune.sweep.space import FILTER_PREFIX, MethodSpace
from dptune.sweep.spec_parts import WarmStart
from dptune.sweep.sweep_spec import SweepSpec
from dptune.tune.studies import journal_path, study_storage

FIELD = "search.warm_start.sweep"


def _within(space: MethodSpace, params: dict[str, Any]) -> bool:
    """Whether every drawn value lies in the new space (a knob it no longer searches may not be set)."""
    for name, value in params.items():
        if name.startswith(FILTER_PREFIX):
            dist = space.filter.params.get(name[len(FILTER_PREFIX) :]) if space.filter else None
        else:
            dist = space.knobs.get(name)
        if dist is None or dist.fixed or not dist.contains(value):
            return False
    return True


def ranked_configurations(
    storage: JournalStorage, method: str, space: MethodSpace, top: int
) -> list[dict[str, Any]]:
    """The best ``top`` completed trials of ``method``'s earlier search (released under composition or a
    filter) that the new space holds, best first (Optuna parameter names, as ``points_to_evaluate``
    takes them)."""
    try:
        study = optuna.load_study(study_name=method, storage=storage)
    except KeyError:
        return []
    done = [(t.value, t) for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))]
    ranked = sorted(
        ((value, t) for value, t in done if value is not None), key=lambda vt: vt[0], reverse=True
    )
    return [dict(t.params) for _, t in ranked if _within(space, t.params)][:top]


def selected_configuration(space: MethodSpace, settings: dict[str, Any]) -> list[dict[str, Any]]:
    """A repeat-and-select search's one released configuration, from its selected trial's recorded
    ``settings``: its drawn settings, if the new space holds them."""
    drawn = {k: v for k, v in settings.items() if _drawn(space, k)}
    return [drawn] if drawn and _within(space, drawn) else []


def _drawn(space: MethodSpace, name: str) -> bool:
    """Whether ``name`` is a setting the search draws (an Optuna parameter), not a constant of the trial."""
    if name.startswith(FILTER_PREFIX):
        return space.filter is not None
    dist = space.knobs.get(name)
    return dist is not None and not dist.fixed


def warm_start(spec: SweepSpec, warm: WarmStart) -> tuple[dict[str, list[dict[str, Any]]], PriorSweep]:
    """Per method, the start points from the earlier sweep; and that sweep's privacy figures."""
    sweep = warm.sweep
    if sweep is None:  # previous_epsilon: each ε's spec names its predecessor (``SweepSpec.at_epsilon``)
        raise ValueError(f"{spec.name}: its warm start names no earlier sweep")
    cost = earlier_cost(spec.storage_path, sweep)
    journal = journal_path(spec.storage_path, sweep)
    if not journal.is_file():
        raise InputError(FIELD, f"sweep {sweep!r} kept no Optuna study at {journal}")
    storage = study_storage(spec.storage_path, sweep)
    bounds = {row["method"]: row["tuning_bound"] for row in cost["methods"]}
    earlier = PrivateSweepState(spec.storage_path, sweep)
    points = {}
    for method, space in spec.methods.items():
        if bounds.get(method, REPEAT_AND_SELECT) != REPEAT_AND_SELECT:
            points[method] = ranked_configurations(storage, method, space, warm.top)
        else:
            selected = earlier.selected(method)
            points[method] = [] if selected is None else selected_configuration(space, selected["params"])
    prior = PriorSweep(sweep, float(cost["epsilon_including_tuning"]), float(cost["delta"]))
    return points, prior
