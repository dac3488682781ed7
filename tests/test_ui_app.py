"""dptune's MLflow UI app serves MLflow's page with its defaults first, and serves it even when the store
cannot be read (the browser test in ``test_mlflow_ui.py`` checks what the defaults do in a browser)."""

from __future__ import annotations

import json

import pytest

from dptune.tracking import ui_app


@pytest.fixture
def client():
    ui_app.create_app()  # registers the page hook on MLflow's Flask app
    from mlflow.server import app

    return app.test_client()


def test_the_page_carries_each_experiments_view_as_its_default_columns(client, monkeypatch) -> None:
    state = json.dumps({"selectedColumns": ["params.`method`"]})
    monkeypatch.setattr(ui_app, "saved_views", lambda: {"7": state})
    page = client.get("/").get_data(as_text=True)
    head = page[: page.index("</head>")]
    assert "<head><script>try{const d=" in head  # first in the head: before the app's own scripts
    stored = json.loads(head[head.index("const d=") + len("const d=") : head.index(";for(")])
    assert stored == {
        "mlflow.workflowType_v1": '"machine_learning"',
        'MLflowLocalStorage-1.1-ExperimentPage-["7"]-ReactComponentState': state,
    }


def test_a_store_that_cannot_be_read_still_gets_the_page(client, monkeypatch) -> None:
    def broken() -> dict[str, str]:
        raise RuntimeError("database is locked")

    monkeypatch.setattr(ui_app, "saved_views", broken)
    response = client.get("/")
    page = response.get_data(as_text=True)
    assert response.status_code == 200 and "mlflow.workflowType_v1" in page
    assert "ExperimentPage" not in page[: page.index("</head>")]
