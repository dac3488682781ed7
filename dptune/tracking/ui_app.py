"""MLflow's own tracking server and UI, opening dptune's experiments on their runs and results view.

MLflow 3.17's UI chooses between its GenAI pages (an experiment's *Overview* of traces, latency and
errors) and its model-training pages (the runs table) by a *workflow type*: the page URL's
``workflowType`` parameter, else what the browser stored when its user last switched
(``localStorage["mlflow.workflowType_v1"]``), else ``genai``. The experiment's ``mlflow.experimentKind``
tag is not read. So a new user who opens a dptune experiment in a browser that never switched lands on
an empty GenAI overview. Its runs table then shows MLflow's default columns until its user picks others,
which the page stores per experiment (``localStorage["MLflowLocalStorage-1.1-ExperimentPage-[\\"ID\\"]-
ReactComponentState"]``, the same search facets and UI state a saved view holds).

This app (``mlflow ui --app-name dptune``, registered as an ``mlflow.app`` entry point) is MLflow's server
unchanged but for its page, which stores two defaults where the browser has stored nothing: the workflow
type ``machine_learning``, and for each experiment carrying dptune's saved view (``names.VIEW_TAG``) that
view as the experiment's page state. Every experiment then opens on its runs with method, accuracy and
ε; the UI's own switches and column choices still change it and are kept.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping

from fastapi import FastAPI
from flask import Response, request
from mlflow.entities import ViewType
from mlflow.server import app as flask_app
from mlflow.server.fastapi_app import create_fastapi_app
from mlflow.server.handlers import _get_tracking_store

from dptune.tracking import names

log = logging.getLogger("dptune.tracking")

WORKFLOW_TYPE_KEY = "mlflow.workflowType_v1"
PAGE_STATE_KEY = "MLflowLocalStorage-1.1-ExperimentPage-{ids}-ReactComponentState"
"""Where the runs page of experiments ``ids`` (their JSON list) keeps its state in a browser."""


def page_state_key(experiment_id: str) -> str:
    return PAGE_STATE_KEY.format(ids=json.dumps([experiment_id]))


def saved_views() -> dict[str, str]:
    """The state of dptune's saved view (JSON) by experiment id, for every active experiment holding one
    in the server's store (read through MLflow's own accessor of the store the server serves)."""
    store, views, token = _get_tracking_store(), {}, None
    while True:
        page = store.search_experiments(ViewType.ACTIVE_ONLY, max_results=1000, page_token=token)
        for experiment in page:
            envelope = experiment.tags.get(names.VIEW_TAG)
            if envelope is not None:
                views[experiment.experiment_id] = json.loads(envelope)["state"]
        token = page.token
        if not token:
            return views


def defaults_script(views: Mapping[str, str]) -> str:
    """A script storing the workflow type and each experiment's page state (``views``) where the browser
    stored none; run before the app's own scripts."""
    stored = {WORKFLOW_TYPE_KEY: json.dumps("machine_learning")} | {
        page_state_key(experiment_id): state for experiment_id, state in views.items()
    }
    text = json.dumps(stored).replace("</", "<\\/")
    return (
        f"<script>try{{const d={text};for(const k in d){{if(localStorage.getItem(k)===null)"
        "{localStorage.setItem(k,d[k])}}}catch(e){}</script>"
    )


def with_defaults(response: Response) -> Response:
    """The UI's page (``index.html``, served for the root path) with ``defaults_script`` first in its head;
    every other response as it is."""
    if response.status_code != 200 or response.mimetype != "text/html" or not request.path.endswith("/"):
        return response
    response.direct_passthrough = False
    page = response.get_data(as_text=True)
    if "<head>" in page:
        try:
            views = saved_views()
        except Exception:  # the page must load whatever the store says: without views, then
            log.warning("dptune's UI app could not read the saved views of the store", exc_info=True)
            views = {}
        response.set_data(page.replace("<head>", "<head>" + defaults_script(views), 1))
    return response


def create_app() -> FastAPI:
    """The ASGI app ``mlflow server --app-name dptune`` runs (uvicorn, as MLflow's own)."""
    if with_defaults not in flask_app.after_request_funcs.get(None, []):
        flask_app.after_request(with_defaults)
    return create_fastapi_app(flask_app)
