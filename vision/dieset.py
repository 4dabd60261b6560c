"""The die set as data: each die's body colour, ink and faces, read from TOML.

The reader narrows every die to its own faces, so a recorded face list (six letters per die)
is what makes letter reading reliable; the default set allows A-Z on every letter die.

>>> dice = default_dieset()
>>> [d.name for d in dice.dice]
['green', 'white', 'yellow', 'red', 'blue', 'colour', 'theme']
>>> dice.die("theme").faces
(1, 2, 3, 4, 5, 6)
"""

from __future__ import annotations

import string
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

DEFAULT_PATH = Path(__file__).parent / "data" / "djam-dice.toml"

DieKind = Literal["letter", "colour", "theme"]
FaceValue = str | int
RGB = tuple[int, int, int]


class DieSetError(ValueError):
    """A die set description that cannot be used; the message says what to fix."""


@dataclass(frozen=True)
class DieSpec:
    """One physical die: what it looks like and which faces it can show."""

    name: str  # "green", "colour", "theme"
    kind: DieKind
    body: str  # a name of `DieSet.colours`
    faces: tuple[FaceValue, ...]
    ink: str = "black"  # the colour of letters, numerals and pips
    style: str = "letters"  # theme die: "pips" or "numerals"
    patch: float = 1.0  # colour die: side of the painted patch as a fraction of the face
    # Colour die: the colour reference of each face's paint (parallel to `faces`). Empty means
    # "the colour of the same name"; calibration measures the paints on their own (a green
    # paint is not the green die's plastic), naming them "paint-green" and so on.
    paints: tuple[str, ...] = ()

    def paint(self, face: FaceValue) -> str:
        """The colour reference a colour die's face is painted with."""
        if self.paints:
            return self.paints[self.faces.index(face)]
        return str(face)


@dataclass(frozen=True)
class TraySpec:
    """The tray and its optional corner markers (sizes in millimetres)."""

    width_mm: float = 360.0
    height_mm: float = 240.0
    marker_dictionary: str = "DICT_4X4_50"
    marker_ids: tuple[int, int, int, int] = (0, 1, 2, 3)
    marker_size_mm: float = 24.0
    marker_inset_mm: float = 6.0


@dataclass(frozen=True)
class DieSet:
    """Every die of the game, the colour references and the tray."""

    name: str
    dice: tuple[DieSpec, ...]
    colours: Mapping[str, RGB]
    tray: TraySpec = field(default_factory=TraySpec)
    die_size_mm: float = 16.0
    glyph_height: float = 0.56

    def die(self, name: str) -> DieSpec:
        for d in self.dice:
            if d.name == name:
                return d
        raise KeyError(f"no die named {name!r} in the die set {self.name!r}")

    @property
    def letter_dice(self) -> tuple[DieSpec, ...]:
        return tuple(d for d in self.dice if d.kind == "letter")

    def with_colours(self, colours: Mapping[str, RGB]) -> DieSet:
        """A copy with some colour references replaced (calibration)."""
        merged = dict(self.colours)
        merged.update({k: tuple(int(c) for c in v) for k, v in colours.items()})  # type: ignore[misc]
        return replace(self, colours=merged)

    def with_paints(self, die: str, paints: Mapping[FaceValue, str]) -> DieSet:
        """A copy where some faces of colour die `die` use other colour references."""
        spec = self.die(die)
        new = tuple(paints.get(f, spec.paint(f)) for f in spec.faces)
        out = replace(self, dice=tuple(replace(d, paints=new) if d.name == die else d for d in self.dice))
        _validate(out)
        return out

    def with_faces(self, die: str, faces: Sequence[FaceValue]) -> DieSet:
        """A copy where die `die` shows exactly `faces` (a recorded face list)."""
        spec = self.die(die)
        checked = _faces(list(faces), spec.kind, spec.name)
        dice = tuple(replace(d, faces=checked) if d.name == die else d for d in self.dice)
        out = replace(self, dice=dice)
        _validate(out)
        return out

    def to_toml(self) -> str:
        """The die set as TOML that `loads` reads back to an equal set."""
        lines = [f"name = {_q(self.name)}", f"die_size_mm = {self.die_size_mm!r}"]
        lines.append(f"glyph_height = {self.glyph_height!r}")
        lines += ["", "[colours]"]
        lines += [f"{k} = [{', '.join(str(int(c)) for c in v)}]" for k, v in self.colours.items()]
        t = self.tray
        lines += [
            "",
            "[tray]",
            f"width_mm = {t.width_mm!r}",
            f"height_mm = {t.height_mm!r}",
            f"marker_dictionary = {_q(t.marker_dictionary)}",
            f"marker_ids = [{', '.join(str(i) for i in t.marker_ids)}]",
            f"marker_size_mm = {t.marker_size_mm!r}",
            f"marker_inset_mm = {t.marker_inset_mm!r}",
        ]
        for d in self.dice:
            faces = ", ".join(_q(f) if isinstance(f, str) else str(f) for f in d.faces)
            lines += ["", "[[die]]", f"name = {_q(d.name)}", f"kind = {_q(d.kind)}", f"body = {_q(d.body)}"]
            lines += [f"ink = {_q(d.ink)}", f"style = {_q(d.style)}", f"patch = {d.patch!r}"]
            lines.append(f"faces = [{faces}]")
            if d.paints:
                lines.append(f"paints = [{', '.join(_q(c) for c in d.paints)}]")
        return "\n".join(lines) + "\n"


