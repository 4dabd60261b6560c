"""The table as an SVG picture: every player's stones and winning stones, the bag, the lord, the
next pairing and what the referee waits for. A pure function of the state.

Each of the twelve shape ids has its own glyph, filled in the stone's colour; black decoys are
black discs, the camel a black hump. Every stone carries a <title> with its name.
"""

from __future__ import annotations

import math
from html import escape

from referee.games.dschamal import console
from referee.games.dschamal.state import DschamalState
from referee.games.dschamal.stones import SHAPES, ShapeNames, colour_of, shape_of
from referee.games.dschamal.summary import scores

FILL = {"blue": "#2f6fd0", "yellow": "#f2c12e", "white": "#f4f1ea", "brown": "#8a5a2b", "black": "#141414"}
INK = "#eee"
DIM = "#9aa"
GOLD = "#ffd700"
WIDTH = 1000
STONE = 15  # glyph radius
STEP = 36  # distance between stones in a row


def _poly(points: list[tuple[float, float]], fill: str, stroke: str) -> str:
    pts = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
    return f'<polygon points="{pts}" fill="{fill}" stroke="{stroke}" stroke-width="1.5"/>'


def _regular(cx: float, cy: float, r: float, n: int, turn: float = -90.0) -> list[tuple[float, float]]:
    return [
        (
            cx + r * math.cos(math.radians(turn + 360 * k / n)),
            cy + r * math.sin(math.radians(turn + 360 * k / n)),
        )
        for k in range(n)
    ]


def glyph(shape: str, cx: float, cy: float, r: float, fill: str, stroke: str = "#333") -> str:
    """The picture of one shape id (ball, narrow-roof, ..., shape-12) centred at (cx, cy)."""
    index = SHAPES.index(shape)
    sw = 'stroke-width="1.5"'
    if index == 0:  # ball
        return f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" fill="{fill}" stroke="{stroke}" {sw}/>'
    if index == 1:  # narrow roof
        return _poly([(cx, cy - r), (cx + 0.5 * r, cy + r), (cx - 0.5 * r, cy + r)], fill, stroke)
    if index == 2:  # egg
        return (
            f'<ellipse cx="{cx:.1f}" cy="{cy:.1f}" rx="{0.72 * r:.1f}" ry="{r:.1f}" fill="{fill}" '
            f'stroke="{stroke}" {sw}/>'
        )
    if index == 3:  # disc
        return (
            f'<ellipse cx="{cx:.1f}" cy="{cy:.1f}" rx="{r:.1f}" ry="{0.45 * r:.1f}" fill="{fill}" '
            f'stroke="{stroke}" {sw}/>'
        )
    if index == 4:  # block
        s = 0.85 * r
        return (
            f'<rect x="{cx - s:.1f}" y="{cy - s:.1f}" width="{2 * s:.1f}" height="{2 * s:.1f}" fill="{fill}" '
            f'stroke="{stroke}" {sw}/>'
        )
    if index == 5:
        return _poly(_regular(cx, cy, r, 4), fill, stroke)  # diamond
    if index == 6:
        return _poly(_regular(cx, cy, r, 6, 0), fill, stroke)  # hexagon
    if index == 7:  # star
        points = []
        for k in range(10):
            rr = r if k % 2 == 0 else 0.45 * r
            a = math.radians(-90 + 36 * k)
            points.append((cx + rr * math.cos(a), cy + rr * math.sin(a)))
        return _poly(points, fill, stroke)
    if index == 8:  # cross
        a, b = 0.35 * r, r
        pts = [
            (-a, -b),
            (a, -b),
            (a, -a),
            (b, -a),
            (b, a),
            (a, a),
            (a, b),
            (-a, b),
            (-a, a),
            (-b, a),
            (-b, -a),
            (-a, -a),
        ]
        return _poly([(cx + x, cy + y) for x, y in pts], fill, stroke)
    if index == 9:
        return _poly(_regular(cx, cy, r, 5), fill, stroke)  # pentagon
    if index == 10:  # half disc
        return (
            f'<path d="M{cx - r:.1f},{cy + 0.4 * r:.1f} A{r:.1f},{r:.1f} 0 0 1 {cx + r:.1f},{cy + 0.4 * r:.1f} Z" '
            f'fill="{fill}" stroke="{stroke}" {sw}/>'
        )
    # ring
    return (
        f'<path d="M{cx - r:.1f},{cy:.1f} a{r:.1f},{r:.1f} 0 1 0 {2 * r:.1f},0 a{r:.1f},{r:.1f} 0 1 0 {-2 * r:.1f},0 Z '
        f"M{cx - 0.45 * r:.1f},{cy:.1f} a{0.45 * r:.1f},{0.45 * r:.1f} 0 1 0 {0.9 * r:.1f},0 "
        f'a{0.45 * r:.1f},{0.45 * r:.1f} 0 1 0 {-0.9 * r:.1f},0 Z" fill="{fill}" fill-rule="evenodd" '
        f'stroke="{stroke}" {sw}/>'
    )


