"""Stopping a running sweep: Ctrl+C (SIGINT) or SIGTERM (``ray job stop``, a scheduler's kill) while its
Tune run trains.

A sweep's Tune run trains in a thread of the driver (``run_searches``); Tune only catches SIGINT
when it runs in the main thread, so without this a Ctrl+C waited, silently, for the whole sweep to end.
Inside ``interruptible()`` both signals raise ``SweepInterrupted`` in the main thread, which stops
waiting for the run. The process then ends as a killed driver does, which is the state
``--resume`` is built for: Tune saved the run's experiment at its last step, the tracker recorded only
what those saves hold, each trial that was running continues from its last epoch's checkpoint (with its
random states, so its ledger does not change), and the private write-ahead record still counts every
trial that started. What the driver adds to a kill: the tracker's queued writes are recorded first
(``INTERRUPT_FLUSH_SECONDS`` at most), and the user is told how to continue.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager

INTERRUPT_FLUSH_SECONDS = 20.0
"""How long an interrupted sweep waits for the tracker to record what it queued (a store that is down
is brought in line by ``--resume``)."""

SIGNALS = (signal.SIGINT, signal.SIGTERM)


class SweepInterrupted(BaseException):
    """A stop signal during the sweep's Tune runs. ``exit_code`` is the shell's for that signal
    (128 + its number); ``recorded`` says whether the tracker recorded everything queued before the
    process ends. A ``BaseException``, as ``KeyboardInterrupt`` is: a handler of ``Exception`` does not
    swallow it."""

    def __init__(self, signal_number: int) -> None:
        self.signal_name = signal.Signals(signal_number).name
        self.exit_code = 128 + signal_number
        self.recorded = False
        super().__init__(f"interrupted by {self.signal_name}")


@contextmanager
def interruptible() -> Iterator[None]:
    """While the block runs, SIGINT and SIGTERM raise ``SweepInterrupted`` in the main thread (the one
    that receives signals; from another thread the block runs without it). A second signal while the
    interrupted sweep records its queue raises again, which skips the rest of that wait."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signal_number: int, frame: object) -> None:
        raise SweepInterrupted(signal_number)

    previous = {number: signal.signal(number, stop) for number in SIGNALS}
    try:
        yield
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)
