"""Learn the user's own dice: colours and face appearance from labelled photos.

The console (or ``referee calibrate-dice``) shows a read, the scorekeeper confirms or corrects
each die, and the labelled faces come here. Everything learned lives in the data folder (see
:mod:`vision.dice_model`), and every labelled crop is kept so the model can be relearned.

    read = read_dice(frame, model)
    faces = labelled_faces(frame, read, {"green": "B", "colour": "green", "theme": 1})
    model = learn(model, faces, data_dir)      # writes DATA/dice/...

A correction made during a game is the same call with the corrected labels.
"""

from __future__ import annotations

import json
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.dice_colour import delta_e
from vision.dice_faces import PATCH, face_key, glyph_crop, glyph_vectors, ink_coverage, to_vector
from vision.dice_measure import face_patch
from vision.dice_model import DiceModel, dice_dir
from vision.dice_result import DiceRead
from vision.dice_templates import CANVAS, face_canvases, load_canvases, save_canvases
from vision.dieset import DieSet, FaceValue


class CalibrationError(ValueError):
    """Labels that cannot be used; the message says what to do."""


@dataclass(frozen=True)
class LabelledFace:
    """One die's top face as seen, with what the scorekeeper says it shows."""

    die: str
    value: FaceValue
    patch: np.ndarray  # BGR, PATCH × PATCH, squared up (any of four orientations)
    body_lab: tuple[float, float, float]  # rim colour after white balance
    paint_lab: tuple[float, float, float]  # middle of the face after white balance
    turns: int | None  # quarter turns that stand the glyph upright, when the read knew


def labelled_faces(image: np.ndarray, read: DiceRead, labels: Mapping[str, FaceValue]) -> list[LabelledFace]:
    """Pair each labelled die with its face in `read`; a die the read did not find is an error."""
    out = []
    for name, value in labels.items():
        try:
            d = read.die(name)
        except StopIteration:
            raise CalibrationError(f"there is no die called {name!r} in this die set") from None
        if not d.corners or d.body_lab is None or d.paint_lab is None:
            raise CalibrationError(
                f"the {name} die was not found in the photo; roll again with all dice in view"
            )
        if d.flags and set(d.flags) & {"cocked", "touching"}:
            raise CalibrationError(
                f"the {name} die is {', '.join(d.flags)}; roll again so it lies flat and apart"
            )
        turns = d.turns if d.value == value else None
        out.append(
            LabelledFace(
                name, value, face_patch(image, np.float32(d.corners)), d.body_lab, d.paint_lab, turns
            )
        )
    return out


def _body_fit(read: DiceRead, model: DiceModel) -> float:
    """Mean colour distance between the dice found and the set's body colours."""
    labs = model.colour_labs
    dists = [
        float(delta_e(np.asarray(d.body_lab), labs[model.dieset.die(d.die).body]))
        for d in read.dice
        if d.body_lab is not None and d.kind == "letter"
    ]
    return float(np.mean(dists)) if dists else float("inf")


def channels_look_swapped(image: np.ndarray, read: DiceRead, model: DiceModel) -> bool:
    """True when the dice's colours fit the set far better with red and blue exchanged: the
    camera delivers RGB where BGR is expected (picamera2's format names invite this)."""
    from vision.dice_read import read_dice

    as_is = _body_fit(read, model)
    swapped = _body_fit(read_dice(np.ascontiguousarray(image[..., ::-1]), model), model)
    return swapped < 0.6 * as_is


def _lab_to_rgb255(lab: np.ndarray) -> tuple[int, int, int]:
    rgb = cv2.cvtColor(np.asarray(lab, np.float32).reshape(1, 1, 3), cv2.COLOR_Lab2RGB).reshape(3)
    r, g, b = (round(float(np.clip(c, 0, 1)) * 255) for c in rgb)
    return (r, g, b)


def learn_colours(dieset: DieSet, faces: Sequence[LabelledFace]) -> DieSet:
    """Body colours (and the colour die's paints) as measured, averaged over the samples.

    A colour die's paints are learned under their own names ("paint-green"), never averaged
    with the letter die of the same colour: paint and plastic differ.
    """
    samples: dict[str, list[np.ndarray]] = {}
    paints: dict[str, dict[FaceValue, str]] = {}
    for f in faces:
        die = dieset.die(f.die)
        if die.kind == "colour":
            name = f"paint-{f.value}"
            paints.setdefault(die.name, {})[f.value] = name
            samples.setdefault(name, []).append(np.asarray(f.paint_lab))
            if die.patch < 0.95:
                samples.setdefault(die.body, []).append(np.asarray(f.body_lab))
        else:
            samples.setdefault(die.body, []).append(np.asarray(f.body_lab))
    learned = {name: _lab_to_rgb255(np.median(np.stack(v), axis=0)) for name, v in samples.items()}
    out = dieset.with_colours(learned)
    for die_name, by_face in paints.items():
        out = out.with_paints(die_name, by_face)
    return out


