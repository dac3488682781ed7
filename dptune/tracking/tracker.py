"""The tracker interfaces, one per direction: ``TrialSink`` (write-only: what the Tune callback calls for
each trial), ``SweepRecord`` (the sweep's own record, written by the driver), ``ResultsReader`` (what
``dptune report`` reads back), and ``Tracker``, all three, which a store implements.
``dptune.tracking.mlflow_store.MlflowTracker`` is one; a second backend is one module implementing
``Tracker`` and one entry of ``dptune.tracking.BACKENDS``. A sweep's answer never depends on a read: it
is built from its trials' reports (``dptune.sweep.results``).

A sweep's trial writes are queued and carried out by the tracker's writer thread, so that they never
stall Ray Tune's control loop and ride out a store that is unreachable for a while; the tracker's reads
of trials wait for the writes queued before them (read-your-writes).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple, Protocol

from dptune.engine.data import PixelScale
from dptune.sweep.results import TradeOff
from dptune.tracking.report import Compute, PlotContext, TrialPoint
from dptune.training.trial_status import TrialStatus


class TrialKey(NamedTuple):
    """A trial of a sweep, as its run is found in a store: by experiment, sweep record and trial id."""

    experiment: str
    sweep_id: str
    trial_id: str


class TrialSink(Protocol):
    """Where a sweep's trials are written: queued (each call returns at once; one writer thread carries
    them out in order, through outages of the store)."""

    def open_trial(
        self,
        key: TrialKey,
        method: str,
        noise_source: str,
        params: Mapping[str, Any],
        role: str,
        tags: Mapping[str, str],
    ) -> None:
        """The run of a trial: found again by its trial id, else created with its role (search, or final
        for a re-run of the selected configuration) and ``tags``; with its params."""
        ...

    def log_epochs(self, key: TrialKey, history: Sequence[Mapping[str, Any]]) -> None:
        """Per-epoch metrics (step = ``entry["epoch"]``) of the epochs the trial's run lacks."""
        ...

    def end_trial(
        self,
        key: TrialKey,
        status: TrialStatus,
        reason: str | None = None,
        result: Mapping[str, Any] | None = None,
        settle: bool = False,
    ) -> None:
        """Mark a trial's run ended with ``status`` (and why), with the epochs of ``result["history"]``
        it lacks, its end-of-run metrics and node; ``settle``: only if the run is not ended yet."""
        ...

    def mark_lost(self, experiment: str, sweep_id: str, method: str, known: set[str], role: str) -> None:
        """Mark ``lost`` every run of ``method`` and ``role`` in the sweep whose trial id is not in
        ``known``."""
        ...

    def flush(self, timeout: float | None = None) -> bool:
        """Wait (at most ``timeout`` s; None: the tracker's default) until every write queued before is
        recorded; returns whether it is. Thread-safe; any number of calls."""
        ...

    def close(self, timeout: float | None = None) -> bool:
        """``flush``, then stop the writer thread once idle (a later write starts it again); says how
        many writes are not recorded yet if any. Returns whether all are."""
        ...


class SweepRecord(TrialSink, Protocol):
    """A sweep's own record beside its trials: written by the driver, found again on resume. A write
    to a store that does not answer raises ``StoreUnavailableError`` (``dptune.tracking.writer``)."""

    uri: str

    def find_sweep(self, experiment: str, name: str, storage_path: str) -> str | None:
        """The newest sweep of this name and storage path, to continue on resume; None if none."""
        ...

    def start_sweep(
        self, experiment: str, name: str, tags: Mapping[str, str], params: Mapping[str, Any], spec_text: str
    ) -> str:
        """A new sweep record with its spec; returns its id."""
        ...

    def release_model(
        self,
        key: TrialKey,
        model: Any,
        image_shape: tuple[int, ...],
        card: Mapping[str, Any],
        registered_name: str,
        classes: Sequence[str] | None = None,
        pixels: PixelScale | None = None,
    ) -> str:
        """A re-run's released ``model`` (a ``torch.nn.Module`` taking inputs of ``image_shape``; its
        ``classes`` named where the data's labels were names; ``pixels``: how a built-in image dataset's
        uint8 images become its inputs) logged
        with the trial's run and registered under ``registered_name`` with its privacy ``card``; returns
        where it loads from (``models:/NAME/VERSION``)."""
        ...

    def log_tuning_cost(self, sweep_id: str, cost: Mapping[str, Any]) -> None:
        """The public record of the sweep's privacy (``SweepTuningCost.as_dict()``)."""
        ...

    def log_sweep_summary(
        self, experiment: str, sweep_id: str, selected: Mapping[str, str] | None = None
    ) -> list[TradeOff]:
        """Mark the search trials the sweep's searcher ``selected`` (method -> trial id), attach the sweep's
        best trade-offs and the experiment's accuracy-vs-ε plot, describe the sweep and give the
        experiment a runs view of its results; return the trade-offs it recorded (as the store has them:
        with their runs)."""
        ...

    def attach_plot(self, experiment: str, sweep_id: str, releases: str = "") -> None:
        """The experiment's accuracy-vs-ε plot (PNG and PDF) as artifacts of the sweep's run, replacing
        any there, with ``releases`` (what releasing every model of a list of totals costs) in its title."""
        ...

    def attach(self, run_id: str, files: Mapping[str, str], folder: str | None = None) -> None:
        """Text files (name -> content) as artifacts of a run (e.g. a sweep's), in ``folder`` if given."""
        ...

    def finish_sweep(self, sweep_id: str) -> None: ...


class ResultsReader(Protocol):
    """What a store gives back: the best trade-offs, compute used, plots' points, the UI's view."""

    def experiments(self) -> list[str]:
        """The store's experiments that hold runs (an empty one, as MLflow's "Default", is left out)."""
        ...

    def best_tradeoffs(self, experiment: str, sweep_id: str | None = None) -> list[TradeOff]:
        """Per (method, ε target): the selected configuration (the search trial chosen on validation
        accuracy, its re-runs' final-test accuracies); across sweeps, the one with the best validation
        accuracy among the trials on the whole data (a tuning proxy's count only in its own sweep)."""
        ...

    def compute_used(self, experiment: str) -> list[Compute]:
        """Per (method, ε target): the trials started by kind, their trial-seconds and the sweeps' wall
        time (``report.Compute``), withheld where a sweep's trial count is secret."""
        ...

    def trial_points(self, experiment: str, sweep_id: str | None = None) -> list[TrialPoint]:
        """Every trained trial of the experiment (or of one sweep), search trials and re-runs, as the
        accuracy-vs-ε plots draw them; of a sweep whose trial count is secret, only its selected trial
        and re-runs."""
        ...

    def plot_context(self, experiment: str, sweep_id: str | None = None) -> PlotContext:
        """What a plot of those trials states in its title (dataset, model, δ, epochs)."""
        ...

    def runs_view_path(self, experiment: str) -> str | None:
        """Where the store's UI shows the experiment's results (a path relative to the UI's address, e.g.
        ``#/experiments/1/runs?viewStateShareKey=dptune-results``); None if it has no such view."""
        ...


class Tracker(SweepRecord, ResultsReader, Protocol):
    """A store of sweeps (parent runs) and their trials (child runs), written and read."""
