"""``referee calibrate-dice``: teach the reader the user's own dice.

Roll, photograph, confirm. For each photo the reader shows what it sees; the labels given with
``--labels`` (or typed at the prompt, Enter accepting the read) become labelled data in the data
folder: measured colours, face templates and the crops themselves.

    referee calibrate-dice roll1.jpg roll2.jpg --labels "green=B,white=O,yellow=R,red=V,blue=A,colour=green,theme=1"
    referee calibrate-dice --faces green=BOLNRU --faces white=AEIKST    # record the real face lists

It also checks the camera's channel order: when the dice's colours fit the set far better with
red and blue exchanged, the camera delivers RGB where OpenCV expects BGR, and it says so.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from vision.dice_calibrate import CalibrationError, channels_look_swapped, labelled_faces, learn, record_faces
from vision.dice_image import ImageDecodeError, decode_image
from vision.dice_model import CalibrationDataError, default_data_dir, dice_dir, load_model
from vision.dice_read import DiceImageError, read_dice
from vision.dieset import DieSet, DieSetError, FaceValue

NAME = "calibrate-dice"
HELP = "learn the colours and faces of your own dice from labelled photos (stored in the data folder)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("images", type=Path, nargs="*", help="photos of a roll on the tray")
    parser.add_argument(
        "--labels",
        action="append",
        default=[],
        help='what each photo shows, "die=value,..." (one --labels per photo, in order); '
        "without it you are asked at the prompt",
    )
    parser.add_argument(
        "--faces",
        action="append",
        default=[],
        metavar="DIE=LETTERS",
        help="record a die's real faces, e.g. green=BOLNRU (repeat for each die)",
    )
    parser.add_argument(
        "--data", type=Path, default=None, help="data folder (default: $XDG_DATA_HOME/referee)"
    )


def parse_value(dieset: DieSet, die: str, text: str) -> FaceValue:
    """A typed face value for `die`, checked against its faces."""
    spec = dieset.die(die)
    value: FaceValue = int(text) if spec.kind == "theme" and text.strip().isdigit() else text.strip()
    if spec.kind == "letter":
        value = str(value).upper()
    if value not in spec.faces:
        choices = "".join(map(str, spec.faces)) if spec.kind == "letter" else ", ".join(map(str, spec.faces))
        raise CalibrationError(f"the {die} die has no face {text!r}; its faces are {choices}")
    return value


def parse_labels(dieset: DieSet, text: str) -> dict[str, FaceValue]:
    """ "green=B,colour=green,theme=1" → {"green": "B", "colour": "green", "theme": 1}."""
    out: dict[str, FaceValue] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        if "=" not in part:
            raise CalibrationError(f"label {part!r} should look like die=value, e.g. green=B")
        die, value = (x.strip() for x in part.split("=", 1))
        try:
            out[die] = parse_value(dieset, die, value)
        except KeyError:
            names = ", ".join(d.name for d in dieset.dice)
            raise CalibrationError(f"there is no die called {die!r}; the dice are {names}") from None
    return out


def parse_faces(dieset: DieSet, item: str) -> tuple[str, list[FaceValue]]:
    """ "green=BOLNRU" → ("green", ["B", "O", ...]); theme and colour faces are "/"-separated."""
    die, sep, text = item.partition("=")
    if not sep:
        raise CalibrationError(f"--faces {item!r} should look like green=BOLNRU")
    try:
        spec = dieset.die(die.strip())
    except KeyError:
        raise CalibrationError(f"there is no die called {die.strip()!r}") from None
    if spec.kind == "letter":
        values: list[FaceValue] = list(text.strip().upper())
    elif spec.kind == "theme":
        values = [int(v) for v in text.replace("/", "") if v.isdigit()]
    else:
        values = [v.strip() for v in text.split("/") if v.strip()]
    return spec.name, values


def _ask(dieset: DieSet, read_values: dict[str, FaceValue | None]) -> dict[str, FaceValue]:
    labels: dict[str, FaceValue] = {}
    for d in dieset.dice:
        seen = read_values.get(d.name)
        while True:
            answer = input(
                f"  {d.name} die shows [{seen if seen is not None else '?'}] (Enter = yes, - = skip): "
            )
            if answer.strip() == "-":
                break
            if not answer.strip() and seen is not None:
                labels[d.name] = seen
                break
            try:
                labels[d.name] = parse_value(dieset, d.name, answer or "")
                break
            except CalibrationError as exc:
                print(f"  {exc}")
    return labels


def run(args: argparse.Namespace) -> int:
    data_dir = args.data if args.data is not None else default_data_dir()
    try:
        model = load_model(data_dir)
    except (DieSetError, CalibrationDataError) as exc:
        print(f"referee calibrate-dice: {exc}", file=sys.stderr)
        return 1
    if args.faces:
        try:
            faces = dict(parse_faces(model.dieset, item) for item in args.faces)
            model = record_faces(model, faces, data_dir)
        except (KeyError, CalibrationError, DieSetError) as exc:
            print(f"referee calibrate-dice: {exc}", file=sys.stderr)
            return 1
        print(f"recorded faces in {dice_dir(data_dir) / 'dieset.toml'}")
    if args.labels and len(args.labels) != len(args.images):
        print("referee calibrate-dice: give one --labels per photo, in the same order", file=sys.stderr)
        return 1
    if args.images and not args.labels and not sys.stdin.isatty():
        print("referee calibrate-dice: no --labels and no terminal to ask at; give --labels", file=sys.stderr)
        return 1
    total = 0
    for i, path in enumerate(args.images):
        try:
            image = decode_image(path.read_bytes())
            read = read_dice(image, model)
        except OSError as exc:
            print(f"referee calibrate-dice: cannot read {path}: {exc.strerror}", file=sys.stderr)
            return 2
        except (ImageDecodeError, DiceImageError) as exc:
            print(f"referee calibrate-dice: {path}: {exc}", file=sys.stderr)
            return 1
        print(f"{path}: read letters {read.letters}, colour {read.colour}, theme {read.theme}")
        if channels_look_swapped(image, read, model):
            print(
                "warning: the dice's colours fit far better with red and blue exchanged: this camera "
                "delivers RGB where BGR is expected; open it with swap_rb=True (hardware.camera)",
                file=sys.stderr,
            )
        try:
            labels = (
                parse_labels(model.dieset, args.labels[i])
                if args.labels
                else _ask(model.dieset, {d.die: d.value for d in read.dice})
            )
            faces = labelled_faces(image, read, labels)
        except EOFError:
            print("referee calibrate-dice: input ended before every die was confirmed", file=sys.stderr)
            return 1
        except CalibrationError as exc:
            print(f"referee calibrate-dice: {path}: {exc}", file=sys.stderr)
            return 1
        model = learn(model, faces, data_dir)
        total += len(faces)
    if args.images:
        colours = {k: list(v) for k, v in model.dieset.colours.items()}
        print(
            f"learned from {total} labelled faces; {model.learned_templates} face templates in {dice_dir(data_dir)}"
        )
        print(f"colours now {colours}")
    if not args.images and not args.faces:
        print("nothing to do: give photos (with --labels) or --faces", file=sys.stderr)
        return 1
    return 0
