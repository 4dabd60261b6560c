"""The camel race drawn as SVG: the ring of cards around the tiles, the camels, the marker stone.

A pure function of state. Every moving piece keeps one id for the whole night (``camel-0`` …,
``marker``) and is placed by a CSS ``transform`` in its ``style``, with a transition declared in
the picture's stylesheet: a display that updates the existing elements by id (rather than
replacing the whole picture) sees camels walk from card to card and leave the ring when they are
eliminated. ``data-*`` attributes say what each piece is, for the display and for tests.
"""

from __future__ import annotations

from html import escape

from referee.games.camel.race import Race
from referee.games.camel.ring import DESERT, KIND_NAMES, OASIS, SIZE, SNAKE, card_label, square_cell
from referee.games.camel.state import LOOSE, CamelState
from referee.games.camel.tiles import COLUMNS, ROWS, TILE_COUNT, tile_label

CARD = 100  # pitch of the ring's cards
MARGIN = 20
PANEL_X = MARGIN + 5 * CARD + 30
WIDTH, HEIGHT = PANEL_X + 250, MARGIN * 2 + 5 * CARD
TILE_W, TILE_H = (3 * CARD) / COLUMNS, (3 * CARD) / ROWS
CAMEL_COLOURS = ("#d62828", "#1d70b8", "#2a9d3f", "#f2c500", "#7b2cbf")
LIGHT_COLOURS = frozenset({"#f2c500"})
CARD_FILL = {DESERT: "#e9c46a", OASIS: "#8fd19e", SNAKE: "#e76f51"}
# Where camel number n stands on a card: fixed, so a camel never jumps when others arrive.
SLOTS = ((24, 42), (50, 42), (76, 42), (24, 68), (50, 68))
MARKER_AT = (82, 86)
STYLE = (
    ".camel,#marker{transition:transform .6s ease-in-out,opacity .6s}"
    ".camel.out{opacity:.45}"
    ".tile.barred{opacity:.45}.tile.last{opacity:1}"
    "text{font-family:sans-serif}"
)


def card_origin(card: int) -> tuple[float, float]:
    row, column = square_cell(card)
    return MARGIN + column * CARD, MARGIN + row * CARD


def camel_xy(card: int, number: int) -> tuple[float, float]:
    x, y = card_origin(card)
    dx, dy = SLOTS[number % len(SLOTS)]
    return x + dx, y + dy


def _cards(state: CamelState) -> list[str]:
    layout = state.layout
    race = state.race
    parts = []
    for card in range(SIZE):
        x, y = card_origin(card)
        kind = layout[card] if layout else None
        fill = CARD_FILL[kind] if kind else "#ddd"
        name = KIND_NAMES[kind] if kind else "unknown"
        start = race is not None and race.start == card
        parts.append(
            f'<g id="card-{card_label(card)}" class="card {name}" data-card="{card_label(card)}" data-kind="{name}">'
            f'<rect x="{x + 2}" y="{y + 2}" width="{CARD - 4}" height="{CARD - 4}" rx="8" fill="{fill}" '
            f'stroke="{"#333" if start else "#8a6d3b"}" stroke-width="{4 if start else 1.5}"/>'
            f'<text x="{x + 8}" y="{y + 18}" font-size="14" fill="#333">{card_label(card)}</text>'
        )
        if kind in (OASIS, SNAKE):
            parts.append(
                f'<text x="{x + CARD - 8}" y="{y + 18}" font-size="12" text-anchor="end" fill="#222">{name}</text>'
            )
        if start:
            parts.append(f'<text x="{x + 8}" y="{y + CARD - 8}" font-size="11" fill="#333">start</text>')
        parts.append("</g>")
    return parts


def _tiles(state: CamelState) -> list[str]:
    if state.options.tile_grid == LOOSE:
        x, y = MARGIN + CARD, MARGIN + CARD
        last = state.last_tile
        shown = f"last tile: {last[1]}" if last else "tiles: loose"
        return [
            f'<text id="last-tile" x="{x + 1.5 * CARD}" y="{y + 1.5 * CARD}" font-size="22" text-anchor="middle" fill="#eee">{shown}</text>'
        ]
    race = state.running
    barred = (race.before | set(race.this)) if race else frozenset()
    visible = state.tiles.visible()
    last = state.last_tile[0] if state.last_tile else None
    last_attr = ' data-last="true"'
    parts = []
    for tile in range(TILE_COUNT):
        row, column = tile_label(tile)
        x = MARGIN + CARD + (column - 1) * TILE_W
        y = MARGIN + CARD + (row - 1) * TILE_H
        is_last = tile == last
        number = state.last_tile[1] if is_last and state.last_tile else visible[tile]
        classes = "tile" + (" barred" if tile in barred else "") + (" last" if is_last else "")
        parts.append(
            f'<g id="tile-{row}-{column}" class="{classes}" data-tile="{row},{column}"'
            f"{last_attr if is_last else ''}>"
            f'<rect x="{x + 3:.1f}" y="{y + 3:.1f}" width="{TILE_W - 6:.1f}" height="{TILE_H - 6:.1f}" rx="4" '
            f'fill="{"#fff3c4" if is_last else "#7a5230"}" stroke="{"#d62828" if is_last else "#4a3018"}" '
            f'stroke-width="{3 if is_last else 1}"/>'
        )
        if number is not None:
            colour = "#111" if is_last else "#e8d9b0"
            parts.append(
                f'<text x="{x + TILE_W / 2:.1f}" y="{y + TILE_H / 2 + 8:.1f}" font-size="{24 if is_last else 18}" '
                f'text-anchor="middle" fill="{colour}">{number}</text>'
            )
        parts.append("</g>")
    return parts


