"""GpioButtonSource as a ButtonSource: clocks, health, settling, threads, virtual buttons, pins."""

from __future__ import annotations

import doctest
import importlib
import threading
import time
from collections.abc import Iterator

import pytest
from gpiozero import LED

from hardware.gpio_buttons import GpioButtonSource
from hardware.pin_factory import PinFactoryError, open_factory
from hardware.pinmap import PinMap
from hardware.source import ButtonEdge, ButtonSource
from referee.arbitration import TIE_WINDOW_NS
from tests.gpio_table import MS, US, Table, mock_as


@pytest.fixture
def table() -> Iterator[Table]:
    t = Table()
    yield t
    t.close()


def test_it_is_a_button_source_with_the_lgpio_window(table: Table) -> None:
    source: ButtonSource = table.source  # type-checked against the protocol
    assert source.clock == "lgpio" and source.tie_window_ns == TIE_WINDOW_NS["lgpio"] == 100 * US
    assert source.seats == tuple(range(1, 9))
    health = source.health()
    assert health.ok and health.fit_for_close_calls and health.name == "GPIO (lgpio)"


def test_edges_carry_the_seat_the_level_and_the_source_clock(table: Table) -> None:
    table.press(2, 5 * MS)
    table.settle(7 * MS)
    table.release(2, 90 * MS)
    table.settle(200 * MS)
    assert table.edges == [ButtonEdge(2, True, 5 * MS, "lgpio"), ButtonEdge(2, False, 90 * MS, "lgpio")]


def test_a_pin_map_can_widen_or_narrow_the_window() -> None:
    text = "[[seat]]\nbutton = 4\n[timing]\ntie_window_us = 250\n"
    t = Table(pinmap=PinMap.from_toml(text))
    try:
        assert t.source.tie_window_ns == 250 * US
    finally:
        t.close()


def test_the_callback_clock_is_flagged_not_fit_for_close_calls() -> None:
    t = Table(clock="callback")
    try:
        assert t.source.clock == "callback" and t.source.tie_window_ns == 2 * MS
        assert not t.source.health().fit_for_close_calls
    finally:
        t.close()


def test_the_mock_factory_names_its_clock_mock_and_is_not_fit() -> None:
    with GpioButtonSource(PinMap.example("mock"), auto_confirm=False) as source:
        assert source.clock == "mock" and source.tie_window_ns == TIE_WINDOW_NS["mock"]
        health = source.health()
        assert not health.fit_for_close_calls and "virtual buttons" in health.detail


def test_call_sounds_the_buzzer_and_returns_now_on_the_source_clock(table: Table) -> None:
    table.now.t_ns = 2_345 * MS
    assert table.source.call() == 2_345 * MS
    assert table.source.feedback is not None and table.source.feedback.sounding


def test_when_settled_waits_for_the_settle_slack_and_undecided_presses(table: Table) -> None:
    fired: list[int] = []
    t = 100 * MS
    table.press(1, t)
    table.press(2, t + 50 * US)  # inside the 100 µs window
    table.settle(t + 500 * US)
    window_end = t + 100 * US
    table.source.when_settled(window_end, lambda: fired.append(table.now.t_ns))
    table.release(2, t + 600 * US)  # seat 2 bounces …
    table.press(2, t + 700 * US)  # … and holds from 700 µs: decided at 1.7 ms, + 1 ms of slack
    table.settle(window_end + MS)  # the slack after the window is over; both undecided
    assert fired == [] and table.source.pending() == {1: t, 2: t + 50 * US}
    table.settle(t + 2 * MS)  # seat 1 held 1 ms, decided with 1 ms of slack
    assert [e.seat for e in table.edges] == [1] and table.source.pending() == {2: t + 50 * US}
    table.settle(t + 2_700 * US - 1)
    assert fired == []
    table.settle(t + 2_700 * US)
    assert fired == [t + 2_700 * US]
    assert [(e.seat, e.t_ns) for e in table.edges] == [(1, t), (2, t + 50 * US)]


def test_an_edge_delivered_later_than_the_slack_is_counted_in_health(table: Table) -> None:
    table.settle(500 * MS)
    table.press(3, 100 * MS)  # reached us 400 ms after the kernel stamped it
    assert "1 edge(s) arrived after the settle slack" in table.source.health().detail


def test_when_settled_fires_at_once_when_already_settled(table: Table) -> None:
    table.settle(10 * MS)
    fired: list[bool] = []
    table.source.when_settled(5 * MS, lambda: fired.append(True))
    assert fired == [True]


def test_watchdog_reports_are_not_edges(table: Table) -> None:
    button = table.source._buttons[3]
    button._pin_changed(0.5, 2)  # lgpio's level 2: a watchdog timeout, no edge
    table.settle(1_000 * MS)
    assert table.edges == [] and table.source.pending() == {}


