"""What a new user sees first in the MLflow UI: the saved runs view an experiment opens on, run names,
and the Markdown descriptions of a sweep and of its experiment. Plain text and JSON; the store writes
them (``dptune.tracking.mlflow_store``).

The saved view is MLflow's own (the "Views" menu above the runs table): an experiment tag
``mlflow.sharedViewState.<key>`` holding ``{"name", "createdAt", "updatedAt", "state"}``, where
``state`` is the JSON of the runs page's search facets (sort, filters) and UI state (columns shown,
grouping, which runs the charts show). The page applies it when its URL carries
``?viewStateShareKey=<key>``, which the view's entry in the "Views" menu and the experiment's
description link to. This layout is read from the UI that MLflow 3.17 ships
(``mlflow/server/js/build``: the saved-view envelope, ``viewStateShareKey``, the state's keys); other
versions get no view (``view_supported``) and a log line says so.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping, Sequence

from dptune.sweep.results import TradeOff
from dptune.tracking import names
from dptune.tracking.report import format_test, format_tuning, significant
from dptune.training.trial_status import FINAL_SCORE, OBJECTIVE, SCORE_STD, shown_score

VIEW_VERSIONS = ((3, 17),)
"""MLflow (major, minor) versions whose saved-view format is known (checked against their UI)."""
VIEW_NAME = "dptune: accuracy and ε by method"
ACCURACY_COLUMNS = (FINAL_SCORE, OBJECTIVE)
EPSILON_COLUMNS = ("epsilon_spent", names.TUNING_METRIC)
SHOWN = {
    FINAL_SCORE: "test accuracy",
    OBJECTIVE: "validation accuracy",
    "epsilon_spent": "ε spent",
    names.TUNING_METRIC: "ε incl. tuning",
}
"""The metrics the view shows first, each beside a tag of that name holding it at 4 significant digits
(``shown_tags``): the runs table prints a metric with every digit it has (``0.99394852``)."""
RUN_NAME_COLUMN = "attributes.`Run Name`"
DESCRIPTION_START = "**dptune**"
"""How an experiment description written by dptune starts (one a user wrote is left alone)."""


def view_supported(version: str) -> bool:
    """Whether MLflow ``version``'s UI reads dptune's saved view (its format is known)."""
    major, minor = (int(part) for part in version.split(".")[:2])
    return (major, minor) in VIEW_VERSIONS


def column(kind: str, name: str) -> str:
    """A runs-table column as the UI names it: ``params.`lr```, ``metrics.`epsilon_spent```."""
    return f"{kind}.`{name}`"


def shown_value(metric: str, value: float, std: float | None = None) -> str:
    """A metric as the view shows it, to about 4 significant digits: an accuracy in percent with two
    decimals, and its noise's standard deviation on private held-out data (``shown_score``), ε with 4
    significant digits (``93.81%``, ``70.80% ± 4.3``, ``0.9939``)."""
    if metric in ACCURACY_COLUMNS:
        return shown_score(value, std)
    return f"{value:.4g}"


def shown_tags(metrics: Mapping[str, float]) -> dict[str, str]:
    """The display tags of those of ``metrics`` the view shows first (``SHOWN``)."""
    return {
        SHOWN[name]: shown_value(name, value, metrics.get(SCORE_STD.get(name, "")))
        for name, value in metrics.items()
        if name in SHOWN and math.isfinite(value)  # a part a private run never scored: no tag
    }


def view_state(searched: Iterable[str]) -> dict:
    """The runs page's state: method, the accuracies, ε spent and ε including tuning (their display tags),
    the searched ``params``, then the exact metrics; runs grouped by method (the best value of each group
    shown on its row) and sorted by validation accuracy, highest first; every run drawn in the charts."""
    shown = (*ACCURACY_COLUMNS, *EPSILON_COLUMNS)
    columns = [
        column("params", names.METHOD_PARAM),
        *(column("tags", SHOWN[name]) for name in shown),
        *(column("params", name) for name in searched),
        *(column("metrics", name) for name in shown),
    ]
    return {
        "orderByKey": column("metrics", OBJECTIVE),
        "orderByAsc": False,
        "selectedColumns": columns,
        "columnOrder": [RUN_NAME_COLUMN, *columns],
        "columnWidths": {RUN_NAME_COLUMN: 250},
        "groupBy": {
            "aggregateFunction": "max",
            "groupByKeys": [{"mode": "tag", "groupByData": names.METHOD_TAG}],
        },
        "runsHiddenMode": "SHOW_ALL",
    }


def saved_view(searched: Iterable[str], time_ms: int) -> str:
    """The value of the experiment tag ``names.VIEW_TAG``: MLflow's saved-view envelope."""
    state = json.dumps(view_state(searched))
    return json.dumps({"name": VIEW_NAME, "createdAt": time_ms, "updatedAt": time_ms, "state": state})


