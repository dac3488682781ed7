"""A warm start: begin each method's search from the best configurations an earlier sweep released.

``search.warm_start: {sweep: NAME, top: N}`` reads the earlier sweep (same ``storage_path``):

* its Optuna study of each method (``dptune.sweep.studies``), whose completed trials ranked
  by validation accuracy give the ``top`` configurations, enqueued as the new search's first trials.
  Only what the earlier sweep's bound released is used: every trial under composition or a filter, the
  selected one alone under repeat-and-select;
* its privacy figures (``tuning_cost`` in its private state): the new sweep's choice of configurations
  depends on the earlier sweep's results, so the new figures add the earlier sweep's whole ε and δ
  (basic composition; ``dptune.tuning_cost.PriorSweep``).

A configuration whose value lies outside the new space is not used: every trial must stay within the
plans the new search's worst run W bounds.
"""

from __future__ import annotations

from typing import Any

import optuna
from optuna.storages import JournalStorage
from optuna.trial import TrialState

from dptune.errors import InputError
from dptune.preflight import earlier_cost
from dptune.privacy.tuning import REPEAT_AND_SELECT
from dptune.space import FILTER_PREFIX, MethodSpace
from dptune.spec import SweepSpec, WarmStart
from dptune.sweep.studies import journal_path, study_storage
from dptune.tuning_cost import PriorSweep

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


def released_configurations(
    storage: JournalStorage, method: str, space: MethodSpace, top: int, bound: str
) -> list[dict[str, Any]]:
    """The best ``top`` configurations of ``method``'s earlier search that its bound released and the
    new space holds, best first (Optuna parameter names, as ``points_to_evaluate`` takes them)."""
    try:
        study = optuna.load_study(study_name=method, storage=storage)
    except KeyError:
        return []
    done = [t for t in study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,)) if t.value is not None]
    ranked = sorted(done, key=lambda t: t.value, reverse=True)
    if bound == REPEAT_AND_SELECT:
        ranked = ranked[:1]  # only the selected trial was released
    return [dict(t.params) for t in ranked if _within(space, t.params)][:top]


def warm_start(spec: SweepSpec, warm: WarmStart) -> tuple[dict[str, list[dict[str, Any]]], PriorSweep]:
    """Per method, the start points from the earlier sweep; and that sweep's privacy figures."""
    cost = earlier_cost(spec.storage_path, warm.sweep)
    journal = journal_path(spec.storage_path, warm.sweep)
    if not journal.is_file():
        raise InputError(FIELD, f"sweep {warm.sweep!r} kept no Optuna study at {journal}")
    storage = study_storage(spec.storage_path, warm.sweep)
    bounds = {row["method"]: row["tuning_bound"] for row in cost["methods"]}
    points = {
        method: released_configurations(
            storage, method, space, warm.top, bounds.get(method, REPEAT_AND_SELECT)
        )
        for method, space in spec.methods.items()
    }
    prior = PriorSweep(warm.sweep, float(cost["epsilon_including_tuning"]), float(cost["delta"]))
    return points, prior
