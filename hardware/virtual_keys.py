"""Virtual seat keys (the display's buttons on mocked GPIO): every press the page sends counts.

The page sends a key's press and its release as two requests. When the server lags, both
can arrive together and reach the mock pin microseconds apart; the leading-edge debounce then
rightly drops them as a noise spike (`hardware.debounce`: a press must hold the glitch time),
and a player's press is lost. A virtual key has no noise, so here each level change of a seat
is applied at least `spacing_ns` after that seat's previous one: a press holds past the glitch
time, and a release stays quiet long enough for the next press to be a new one. When the
requests arrive at a human pace (a tap lasts 50 ms or more) nothing is delayed.

>>> edge_spacing_ns(DebounceSettings.from_ms(glitch_ms=1, quiet_ms=30))
32000000
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

from hardware.debounce import DebounceSettings

log = logging.getLogger(__name__)


def edge_spacing_ns(debounce: DebounceSettings) -> int:
    """The least time between two level changes of one virtual key that both take effect.

    A release must stay quiet for the quiet time before a new press can start, and a press must
    hold for the glitch time; one glitch time more covers the confirmer's own timing.
    """
    return debounce.quiet_ns + 2 * debounce.glitch_ns


class VirtualKeys:
    """Applies virtual key changes to a source's `drive(seat, pressed)`, in order, spaced per seat.

    `set` is a coroutine: a change that comes too soon after the seat's last one waits (without
    blocking the event loop) until it can take effect. Changes of one seat keep their order.
    """

    def __init__(
        self,
        drive: Callable[[int, bool], None],
        debounce: DebounceSettings,
        now_ns: Callable[[], int] = time.monotonic_ns,
    ) -> None:
        self._drive = drive
        self.spacing_ns = edge_spacing_ns(debounce)
        self._now = now_ns
        self._locks: dict[int, asyncio.Lock] = {}
        self._pressed: dict[int, bool] = {}
        self._last_ns: dict[int, int] = {}
        self.delayed = 0  # changes that had to wait: the server was lagging or the taps too fast

    def pressed(self, seat: int) -> bool:
        return self._pressed.get(seat, False)

    async def set(self, seat: int, pressed: bool) -> None:
        """Press or release `seat`; returns once the change has reached the pin."""
        lock = self._locks.setdefault(seat, asyncio.Lock())
        async with lock:
            if self._pressed.get(seat, False) == pressed:
                return  # a repeated key-down, or a release of a key that is up: no edge
            last = self._last_ns.get(seat)
            if last is not None:
                wait_ns = last + self.spacing_ns - self._now()
                if wait_ns > 0:
                    self.delayed += 1
                    log.info(
                        "virtual seat %d: %s held back %.1f ms so the debounce sees it (server lag or quick taps)",
                        seat,
                        "press" if pressed else "release",
                        wait_ns / 1e6,
                    )
                    await asyncio.sleep(wait_ns / 1e9)
            self._drive(seat, pressed)
            self._pressed[seat] = pressed
            self._last_ns[seat] = self._now()
