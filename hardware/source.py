"""The seam between button hardware and the referee: edges on one named clock.

Every button input path (the Pi's GPIO through gpiozero, the RP2040 over USB serial, the
virtual buttons of the demo) is a `ButtonSource`. It reports confirmed, debounced edges
stamped at their *first* transition, as integer nanoseconds on the source's own clock, and it
makes the referee's call on that same clock, so a verdict never mixes clocks.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class ButtonEdge:
    """A confirmed press (pressed=True) or release of seat `seat` (1-based) at `t_ns` on `clock`."""

    seat: int
    pressed: bool
    t_ns: int
    clock: str  # "lgpio", "callback", "mock", "rp2040:<boot id>"


@dataclass(frozen=True)
class SourceHealth:
    """What the display shows about an input path."""

    name: str  # "GPIO (lgpio)", "RP2040 on /dev/referee-pico"
    ok: bool
    detail: str  # "kernel edge timestamps", "link lost, reconnecting", ...
    fit_for_close_calls: bool  # False when stamps are callback times, not edge times


EdgeHandler = Callable[[ButtonEdge], None]


class ButtonSource(Protocol):
    """An input path. `on_edge` may be called from any thread; the daemon marshals it."""

    @property
    def clock(self) -> str:
        """The name of the clock of its stamps: "lgpio", "callback", "mock", "rp2040:<boot id>"."""
        ...

    tie_window_ns: int  # the default tie window for this path's timing error
    seats: tuple[int, ...]  # the seat numbers wired

    def start(self, on_edge: EdgeHandler) -> None: ...

    def stop(self) -> None: ...

    def now_ns(self) -> int:
        """The current time on this source's clock (for timeouts and display)."""
        ...

    def held(self) -> frozenset[int]:
        """Seats whose button is down right now (flagged at arm time: they cannot win)."""
        ...

    def call(self) -> int:
        """Make the referee's call now (beep, LED) and return its time on this clock."""
        ...

    def health(self) -> SourceHealth: ...
