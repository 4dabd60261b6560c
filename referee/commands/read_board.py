"""``referee read-board IMAGE``: read a photo of the Djambi board and print the position."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

from vision.board_debug import debug_image
from vision.board_geometry import BoardGeometry
from vision.board_reader import BoardImageError, calibrate, read_board

NAME = "read-board"
HELP = "read a camera image of the Djambi board: the 9×9 grid in the engine's notation (?? = cannot tell)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("image", type=Path, help="a photo or camera frame (JPEG, PNG, ...)")
    parser.add_argument(
        "--json", action="store_true", help="print JSON: every square with its state and confidence"
    )
    parser.add_argument(
        "--debug", type=Path, metavar="OUT.png", help="also write the image annotated with what was read"
    )
    parser.add_argument(
        "--board",
        type=Path,
        metavar="BOARD.json",
        help="the board's geometry and colours (default: the reference board)",
    )
    parser.add_argument(
        "--calibrate",
        type=Path,
        metavar="BOARD.json",
        help="measure the board's square colours on IMAGE (every square without a piece must be bare, "
        "no hands) and save them to BOARD.json for --board",
    )


def _load_image(path: Path) -> np.ndarray:
    data = np.fromfile(path, dtype=np.uint8)  # raises OSError for a missing file
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise BoardImageError(
            f"{path} is not an image OpenCV can decode (empty, truncated or another format)"
        )
    return image


def run(args: argparse.Namespace) -> int:
    try:
        geometry = BoardGeometry()
        if args.board:
            geometry = BoardGeometry.from_json(json.loads(args.board.read_text(encoding="utf-8")))
        image = _load_image(args.image)
        if args.calibrate:
            geometry = calibrate(image, geometry)
            args.calibrate.write_text(json.dumps(geometry.to_json(), indent=1) + "\n", encoding="utf-8")
            print(
                f"saved the board's colours to {args.calibrate}; read with --board {args.calibrate}",
                file=sys.stderr,
            )
        read = read_board(image, geometry)
    except OSError as exc:
        print(
            f"referee read-board: cannot read {exc.filename or args.image}: {exc.strerror or exc}",
            file=sys.stderr,
        )
        return 2
    except (BoardImageError, ValueError) as exc:
        print(f"referee read-board: {args.image}: {exc}", file=sys.stderr)
        return 1
    if args.debug:
        ext = args.debug.suffix.lower() or ".png"
        try:
            ok, buf = cv2.imencode(ext, debug_image(image, read))
        except cv2.error:
            ok, buf = False, None
        if not ok or buf is None:
            print(
                f"referee read-board: cannot encode a {ext} picture; name the debug file .png or .jpg",
                file=sys.stderr,
            )
            return 2
        try:
            args.debug.write_bytes(buf.tobytes())
        except OSError as exc:
            print(f"referee read-board: cannot write {args.debug}: {exc.strerror or exc}", file=sys.stderr)
            return 2
    if args.json:
        json.dump(read.to_json(), sys.stdout, indent=1)
        sys.stdout.write("\n")
        return 0
    print(read.grid_text())
    print()
    print(read.placement)
    unknown = read.unknown
    if unknown:
        print(f"cannot tell {len(unknown)} square(s): {' '.join(unknown)}")
    for region in read.regions:
        reach = " (reaches the board's edge)" if region.board_edge else ""
        print(
            f"over the board: {region.kind} on {' '.join(region.squares)}, {region.area:.1f} squares{reach}"
        )
    for problem in read.problems:
        print(f"impossible: {problem.message}")
    return 0
