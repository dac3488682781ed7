"""Ray Tune's side of a callback, for tests and ``bench/``: real ``Trial`` objects (Ray must be
initialised) and the calls Tune's controller makes, each timed; results as the trainable reports them."""

from __future__ import annotations

import time
from typing import Any

from ray.train._internal.storage import StorageContext
from ray.tune import Callback
from ray.tune.error import TuneError
from ray.tune.experiment import Trial


def result(epoch: int, epochs: int) -> dict[str, Any]:
    """What the trainable reports after ``epoch`` (of ``epochs``) in ``dptune.tune.trainable``, history
    included."""
    history = [
        {
            "epoch": e,
            "validation_accuracy": 0.5 + e / 100,
            "validation_loss": 1.0 / e,
            "epsilon_spent": 0.1 * e,
        }
        for e in range(1, epoch + 1)
    ]
    return history[-1] | {
        "status": "finished" if epoch == epochs else "running",
        "epoch": epoch,
        "steps": 10 * epoch,
        "noise_multiplier": 1.1,
        "delta": 1e-5,
        "epsilon_target": 1.0,
        "node_id": "node-1",
        "history": history,
    }


class TuneLoop:
    """Calls a callback the way Tune's controller does: each event, then ``on_step_end`` (Tune saves its
    experiment state in between). ``times[hook]``: seconds of each event's call with its step end, what
    Tune's loop waited for; ``slowest``: the longest of them."""

    def __init__(self, callback: Callback, storage: StorageContext) -> None:
        self.callback = callback
        self.storage = storage
        self.trials: list[Trial] = []
        self.iteration = 0
        self.times: dict[str, list[float]] = {}

    @property
    def slowest(self) -> float:
        return max(max(times) for times in self.times.values())

    def _step(self, hook: str, **kwargs: Any) -> None:
        self.iteration += 1
        started = time.perf_counter()
        if hook == "on_experiment_end":
            self.callback.on_experiment_end(trials=self.trials)
        else:
            getattr(self.callback, hook)(iteration=self.iteration, trials=self.trials, **kwargs)
            self.callback.on_step_end(iteration=self.iteration, trials=self.trials)
        self.times.setdefault(hook, []).append(time.perf_counter() - started)

    def trial(self, trial_id: str, lr: float, status: str = Trial.PENDING) -> Trial:
        """A trial as Tune holds it (a restored experiment's ended ones too)."""
        trial = Trial("dptune_dpsgd", config={"lr": lr}, trial_id=trial_id, stub=True, storage=self.storage)
        trial.init_local_path()
        trial.set_status(status)
        self.trials.append(trial)
        return trial

    def start(self, trial: Trial) -> None:
        trial.set_status(Trial.RUNNING)
        self._step("on_trial_start", trial=trial)

    def report(self, trial: Trial, epoch: int, epochs: int) -> None:
        reported = result(epoch, epochs)
        trial.update_last_result(reported)
        self._step("on_trial_result", trial=trial, result=reported)

    def complete(self, trial: Trial) -> None:
        trial.set_status(Trial.TERMINATED)
        self._step("on_trial_complete", trial=trial)

    @staticmethod
    def error(trial: Trial, message: str) -> None:
        """Record a trial's error as Tune does (its error file)."""
        trial.handle_error(TuneError(message))
        trial.set_status(Trial.ERROR)

    def fail(self, trial: Trial, message: str) -> None:
        self.error(trial, message)
        self._step("on_trial_error", trial=trial)

    def end(self) -> None:
        self._step("on_experiment_end")
