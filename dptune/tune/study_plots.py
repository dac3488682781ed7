"""Per method, Optuna's own views of its search as one self-contained HTML page: the optimisation
history, the parameters' importance (PED-ANOVA, Optuna's default evaluator) and the parallel
coordinates of every completed trial.

They are read from the sweep's Optuna journal (``dptune.tune.studies``) as soon as the method's search
ends (while other methods still train) and attached to the sweep's MLflow parent run at its end. Like
the journal and the MLflow store they show every trial's configuration and validation score, so they are
internal (docs/privacy.md).
"""

from __future__ import annotations

import html

import optuna
from optuna.trial import TrialState

from dptune.training.trial_status import OBJECTIVE
from dptune.tune.studies import journal_path, study_storage


def study_figures(study: optuna.Study) -> list[tuple[str, object]]:
    """(title, plotly figure) of each view the study's trials support: importance needs two completed
    trials and a searched parameter that varied."""
    from optuna import visualization

    done = study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,))
    figures: list[tuple[str, object]] = [
        ("Optimisation history", visualization.plot_optimization_history(study, target_name=OBJECTIVE))
    ]
    try:
        best = study.best_params
    except ValueError:  # no feasible trial completed: every drawn filter was infeasible
        best = {}
    varied = {name for name in best if len({repr(t.params.get(name)) for t in done}) > 1}
    if len(done) >= 2 and varied:
        figures.append(
            (
                "Parameter importance (PED-ANOVA, Optuna's default)",
                visualization.plot_param_importances(study, target_name=OBJECTIVE),
            )
        )
    if best:
        figures.append(
            ("Parallel coordinates", visualization.plot_parallel_coordinate(study, target_name=OBJECTIVE))
        )
    return figures


def study_page(storage_path: str, sweep: str, method: str) -> str | None:
    """The HTML page of ``method``'s search in sweep ``sweep`` (plotly.js inlined once, so it opens
    offline); None when the sweep kept no study of it or no trial completed."""
    if not journal_path(storage_path, sweep).is_file():
        return None
    try:
        study = optuna.load_study(study_name=method, storage=study_storage(storage_path, sweep))
    except KeyError:
        return None
    if not study.get_trials(deepcopy=False, states=(TrialState.COMPLETE,)):
        return None
    parts = []
    for index, (title, figure) in enumerate(study_figures(study)):
        body = figure.to_html(full_html=False, include_plotlyjs="inline" if index == 0 else False)  # type: ignore[attr-defined]
        parts.append(f"<h2>{html.escape(title)}</h2>\n{body}")
    heading = f"{method} in sweep {sweep}: Optuna's view of its search ({OBJECTIVE})"
    return (
        f"<!doctype html>\n<html><head><meta charset='utf-8'><title>{html.escape(heading)}</title></head>"
        f"<body style='font-family: sans-serif'>\n<h1>{html.escape(heading)}</h1>\n"
        + "\n".join(parts)
        + "\n</body></html>\n"
    )
