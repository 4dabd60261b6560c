"""``referee read-dice IMAGE``: read the Djam dice in a photo of the tray.

    $ referee read-dice roll.jpg --json
    {"letters": {"green": "B", "white": "O", ...}, "colour": "green", "theme": 1, "confidence": 0.98, ...}

Exit status: 0 when the dice were read (check "certain": false means the referee would ask),
1 when the image cannot be used, 2 when the file cannot be read.
"""

from __future__ import annotations

import argparse
import json
import logging
import sys
from pathlib import Path

import cv2

from vision.dice_debug import draw_read
from vision.dice_image import ImageDecodeError, decode_image
from vision.dice_model import CalibrationDataError, DiceModel, default_data_dir, load_model
from vision.dice_read import DiceImageError, read_dice
from vision.dieset import DieSetError, load

NAME = "read-dice"
HELP = "read the Djam dice (five letters, the colour, the theme) from a photo of the tray"

log = logging.getLogger(__name__)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("image", type=Path, help="a photo of the dice tray (PNG, JPEG, BMP or WebP)")
    parser.add_argument("--json", action="store_true", help="print the whole read as JSON")
    parser.add_argument("--debug", type=Path, metavar="OUT.png", help="write the image with what was found")
    parser.add_argument(
        "--data",
        type=Path,
        default=None,
        help="the referee's data folder with calibrated dice (default: $XDG_DATA_HOME/referee)",
    )
    parser.add_argument("--dieset", type=Path, help="use this die set (TOML) instead of the calibrated one")


def model_from_args(args: argparse.Namespace) -> DiceModel:
    """The calibrated model of --data (or the default folder), with --dieset on top."""
    model = load_model(args.data if args.data is not None else default_data_dir())
    if getattr(args, "dieset", None):
        model = model.with_dieset(load(args.dieset))
    return model


def summary_line(read_json: dict) -> str:  # type: ignore[type-arg]
    letters = " ".join(f"{k}={v if v is not None else '?'}" for k, v in read_json["letters"].items())
    verdict = "certain" if read_json["certain"] else "ASK: " + "; ".join(read_json["doubts"])
    return (
        f"letters {letters}  colour={read_json['colour']}  theme={read_json['theme']}  "
        f"confidence={read_json['confidence']:.2f}  {verdict}"
    )


def run(args: argparse.Namespace) -> int:
    try:
        data = args.image.read_bytes()
    except OSError as exc:
        print(f"referee read-dice: cannot read {args.image}: {exc.strerror}", file=sys.stderr)
        return 2
    try:
        image = decode_image(data)
        model = model_from_args(args)
        read = read_dice(image, model)
    except ImageDecodeError as exc:
        print(f"referee read-dice: {args.image}: {exc}", file=sys.stderr)
        return 1
    except DiceImageError as exc:
        print(f"referee read-dice: {args.image}: {exc}", file=sys.stderr)
        return 1
    except (DieSetError, CalibrationDataError) as exc:
        print(f"referee read-dice: {exc}", file=sys.stderr)
        return 1
    result = read.to_json()
    log.debug("timings (ms): %s", read.timings_ms)
    if args.debug is not None:
        ok = cv2.imwrite(str(args.debug), draw_read(image, read))
        if not ok:
            print(f"referee read-dice: cannot write {args.debug} (use a .png or .jpg name)", file=sys.stderr)
            return 2
    if args.json:
        json.dump(result, sys.stdout, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        print(summary_line(result))
    return 0
