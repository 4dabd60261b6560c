"""Choosing the pin factory: honest clocks, warnings, and the lgpio working-directory check.

lgpio and RPi.GPIO are not installed off a Pi; their gpiozero modules are replaced here by
stand-ins whose factory is a MockFactory, so what is tested is this project's choice and wording.
"""

from __future__ import annotations

import logging
import sys
import time
from types import ModuleType

import pytest
from gpiozero.pins.mock import MockFactory

from hardware import pin_factory
from hardware.pin_factory import PinFactoryError, StampedMockPin, open_factory


class StandInFactory(MockFactory):
    def __init__(self) -> None:
        super().__init__(pin_class=StampedMockPin)


def stand_in(monkeypatch: pytest.MonkeyPatch, module: str, cls_name: str) -> None:
    fake = ModuleType(module)
    setattr(fake, cls_name, StandInFactory)
    monkeypatch.setitem(sys.modules, module, fake)


def test_lgpio_is_the_kernel_clock_and_fit_for_close_calls(monkeypatch: pytest.MonkeyPatch) -> None:
    stand_in(monkeypatch, "gpiozero.pins.lgpio", "LGPIOFactory")
    opened = open_factory("lgpio")
    try:
        assert (opened.clock, opened.fit_for_close_calls) == ("lgpio", True)
        assert "kernel edge timestamps" in opened.detail
        assert not opened.is_mock  # virtual presses are refused on a real factory
    finally:
        opened.close()


def test_lgpio_refuses_a_read_only_working_directory(monkeypatch: pytest.MonkeyPatch) -> None:
    stand_in(monkeypatch, "gpiozero.pins.lgpio", "LGPIOFactory")
    monkeypatch.setattr(pin_factory.os, "access", lambda path, mode: False)
    with pytest.raises(PinFactoryError, match="WorkingDirectory="):
        open_factory("lgpio")


@pytest.mark.parametrize(
    ("name", "module", "cls"),
    [
        ("rpigpio", "gpiozero.pins.rpigpio", "RPiGPIOFactory"),
        ("native", "gpiozero.pins.native", "NativeFactory"),
    ],
)
def test_callback_factories_warn_that_they_are_not_fit(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, name: str, module: str, cls: str
) -> None:
    stand_in(monkeypatch, module, cls)
    with caplog.at_level(logging.WARNING, logger="hardware.pin_factory"):
        opened = open_factory(name)
    try:
        assert (opened.clock, opened.fit_for_close_calls) == ("callback", False)
        assert "NOT fit for close calls" in opened.detail
        assert "NOT fit for close calls" in caplog.text
    finally:
        opened.close()


def test_a_factory_that_fails_to_open_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    class Broken(MockFactory):
        def __init__(self) -> None:
            raise OSError("no /dev/gpiomem")

    fake = ModuleType("gpiozero.pins.native")
    fake.NativeFactory = Broken  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "gpiozero.pins.native", fake)
    with pytest.raises(PinFactoryError, match="cannot open the Broken pin factory here: no /dev/gpiomem"):
        open_factory("native")


def test_stamped_mock_pins_take_explicit_ticks_and_default_to_monotonic() -> None:
    factory = MockFactory(pin_class=StampedMockPin)
    try:
        pin = factory.pin(4)
        assert isinstance(pin, StampedMockPin)
        pin.function = "input"
        seen: list[tuple[float, bool]] = []

        def changed(ticks: float, state: bool) -> None:
            seen.append((ticks, state))

        pin.when_changed = changed  # pyright: ignore[reportAttributeAccessIssue]
        pin.drive_high(ticks=3.0)
        pin.drive_low(ticks=2.5)  # out of order on purpose: the pin does not judge
        before = time.monotonic()
        pin.drive_high()  # no ticks: stamped with time.monotonic(), as gpiozero's MockPin does
        assert seen[:2] == [(3.0, True), (2.5, False)]
        assert seen[2][1] is True and before <= seen[2][0] <= time.monotonic()
    finally:
        factory.close()
