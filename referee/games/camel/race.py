"""One race: the camels on the ring, the marker stone, and what one move does.

The caravan is read from the marker stone: a camel's place is its clockwise distance from the
marker card (0 = at the back), not the number of cards it has travelled. The marker is always
on the card of the rearmost living camel; ``move`` keeps that true after every move:

- a move that does not reach the marker card leaves the stone where it is, unless the camel that
  moved was the only one on it: then the stone follows to the new rearmost camel (the first card
  clockwise from the stone that holds a camel) — this is also how the last camel to leave the
  start card takes the stone along;
- a move that reaches or passes the marker card eliminates the camels there (and, with the
  default reading ``lapped``, every camel the move reaches or passes after it) and the stone
  moves onto the overhauling camel, now the rearmost;
- a snake sends the camel one card behind the rearmost and sets the stone back onto it; the
  two special cases of the rulebook are kept exactly.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from referee.games.base import Verdict
from referee.games.camel import rules
from referee.games.camel.ring import KIND_NAMES, OASIS, SIZE, SNAKE, ahead, card_label

LAPPED, MARKER_CARD = "lapped", "marker-card"


@dataclass(frozen=True)
class Camel:
    """A camel: `id` as people see it ("Anne", or "Anne 1" with two players), its owner, its number."""

    id: str
    player: str
    number: int  # fixed for the whole night: colour and place on a card in the picture


@dataclass(frozen=True)
class Race:
    """The state of one race. Cards are indices 0–15; ``pos[c] is None`` once camel c is out."""

    number: int  # 1 for the first race of the night
    start: int  # the start card
    first: str  # the player who started
    order: tuple[int, ...]  # camel numbers in turn order, starting with the first to play
    pos: tuple[int | None, ...]  # card of each camel by camel number; None = eliminated
    marker: int
    out: tuple[int, ...] = ()  # camels eliminated, in order
    players_out: tuple[str, ...] = ()  # players eliminated (all their camels out), in order
    turn: int = 0  # index into `order` of the camel whose turn it is
    turns: int = 1  # turns begun, this one included
    before: frozenset[int] = frozenset()  # tiles turned in the previous turn
    this: tuple[int, ...] = ()  # tiles turned so far in this turn
    on_oasis: bool = False  # the camel of this turn stands on an oasis and may turn again
    marker_left_start: bool = False
    winner: str | None = None
    abandoned: bool = False

    @property
    def over(self) -> bool:
        return self.winner is not None or self.abandoned

    @property
    def mover(self) -> int:
        return self.order[self.turn]

    def living(self) -> tuple[int, ...]:
        return tuple(c for c in self.order if self.pos[c] is not None)

    def on_card(self, card: int) -> tuple[int, ...]:
        """Living camels on `card`, in turn order."""
        return tuple(c for c in self.order if self.pos[c] == card)

    def distance(self, camel: int) -> int:
        """The camel's place in the caravan: cards clockwise from the marker (0 = at the back)."""
        card = self.pos[camel]
        assert card is not None, "an eliminated camel has no place in the caravan"
        return ahead(self.marker, card)

    def caravan(self) -> tuple[int, ...]:
        """Living camels from the back of the caravan to the front (ties in turn order)."""
        return tuple(sorted(self.living(), key=self.distance))

    def next_turn(self) -> Race:
        """The race with the turn passed to the next living camel in turn order."""
        n = len(self.order)
        turn = self.turn
        for step in range(1, n + 1):
            turn = (self.turn + step) % n
            if self.pos[self.order[turn]] is not None:
                break
        return replace(
            self, turn=turn, turns=self.turns + 1, before=frozenset(self.this), this=(), on_oasis=False
        )


@dataclass(frozen=True)
class MoveResult:
    race: Race
    verdicts: tuple[Verdict, ...]
    oasis: bool  # the camel landed on an oasis and the race goes on: it may turn again


def _rearmost_card(race: Race, pos: list[int | None], marker: int) -> int:
    """The first card clockwise from the marker (itself included) that holds a living camel."""
    for step in range(SIZE):
        card = (marker + step) % SIZE
        if card in pos:
            return card
    raise AssertionError("a race always has a living camel")


