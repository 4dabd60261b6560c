"""``referee export-night``: a night as one replayable JSON Lines file, or a printable page."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from referee.daemon import JOURNAL_FILE, default_data_dir
from referee.journal import JournalError
from referee.night_data import ReadingJournal, load_night
from referee.night_print import render_page, save_page
from referee.night_record import night_lines
from referee.nights import NightError, Nights

NAME = "export-night"
HELP = "export a game night: every game as JSON Lines (replayable), or a one-page summary (.pdf, .png)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", type=Path, default=None,
                        help="the referee's data folder (default $XDG_DATA_HOME/referee; the Pi: /var/lib/referee)")  # fmt: skip
    parser.add_argument(
        "--night", type=int, default=None, help="the night's number (default: the open or latest)"
    )
    parser.add_argument("--out", type=Path, required=True, help="FILE.jsonl, FILE.pdf or FILE.png")


def export(journal_path: Path, night_id: int | None, out: Path) -> str:
    """Write the export; returns a line for people. Raises ValueError/JournalError/NightError."""
    suffix = out.suffix.lower()
    if suffix not in (".jsonl", ".pdf", ".png"):
        raise ValueError(f"--out must end in .jsonl, .pdf or .png, not {out.name!r}")
    journal = ReadingJournal(journal_path)
    try:
        nights = Nights(journal)
        if night_id is None:
            current = nights.current()
            if current is None:
                raise NightError("this journal has no night yet: play a game first")
            night_id = current.id
        loaded = load_night(journal, night_id)
    finally:
        journal.close()
    if suffix == ".jsonl":
        pairs = [
            ({**header, "night": loaded.night.name, "game_id": game.id}, events)
            for game, header, events in loaded.games
        ]
        out.write_text("".join(line + "\n" for line in night_lines(pairs)), encoding="utf-8")
    else:
        save_page(render_page(loaded.night.name, loaded.night.started_at, loaded.standings()), out)
    return f"{loaded.night.name}: {len(loaded.games)} games written to {out}"


def run(args: argparse.Namespace) -> int:
    data = args.data or default_data_dir()
    try:
        print(export(data / JOURNAL_FILE, args.night, args.out))
    except (ValueError, JournalError, NightError) as exc:
        print(f"referee export-night: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"referee export-night: cannot write {args.out}: {exc.strerror}", file=sys.stderr)
        return 2
    return 0