def _upright_canvas(face: LabelledFace, model: DiceModel) -> np.ndarray | None:
    """The labelled glyph stood upright: the read's own orientation, or the one that best fits
    the templates already known for that face (None when no orientation is convincing)."""
    die = model.dieset.die(face.die)
    lab = cv2.cvtColor(face.patch.astype(np.float32) / 255.0, cv2.COLOR_BGR2Lab)
    # The crop is as the camera saw it (not white-balanced), so take body and ink from the crop
    # itself: the rim is body, the colour farthest from it in the middle is ink.
    a, b = round(0.12 * PATCH), round(0.24 * PATCH)
    ring = np.concatenate([lab[a:b].reshape(-1, 3), lab[-b:-a].reshape(-1, 3)])
    body = np.median(ring, axis=0)
    inner = lab[b:-b, b:-b].reshape(-1, 3)
    far = np.linalg.norm(inner - body, axis=1)
    ink_colour = np.median(inner[far >= np.percentile(far, 90)], axis=0)
    if float(np.linalg.norm(ink_colour - body)) < 15.0:
        return None  # no contrast: nothing printed, or a blurred photo
    ink = ink_coverage(lab, body, ink_colour)
    if glyph_crop(ink) is None:
        return None
    turns = face.turns
    if turns is None:
        vectors = glyph_vectors(ink)
        rows, _ = model.bank.rows([face_key(die.kind, die.style, face.value)])
        if vectors is None or len(rows) == 0:
            return None
        sims = (vectors @ rows.T).max(axis=1)
        if float(sims.max()) < 0.5:
            return None  # nothing like the known shapes: cannot tell which way is up
        turns = int(np.argmax(sims))
    canvas = face_canvases(np.rot90(ink, turns).copy(), variants=False)
    return canvas[0] if len(canvas) else None


def learn(model: DiceModel, faces: Sequence[LabelledFace], data_dir: Path) -> DiceModel:
    """Update colours and templates from labelled faces and save everything under `data_dir`."""
    folder = dice_dir(data_dir)
    (folder / "labelled").mkdir(parents=True, exist_ok=True)
    dieset = learn_colours(model.dieset, faces)
    learned = model.with_dieset(dieset)
    tpl = folder / "templates.npz"
    keys, canvases = load_canvases(tpl) if tpl.is_file() else ([], np.zeros((0, CANVAS, CANVAS), np.uint8))
    added = 0
    stamp = time.strftime("%Y%m%dT%H%M%S")
    for i, f in enumerate(faces):
        die = dieset.die(f.die)
        crop_dir = folder / "labelled" / f.die / str(f.value)
        crop_dir.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(crop_dir / f"{stamp}-{i}.png"), f.patch)
        if die.kind == "colour":
            continue
        canvas = _upright_canvas(f, learned)
        if canvas is not None:
            keys.append(face_key(die.kind, die.style, f.value))
            canvases = np.concatenate([canvases, canvas[None]])
            added += 1
    if added:
        save_canvases(keys, canvases, tpl)
    (folder / "dieset.toml").write_text(dieset.to_toml(), encoding="utf-8")
    with (folder / "labels.jsonl").open("a", encoding="utf-8") as log:
        for f in faces:
            log.write(json.dumps({"time": stamp, "die": f.die, "value": f.value}) + "\n")
    extra = np.stack([to_vector(c.astype(np.float32) / 255.0) for c in canvases]) if len(keys) else None
    bank = model.bank
    if extra is not None:
        base_n = len(model.bank.keys) - model.learned_templates
        bank = type(bank)(np.concatenate([bank.vectors[:base_n], extra]), bank.keys[:base_n] + tuple(keys))
    return type(model)(dieset, bank, model.thresholds, len(keys))


def record_faces(
    model: DiceModel, faces_by_die: Mapping[str, Sequence[FaceValue]], data_dir: Path
) -> DiceModel:
    """Write the real face lists (e.g. the six letters of each die) into the data folder."""
    dieset = model.dieset
    for die, faces in faces_by_die.items():
        dieset = dieset.with_faces(die, faces)
    folder = dice_dir(data_dir)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "dieset.toml").write_text(dieset.to_toml(), encoding="utf-8")
    return model.with_dieset(dieset)
