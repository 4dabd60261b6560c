"""Helpers shared by the Dschamál tests: a table to play on, button verdicts, a random legal player.

The random player drives the engine only through what it offers (`contest()` and `actions()`
with their legal choices), as a generic console would, so it also proves those complete.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from referee.arbitration import PressVerdict
from referee.fold import Fold
from referee.games.base import Action, ContestRequest, EventError, GameHeader, Verdict
from referee.games.dschamal.state import DschamalState, Order, Round

SEATING = ("Marc", "Anne", "Herman", "Carl", "Werner")  # clockwise, as the rulebook's examples need


def press(
    *ranking: str | Sequence[str], false_starts: Sequence[str] = (), no_press: Sequence[str] = ()
) -> dict[str, Any]:
    """A contest event: the seats in the order they pressed; a tuple is a tie."""
    entries = tuple((e,) if isinstance(e, str) else tuple(e) for e in ranking)
    t = 300_000_000
    reaction = {}
    for k, entry in enumerate(entries):
        for seat in entry:
            reaction[seat] = t + 40_000_000 * k
    verdict = PressVerdict(
        ranking=entries,
        margins_ns=tuple(40_000_000 for _ in entries[1:]),
        tie_window_ns=100_000,
        false_starts=tuple(false_starts),
        held_at_arm=(),
        no_press=tuple(no_press),
        arm_t_ns=0,
        clock="mock",
        reaction_ns=reaction,
    )
    return {"type": "contest", **verdict.to_json()}


class Table:
    """A game in progress through the real fold (undo included), with short event helpers."""

    def __init__(self, variant: str, players: Sequence[str] = SEATING, **options: Any) -> None:
        self.fold = Fold.start(GameHeader("dschamal", variant, tuple(players), options))
        self.events: list[dict[str, Any]] = []
        self.verdicts: list[Verdict] = []

    @property
    def state(self) -> DschamalState:
        return self.fold.state

    @property
    def summary(self) -> dict[str, Any]:
        return self.fold.summary()

    def request(self) -> ContestRequest:
        """The contest the referee waits for (failing the test if none is)."""
        request = self.fold.engine.contest(self.state)
        assert request is not None, "no contest is awaited"
        return request

    @property
    def round(self) -> Round:
        assert self.state.round is not None, "no contest is under way"
        return self.state.round

    def send(self, event: Mapping[str, Any]) -> tuple[Verdict, ...]:
        step = self.fold.apply(event)
        self.events.append(dict(event))
        self.verdicts.extend(step.verdicts)
        return step.verdicts

    def start(self, stones: Mapping[str, Sequence[str] | str], first: str | None = None) -> None:
        for player, mine in stones.items():
            self.send(
                {"type": "start", "player": player, "stones": [mine] if isinstance(mine, str) else list(mine)}
            )
        if first is not None:
            self.send({"type": "first", "player": first})

    def draw(self, player: str, stone: str, calls: Sequence[str] = ()) -> tuple[Verdict, ...]:
        event: dict[str, Any] = {"type": "draw", "player": player, "stone": stone}
        if calls:
            event["camel_calls"] = list(calls)
        return self.send(event)

    def duel(self, faster: str, stone: str, calls: Sequence[str] = ()) -> tuple[Verdict, ...]:
        """One duel: the pairing the referee asks for, `faster` first, `faster` drew `stone`."""
        seats = self.state.order.next
        slower = next(p for p in seats if p != faster)
        self.send(press(faster, slower))
        return self.draw(faster, stone, calls)

    def rules(self) -> list[str]:
        return [v.rule.id for v in self.verdicts]


def position(
    variant: str,
    holdings: Mapping[str, Sequence[str]],
    next: Sequence[str],
    players: Sequence[str] = SEATING,
    winning: Mapping[str, Sequence[str]] | None = None,
    black: Mapping[str, int] | None = None,
    lord: str = "",
    last_loser: str = "",
    **options: Any,
) -> Table:
    """A table set up mid-game: the stones are taken out of the bag, so the material still adds up."""
    table = Table(variant, players, **options)
    state = table.state
    bag = set(state.bag)
    winning = winning or {}
    black = black or {}
    for stones in (*holdings.values(), *winning.values()):
        for s in stones:
            bag.remove(s)  # KeyError: a stone given twice or out of the game
    seats = tuple(next)
    turn = seats[1] if len(seats) == 3 else seats[0]
    table.fold.state = replace(
        state,
        bag=frozenset(bag),
        front=tuple(tuple(holdings.get(p, ())) for p in players),
        winning=tuple(tuple(winning.get(p, ())) for p in players),
        black=tuple(black.get(p, 0) for p in players),
        bag_black=state.bag_black - sum(black.values()),
        started=frozenset(players),
        order=Order(next=seats, lord=lord, last_loser=last_loser, turn=turn),
    )
    return table


def win(table: Table, winner: str) -> None:
    """`winner` wins the duel the referee asks for: faster, with the camel and the call."""
    seats = table.state.order.next
    assert winner in seats, f"{winner} is not in the duel {seats}"
    loser = next(p for p in seats if p != winner)
    if table.summary["awaiting"]["kind"] == "decision":
        [decision] = table.fold.engine.actions(table.state)
        table.send({"type": "decision", "stone": decision.fields[0].choices[0]})
    table.send(press(winner, loser))
    table.draw(winner, "camel", [winner])
    while table.state.tasks:
        task = table.state.tasks[0]
        if task.kind == "take":
            table.send(
                {"type": "take", "player": winner, "from": loser, "stone": table.state.stones_of(loser)[0]}
            )
        else:
            table.send({"type": "reach", "player": winner, "stone": "none"})


# --- the random legal player -----------------------------------------------------------------------
def random_contest(rng: random.Random, seats: Sequence[str]) -> dict[str, Any]:
    roll = rng.random()
    order = list(seats)
    rng.shuffle(order)
    if roll < 0.04:
        return press()  # nobody pressed
    if roll < 0.08:
        return press(tuple(order[:2]), *order[2:])  # a tie for first
    if roll < 0.12:
        return press(*order[1:], false_starts=[order[0]])
    if len(order) == 3 and roll < 0.16:
        return press(order[0], tuple(order[1:]))
    return press(*order)


def random_value(rng: random.Random, field: Any) -> Any:
    choices = list(field.choices)
    if field.kind == "int":
        return rng.choice(choices[:4]) if choices else 0
    if field.kind == "choices":
        k = rng.randint(0 if not field.required else 1, min(len(choices), 3)) if choices else 0
        return rng.sample(choices, k)
    if field.kind == "seats":
        return [c for c in choices if rng.random() < 0.3]
    if not choices:
        return field.default
    return rng.choice(choices)


def pick_action(rng: random.Random, actions: Sequence[Action], state: DschamalState) -> dict[str, Any]:
    # Collapses are rare at a real table; drawing several stones at once too.
    weights = [0.05 if a.type == "collapse" else 0.08 if a.type == "several" else 1.0 for a in actions]
    action = rng.choices(list(actions), weights)[0]
    event: dict[str, Any] = {"type": action.type, **action.fixed}
    for field in action.fields:
        value = random_value(rng, field)
        if field.kind == "choice" and field.name == "stone" and action.type == "draw" and rng.random() < 0.6:
            value = _likely_stone(rng, field.choices, state)
        if action.type == "take" and rng.random() < 0.8:
            value = _wanted_stone(rng, field.choices, state.stones_of(event["player"])) or value
        event[field.name] = value
    return event


def _likely_stone(rng: random.Random, choices: Iterable[str], state: DschamalState) -> str:
    """Players feel for a shape that wins: one somebody in the contest owns, else any coloured one."""
    seats = state.round.seats if state.round else state.players
    owned = {s.split("/")[0] for p in seats for s in state.stones_of(p)}
    coloured = [c for c in choices if "/" in c]
    wanted = [c for c in coloured if c.split("/")[0] in owned]
    return rng.choice(wanted or coloured or list(choices))


def _wanted_stone(rng: random.Random, choices: Iterable[str], mine: Sequence[str]) -> str | None:
    """A taker chooses a stone of a shape he or she collects, as a real player would."""
    shapes = {s.split("/")[0] for s in mine}
    wanted = [c for c in choices if c.split("/")[0] in shapes]
    return rng.choice(wanted) if wanted else None


def random_game(
    seed: int,
    variant: str,
    n_players: int,
    max_events: int = 5000,
    table: Table | None = None,
    players: Sequence[str] = (),
    **options: Any,
) -> tuple[Table, list[DschamalState]]:
    """Play a legal game at random until it ends (or `max_events`), from the start or from `table`.

    Returns the table and every state it went through.
    """
    rng = random.Random(seed)
    if table is None:
        table = Table(variant, players or [f"P{i}" for i in range(n_players)], **options)
    engine = table.fold.engine
    states = [table.state]
    for _ in range(max_events):
        state = table.state
        if state.finished:
            break
        request = engine.contest(state)
        actions = engine.actions(state)
        contestants = [a for a in actions if a.type != "judged"]
        if request is not None and (not contestants or rng.random() < 0.97):
            event = random_contest(rng, request.seats)
        else:
            event = pick_action(rng, actions, state)
        try:
            table.send(event)
        except EventError:
            continue  # a random form entry the rules refuse (e.g. "several" with one stone)
        states.append(table.state)
    return table, states
