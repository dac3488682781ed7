"""The tracker interface: what a sweep, its trial recorder, ``dptune report`` and the campaigns need
from a store of runs. ``dptune.tracking.mlflow_store.MlflowTracker`` implements it; a second backend is
one module implementing this protocol and one entry of ``dptune.tracking.BACKENDS``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol

from dptune.tracking.protocols import ProtocolCell
from dptune.tracking.report import TradeOff
from dptune.trial_status import TrialStatus


class Tracker(Protocol):
    """A store of sweeps (parent runs), their trials (child runs) and fixed-configuration runs."""

    uri: str

    # -- a sweep ----------------------------------------------------------------------------------
    def find_sweep(self, experiment: str, name: str, storage_path: str) -> str | None:
        """The newest sweep of this name and storage path, to continue on resume; None if none."""
        ...

    def start_sweep(
        self, experiment: str, name: str, tags: Mapping[str, str], params: Mapping[str, Any], spec_text: str
    ) -> str:
        """A new sweep record with its spec; returns its id."""
        ...

    def log_tuning_cost(self, sweep_id: str, cost: Mapping[str, Any]) -> None:
        """The public record of the sweep's privacy (``SweepTuningCost.as_dict()``)."""
        ...

    def log_sweep_summary(self, experiment: str, sweep_id: str) -> list[TradeOff]:
        """Attach the sweep's best trade-offs and the experiment's Pareto plot; return the former."""
        ...

    def finish_sweep(self, sweep_id: str) -> None: ...

    def sweep_metrics(self, sweep_id: str) -> dict[str, float]:
        """The figures recorded on a sweep (its privacy figures, best accuracy per method)."""
        ...

    # -- its trials -------------------------------------------------------------------------------
    def trial_run(
        self,
        experiment: str,
        sweep_id: str,
        trial_id: str,
        method: str,
        noise_source: str,
        params: Mapping[str, Any],
    ) -> str:
        """The run of a trial: found again by its trial id, else created with its params."""
        ...

    def logged_epochs(self, run_id: str) -> set[int]: ...

    def log_epoch(self, run_id: str, epoch: int, metrics: Mapping[str, float]) -> None: ...

    def trial_status(self, run_id: str) -> TrialStatus: ...

    def end_trial(
        self,
        run_id: str,
        status: TrialStatus,
        reason: str | None = None,
        metrics: Mapping[str, float] | None = None,
        node: str | None = None,
    ) -> None:
        """Mark a trial's run ended with ``status`` (and why), with its end-of-run metrics."""
        ...

    def mark_lost(self, experiment: str, sweep_id: str, method: str, known: set[str]) -> None:
        """Mark ``lost`` every run of ``method`` in the sweep whose trial id is not in ``known``."""
        ...

    # -- reading back -----------------------------------------------------------------------------
    def experiments(self) -> list[str]: ...

    def best_tradeoffs(self, experiment: str, sweep_id: str | None = None) -> list[TradeOff]:
        """Per (method, ε target): the trained trial with the highest final test accuracy."""
        ...

    def logged_settings(self, trade_off: TradeOff) -> dict[str, Any]:
        """The settings a trade-off's run was logged with, as the values they were."""
        ...

    # -- fixed-configuration runs -----------------------------------------------------------------
    def log_final_run(self, experiment: str, key: str, summary: Mapping[str, Any]) -> str:
        """Record a finished run (e.g. one seed of a reproduction), once per ``key``."""
        ...

    def protocol_cells(self, experiment: str) -> list[ProtocolCell]: ...

    def log_protocol_summary(self, experiment: str, key: str, files: list[Path]) -> str: ...
