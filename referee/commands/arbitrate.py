"""``referee arbitrate FILE.jsonl``: settle one contest after the fact from its timestamped lines."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from referee.arbitration import (
    DEFAULT_MIN_REACTION_NS,
    TIE_WINDOW_NS,
    Contest,
    Press,
    Release,
    arbitrate,
)

NAME = "arbitrate"
HELP = "rank the presses of one contest (arm/press/release lines, any order) and print the verdict"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, help='lines {"type": "arm"|"press"|"release", ...}; - for stdin')
    parser.add_argument(
        "--tie-window-ns",
        type=int,
        default=None,
        help="presses closer than this are a tie (default: from the arm line's "
        '"clock", else 100000 for the GPIO path)',
    )
    parser.add_argument(
        "--min-reaction-ns",
        type=int,
        default=DEFAULT_MIN_REACTION_NS,
        help="a press sooner than this after the call is a false start (default 100 ms)",
    )
    parser.add_argument(
        "--timeout-ns", type=int, default=None, help="presses later than this after the call do not count"
    )


class InputError(ValueError):
    pass


def _int(line: int, obj: dict[str, Any], key: str) -> int:
    value = obj.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise InputError(f"line {line}: {key!r} must be an integer number of nanoseconds")
    return value


def parse(text: str) -> tuple[dict[str, Any], list[Press], list[Release]]:
    arm: dict[str, Any] | None = None
    presses: list[Press] = []
    releases: list[Release] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as exc:
            raise InputError(f"line {number}: not valid JSON ({exc.msg})") from None
        if not isinstance(obj, dict):
            raise InputError(f"line {number}: each line must be a JSON object")
        kind = obj.get("type")
        if kind == "arm":
            if arm is not None:
                raise InputError(f"line {number}: a second arm line; one contest per file")
            seats = obj.get("seats")
            if not isinstance(seats, list) or not seats or not all(isinstance(s, str) for s in seats):
                raise InputError(f"line {number}: 'seats' must be a non-empty list of names")
            if len(set(seats)) != len(seats):
                raise InputError(f"line {number}: a seat is listed twice")
            arm = {"t_ns": _int(number, obj, "t_ns"), "seats": seats, "clock": obj.get("clock", "lgpio")}
        elif kind in ("press", "release"):
            seat = obj.get("seat")
            if not isinstance(seat, str):
                raise InputError(f"line {number}: 'seat' must be a name")
            cls = Press if kind == "press" else Release
            (presses if kind == "press" else releases).append(cls(seat, _int(number, obj, "t_ns")))  # type: ignore[arg-type]
        else:
            raise InputError(f"line {number}: unknown type {kind!r}; expected arm, press or release")
    if arm is None:
        raise InputError("no arm line: the verdict needs the time of the call")
    return arm, presses, releases


def run(args: argparse.Namespace) -> int:
    try:
        text = sys.stdin.read() if str(args.file) == "-" else args.file.read_text(encoding="utf-8")
        arm, presses, releases = parse(text)
        clock = str(arm["clock"])
        window = (
            args.tie_window_ns
            if args.tie_window_ns is not None
            else TIE_WINDOW_NS.get(clock, TIE_WINDOW_NS["lgpio"])
        )
        contest = Contest(
            arm["t_ns"], tuple(arm["seats"]), window, args.min_reaction_ns, args.timeout_ns, clock
        )
    except OSError as exc:
        print(f"referee arbitrate: cannot read {args.file}: {exc.strerror}", file=sys.stderr)
        return 2
    except (InputError, ValueError, UnicodeDecodeError) as exc:
        print(f"referee arbitrate: {args.file}: {exc}", file=sys.stderr)
        return 1
    json.dump(arbitrate(contest, presses, releases).to_json(), sys.stdout, ensure_ascii=False, indent=2)
    sys.stdout.write("\n")
    return 0
