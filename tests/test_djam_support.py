"""Helpers shared by the Djam tests: a game driven the way the daemon and the console drive it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from referee.fold import Fold
from referee.games.base import GameHeader, Verdict
from referee.games.djam.model import DjamState

FOUR = ("Ann", "Bob", "Cat", "Dan")
ROLL = {"green": "B", "white": "O", "yellow": "R", "red": "V", "blue": "A"}  # the rulebook's example


def new_game(variant: str = "classic", players: Sequence[str] = FOUR, **options: Any) -> Fold:
    return Fold.start(GameHeader("djam", variant, tuple(players), options))


def dice(colour: str = "green", theme: int | None = 1, **letters: str) -> dict[str, Any]:
    event: dict[str, Any] = {"type": "dice", **ROLL, **letters, "colour": colour}
    if theme is not None:
        event["theme"] = theme
    return event


def contest(*entries: str | Sequence[str]) -> dict[str, Any]:
    """A PressVerdict as the daemon sends it; a tuple entry is a tie."""
    ranking = [[e] if isinstance(e, str) else list(e) for e in entries]
    return {
        "type": "contest",
        "ranking": ranking,
        "margins_ns": [30_000_000] * max(len(ranking) - 1, 0),
        "tie_window_ns": 100_000,
        "clock": "mock",
    }


def word(player: str, text: str, **more: Any) -> dict[str, Any]:
    return {"type": "word", "player": player, "word": text, **more}


def play(fold: Fold, *events: Mapping[str, Any]) -> list[Verdict]:
    """Apply events in order; return every verdict given."""
    verdicts: list[Verdict] = []
    for event in events:
        verdicts += fold.apply(event).verdicts
    return verdicts


def state(fold: Fold) -> DjamState:
    return fold.state


def seats(fold: Fold) -> tuple[str, ...]:
    """The seats of the contest the engine wants now (none: empty)."""
    request = fold.engine.contest(fold.state)
    return () if request is None else request.seats


def rules(verdicts: Sequence[Verdict]) -> list[str]:
    return [v.rule.id for v in verdicts]


def conserved(s: DjamState) -> bool:
    return s.pool + s.centre + sum(s.tokens) == s.settings.total and min(s.tokens) >= 0