def stone_svg(stone: str, cx: float, cy: float, names: ShapeNames, r: float = STONE) -> str:
    """A coloured stone, a black decoy ("black") or the camel, with its name as a tooltip."""
    title = f"<title>{escape(names.stone(stone))}</title>"
    if stone == "black":
        return f'<g>{title}<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{0.8 * r:.1f}" fill="{FILL["black"]}" stroke="#777"/></g>'
    if stone == "camel":
        return (
            f'<g>{title}<path d="M{cx - r:.1f},{cy + 0.6 * r:.1f} Q{cx - 0.4 * r:.1f},{cy - 1.2 * r:.1f} {cx:.1f},'
            f'{cy:.1f} Q{cx + 0.4 * r:.1f},{cy - 1.2 * r:.1f} {cx + r:.1f},{cy + 0.6 * r:.1f} Z" '
            f'fill="{FILL["black"]}" stroke="#777"/></g>'
        )
    fill = FILL[colour_of(stone)]
    return (
        f'<g class="stone" data-stone="{escape(stone)}">{title}{glyph(shape_of(stone), cx, cy, r, fill)}</g>'
    )


def _text(
    x: float, y: float, text: str, size: int = 18, fill: str = INK, anchor: str = "start", weight: str = ""
) -> str:
    bold = f' font-weight="{weight}"' if weight else ""
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" fill="{fill}" font-size="{size}" text-anchor="{anchor}"{bold}>'
        f"{escape(text)}</text>"
    )


def _header(state: DschamalState) -> tuple[list[str], float]:
    names = state.options.names
    title = {"duel": "Duel for Dschamál", "tower": "The Dschamál Tower", "trio": "The Dschamál Trio"}
    parts = [_text(20, 34, title.get(state.variant, "The Dschamál Quartet"), 26, weight="bold")]
    bag = f"bag: {state.bag_count()} stones ({len(state.bag)} coloured, {state.bag_black} black"
    bag += ", the camel)" if state.bag_camel else ")"
    # the bag itself: a sack with its count
    parts.append(
        f'<g><title>{escape(bag)}</title><path d="M{WIDTH - 70},20 h40 l10,14 q6,40 -30,44 q-36,-4 -30,-44 z" '
        f'fill="#3a2a1a" stroke="#aaa"/>{_text(WIDTH - 50, 62, str(state.bag_count()), 18, anchor="middle", weight="bold")}</g>'
    )
    parts.append(_text(20, 62, bag, 16, DIM))
    y = 90.0
    if state.order.lord:
        parts.append(_text(20, y, f"♛ lord of the stones: {state.order.lord}", 18, GOLD))
        y += 26
    if state.finished:
        parts.append(
            _text(20, y, f"Winner: {' and '.join(state.winners)} — {state.end}", 22, GOLD, weight="bold")
        )
        y += 30
    elif state.order.next:
        label = "next three-way contest" if len(state.order.next) == 3 else "next duel"
        joiner = ", " if len(state.order.next) == 3 else " against "
        parts.append(_text(20, y, f"{label}: {joiner.join(state.order.next)}", 18))
        if state.order.sits_out:
            parts.append(_text(WIDTH - 20, y, f"{state.order.sits_out} sits out", 16, DIM, anchor="end"))
        y += 26
    if state.decision:
        parts.append(_text(20, y + 4, "decision stone:", 18))
        parts.append(stone_svg(state.decision, 170, y - 2, names))
        y += 34
    if not state.finished:
        parts.append(_text(20, y, f"waiting for: {console.awaiting(state).text}", 16, DIM))
        y += 24
    if state.last:
        parts.append(_text(20, y, state.last, 15, DIM))
        y += 24
    return parts, y + 10


