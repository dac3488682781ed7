"""Ray Tune callbacks of a sweep: ``TrialRecorder`` writes every trial to a tracker, ``TrialProgress``
prints one line per ended trial."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from ray.tune import Callback
from ray.tune.experiment import Trial

from dptune.methods.filters import DrawnFilter
from dptune.space import FILTER_PREFIX
from dptune.tracking import Tracker
from dptune.trial_status import TrialStatus

Echo = Callable[[str], None]


def trial_error_reason(trial: Any) -> str:
    """The last line of a failed trial's traceback (e.g. ``TrainingDivergedError: …``)."""
    text = None
    if trial.error_file and Path(trial.error_file).is_file():
        text = Path(trial.error_file).read_text()
    if not text:
        error = trial.get_error()
        text = str(error) if error else ""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else "unknown error"


def trial_settings(config: Mapping[str, Any]) -> dict[str, Any]:
    """A trial's settings as recorded: its knobs, and a drawn filter as ``filter``, ``a`` and ``b``."""
    settings: dict[str, Any] = {}
    for key, value in config.items():
        settings |= value.as_params() if isinstance(value, DrawnFilter) else {key: value}
    return settings


class TrialRecorder(Callback):
    """Tune callback: one tracked run per trial under the sweep's record.

    Params: the trial's settings (filter coefficients included). Metrics per epoch (step = epoch): test
    accuracy, test loss, ε spent; at the end: σ, δ, steps, and the trial's ``TrialStatus`` (finished,
    stopped by the scheduler, infeasible filter draw, failed with a reason).

    Writes are queued during a Tune step and flushed in ``on_step_end``, which Tune calls after the
    step's experiment-state save (``dptune.sweep.restore`` makes that save happen every step). The store
    therefore never records a trial, a result or a status that the saved experiment lacks: after the
    driver is killed, ``Tuner.restore`` knows every trial the store shows, so resuming neither
    duplicates a run nor re-runs a finished trial. The store may lag the saved state instead (killed
    between save and flush): every result carries the trial's whole epoch history, so missing epochs are
    backfilled, and at the end of an experiment every ended trial whose run is not marked ended yet is
    settled. The save reaches storage asynchronously, so a trial started just before a kill can be
    unknown to the restored experiment, which runs another in its place: its run is marked ``lost`` at
    the end and it still counts in the tuning cost, from the sweep's private write-ahead record.
    """

    def __init__(
        self, tracker: Tracker, experiment: str, sweep_id: str, method: str, noise_source: str
    ) -> None:
        self.tracker = tracker
        self.experiment = experiment
        self.sweep_id = sweep_id
        self.method = method
        self.noise_source = noise_source
        self._runs: dict[str, str] = {}
        self._epochs: dict[str, set[int]] = {}  # run id -> epochs already recorded
        self._pending: list[Callable[[], None]] = []

    def run_id(self, trial: Any) -> str:
        if trial.trial_id not in self._runs:
            self._runs[trial.trial_id] = self.tracker.trial_run(
                self.experiment,
                self.sweep_id,
                trial.trial_id,
                self.method,
                self.noise_source,
                trial_settings(trial.config),
            )
        return self._runs[trial.trial_id]

    def on_trial_start(self, iteration: int, trials: list, trial: Any, **info: Any) -> None:
        self._pending.append(lambda: self.run_id(trial))

    def on_trial_result(self, iteration: int, trials: list, trial: Any, result: dict, **info: Any) -> None:
        self._pending.append(lambda: self._log_result(trial, result))

    def on_trial_complete(self, iteration: int, trials: list, trial: Any, **info: Any) -> None:
        self._pending.append(lambda: self._log_completion(trial, dict(trial.last_result or {})))

    def on_trial_error(self, iteration: int, trials: list, trial: Any, **info: Any) -> None:
        self._pending.append(lambda: self._log_error(trial, trial_error_reason(trial)))

    def on_step_end(self, iteration: int, trials: list, **info: Any) -> None:
        self.flush()

    def on_experiment_end(self, trials: list, **info: Any) -> None:
        for trial in trials:
            if trial.status in (Trial.TERMINATED, Trial.ERROR):
                self._pending.append(lambda trial=trial: self._settle(trial))
        known = {t.trial_id for t in trials}
        self._pending.append(
            lambda: self.tracker.mark_lost(self.experiment, self.sweep_id, self.method, known)
        )
        self.flush()

    def flush(self) -> None:
        """Carry out the queued writes, in the order Tune reported the events."""
        pending, self._pending = self._pending, []
        for write in pending:
            write()

    def _settle(self, trial: Any) -> None:
        """Mark an ended trial's run as ended, unless it already is (a resumed sweep's restored trials)."""
        if self.tracker.trial_status(self.run_id(trial)) is not TrialStatus.RUNNING:
            return
        if trial.status == Trial.ERROR:
            self._log_result(trial, dict(trial.last_result or {}))
            self._log_error(trial, trial_error_reason(trial))
        else:
            self._log_completion(trial, dict(trial.last_result or {}))

    def _log_result(self, trial: Any, result: dict) -> None:
        """Record every epoch of ``result["history"]`` the store does not have yet (step = epoch)."""
        run_id = self.run_id(trial)
        if run_id not in self._epochs:
            self._epochs[run_id] = self.tracker.logged_epochs(run_id)
        logged = self._epochs[run_id]
        for entry in result.get("history", []):
            if entry["epoch"] not in logged:
                self.tracker.log_epoch(run_id, entry["epoch"], entry)
                logged.add(entry["epoch"])

    def _log_completion(self, trial: Any, result: dict) -> None:
        self._log_result(trial, result)
        status = TrialStatus.of_ended(result)
        reason = str(result.get("reason", "")) if status is TrialStatus.INFEASIBLE else None
        self.tracker.end_trial(self.run_id(trial), status, reason, result, result.get("node_id"))

    def _log_error(self, trial: Any, reason: str) -> None:
        self.tracker.end_trial(self.run_id(trial), TrialStatus.FAILED, reason)


