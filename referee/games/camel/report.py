"""What the camel engine tells people: the summary for the display and records, and the console's actions."""

from __future__ import annotations

from typing import Any

from referee.games.base import Action, Field, choice
from referee.games.camel.ring import SIZE, card_label
from referee.games.camel.state import LOOSE, MAY, CamelState, expected_first, legal_tiles
from referee.games.camel.tiles import NUMBERS, TWO_SIDED, tile_label

CARD_NUMBERS = tuple(range(1, SIZE + 1))


def summary(state: CamelState) -> dict[str, Any]:
    """Scores are race wins; the rest describes the race running (or the last one run)."""
    race = state.race
    camels = state.camels
    out: dict[str, Any] = {
        "scores": dict(zip(state.players, state.wins, strict=True)),
        "scores_label": "Races won",
        "winner": state.winner,
        "finished": state.finished,
        "phase": state.phase,
        "race": race.number if race else 0,
        "races_won": state.races_won(),
        "layout": state.layout,
        "deal_seed": state.deal_seed,
        "camels": {c.id: c.player for c in camels},
        "turn": None,
        "headline": None,
        "positions": {},
        "marker": None,
        "caravan": [],
        "eliminated": [],
        "players_out": [],
        "race_winner": None,
        "start_card": None,
        "first": None,
        "barred_tiles": [],
        "last_tile": None,
        "results": [
            {
                "race": r.number,
                "winner": r.winner,
                "players_out": list(r.players_out),
                "abandoned": r.abandoned,
            }
            for r in state.races
            if r.over
        ],
    }
    if state.options.tiles == TWO_SIDED and state.options.tile_grid != LOOSE:
        # The top sides are in plain sight on the table; what is under them never leaves the referee.
        out["tiles_up"] = {
            f"{r},{c}": n
            for t, n in enumerate(state.tiles.visible())
            if n is not None
            for r, c in [tile_label(t)]
        }
    if state.last_tile is not None:
        tile, shows, camel = state.last_tile
        out["last_tile"] = {
            "tile": list(tile_label(tile)) if tile is not None else None,
            "shows": shows,
            "camel": camels[camel].id,
        }
    if race is None:
        return out
    out["positions"] = {camels[c].id: card_label(p) for c, p in enumerate(race.pos) if p is not None}
    out["marker"] = card_label(race.marker)
    out["caravan"] = [
        {"camel": camels[c].id, "card": card_label(race.pos[c] or 0), "place": race.distance(c)}
        for c in race.caravan()
    ]
    out["eliminated"] = [camels[c].id for c in race.out]
    out["players_out"] = list(race.players_out)
    out["race_winner"] = race.winner
    out["start_card"] = card_label(race.start)
    out["first"] = race.first
    if not race.over:
        mover = camels[race.mover]
        card = race.pos[mover.number]
        again = " is on an oasis: flip again" if race.on_oasis else ": flip a tile"
        out["headline"] = f"{mover.player}{again}"
        out["turn"] = {
            "player": mover.player,
            "camel": mover.id,
            "card": card_label(card or 0),
            "on_oasis": race.on_oasis,
            "turn": race.turns,
        }
        if state.options.tile_grid != LOOSE:
            out["barred_tiles"] = [list(tile_label(t)) for t in sorted(race.before | set(race.this))]
    return out


def _flip_action(state: CamelState, label: str) -> Action:
    fields: list[Field] = []
    if state.options.tile_grid != LOOSE:
        fields.append(
            Field(
                "tile",
                "Tile (row, column)",
                "choice",
                tuple(
                    choice(list(tile_label(t)), "row {}, column {}".format(*tile_label(t)))
                    for t in legal_tiles(state)
                ),
            )
        )
    fields.append(Field("shows", "Shows", "choice", NUMBERS))
    if state.options.remember_under:
        fields.append(Field("under", "Number now underneath (optional)", "choice", NUMBERS, required=False))
    race = state.running
    # The camel is fixed in the form so that an entry from an out-of-date screen is refused.
    fixed = {"camel": state.camels[race.mover].id} if race is not None else {}
    return Action(
        "flip",
        label,
        tuple(fields),
        fixed,
        help="tile (row, column) shows N; rows 1–5 from the top, columns 1–6 from the left",
    )


def _ring_actions(state: CamelState) -> list[Action]:
    return [
        Action(
            "layout",
            "Enter the ring as laid",
            (
                Field(
                    "cards",
                    "16 cards clockwise from the top-left corner (D desert, O oasis, S snake)",
                    "text",
                ),
            ),
            help="9 desert (D), 4 oases (O), 3 snakes (S), e.g. DODSDDODSDDODSDO",
        ),
        Action(
            "deal",
            "Deal the ring at random",
            (Field("seed", "Any whole number (the deal follows from it)", "seed"),),
            help="no oasis is dealt beside a snake; lay the cards as the display shows",
        ),
    ]


def actions(state: CamelState) -> list[Action]:
    """Exactly what may be entered now, with the legal choices."""
    phase = state.phase
    if phase == "over":
        return []
    if phase == "layout":
        return _ring_actions(state)
    race = state.running
    if race is None:  # between races, or before the first
        due = expected_first(state)
        number = len(state.races) + 1
        fields = [Field("card", "Start card (1–16)", "choice", CARD_NUMBERS)]
        fixed: dict[str, Any] = {}
        if due is None:
            fields.append(Field("first", "Youngest player (starts the first race)", "choice", state.players))
        else:
            fixed["first"] = due
        if state.races:
            fields.append(
                Field(
                    "reshuffled",
                    "Tiles laid out afresh",
                    "bool",
                    (False, True),
                    required=False,
                    default=False,
                )
            )
        start = Action(
            "start",
            f"Start race {number}",
            tuple(fields),
            fixed,
            help="all camels and the marker stone go on the start card",
        )
        result = [start, *_ring_actions(state)]
        if state.races:
            result.append(
                Action("end", "End the night", help="the player with most race wins wins the night")
            )
        return result
    mover = state.camels[race.mover]
    result = []
    if race.on_oasis:
        result.append(_flip_action(state, f"{mover.id} on the oasis: turn another tile"))
        if state.options.oasis == MAY:
            result.append(Action("stop", f"{mover.id} rests on the oasis (end the turn)"))
    else:
        result.append(_flip_action(state, f"{mover.id}: turn a tile"))
    result.append(Action("end", "Abandon this race and end the night", help="nobody wins the race abandoned"))
    return result
