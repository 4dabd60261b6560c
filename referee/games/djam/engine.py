"""The Djam engine: the game's events folded into a `DjamState` (see docs/games/djam.md).

Events (besides the buttons' ``contest``): ``dice``, ``word``, ``root``, ``vote``, ``order``,
``pass``, ``end_round``, ``end_game``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from referee.games.base import Action, ContestRequest, EventError, GameHeader, Step
from referee.games.djam import console, play, svg, words
from referee.games.djam.model import UNLIMITED, VARIANTS, DjamState
from referee.games.djam.options import OPTIONS, settings_from_header
from referee.games.djam.summary import summary

Handler = Callable[[DjamState, Mapping[str, Any]], Step[DjamState]]

HANDLERS: dict[str, Handler] = {
    "dice": play.apply_dice,
    "contest": play.apply_contest,
    "order": play.apply_order,
    "pass": play.apply_pass,
    "word": words.apply_word,
    "root": words.apply_root_ruling,
    "vote": words.apply_vote,
    "end_round": play.apply_end_round,
    "end_game": play.apply_end_game,
}


class DjamEngine:
    game = "djam"
    title = "Djam"
    variants = VARIANTS
    options = OPTIONS
    min_players = 2
    max_players = 6

    def new_game(self, header: GameHeader) -> DjamState:
        settings = settings_from_header(header)
        n = len(settings.players)
        state = DjamState(settings=settings, tokens=(0,) * n, pool=settings.total, roller=settings.youngest)
        if settings.variant == UNLIMITED:
            state, _ = play.fill_centre(state)
        return state

    def apply(self, state: DjamState, event: Mapping[str, Any]) -> Step[DjamState]:
        kind = event.get("type")
        handler = HANDLERS.get(kind) if isinstance(kind, str) else None
        if handler is None:
            raise EventError(f"Djam has no event {kind!r}; its events are {', '.join(HANDLERS)}")
        return handler(state, event)

    def summary(self, state: DjamState) -> dict[str, Any]:
        return summary(state)

    def actions(self, state: DjamState) -> Sequence[Action]:
        return console.actions(state)

    def contest(self, state: DjamState) -> ContestRequest | None:
        return console.contest(state)

    def render_svg(self, state: DjamState) -> str:
        return svg.render(state)


ENGINE = DjamEngine()
