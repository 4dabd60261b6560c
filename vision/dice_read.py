"""Read a roll of the Djam dice from one frame: ``read_dice(image) -> DiceRead``.

1. Find the tray (markers or plain dark tray) and look at it from straight above.
2. Find die-sized regions; square up each top face (parallax-aware, see dice_segment).
3. White-balance each face against the markers' paper (or the whitest dice) and the tray's
   measured light, then measure its body colour in Lab.
4. Score every region against every die of the set: body colour plus the best of *that die's*
   faces (glyphs in four orientations, or the colour die's paint), and choose the assignment
   of regions to dice with the lowest total cost. A die with no region is missing.
5. Every die gets a confidence from how clearly it won (face margin, identity margin) and
   flags for what looks wrong (cocked, touching, off the tray); below the threshold it says
   "uncertain" instead of guessing.

>>> import numpy as np
>>> read_dice(np.zeros((720, 1280, 3), np.uint8)).dice[0].flags
('missing',)
"""

from __future__ import annotations

import functools
import math
import time
from dataclasses import dataclass, replace

import cv2
import numpy as np

from vision.dice_colour import delta_e, rgb_to_lab
from vision.dice_faces import (
    PATCH,
    GlyphMatch,
    face_key,
    glyph_vectors,
    ink_coverage,
    match_glyph,
    pip_count,
    twin_doubt,
)
from vision.dice_model import DiceModel, default_model
from vision.dice_result import (
    COCKED,
    EXTRA,
    HAND,
    MISSING,
    NO_TRAY,
    OFF_TRAY,
    TOUCHING,
    UNCERTAIN,
    DiceRead,
    DieRead,
)
from vision.dice_segment import (
    SCALE,
    Blob,
    FaceSquare,
    Rectified,
    estimate_parallax,
    find_blobs,
    flat_extents,
    rectify,
    split_touching,
    top_face,
)
from vision.dice_tray import TrayView, _marker_squares, find_tray
from vision.dieset import DieSpec, FaceValue

NO_MATCH = 30.0  # cost of a die that cannot be this region at all
NULL_BLOB = 14.0  # cost of calling a region "not a die" (a glint, a token, a crumb)
MISSING_DIE = 40.0  # cost of leaving a die unassigned


class DiceImageError(ValueError):
    """The input is not an image the reader can use."""


def _sigmoid(x: float, centre_width: tuple[float, float]) -> float:
    c, w = centre_width
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, (x - c) / w))))


def _check_image(image: object) -> np.ndarray:
    if not isinstance(image, np.ndarray):
        raise DiceImageError("expected an image as a numpy array")
    if image.dtype != np.uint8:
        raise DiceImageError(f"expected 8-bit pixels, got {image.dtype}")
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    elif image.ndim == 3 and image.shape[2] == 4:
        image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if image.ndim != 3 or image.shape[2] != 3:
        raise DiceImageError(f"expected a colour image (H×W×3), got shape {image.shape}")
    if image.shape[0] < 120 or image.shape[1] < 160:
        raise DiceImageError(f"image of {image.shape[1]}×{image.shape[0]} is too small to read dice")
    return np.ascontiguousarray(image)


@dataclass
class _Face:
    """Measurements of one candidate top face."""

    blob: Blob
    square: FaceSquare
    corners_img: np.ndarray
    lab: np.ndarray  # (PATCH, PATCH, 3) float Lab after white balance
    body: np.ndarray  # Lab of the face's rim
    edge: np.ndarray  # Lab of the outermost band (a colour die's body around its patch)
    centre: np.ndarray  # Lab of its middle
    centre_spread: float  # L* spread in the middle (paint is flat, glyphs are not)
    ring_spread: float  # L* difference between the rim's four sides
    excess: float  # how much longer the region is than a flat die could look (die sides)
    pos_mm: tuple[float, float]
    vectors: dict[str, np.ndarray | None]  # glyph vectors by ink colour name
    pips: dict[str, int | None]  # pip count by ink colour name
    inks: dict[str, np.ndarray]  # ink coverage by ink colour name


