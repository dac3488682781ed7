"""MLflow as the rest of dptune meets it, so that no module outside ``dptune.tracking`` imports MLflow: its
logs quietened for a sweep's console (``quiet_mlflow``), and a store that cannot be read turned into one
line (``readable_store``)."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager

from dptune.base.errors import InputError


def quiet_mlflow() -> None:
    """No MLflow or Alembic info logs, no printed run URLs and no download progress bars (errors still
    show). MLflow is imported here first, as it installs its own log handlers on import."""
    os.environ.setdefault("MLFLOW_SUPPRESS_PRINTING_URL_TO_STDOUT", "true")
    os.environ.setdefault("MLFLOW_ENABLE_ARTIFACTS_PROGRESS_BAR", "false")
    import mlflow  # noqa: F401

    for name in ("mlflow", "alembic"):
        logging.getLogger(name).setLevel(logging.ERROR)


@contextmanager
def readable_store(uri: str, field: str = "--tracking-uri") -> Iterator[None]:
    """An error of the MLflow store at ``uri`` (not a store MLflow opens, a broken database) as an
    ``InputError`` on ``field``: its first sentence, not MLflow's traceback."""
    from mlflow.exceptions import MlflowException
    from sqlalchemy.exc import SQLAlchemyError

    try:
        yield
    except (MlflowException, SQLAlchemyError) as exc:
        reason = str(exc).strip().splitlines()[0].split(". ")[0] if str(exc).strip() else type(exc).__name__
        raise InputError(
            field, f"cannot read the MLflow store at {uri} ({reason}); name a store a sweep wrote"
        ) from None
