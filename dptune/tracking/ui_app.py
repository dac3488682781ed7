"""MLflow's own tracking server and UI, opening dptune's experiments on their runs.

MLflow 3.17's UI chooses between its GenAI pages (an experiment's *Overview* of traces, latency and
errors) and its model-training pages (the runs table) by a *workflow type*: the page URL's
``workflowType`` parameter, else what the browser stored when its user last switched
(``localStorage["mlflow.workflowType_v1"]``), else ``genai``. The experiment's ``mlflow.experimentKind``
tag is not read. So a new user who opens a dptune experiment in a browser that never switched lands on
an empty GenAI overview.

This app (``mlflow ui --app-name dptune``, registered as an ``mlflow.app`` entry point) is MLflow's server
unchanged but for one thing: its page stores ``machine_learning`` as that default where the browser has
stored none. Every experiment then opens on its runs, and the UI's own switch still changes it.
"""

from __future__ import annotations

from fastapi import FastAPI
from flask import Response, request
from mlflow.server import app as flask_app
from mlflow.server.fastapi_app import create_fastapi_app

WORKFLOW_TYPE_KEY = "mlflow.workflowType_v1"
MODEL_TRAINING_DEFAULT = (
    f"<script>try{{if(localStorage.getItem('{WORKFLOW_TYPE_KEY}')===null){{localStorage.setItem("
    f"'{WORKFLOW_TYPE_KEY}',JSON.stringify('machine_learning'))}}}}catch(e){{}}</script>"
)
"""Run before the app's own scripts: the stored workflow type where the browser has none."""


def with_model_training_default(response: Response) -> Response:
    """The UI's page (``index.html``, served for the root path) with ``MODEL_TRAINING_DEFAULT`` first in
    its head; every other response as it is."""
    if response.status_code != 200 or response.mimetype != "text/html" or not request.path.endswith("/"):
        return response
    response.direct_passthrough = False
    page = response.get_data(as_text=True)
    if "<head>" in page and MODEL_TRAINING_DEFAULT not in page:
        response.set_data(page.replace("<head>", "<head>" + MODEL_TRAINING_DEFAULT, 1))
    return response


def create_app() -> FastAPI:
    """The ASGI app ``mlflow server --app-name dptune`` runs (uvicorn, as MLflow's own)."""
    if with_model_training_default not in flask_app.after_request_funcs.get(None, []):
        flask_app.after_request(with_model_training_default)
    return create_fastapi_app(flask_app)
