"""A tracker's background writer: writes queued by any thread, carried out in order by one thread, so
that a slow or unreachable store never stalls the caller (Ray Tune's control loop, in a sweep).

The writer takes everything queued so far as one *pass* and hands it to an ``apply`` function. When the
store cannot be reached, ``apply`` raises ``StoreUnavailableError``: the pass is kept, newer writes join it,
and the whole pass is applied again after a growing pause (so ``apply`` must be idempotent). One line
goes to the ``dptune.tracking`` logger when the store becomes unreachable and one when the writer has
caught up. Writes are held in memory only; what survives the process is the caller's business (a sweep
replays its trials from Tune's saved experiment on resume, ``dptune.tune.callbacks``).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from typing import Generic, TypeVar

log = logging.getLogger("dptune.tracking")

T = TypeVar("T")


class StoreUnavailableError(Exception):
    """Raised by ``apply`` when the store cannot be reached (after the client's own retries): every
    write of the pass is kept and the pass is applied again later."""


class BackgroundWriter(Generic[T]):
    """One writer thread applying queued writes in order, in passes; thread-safe.

    Args:
      apply: carries out a pass (every write not yet carried out, oldest first). Raises
        ``StoreUnavailableError`` to have the pass applied again later; any other exception drops the pass
        (logged with its traceback: retrying a bug would stop every later write).
      store: how the store is named in messages (no credentials).
      first_retry_s: the pause after the first failed pass; it doubles on every further failure...
      max_retry_s: ...up to this.
    """

    def __init__(
        self,
        apply: Callable[[list[T]], None],
        store: str,
        first_retry_s: float = 1.0,
        max_retry_s: float = 60.0,
    ) -> None:
        self._apply = apply
        self.store = store
        self.first_retry_s = first_retry_s
        self.max_retry_s = max_retry_s
        self._changed = threading.Condition()
        self._queue: list[T] = []
        self._submitted = 0  # writes ever queued
        self._done = 0  # writes carried out (or dropped), always a prefix of the queued ones
        self.peak = 0
        """The most writes ever queued and not yet carried out at once."""
        self._thread: threading.Thread | None = None
        self._stopping = False

    def submit(self, writes: Sequence[T]) -> None:
        """Queue ``writes`` (in order, after every write queued before); returns at once."""
        if not writes:
            return
        with self._changed:
            self._queue.extend(writes)
            self._submitted += len(writes)
            self.peak = max(self.peak, self._submitted - self._done)
            self._stopping = False
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="dptune-tracking-writer", daemon=True)
                self._thread.start()
            self._changed.notify_all()

    @property
    def pending(self) -> int:
        """Writes queued and not carried out yet."""
        with self._changed:
            return self._submitted - self._done

    def flush(self, timeout: float | None) -> bool:
        """Wait until every write queued before this call is carried out, at most ``timeout`` seconds
        (None: no limit); returns whether they all were."""
        with self._changed:
            target = self._submitted
            return self._changed.wait_for(lambda: self._done >= target, timeout)

    def close(self, timeout: float | None) -> bool:
        """``flush(timeout)``, then let the thread end once nothing is left (a later ``submit`` starts
        another); returns whether everything was carried out. A writer that has not caught up keeps
        trying for as long as the process lives."""
        caught_up = self.flush(timeout)
        with self._changed:
            self._stopping = True
            self._changed.notify_all()
            thread = self._thread
        if not caught_up:
            log.warning("tracking: %d writes to %s are not recorded yet", self.pending, self.store)
        elif thread is not None:
            thread.join(timeout=5.0)
        return caught_up

    def _run(self) -> None:
        backlog: list[T] = []
        pause = self.first_retry_s
        unreachable_since: float | None = None
        while True:
            with self._changed:
                if not backlog:
                    self._changed.wait_for(lambda: self._queue or self._stopping)
                if not self._queue and not backlog:  # stopping, and nothing left
                    self._thread = None
                    return
                backlog += self._queue
                self._queue = []
            try:
                self._apply(backlog)
            except StoreUnavailableError as error:
                if unreachable_since is None:
                    unreachable_since = time.monotonic()
                    log.warning(
                        "tracking: cannot reach %s (%s); the sweep goes on, its writes are kept and retried",
                        self.store,
                        str(error).splitlines()[0][:200] if str(error) else type(error).__name__,
                    )
                time.sleep(pause)
                pause = min(2 * pause, self.max_retry_s)
                continue
            except Exception:
                log.exception("tracking: %d writes to %s failed and are dropped", len(backlog), self.store)
            if unreachable_since is not None:
                log.warning(
                    "tracking: %s is reachable again; %d delayed writes recorded after %.0f s",
                    self.store,
                    len(backlog),
                    time.monotonic() - unreachable_since,
                )
                unreachable_since = None
            with self._changed:
                self._done += len(backlog)
                self._changed.notify_all()
            backlog = []
            pause = self.first_retry_s
