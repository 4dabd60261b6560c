"""The GPIO path through the running daemon (issue 3): presses on mock pins with given kernel
ticks give the exact verdict, light the winner's LED and reach the display's view."""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import replace
from pathlib import Path

from hardware.call_schedule import CallSchedule
from hardware.gpio_buttons import GpioButtonSource
from hardware.pinmap import PinMap
from referee.contests import ContestSettings
from referee.daemon import Referee
from tests.own_loop import run_own_loop

FASTEST = {"game": "fastest", "variant": "standard", "players": ["Anne", "Marc", "Carl"], "options": {}}


async def wait_until(predicate, timeout: float = 10.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.005)


def test_presses_with_given_ticks_decide_light_and_display(tmp_path: Path) -> None:
    pins = replace(PinMap.example(), factory="mock")
    source = GpioButtonSource(pins)
    settings = ContestSettings(schedule=CallSchedule(0.0, 0.0), tie_window_ns=10_000)
    referee = Referee(tmp_path / "data", source, settings)

    async def night() -> dict:
        referee.contests.attach(asyncio.get_running_loop())
        referee.session.create_game(FASTEST)
        referee.contests.arm()
        await wait_until(lambda: (referee.contests.running or None) and referee.contests.running.call_t_ns)
        call_s = referee.contests.running.call_t_ns / 1e9  # type: ignore[union-attr]
        await asyncio.sleep(0.3)  # the hands come down; the kernel stamped them when they did
        # Marc (button 2) at +250 ms, Anne (button 1) 50 µs later, Carl (button 3) 40 µs after Anne.
        source.drive(2, True, ticks=call_s + 0.250_000)
        source.drive(1, True, ticks=call_s + 0.250_050)
        source.drive(3, True, ticks=call_s + 0.250_090)
        await wait_until(lambda: referee.contests.running is None)
        view = json.loads(referee.hub.current_json())
        lit = {seat: source.feedback.lit(seat) for seat in (1, 2, 3)}  # type: ignore[union-attr]
        for seat in (1, 2, 3):
            source.drive(seat, False)
        source.stop()
        return {"view": view, "lit": lit}

    result = run_own_loop(night())
    verdict = result["view"]["contest"]["last"]["verdict"]
    assert verdict["ranking"] == [["Marc"], ["Anne"], ["Carl"]]
    assert verdict["margins_ns"] == [50_000, 40_000], "the margins are the ticks' differences, exactly"
    assert verdict["reaction_ns"]["Marc"] == 250_000_000
    assert result["lit"] == {1: False, 2: True, 3: False}, "the winner's LED lights"
    assert result["view"]["game"]["summary"]["scores"] == {"Anne": 0, "Marc": 1, "Carl": 0}
    assert "Marc" in result["view"]["contest"]["last"]["timeline_svg"]
