"""Optuna's views of a method's search, as the sweep attaches them: one offline HTML page per method."""

from __future__ import annotations

from pathlib import Path

import optuna
import pytest

from dptune.tune.studies import study_storage
from dptune.tune.study_plots import study_figures, study_page

pytestmark = pytest.mark.in_process  # starts no Ray, server or browser: `make test` runs it beside others


def _study(folder: Path) -> optuna.Study:
    study = optuna.create_study(
        study_name="dpsgd",
        storage=study_storage(str(folder), "s"),
        direction="maximize",
        sampler=optuna.samplers.RandomSampler(seed=0),
    )
    study.optimize(
        lambda t: (
            1
            - (t.suggest_float("lr", 0.01, 10, log=True) - 2) ** 2 / 100
            + t.suggest_int("epochs", 1, 4) / 10
        ),
        n_trials=12,
    )
    return study


@pytest.mark.slow
def test_a_page_holds_the_history_importance_and_parallel_coordinates_of_every_trial(tmp_path: Path) -> None:
    study = _study(tmp_path)
    titles = [title for title, _ in study_figures(study)]
    assert titles == [
        "Optimisation history",
        "Parameter importance (PED-ANOVA, Optuna's default)",
        "Parallel coordinates",
    ]
    history = study_figures(study)[0][1]
    values = sorted(y for trace in history.data if trace.mode == "markers" for y in trace.y)
    assert values == sorted(t.value for t in study.trials)  # every completed trial, its own score
    importance = study_figures(study)[1][1]
    assert set(importance.data[0].y) == {"lr", "epochs"}

    page = study_page(str(tmp_path), "s", "dpsgd")
    assert page is not None and page.count("<h2>") == 3
    assert page.count("plotly.js v") == 1  # plotly.js inlined once: the page opens offline


def test_no_page_without_a_study_or_a_completed_trial(tmp_path: Path) -> None:
    assert study_page(str(tmp_path), "missing", "dpsgd") is None
    _study(tmp_path)
    assert study_page(str(tmp_path), "s", "lp-dpsgd") is None