def _patch(img: np.ndarray, corners: np.ndarray) -> np.ndarray:
    dst = np.float32([[0, 0], [PATCH, 0], [PATCH, PATCH], [0, PATCH]])
    m = cv2.getPerspectiveTransform(dst, corners.astype(np.float32))
    return cv2.warpPerspective(
        img, m, (PATCH, PATCH), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE
    )


_RING = np.zeros((PATCH, PATCH), bool)
_a, _b = round(0.12 * PATCH), round(0.24 * PATCH)
_RING[_a : PATCH - _a, _a : PATCH - _a] = True
_RING[_b : PATCH - _b, _b : PATCH - _b] = False
_OUTER = np.zeros((PATCH, PATCH), bool)
_o1, _o2 = round(0.05 * PATCH), round(0.11 * PATCH)
_OUTER[_o1 : PATCH - _o1, _o1 : PATCH - _o1] = True
_OUTER[_o2 : PATCH - _o2, _o2 : PATCH - _o2] = False
_SIDES = [np.zeros((PATCH, PATCH), bool) for _ in range(4)]
_SIDES[0][_a:_b, _b : PATCH - _b] = True
_SIDES[1][PATCH - _b : PATCH - _a, _b : PATCH - _b] = True
_SIDES[2][_b : PATCH - _b, _a:_b] = True
_SIDES[3][_b : PATCH - _b, PATCH - _b : PATCH - _a] = True
_c = round(0.34 * PATCH)
_CENTRE = np.zeros((PATCH, PATCH), bool)
_CENTRE[_c : PATCH - _c, _c : PATCH - _c] = True
_i = round(0.2 * PATCH)
_INNER = np.zeros((PATCH, PATCH), bool)  # where paint must be even (pips and letters are not)
_INNER[_i : PATCH - _i, _i : PATCH - _i] = True


def _white_reference(
    rect: Rectified, tray: TrayView, raw_rings: list[tuple[np.ndarray, float]], model: DiceModel
) -> np.ndarray:
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
    if not raw_rings:
        return np.array([255.0, 255.0, 255.0])
    flat = np.array([bgr / shape for bgr, shape in raw_rings])
    order = np.argsort(-flat.min(axis=1))
    top = flat[order[: min(2, len(order))]]
    white_die = np.asarray(model.dieset.colours.get("white", (240, 240, 240)), np.float64)[::-1] / 255.0
    return np.median(top, axis=0) / np.maximum(white_die, 0.2)