class TrialProgress(Callback):
    """One line per finished or failed trial, numbered across resumes; ``total`` None keeps a secret
    trial count out of the console."""

    def __init__(self, method: str, total: int | None, echo: Echo) -> None:
        self.method = method
        self.total = total
        self.echo = echo
        self.done: int | None = None

    def on_step_begin(self, iteration: int, trials: list, **info: Any) -> None:
        if self.done is None:  # a restored experiment starts with its ended trials
            self.done = sum(t.status in (Trial.TERMINATED, Trial.ERROR) for t in trials)

    def _line(self, trial: Any, outcome: str) -> None:
        self.done = (self.done or 0) + 1
        result = trial.last_result or {}
        seconds = result.get("trial_end", 0) - result.get("trial_start", 0)
        knobs = ", ".join(
            f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}"
            for k, v in sorted(trial.config.items())
            if not k.startswith(FILTER_PREFIX) and not isinstance(v, DrawnFilter)
        )
        of = f"/{self.total}" if self.total is not None else ""
        self.echo(f"  {self.method:<15} trial {self.done}{of}  {outcome}  ({seconds:.0f}s)  {knobs}")

    def on_trial_complete(self, iteration: int, trials: list, trial: Any, **info: Any) -> None:
        result = trial.last_result or {}
        if TrialStatus.of_ended(result) is TrialStatus.INFEASIBLE:
            self._line(trial, f"infeasible filter: {result.get('reason', '')}")
        else:
            self._line(
                trial,
                f"acc {100 * result.get('test_accuracy', 0):.2f}%  ε {result.get('epsilon_spent', 0):.3f}"
                f"  epochs {result.get('epoch', 0)}",
            )

    def on_trial_error(self, iteration: int, trials: list, trial: Any, **info: Any) -> None:
        self._line(trial, f"FAILED: {trial_error_reason(trial)[:160]}")