def _q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _faces(raw: Any, kind: str, name: str) -> tuple[FaceValue, ...]:
    if isinstance(raw, str):
        # "A-Z" is the shorthand for every letter; any other string lists letters one by one.
        if raw == "A-Z":
            return tuple(string.ascii_uppercase)
        raw = list(raw)
    if not isinstance(raw, list) or not raw:
        raise DieSetError(f"die {name!r}: faces must be a non-empty list")
    if kind == "theme":
        if not all(isinstance(f, int) and not isinstance(f, bool) and 1 <= f <= 6 for f in raw):
            raise DieSetError(f"die {name!r}: theme faces are whole numbers 1 to 6")
        return tuple(raw)
    if not all(isinstance(f, str) and f for f in raw):
        raise DieSetError(f"die {name!r}: faces must be strings")
    if kind == "letter":
        bad = [f for f in raw if len(f) != 1 or f not in string.ascii_uppercase]
        if bad:
            raise DieSetError(f"die {name!r}: letter faces are single capitals A-Z, not {bad[0]!r}")
        return tuple(raw)
    return tuple(raw)


def _colour(raw: Any, name: str) -> RGB:
    if (
        not isinstance(raw, list)
        or len(raw) != 3
        or not all(isinstance(c, int) and not isinstance(c, bool) and 0 <= c <= 255 for c in raw)
    ):
        raise DieSetError(f"colour {name!r} must be [r, g, b] with whole numbers 0-255")
    return (raw[0], raw[1], raw[2])


def _validate(ds: DieSet) -> None:
    names = [d.name for d in ds.dice]
    if len(set(names)) != len(names):
        raise DieSetError("two dice have the same name; die names must be unique")
    for d in ds.dice:
        for used in (d.body, d.ink):
            if used not in ds.colours:
                raise DieSetError(f"die {d.name!r} uses colour {used!r}, which [colours] does not define")
        if d.kind == "colour":
            if d.paints and len(d.paints) != len(d.faces):
                raise DieSetError(f"die {d.name!r}: paints must list one colour per face")
            for f in d.faces:
                if d.paint(f) not in ds.colours:
                    raise DieSetError(
                        f"die {d.name!r} shows colour {d.paint(f)!r}, which [colours] does not define"
                    )
        if not 0.2 <= d.patch <= 1.0:
            raise DieSetError(f"die {d.name!r}: patch must be between 0.2 and 1.0")
    if sum(d.kind == "colour" for d in ds.dice) > 1 or sum(d.kind == "theme" for d in ds.dice) > 1:
        raise DieSetError("a die set has at most one colour die and one theme die")