def _rows(state: DschamalState, top: float) -> tuple[list[str], float]:
    names = state.options.names
    score = scores(state)
    parts: list[str] = []
    y = top
    for player in state.players:
        playing = player in state.order.next and not state.finished
        mine = state.stones_of(player)
        winning = state.winning_of(player)
        parts.append(
            f'<rect x="10" y="{y:.1f}" width="{WIDTH - 20}" height="58" rx="8" fill="#262a31"'
            f"{' stroke=' + chr(34) + GOLD + chr(34) if playing else ''}/>"
        )
        crown = "♛ " if player == state.order.lord else ""
        parts.append(_text(24, y + 26, crown + player, 20, GOLD if crown else INK, weight="bold"))
        unit = "winning" if state.variant != "quartet" else "of a shape"
        parts.append(_text(24, y + 48, f"{score[player]} {unit}", 14, DIM))
        # Stones close up when a player holds many, so a row never runs off the picture.
        step = min(STEP, (WIDTH - 230) / max(len(mine) + len(winning) + 1, 1))
        x = 190.0
        for s in mine:
            parts.append(stone_svg(s, x, y + 29, names))
            x += step
        if winning:
            x = max(x + step, WIDTH - 30 - step * (len(winning) - 1))
            parts.append(
                f'<rect x="{x - 20:.1f}" y="{y + 6:.1f}" width="{step * (len(winning) - 1) + 40:.1f}" height="46" '
                f'rx="6" fill="none" stroke="{GOLD}" stroke-dasharray="4 3"><title>winning stones</title></rect>'
            )
            for s in winning:
                parts.append(stone_svg(s, x, y + 29, names))
                x += step
        y += 66
    return parts, y


def _towers(state: DschamalState, top: float) -> tuple[list[str], float]:
    names = state.options.names
    score = scores(state)
    n = len(state.players)
    column = (WIDTH - 20) / n
    height = 40 + 7 * 34 + 90
    base = top + height - 70
    parts = [f'<line x1="10" y1="{base + 18:.1f}" x2="{WIDTH - 10}" y2="{base + 18:.1f}" stroke="#666"/>']
    for k, player in enumerate(state.players):
        cx = 10 + column * (k + 0.5)
        playing = player in state.order.next and not state.finished
        crown = "♛ " if player == state.order.lord else ""
        parts.append(
            _text(cx, top + 22, crown + player, 20, GOLD if crown or playing else INK, "middle", "bold")
        )
        for level, s in enumerate(state.stones_of(player)):
            parts.append(stone_svg(s, cx, base - 34 * level, names, 16))
        blacks = state.black_of(player)
        for b in range(blacks):
            parts.append(stone_svg("black", cx - 40 + (b % 5) * 20, base + 40 + 18 * (b // 5), names, 10))
        parts.append(_text(cx, base + 84, f"{score[player]} points · {blacks} black", 14, DIM, "middle"))
    return parts, top + height + 10


def render(state: DschamalState) -> str:
    header, y = _header(state)
    body, bottom = (_towers if state.variant == "tower" else _rows)(state, y)
    height = int(bottom + 10)
    return "".join(
        [
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" role="img" '
            f'aria-label="Dschamál table" font-family="sans-serif">',
            f'<rect width="{WIDTH}" height="{height}" fill="#1d1f24"/>',
            *header,
            *body,
            "</svg>",
        ]
    )
