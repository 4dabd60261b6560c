"""The board as an SVG picture, a pure function of the position (like chess.svg).

Every square is a ``<rect>`` with ``id="sq-e5"`` and ``data-square="e5"``, every piece a
``<g class="piece" data-square data-piece>``, so the console can make them clickable. Living
pieces are discs in their camp's colour with the kind's letter; a satellite wears a ring in
its controller's colour, a neutral piece a dashed grey ring; corpses are grey discs with a
cross; the ruler has a gold ring; the last move's squares are highlighted.
"""

from __future__ import annotations

from html import escape

from referee.games.djambi.moves import Move
from referee.games.djambi.pieces import HOSTAGE, NEUTRAL, Kind, Party
from referee.games.djambi.position import Position
from referee.games.djambi.squares import FILES, MAZE, RANKS, SIZE, SQUARE_NAMES, file_of, rank_of

CELL = 56
MARGIN = 22
COLOURS = {Party.RED: "#c0392b", Party.BLUE: "#2d5da8", Party.YELLOW: "#e2b007", Party.GREEN: "#2e8b57"}
INK = {Party.RED: "#fff", Party.BLUE: "#fff", Party.YELLOW: "#222", Party.GREEN: "#fff"}
LIGHT, DARK = "#efe6d2", "#d8c9a8"
GOLD = "#d4a017"


def _xy(sq: int) -> tuple[int, int]:
    """Top-left corner of a square: rank 9 at the top, file a on the left."""
    return MARGIN + file_of(sq) * CELL, MARGIN + (SIZE - 1 - rank_of(sq)) * CELL


def board_svg(position: Position, last: Move | None = None, size: int | None = None) -> str:
    """The position drawn as an SVG document."""
    width = 2 * MARGIN + SIZE * CELL
    height = width + 26
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}"'
        + (f' width="{size}" height="{size * height // width}"' if size else "")
        + ' class="djambi-board" font-family="sans-serif">',
        f'<rect width="{width}" height="{height}" fill="#f8f5ee"/>',
    ]
    marked = _marks(last)
    for sq in range(SIZE * SIZE):
        x, y = _xy(sq)
        name = SQUARE_NAMES[sq]
        fill = LIGHT if (file_of(sq) + rank_of(sq)) % 2 else DARK
        kind = "maze" if sq == MAZE else "square"
        out.append(
            f'<rect id="sq-{name}" data-square="{name}" class="{kind}" x="{x}" y="{y}" '
            f'width="{CELL}" height="{CELL}" fill="{fill}" stroke="#9c8b6a" stroke-width="0.5"/>'
        )
        if sq == MAZE:
            out.append(_maze(x, y))
        if sq in marked:
            colour, label = marked[sq]
            out.append(
                f'<rect class="last-move {label}" x="{x + 2}" y="{y + 2}" width="{CELL - 4}" height="{CELL - 4}" '
                f'fill="{colour}" fill-opacity="0.35" stroke="{colour}" stroke-width="2" pointer-events="none"/>'
            )
    for i in range(SIZE):
        cx = MARGIN + i * CELL + CELL // 2
        out.append(
            f'<text x="{cx}" y="{MARGIN + SIZE * CELL + 15}" font-size="12" text-anchor="middle" fill="#555">{FILES[i]}</text>'
        )
        cy = MARGIN + (SIZE - 1 - i) * CELL + CELL // 2 + 4
        out.append(
            f'<text x="{MARGIN // 2}" y="{cy}" font-size="12" text-anchor="middle" fill="#555">{RANKS[i]}</text>'
        )
    ruler = position.ruler()
    for sq, piece in enumerate(position.squares):
        if piece is not None:
            out.append(_piece(position, sq, ruler))
    out.append(_caption(position, width))
    out.append("</svg>")
    return "\n".join(out)


def _marks(last: Move | None) -> dict[int, tuple[str, str]]:
    if last is None:
        return {}
    marks = {last.origin: ("#f4d03f", "from"), last.target: ("#f4d03f", "to")}
    if last.exit is not None:
        marks[last.exit] = ("#f39c12", "exit")
    if last.place is not None:
        marks[last.place] = ("#8e44ad", "place")
    if last.victim is not None:
        marks[last.victim] = ("#7f8c8d", "victim")
    return marks


