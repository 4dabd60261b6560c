"""Read a squared-up face's glyph with a small convolutional network, run by OpenCV's dnn module.

The network (``vision/data/dice-glyphs.onnx``, about 0.3 MB) was trained with PyTorch on faces
cut by this reader's own pipeline from synthetic frames of the *train* split only (see
``vision/synth/train_glyphs.py``); at run time it is plain OpenCV, with no PyTorch.

Its input is two 40 × 40 planes of a face (the 48 × 48 patch less its rounded rim):

- ink coverage: how far each pixel lies from the die's body colour towards its ink colour
  (0 body, 1 ink), so one network reads white-on-green and black-on-yellow alike;
- lightness relative to the body (±1.5 for ±60 L*): what the colour projection hides, above
  all a lamp's reflection, which is lighter than the body, so a glare spot over part of an O
  can be told from a gap in the letter.

Its output is one score per (face, orientation): 26 letters and six numerals in four quarter
turns, six pip counts, and "none" (no glyph: a painted face, the wrong ink colour, a blank).
Per die only that die's own faces count (see :func:`face_probabilities`).
"""

from __future__ import annotations

import string
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from vision.dice_faces import INNER, PATCH, ink_coverage
from vision.dieset import FaceValue

MODEL_PATH = Path(__file__).parent / "data" / "dice-glyphs.onnx"
INPUT = 40  # side of the network's input planes
CROP = (PATCH - INPUT) // 2
LETTERS = string.ascii_uppercase
N_LETTER = 26 * 4
N_DIGIT = 6 * 4
PIPS0 = N_LETTER + N_DIGIT
NONE = PIPS0 + 6
N_CLASSES = NONE + 1


def class_index(kind: str, style: str, value: FaceValue, turns: int) -> int:
    """The network's output index for a face shown with `turns` quarter turns (CCW) to upright."""
    if kind == "theme" and style == "pips":
        return PIPS0 + int(value) - 1
    if kind == "theme":
        return N_LETTER + (int(value) - 1) * 4 + turns % 4
    return LETTERS.index(str(value)) * 4 + turns % 4


def rotated_class(index: int, k: int) -> int:
    """The class of a face input turned by np.rot90(..., k): its turns to upright drop by k."""
    if index >= PIPS0:
        return index
    return index - index % 4 + (index % 4 - k) % 4


def glyph_input(
    lab: np.ndarray, body: np.ndarray, ink: np.ndarray, noise: np.ndarray | None = None
) -> np.ndarray:
    """The network's (2, INPUT, INPUT) float32 input for a face read as ink `ink` on body `body`
    (`noise`: the rim's σ per Lab channel, see :func:`vision.dice_faces.ink_coverage`)."""
    cover = ink_coverage(lab, body, ink, noise)
    light = np.clip((lab[..., 0] - float(body[0])) / 40.0, -1.5, 1.5)
    sl = slice(CROP, CROP + INPUT)
    out = np.stack([cover[sl, sl], light[sl, sl]]).astype(np.float32)
    m = round(INNER * PATCH) - CROP  # the rounded rim: never ink, often shaded
    if m > 0:
        out[1, :m], out[1, -m:], out[1, :, :m], out[1, :, -m:] = 0, 0, 0, 0
    return out


class GlyphModelMissing(RuntimeError):
    """The glyph network file is missing or damaged."""


@cache
def _net(path: Path = MODEL_PATH) -> cv2.dnn.Net:
    if not path.is_file():
        raise GlyphModelMissing(f"{path} is missing; rebuild it with python -m vision.synth.train_glyphs")
    try:
        return cv2.dnn.readNetFromONNX(str(path))
    except cv2.error as exc:
        raise GlyphModelMissing(f"{path} cannot be loaded ({exc}); rebuild it") from None


def classify(inputs: np.ndarray, path: Path = MODEL_PATH) -> np.ndarray:
    """Softmax probabilities (N, N_CLASSES) for a batch of inputs (N, 2, INPUT, INPUT)."""
    if len(inputs) == 0:
        return np.zeros((0, N_CLASSES), np.float32)
    net = _net(path)
    net.setInput(np.ascontiguousarray(inputs, np.float32))
    logits = np.asarray(net.forward(), np.float64).reshape(len(inputs), N_CLASSES)
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    return (p / p.sum(axis=1, keepdims=True)).astype(np.float32)


@dataclass(frozen=True)
class GlyphRead:
    """The network's verdict on one face among one die's faces."""

    best: FaceValue | None  # None: the network says "no glyph"
    prob: float  # probability of `best` (see face_probabilities)
    runner_up: FaceValue | None
    runner_up_prob: float
    none_prob: float
    mass: float  # share of the die's family (letters, numerals or pips) its own faces hold
    fit: float  # probability of the die's own faces among all classes (which die is this?)
    turns: int
    probs: dict[FaceValue, float]
    # The best match among templates learned from the user's own dice, when there are any.
    learned: FaceValue | None = None
    learned_score: float = 0.0

    @property
    def margin(self) -> float:
        return self.prob - self.runner_up_prob


def _family(kind: str, style: str) -> slice:
    if kind == "theme" and style == "pips":
        return slice(PIPS0, NONE)
    if kind == "theme":
        return slice(N_LETTER, PIPS0)
    return slice(0, N_LETTER)


def face_probabilities(probs: np.ndarray, kind: str, style: str, faces: Sequence[FaceValue]) -> GlyphRead:
    """One face's class probabilities seen as a die of `kind` with `faces`.

    A letter die can only show letters (or nothing readable), so probabilities are first
    narrowed to the die's family (letters, numerals or pips) and "none": that share of the
    family the die's own faces hold is `mass` (low: the face looks like a letter this die does
    not carry, or like nothing). Then the die's faces are compared among themselves and
    "none": a recorded set that puts M on another die makes an M-like face on this die its W.
    """
    fam = _family(kind, style)
    none = float(probs[NONE])
    fam_total = max(float(probs[fam].sum()) + none, 1e-12)
    per_face = np.zeros(len(faces))
    turns = np.zeros(len(faces), np.int64)
    for i, f in enumerate(faces):
        base = class_index(kind, style, f, 0)
        if kind == "theme" and style == "pips":
            per_face[i] = probs[base]
            continue
        four = probs[base : base + 4]
        per_face[i] = float(four.sum())
        turns[i] = int(np.argmax(four))
    fit = float(per_face.sum())
    mass = fit / fam_total
    own = max(float(per_face.sum()) + none, 1e-12)
    per_face /= own
    none /= own
    order = np.argsort(-per_face)
    top = int(order[0])
    second = int(order[1]) if len(order) > 1 else None
    second_prob = float(per_face[second]) if second is not None else 0.0
    probs_by_face = {faces[i]: float(per_face[i]) for i in range(len(faces))}
    if none > per_face[top]:
        return GlyphRead(
            None, none, faces[top], float(per_face[top]), none, mass, fit, int(turns[top]), probs_by_face
        )
    return GlyphRead(
        best=faces[top],
        prob=float(per_face[top]),
        runner_up=faces[second] if second is not None and second_prob >= none else None,
        runner_up_prob=max(second_prob, none),
        none_prob=none,
        mass=mass,
        fit=fit,
        turns=int(turns[top]),
        probs=probs_by_face,
    )
