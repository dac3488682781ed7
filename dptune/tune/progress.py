"""What a person sees while a sweep runs: one line per ended trial, and one live status line.

``SweepProgress`` is the sweep's console: every line goes through it whole (Tune's thread and the
driver's both write), and it keeps the live line — per method trials done/running/total and the best
validation score so far, where running trials are within epochs longer than a minute (their
``dptune.tune.step_board``), the time elapsed and an estimate of what remains. On a terminal the live line
is redrawn in place under the trial lines; in a log (not a terminal) it is written as an ordinary line
once a minute, so a log stays readable. ``TrialProgress`` is the Tune callback that feeds it.

Tune saves a run's callbacks with its experiment and a resumed run uses those copies, so a
``TrialProgress`` finds its console by the sweep's name in this module (``console``), where the driver
of this process registered it before starting or restoring any Tune run.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, TextIO

import ray
from ray.tune import Callback
from ray.tune.experiment import Trial

from dptune.methods.filters import DrawnFilter
from dptune.sweep.release_policies import RERUN_NAMES
from dptune.sweep.space import FILTER_PREFIX
from dptune.training.trial_status import (
    FINAL_SCORE,
    OBJECTIVE,
    ROUTING_KEYS,
    SCORE_STD,
    TrialStatus,
    fell_back_to_cpu,
    route,
    shown_score,
)
from dptune.tune.callbacks import trial_error_reason
from dptune.tune.step_board import EpochStep

Echo = Callable[[str], None]

REDRAW_SECONDS = 1.0
"""How often the live line is redrawn on a terminal (its clock moves)."""
LOG_SECONDS = 60.0
"""How often the live line is written as a line of its own when the output is not a terminal."""
CLEAR = "\r\033[K"


def duration(seconds: float) -> str:
    """``45s``, ``3m05s``, ``1h02m``."""
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"


@dataclass
class MethodProgress:
    """One method's runs so far: ``total`` None while its trial count is secret (repeat-and-select)."""

    total: int | None
    done: int = 0
    running: int = 0
    best: float | None = None  # best validation accuracy of a finished search trial
    best_noise: float | None = None  # its noise's std on private held-out data (None: public)
    reruns: int = 0  # planned re-runs of its selected configuration
    reruns_done: int = 0
    rerun_name: str = RERUN_NAMES[1]  # what the line calls them (a pipeline's: its release)
    rerun_cost: float = 1.0  # a re-run's compute in search trials': 1/γ where trials train on a subset γ

    def describe(self, method: str, within: Sequence[EpochStep] = ()) -> str:
        """``dpsgd 3/8 + re-runs 1/3 (2 running: epoch 2/10 41%) best 81.2%``, with where the running
        trials in a long epoch are (``within``); with a secret count no count, running trials, their
        progress or score of the search (each would tell how many trials ran): ``dpsgd searching``."""
        if self.total is None:
            reruns = f" + {self.rerun_name} {self.reruns_done}/{self.reruns}" if self.reruns else ""
            return f"{method} searching{reruns}"
        text = f"{method} {self.done}/{self.total}"
        if self.reruns:
            text += f" + {self.rerun_name} {self.reruns_done}/{self.reruns}"
        if self.running:
            steps = ", ".join(step.describe() for step in within)
            text += f" ({self.running} running: {steps})" if steps else f" ({self.running} running)"
        if self.best is not None:
            text += f" best {shown_score(self.best, self.best_noise, decimals=1)}"
        return text

    def scored(self, score: float, noise: float | None = None) -> None:
        """A finished search trial's validation accuracy, with its noise's std (``noise``): the best kept."""
        if self.best is None or score > self.best:
            self.best, self.best_noise = score, noise

    @property
    def work_done(self) -> float:
        """The compute of its finished runs, in search trials (a re-run weighs ``rerun_cost``)."""
        return self.done + self.rerun_cost * self.reruns_done

    @property
    def work_left(self) -> float | None:
        """The compute of its runs still to finish, in search trials (None when the count is secret)."""
        if self.total is None:
            return None
        return self.total - self.done + self.rerun_cost * (self.reruns - self.reruns_done)


