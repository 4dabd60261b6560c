"""``referee markers --out FILE``: print the marker stickers for the Djambi pieces and board."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from vision.markers_sheet import COMMON_DIAMETERS_MM, DEFAULT_SQUARE_MM, sheet_pages, write_sheet

NAME = "markers"
HELP = "write the sticker sheet (PDF or PNG) of the 72 piece faces and 4 board corner markers"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--out", type=Path, required=True, help="the file to write: .pdf (pages) or .png (pages stacked)"
    )
    parser.add_argument(
        "--diameter",
        type=float,
        action="append",
        metavar="MM",
        help=f"piece diameter in mm (repeatable; default: {', '.join(f'{d:g}' for d in COMMON_DIAMETERS_MM)})",
    )
    parser.add_argument(
        "--square",
        type=float,
        default=DEFAULT_SQUARE_MM,
        metavar="MM",
        help="board square size in mm, for the corner markers",
    )
    parser.add_argument("--dpi", type=int, default=300, help="print resolution (default 300)")


def run(args: argparse.Namespace) -> int:
    diameters = tuple(args.diameter) if args.diameter else COMMON_DIAMETERS_MM
    try:
        pages = sheet_pages(diameters, args.square, args.dpi)
        write_sheet(args.out, pages, args.dpi)
    except ValueError as exc:
        print(f"referee markers: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"referee markers: cannot write {args.out}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(
        f"wrote {args.out}: {len(pages)} pages, pieces of {', '.join(f'{d:g}' for d in diameters)} mm, squares of {args.square:g} mm"
    )
    return 0
