"""The display's small pictures: what they say, and that their labels keep apart."""

from __future__ import annotations

import re

from referee.pictures import bar_chart_svg, timeline_svg


def _texts(svg: str) -> list[tuple[float, float, str]]:
    return [
        (float(x), float(y), text)
        for x, y, text in re.findall(r'<text x="([\d.]+)" y="([\d.]+)"[^>]*>([^<]*)</text>', svg)
    ]


def test_bar_chart_says_one_point_and_two_points() -> None:
    svg = bar_chart_svg({"Anne": 1, "Marc": 2, "Carl": 0}, "points")
    values = [t for _, _, t in _texts(svg) if t[0].isdigit()]
    assert values == ["1 point", "2 points", "0 points"]


def test_bar_chart_values_stay_inside_the_picture() -> None:
    svg = bar_chart_svg({"Anne": 7, "Marc": 3}, "points")
    width = float(re.search(r'viewBox="0 0 (\d+)', svg).group(1))  # type: ignore[union-attr]
    longest = max(x + 0.6 * 22 * len(t) for x, _, t in _texts(svg))  # ~0.6 em per character
    assert longest <= width


def test_timeline_rows_name_the_order_margins_and_ties() -> None:
    svg = timeline_svg(
        {"Marc": 256_000_000, "Carl": 295_200_000, "Anne": 295_210_000},
        [["Marc"], ["Carl", "Anne"]],
        [39_200_000],
        100_000,
        false_starts=["Dan"],
    )
    texts = [t for _, _, t in _texts(svg)]
    assert "1. Marc +256.0 ms" in texts
    assert "+39.2 ms after Marc" in texts and "tied" in texts
    assert "Dan: false start" in texts and "tie window 100 µs" in texts
    rows = [(y, t) for x, y, t in _texts(svg) if y > 60]
    left_rows = [y for y, t in rows if re.match(r"\d\. ", t)]
    assert len(left_rows) == len(set(left_rows)) == 3  # one row per press, none on top of another