def move(race: Race, layout: str, camels: tuple[Camel, ...], steps: int, reading: str) -> MoveResult:
    """The camel whose turn it is moves `steps` cards clockwise; everything that follows from it.

    `reading` is the option ``elimination``: ``lapped`` (every camel the move reaches or passes
    from the marker card on is out) or ``marker-card`` (only the camels on the marker card).
    """
    c = race.mover
    name = camels[c].id
    p = race.pos[c]
    assert p is not None, "only a living camel has a turn"
    m = race.marker
    d = ahead(m, p)
    q = (p + steps) % SIZE
    # A camel reaches or passes the marker card when its move covers the whole way round to it;
    # the camel standing on the marker card (d == 0) would need 16 cards, more than a tile shows.
    passes = d > 0 and d + steps >= SIZE
    kind = layout[q]
    evidence: dict[str, Any] = {
        "camel": name,
        "from": card_label(p),
        "steps": steps,
        "lands": card_label(q),
        "card": KIND_NAMES[kind],
        "marker_before": card_label(m),
        "place_before": d,
    }
    pos = list(race.pos)

    if kind == SNAKE:
        return _snake(race, camels, c, p, q, d, passes, evidence)

    verdicts: list[Verdict] = []
    marker_left_start = race.marker_left_start
    out, players_out = list(race.out), list(race.players_out)
    if passes:
        # Cards from the marker card to the landing card, in the order the move reaches them.
        path = [(m + i) % SIZE for i in range(d + steps - SIZE + 1)] if reading == LAPPED else [m]
        victims = [v for card in path for v in _turn_order_from(race, c, race.on_card(card)) if v != c]
        spared = [
            v
            for i in range(1, d + steps - SIZE + 1)
            for v in race.on_card((m + i) % SIZE)
            if v != c and v not in victims
        ]
        for v in victims:
            pos[v] = None
        pos[c] = q
        marker = q
        marker_left_start = True
        out += victims
        for v in victims:
            owner = camels[v].player
            if owner not in players_out and all(pos[o.number] is None for o in camels if o.player == owner):
                players_out.append(owner)
        names = ", ".join(camels[v].id for v in victims)
        reach = "reaches" if d + steps == SIZE else "overhauls"
        verdicts.append(
            Verdict(
                rules.ELIMINATION,
                f"{name} {reach} the rearmost: {names} {'is' if len(victims) == 1 else 'are'} out; "
                f"the marker stone moves to card {card_label(q)} and {name} is now the rearmost",
                {
                    **evidence,
                    "eliminated": [camels[v].id for v in victims],
                    "passed_and_staying": [camels[v].id for v in spared],
                    "reading": reading,
                    "marker": card_label(q),
                },
            )
        )
        own = [camels[v].id for v in victims if camels[v].player == camels[c].player]
        if own:
            verdicts.append(
                Verdict(
                    rules.OWN_CAMEL,
                    f"{name} eliminates its owner's other camel {', '.join(own)}",
                    {"camel": name, "eliminated": own},
                )
            )
    else:
        pos[c] = q
        marker = _rearmost_card(race, pos, m)
        if marker != m:
            rule = rules.MARKER_FOLLOWS if marker_left_start else rules.MARKER_START
            marker_left_start = True
            back = [camels[v].id for v in race.order if pos[v] == marker]
            verdicts.append(
                Verdict(
                    rule,
                    f"the marker stone moves from card {card_label(m)} to card {card_label(marker)}, "
                    f"the rearmost: {', '.join(back)}",
                    {"from": card_label(m), "to": card_label(marker), "rearmost": back},
                )
            )
    race = replace(
        race,
        pos=tuple(pos),
        marker=marker,
        out=tuple(out),
        players_out=tuple(players_out),
        marker_left_start=marker_left_start,
    )
    landing = rules.OASIS if kind == OASIS else rules.DESERT
    alive_players = {camels[v].player for v in race.living()}
    if len(alive_players) == 1:
        winner = alive_players.pop()
        race = replace(race, winner=winner)
        verdicts.insert(
            0,
            Verdict(landing, f"{name} moves {steps} to card {card_label(q)} ({KIND_NAMES[kind]})", evidence),
        )
        verdicts.append(
            Verdict(
                rules.RACE_WINNER,
                f"{winner} is the last in the race and wins: Camel driver King!",
                {"winner": winner, "eliminated_in_order": list(race.players_out)},
            )
        )
        return MoveResult(race, tuple(verdicts), oasis=False)
    if kind == OASIS:
        summary = f"{name} moves {steps} to the oasis on card {card_label(q)} and may turn another tile"
    else:
        summary = f"{name} moves {steps} to card {card_label(q)} (desert): turn over"
    verdicts.insert(0, Verdict(landing, summary, evidence))
    return MoveResult(race, tuple(verdicts), oasis=kind == OASIS)


def _turn_order_from(race: Race, mover: int, group: tuple[int, ...]) -> list[int]:
    """`group` in the order their turns come after the mover's (the house tie-break)."""
    n = len(race.order)
    return sorted(group, key=lambda v: (race.order.index(v) - race.turn) % n)


def _snake(
    race: Race,
    camels: tuple[Camel, ...],
    c: int,
    p: int,
    q: int,
    d: int,
    passes: bool,
    evidence: dict[str, Any],
) -> MoveResult:
    name = camels[c].id
    m = race.marker
    if d == 0:
        # Special case 1: the rearmost (any camel on the marker card) goes back with the stone.
        verdict = Verdict(
            rules.REARMOST_ON_SNAKE,
            f"{name} is the rearmost and lands on the snake on card {card_label(q)}: "
            f"back to card {card_label(p)} with the marker stone; turn over",
            {**evidence, "placed": card_label(p), "marker": card_label(p)},
        )
        return MoveResult(race, (verdict,), oasis=False)
    behind = (m - 1) % SIZE
    sharing = [camels[v].id for v in race.on_card(behind) if v != c]
    pos = list(race.pos)
    pos[c] = behind
    facts = {**evidence, "placed": card_label(behind), "marker": card_label(behind)}
    if passes:
        # Special case 2: overhauling the rearmost but ending on a snake throws nobody out.
        verdict = Verdict(
            rules.OVERTAKER_ON_SNAKE,
            f"{name} overhauls the rearmost but ends on the snake on card {card_label(q)}: nobody is "
            f"out; {name} goes one card behind the rearmost, to card {card_label(behind)}, and the "
            "stone is set back there",
            facts,
        )
    else:
        verdict = Verdict(
            rules.SNAKE,
            f"{name} is bitten by the snake on card {card_label(q)}: to the back of the caravan, "
            f"card {card_label(behind)}, one card behind the rearmost; the stone goes with it; turn over",
            facts,
        )
    verdicts = [verdict]
    if sharing:
        verdicts.append(
            Verdict(
                rules.SNAKE_ONTO_LEADER,
                f"card {card_label(behind)} already holds {', '.join(sharing)}: the caravan fills the "
                f"ring, and {', '.join(sharing)} {'is' if len(sharing) == 1 else 'are'} now at the back too",
                {"card": card_label(behind), "camels": sharing},
            )
        )
    race = replace(race, pos=tuple(pos), marker=behind, marker_left_start=True)
    return MoveResult(race, tuple(verdicts), oasis=False)
