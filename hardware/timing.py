"""Timing facts of the input paths, shared by the hardware and the referee's arbitration.

The default tie window of each path is sized by that path's timing error (docs/timing.md):
presses closer than it cannot be ordered honestly on that path.
"""

from __future__ import annotations

from collections.abc import Mapping

TIE_WINDOW_NS: Mapping[str, int] = {
    "lgpio": 100_000,  # kernel edge stamps; lower GPIO wins exact coincidences (bank scan order)
    "rp2040": 10_000,  # one MCU samples every seat in the same read at 1 µs resolution
    "callback": 2_000_000,  # rpigpio/native: the time a Python callback ran, not the edge
    "mock": 1_000_000,  # virtual buttons on a laptop: stamped when the click is handled
}


def format_ns(ns: int) -> str:
    """A duration for people: 37.2 ms, 85 µs, 1.50 s.

    >>> format_ns(37_200_000), format_ns(85_000), format_ns(1_500_000_000), format_ns(400)
    ('37.2 ms', '85 µs', '1.50 s', '400 ns')
    """
    if ns >= 1_000_000_000:
        return f"{ns / 1e9:.2f} s"
    if ns >= 1_000_000:
        return f"{ns / 1e6:.1f} ms"
    if ns >= 1_000:
        return f"{ns / 1e3:.0f} µs"
    return f"{ns} ns"
