"""``dptune.tune.interrupt``: the signals that stop a running sweep (the whole path, Ctrl+C then
``--resume``, is ``tests/test_sweep.py``'s resume test)."""

from __future__ import annotations

import os
import signal
import threading

import pytest

from dptune.tune.interrupt import SweepInterrupted, interruptible


@pytest.mark.parametrize(("number", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_stop_signal_raises_in_the_main_thread_and_the_handlers_come_back(number: int, code: int) -> None:
    before = {n: signal.getsignal(n) for n in (signal.SIGINT, signal.SIGTERM)}
    with pytest.raises(SweepInterrupted) as raised, interruptible():
        os.kill(os.getpid(), number)
        threading.Event().wait(5)  # the handler runs here, in the main thread
    assert raised.value.exit_code == code
    assert raised.value.signal_name == signal.Signals(number).name
    assert not isinstance(raised.value, Exception)  # an ``except Exception`` does not swallow it
    assert {n: signal.getsignal(n) for n in before} == before


def test_outside_the_main_thread_the_block_runs_without_handlers() -> None:
    seen: list[object] = []

    def body() -> None:
        with interruptible():
            seen.append(signal.getsignal(signal.SIGTERM))

    thread = threading.Thread(target=body)
    thread.start()
    thread.join()
    assert seen == [signal.getsignal(signal.SIGTERM)]