def loads(text: str) -> DieSet:
    """Parse a die set from TOML text; raises DieSetError with a message a person can act on."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DieSetError(f"not valid TOML: {exc}") from None
    colours_raw = data.get("colours")
    if not isinstance(colours_raw, dict) or not colours_raw:
        raise DieSetError("the die set needs a [colours] table")
    colours = {str(k): _colour(v, str(k)) for k, v in colours_raw.items()}
    dice_raw = data.get("die")
    if not isinstance(dice_raw, list) or not dice_raw:
        raise DieSetError("the die set needs at least one [[die]]")
    dice: list[DieSpec] = []
    for i, raw in enumerate(dice_raw, start=1):
        if not isinstance(raw, dict):
            raise DieSetError(f"die {i} must be a table")
        name, kind = raw.get("name"), raw.get("kind")
        if not isinstance(name, str) or not name:
            raise DieSetError(f"die {i} needs a name")
        if kind not in ("letter", "colour", "theme"):
            raise DieSetError(f"die {name!r}: kind must be letter, colour or theme")
        body = raw.get("body")
        if not isinstance(body, str):
            raise DieSetError(f"die {name!r} needs a body colour")
        patch = raw.get("patch", 1.0)
        if not isinstance(patch, int | float) or isinstance(patch, bool):
            raise DieSetError(f"die {name!r}: patch must be a number")
        style = raw.get("style", "pips" if kind == "theme" else "letters")
        paints = raw.get("paints", [])
        if not isinstance(paints, list) or not all(isinstance(c, str) for c in paints):
            raise DieSetError(f"die {name!r}: paints must be a list of colour names")
        if kind == "theme" and style not in ("pips", "numerals"):
            raise DieSetError(f"die {name!r}: style must be pips or numerals")
        dice.append(
            DieSpec(
                name=name,
                kind=kind,
                body=body,
                faces=_faces(raw.get("faces"), kind, name),
                ink=str(raw.get("ink", "black")),
                style=str(style),
                patch=float(patch),
                paints=tuple(paints),
            )
        )
    tray_raw = data.get("tray", {})
    if not isinstance(tray_raw, dict):
        raise DieSetError("[tray] must be a table")
    try:
        ids = tuple(int(i) for i in tray_raw.get("marker_ids", (0, 1, 2, 3)))
        if len(ids) != 4:
            raise ValueError
        tray = TraySpec(
            width_mm=float(tray_raw.get("width_mm", 360.0)),
            height_mm=float(tray_raw.get("height_mm", 240.0)),
            marker_dictionary=str(tray_raw.get("marker_dictionary", "DICT_4X4_50")),
            marker_ids=(ids[0], ids[1], ids[2], ids[3]),
            marker_size_mm=float(tray_raw.get("marker_size_mm", 24.0)),
            marker_inset_mm=float(tray_raw.get("marker_inset_mm", 6.0)),
        )
    except (TypeError, ValueError):
        raise DieSetError("[tray] sizes must be numbers and marker_ids four whole numbers") from None
    try:
        size = float(data.get("die_size_mm", 16.0))
        glyph = float(data.get("glyph_height", 0.56))
    except (TypeError, ValueError):
        raise DieSetError("die_size_mm and glyph_height must be numbers") from None
    ds = DieSet(
        name=str(data.get("name", "unnamed")),
        dice=tuple(dice),
        colours=colours,
        tray=tray,
        die_size_mm=size,
        glyph_height=glyph,
    )
    _validate(ds)
    return ds


def load(path: Path) -> DieSet:
    """Read a die set file."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise DieSetError(f"{path} is not UTF-8 text") from None
    try:
        return loads(text)
    except DieSetError as exc:
        raise DieSetError(f"{path}: {exc}") from None


def default_dieset() -> DieSet:
    """The set shipped with the referee (A-Z on every letter die)."""
    return load(DEFAULT_PATH)
