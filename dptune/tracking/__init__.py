"""Where sweeps and runs are recorded: a tracker interface (``tracker``), the one module that knows
MLflow's names (``names``) and its implementation (``mlflow_store``, with its queued trial writes in
``mlflow_trials`` and the writer thread that applies them in ``writer``), report values and text
(``report``) and plots (``plots``). The Ray callback that feeds a tracker during a sweep
lives with the Ray code (``dptune.tune.callbacks``)."""

from collections.abc import Callable

from dptune.tracking.mlflow_store import MlflowTracker
from dptune.tracking.tracker import ResultsReader, SweepRecord, Tracker, TrialKey, TrialSink
from dptune.tracking.writer import StoreUnavailableError

BACKENDS: dict[str, Callable[[str], Tracker]] = {"mlflow": MlflowTracker.shared}
"""Tracking backends by name, each giving the process's tracker of a store URI."""


def tracker_for(uri: str, backend: str = "mlflow") -> Tracker:
    """This process's tracker of the store at ``uri`` (one writer thread per store)."""
    return BACKENDS[backend](uri)


__all__ = [
    "BACKENDS",
    "MlflowTracker",
    "ResultsReader",
    "StoreUnavailableError",
    "SweepRecord",
    "Tracker",
    "TrialKey",
    "TrialSink",
    "tracker_for",
]
