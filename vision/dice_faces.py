"""Face measurements shared by the reader and calibration: ink coverage, pip counts, templates.

The reader recognises glyphs with a small network (:mod:`vision.dice_glyphs`). Templates
remain for what the user teaches it: faces labelled at calibration (``referee
calibrate-dice``) are kept as template vectors and give a second opinion on the network's
read (see ``dice_read._with_learned``). A template is the glyph cut to its ink box and scaled
so that its *height in the tried orientation* fills the template height, keeping its
proportions (a letter lying on its side stays wider than tall, which keeps N from Z and M from
W), compared in all four orientations, never mirrored. The shipped templates
(``vision/data/dice-templates.npz``, ``python -m vision.dice_templates``) stand a labelled
crop upright when the read did not know its orientation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.dieset import FaceValue

PATCH = 48  # side of a squared-up face, pixels
CANVAS = 32  # side of a normalised glyph
GLYPH_H = 24  # glyph height in the canvas
GLYPH_W = 30  # widest glyph in the canvas
INNER = 0.09  # the rounded rim of a face, as a fraction of the side, never holds ink


def _kept_components(binary: np.ndarray) -> np.ndarray:
    """Drop specks and ink that only touches the rim (a neighbour's side, a shadow)."""
    n, lab, stats, _ = cv2.connectedComponentsWithStats(binary, connectivity=8)
    if n <= 1:
        return binary
    areas = stats[1:, cv2.CC_STAT_AREA]
    biggest = float(areas.max())
    h, w = binary.shape
    rim = max(2, round(0.13 * w))
    keep = np.zeros(n, bool)
    for i in range(1, n):
        x, y, bw, bh, a = stats[i]
        if a < max(4.0, 0.06 * biggest):
            continue
        inside_rim = x + bw <= rim or y + bh <= rim or x >= w - rim or y >= h - rim
        if inside_rim:
            continue
        keep[i] = True
    return (keep[lab] * 255).astype(np.uint8)


# Rim noise (robust σ per Lab channel) a face may have before its channel counts for less in
# ink coverage. Faces in the tuning light stay below it (median 1-5, 95th percentile about 10 on
# a* and b* of coloured dice); under a 2000-2500 K lamp the blue channel is so weak that a
# blue or green die's b* scatters by 20-30 after white balance and buried the glyph in speckle.
NOISE_FLOOR = 8.0


def ink_coverage(
    lab: np.ndarray, body: np.ndarray, ink: np.ndarray, noise: np.ndarray | None = None
) -> np.ndarray:
    """Per pixel, how far the colour lies from the body towards the ink (0 body, 1 ink).

    `noise`, the rim's robust σ per Lab channel, weights each channel by how much of it is
    signal: a channel noisier than NOISE_FLOOR counts by (NOISE_FLOOR / σ)², one at or under it
    fully (so a clean face's coverage is exactly the unweighted one).
    """
    axis = np.asarray(ink, np.float32) - np.asarray(body, np.float32)
    axis[0] *= 0.7  # lightness is the least trustworthy channel under uneven light
    weight = np.ones(3, np.float32)
    if noise is not None:
        weight = np.minimum(1.0, (NOISE_FLOOR / np.maximum(np.asarray(noise, np.float32), 1e-6)) ** 2)
    waxis = axis * weight
    norm2 = float(axis @ waxis) or 1.0
    diff = lab.astype(np.float32) - np.asarray(body, np.float32)
    diff[..., 0] *= 0.7
    t = (diff @ waxis) / norm2
    if ink[0] > body[0]:
        # Light ink: a lamp's reflection is lighter still and colourless; it is not ink.
        glare = lab[..., 0] > float(ink[0]) + 6.0
        t[glare] = np.minimum(t[glare], 0.45)
    side = lab.shape[0]
    m = round(INNER * side)
    t[:m], t[-m:], t[:, :m], t[:, -m:] = 0, 0, 0, 0
    return np.clip(t, 0.0, 1.0)


FAINT_PIP = 0.15  # ink coverage of a pip under a lamp's reflection (a full pip reaches 1)


def _round_spots(stats: np.ndarray) -> np.ndarray:
    """Which connected components (rows of OpenCV's stats) are round spots."""
    areas = stats[:, cv2.CC_STAT_AREA].astype(np.float64)
    w = stats[:, cv2.CC_STAT_WIDTH].astype(np.float64)
    h = stats[:, cv2.CC_STAT_HEIGHT].astype(np.float64)
    fill = areas / (np.pi * (np.maximum(w, h) / 2) ** 2)
    return (fill >= 0.6) & (np.maximum(w, h) / np.minimum(w, h) <= 1.5)


def pip_count(ink: np.ndarray) -> int | None:
    """How many pips a face shows, if its ink is 1-6 round spots of one size; else None.

    Pips are round and alike in any font or orientation, so counting them is surer than
    comparing shapes (and tells an H from a six, whose two columns blur alike). A lamp's
    reflection on a glossy die can pale one pip below half coverage: a round spot of a pip's
    size that is clearly darker than the body (FAINT_PIP) still counts, and a pale spot that
    is not round (a pip half under the reflection) means the pips cannot be counted (None).
    """
    binary = _kept_components((ink > 0.5).astype(np.uint8) * 255)
    n, _, stats, _ = cv2.connectedComponentsWithStats(binary, connectivity=8)
    if not 2 <= n <= 7:
        return None
    stats = stats[1:]
    areas = stats[:, cv2.CC_STAT_AREA].astype(np.float64)
    size = np.maximum(stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT])
    side = binary.shape[0]
    if not _round_spots(stats).all():
        return None
    if areas.max() > 2.2 * areas.min() or size.max() > 0.3 * side:
        return None
    count = n - 1
    pale = _kept_components((ink > FAINT_PIP).astype(np.uint8) * 255)
    m, plabels, pstats, _ = cv2.connectedComponentsWithStats(pale, connectivity=8)
    counted = np.zeros(m, bool)
    counted[plabels[binary > 0]] = True  # spots that hold a full pip are that pip
    typical = float(np.median(areas))
    edge = round(INNER * side)  # ink_coverage zeroes the rim up to here
    for j in range(1, m):
        if counted[j]:
            continue
        row = pstats[j]
        area = float(row[cv2.CC_STAT_AREA])
        x, y, w, h = (int(v) for v in row[:4])
        if area < 0.15 * typical or min(x, y) <= edge or max(x + w, y + h) >= side - edge:
            continue  # a speck of noise; a shaded strip along the face's edge (pips keep off it)
        if area < 0.5 * typical or area > 2.2 * areas.max() or not _round_spots(row[None])[0]:
            return None  # pale ink that is not a whole pip (half under a reflection?): no count
        count += 1
    return count if count <= 6 else None


