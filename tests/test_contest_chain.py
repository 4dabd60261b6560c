"""Djam's speaking order is a chain of contests, re-armed the moment a speaker is settled.

A press whose edge is still on its way to the event loop when the chain re-arms (the source
confirmed it, the loop has not yet run its edge) belongs to the next contest: it was once
taken for a button held at arming and the player's press was lost (the flaky Djam browser
test, stop 28)."""

from __future__ import annotations

import asyncio
import time
from dataclasses import replace
from pathlib import Path

from hardware.call_schedule import CallSchedule
from hardware.gpio_buttons import GpioButtonSource
from hardware.pinmap import PinMap
from referee.contests import ContestSettings
from referee.daemon import Referee
from tests.gpio_table import MS, FakeClock
from tests.own_loop import run_own_loop

PLAYERS = ["Ann", "Bob", "Cat"]
DJAM = {"game": "djam", "variant": "classic", "players": PLAYERS, "options": {}}
DICE = {"type": "dice", "green": "B", "white": "O", "yellow": "R", "red": "V", "blue": "A", "colour": "green"}


async def wait_until(predicate, what: str, timeout: float = 10.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.002)


def test_a_press_confirmed_as_the_chain_rearms_is_the_next_speaker(tmp_path: Path) -> None:
    clock = FakeClock(10_000 * MS)
    pins = replace(PinMap.example(), factory="mock")
    # The test confirms presses itself (no confirmer thread): a press stays undecided until
    # something polls the source — here, the re-arm asking which buttons are held.
    source = GpioButtonSource(pins, auto_confirm=False, now_ns=clock)
    settings = ContestSettings(schedule=CallSchedule(0.0, 0.0))
    referee = Referee(tmp_path / "data", source, settings)

    async def night() -> tuple[list[str], list[str]]:
        referee.contests.attach(asyncio.get_running_loop())
        game = referee.session.create_game(DJAM)
        seats = game.seats
        referee.session.submit(dict(DICE, theme=1), game.id)
        running = lambda: referee.contests.running  # noqa: E731
        await wait_until(lambda: running() is not None and running().call_t_ns, "the call")
        call = running().call_t_ns
        # Ann presses 400 ms after the dice and the source confirms it; Bob presses 2 ms after
        # her, but nothing polls the source before the chain re-arms: his press is confirmed
        # by the re-arm's own question (which buttons are held?) and its edge comes after.
        source.drive(seats["Ann"], True, ticks=(call + 400 * MS) / 1e9)
        clock.t_ns = call + 402 * MS + 500_000  # past the glitch time and the settle slack
        source.poll()
        source.drive(seats["Bob"], True, ticks=(call + 402 * MS) / 1e9)
        clock.t_ns = call + 405 * MS
        first = running()
        await wait_until(lambda: running() is not None and running() is not first, "the chain to re-arm")
        second = running()
        await wait_until(lambda: running() is not second, "the second speaker")
        summary = referee.view()["game"]["summary"]
        return summary["speaking_order"]["waiting"], sorted(second.held)

    waiting, held = run_own_loop(night())
    assert held == [], "Bob's press was on its way to the loop, not a button held before the contest"
    assert waiting == ["Ann", "Bob"]
    source.stop()
