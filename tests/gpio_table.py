"""A test table: the example pin map on gpiozero's MockFactory, edges driven with explicit ticks.

Pins are driven the way the hardware drives them (the pin's own ``drive_low``/``drive_high``
with the edge time), through `GpioButtonSource`, into `referee.arbitration.arbitrate`.
"""

from __future__ import annotations

from collections.abc import Iterable

from gpiozero.pins.mock import MockFactory

from hardware.gpio_buttons import GpioButtonSource
from hardware.pin_factory import OpenedFactory, StampedMockPin
from hardware.pinmap import PinMap
from hardware.source import ButtonEdge
from referee.arbitration import Contest, Press, PressVerdict, Release, arbitrate

MS = 1_000_000
US = 1_000


class FakeClock:
    """The source's "now", moved by the test."""

    def __init__(self, t_ns: int = 0) -> None:
        self.t_ns = t_ns

    def __call__(self) -> int:
        return self.t_ns


def mock_as(clock: str) -> OpenedFactory:
    """Mock pins labelled with another path's clock (to test its tie window and health)."""
    fit = clock == "lgpio"
    name = {"lgpio": "lgpio", "callback": "native", "mock": "mock"}[clock]
    return OpenedFactory(name, MockFactory(pin_class=StampedMockPin), clock, fit, f"mock pins as {name}")


class Table:
    """Eight seats (the example pin map) with explicit edge times in nanoseconds."""

    def __init__(self, clock: str = "lgpio", pinmap: PinMap | None = None) -> None:
        self.opened = mock_as(clock)
        self.pinmap = pinmap or PinMap.example()
        self.now = FakeClock(0)
        self.source = GpioButtonSource(self.pinmap, opened=self.opened, auto_confirm=False, now_ns=self.now)
        self.edges: list[ButtonEdge] = []
        self.source.start(self.edges.append)

    def pin(self, seat: int) -> StampedMockPin:
        pin = self.opened.factory.pin(self.pinmap.seat(seat).button)
        assert isinstance(pin, StampedMockPin)
        return pin

    def press(self, seat: int, t_ns: int) -> None:
        self.pin(seat).drive_low(ticks=t_ns / 1e9)  # buttons pull up: pressed is low

    def release(self, seat: int, t_ns: int) -> None:
        self.pin(seat).drive_high(ticks=t_ns / 1e9)

    def tap(self, seat: int, t_ns: int, hold_ns: int = 80 * MS) -> None:
        self.press(seat, t_ns)
        self.release(seat, t_ns + hold_ns)

    def settle(self, t_ns: int) -> None:
        """Let time run to `t_ns`: every decision due by then is taken."""
        self.now.t_ns = max(self.now.t_ns, t_ns)
        self.source.poll(t_ns)

    def arm(self, t_ns: int) -> frozenset[int]:
        """Arm a contest at `t_ns`: the seats held down now are flagged."""
        self.settle(t_ns)
        return self.source.held()

    def call(self, t_ns: int) -> int:
        self.settle(t_ns)
        return self.source.call()

    def verdict(
        self,
        call_t_ns: int,
        held: Iterable[int] = (),
        seats: Iterable[int] | None = None,
        window_ns: int | None = None,
    ) -> PressVerdict:
        """Arbitrate every edge reported so far, for a call at `call_t_ns`."""
        names = tuple(str(s) for s in (seats or self.source.seats))
        contest = Contest(
            arm_t_ns=call_t_ns,
            seats=names,
            tie_window_ns=self.source.tie_window_ns if window_ns is None else window_ns,
            clock=self.source.clock,
            held_at_arm=frozenset(str(s) for s in held),
        )
        presses = [Press(str(e.seat), e.t_ns) for e in self.edges if e.pressed]
        releases = [Release(str(e.seat), e.t_ns) for e in self.edges if not e.pressed]
        return arbitrate(contest, presses, releases)

    def presses(self) -> list[tuple[int, int]]:
        return [(e.seat, e.t_ns) for e in self.edges if e.pressed]

    def close(self) -> None:
        self.source.stop()
        self.opened.close()
