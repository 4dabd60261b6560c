"""Game records as JSON Lines: a header line, then one event per line.

    {"game": "fastest", "variant": "standard", "players": ["Anne", "Marc"], "options": {}}
    {"type": "contest", "ranking": [["Anne"], ["Marc"]], "margins_ns": [37000000], ...}

A record replays anywhere to the same result (``referee replay FILE``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from referee.fold import Fold
from referee.games.base import EventError, GameHeader


class RecordError(ValueError):
    """A record that cannot be replayed; names the line (1-based) and the reason."""

    def __init__(self, line: int, reason: str) -> None:
        super().__init__(f"line {line}: {reason}")
        self.line = line
        self.reason = reason


def _objects(lines: Iterable[str]) -> Iterator[tuple[int, dict[str, Any]]]:
    for number, raw in enumerate(lines, start=1):
        text = raw.strip()
        if not text:
            continue
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(number, f"not valid JSON ({exc.msg} at column {exc.colno})") from None
        if not isinstance(value, dict):
            raise RecordError(number, "each line must be a JSON object")
        yield number, value


def replay_lines(lines: Iterable[str]) -> Fold:
    """Fold a record; raises RecordError naming the first bad line."""
    objects = _objects(lines)
    try:
        number, head = next(objects)
    except StopIteration:
        raise RecordError(1, "the record is empty; the first line must be the game header") from None
    try:
        fold = Fold.start(GameHeader.from_json(head))
    except EventError as exc:
        raise RecordError(number, str(exc)) from None
    for number, event in objects:
        try:
            fold.apply(event)
        except EventError as exc:
            raise RecordError(number, str(exc)) from None
    return fold


def replay_file(path: Path) -> Fold:
    with path.open(encoding="utf-8") as f:
        return replay_lines(f)


def record_lines(header: GameHeader, events: Iterable[Mapping[str, Any]]) -> Iterator[str]:
    yield json.dumps(header.to_json(), ensure_ascii=False)
    for event in events:
        yield json.dumps(dict(event), ensure_ascii=False)