def glyph_crop(ink: np.ndarray) -> np.ndarray | None:
    """The glyph's ink cut to its box (specks and rim-only ink removed), or None if blank."""
    binary = (ink > 0.5).astype(np.uint8) * 255
    binary = _kept_components(binary)
    ys, xs = np.nonzero(binary)
    if len(xs) < 6:
        return None
    keep = cv2.dilate(binary, np.ones((3, 3), np.uint8)) > 0
    return (ink * keep)[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]


def glyph_canvas(ink: np.ndarray, turns: int, crop: np.ndarray | None = None) -> np.ndarray | None:
    """The ink turned by `turns` × 90° (counter-clockwise), cut to its box, scaled, centred."""
    if crop is None:
        crop = glyph_crop(ink)
        if crop is None:
            return None
    crop = np.rot90(crop, turns)
    h, w = crop.shape
    scale = min(GLYPH_H / h, GLYPH_W / w)
    nw, nh = max(1, round(w * scale)), max(1, round(h * scale))
    small = cv2.resize(np.ascontiguousarray(crop, np.float32), (nw, nh), interpolation=cv2.INTER_LINEAR)
    canvas = np.zeros((CANVAS, CANVAS), np.float32)
    x0, y0 = (CANVAS - nw) // 2, (CANVAS - nh) // 2
    canvas[y0 : y0 + nh, x0 : x0 + nw] = small
    return canvas


def _unit(v: np.ndarray) -> np.ndarray:
    v = v - v.mean()
    n = float(np.linalg.norm(v))
    return v / n if n > 0 else v


_CELLS, _BINS = 8, 8
_CELL = CANVAS // _CELLS


