"""``referee replay FILE``: fold a game record and print the final state as JSON."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from referee.record import RecordError, replay_file

NAME = "replay"
HELP = "replay a game record (JSON Lines) and print the final state, scores and verdicts as JSON"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, help="the game record: a header line, then one event per line")


def run(args: argparse.Namespace) -> int:
    try:
        fold = replay_file(args.file)
    except OSError as exc:
        print(f"referee replay: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    except RecordError as exc:
        print(f"referee replay: {args.file}: {exc}", file=sys.stderr)
        return 1
    except UnicodeDecodeError:
        print(f"referee replay: {args.file} is not UTF-8 text", file=sys.stderr)
        return 1
    json.dump(fold.summary(), sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")
    return 0