def test_the_confirmer_thread_confirms_without_further_edges() -> None:
    """Real time: a virtual press is reported about a glitch time later, the LED lights."""
    got = threading.Event()
    edges: list[ButtonEdge] = []
    with GpioButtonSource(PinMap.example("mock")) as source:

        def on_edge(edge: ButtonEdge) -> None:
            edges.append(edge)
            assert source.feedback is not None
            source.feedback.light(edge.seat)
            got.set()

        source.start(on_edge)
        t0 = time.monotonic_ns()
        source.drive(4, True)
        assert got.wait(2.0)
        assert edges[0].seat == 4 and edges[0].clock == "mock"
        assert t0 <= edges[0].t_ns <= time.monotonic_ns()  # mock ticks are time.monotonic()
        assert source.feedback is not None and source.feedback.lit(4)
        assert source.held() == {4}


def test_drive_presses_virtual_buttons_with_explicit_ticks() -> None:
    now = [0]
    with GpioButtonSource(PinMap.example("mock"), auto_confirm=False, now_ns=lambda: now[0]) as source:
        edges: list[ButtonEdge] = []
        source.start(edges.append)
        source.drive(6, True, ticks=1.25)
        source.poll(1_252_000_000)  # held 1 ms, plus 1 ms of settle slack
        assert edges == [ButtonEdge(6, True, 1_250_000_000, "mock")]
        assert source.raw_pressed(6)
        source.drive(6, False, ticks=1.5)
        assert not source.raw_pressed(6)
        with pytest.raises(KeyError, match="seat 9 is not wired"):
            source.drive(9, True)


def test_drive_refuses_a_real_pin_factory() -> None:
    t = Table(clock="lgpio")  # mock pins standing in for lgpio: drive() must not pretend
    try:
        with pytest.raises(RuntimeError, match="needs the mock pin factory; this source runs on lgpio"):
            t.source.drive(1, True)
    finally:
        t.close()


def test_active_high_buttons_with_pull_downs() -> None:
    pm = PinMap.from_toml("factory = 'mock'\npull_up = false\n[[seat]]\nbutton = 4\n")
    with GpioButtonSource(pm, auto_confirm=False, now_ns=lambda: 0) as source:
        edges: list[ButtonEdge] = []
        source.start(edges.append)
        source.drive(1, True, ticks=0.001)
        source.poll(3_000_000)  # held 1 ms, plus 1 ms of settle slack
        assert edges == [ButtonEdge(1, True, 1_000_000, "mock")]
        assert source.raw_pressed(1)


def test_the_caller_button_arms_through_its_callback() -> None:
    armed: list[bool] = []
    pm = PinMap.from_toml("factory = 'mock'\n[[seat]]\nbutton = 4\n[caller]\nbutton = 26\n")
    opened = open_factory("mock")
    try:
        source = GpioButtonSource(pm, opened=opened, on_caller=lambda: armed.append(True))
        source.start(lambda edge: None)
        opened.factory.pin(26).drive_low()
        opened.factory.pin(26).drive_high()
        assert armed == [True]
        source.stop()
    finally:
        opened.close()


def test_stop_releases_every_pin_and_cannot_restart() -> None:
    pm = PinMap.example()
    opened = mock_as("lgpio")
    source = GpioButtonSource(pm, opened=opened, auto_confirm=True)
    source.start(lambda edge: None)
    source.stop()
    source.stop()  # twice is harmless
    assert not source.health().ok and source.health().detail.startswith("stopped")
    with pytest.raises(RuntimeError, match="open a new one"):
        source.start(lambda edge: None)
    with pytest.raises(RuntimeError, match="needs the mock pin factory"):
        source.drive(1, True)
    for gpio, _ in pm.uses():  # every pin is free again
        LED(gpio, pin_factory=opened.factory).close()
    opened.close()


def test_edges_before_start_are_not_reported_but_the_seat_is_held() -> None:
    opened = mock_as("lgpio")
    now = [0]
    source = GpioButtonSource(PinMap.example(), opened=opened, auto_confirm=False, now_ns=lambda: now[0])
    try:
        opened.factory.pin(4).drive_low(ticks=0.5)
        now[0] = 10**9
        assert source.held() == {1}
        edges: list[ButtonEdge] = []
        source.start(edges.append)
        assert edges == []
    finally:
        source.stop()
        opened.close()


def test_a_missing_pin_factory_is_a_clear_error() -> None:
    for name, message in (("lgpio", "needs the lgpio module"), ("rpigpio", "does not install")):
        try:
            importlib.import_module({"lgpio": "lgpio", "rpigpio": "RPi.GPIO"}[name])
        except ImportError:
            with pytest.raises(PinFactoryError, match=message):
                open_factory(name)
    with pytest.raises(PinFactoryError, match="unknown pin factory"):
        open_factory("pigpio")


def test_a_source_that_cannot_open_leaves_no_pin_claimed() -> None:
    opened = mock_as("lgpio")
    other = LED(17, pin_factory=opened.factory)  # someone else holds seat 2's pin
    with pytest.raises(Exception, match="GPIO17"):
        GpioButtonSource(PinMap.example(), opened=opened)
    LED(4, pin_factory=opened.factory).close()  # seat 1's pin was given back
    other.close()
    opened.close()


@pytest.mark.parametrize(
    "module",
    [
        "hardware.debounce",
        "hardware.pinmap",
        "hardware.pin_factory",
        "hardware.feedback",
        "hardware.gpio_buttons",
    ],
)
def test_the_docstring_examples_hold(module: str) -> None:
    result = doctest.testmod(importlib.import_module(module))
    assert result.failed == 0 and result.attempted > 0
