"""Measure a squared-up top face: white-balanced colours of its rim, middle and sides.

A face patch is PATCH × PATCH pixels. Its bands (fractions of the side):

- outer band 0.05-0.11: a colour die's body around its painted patch;
- rim 0.12-0.24: the body colour of every other die (letters stay inside it);
- inner 0.20-0.80: where a painted face must be even (pips and letters are not);
- middle 0.34-0.66: a painted face's colour.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.dice_colour import rgb_to_lab
from vision.dice_faces import PATCH
from vision.dice_model import DiceModel
from vision.dice_segment import Blob, FaceSquare, Rectified
from vision.dice_tray import TrayView


def _band(lo: float, hi: float) -> np.ndarray:
    mask = np.zeros((PATCH, PATCH), bool)
    a, b = round(lo * PATCH), round(hi * PATCH)
    mask[a : PATCH - a, a : PATCH - a] = True
    mask[b : PATCH - b, b : PATCH - b] = False
    return mask


def _square(lo: float) -> np.ndarray:
    mask = np.zeros((PATCH, PATCH), bool)
    a = round(lo * PATCH)
    mask[a : PATCH - a, a : PATCH - a] = True
    return mask


RING = _band(0.12, 0.24)
OUTER = _band(0.05, 0.11)
INNER = _square(0.20)
CENTRE = _square(0.34)
_A, _B = round(0.12 * PATCH), round(0.24 * PATCH)
SIDES = [np.zeros((PATCH, PATCH), bool) for _ in range(4)]
SIDES[0][_A:_B, _B : PATCH - _B] = True
SIDES[1][PATCH - _B : PATCH - _A, _B : PATCH - _B] = True
SIDES[2][_B : PATCH - _B, _A:_B] = True
SIDES[3][_B : PATCH - _B, PATCH - _B : PATCH - _A] = True


def face_patch(img: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """The quadrilateral `corners` (TL, TR, BR, BL, image pixels) warped to PATCH × PATCH."""
    dst = np.float32([[0, 0], [PATCH, 0], [PATCH, PATCH], [0, PATCH]])
    m = cv2.getPerspectiveTransform(dst, corners.astype(np.float32))
    return cv2.warpPerspective(
        img, m, (PATCH, PATCH), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE
    )


@dataclass
class RawFace:
    """A top face as the camera saw it, before white balance."""

    blob: Blob
    square: FaceSquare
    corners_img: np.ndarray
    patch: np.ndarray  # float32 BGR
    ring_bgr: np.ndarray
    light: float  # the tray's relative brightness there


def raw_face(img: np.ndarray, rect: Rectified, blob: Blob, square: FaceSquare) -> RawFace:
    corners_img = cv2.perspectiveTransform(square.corners().reshape(1, 4, 2), rect.rect_to_image)[0]
    patch = face_patch(img, corners_img).astype(np.float32)
    return RawFace(
        blob, square, corners_img, patch, np.median(patch[RING], axis=0), rect.shape_at(*square.centre)
    )


def white_reference(rect: Rectified, tray: TrayView, faces: list[RawFace], model: DiceModel) -> np.ndarray:
    """BGR of reference white where the tray is lit at its median level.

    The markers' paper when present; otherwise the whitest dice, which the set says are white
    (the brightest in their darkest channel: a white die stays bright in all three colours
    under any lamp, a yellow one loses its blue).
    """
    if tray.white_refs:
        vals = []
        for x, y, bgr in tray.white_refs:
            rx, ry = rect.to_rect(x, y)
            vals.append(np.asarray(bgr, np.float64) / rect.shape_at(rx, ry))
        return np.median(np.array(vals), axis=0)
    if not faces:
        return np.array([255.0, 255.0, 255.0])
    flat = np.array([f.ring_bgr / f.light for f in faces])
    order = np.argsort(-flat.min(axis=1))
    top = flat[order[: min(2, len(order))]]
    white_die = np.asarray(model.dieset.colours.get("white", (240, 240, 240)), np.float64)[::-1] / 255.0
    return np.median(top, axis=0) / np.maximum(white_die, 0.2)


@dataclass
class Face:
    """Measurements of one candidate top face (Lab after white balance)."""

    raw: RawFace
    lab: np.ndarray  # (PATCH, PATCH, 3)
    body: np.ndarray  # Lab of the rim
    edge: np.ndarray  # Lab of the outermost band
    centre: np.ndarray  # Lab of the middle (its darker half: no glare)
    paint_spread: float  # how far the inner area's L* dips below its median, doubled (ink)
    ring_spread: float  # L* difference between the rim's four sides
    noise: np.ndarray = field(default_factory=lambda: np.zeros(3))  # the rim's robust σ per Lab channel
    excess: float = 0.0  # how much longer the region is than a flat die could look (die sides)
    pos_mm: tuple[float, float] = (0.0, 0.0)  # where the die stands on the tray
    prior_cost: float = 0.0  # added to the cost of this region as any die (off the tray)
    # Per ink colour name, filled lazily while scoring: coverage, glyph vectors, pip count.
    inks: dict[str, np.ndarray] = field(default_factory=dict)
    vectors: dict[str, np.ndarray | None] = field(default_factory=dict)
    pips: dict[str, int | None] = field(default_factory=dict)

    @property
    def blob(self) -> Blob:
        return self.raw.blob


# Flat pixel indices of the bands: taking pixels by index is cheaper than by mask.
_RING_I, _OUTER_I, _CENTRE_I, _INNER_I = (np.flatnonzero(m) for m in (RING, OUTER, CENTRE, INNER))
_SIDES_I = [np.flatnonzero(m) for m in SIDES]


def measure(raw: RawFace, white: np.ndarray) -> Face:
    """White-balance a face (white reference × the light at its place) and measure its bands."""
    rgb = raw.patch[..., ::-1] / (white[::-1] * raw.light)
    lab = rgb_to_lab(rgb)
    flat = lab.reshape(-1, 3)
    ring = flat[_RING_I]
    body = np.median(ring, axis=0)
    # Each side of the rim, body-coloured pixels only (a letter may reach into the rim; the
    # lightness window lets a darker, tilted side face in).
    sides = []
    for idx in _SIDES_I:
        px = flat[idx]
        near = (np.hypot(px[:, 1] - body[1], px[:, 2] - body[2]) < 14.0) & (np.abs(px[:, 0] - body[0]) < 35.0)
        if near.sum() > 0.25 * len(idx):
            sides.append(float(np.median(px[near, 0])))
    inner_l = flat[_INNER_I, 0]
    # A lamp's reflection only ever lightens paint: the darker half of the middle is the paint
    # itself (a glare spot over half the middle moved its median to a paler colour).
    middle = flat[_CENTRE_I]
    middle = middle[middle[:, 0] <= np.median(middle[:, 0])]
    return Face(
        raw=raw,
        lab=lab,
        body=body,
        edge=np.median(flat[_OUTER_I], axis=0),
        centre=np.median(middle, axis=0),
        # Darker than the paint only, doubled: ink (pips, letters) is darker than the face it is
        # printed on, while a lamp's reflection on glossy paint is lighter and must not count.
        paint_spread=2.0 * float(np.subtract(*np.percentile(inner_l, [50, 5]))),
        ring_spread=(max(sides) - min(sides)) if len(sides) >= 2 else 0.0,
        # How much the plain body scatters (median absolute deviation as a σ; a letter reaching
        # into the rim does not move it): weak channels under a strongly coloured lamp.
        noise=1.4826 * np.median(np.abs(ring - body), axis=0),
    )
