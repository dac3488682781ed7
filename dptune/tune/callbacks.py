"""The Ray Tune callback that writes every trial of a sweep to a tracker (``TrialRecorder``); the
console's is ``dptune.tune.progress.TrialProgress``."""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from ray.tune import Callback
from ray.tune.experiment import Trial

from dptune.sweep.results import trial_settings
from dptune.tracking import TrialKey, TrialSink
from dptune.tracking.names import FINAL_ROLE, PROMOTED_FROM_TAG, SEARCH_ROLE, SELECTED_TRIAL_TAG
from dptune.training.trial_status import TrialStatus, route


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


class TrialRecorder(Callback):
    """Tune callback: one tracked run per trial under the sweep's record.

    Params: the trial's settings (filter coefficients included). Metrics per epoch (step = epoch):
    validation accuracy and loss, ε spent; at the end: σ, δ, steps (a re-run: final-test accuracy and
    loss), and the trial's ``TrialStatus`` (finished, stopped by the scheduler, infeasible filter draw,
    failed with a reason). A recorder given ``selected`` (the search trial whose configuration is re-run)
    records re-runs: role ``final``, tagged with that trial's id.

    The callback only queues: what Tune reports during a step is collected, then handed to the tracker
    in ``on_step_end``, which Tune calls after the step's experiment-state save
    (``dptune.tune.restore`` makes that save happen every step); the tracker's writer thread records it
    later, in order, off Tune's loop, and keeps it while the store is unreachable (``TrialSink``). The
    store therefore never records a trial, a result or a status that the saved experiment lacks: after
    the driver is killed, ``Tuner.restore`` knows every trial the store shows, so resuming neither
    duplicates a run nor re-runs a finished trial.

    The store may lag the saved experiment instead (the driver killed between save and write, or while
    the store was unreachable, or a sweep that ended before the store came back): the saved experiment
    is then the journal, and resuming the sweep brings the store in line. Every result carries the
    trial's whole epoch history, so a continued trial's run gets the epochs it lacks; at the end of an
    experiment every ended trial whose run is not ended yet is settled (its run found again by its trial
    id, or made). The save reaches storage asynchronously, so a trial started just before a kill can be
    unknown to the restored experiment, which runs another in its place: its run, if it reached the
    store, is marked ``lost`` at the end, and it still counts in the tuning cost, from the sweep's private
    write-ahead record.
    """

    def __init__(
        self,
        tracker: TrialSink,
        experiment: str,
        sweep_id: str,
        method: str,
        noise_source: str,
        settings: Mapping[str, Any],
        role: str = SEARCH_ROLE,
    ) -> None:
        self.tracker = tracker
        self.settings = dict(settings)
        self.experiment = experiment
        self.sweep_id = sweep_id
        self.method = method
        self.noise_source = noise_source
        self.role = role
        self._opened: set[str] = set()  # trials whose run this process has asked for
        self._epochs: dict[str, set[int]] = {}  # trial id -> epochs this process has handed over
        self._pending: list[Callable[[], None]] = []

    def _key(self, trial: Any) -> TrialKey:
        return TrialKey(self.experiment, self.sweep_id, trial.trial_id)

    def _open(self, trial: Any) -> None:
        if trial.trial_id not in self._opened:
            self._opened.add(trial.trial_id)
            settings = trial_settings(self.settings, trial.config)
            whose = route(trial.config)
            tags = {SELECTED_TRIAL_TAG: whose.rerun_of} if whose.rerun_of is not None else {}
            if whose.promoted_from is not None:
                tags[PROMOTED_FROM_TAG] = whose.promoted_from
            self.tracker.open_trial(
                self._key(trial), self.method, self.noise_source, settings, self.role, tags
            )

    def on_trial_start(self, iteration: int, trials: list, trial: Any, **info: Any) -> None:
        self._pending.append(lambda: self._open(trial))

    def on_trial_result(self, iteration: int, trials: list, trial: Any, result: dict, **info: Any) -> None:
        self._pending.append(lambda: self._log_result(trial, result))

    def on_trial_complete(self, iteration: int, trials: list, trial: Any, **info: Any) -> None:
        self._pending.append(lambda: self._log_completion(trial, dict(trial.last_result or {})))

    def on_trial_error(self, iteration: int, trials: list, trial: Any, **info: Any) -> None:
        self._pending.append(lambda: self._log_error(trial, trial_error_reason(trial)))

    def on_step_end(self, iteration: int, trials: list, **info: Any) -> None:
        self._hand_over()

    def on_experiment_end(self, trials: list, **info: Any) -> None:
        for trial in trials:
            if trial.status in (Trial.TERMINATED, Trial.ERROR):
                self._pending.append(functools.partial(self._settle, trial))
        known = {t.trial_id for t in trials}
        self._pending.append(
            lambda: self.tracker.mark_lost(self.experiment, self.sweep_id, self.method, known, self.role)
        )
        self._hand_over()

    def _hand_over(self) -> None:
        """Queue the step's writes with the tracker, in the order Tune reported the events (they read the
        trials here, in Tune's thread; the tracker keeps copies)."""
        pending, self._pending = self._pending, []
        for write in pending:
            write()

    def _settle(self, trial: Any) -> None:
        """Mark an ended trial's run as ended unless the store shows it ended (a restored experiment's)."""
        if trial.status == Trial.ERROR:
            self._log_error(trial, trial_error_reason(trial), settle=True)
        else:
            self._log_completion(trial, dict(trial.last_result or {}), settle=True)

    def _new_epochs(self, trial: Any, result: dict) -> list[dict]:
        """The entries of ``result["history"]`` not handed over yet by this process."""
        handed = self._epochs.setdefault(trial.trial_id, set())
        new = [entry for entry in result.get("history", []) if entry["epoch"] not in handed]
        handed.update(entry["epoch"] for entry in new)
        return new

    def _log_result(self, trial: Any, result: dict) -> None:
        """Every epoch of ``result["history"]`` not handed over yet (the store skips those it has)."""
        self._open(trial)
        self.tracker.log_epochs(self._key(trial), self._new_epochs(trial, result))

    def _log_completion(self, trial: Any, result: dict, settle: bool = False) -> None:
        self._open(trial)
        status = TrialStatus.of_ended(result)
        reason = str(result["reason"]) if "reason" in result else None  # infeasible, or failed (diverged)
        ended = result | {"history": self._new_epochs(trial, result)}
        self.tracker.end_trial(self._key(trial), status, reason, ended, settle)

    def _log_error(self, trial: Any, reason: str, settle: bool = False) -> None:
        self._open(trial)
        history = self._new_epochs(trial, dict(trial.last_result or {}))
        self.tracker.end_trial(self._key(trial), TrialStatus.FAILED, reason, {"history": history}, settle)


