"""Small SVG pictures shared by the display: every picture is a pure function of values."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

from hardware.seats import SEAT_COLOURS
from hardware.timing import format_ns

__all__ = ["SEAT_COLOURS", "bar_chart_svg", "timeline_svg"]


def bar_chart_svg(values: Mapping[str, int], unit: str) -> str:
    """Horizontal bars, one per name, for scores; the value is written inside the picture.
    ``unit`` is a plural in "s" ("points"): a value of 1 takes it without ("1 point")."""
    one = unit.removesuffix("s")
    rows = list(values.items())
    height = 40 * max(len(rows), 1) + 10
    top = max([v for _, v in rows] + [1])
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 {height}" role="img">']
    for i, (name, value) in enumerate(rows):
        y = 10 + 40 * i
        width = 300 * value / top
        colour = SEAT_COLOURS[i % len(SEAT_COLOURS)]
        parts.append(
            f'<text x="0" y="{y + 24}" fill="#eee" font-size="22">{escape(name)}</text>'
            f'<rect x="150" y="{y}" width="{width:.1f}" height="30" fill="{colour}"/>'
            f'<text x="{160 + width:.1f}" y="{y + 24}" fill="#eee" font-size="22">{value} {escape(one if value == 1 else unit)}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)


def timeline_svg(
    reaction_ns: Mapping[str, int],
    ranking: Sequence[Sequence[str]],
    margins_ns: Sequence[int],
    tie_window_ns: int,
    false_starts: Sequence[str] = (),
) -> str:
    """The presses of one contest: dots on a time axis from the call, then one row per press in
    order with its time and its margin over the entry before (ties share a rank)."""
    rows = [(rank, seat) for rank, entry in enumerate(ranking) for seat in entry if seat in reaction_ns]
    times = [reaction_ns[seat] for _, seat in rows]
    lo, hi = min([*times, 0]), max([*times, 1])
    left, right = 20, 580
    height = 62 + 30 * max(len(rows), 1) + 24 * len(false_starts)

    def x(t: int) -> float:
        return left + (right - left) * (t - lo) / max(hi - lo, 1)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 {height}" role="img" '
        'aria-label="press timeline">',
        f'<text x="{left}" y="14" fill="#aaa" font-size="13">call</text>',
        f'<text x="{right}" y="14" fill="#aaa" font-size="13" text-anchor="end">'
        f"tie window {format_ns(tie_window_ns)}</text>",
        f'<line x1="{left}" y1="30" x2="{right}" y2="30" stroke="#888" stroke-width="2"/>',
    ]
    for rank, seat in rows:
        colour = "#ffd700" if rank == 0 else "#9ab"
        parts.append(
            f'<circle cx="{x(reaction_ns[seat]):.1f}" cy="30" r="7" fill="{colour}"/>'
            f'<text x="{x(reaction_ns[seat]):.1f}" y="50" fill="{colour}" font-size="12" '
            f'text-anchor="middle">{rank + 1}</text>'
        )
    for i, (rank, seat) in enumerate(rows):
        y = 80 + 30 * i
        colour = "#ffd700" if rank == 0 else "#ccd"
        margin = ""
        if rank > 0 and (i == 0 or rows[i - 1][0] != rank) and rank - 1 < len(margins_ns):
            margin = f"+{format_ns(margins_ns[rank - 1])} after {escape(', '.join(ranking[rank - 1]))}"
        elif i > 0 and rows[i - 1][0] == rank:
            margin = "tied"
        parts.append(
            f'<text x="{left}" y="{y}" fill="{colour}" font-size="18">{rank + 1}. {escape(seat)} '
            f"+{format_ns(reaction_ns[seat])}</text>"
            f'<text x="{right}" y="{y}" fill="#aab" font-size="15" text-anchor="end">{margin}</text>'
        )
    y = 80 + 30 * len(rows)
    for seat in false_starts:
        parts.append(
            f'<text x="{left}" y="{y}" fill="#f55" font-size="16">{escape(seat)}: false start</text>'
        )
        y += 24
    parts.append("</svg>")
    return "".join(parts)
