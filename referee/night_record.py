"""A night as one JSON Lines file: every game's record, one after the other.

Each game starts with its header line (an object *without* a ``"type"``: every event has one);
the events that follow belong to it until the next header. A night's header lines also carry
``"night"`` (its name) and ``"game_id"``; replay ignores them. A file with one game is an
ordinary game record, so `referee replay` reads both.

    {"game": "fastest", "variant": "standard", "players": ["Anne", "Marc"], "night": "…", "game_id": 1}
    {"type": "contest", ...}
    {"game": "dschamal", "variant": "duel", "players": ["Anne", "Marc"], "night": "…", "game_id": 2}
    {"type": "start", ...}
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from referee.fold import Fold
from referee.record import RecordError, replay_lines


def night_lines(games: Iterable[tuple[Mapping[str, Any], Iterable[Mapping[str, Any]]]]) -> Iterator[str]:
    """The lines of a night file from (header, events) pairs."""
    for header, events in games:
        yield json.dumps(dict(header), ensure_ascii=False)
        for event in events:
            yield json.dumps(dict(event), ensure_ascii=False)


def _is_header(text: str) -> bool:
    try:
        value = json.loads(text)
    except json.JSONDecodeError:
        return False
    return isinstance(value, dict) and "type" not in value


def split_games(lines: Iterable[str]) -> list[tuple[int, list[str]]]:
    """The file cut into games: (line number of the header, the game's lines)."""
    games: list[tuple[int, list[str]]] = []
    for number, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text:
            if games:
                games[-1][1].append("")  # keep line numbers right within a game
            continue
        if not games or _is_header(text):
            games.append((number, [text]))
        else:
            games[-1][1].append(text)
    return games


def replay_games(lines: Iterable[str]) -> list[tuple[int, Fold]]:
    """Fold every game of a file; a bad line raises RecordError with its line number in the file."""
    out: list[tuple[int, Fold]] = []
    for start, chunk in split_games(lines):
        try:
            out.append((start, replay_lines(chunk)))
        except RecordError as exc:
            raise RecordError(start + exc.line - 1, exc.reason) from None
    if not out:
        raise RecordError(1, "the record is empty; the first line must be the game header")
    return out


def replay_games_file(path: Path) -> list[tuple[int, Fold]]:
    with path.open(encoding="utf-8") as f:
        return replay_games(f)
