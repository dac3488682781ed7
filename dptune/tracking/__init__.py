"""Where sweeps and runs are recorded: a tracker interface (``tracker``), the one module that knows
MLflow's names (``names``) and its implementation (``mlflow_store``), report values and text
(``report``, ``protocols``) and plots (``plots``). The Ray callback that feeds a tracker during a sweep
lives with the Ray code (``dptune.sweep.callbacks``)."""

from collections.abc import Callable

from dptune.tracking.mlflow_store import MlflowTracker
from dptune.tracking.tracker import Tracker

BACKENDS: dict[str, Callable[[str], Tracker]] = {"mlflow": MlflowTracker}
"""Tracking backends by name, each made from a store URI."""


def tracker_for(uri: str, backend: str = "mlflow") -> Tracker:
    """The tracker of the store at ``uri``."""
    return BACKENDS[backend](uri)


__all__ = ["BACKENDS", "MlflowTracker", "Tracker", "tracker_for"]
