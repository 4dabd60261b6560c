"""Seat LEDs and the buzzer on gpiozero's MockFactory: what the table sees and hears."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pytest
from gpiozero import LED
from gpiozero.pins.mock import MockFactory

from hardware.feedback import CALL_TUNE, TIE_TUNE, Feedback, Note
from hardware.pin_factory import open_factory

LEDS = {1: 23, 2: 24, 3: 25, 4: 12}
BUZZER = 18
SCALE = 0.1  # tunes and blinks ten times faster than at the table


def wait_until(cond: Callable[[], bool], timeout: float = 3.0) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if cond():
            return True
        time.sleep(0.002)
    return cond()


@pytest.fixture
def factory() -> Iterator[MockFactory]:
    opened = open_factory("mock")
    assert isinstance(opened.factory, MockFactory)
    yield opened.factory
    opened.close()


@pytest.fixture
def fb(factory: MockFactory) -> Iterator[Feedback]:
    feedback = Feedback(factory, LEDS, BUZZER, time_scale=SCALE)
    yield feedback
    feedback.close()


def pin_levels(factory: MockFactory, gpio: int) -> list[bool]:
    """The levels a pin went through, repeats merged."""
    out: list[bool] = []
    for state in factory.pin(gpio).states:
        level = bool(state.state)
        if not out or out[-1] != level:
            out.append(level)
    return out


def test_the_winner_lights_and_the_others_go_dark(fb: Feedback) -> None:
    fb.light(3)
    fb.show_verdict(winners=[2])
    assert [fb.lit(s) for s in LEDS] == [False, True, False, False]
    assert fb.pattern(2) == "on" and fb.pattern(3) == "off"
    assert not fb.sounding  # a clear winner is silent


def test_a_tie_lights_every_tied_seat_and_plays_two_beeps(fb: Feedback, factory: MockFactory) -> None:
    fb.show_verdict(winners=[1, 4])
    assert [fb.lit(s) for s in LEDS] == [True, False, False, True]
    assert fb.sounding
    assert wait_until(lambda: pin_levels(factory, BUZZER) == [False, True, False, True, False])


def test_a_false_start_blinks_while_the_others_show_the_verdict(fb: Feedback, factory: MockFactory) -> None:
    fb.show_verdict(winners=[2], false_starts=[3])
    assert fb.pattern(3) == "blink"
    assert fb.lit(2)
    assert wait_until(lambda: pin_levels(factory, LEDS[3]).count(True) >= 3)  # it keeps blinking


def test_the_false_start_signal_blinks_and_buzzes(fb: Feedback) -> None:
    fb.show_false_start(1)
    assert fb.pattern(1) == "blink" and fb.sounding
    assert wait_until(lambda: not fb.sounding)


def test_the_call_sounds_before_it_returns_and_flashes_every_led(fb: Feedback) -> None:
    fb.show_call()
    assert fb.sounding
    assert wait_until(lambda: all(fb.lit(s) for s in LEDS), 1.0)
    assert wait_until(lambda: not fb.sounding and not any(fb.lit(s) for s in LEDS))


def test_clear_silences_and_darkens_everything(fb: Feedback) -> None:
    fb.show_verdict(winners=[1, 2], false_starts=[3])
    fb.clear()
    assert not fb.sounding and not any(fb.lit(s) for s in LEDS)
    assert {fb.pattern(s) for s in LEDS} == {"off"}
    time.sleep(0.05)
    assert not fb.sounding and not any(fb.lit(s) for s in LEDS)  # no tune or blink thread came back


def test_a_new_tune_replaces_the_one_playing(fb: Feedback, factory: MockFactory) -> None:
    fb.play((Note(880.0, 5.0),))  # would last 0.5 s
    fb.play(CALL_TUNE)
    assert wait_until(lambda: not fb.sounding, 0.2)  # the call tune's 30 ms, not the long note


def test_a_passive_piezo_plays_the_tunes_pitches(factory: MockFactory) -> None:
    fb = Feedback(factory, {}, BUZZER, tonal=True, time_scale=SCALE)
    try:
        pin = factory.pin(BUZZER)
        fb.play(TIE_TUNE)
        assert pin.frequency == pytest.approx(880.0)
        assert fb.sounding
        assert wait_until(lambda: not fb.sounding)
        assert pin.frequency is None
        fb.play((Note(20_000.0, 0.1),))  # out of the piezo's range: clamped, never an error
        assert pin.frequency == pytest.approx(1760.0)
    finally:
        fb.close()


def test_seats_without_an_led_and_no_buzzer_are_harmless(factory: MockFactory) -> None:
    fb = Feedback(factory, {1: 23})
    try:
        fb.show_verdict(winners=[5, 6], false_starts=[7])
        fb.show_call()
        assert fb.seats == (1,) and not fb.sounding and fb.pattern(5) == "off"
    finally:
        fb.close()


def test_close_releases_the_pins(factory: MockFactory) -> None:
    fb = Feedback(factory, LEDS, BUZZER)
    fb.close()
    led = LED(LEDS[1], pin_factory=factory)  # the pin is free again
    led.close()