def view_link(experiment_id: str) -> str:
    """The runs page of an experiment opened on dptune's view, relative to the UI's address."""
    return (
        f"#/experiments/{experiment_id}/runs?{names.VIEW_PARAMETER}={names.VIEW_KEY}"
        "&workflowType=machine_learning"  # the UI's model-training menus, not its GenAI ones
    )


def run_link(experiment_id: str, run_id: str) -> str:
    return f"#/experiments/{experiment_id}/runs/{run_id}"


def experiment_description(experiment_id: str) -> str:
    """The experiment's Markdown description: where its results are."""
    return (
        f"{DESCRIPTION_START} sweeps. **[Open the results view]({view_link(experiment_id)})**: every trial "
        "with its method, validation and final-test accuracy, ε spent and ε including tuning, grouped "
        "by method (also under *Views*). Each sweep's run describes its selected configurations."
    )


def sweep_name(name: str, dataset: object, model: object, epsilon: object) -> str:
    """A sweep's run name: ``quickstart · fashion-mnist/cnn5 · ε 1``."""
    return f"{name} · {dataset}/{model} · ε {significant(epsilon)}"


def summary_name(base: str, best: Sequence[TradeOff], one_model: bool = False) -> str:
    """A finished sweep's run name: its name and a method's selection with its validation score (and that
    score's noise on private held-out data), as a trial's run name shows one. A sweep that releases one
    model across methods (``one_model``) is named for the selection it released, whichever rule picked it
    (the one selection that ran on the final test); any other, for the one that scored highest on
    validation. Which selection ran is the sweep's choice, made before any final-test score: the final test
    scores a selection, it never chooses or names one."""
    if not best:
        return base
    ran = [r for r in best if r.test_accuracies]
    one = one_model and len(ran) == 1
    row = ran[0] if one else max(best, key=lambda r: (r.validation_accuracy, r.method))
    which = "released" if one else "highest"
    shown = shown_score(row.validation_accuracy, row.validation_noise, decimals=1)
    return f"{base} · {row.method} {shown} validation ({which})"


def sweep_description(
    title: str,
    experiment_id: str,
    best: Sequence[TradeOff],
    reruns: dict[str, list[str]],
    shown: Sequence[str],
) -> str:
    """A sweep's Markdown description: its selected configuration per method (ε target, validation
    accuracy that selected it, final-test mean ± sd of its re-runs, ε spent and including tuning, the
    settings ``shown``) with links to the selected trial's run and its re-runs (``reruns``: run ids by
    the selected run's id)."""
    lines = [
        f"### {title}",
        "",
        "Each method's configuration is **selected on validation accuracy**, then re-run with fresh "
        "randomness and scored on the **final test** (mean ± sd (re-runs), %; on a private held-out "
        "split each score also carries the std of its noise, ± σ). *ε incl. tuning* counts "
        "the whole search and the re-runs.",
        "",
        "| method | ε target | validation | final test | ε spent | ε incl. tuning | settings | runs |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for row in best:
        settings = ", ".join(f"{k}={significant(row.params[k])}" for k in shown if k in row.params)
        links = [f"[selected]({run_link(experiment_id, row.run_id)})"] + [
            f"[re-run {i}]({run_link(experiment_id, run_id)})"
            for i, run_id in enumerate(reruns.get(row.run_id, []), 1)
        ]
        lines.append(
            f"| {row.method} | {row.epsilon_target:g} | "
            f"{shown_score(row.validation_accuracy, row.validation_noise)} | "
            f"{format_test(row)} | {row.epsilon_spent:.3f} | {format_tuning(row)} | {settings} | "
            f"{' '.join(links)} |"
        )
    if not best:
        lines.append("| – | | | | | | no trial finished | |")
    lines += ["", f"[All trials, grouped by method]({view_link(experiment_id)})"]
    return "\n".join(lines)