class SweepProgress:
    """The sweep's console: whole lines from any thread, and the live status line (module docstring).

    ``live``: the terminal the live line is redrawn on (None: not a terminal; it is then echoed as a
    line every ``LOG_SECONDS``)."""

    def __init__(self, echo: Echo, live: TextIO | None) -> None:
        self.echo = echo
        self.live = live
        self.lock = threading.RLock()
        self.methods: dict[str, MethodProgress] = {}
        self.started = time.monotonic()
        self.done_at = self.started  # when the last run ended
        self.shown = ""  # the live line now on screen
        self.board: Any = None  # the trials' StepBoard (``watch``)
        self.within: dict[str, EpochStep] = {}  # its last reading, by trial id

    def __call__(self, line: str) -> None:
        """Echo ``line`` whole, above the live line."""
        with self.lock:
            if self.live is not None and self.shown:
                self.live.write(CLEAR)
                self.live.flush()
                self.shown = ""
            self.echo(line)
            self._draw()

    def watch(self, board: Any) -> None:
        """Read the running trials' progress within long epochs from ``board`` (a ``StepBoard``)."""
        self.board = board

    def read_board(self) -> None:
        """The board's current posts (kept as they were if it does not answer within a second)."""
        if self.board is not None:
            try:
                within = ray.get(self.board.read.remote(), timeout=1.0)
            except (ray.exceptions.GetTimeoutError, ray.exceptions.RayActorError):
                return
            with self.lock:
                self.within = within

    def forget(self, trial_id: str) -> None:
        """Take an ended trial's progress off the live line and the board."""
        with self.lock:
            self.within.pop(trial_id, None)
        if self.board is not None:
            self.board.post.remote(trial_id, None)

    def track(self, method: str, total: int | None) -> None:
        """Count ``method``'s search of ``total`` trials (None: secret)."""
        with self.lock:
            self.methods.setdefault(method, MethodProgress(total))

    def update(self, method: str, change: Callable[[MethodProgress], None]) -> None:
        with self.lock:
            before = self.work_done
            change(self.methods.setdefault(method, MethodProgress(None)))
            if self.work_done != before:
                self.done_at = time.monotonic()
            self._draw()

    @property
    def work_done(self) -> float:
        return sum(m.work_done for m in self.methods.values())

    def status(self) -> str:
        """The live line: every method's runs, the time elapsed and, when every count is public and a
        run has finished, the time left at the pace so far: the work left at the pace of the work done
        by the last run's end, less the time since. Work counts a re-run on the whole data as 1/γ search
        trials on a subset of rate γ (a pipeline's release after its tuning on a subset would otherwise
        be estimated at a tuning trial's time)."""
        with self.lock:
            now = time.monotonic()
            parts = [
                m.describe(name, [step for step in self.within.values() if step.method == name])
                for name, m in self.methods.items()
            ]
            done = self.work_done
            remaining = [m.work_left for m in self.methods.values()]
            text = f"[{duration(now - self.started)}] " + " · ".join(parts)
            if done and remaining and None not in remaining:
                work = sum(r for r in remaining if r is not None)
                left = (self.done_at - self.started) / done * work - (now - self.done_at)
                text += f" · about {duration(left)} left" if work and left >= 1 else " · finishing"
            return text

    def _draw(self) -> None:
        if self.live is None or not self.methods:
            return
        line = self.status()
        self.live.write(CLEAR + line)
        self.live.flush()
        self.shown = line

    @contextmanager
    def running(self) -> Iterator[None]:
        """While the sweep's trials run: redraw the live line every ``REDRAW_SECONDS`` on a terminal,
        else echo it every ``LOG_SECONDS``; cleared at the end."""
        stop = threading.Event()

        def tick() -> None:
            period = REDRAW_SECONDS if self.live is not None else LOG_SECONDS
            while not stop.wait(period):
                self.read_board()
                if self.live is not None:
                    with self.lock:
                        self._draw()
                elif self.methods:
                    self(self.status())

        ticker = threading.Thread(target=tick, name="dptune-progress", daemon=True)
        ticker.start()
        try:
            yield
        finally:
            stop.set()
            ticker.join()
            with self.lock:
                if self.live is not None and self.shown:
                    self.live.write(CLEAR)
                    self.live.flush()
                    self.shown = ""


def terminal() -> TextIO | None:
    """Standard output when it is a terminal (the live line is drawn there), else None."""
    return sys.stdout if sys.stdout.isatty() else None


_CONSOLES: dict[str, SweepProgress] = {}


def register(sweep: str, progress: SweepProgress) -> None:
    """Make ``progress`` the console of sweep ``sweep`` in this process (before any Tune run starts)."""
    _CONSOLES[sweep] = progress


def console(sweep: str) -> SweepProgress:
    return _CONSOLES[sweep]


