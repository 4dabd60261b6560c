"""The game engines, found by name.

Each engine module in this package exposes ``ENGINE``; adding a game means adding a module,
never editing this file.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from typing import Any

from referee.games.base import EventError, GameEngine


@cache
def engines() -> dict[str, GameEngine[Any]]:
    """Every engine of this package by its record name (``"dschamal"``, ``"fastest"``, ...)."""
    found: dict[str, GameEngine[Any]] = {}
    for info in pkgutil.iter_modules(__path__):
        if info.name.startswith("_") or info.name == "base":
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        engine = getattr(module, "ENGINE", None)
        if engine is not None:
            found[engine.game] = engine
    return found


def engine_for(game: str) -> GameEngine[Any]:
    try:
        return engines()[game]
    except KeyError:
        known = ", ".join(sorted(engines()))
        raise EventError(f"unknown game {game!r}; this referee knows: {known}") from None
