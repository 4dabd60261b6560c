"""A watch on the daemon's event loop: a stall is logged with where the loop was stuck.

Verdict timers, virtual keys and the live display all run on one asyncio loop. A stall there
(a journal commit waiting on a slow SD card, a heavy import, a busy machine) delays verdicts
and once lost virtual presses; it is invisible unless someone looks at the moment it happens.
A heartbeat runs on the loop; a thread checks it, and when the loop has missed it by more than
`threshold_s` logs one warning with the loop thread's stack at that moment — or, when the loop
thread was only waiting to be scheduled, says so.
"""

from __future__ import annotations

import asyncio
import logging
import sys
import threading
import time
import traceback

log = logging.getLogger(__name__)

THRESHOLD_S = 0.25  # a quarter of a second is visible at the table (a verdict that hangs)
BEAT_S = 0.05


class LoopWatch:
    """Start with `start(loop)` from the loop's thread; `stop()` ends the watching thread."""

    def __init__(self, threshold_s: float = THRESHOLD_S, beat_s: float = BEAT_S) -> None:
        self.threshold_s = threshold_s
        self.beat_s = beat_s
        self.stalls = 0
        self.longest_s = 0.0
        self._beat = time.monotonic()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._loop_thread = 0
        self._done = threading.Event()
        self._thread: threading.Thread | None = None
        self._handle: asyncio.TimerHandle | None = None

    def start(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._loop_thread = threading.get_ident()
        self._tick()
        self._thread = threading.Thread(target=self._watch, name="loop-watch", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._done.set()
        if self._handle is not None:
            self._handle.cancel()

    def _tick(self) -> None:
        self._beat = time.monotonic()
        assert self._loop is not None
        self._handle = self._loop.call_later(self.beat_s, self._tick)

    def _watch(self) -> None:
        reported = 0.0  # the beat already reported: one warning per stall
        while not self._done.wait(self.beat_s):
            beat = self._beat
            lag = time.monotonic() - beat - self.beat_s
            self.longest_s = max(self.longest_s, lag)
            if lag <= self.threshold_s or beat == reported:
                continue
            reported = beat
            self.stalls += 1
            frame = sys._current_frames().get(self._loop_thread)
            stack = traceback.extract_stack(frame) if frame is not None else []
            waiting = bool(stack) and stack[-1].name in ("select", "poll", "_run_once")
            where = "".join(traceback.format_list(stack[-8:]))
            log.warning(
                "the event loop has not run for %.2f s (%s); verdicts and the display wait for it. "
                "The loop thread is at:\n%s",
                lag,
                "the loop was waiting for the CPU: the machine is busy"
                if waiting
                else "something on the loop is blocking it",
                where,
            )
