"""Pictures of the MLflow UI for the README and docs, from a store of real sweeps (the quickstart's by
default): ``docs/mlflow_runs_view.png``, the experiment's page as a new user opens it in headless Chromium on
``mlflow server --app-name dptune`` (its plain URL, where a click on the experiment leads), and
``docs/tradeoff_plot.png``, the accuracy-vs-ε plot its newest sweep attached.

    make quickstart && .venv/bin/python bench/screenshots.py
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

from mlflow.tracking import MlflowClient

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from results import experiment_id

from dptune.tracking import names
from tests.browser import chromium, chromium_unavailable, first_visit, runs_table, wait_for
from tests.mlflow_server import MlflowServer

DOCS = Path(__file__).resolve().parents[1] / "docs"


def runs_view(uri: str, experiment: str, path: Path) -> Path:
    """Screenshot of the experiment's page in the UI of ``mlflow server --app-name dptune`` over ``uri``."""
    found = MlflowClient(uri).get_experiment_by_name(experiment)
    if found is None or names.VIEW_TAG not in found.tags:
        raise SystemExit(f"experiment {experiment!r} in {uri} has no saved runs view: run a sweep first")
    with (
        tempfile.TemporaryDirectory() as folder,
        MlflowServer(uri, Path(folder), app_name="dptune") as server,
        chromium() as driver,
    ):
        first_visit(driver, server.url)
        driver.get(f"{server.url}/#/experiments/{found.experiment_id}")
        wait_for(lambda: runs_table(driver)[1], what="the runs table")
        driver.save_screenshot(str(path))
        return path


def tradeoff_plot(uri: str, experiment: str, path: Path) -> Path:
    """The accuracy-vs-ε plot (PNG) attached to the experiment's newest finished sweep."""
    client = MlflowClient(uri)
    sweeps = client.search_runs(
        [experiment_id(client, experiment)],
        filter_string=f"tags.`{names.SWEEP_TAG}` != '' and attributes.status = 'FINISHED'",
        order_by=["attributes.start_time DESC"],
        max_results=1,
    )
    if not sweeps:
        raise SystemExit(f"experiment {experiment!r} in {uri} has no finished sweep")
    with tempfile.TemporaryDirectory() as folder:
        plot = client.download_artifacts(sweeps[0].info.run_id, names.PARETO_PLOT_ARTIFACT, folder)
        return shutil.copyfile(plot, path)


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tracking-uri", default="sqlite:///mlflow.db")
    parser.add_argument("--experiment", default="quickstart")
    parser.add_argument("--out", type=Path, default=DOCS)
    args = parser.parse_args()
    reason = chromium_unavailable()
    if reason is not None:
        raise SystemExit(reason)
    args.out.mkdir(parents=True, exist_ok=True)
    print(runs_view(args.tracking_uri, args.experiment, args.out / "mlflow_runs_view.png"))
    print(tradeoff_plot(args.tracking_uri, args.experiment, args.out / "tradeoff_plot.png"))


if __name__ == "__main__":
    main()