def _maze(x: int, y: int) -> str:
    """A small labyrinth drawn in the centre square."""
    parts = []
    for inset in (6, 13, 20):
        w = CELL - 2 * inset
        gap = "8 4" if inset != 20 else "none"
        parts.append(
            f'<rect x="{x + inset}" y="{y + inset}" width="{w}" height="{w}" fill="none" stroke="#6b5a3a" '
            f'stroke-width="1.6" stroke-dasharray="{gap}" pointer-events="none"/>'
        )
    return "".join(parts)


def _piece(position: Position, sq: int, ruler: Party | None) -> str:
    piece = position.squares[sq]
    assert piece is not None
    x, y = _xy(sq)
    cx, cy, r = x + CELL // 2, y + CELL // 2, CELL * 0.36
    name = SQUARE_NAMES[sq]
    if piece.party is None or piece.kind is None:
        d = r * 0.55
        return (
            f'<g class="piece corpse" data-square="{name}" data-piece="xx"><title>a dead piece on {name}</title>'
            f'<circle cx="{cx}" cy="{cy}" r="{r}" fill="#555" stroke="#222" stroke-width="1.5"/>'
            f'<path d="M{cx - d},{cy - d}L{cx + d},{cy + d}M{cx + d},{cy - d}L{cx - d},{cy + d}" '
            'stroke="#ddd" stroke-width="3"/></g>'
        )
    control = position.control[piece.party]
    title = f"{piece.title} on {name}"
    ring = ""
    if control == NEUTRAL:
        ring = f'<circle cx="{cx}" cy="{cy}" r="{r + 4}" fill="none" stroke="#888" stroke-width="2.5" stroke-dasharray="4 3"/>'
        title += " (neutral)"
    elif control == HOSTAGE:
        ring = f'<circle cx="{cx}" cy="{cy}" r="{r + 4}" fill="none" stroke="#444" stroke-width="1.5" stroke-dasharray="1 3"/>'
        title += " (hostage)"
    elif control != piece.party:
        boss = Party(control)
        ring = f'<circle cx="{cx}" cy="{cy}" r="{r + 4}" fill="none" stroke="{COLOURS[boss]}" stroke-width="3.5"/>'
        title += f" (satellite of {boss.title})"
    if piece.kind == Kind.CHIEF and sq == MAZE and piece.party == ruler:
        ring += f'<circle cx="{cx}" cy="{cy}" r="{r + 7}" fill="none" stroke="{GOLD}" stroke-width="4" class="ruler"/>'
        title += ", in power"
    shape = (
        f'<rect x="{cx - r}" y="{cy - r}" width="{2 * r}" height="{2 * r}" rx="5"'
        if piece.kind == Kind.CHIEF
        else f'<circle cx="{cx}" cy="{cy}" r="{r}"'
    )
    return (
        f'<g class="piece" data-square="{name}" data-piece="{piece.token}"><title>{escape(title)}</title>{ring}'
        f'{shape} fill="{COLOURS[piece.party]}" stroke="#222" stroke-width="1.2"/>'
        f'<text x="{cx}" y="{cy + 6}" font-size="18" font-weight="bold" text-anchor="middle" '
        f'fill="{INK[piece.party]}" pointer-events="none">{piece.kind.letter}</text></g>'
    )


def _caption(position: Position, width: int) -> str:
    ruler = position.ruler()
    text = "game over" if position.turn is None else f"{position.turn.title} to move"
    if ruler is not None:
        text += f" · {ruler.title} rules the maze"
    gone = ", ".join(p.title for p in sorted(position.eliminated))
    if gone:
        text += f" · out: {gone}"
    y = 2 * MARGIN + SIZE * CELL + 14
    return f'<text class="caption" x="{width // 2}" y="{y}" font-size="14" text-anchor="middle" fill="#333">{escape(text)}</text>'
