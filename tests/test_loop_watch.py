"""The event loop's watch: a blocked loop is logged with where it was blocked; a busy one is not."""

from __future__ import annotations

import asyncio
import logging
import time

import pytest

from referee.loop_watch import LoopWatch
from tests.own_loop import run_own_loop


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
        run_own_loop(main())
    # A busy machine may add a stall of its own ("waiting for the CPU"); the block is one stall.
    blocked = [r.getMessage() for r in caplog.records if "blocking it" in r.getMessage()]
    assert len(blocked) == 1 and watch.stalls >= 1, [r.getMessage() for r in caplog.records]
    assert "has not run for" in blocked[0] and "blocking_journal_commit" in blocked[0]
    assert 0.2 < watch.longest_s < 2.0


def test_a_loop_that_only_waits_is_not_a_stall(caplog: pytest.LogCaptureFixture) -> None:
    watch = LoopWatch(threshold_s=0.6, beat_s=0.02)

    async def main() -> None:
        watch.start(asyncio.get_running_loop())
        await asyncio.sleep(1.0)  # idle, not blocked: the heartbeat keeps running
        watch.stop()

    with caplog.at_level(logging.WARNING, logger="referee.loop_watch"):
        run_own_loop(main())
    assert watch.stalls == 0 and not caplog.records
    assert watch.longest_s < 0.6
