"""The Dschamál engine: events in, verdicts out (Duel, Tower, Trio, Quartet).

Each event is checked against what the game waits for (`console.awaiting`) before anything
moves (`handlers`); then the choices nobody has to make are made and a finished contest is
closed (`closing`). A refused event raises with a sentence for the scorekeeper and changes nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.games.base import Action, ContestRequest, EventError, GameHeader, RuleViolation, Step
from referee.games.dschamal import console
from referee.games.dschamal.closing import advance
from referee.games.dschamal.handlers import HANDLERS
from referee.games.dschamal.state import OPTION_SPECS, VARIANTS, DschamalState, Options, Table, initial_state
from referee.games.dschamal.summary import summary
from referee.games.dschamal.svg import render

PLAYERS = {"duel": (3, 8), "tower": (3, 6), "trio": (3, 8), "quartet": (3, 6)}


class DschamalEngine:
    """Dschamál under the engine contract of `referee.games.base` (see docs/games/dschamal.md)."""

    game = "dschamal"
    title = "Dschamál"
    variants = VARIANTS
    options = OPTION_SPECS
    min_players = 3
    max_players = 8

    def new_game(self, header: GameHeader) -> DschamalState:
        variant = header.variant or VARIANTS[0]
        if variant not in VARIANTS:
            raise EventError(f"Dschamál has no variant {variant!r}; choose one of {', '.join(VARIANTS)}")
        low, high = PLAYERS[variant]
        if not low <= len(header.players) <= high:
            raise EventError(
                f"the Dschamál {variant} is played by {low} to {high} players, not {len(header.players)}"
            )
        return initial_state(variant, tuple(header.players), Options.from_header(header.options))

    def apply(self, state: DschamalState, event: Mapping[str, Any]) -> Step[DschamalState]:
        kind = event.get("type")
        handler = HANDLERS.get(kind) if isinstance(kind, str) else None
        if handler is None:
            raise EventError(
                f"Dschamál has no event type {kind!r}; known types: {', '.join(sorted(HANDLERS))}"
            )
        if state.finished:
            raise RuleViolation(f"the game is over ({state.end}); undo the last event to change it")
        t = Table(state)
        handler(t, state, event)
        advance(t)
        return Step(t.freeze(), tuple(t.verdicts))

    def summary(self, state: DschamalState) -> dict[str, Any]:
        return summary(state)

    def actions(self, state: DschamalState) -> Sequence[Action]:
        return console.actions(state)

    def contest(self, state: DschamalState) -> ContestRequest | None:
        wait = console.awaiting(state)
        if wait.kind != "contest":
            return None
        seats = wait.players
        if len(seats) == 3:
            return ContestRequest(seats, f"Three-way contest: {', '.join(seats)}", "Dschamál!", "order", 30.0)
        label = "Decision duel" if state.decision else "Duel"
        return ContestRequest(seats, f"{label}: {seats[0]} against {seats[1]}", "Dschamál!", "first", 20.0)

    def render_svg(self, state: DschamalState) -> str:
        return render(state)
