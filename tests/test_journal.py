"""The journal: append-only, synced, durable across reopen; failures are reported, never silent."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from referee.journal import Journal, JournalError, UnavailableJournal

HEADER = {"game": "fastest", "variant": "standard", "players": ["Anne", "Marc"], "options": {}}


def test_events_survive_reopening_in_order(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    journal = Journal(path)
    gid = journal.create_game(HEADER)
    for i in range(5):
        journal.append(gid, {"type": "note", "i": i, "text": "Buñuel"})
    journal.close()
    again = Journal(path)
    assert [e.payload["i"] for e in again.events(gid)] == [0, 1, 2, 3, 4]
    assert again.events(gid)[0].payload["text"] == "Buñuel"
    assert again.game(gid).header == HEADER  # type: ignore[union-attr]


def test_the_journal_is_in_wal_mode_with_full_sync(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    assert journal._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert journal._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_a_full_disk_raises_journal_error_and_keeps_what_was_written(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    gid = journal.create_game(HEADER)
    journal.append(gid, {"type": "note"})
    # SQLite's own "database or disk is full" path: cap the file at its current size.
    pages = journal._db.execute("PRAGMA page_count").fetchone()[0]
    journal._db.execute(f"PRAGMA max_page_count = {pages}")
    with pytest.raises(JournalError, match="full"):
        for _ in range(1000):
            journal.append(gid, {"type": "note", "padding": "x" * 4000})
    assert journal.events(gid)[0].payload == {"type": "note"}


def test_settings_round_trip(tmp_path: Path) -> None:
    journal = Journal(tmp_path / "j.sqlite3")
    journal.set_setting("current_game", 3)
    journal.set_setting("current_game", 4)
    assert journal.setting("current_game") == 4
    assert journal.setting("missing", "x") == "x"


def test_an_unopenable_journal_refuses_every_write(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("not a folder")
    with pytest.raises(JournalError):
        Journal(tmp_path / "file" / "j.sqlite3")
    stand_in = UnavailableJournal(tmp_path / "file" / "j.sqlite3", "the folder is not writable")
    assert stand_in.games() == []
    with pytest.raises(JournalError, match="not writable"):
        stand_in.create_game(HEADER)


def test_a_damaged_file_is_reported(tmp_path: Path) -> None:
    path = tmp_path / "j.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    with pytest.raises((JournalError, sqlite3.DatabaseError)):
        Journal(path)
