"""The display: the dice, the required letter large, the proposals with their scoring letters
highlighted, the pool and the scores. A pure function of the state."""

from __future__ import annotations

from html import escape

from referee.games.djam.letters import BLACK, COLOURS
from referee.games.djam.model import OPEN_THEMES, UNLIMITED, Dice, DjamState, Proposal
from referee.games.djam.play import winners

WIDTH = 900
FACE = {
    "green": "#2e9e44",
    "white": "#f4f4f4",
    "yellow": "#f2c500",
    "red": "#d7263d",
    "blue": "#1f5fbf",
    BLACK: "#111",
}
INK = {"green": "#fff", "white": "#111", "yellow": "#111", "red": "#fff", "blue": "#fff", BLACK: "#fff"}
GOLD = "#ffd700"
TEXT = "#eee"
DIM = "#999"


def _text(x: float, y: float, s: str, size: int = 20, fill: str = TEXT, extra: str = "") -> str:
    return f'<text x="{x}" y="{y}" font-size="{size}" fill="{fill}"{extra}>{escape(s)}</text>'


def _dice(dice: Dice | None, y: int) -> list[str]:
    parts = []
    for i, colour in enumerate(COLOURS):
        x = 20 + 90 * i
        drawn = dice is not None and dice.colour == colour
        stroke = f' stroke="{GOLD}" stroke-width="6"' if drawn else ' stroke="#555" stroke-width="2"'
        parts.append(
            f'<rect x="{x}" y="{y}" width="76" height="76" rx="10" fill="{FACE[colour]}"{stroke}>'
            f"<title>{colour} die</title></rect>"
        )
        letter = dice.by_colour[colour] if dice is not None else "?"
        parts.append(
            _text(x + 38, y + 55, letter, 44, INK[colour], ' text-anchor="middle" font-weight="bold"')
        )
    x = 20 + 90 * len(COLOURS) + 20
    colour = dice.colour if dice is not None else None
    fill = FACE[colour] if colour else "#333"
    parts.append(
        f'<rect x="{x}" y="{y}" width="76" height="76" rx="10" fill="{fill}" stroke="#888" stroke-width="2">'
        f"<title>colour die: {escape(colour or 'not rolled')}</title></rect>"
    )
    parts.append(_text(x + 38, y + 96, "colour die", 13, DIM, ' text-anchor="middle"'))
    return parts


def _required(dice: Dice | None, y: int) -> list[str]:
    x = WIDTH - 130
    if dice is None:
        return [_text(x, y + 80, "?", 110, DIM, ' text-anchor="middle"')]
    if dice.black:
        return [
            _text(x, y + 50, "black", 34, TEXT, ' text-anchor="middle" font-weight="bold"'),
            _text(x, y + 80, "no letter of the dice", 16, TEXT, ' text-anchor="middle"'),
        ]
    assert dice.required is not None
    return [
        _text(
            x, y + 95, dice.required, 120, GOLD, ' text-anchor="middle" font-weight="bold" class="required"'
        ),
        _text(x, y + 118, "words begin with", 14, DIM, ' text-anchor="middle"'),
    ]


def _word(p: Proposal, x: int, y: int) -> str:
    """The word with its matched letters in gold (scored) or red (black-face faults)."""
    marked = set(p.highlighted)
    colour = GOLD if p.status == "valid" else "#ff5a5a"
    spans = []
    for i, ch in enumerate(p.word):
        if i in marked:
            spans.append(f'<tspan fill="{colour}" font-weight="bold" class="hit">{escape(ch)}</tspan>')
        else:
            spans.append(f"<tspan>{escape(ch)}</tspan>")
    fill = TEXT if p.status in ("valid", "pending") else DIM
    return f'<text x="{x}" y="{y}" font-size="26" fill="{fill}">{"".join(spans)}</text>'


def _clip(text: str, limit: int = 46) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _outcome(p: Proposal) -> str:
    if p.status == "valid":
        return f"+{p.tokens}"
    if p.status == "wrong":
        return _clip(f"−{-p.tokens}: {p.reason}")
    if p.status == "pending":
        return "waiting for a ruling"
    return _clip(f"refused: {p.reason}")


def _proposals(state: DjamState, proposals: tuple[Proposal, ...], y: int) -> tuple[list[str], int]:
    parts = []
    for p in proposals:
        parts.append(_text(20, y, p.player, 22, TEXT))
        parts.append(_word(p, 190, y))
        theme = f"[{p.theme}] " if state.settings.variant == OPEN_THEMES and p.theme else ""
        fill = GOLD if p.status == "valid" else ("#ff5a5a" if p.status == "wrong" else DIM)
        parts.append(_text(480, y, theme + _outcome(p), 17, fill))
        y += 36
    return parts, y


def render(state: DjamState) -> str:
    s = state.settings
    dice = state.dice
    proposals = state.proposals
    title = f"Djam · round {state.round_no} · {state.roller_name} rolls"
    shown_round = ""  # until the new dice come, the last round stays in view, labelled as such
    if dice is None and state.past and not state.finished:
        title += " · waiting for the dice"
        last = state.past[-1]
        dice, proposals = last.dice, last.proposals
        shown_round = f"Round {last.number} was: "
    if state.finished:
        best = winners(state)
        title = (
            f"Game over · {' and '.join(best)} {'wins' if len(best) == 1 else 'tie'} with {max(state.tokens)}"
        )
    rows = len(proposals) + len(s.players)
    height = 330 + 36 * rows + (44 if s.variant == OPEN_THEMES else 0)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" role="img" font-family="sans-serif" '
        f'aria-label="Djam, round {state.round_no}">',
        f'<rect width="{WIDTH}" height="{height}" fill="#1b1b22"/>',
        _text(20, 32, title, 24, TEXT, ' font-weight="bold"'),
    ]
    theme = ""
    if dice is not None and dice.theme is not None:
        theme = f"Theme {dice.theme}: {s.themes[dice.theme - 1]}"
    elif s.variant == OPEN_THEMES:
        theme = "Open themes"
    parts.append(_text(20, 62, shown_round + theme, 22, GOLD))
    parts += _dice(dice, 80)
    parts += _required(dice, 60)
    y = 200
    if s.variant == OPEN_THEMES:
        y += 6
        closed = state.closed_by_anyone()
        for t, name in enumerate(s.themes, start=1):
            fill = DIM if t in closed else TEXT
            mark = "✓ " if t in closed else ""
            x, row = 20 + 290 * ((t - 1) % 3), (t - 1) // 3
            parts.append(_text(x, y + 22 * row, _clip(f"{mark}{t} {name}", 32), 16, fill))
        y += 44
    block, y = _proposals(state, proposals, y + 10)
    parts += block
    if state.queue:
        parts.append(_text(20, y, f"waiting to speak: {', '.join(state.queue)}", 18, TEXT))
    y += 40
    stock = f"pool {state.pool}"
    if s.variant == UNLIMITED:
        stock = f"centre {state.centre} · set aside {state.pool}"
    parts.append(_text(20, y, f"{stock} · {s.total} tokens in all", 20, DIM))
    y += 34
    top = max([*state.tokens, 1])
    for name, tokens in zip(s.players, state.tokens, strict=True):
        width = 420 * tokens / top
        parts.append(_text(20, y + 20, name, 20, TEXT))
        parts.append(
            f'<rect x="190" y="{y + 2}" width="{width:.1f}" height="24" fill="{GOLD}" opacity="0.8"/>'
        )
        parts.append(_text(200 + width, y + 21, str(tokens), 20, TEXT))
        y += 36
    parts.append("</svg>")
    return "".join(parts)