def _pieces(state: CamelState, race: Race | None) -> list[str]:
    parts = []
    out_row = 0
    for camel in state.camels:
        colour = CAMEL_COLOURS[camel.number % len(CAMEL_COLOURS)]
        ink = "#111" if colour in LIGHT_COLOURS else "#fff"
        card = race.pos[camel.number] if race else None
        if race is not None and card is None:
            x, y = PANEL_X + 20 + 36 * out_row, HEIGHT - 40
            out_row += 1
            status, where = "out", ""
        elif card is None:  # before the first race: waiting beside the ring
            x, y = PANEL_X + 20 + 36 * camel.number, HEIGHT - 40
            status, where = "waiting", ""
        else:
            x, y = camel_xy(card, camel.number)
            status, where = "racing", f' data-card="{card_label(card)}"'
        initial = escape(camel.id[:1].upper())
        suffix = escape(camel.id[-1]) if camel.id != camel.player else ""
        parts.append(
            f'<g id="camel-{camel.number}" class="camel {status}" data-camel="{escape(camel.id)}" '
            f'data-player="{escape(camel.player)}" data-status="{status}"{where} '
            f'style="transform:translate({x:.0f}px,{y:.0f}px)">'
            f"<title>{escape(camel.id)}</title>"
            f'<circle r="13" fill="{colour}" stroke="#222" stroke-width="1.5"/>'
            f'<text y="5" font-size="13" font-weight="bold" text-anchor="middle" fill="{ink}">{initial}{suffix}</text>'
            "</g>"
        )
    if race is not None:
        x, y = card_origin(race.marker)
        parts.append(
            f'<g id="marker" data-card="{card_label(race.marker)}" style="transform:translate({x + MARKER_AT[0]:.0f}px,{y + MARKER_AT[1]:.0f}px)">'
            "<title>marker stone</title>"
            '<ellipse rx="11" ry="7" fill="#6c757d" stroke="#111" stroke-width="1.5"/></g>'
        )
    return parts


def _panel(state: CamelState, race: Race | None) -> list[str]:
    x = PANEL_X
    lines = [
        f'<text x="{x}" y="{MARGIN + 16}" font-size="20" fill="#eee">Race {race.number if race else 1}</text>'
    ]
    y = MARGIN + 48
    for i, player in enumerate(state.players):
        wins = state.wins[i]
        out = race is not None and player in race.players_out
        lines.append(
            f'<text x="{x}" y="{y}" font-size="16" fill="{"#888" if out else "#eee"}" data-player="{escape(player)}">'
            f"{escape(player)}: {wins} race win{'s' if wins != 1 else ''}{' (out)' if out else ''}</text>"
        )
        y += 24
    y += 12
    if state.finished:
        text = f"{state.winner} wins the night" if state.winner else "the night is over"
    elif race is not None and race.winner:
        text = f"{race.winner} wins race {race.number}!"
    elif race is not None and not race.over:
        mover = state.camels[race.mover]
        text = f"{mover.id} to play" + (" (oasis)" if race.on_oasis else "")
    else:
        text = "lay out the ring" if state.layout is None else "choose the start card"
    lines.append(
        f'<text id="race-status" x="{x}" y="{y}" font-size="18" fill="#ffd166">{escape(text)}</text>'
    )
    if race is not None and not race.over:
        y += 30
        lines.append(f'<text x="{x}" y="{y}" font-size="13" fill="#bbb">caravan, back to front:</text>')
        for c in race.caravan():
            y += 18
            lines.append(
                f'<text x="{x + 8}" y="{y}" font-size="13" fill="#ddd">{escape(state.camels[c].id)} '
                f"(card {card_label(race.pos[c] or 0)})</text>"
            )
    if race is not None and race.out:
        lines.append(f'<text x="{x}" y="{HEIGHT - 62}" font-size="13" fill="#bbb">out of the race:</text>')
    return lines


def render(state: CamelState) -> str:
    race = state.race
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'class="camel-race" data-phase="{state.phase}" data-race="{race.number if race else 0}">',
        f"<style>{STYLE}</style>",
        f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#2b2d42"/>',
        *_cards(state),
        *_tiles(state),
        *_panel(state, race),
        *_pieces(state, race),
        "</svg>",
    ]
    return "".join(parts)
