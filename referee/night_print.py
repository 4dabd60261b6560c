"""A night on one printable page (A4 portrait), as PNG or PDF, drawn with Pillow.

Black on white for paper: the night's name and date, the results of every game, each player's
reaction times (best, median, a box of the middle half), close calls and false starts, and the
close calls themselves. The PDF is the same page (Pillow writes a one-page PDF of the image).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Sequence
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from hardware.timing import format_ns
from referee.standings import Standings

DPI = 150
PAGE = (1240, 1754)  # A4 at 150 dpi
MARGIN = 70
INK, GREY, LIGHT = (20, 20, 20), (110, 110, 110), (225, 225, 225)
Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


def _font(size: int, bold: bool = False) -> Font:
    names = (
        ("DejaVuSans-Bold.ttf", "LiberationSans-Bold.ttf")
        if bold
        else ("DejaVuSans.ttf", "LiberationSans-Regular.ttf")
    )
    for name in names:
        try:
            return ImageFont.truetype(name, size)
        except OSError:
            continue
    return ImageFont.load_default(size)


def _fit(draw: ImageDraw.ImageDraw, text: str, font: Font, width: float) -> str:
    """`text` cut with an ellipsis to fit `width` pixels."""
    if draw.textlength(text, font=font) <= width:
        return text
    while text and draw.textlength(text + "…", font=font) > width:
        text = text[:-1]
    return text + "…"


def render_page(night_name: str, started_at: float, s: Standings) -> Image.Image:
    page = Image.new("RGB", PAGE, "white")
    d = ImageDraw.Draw(page)
    h1, h2, body, small = _font(46, True), _font(30, True), _font(24), _font(20)
    x0, x1 = MARGIN, PAGE[0] - MARGIN
    y = MARGIN
    d.text((x0, y), _fit(d, night_name, h1, x1 - x0), font=h1, fill=INK)
    y += 60
    date = time.strftime("%A %d %B %Y, from %H:%M", time.localtime(started_at))
    finished = sum(g.finished for g in s.games)
    d.text((x0, y), f"{date} · {len(s.games)} games, {finished} finished", font=small, fill=GREY)
    y += 50

    # -- results per game --------------------------------------------------------------------------
    d.text((x0, y), "Results", font=h2, fill=INK)
    y += 44
    games = list(s.games)[:8]  # one page: the last columns would not fit; the JSONL has them all
    name_w, col_w = 220, (x1 - x0 - 220 - 130) / max(len(games), 1)
    for i, g in enumerate(games):
        cx = x0 + name_w + i * col_w
        d.text((cx, y), _fit(d, f"#{g.id} {g.title}", small, col_w - 8), font=small, fill=GREY)
    d.text((x1 - d.textlength("games won", font=small), y), "games won", font=small, fill=GREY)
    y += 32
    for p in s.players:
        d.line((x0, y - 4, x1, y - 4), fill=LIGHT, width=2)
        d.text((x0, y), _fit(d, p.name, body, name_w - 10), font=body, fill=INK)
        for i, g in enumerate(games):
            r = p.results.get(g.id)
            if r is None:
                text = "—"
            else:
                score = r["score"]
                text = ("★ " if r["won"] else "") + ("" if score is None else str(score))
            cx = x0 + name_w + i * col_w
            d.text((cx, y), _fit(d, text, body, col_w - 8), font=body, fill=INK)
        d.text((x1 - 60, y), str(p.wins), font=body, fill=INK)
        y += 36
    y += 30

    # -- reaction times --------------------------------------------------------------------------
    d.text((x0, y), "Reaction times after the call", font=h2, fill=INK)
    y += 44
    everything = [t for p in s.players for t in p.reactions_ns]
    top_ns = max(sorted(everything)[int(0.95 * (len(everything) - 1))] * 1.2 if everything else 5e8, 2e8)
    bx0, bx1 = x0 + name_w, x0 + name_w + 380
    columns = (
        ("best", bx1 + 30),
        ("median", bx1 + 150),
        ("close won/lost", bx1 + 280),
        ("false st.", bx1 + 470),
    )
    d.text((bx0, y), "0 ms", font=small, fill=GREY)
    d.text(
        (bx1 - d.textlength(f"{top_ns / 1e6:.0f} ms", font=small), y),
        f"{top_ns / 1e6:.0f} ms",
        font=small,
        fill=GREY,
    )
    for label, cx in columns:
        d.text((cx, y), label, font=small, fill=GREY)
    y += 32
    for p in s.players:
        d.text((x0, y), _fit(d, p.name, body, name_w - 10), font=body, fill=INK)
        _box(d, p.reactions_ns, bx0, bx1, y + 14, top_ns)
        st = p.reaction_stats()
        cells = (
            "—" if st["best_ns"] is None else f"{st['best_ns'] / 1e6:.0f} ms",
            "—" if st["median_ns"] is None else f"{st['median_ns'] / 1e6:.0f} ms",
            f"{p.close_wins} / {p.close_losses}",
            str(p.false_starts),
        )
        for text, (_, cx) in zip(cells, columns, strict=True):
            d.text((cx, y), text, font=body, fill=INK)
        y += 38
    y += 30

    # -- close calls -----------------------------------------------------------------------------
    d.text((x0, y), f"Close calls (under {format_ns(s.close_call_ns)}) and ties", font=h2, fill=INK)
    y += 44
    calls = list(s.close_calls)
    room = (PAGE[1] - MARGIN - 60 - y) // 32
    if not calls:
        d.text((x0, y), "none tonight", font=body, fill=GREY)
        y += 32
    for c in calls[: max(room, 0)]:
        what = (
            f"tie: {' & '.join(c.first)}"
            if c.tie
            else f"{c.first[0]} by {format_ns(c.margin_ns)} over {' & '.join(c.second)}"
        )
        d.text(
            (x0, y), _fit(d, f"game #{c.game_id} · {c.label} — {what}", body, x1 - x0), font=body, fill=INK
        )
        y += 32
    if len(calls) > room > 0:
        d.text((x0, y), f"… and {len(calls) - room} more in the night's file", font=small, fill=GREY)
    footer = "Replay every game: referee replay <the night's .jsonl file>"
    d.text((x0, PAGE[1] - MARGIN), footer, font=small, fill=GREY)
    return page


def _box(d: ImageDraw.ImageDraw, values: Sequence[int], x0: float, x1: float, y: float, top: float) -> None:
    def x(v: float) -> float:
        return x0 + (x1 - x0) * min(v, top) / top

    d.line((x0, y, x1, y), fill=LIGHT, width=2)
    if not values:
        return
    ordered = sorted(values)
    if len(ordered) >= 2:
        q = statistics.quantiles(ordered, n=4, method="inclusive")
        d.rectangle((x(q[0]), y - 11, max(x(q[2]), x(q[0]) + 2), y + 11), outline=INK, fill=LIGHT, width=2)
    for v in ordered:
        d.ellipse((x(v) - 4, y - 4, x(v) + 4, y + 4), fill=GREY)
    m = x(statistics.median(ordered))
    d.line((m, y - 14, m, y + 14), fill=INK, width=4)


def save_page(page: Image.Image, path: Path) -> Path:
    """Write the page as PNG or PDF, by the file's suffix."""
    suffix = path.suffix.lower()
    if suffix == ".png":
        page.save(path, "PNG", dpi=(DPI, DPI))
    elif suffix == ".pdf":
        page.save(path, "PDF", resolution=float(DPI), title="Table referee: the night")
    else:
        raise ValueError(f"a printable summary is .png or .pdf, not {suffix or 'a file without suffix'}")
    return path
