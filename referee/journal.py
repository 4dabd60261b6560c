"""The event journal: an append-only SQLite file, synced to disk before anything is acknowledged.

Every input that can change a game is appended here first (WAL mode, ``synchronous=FULL``, so a
commit has reached the disk when `append` returns). A game's state is never stored as truth: it
is the fold of its events (referee.fold), rebuilt by replay after a restart. Nothing is ever
deleted or updated; undo is an event like any other.

>>> import tempfile, pathlib
>>> j = Journal(pathlib.Path(tempfile.mkdtemp()) / "referee.sqlite3")
>>> gid = j.create_game({"game": "fastest", "variant": "standard", "players": ["Anne"]})
>>> j.append(gid, {"type": "undo"}).seq
1
>>> [e.payload["type"] for e in j.events(gid)]
['undo']
"""

from __future__ import annotations

import json
import logging
import sqlite3
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

SCHEMA = """
CREATE TABLE IF NOT EXISTS nights (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    started_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    night_id INTEGER REFERENCES nights(id),
    header TEXT NOT NULL,
    created_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id INTEGER NOT NULL REFERENCES games(id),
    at REAL NOT NULL,
    payload TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS events_by_game ON events(game_id, seq);
CREATE TABLE IF NOT EXISTS settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""


class JournalError(RuntimeError):
    """The journal cannot be written (read-only folder, full disk, damaged file).

    Inputs must be refused while this lasts: an input that is not journalled is not accepted.
    """


@dataclass(frozen=True)
class StoredEvent:
    seq: int
    game_id: int
    at: float  # wall-clock seconds, for people; ordering uses seq
    payload: dict[str, Any]


@dataclass(frozen=True)
class StoredGame:
    id: int
    night_id: int | None
    header: dict[str, Any]
    created_at: float


class Journal:
    """One SQLite file. Not thread-safe: the daemon uses it from its event loop only."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            # FULL: in WAL mode every commit syncs the WAL, so an acknowledged event survives power loss.
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(SCHEMA)
        except (sqlite3.Error, OSError) as exc:
            raise JournalError(f"cannot open the journal {path} for writing: {exc}") from exc

    def close(self) -> None:
        self._db.close()

    def _write(self, sql: str, params: tuple[Any, ...]) -> int:
        try:
            with self._db:  # BEGIN … COMMIT; the commit is synced before this returns
                self._db.execute("BEGIN IMMEDIATE")
                cursor = self._db.execute(sql, params)
        except sqlite3.Error as exc:
            log.error("journal write failed: %s", exc)
            raise JournalError(f"the journal {self.path} cannot be written: {exc}") from exc
        return int(cursor.lastrowid or 0)

    def create_night(self, name: str) -> int:
        return self._write("INSERT INTO nights(name, started_at) VALUES (?, ?)", (name, time.time()))

    def create_game(self, header: Mapping[str, Any], night_id: int | None = None) -> int:
        text = json.dumps(dict(header), ensure_ascii=False, sort_keys=True)
        return self._write(
            "INSERT INTO games(night_id, header, created_at) VALUES (?, ?, ?)", (night_id, text, time.time())
        )

    def append(self, game_id: int, payload: Mapping[str, Any]) -> StoredEvent:
        """Append one event and sync it to disk; only then may the caller act on it."""
        text = json.dumps(dict(payload), ensure_ascii=False, sort_keys=True)
        at = time.time()
        seq = self._write("INSERT INTO events(game_id, at, payload) VALUES (?, ?, ?)", (game_id, at, text))
        return StoredEvent(seq, game_id, at, json.loads(text))

    def set_setting(self, key: str, value: Any) -> None:
        self._write(
            "INSERT INTO settings(key, value) VALUES (?, ?) "
            "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
            (key, json.dumps(value)),
        )

    def setting(self, key: str, default: Any = None) -> Any:
        row = self._db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return default if row is None else json.loads(row[0])

    def games(self, night_id: int | None = None) -> list[StoredGame]:
        if night_id is None:
            rows = self._db.execute("SELECT id, night_id, header, created_at FROM games ORDER BY id")
        else:
            rows = self._db.execute(
                "SELECT id, night_id, header, created_at FROM games WHERE night_id = ? ORDER BY id",
                (night_id,),
            )
        return [StoredGame(r[0], r[1], json.loads(r[2]), r[3]) for r in rows]

    def game(self, game_id: int) -> StoredGame | None:
        row = self._db.execute(
            "SELECT id, night_id, header, created_at FROM games WHERE id = ?", (game_id,)
        ).fetchone()
        return None if row is None else StoredGame(row[0], row[1], json.loads(row[2]), row[3])

    def nights(self) -> list[tuple[int, str, float]]:
        return [tuple(r) for r in self._db.execute("SELECT id, name, started_at FROM nights ORDER BY id")]

    def events(self, game_id: int) -> list[StoredEvent]:
        rows = self._db.execute(
            "SELECT seq, game_id, at, payload FROM events WHERE game_id = ? ORDER BY seq", (game_id,)
        )
        return [StoredEvent(r[0], r[1], r[2], json.loads(r[3])) for r in rows]

    def event_count(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM events").fetchone()[0])


class ReadOnlyJournal(Journal):
    """The journal of a read-only folder or disk: the games can be shown, no input is accepted."""

    def __init__(self, path: Path, reason: str) -> None:
        self.path = path
        self.reason = reason
        try:
            # immutable=1: read without the WAL index, which a read-only folder cannot hold.
            self._db = sqlite3.connect(f"file:{path}?immutable=1", uri=True, check_same_thread=False)
            self._db.execute("SELECT COUNT(*) FROM events").fetchone()
        except sqlite3.Error as exc:
            raise JournalError(f"{reason}; reading it failed too: {exc}") from exc

    def _write(self, sql: str, params: tuple[Any, ...]) -> int:
        raise JournalError(self.reason)


class UnavailableJournal(Journal):
    """Stands in when the journal cannot even be opened: reads find nothing, writes are refused.

    The daemon still starts, so the display and console can say what is wrong.
    """

    def __init__(self, path: Path, reason: str) -> None:
        self.path = path
        self.reason = reason
        self._db = sqlite3.connect(":memory:")
        self._db.executescript(SCHEMA)

    def _write(self, sql: str, params: tuple[Any, ...]) -> int:
        raise JournalError(self.reason)
