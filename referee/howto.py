"""Help at the table: a short "how to play" per game, and the rule behind a verdict.

The how-to texts are data (`referee/data/howto.toml`); the rules themselves come with every
verdict (rule id, rulebook source, quoted text), so "why did Carl win?" is answered by the
verdict that decided it.

>>> howto("fastest")["goal"]
'Be the first to press your button after the call.'
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Any


@cache
def _all() -> dict[str, dict[str, Any]]:
    text = resources.files("referee").joinpath("data/howto.toml").read_text("utf-8")
    return tomllib.loads(text)


def howto(game: str) -> dict[str, Any] | None:
    """The how-to of `game` (title, players, goal, steps, source), or None if there is none."""
    entry = _all().get(game)
    return None if entry is None else {"game": game, **entry}


def all_howtos() -> list[dict[str, Any]]:
    return [{"game": g, **entry} for g, entry in _all().items()]


def latest_verdicts(verdicts: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The verdicts of the latest event that gave any (a summary's ``verdicts``, oldest first)."""
    if not verdicts:
        return []
    last = verdicts[-1].get("event")
    return [dict(v) for v in verdicts if v.get("event") == last]
