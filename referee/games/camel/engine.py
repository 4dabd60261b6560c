"""The camel race engine: events in, verdicts and state out (see docs/games/camel.md).

Events (the console's vocabulary):

- ``{"type": "layout", "cards": "DODSDDODSDDODSDO"}`` — the ring as laid, clockwise from the top-left corner;
- ``{"type": "deal", "seed": 2024}`` — or the ring dealt at random from the seed;
- ``{"type": "start", "card": 5, "first": "Anne"}`` — the start card, and the youngest player
  for the first race (later races: who starts follows from the previous race);
- ``{"type": "flip", "tile": [2, 5], "shows": 4}`` — "tile (2, 5) shows 4"; with two-sided tiles
  and ``remember_under`` also ``"under": 3``;
- ``{"type": "stop"}`` — end the turn on an oasis instead of turning another tile;
- ``{"type": "end"}`` — end the night.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from referee.games.base import (
    Action,
    ContestRequest,
    EventError,
    GameHeader,
    RuleViolation,
    Step,
    Verdict,
)
from referee.games.camel import report, rules, svg
from referee.games.camel.race import Race, move
from referee.games.camel.ring import (
    SIZE,
    card_label,
    deal_layout,
    oasis_beside_snake,
    parse_layout,
)
from referee.games.camel.state import (
    LOOSE,
    MAY,
    OPTIONS,
    CamelOptions,
    CamelState,
    expected_first,
    legal_tiles,
    make_camels,
    turn_order,
)
from referee.games.camel.tiles import (
    TileMemory,
    parse_number,
    parse_tile,
    tile_label,
    tile_name,
)


class CamelEngine:
    """Kameltreiber AG (Heinz Meister, 1992): the camel race, refereed."""

    game = "camel"
    title = "Camel race (Kameltreiber AG)"
    variants = ("standard",)
    options = OPTIONS
    min_players = 2
    max_players = 5

    # --- the game ------------------------------------------------------------------------------

    def new_game(self, header: GameHeader) -> CamelState:
        if not self.min_players <= len(header.players) <= self.max_players:
            raise EventError(f"the camel race is for 2 to 5 players, not {len(header.players)}")
        opts = CamelOptions.from_header(dict(header.options))
        return CamelState(
            players=header.players,
            options=opts,
            camels=make_camels(header.players),
            tiles=TileMemory(opts.tiles),
            wins=(0,) * len(header.players),
        )

    def apply(self, state: CamelState, event: Mapping[str, Any]) -> Step[CamelState]:
        kind = event.get("type")
        handler = _HANDLERS.get(kind) if isinstance(kind, str) else None
        if handler is None:
            raise EventError(
                f"the camel race takes layout, deal, start, flip, stop and end events, not {kind!r}"
            )
        if state.finished:
            raise EventError(
                f"the night is over{f': {state.winner} won' if state.winner else ''}; start a new game"
            )
        return handler(state, event)

    def contest(self, state: CamelState) -> ContestRequest | None:
        return None  # nobody races for a button in this game

    def summary(self, state: CamelState) -> dict[str, Any]:
        return report.summary(state)

    def actions(self, state: CamelState) -> Sequence[Action]:
        return report.actions(state)

    def render_svg(self, state: CamelState) -> str:
        return svg.render(state)


# --- event handlers -----------------------------------------------------------------------------


def _no_race_running(state: CamelState, what: str) -> None:
    race = state.running
    if race is not None:
        raise EventError(f"race {race.number} is running; {what} between races")


def _apply_layout(state: CamelState, event: Mapping[str, Any]) -> Step[CamelState]:
    _no_race_running(state, "the ring can be laid out again only")
    layout = parse_layout(event.get("cards"))
    verdicts = [
        Verdict(
            rules.LAYOUT,
            f"the ring is laid: {layout} (cards 1–16 clockwise from the top-left corner)",
            {"layout": layout},
        )
    ]
    pairs = oasis_beside_snake(layout)
    if pairs:
        where = ", ".join(f"{a}–{b}" for a, b in pairs)
        verdicts.append(
            Verdict(
                rules.LAYOUT,
                f"accepted, though the rules advise against an oasis beside a snake (cards {where})",
                {"oasis_beside_snake": [list(pair) for pair in pairs]},
            )
        )
    return Step(replace(state, layout=layout, deal_seed=None), tuple(verdicts))


def _apply_deal(state: CamelState, event: Mapping[str, Any]) -> Step[CamelState]:
    _no_race_running(state, "the ring can be dealt again only")
    seed = event.get("seed")
    if isinstance(seed, str) and seed.strip().lstrip("-").isdigit():
        seed = int(seed)
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise EventError(
            '"seed" must be a whole number; the ring is dealt from it, so a replay deals the same ring'
        )
    layout = deal_layout(seed)
    verdict = Verdict(
        rules.LAYOUT,
        f"the ring is dealt from seed {seed}: {layout}, no oasis beside a snake",
        {"seed": seed, "layout": layout},
    )
    return Step(replace(state, layout=layout, deal_seed=seed), (verdict,))


def _apply_start(state: CamelState, event: Mapping[str, Any]) -> Step[CamelState]:
    _no_race_running(state, "a new race can start only")
    if state.layout is None:
        raise EventError("lay out the ring first (enter the 16 cards, or deal them from a seed)")
    card = event.get("card")
    if isinstance(card, str) and card.strip().isdigit():
        card = int(card)
    if not isinstance(card, int) or isinstance(card, bool) or not 1 <= card <= SIZE:
        raise EventError(
            '"card" must be the start card, a number from 1 to 16 (clockwise from the top-left corner)'
        )
    first = event.get("first")
    due = expected_first(state)
    verdicts: list[Verdict] = []
    if due is None:
        if first not in state.players:
            raise EventError(
                f'"first" must name the youngest player, who starts the first race: one of {", ".join(state.players)}'
            )
        verdicts.append(
            Verdict(rules.FIRST_RACE, f"{first}, the youngest, starts the first race", {"first": first})
        )
    else:
        if first is not None and first != due:
            raise RuleViolation(
                f"{due} was the first eliminated in race {state.races[-1].number} and starts this race, not {first}",
                rules.NEXT_RACE,
            )
        first = due
        verdicts.append(
            Verdict(
                rules.NEXT_RACE,
                f"{first}, the first eliminated in the previous race, starts",
                {"first": first},
            )
        )
    assert isinstance(first, str)
    order = turn_order(state.players, first)
    start = card - 1
    race = Race(
        number=len(state.races) + 1,
        start=start,
        first=first,
        order=order,
        pos=tuple(start for _ in state.camels),
        marker=start,
    )
    tiles = state.tiles
    reshuffled = event.get("reshuffled", False)
    if not isinstance(reshuffled, bool):
        raise EventError('"reshuffled" must be true or false')
    if reshuffled:
        tiles = TileMemory(state.options.tiles)
    names = [state.camels[c].id for c in order]
    verdicts.insert(
        0,
        Verdict(
            rules.START,
            f"race {race.number}: all camels and the marker stone on card {card}",
            {"card": card, "race": race.number, "reshuffled": reshuffled},
        ),
    )
    rule = rules.TWO_PLAYERS if len(state.players) == 2 else rules.CLOCKWISE
    verdicts.append(Verdict(rule, f"turn order: {', '.join(names)}", {"order": names}))
    return Step(replace(state, races=(*state.races, race), tiles=tiles, last_tile=None), tuple(verdicts))


def _running(state: CamelState, what: str) -> Race:
    race = state.running
    if race is None:
        hint = (
            "lay out the ring and start a race"
            if state.layout is None
            else "start a race (choose the start card)"
        )
        raise EventError(f"no race is running, so there is nothing to {what}; {hint}")
    return race


def _apply_flip(state: CamelState, event: Mapping[str, Any]) -> Step[CamelState]:
    race = _running(state, "turn")
    opts = state.options
    camel = state.camels[race.mover]
    named = event.get("camel")
    if named is not None and named != camel.id:
        # A console showing an old screen, or a second console: refuse rather than move the wrong camel.
        raise EventError(f"it is {camel.id}'s turn, not {named}'s")
    verdicts: list[Verdict] = []
    tile: int | None = None
    if opts.tile_grid == LOOSE:
        if event.get("tile") is not None:
            raise EventError(
                "with loose tiles the referee does not track where tiles lie; enter only the number shown"
            )
    else:
        if "tile" not in event:
            raise EventError('say which tile was turned: "tile": [row, column]')
        tile = parse_tile(event["tile"])
        if tile in race.this:
            raise RuleViolation(
                f"tile {tile_name(tile)} was already turned in this turn; at least one turn must come "
                "between two turnings of the same card: turn another tile",
                rules.ONE_TURN_BETWEEN,
            )
        if tile in race.before:
            raise RuleViolation(
                f"tile {tile_name(tile)} was turned by the last player; at least one turn must come "
                "between two turnings of the same card: turn another tile",
                rules.ONE_TURN_BETWEEN,
            )
    shows = parse_number(event.get("shows"), "shows")
    under = event.get("under")
    if under is not None:
        if not opts.remember_under:
            raise EventError(
                "the number under the tile is not taken: the option remember_under is off (memory is the game)"
            )
        under = parse_number(under, "under")
    tiles = state.tiles
    if tile is not None:
        tiles, clashes = tiles.flip(tile, shows, under)
        for clash in clashes:
            verdicts.append(
                Verdict(
                    rules.TILE_MEMORY,
                    f"{clash}: the entry stands; if it was mistyped, undo it and enter it again",
                    {"tile": list(tile_label(tile)), "shows": shows, "under": under},
                )
            )
    race = replace(race, this=(*race.this, tile) if tile is not None else race.this)
    result = move(race, state.layout or "", state.camels, shows, opts.elimination)
    race = result.race
    first = result.verdicts[0]
    turned = f"tile {tile_name(tile)} shows {shows}" if tile is not None else f"the tile shows {shows}"
    verdicts[:0] = [
        replace(
            first,
            summary=f"{turned}: {first.summary}",
            evidence={**first.evidence, "tile": list(tile_label(tile)) if tile is not None else None},
        ),
        *result.verdicts[1:],
    ]
    last_tile = (tile, shows, camel.number)
    state = replace(state, tiles=tiles, last_tile=last_tile)
    if race.over:
        return Step(*_race_won(replace(state, races=(*state.races[:-1], race)), verdicts))
    if result.oasis:
        race = replace(race, on_oasis=True)
        state = replace(state, races=(*state.races[:-1], race))
        if opts.tile_grid != LOOSE and not legal_tiles(state):
            verdicts.append(
                Verdict(
                    rules.NO_TILE_LEFT, f"every tile is barred for {camel.id}: the turn ends on the oasis", {}
                )
            )
            race = race.next_turn()
    else:
        race = race.next_turn()
    return Step(replace(state, races=(*state.races[:-1], race)), tuple(verdicts))


def _race_won(state: CamelState, verdicts: list[Verdict]) -> tuple[CamelState, tuple[Verdict, ...]]:
    race = state.races[-1]
    assert race.winner is not None
    wins = list(state.wins)
    wins[state.players.index(race.winner)] += 1
    state = replace(state, wins=tuple(wins))
    played = state.races_won()
    target = state.options.races
    if target and played >= target:
        leaders = state.leaders()
        tally = dict(zip(state.players, state.wins, strict=True))
        if len(leaders) == 1:
            state = replace(state, finished=True, winner=leaders[0])
            verdicts.append(
                Verdict(
                    rules.NIGHT_END,
                    f"{played} races run: {leaders[0]} wins the night with {max(wins)} race wins",
                    {"race_wins": tally},
                )
            )
        else:
            verdicts.append(
                Verdict(
                    rules.NIGHT_END,
                    f"{played} races run and {' and '.join(leaders)} are level: a deciding race follows",
                    {"race_wins": tally, "level": list(leaders)},
                )
            )
    return state, tuple(verdicts)


def _apply_stop(state: CamelState, event: Mapping[str, Any]) -> Step[CamelState]:
    race = _running(state, "stop")
    if not race.on_oasis:
        raise EventError("a turn can be ended early only on an oasis; turn a tile")
    if state.options.oasis != MAY:
        raise RuleViolation(
            "with the option oasis = must, a camel on an oasis turns another tile", rules.OASIS
        )
    name = state.camels[race.mover].id
    card = race.pos[race.mover]
    verdict = Verdict(
        rules.OASIS_STOP,
        f"{name} rests on the oasis on card {card_label(card or 0)}: turn over",
        {"camel": name},
    )
    return Step(replace(state, races=(*state.races[:-1], race.next_turn())), (verdict,))


def _apply_end(state: CamelState, event: Mapping[str, Any]) -> Step[CamelState]:
    verdicts: list[Verdict] = []
    races = state.races
    race = state.running
    if race is not None:
        races = (*races[:-1], replace(race, abandoned=True))
        verdicts.append(
            Verdict(rules.ABANDON, f"race {race.number} is abandoned: nobody wins it", {"race": race.number})
        )
    state = replace(state, races=races)
    tally = dict(zip(state.players, state.wins, strict=True))
    leaders = state.leaders()
    if state.races_won() == 0:
        summary, winner = "the night ends before any race was won", None
    elif len(leaders) == 1:
        winner = leaders[0]
        summary = f"the night ends: {winner} wins it with {max(state.wins)} race wins"
    else:
        winner = None
        summary = f"the night ends with {' and '.join(leaders)} level on {max(state.wins)} race wins: they share the title"
    verdicts.append(Verdict(rules.NIGHT_END, summary, {"race_wins": tally, "leaders": list(leaders)}))
    return Step(replace(state, finished=True, winner=winner), tuple(verdicts))


_HANDLERS = {
    "layout": _apply_layout,
    "deal": _apply_deal,
    "start": _apply_start,
    "flip": _apply_flip,
    "stop": _apply_stop,
    "end": _apply_end,
}

ENGINE = CamelEngine()
