"""A night's games read from the journal, folded, ready for the standings and the exports."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.fold import Fold
from referee.games.base import EventError, GameHeader
from referee.journal import Journal, JournalError
from referee.nights import Night, Nights
from referee.standings import NightGame, Standings, standings

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class LoadedNight:
    night: Night
    games: tuple[tuple[NightGame, Mapping[str, Any], list[dict[str, Any]]], ...]  # game, header, events
    close_call_ns: int

    def standings(self) -> Standings:
        return standings([g for g, _, _ in self.games], self.close_call_ns)


def night_game(game_id: int, fold: Fold) -> NightGame:
    contests = tuple((a.index, dict(a.event)) for a in fold.applied if a.event.get("type") == "contest")
    return NightGame(
        id=game_id,
        game=fold.header.game,
        title=fold.engine.title,
        variant=fold.header.variant,
        players=fold.header.players,
        summary=fold.summary(),
        contests=contests,
    )


def fold_stored(header: Mapping[str, Any], events: list[dict[str, Any]]) -> Fold:
    """Fold a stored game; an event that no longer replays stops the fold there (logged)."""
    fold = Fold.start(GameHeader.from_json(header))
    for i, event in enumerate(events):
        try:
            fold.apply(event)
        except EventError as exc:
            log.error("event %d no longer replays: %s", i, exc)
            break
    return fold


def load_night(journal: Journal, night_id: int, folds: Mapping[int, Fold] | None = None) -> LoadedNight:
    """The night's games in the order played; `folds` reuses games already folded (the daemon's)."""
    nights = Nights(journal)
    night = nights.get(night_id)
    games = []
    for stored in journal.games(night_id):
        events = [e.payload for e in journal.events(stored.id)]
        try:
            fold = folds[stored.id] if folds and stored.id in folds else fold_stored(stored.header, events)
        except EventError as exc:
            log.error("game %d cannot be folded: %s", stored.id, exc)
            continue
        games.append((night_game(stored.id, fold), stored.header, events))
    close_ns = int(nights.settings(night_id).close_call_ms * 1e6)
    return LoadedNight(night, tuple(games), close_ns)


class ReadingJournal(Journal):
    """The journal opened for reading only, beside a running daemon (sees its latest commits)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        if not path.exists():
            raise JournalError(f"there is no journal at {path}; pass the referee's data folder with --data")
        try:
            self._db = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
            self._db.execute("SELECT COUNT(*) FROM nights").fetchone()
        except sqlite3.Error as exc:
            raise JournalError(f"cannot read the journal {path}: {exc}") from exc

    def _write(self, sql: str, params: tuple[Any, ...]) -> int:
        raise JournalError("this journal was opened for reading only")
