"""Small SVG pictures shared by the display: every picture is a pure function of values."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

from hardware.seats import SEAT_COLOURS
from hardware.timing import format_ns

__all__ = ["SEAT_COLOURS", "bar_chart_svg", "timeline_svg"]


def bar_chart_svg(values: Mapping[str, int], unit: str) -> str:
    """Horizontal bars, one per name, for scores."""
    rows = list(values.items())
    height = 40 * max(len(rows), 1) + 10
    top = max([v for _, v in rows] + [1])
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 600 {height}" role="img">']
    for i, (name, value) in enumerate(rows):
        y = 10 + 40 * i
        width = 400 * value / top
        colour = SEAT_COLOURS[i % len(SEAT_COLOURS)]
        parts.append(
            f'<text x="0" y="{y + 24}" fill="#eee" font-size="22">{escape(name)}</text>'
            f'<rect x="150" y="{y}" width="{width:.1f}" height="30" fill="{colour}"/>'
            f'<text x="{160 + width:.1f}" y="{y + 24}" fill="#eee" font-size="22">{value} {escape(unit)}</text>'
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
    """The presses of one contest on a time axis from the call, with the margins between them."""
    seats = [s for entry in ranking for s in entry]
    times = [reaction_ns[s] for s in seats if s in reaction_ns]
    span = max([*times, 1])
    lo = min([*times, 0])
    width, left, right = 600, 20, 580
    height = 60 + 34 * max(len(seats), 1) + 20 * len(false_starts)

    def x(t: int) -> float:
        return left + (right - left) * (t - lo) / max(span - lo, 1)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" '
        'aria-label="press timeline">',
        f'<line x1="{left}" y1="30" x2="{right}" y2="30" stroke="#888" stroke-width="2"/>',
    ]
    for rank, entry in enumerate(ranking):
        for seat in entry:
            t = reaction_ns.get(seat)
            if t is None:
                continue
            y = 60 + 34 * seats.index(seat)
            colour = "#ffd700" if rank == 0 else "#9ab"
            parts.append(
                f'<line x1="{x(t):.1f}" y1="30" x2="{x(t):.1f}" y2="{y - 8}" stroke="{colour}"/>'
                f'<circle cx="{x(t):.1f}" cy="30" r="6" fill="{colour}"/>'
                f'<text x="{min(x(t), right - 200):.1f}" y="{y}" fill="{colour}" font-size="18">'
                f"{escape(seat)} +{format_ns(t)}</text>"
            )
    for i, margin in enumerate(margins_ns):
        parts.append(
            f'<text x="{right}" y="{20 + 34 * (i + 1)}" fill="#ccc" font-size="14" text-anchor="end">'
            f"margin {format_ns(margin)}</text>"
        )
    y = 60 + 34 * len(seats)
    for seat in false_starts:
        parts.append(
            f'<text x="{left}" y="{y}" fill="#f55" font-size="16">{escape(seat)}: false start</text>'
        )
        y += 20
    parts.append(
        f'<text x="{left}" y="16" fill="#aaa" font-size="13">tie window {format_ns(tie_window_ns)}</text>'
    )
    parts.append("</svg>")
    return "".join(parts)
