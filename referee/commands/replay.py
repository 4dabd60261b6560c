"""``referee replay FILE``: fold a game record (or a night of them) and print the results as JSON.

A file with one game prints its final state; a night's file (several games, each starting with
its header line, see referee.night_record) prints a list with each game's final state and the
line its header is on.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from referee.night_record import replay_games_file
from referee.record import RecordError

NAME = "replay"
HELP = "replay a game record or a night's file (JSON Lines) and print the final state, scores and verdicts as JSON"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file",
        type=Path,
        help="the record: a header line, then one event per line; a night's file has one such block per game",
    )


def run(args: argparse.Namespace) -> int:
    try:
        games = replay_games_file(args.file)
    except OSError as exc:
        print(f"referee replay: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    except RecordError as exc:
        print(f"referee replay: {args.file}: {exc}", file=sys.stderr)
        return 1
    except UnicodeDecodeError:
        print(f"referee replay: {args.file} is not UTF-8 text", file=sys.stderr)
        return 1
    if len(games) == 1:
        result: object = games[0][1].summary()
    else:
        result = [{"line": line, **fold.summary()} for line, fold in games]
    json.dump(result, sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")
    return 0
