"""Choosing gpiozero's pin factory, and saying honestly what its timestamps are worth.

==========  ===========  ==========================================================  =========
factory     clock        what ``ticks`` in ``pin.when_changed(ticks, state)`` is      close calls
==========  ===========  ==========================================================  =========
lgpio       ``lgpio``    the kernel's edge timestamp (CLOCK_MONOTONIC, hard IRQ)      fit
rpigpio     ``callback`` ``time.monotonic()`` when the Python callback ran            not fit
native      ``callback`` ``time.monotonic()`` when gpiozero's poll thread saw it      not fit
mock        ``mock``     the tick a test or the demo's virtual button gave            not fit
==========  ===========  ==========================================================  =========

All four count on CLOCK_MONOTONIC, so ``time.monotonic_ns()`` is "now" on every one of them.
RPi.GPIO is never a dependency of this project: it is imported only when a pin map asks for
it, with a logged warning (no edge timestamps; edge detection broken on Pi kernels ≥ 6.6; no
Pi 5).
"""

from __future__ import annotations

import logging
import os
import time
from dataclasses import dataclass

from gpiozero import Factory
from gpiozero.pins.mock import MockFactory, MockPWMPin, PinState

log = logging.getLogger(__name__)

NOT_FIT = (
    "timestamps are the time a Python callback ran, not the edge: NOT fit for close calls "
    "(use the lgpio pin factory)"
)


# The ButtonEdge clock each factory's ticks count on (see the table above).
CLOCK_OF_FACTORY = {"lgpio": "lgpio", "rpigpio": "callback", "native": "callback", "mock": "mock"}


class PinFactoryError(RuntimeError):
    """The pin factory a pin map asks for cannot be opened here; the message says why."""


@dataclass(frozen=True)
class OpenedFactory:
    """A gpiozero pin factory and the honest facts about its timestamps."""

    name: str  # "lgpio", "rpigpio", "native", "mock"
    factory: Factory
    clock: str  # the ButtonEdge clock: "lgpio", "callback" or "mock"
    fit_for_close_calls: bool
    detail: str  # for the display: "kernel edge timestamps", ...

    @property
    def is_mock(self) -> bool:
        """Virtual buttons may be driven: the mock factory, opened as such."""
        return self.name == "mock" and isinstance(self.factory, MockFactory)

    def close(self) -> None:
        self.factory.close()


class StampedMockPin(MockPWMPin):
    """A mock pin whose ``drive_low``/``drive_high`` accept the edge time (``ticks``, seconds).

    gpiozero's MockPin stamps each change with ``time.monotonic()`` when it is driven; a test
    of timing needs to say when the edge happened, including out of order across pins.
    PWM-capable, so LEDs, a Buzzer and a TonalBuzzer work on the same mock factory.

    >>> f = MockFactory(pin_class=StampedMockPin)
    >>> pin = f.pin(17); pin.function = "input"; pin.pull = "up"
    >>> seen = []; cb = lambda ticks, state: seen.append((ticks, state)); pin.when_changed = cb
    >>> pin.drive_low(ticks=12.5); seen
    [(12.5, False)]
    """

    _next_ticks: float | None = None

    def drive_low(self, ticks: float | None = None) -> None:
        self._next_ticks = ticks
        try:
            super().drive_low()
        finally:
            self._next_ticks = None

    def drive_high(self, ticks: float | None = None) -> None:
        self._next_ticks = ticks
        try:
            super().drive_high()
        finally:
            self._next_ticks = None

    def _change_state(self, value: float | bool) -> bool:
        if self._state == value:
            return False
        t = time.monotonic() if self._next_ticks is None else self._next_ticks
        self._state = value
        self.states.append(PinState(t - self._last_change, value))
        self._last_change = t
        return True


def open_factory(name: str) -> OpenedFactory:
    """Open the pin factory `name`; raises PinFactoryError with what to do next."""
    if name == "mock":
        return OpenedFactory(
            "mock",
            MockFactory(pin_class=StampedMockPin),
            "mock",
            False,
            "mock pins (demo or tests): virtual buttons, not real presses",
        )
    if name == "lgpio":
        return _open_lgpio()
    if name == "rpigpio":
        try:
            from gpiozero.pins.rpigpio import RPiGPIOFactory
        except ImportError:
            raise PinFactoryError(
                "pin factory 'rpigpio' needs RPi.GPIO, which this project does not install: its "
                'timestamps are not fit for judging. Use factory = "lgpio", or install RPi.GPIO '
                "yourself (pip install RPi.GPIO) if you accept that."
            ) from None
        log.warning("GPIO pin factory rpigpio: %s; RPi.GPIO has no Pi 5 support", NOT_FIT)
        return OpenedFactory("rpigpio", _make(RPiGPIOFactory), "callback", False, f"RPi.GPIO: {NOT_FIT}")
    if name == "native":
        from gpiozero.pins.native import NativeFactory

        log.warning("GPIO pin factory native: %s", NOT_FIT)
        return OpenedFactory("native", _make(NativeFactory), "callback", False, f"native: {NOT_FIT}")
    raise PinFactoryError(f"unknown pin factory {name!r}; choose lgpio, rpigpio, native or mock")


def _open_lgpio() -> OpenedFactory:
    try:
        from gpiozero.pins.lgpio import LGPIOFactory
    except ImportError:
        raise PinFactoryError(
            "pin factory 'lgpio' needs the lgpio module: on the Pi, `sudo apt install python3-lgpio` "
            "or `pip install 'table-referee[pi]'`. Off a Pi, use factory = \"mock\" for the demo."
        ) from None
    # lgpio creates its notification FIFO (.lgd-nfy*) in the current directory and fails
    # obscurely where it cannot (gpiozero#1106): say so before it happens.
    cwd = os.getcwd()
    if not os.access(cwd, os.W_OK):
        raise PinFactoryError(
            f"lgpio needs a writable working directory for its notification pipe, and {cwd} is not "
            "writable; set WorkingDirectory= in the systemd unit (see docs/wiring.md)"
        )
    return OpenedFactory("lgpio", _make(LGPIOFactory), "lgpio", True, "kernel edge timestamps (lgpio)")


def _make(cls: type[Factory]) -> Factory:
    try:
        return cls()
    except Exception as exc:  # gpiozero raises many kinds (BadPinFactory, OSError, ...)
        raise PinFactoryError(f"cannot open the {cls.__name__} pin factory here: {exc}") from exc
