"""The night's pictures, drawn by the project as SVG (pure functions of values).

- `reaction_svg`: per player, every press time after the call as a dot, the middle half as a
  box and the median as a bar — who is quick, who is steady;
- `tally_svg`: per player, close calls won and lost, ties and false starts as bars.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from html import escape

from referee.pictures import SEAT_COLOURS

NICE_STEPS_MS = (10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10_000)
TEXT = "#eef1f5"
DIM = "#9aa4b2"
GRID = "#2f3542"


def axis_step_ms(span_ms: float, max_ticks: int = 8) -> int:
    """The smallest nice tick step that puts at most `max_ticks` ticks on the axis.

    >>> axis_step_ms(700), axis_step_ms(3000)
    (100, 500)
    """
    for step in NICE_STEPS_MS:
        if span_ms / step <= max_ticks:
            return step
    return NICE_STEPS_MS[-1]


def axis_max_ms(values_ns: Sequence[int]) -> float:
    """The axis end: past every press, but a single press after 20 s does not squash the rest."""
    if not values_ns:
        return 500.0
    ordered = sorted(values_ns)
    top = ordered[-1] / 1e6
    if len(ordered) >= 10:
        top = min(top, 2 * ordered[int(0.9 * (len(ordered) - 1))] / 1e6)
    step = axis_step_ms(max(top, 100.0))
    return step * (int(max(top, 100.0) // step) + 1)


def reaction_svg(reactions: Mapping[str, Sequence[int]], width: int = 800) -> str:
    """Press times after the call (ns) per player, as dots, a quartile box and the median."""
    names = list(reactions)
    everything = [t for name in names for t in reactions[name]]
    top_ms = axis_max_ms(everything)
    left, right, row = 150, width - 90, 46
    height = 40 + row * max(len(names), 1)

    def x(ns: float) -> float:
        return left + (right - left) * min(ns / 1e6, top_ms) / top_ms

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" '
        'aria-label="reaction times after the call, per player">'
    ]
    step = axis_step_ms(top_ms)
    tick = 0
    while tick <= top_ms + 1e-9:
        tx = x(tick * 1e6)
        parts.append(
            f'<line x1="{tx:.1f}" y1="22" x2="{tx:.1f}" y2="{height - 4}" stroke="{GRID}"/>'
            f'<text x="{tx:.1f}" y="16" fill="{DIM}" font-size="13" text-anchor="middle">{tick} ms</text>'
        )
        tick += step
    if not names:
        parts.append(f'<text x="{left}" y="{height - 12}" fill="{DIM}" font-size="16">no presses yet</text>')
    for i, name in enumerate(names):
        values = sorted(reactions[name])
        mid = 30 + row * i + row / 2
        colour = SEAT_COLOURS[i % len(SEAT_COLOURS)]
        parts.append(
            f'<text x="8" y="{mid + 6:.1f}" fill="{TEXT}" font-size="18" data-player="{escape(name)}">'
            f"{escape(name[:14])}</text>"
        )
        if not values:
            parts.append(
                f'<text x="{left}" y="{mid + 5:.1f}" fill="{DIM}" font-size="14">no valid press</text>'
            )
            continue
        if len(values) >= 2:
            q = statistics.quantiles(values, n=4, method="inclusive")
            parts.append(
                f'<rect x="{x(q[0]):.1f}" y="{mid - 12:.1f}" width="{max(x(q[2]) - x(q[0]), 1):.1f}" '
                f'height="24" fill="{colour}" fill-opacity="0.25" stroke="{colour}"/>'
            )
        for j, t in enumerate(values):
            jitter = ((j * 0.618034) % 1.0 - 0.5) * 18  # spread equal times apart, the same every time
            over = t / 1e6 > top_ms
            parts.append(
                f'<circle cx="{x(t):.1f}" cy="{mid + jitter:.1f}" r="{5 if over else 4}" '
                f'fill="{"none" if over else colour}" stroke="{colour}" class="press"/>'
            )
        median = statistics.median(values)
        parts.append(
            f'<line x1="{x(median):.1f}" y1="{mid - 16:.1f}" x2="{x(median):.1f}" y2="{mid + 16:.1f}" '
            f'stroke="{TEXT}" stroke-width="3"/>'
            f'<text x="{right + 8}" y="{mid + 5:.1f}" fill="{TEXT}" font-size="14">'
            f"{median / 1e6:.0f} ms</text>"
        )
    parts.append("</svg>")
    return "".join(parts)


def tally_svg(rows: Sequence[tuple[str, int, int, int, int]], width: int = 800) -> str:
    """Per player (name, close wins, close losses, ties, false starts) as four bars."""
    kinds = (("close calls won", "#5fd38d"), ("close calls lost", "#6cb4ff"), ("ties", "#ffd34d"),
             ("false starts", "#ff6b6b"))  # fmt: skip
    left, right = 150, width - 20
    group = 4 * 12 + 14
    height = 50 + group * max(len(rows), 1)
    top = max([max(r[1:]) for r in rows] + [1])
    unit = (right - left - 40) / top
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" '
        'aria-label="close calls and false starts, per player">'
    ]
    for k, (label, colour) in enumerate(kinds):
        lx = left + k * 150
        parts.append(
            f'<rect x="{lx}" y="6" width="14" height="14" fill="{colour}"/>'
            f'<text x="{lx + 20}" y="18" fill="{DIM}" font-size="13">{label}</text>'
        )
    for i, (name, *counts) in enumerate(rows):
        y0 = 36 + group * i
        parts.append(f'<text x="8" y="{y0 + 30}" fill="{TEXT}" font-size="18">{escape(name[:14])}</text>')
        for k, ((_, colour), value) in enumerate(zip(kinds, counts, strict=True)):
            y = y0 + 4 + 12 * k
            parts.append(
                f'<rect x="{left}" y="{y}" width="{value * unit:.1f}" height="10" fill="{colour}"/>'
                f'<text x="{left + value * unit + 6:.1f}" y="{y + 10}" fill="{DIM}" font-size="12">{value}</text>'
            )
    parts.append("</svg>")
    return "".join(parts)