class TrialProgress(Callback):
    """Feeds the sweep's console: one line per finished or failed trial (numbered across resumes), and the
    live line's counts. A search trial shows its validation score, a re-run (``final``) its final-test
    score. The search trials of a secret trial count (``total`` None: repeat-and-select) get no line:
    their number, order and scores are what the bound keeps secret."""

    def __init__(
        self,
        sweep: str,
        method: str,
        total: int | None,
        final: bool = False,
        rerun_names: tuple[str, str] = RERUN_NAMES,
        rerun_cost: float = 1.0,
    ) -> None:
        self.sweep = sweep
        self.method = method
        self.total = total
        self.final = final
        self.rerun_names = rerun_names  # a re-run's name, one and several (a pipeline's is its release)
        self.rerun_cost = rerun_cost  # a re-run's compute in search trials' (``MethodProgress``)
        self.done: int | None = None
        self.running: set[str] = set()  # trials started and not ended (a restarted one counts once)

    @property
    def progress(self) -> SweepProgress:
        return console(self.sweep)

    def setup(self, **info: Any) -> None:
        if not self.final:
            self.progress.track(self.method, self.total)

    def on_step_begin(self, iteration: int, trials: list, **info: Any) -> None:
        self._count_restored(trials)

    def on_experiment_end(self, trials: list, **info: Any) -> None:
        self._count_restored(trials)  # a restored experiment that had ended runs no step

    def _count_restored(self, trials: list) -> None:
        """Once, before the first step: the ended trials a restored experiment starts with, and the best
        validation score among them."""
        if self.done is not None:
            return
        ended = [
            t
            for t in trials
            if t.status in (Trial.TERMINATED, Trial.ERROR) and route(t.config).promoted_from is None
        ]
        self.done = len(ended)
        scores = [
            (t.last_result[OBJECTIVE], t.last_result.get(SCORE_STD[OBJECTIVE]))
            for t in ended
            if t.last_result and TrialStatus.of_ended(t.last_result) is TrialStatus.FINISHED
        ]

        def restored(method: MethodProgress) -> None:
            if self.final:
                method.reruns = self.total or 0
                method.rerun_name = self.rerun_names[1]
                method.rerun_cost = self.rerun_cost
            self._count(method, len(ended), 0)
            if not self.final:
                for score, noise in scores:
                    method.scored(score, noise)

        self.progress.update(self.method, restored)

    def _count(self, method: MethodProgress, done: int, running: int) -> None:
        if self.final:
            method.reruns_done += done
            method.reruns = max(method.reruns, method.reruns_done + running)  # one model's, once it starts
        else:
            method.done += done
        method.running += running

    def on_trial_start(self, iteration: int, trials: list, trial: Any, **info: Any) -> None:
        if trial.trial_id not in self.running:
            self.running.add(trial.trial_id)
            self.progress.update(self.method, lambda m: self._count(m, 0, 1))

    def _line(self, trial: Any, outcome: str, score: float | None = None) -> None:
        self.done = (self.done or 0) + 1
        result = trial.last_result or {}
        seconds = result.get("trial_end", 0) - result.get("trial_start", 0)
        knobs = ", ".join(
            f"{k}={v:.4g}" if isinstance(v, float) else f"{k}={v}"
            for k, v in sorted(trial.config.items())
            if v is not None
            and not k.startswith(FILTER_PREFIX)
            and not isinstance(v, DrawnFilter)
            and k not in ROUTING_KEYS
        )
        of = f"/{self.total}" if self.total else ""  # none: a secret count, or one model's unknown release
        kind = f"{self.rerun_names[0] if self.final else 'trial'} {self.done}{of}"
        promoted = route(trial.config).promoted_from is not None  # a second rung's: not one of the K
        if promoted:
            self.done -= 1
            kind = "promoted"
        if fell_back_to_cpu(result):
            outcome += "  on CPU (its node shows no CUDA device; gpu_fallback: cpu)"

        was_running = trial.trial_id in self.running
        self.running.discard(trial.trial_id)
        self.progress.forget(trial.trial_id)

        def finished(method: MethodProgress) -> None:
            self._count(method, 0 if promoted else 1, -1 if was_running else 0)
            if score is not None and not self.final:
                method.scored(score, result.get(SCORE_STD[OBJECTIVE]))

        self.progress.update(self.method, finished)
        if self.final or self.total is not None:
            self.progress(f"  {self.method:<15} {kind}  {outcome}  ({seconds:.0f}s)  {knobs}")

    def on_trial_complete(self, iteration: int, trials: list, trial: Any, **info: Any) -> None:
        result = trial.last_result or {}
        status = TrialStatus.of_ended(result)
        if status is TrialStatus.INFEASIBLE:
            self._line(trial, f"infeasible filter: {result.get('reason', '')}")
        elif status is TrialStatus.FAILED:  # reported by the trainable (it diverged)
            self._line(trial, f"FAILED: {str(result.get('reason', ''))[:160]}")
        else:
            key = FINAL_SCORE if self.final else OBJECTIVE
            score = result.get(key, 0.0)
            part = "final test" if self.final else "validation"
            shown = f"{part} {shown_score(score, result.get(SCORE_STD[key]))}"
            self._line(
                trial,
                f"{shown}  ε {result.get('epsilon_spent', 0):.3f}  epochs {result.get('epoch', 0)}",
                score if status is TrialStatus.FINISHED else None,
            )

    def on_trial_error(self, iteration: int, trials: list, trial: Any, **info: Any) -> None:
        self._line(trial, f"FAILED: {trial_error_reason(trial)[:160]}")
