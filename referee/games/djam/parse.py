"""Reading the fields of Djam's events; every error says which field and what to do."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from referee.games.base import EventError
from referee.games.djam.letters import BLACK, COLOURS, WordError, fold_die_letter
from referee.games.djam.model import OPEN_THEMES, Dice, Settings


def player(settings: Settings, event: Mapping[str, Any], key: str = "player") -> str:
    name = event.get(key)
    if not isinstance(name, str) or not name:
        raise EventError(f'the event needs "{key}": the name of a player')
    if name not in settings.players:
        raise EventError(f"{name!r} is not a player of this game ({', '.join(settings.players)})")
    return name


def whole(event: Mapping[str, Any], key: str, lo: int, hi: int) -> int:
    """A whole number field; digit strings from a form are accepted ("3")."""
    value = event.get(key)
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value.strip())
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise EventError(f'"{key}" must be a whole number from {lo} to {hi}, not {event.get(key)!r}')
    return value


def flag(event: Mapping[str, Any], key: str, default: bool) -> bool:
    value = event.get(key, default)
    if value is None:
        return default
    if not isinstance(value, bool):
        raise EventError(f'"{key}" must be true or false, not {value!r}')
    return value


def choice(event: Mapping[str, Any], key: str, choices: tuple[str, ...], default: str) -> str:
    value = event.get(key, default)
    if value is None or value == "":
        return default
    if value not in choices:
        raise EventError(f'"{key}" must be one of {", ".join(choices)}, not {value!r}')
    return value


def dice(settings: Settings, event: Mapping[str, Any]) -> Dice:
    """A roll from a ``dice`` event: one letter per colour, the colour die, the theme (1–6)."""
    letters = []
    for colour in COLOURS:
        if colour not in event:
            raise EventError(f'the dice event needs "{colour}": the letter on the {colour} die')
        try:
            letters.append(fold_die_letter(event[colour], colour))
        except WordError as exc:
            raise EventError(str(exc)) from None
    colour = event.get("colour")
    if colour not in (*COLOURS, BLACK):
        raise EventError(
            f'"colour" (the colour die) must be one of {", ".join((*COLOURS, BLACK))}, not {colour!r}'
        )
    theme: int | None
    if settings.variant == OPEN_THEMES:
        if event.get("theme") not in (None, ""):
            raise EventError("Open themes uses no numbered die: leave out the theme")
        theme = None
    else:
        if event.get("theme") in (None, ""):
            raise EventError('the dice event needs "theme": the numbered die, 1 to 6')
        theme = whole(event, "theme", 1, len(settings.themes))
    return Dice(tuple(letters), colour, theme)


def name_list(settings: Settings, event: Mapping[str, Any], key: str) -> tuple[str, ...]:
    names = event.get(key)
    if not isinstance(names, list | tuple):
        raise EventError(f'"{key}" must be a list of player names')
    seen: list[str] = []
    for name in names:
        if not isinstance(name, str) or name not in settings.players:
            raise EventError(
                f"{name!r} in {key!r} is not a player of this game ({', '.join(settings.players)})"
            )
        if name in seen:
            raise EventError(f"{name} is listed twice in {key!r}")
        seen.append(name)
    return tuple(seen)
