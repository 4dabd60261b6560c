"""Virtual seat keys: a press and its release that reach the pin together still make a press."""

from __future__ import annotations

import asyncio
import threading

from hardware.debounce import DebounceSettings
from hardware.gpio_buttons import GpioButtonSource
from hardware.pinmap import PinMap
from hardware.source import ButtonEdge
from hardware.virtual_keys import VirtualKeys, edge_spacing_ns
from tests.own_loop import run_own_loop


def collect(source: GpioButtonSource) -> tuple[list[ButtonEdge], threading.Event]:
    edges: list[ButtonEdge] = []
    released = threading.Event()

    def on_edge(edge: ButtonEdge) -> None:
        edges.append(edge)
        if not edge.pressed:
            released.set()

    source.start(on_edge)
    return edges, released


def test_a_press_and_release_driven_back_to_back_are_a_noise_spike_without_spacing() -> None:
    """Why the keys are spaced: the leading-edge debounce drops a press shorter than 1 ms."""
    with GpioButtonSource(PinMap.example("mock")) as source:
        edges, _ = collect(source)
        source.drive(1, True)
        source.drive(1, False)
        threading.Event().wait(0.1)
        assert edges == []
        assert "1 noise spike rejected" in source.health().detail


def test_a_press_and_release_arriving_together_still_press() -> None:
    with GpioButtonSource(PinMap.example("mock")) as source:
        edges, released = collect(source)
        keys = VirtualKeys(source.drive, source.pinmap.debounce)

        async def together() -> None:
            await asyncio.gather(keys.set(1, True), keys.set(1, False))

        run_own_loop(together())
        assert released.wait(2.0)
        assert [(e.seat, e.pressed) for e in edges] == [(1, True), (1, False)]
        assert edges[1].t_ns - edges[0].t_ns >= keys.spacing_ns
        assert keys.delayed == 1
        assert "noise spike" not in source.health().detail


def test_quick_taps_keep_their_order_and_each_counts() -> None:
    """Two taps whose four requests arrive at once: two presses, in order, none merged."""
    with GpioButtonSource(PinMap.example("mock")) as source:
        edges, _ = collect(source)
        keys = VirtualKeys(source.drive, source.pinmap.debounce)

        async def taps() -> None:
            await asyncio.gather(*(keys.set(3, level) for level in (True, False, True, False)))

        run_own_loop(taps())
        deadline = threading.Event()
        for _ in range(40):
            if len(edges) == 4:
                break
            deadline.wait(0.05)
        assert [e.pressed for e in edges] == [True, False, True, False]
        assert not keys.pressed(3)


def test_changes_at_a_human_pace_are_not_delayed_and_repeats_are_no_edge() -> None:
    now = [0]
    driven: list[tuple[int, bool, int]] = []
    debounce = DebounceSettings.from_ms(glitch_ms=1, quiet_ms=30)
    keys = VirtualKeys(lambda seat, p: driven.append((seat, p, now[0])), debounce, now_ns=lambda: now[0])

    async def play() -> None:
        await keys.set(2, True)
        await keys.set(2, True)  # a key's auto-repeat: no second edge
        now[0] += 50_000_000  # a 50 ms tap
        await keys.set(2, False)
        await keys.set(5, True)  # another seat is not held back by seat 2
        await keys.set(5, False)  # ...but its own release is (the clock does not move here)

    run_own_loop(play())
    assert driven[:3] == [(2, True, 0), (2, False, 50_000_000), (5, True, 50_000_000)]
    assert driven[3][:2] == (5, False)
    assert keys.delayed == 1


def test_the_spacing_covers_the_debounce() -> None:
    for glitch_ms, quiet_ms in [(1, 30), (0.5, 5), (20, 20), (50, 1000)]:
        settings = DebounceSettings.from_ms(glitch_ms, quiet_ms)
        spacing = edge_spacing_ns(settings)
        assert spacing > settings.glitch_ns and spacing > settings.quiet_ns