def _measure(
    img: np.ndarray, rect: Rectified, blob: Blob, square: FaceSquare, expected: tuple[float, float]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    corners_rect = square.corners()
    corners_img = cv2.perspectiveTransform(corners_rect.reshape(1, 4, 2), rect.rect_to_image)[0]
    patch = _patch(img, corners_img).astype(np.float32)
    shape = rect.shape_at(*square.centre)
    ring = np.median(patch[_RING], axis=0)
    return corners_img, patch, ring, shape


@functools.cache
def _popcount(full: int) -> np.ndarray:
    return np.array([bin(m).count("1") for m in range(full)])


@functools.cache
def _single_threaded_blas() -> None:
    """Use one BLAS thread: the reader's matrices are tiny, and on a busy machine a pool of BLAS
    threads makes a 0.1 ms product take 10 ms (measured here on 2 loaded cores)."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - a declared dependency
        return
    threadpool_limits(limits=1, user_api="blas")


def _assign(cost: np.ndarray) -> tuple[float, list[int]]:
    """Minimum-cost assignment of regions (rows) to dice (columns) or to nothing (-1).

    Dynamic programming over subsets of dice, vectorised over the subsets: exact, and fast for
    seven dice and a handful of regions.
    """
    n_blobs, n_dice = cost.shape
    full = 1 << n_dice
    masks = np.arange(full)
    best = np.full(full, np.inf)
    best[0] = 0.0
    choices = []
    for i in range(n_blobs):
        nxt = best + NULL_BLOB
        choice = np.full(full, -1, np.int64)
        for d in range(n_dice):
            bit = 1 << d
            without = masks[(masks & bit) == 0]
            cand = best[without] + cost[i, d]
            better = cand < nxt[without | bit]
            nxt[(without | bit)[better]] = cand[better]
            choice[(without | bit)[better]] = d
        best = nxt
        choices.append(choice)
    unused = n_dice - _popcount(full)
    totals = best + MISSING_DIE * unused
    mask = int(np.argmin(totals))
    total = float(totals[mask])
    out = [-1] * n_blobs
    for i in range(n_blobs - 1, -1, -1):
        d = int(choices[i][mask])
        out[i] = d
        if d >= 0:
            mask &= ~(1 << d)
    return total, out


def _candidate_cost(
    face: _Face, die: DieSpec, model: DiceModel, labs: dict[str, np.ndarray]
) -> tuple[float, GlyphMatch | tuple[FaceValue, float, float] | None]:
    """How well a region fits a die, and the die's best face there."""
    if die.kind == "colour" and die.patch < 0.95:
        # A painted patch on a body: the outermost band shows the body (its rim is shaded, so
        # lightness counts even less there).
        body_de = float(delta_e(face.edge, labs[die.body], l_weight=0.3))
    elif die.kind == "colour":
        body_de = float(delta_e(face.body, face.centre))  # a fully painted face: rim = paint
    else:
        body_de = float(delta_e(face.body, labs[die.body]))
    body_cost = min((body_de / 10.0) ** 2, NO_MATCH)
    if body_de > 45.0:
        return NO_MATCH + body_cost, None
    if die.kind == "colour":
        dists = sorted((float(delta_e(face.centre, labs[str(f)])), f) for f in die.faces)
        (d1, f1), (d2, _) = dists[0], dists[1] if len(dists) > 1 else (float("inf"), None)
        paint_cost = (d1 / 10.0) ** 2 + (face.centre_spread / 8.0) ** 2
        return body_cost + min(paint_cost, NO_MATCH), (f1, d1, d2)
    if die.ink not in face.vectors:
        ink = ink_coverage(face.lab, face.body, labs[die.ink])
        face.inks[die.ink] = ink
        face.vectors[die.ink] = glyph_vectors(ink)
        face.pips[die.ink] = pip_count(ink)
    vectors, pips = face.vectors[die.ink], face.pips[die.ink]
    if vectors is None:
        return body_cost + 12.0, None  # a letter or theme die always shows some ink
    keys = [face_key(die.kind, die.style, f) for f in die.faces]
    match = match_glyph(vectors, model.bank, die.faces, keys)
    glyph_cost = ((1.0 - match.score) / 0.12) ** 2
    if die.kind == "theme" and die.style == "pips":
        if pips is None or pips not in die.faces:
            glyph_cost += 12.0  # not a face of round spots
        elif pips != match.best:
            # The count and the shape disagree: trust neither (no margin left).
            match = replace(match, runner_up=pips, runner_up_score=match.score)
    elif pips is not None and pips >= 2:
        glyph_cost += 12.0  # round spots, not a letter
    elif twin_doubt(match.best, die.faces, face.inks[die.ink], match.turns):
        match = replace(match, runner_up_score=match.score)  # no margin: ask

    return body_cost + min(glyph_cost, NO_MATCH), match


def read_dice(image: np.ndarray, model: DiceModel | None = None, diagnostics: list | None = None) -> DiceRead:
    """Read every die of the set from a BGR frame (see the module docstring).

    `diagnostics`, when given, receives one dict of measurements per assigned die (for tuning).
    """
    _single_threaded_blas()
    t0 = time.perf_counter()
    img = _check_image(image)
    model = model or default_model()
    ds = model.dieset
    th = model.thresholds
    labs = model.colour_labs
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    tray = find_tray(img, ds.tray, gray)
    squares = list(_marker_squares(ds.tray).values()) if tray.method == "markers" else None
    t1 = time.perf_counter()
    rect = rectify(img, tray, squares)
    die_px = ds.die_size_mm * SCALE
    regions = find_blobs(rect, die_px)
    h, w = img.shape[:2]
    nadir_arr = cv2.perspectiveTransform(np.array([[[w / 2, h / 2]]], np.float64), rect.image_to_rect)[0, 0]
    nadir = (float(nadir_arr[0]), float(nadir_arr[1]))
    k = estimate_parallax(regions.blobs, die_px, nadir)
    side = die_px * (1 + k)
    blobs = split_touching(regions.blobs, rect, die_px, k, nadir)
    t2 = time.perf_counter()

    # Square up each face and measure it.
    raw: list[tuple[Blob, FaceSquare, np.ndarray, np.ndarray, np.ndarray, float]] = []
    for blob in blobs:
        square = top_face(blob, side, nadir)
        corners_img, patch, ring, shape = _measure(img, rect, blob, square, (side, side))
        raw.append((blob, square, corners_img, patch, ring, shape))
    white = _white_reference(rect, tray, [(r[4], r[5]) for r in raw], model)
    faces: list[_Face] = []
    for blob, square, corners_img, patch, _ring, shape in raw:
        rgb = patch[..., ::-1] / (white[::-1] * shape)
        lab = rgb_to_lab(rgb)
        body = np.median(lab[_RING], axis=0)
        edge = np.median(lab[_OUTER], axis=0)
        centre = np.median(lab[_CENTRE], axis=0)
        # Each side of the rim, body-coloured pixels only (a letter may reach into the rim);
        # a cocked die shows a differently lit face along one side.
        near = (np.hypot(lab[..., 1] - body[1], lab[..., 2] - body[2]) < 14.0) & (
            np.abs(lab[..., 0] - body[0]) < 35.0
        )
        sides = [float(np.median(lab[s & near][:, 0])) for s in _SIDES if (s & near).sum() > 0.25 * s.sum()]
        flat_u, flat_v = flat_extents(blob, die_px, k, nadir)
        excess = max(blob.extents[0] - flat_u, blob.extents[1] - flat_v) / die_px
        # Where the die stands: its top face is seen pushed away from the camera's foot point by
        # parallax (a factor 1 + k), so undo that before asking whether it is on the tray.
        gx = nadir[0] + (square.centre[0] - nadir[0]) / (1 + k)
        gy = nadir[1] + (square.centre[1] - nadir[1]) / (1 + k)
        x_mm, y_mm = rect.to_mm(gx, gy)
        faces.append(
            _Face(
                blob=blob,
                square=square,
                corners_img=corners_img,
                lab=lab,
                body=body,
                edge=edge,
                centre=centre,
                centre_spread=float(
                    np.percentile(lab[_INNER][:, 0], 95) - np.percentile(lab[_INNER][:, 0], 5)
                ),
                ring_spread=(max(sides) - min(sides)) if len(sides) >= 2 else 0.0,
                excess=excess,
                pos_mm=(x_mm, y_mm),
                vectors={},
                pips={},
                inks={},
            )
        )

    # Score every region against every die, then assign.
    n_dice = len(ds.dice)
    cost = np.full((len(faces), n_dice), NO_MATCH * 2)
    reads: dict[tuple[int, int], GlyphMatch | tuple[FaceValue, float, float] | None] = {}
    for i, face in enumerate(faces):
        for j, die in enumerate(ds.dice):
            cost[i, j], reads[i, j] = _candidate_cost(face, die, model, labs)
    t3 = time.perf_counter()
    if diagnostics is not None:
        diagnostics.append(
            {"cost": cost.copy(), "faces": [(f.square.centre, f.body, f.centre) for f in faces]}
        )
    total, assignment = _assign(cost) if faces else (MISSING_DIE * n_dice, [])

    dice_reads: list[DieRead] = []
    for j, die in enumerate(ds.dice):
        if j not in assignment:
            dice_reads.append(DieRead(die.name, die.kind, None, 0.0, (MISSING,)))
            continue
        i = assignment.index(j)
        face = faces[i]
        # Identity margin: the best assignment in which this region is *not* this die.
        alt = cost.copy()
        alt[i, j] = NO_MATCH * 4
        alt_total, _ = _assign(alt)
        conf_identity = _sigmoid(alt_total - total, th.identity_margin)
        read = reads[i, j]
        alternatives: tuple[tuple[FaceValue, float], ...] = ()
        turns = 0
        if isinstance(read, GlyphMatch):
            value: FaceValue | None = read.best
            conf_face = min(_sigmoid(read.margin, th.glyph_margin), _sigmoid(read.score, th.glyph_score))
            ranked = sorted(read.scores.items(), key=lambda kv: -kv[1])[1:4]
            alternatives = tuple((v, s) for v, s in ranked)
            turns = read.turns
        elif isinstance(read, tuple):
            value = read[0]
            conf_face = _sigmoid(read[2] - read[1], th.colour_margin)
        else:
            value, conf_face = None, 0.0
        flags: list[str] = []
        if face.ring_spread > th.ring_spread or face.excess > th.excess_extent:
            flags.append(COCKED)
        if face.blob.merged:
            flags.append(TOUCHING)
        if not tray.contains(*face.pos_mm) and tray.method != "frame":
            flags.append(OFF_TRAY)
        confidence = min(conf_face, conf_identity)
        if confidence < th.confidence and not flags:
            flags.append(UNCERTAIN)
        if flags and confidence >= th.confidence:
            confidence = min(confidence, th.confidence - 0.01)
        c = face.corners_img.mean(axis=0)
        if diagnostics is not None:
            diagnostics.append(
                {
                    "die": die.name,
                    "value": value,
                    "ring_spread": face.ring_spread,
                    "excess": face.excess,
                    "identity_margin": alt_total - total,
                    "score": read.score if isinstance(read, GlyphMatch) else None,
                    "margin": read.margin if isinstance(read, GlyphMatch) else None,
                    "colour_margin": (read[2] - read[1]) if isinstance(read, tuple) else None,
                    "patch": face.lab,
                    "merged": face.blob.merged,
                }
            )
        dice_reads.append(
            DieRead(
                die=die.name,
                kind=die.kind,
                value=value,
                confidence=float(confidence),
                flags=tuple(flags),
                centre=(float(c[0]), float(c[1])),
                corners=tuple((float(x), float(y)) for x, y in face.corners_img),
                alternatives=alternatives,
                turns=turns,
                body_lab=(float(face.body[0]), float(face.body[1]), float(face.body[2])),
                paint_lab=(float(face.centre[0]), float(face.centre[1]), float(face.centre[2])),
            )
        )
    frame_flags: list[str] = []
    # A hand (or anything big) reaching over the tray itself: resting on the table beside it
    # is fine, over the dice it may hide or move one.
    m = rect.margin_mm * SCALE
    for contour in regions.large:
        inside = (
            (contour[:, 0] > m + 10 * SCALE)
            & (contour[:, 0] < m + (tray.width_mm - 10) * SCALE)
            & (contour[:, 1] > m + 10 * SCALE)
            & (contour[:, 1] < m + (tray.height_mm - 10) * SCALE)
        )
        if inside.any():
            frame_flags.append(HAND)
            break
    if tray.method == "frame":
        frame_flags.append(NO_TRAY)
    if sum(1 for a in assignment if a < 0) > 0:
        frame_flags.append(EXTRA)
    t4 = time.perf_counter()
    confidence = min((d.confidence for d in dice_reads), default=0.0)
    if frame_flags:
        confidence = min(confidence, th.confidence - 0.01)
    timings = {
        "tray": (t1 - t0) * 1e3,
        "segment": (t2 - t1) * 1e3,
        "faces": (t3 - t2) * 1e3,
        "assign": (t4 - t3) * 1e3,
        "total": (t4 - t0) * 1e3,
    }
    return DiceRead(
        dice=tuple(dice_reads),
        confidence=float(confidence),
        flags=tuple(frame_flags),
        tray=tray.method,
        markers=tray.markers,
        timings_ms=timings,
    )
