"""Theme cards as editable data (``referee/data/djam/themes.toml``).

>>> theme_card(1)[0]
'Personnalités'
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import cache
from importlib import resources
from typing import Any

THEMES_PER_CARD = 6


class ThemeDataError(ValueError):
    """The theme file or a game's own themes are not six named themes per card."""


def parse_cards(data: Mapping[str, Any]) -> dict[int, tuple[str, ...]]:
    """Cards by number from the parsed TOML; raises ThemeDataError naming what is wrong."""
    cards: dict[int, tuple[str, ...]] = {}
    for i, card in enumerate(data.get("card", []), start=1):
        number = card.get("number") if isinstance(card, Mapping) else None
        if not isinstance(number, int) or isinstance(number, bool) or number < 1:
            raise ThemeDataError(f"card {i} of the theme file needs a 'number' (1, 2, …)")
        if number in cards:
            raise ThemeDataError(f"card number {number} appears twice in the theme file")
        cards[number] = check_themes(card.get("themes"), f"card {number}")
    if not cards:
        raise ThemeDataError("the theme file has no [[card]]")
    return cards


def check_themes(themes: object, where: str) -> tuple[str, ...]:
    """Six non-empty theme names, trimmed."""
    if not isinstance(themes, list | tuple) or len(themes) != THEMES_PER_CARD:
        raise ThemeDataError(f"{where} must list exactly {THEMES_PER_CARD} themes")
    names = []
    for theme in themes:
        if not isinstance(theme, str) or not theme.strip():
            raise ThemeDataError(f"{where}: every theme needs a name")
        names.append(theme.strip())
    return tuple(names)


@cache
def cards() -> dict[int, tuple[str, ...]]:
    """The theme cards shipped with the referee, read once."""
    text = resources.files("referee").joinpath("data/djam/themes.toml").read_text(encoding="utf-8")
    return parse_cards(tomllib.loads(text))


def theme_card(number: int) -> tuple[str, ...]:
    try:
        return cards()[number]
    except KeyError:
        known = ", ".join(map(str, sorted(cards())))
        raise ThemeDataError(f"there is no theme card {number}; the cards are {known}") from None