def trial_group(config: Mapping[str, Any]) -> tuple[str, str]:
    """(method, role) of a sweep trial: the search of its method, or the re-runs (``final``)."""
    whose = route(config)
    return whose.method, FINAL_ROLE if whose.rerun else SEARCH_ROLE


class PerMethod(Callback):
    """The callbacks of every method's search and re-runs in a sweep's one Tune run: each
    ``groups[(method, role)]`` (role ``search`` or ``final``) hears the events of its own trials, and
    the step and end events with the list of its own trials, as if it were a callback of a Tune run of
    that method's search, or of its re-runs, alone."""

    def __init__(self, groups: dict[tuple[str, str], list[Callback]]) -> None:
        self.groups = groups

    def _to_group(self, event: str, trial: Any, info: dict[str, Any]) -> None:
        group = trial_group(trial.config)
        if "trials" in info:
            info = info | {"trials": [t for t in info["trials"] if trial_group(t.config) == group]}
        for callback in self.groups.get(group, []):
            getattr(callback, event)(trial=trial, **info)

    def _to_each(self, event: str, trials: list, info: dict[str, Any]) -> None:
        for group, callbacks in self.groups.items():
            own = [t for t in trials if trial_group(t.config) == group]
            for callback in callbacks:
                getattr(callback, event)(trials=own, **info)

    def setup(self, **info: Any) -> None:
        for callbacks in self.groups.values():
            for callback in callbacks:
                callback.setup(**info)

    def on_step_begin(self, iteration: int, trials: list, **info: Any) -> None:
        self._to_each("on_step_begin", trials, {"iteration": iteration, **info})

    def on_step_end(self, iteration: int, trials: list, **info: Any) -> None:
        self._to_each("on_step_end", trials, {"iteration": iteration, **info})

    def on_experiment_end(self, trials: list, **info: Any) -> None:
        self._to_each("on_experiment_end", trials, info)

    def on_trial_start(self, trial: Any, **info: Any) -> None:
        self._to_group("on_trial_start", trial, info)

    def on_trial_restore(self, trial: Any, **info: Any) -> None:
        self._to_group("on_trial_restore", trial, info)

    def on_trial_save(self, trial: Any, **info: Any) -> None:
        self._to_group("on_trial_save", trial, info)

    def on_trial_result(self, trial: Any, **info: Any) -> None:
        self._to_group("on_trial_result", trial, info)

    def on_trial_complete(self, trial: Any, **info: Any) -> None:
        self._to_group("on_trial_complete", trial, info)

    def on_trial_recover(self, trial: Any, **info: Any) -> None:
        self._to_group("on_trial_recover", trial, info)

    def on_trial_error(self, trial: Any, **info: Any) -> None:
        self._to_group("on_trial_error", trial, info)

    def on_checkpoint(self, trial: Any, **info: Any) -> None:
        self._to_group("on_checkpoint", trial, info)