def _gradient_histograms(canvas: np.ndarray) -> np.ndarray:
    """Edge directions per cell (a small HOG): shape detail that survives another font's weight."""
    c = cv2.GaussianBlur(canvas, (0, 0), 0.8)
    gx = cv2.Sobel(c, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(c, cv2.CV_32F, 0, 1, ksize=3)
    mag = np.hypot(gx, gy)
    bins = (np.arctan2(gy, gx) % (2 * np.pi) / (2 * np.pi) * _BINS).astype(np.int64) % _BINS
    cell = (np.arange(CANVAS) // _CELL)[:, None] * _CELLS + (np.arange(CANVAS) // _CELL)[None, :]
    idx = (cell * _BINS + bins).reshape(-1)
    hist = np.bincount(idx, mag.reshape(-1), _CELLS * _CELLS * _BINS)
    return np.sqrt(hist).astype(np.float32)


FEATURES = CANVAS * CANVAS + _CELLS * _CELLS * _BINS


def to_vector(canvas: np.ndarray) -> np.ndarray:
    """Unit feature vector of a glyph canvas: the lightly blurred pixels (overall shape) and the
    edge-direction histograms (detail), each unit-normalised, so a dot product of two vectors
    is the mean of the two correlations."""
    pix = _unit(cv2.GaussianBlur(canvas, (0, 0), 0.7).reshape(-1))
    hog = _unit(_gradient_histograms(canvas))
    return (np.concatenate([pix, hog]) / np.sqrt(2.0)).astype(np.float32)


def glyph_vectors(ink: np.ndarray) -> np.ndarray | None:
    """The four orientations of a face's glyph as unit vectors (4, CANVAS²), or None if blank."""
    crop = glyph_crop(ink)
    if crop is None:
        return None
    out = []
    for turns in range(4):
        c = glyph_canvas(ink, turns, crop)
        assert c is not None
        out.append(to_vector(c))
    return np.stack(out)


@dataclass(frozen=True)
class TemplateBank:
    """Template vectors by face value ("A", "7", "pips:3"), each value with several variants."""

    vectors: np.ndarray  # (N, CANVAS²)
    keys: tuple[str, ...]  # the face key of each row

    def rows(self, keys: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
        """The template rows of `keys` and, for each row, the index of its key in `keys`."""
        cache = self.__dict__.setdefault("_rows", {})
        hit = cache.get(tuple(keys))
        if hit is None:
            index = {k: i for i, k in enumerate(keys)}
            sel = [i for i, k in enumerate(self.keys) if k in index]
            owner = np.array([index[self.keys[i]] for i in sel], np.int64)
            hit = cache[tuple(keys)] = (self.vectors[sel], owner)
        return hit

    def add(self, key: str, vectors: np.ndarray) -> TemplateBank:
        v = np.asarray(vectors, np.float32).reshape(-1, FEATURES)
        return TemplateBank(np.concatenate([self.vectors, v]), self.keys + (key,) * len(v))

    @classmethod
    def empty(cls) -> TemplateBank:
        return cls(np.zeros((0, FEATURES), np.float32), ())


def face_key(kind: str, style: str, value: FaceValue) -> str:
    """The template key of a face: letters and numerals by their text, pips as "pips:N"."""
    if kind == "theme" and style == "pips":
        return f"pips:{value}"
    return str(value)


@dataclass(frozen=True)
class GlyphMatch:
    """Scores of one face against its die's possible faces (all orientations)."""

    best: FaceValue
    score: float  # normalised correlation, 1 = identical
    runner_up: FaceValue | None
    runner_up_score: float
    turns: int  # quarter turns that stood the glyph upright
    scores: Mapping[FaceValue, float]

    @property
    def margin(self) -> float:
        return self.score - self.runner_up_score


def match_glyph(
    vectors: np.ndarray, bank: TemplateBank, faces: Sequence[FaceValue], keys: Sequence[str]
) -> GlyphMatch:
    """Best face among `faces` (template keys `keys`) for a glyph's four orientation vectors."""
    rows, owner = bank.rows(keys)
    if len(rows) == 0:
        raise ValueError(f"no templates for faces {list(keys)}; run python -m vision.dice_templates")
    sims = vectors @ rows.T  # (4, n)
    best_per_row = sims.max(axis=0)
    turn_per_row = sims.argmax(axis=0)
    per_face = np.full(len(faces), -1.0)
    np.maximum.at(per_face, owner, best_per_row)
    winner_rows = np.flatnonzero(best_per_row >= per_face[owner])
    per_turn = np.zeros(len(faces), np.int64)
    per_turn[owner[winner_rows]] = turn_per_row[winner_rows]
    order = np.argsort(-per_face)
    top = int(order[0])
    second = int(order[1]) if len(order) > 1 else None
    return GlyphMatch(
        best=faces[top],
        score=float(per_face[top]),
        runner_up=faces[second] if second is not None else None,
        runner_up_score=float(per_face[second]) if second is not None else -1.0,
        turns=int(per_turn[top]),
        scores={faces[i]: float(per_face[i]) for i in range(len(faces))},
    )
