"""The event loop's watch: a blocked loop is logged with where it was blocked; a busy one is not."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest

from referee.loop_watch import LoopWatch


def blocking_journal_commit() -> None:
    time.sleep(0.9)  # stands for a commit waiting on a slow SD card


def test_a_blocked_loop_is_logged_once_with_the_blocking_call(caplog: pytest.LogCaptureFixture) -> None:
    watch = LoopWatch(threshold_s=0.2, beat_s=0.02)

    async def main() -> None:
        watch.start(asyncio.get_running_loop())
        await asyncio.sleep(0.1)
        blocking_journal_commit()
        await asyncio.sleep(0.1)
        watch.stop()

    with caplog.at_level(logging.WARNING, logger="referee.loop_watch"):
        asyncio.run(main())
    warnings = [r.getMessage() for r in caplog.records]
    assert (len(warnings), watch.stalls) == (1, 1), (warnings, watch.longest_s)
    assert "has not run for" in warnings[0] and "blocking it" in warnings[0]
    assert "blocking_journal_commit" in warnings[0]
    assert 0.2 < watch.longest_s < 2.0


def test_a_loop_that_only_waits_is_not_a_stall(caplog: pytest.LogCaptureFixture) -> None:
    watch = LoopWatch(threshold_s=0.4, beat_s=0.02)

    async def main() -> None:
        watch.start(asyncio.get_running_loop())
        await asyncio.sleep(0.6)  # idle, not blocked: the heartbeat keeps running
        watch.stop()

    with caplog.at_level(logging.WARNING, logger="referee.loop_watch"):
        asyncio.run(main())
    assert watch.stalls == 0 and not caplog.records
    assert watch.longest_s < 0.4
