"""The MLflow UI as a new user meets it, in a real headless Chromium on a real ``mlflow server --app-name
dptune`` over the SQLite store of a real (tiny) sweep: the plain experiment URL opens on the runs (not on
MLflow's GenAI overview) with method, accuracy and ε as its first columns, its description leads to the
saved runs view, which shows every trial with them at 4 significant digits, and the sweep's own run opens
on its description."""

from __future__ import annotations

from pathlib import Path

import pytest
from mlflow.tracking import MlflowClient

from dptune.sweep.spec import load_spec
from dptune.tune.driver import run_sweep
from tests.browser import chromium, chromium_unavailable, runs_table, wait_for
from tests.mlflow_server import MlflowServer
from tests.sweep_helpers import runs, write_spec

pytestmark = pytest.mark.slow

METHOD = "params.`method`"
SHOWN = {  # the view's first columns after the method: each metric at 4 significant digits, by name
    "test_accuracy": "tags.`test accuracy`",
    "validation_accuracy": "tags.`validation accuracy`",
    "epsilon_spent": "tags.`ε spent`",
    "epsilon_including_tuning": "tags.`ε incl. tuning`",
}
COLUMNS = [  # the view's first columns, in this order
    "attributes.`Run Name`",
    "runDateAndNestInfo",  # MLflow's own: created, and the nesting of runs
    METHOD,
    *SHOWN.values(),
]


def four_digits(metric: str, value: float) -> str:
    """A metric as a reader expects it in the table, computed here independently of dptune."""
    if metric.endswith("accuracy"):
        return f"{round(100 * value, 2):.2f}%"
    digits = 3 - (len(str(int(value))) - 1 if value >= 1 else -1)
    return f"{round(value, digits):g}"


@pytest.fixture(scope="module")
def browser_available() -> None:
    reason = chromium_unavailable()
    if reason is not None:
        pytest.skip(reason)


def test_the_experiment_leads_a_new_user_to_every_trial_with_method_accuracy_and_epsilon(
    browser_available, tmp_path: Path, local_ray, monkeypatch
) -> None:
    methods = {
        "dpsgd": {"lr": {"loguniform": [0.3, 2.0]}},
        "dp-pmlf": {"lr": {"loguniform": [0.3, 2.0]}, "k": {"int": [1, 3]}},
    }
    path = write_spec(tmp_path, "ui", methods, selection={"reruns": 2})
    spec = load_spec(path)
    workdir = tmp_path / "cwd"
    workdir.mkdir()
    monkeypatch.chdir(workdir)
    run_sweep(spec, path.read_text(), echo=lambda line: None)
    assert list(workdir.iterdir()) == []  # no ./mlruns: artifacts lie beside the database
    assert (tmp_path / "mlartifacts").is_dir()

    (parent,), trials = runs(spec.tracking_uri, "ui")
    assert len(trials) == 2 * 2 + 2 * 2  # two trials and two re-runs per method
    client = MlflowClient(spec.tracking_uri)
    experiment = client.get_experiment_by_name("ui")
    assert experiment.artifact_location == (tmp_path / "mlartifacts").resolve().as_uri()
    expected = {}
    for run in trials:
        metrics, tags = run.data.metrics, run.data.tags
        final = tags["dptune.role"] == "final"
        scored = "test_accuracy" if final else "validation_accuracy"
        std = metrics.get(f"{scored}_std")
        shown = f"{100 * metrics[scored]:.1f}%" + ("" if std is None else f" ± {100 * std:.2g}")
        kind = " final" if final else ""
        name = f"{tags['dptune.method']}{kind} #{tags['dptune.number']} · {shown} · ε "
        expected[run.info.run_name] = (tags["dptune.method"], metrics)
        assert run.info.run_name == name + f"{metrics['epsilon_spent']:.2f}"
    numbers = sorted(
        (r.data.tags["dptune.method"], r.data.tags["dptune.role"], r.data.tags["dptune.number"])
        for r in trials
    )
    assert numbers == sorted(
        (m, role, str(i)) for m in methods for role in ("search", "final") for i in (1, 2)
    )

    with (
        MlflowServer(spec.tracking_uri, tmp_path / "server", app_name="dptune") as server,
        chromium() as driver,
    ):
        # the plain experiment URL (where a click on the experiment leads), in a browser that never chose
        # a workflow type or columns: MLflow 3.17 would open its GenAI overview, then its default columns;
        # dptune's app opens the runs with method, accuracy and ε
        driver.get(f"{server.url}/#/experiments/{experiment.experiment_id}")
        wait_for(lambda: len(runs_table(driver)[1]) >= len(trials), what="the trials' rows")
        stored = driver.execute_script("return localStorage.getItem('mlflow.workflowType_v1')")
        assert stored == '"machine_learning"' and not driver.find_elements(
            "xpath", "//*[text()='Traces']/..//*[text()='0']"
        )
        plain = runs_table(driver)
        link = wait_for(
            lambda: driver.find_elements("link text", "Open the results view"), what="the description's link"
        )
        driver.execute_script("arguments[0].click()", link[0])
        wait_for(lambda: len(driver.window_handles) == 2, what="the view's tab")  # a link opens a tab
        driver.switch_to.window(driver.window_handles[-1])
        wait_for(lambda: len(runs_table(driver)[1]) >= len(trials), what="the trials' rows")
        view = runs_table(driver)
        # the sweep's own run (where its description links to each selected trial) opens in the
        # model-training UI too, with that description, not on MLflow's GenAI "Evaluation runs"
        driver.get(f"{server.url}/#/experiments/{experiment.experiment_id}/runs/{parent.info.run_id}")
        wait_for(
            lambda: "selected on validation accuracy" in driver.page_source, what="the sweep's description"
        )
        assert "Evaluation runs" not in driver.page_source

    for columns, _ in (plain, view):
        assert columns[columns.index(COLUMNS[0]) :][: len(COLUMNS)] == COLUMNS  # after the checkboxes
    columns, rows = view
    shown = {row["attributes.`Run Name`"]: row for row in rows}
    assert set(expected) <= set(shown)
    tuned = 0
    for name, (method, metrics) in expected.items():
        row = shown[name]
        assert row[METHOD] == method
        for metric, column in SHOWN.items():
            if metric in metrics:
                assert row[column] == four_digits(metric, metrics[metric]), (metric, row[column])
            else:
                assert row[column] == "-"
        tuned += "epsilon_including_tuning" in metrics
    assert tuned == 2 * (1 + 2)  # each method's selected trial and its two re-runs
    order = [expected[name] for name in shown if name in expected]  # display order
    methods_shown = [method for method, _ in order]
    blocks = [m for i, m in enumerate(methods_shown) if i == 0 or methods_shown[i - 1] != m]
    assert sorted(blocks) == sorted(methods)  # grouped by method: each method's rows together
    for method in methods:
        scores = [metrics["validation_accuracy"] for m, metrics in order if m == method]
        assert scores == sorted(scores, reverse=True)  # best first
