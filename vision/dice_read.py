"""Read a roll of the Djam dice from one frame: ``read_dice(image) -> DiceRead``.

1. Find the tray (markers or plain dark tray) and look at it from straight above.
2. Find die-sized regions; square up each top face (parallax-aware, see dice_segment).
3. White-balance each face against the markers' paper (or the whitest dice) and the tray's
   measured light, then measure its body colour in Lab (dice_measure).
4. Score every region against every die of the set: body colour plus the best of *that die's*
   faces (glyphs in four orientations, or the colour die's paint), and choose the assignment
   of regions to dice with the lowest total cost (dice_assign). A die with no region is missing.
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
from dataclasses import replace
from typing import Any

import cv2
import numpy as np

from vision.dice_assign import NO_MATCH, assign, identity_margin
from vision.dice_colour import delta_e
from vision.dice_faces import GlyphMatch, face_key, glyph_vectors, ink_coverage, match_glyph, pip_count
from vision.dice_glyphs import GlyphRead, classify, face_probabilities, glyph_input
from vision.dice_measure import Face, measure, raw_face, white_reference
from vision.dice_model import DiceModel, Thresholds, default_model
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
    Rectified,
    estimate_parallax,
    find_blobs,
    flat_extents,
    rectify,
    split_touching,
    top_face,
)
from vision.dice_tray import TrayView, find_tray, marker_squares
from vision.dieset import DieSpec, FaceValue

# What a die's best face is: the glyph network's read, or a colour die's (paint, distance,
# runner-up distance).
FaceRead = GlyphRead | tuple[FaceValue, float, float] | None


class DiceImageError(ValueError):
    """The input is not an image the reader can use."""


def _sigmoid(x: float, centre_width: tuple[float, float]) -> float:
    c, w = centre_width
    return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, (x - c) / w))))


def _prob_confidence(p: float, threshold: float, at: float) -> float:
    """Map a probability to a confidence that crosses `at` exactly where `p` crosses `threshold`
    (piecewise linear, so 1.0 stays 1.0)."""
    if p >= threshold:
        return at + (1.0 - at) * (p - threshold) / max(1.0 - threshold, 1e-9)
    return at * max(p, 0.0) / max(threshold, 1e-9)


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


@functools.cache
def _single_threaded_blas() -> None:
    """Use one BLAS thread: the reader's matrices are tiny, and on a busy machine a pool of BLAS
    threads makes a 0.1 ms product take 10 ms (measured here on 2 loaded cores)."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # pragma: no cover - a declared dependency
        return
    threadpool_limits(limits=1, user_api="blas")


def _body_distance(face: Face, die: DieSpec, labs: dict[str, np.ndarray]) -> float:
    """How far a region's rim is from the die's body colour (Lab, lightness weighted down)."""
    if die.kind == "colour" and die.patch < 0.95:
        # A painted patch on a body: the outermost band shows the body (its rim is shaded, so
        # lightness counts even less there).
        return float(delta_e(face.edge, labs[die.body], l_weight=0.3))
    if die.kind == "colour":
        return float(delta_e(face.body, face.centre))  # a fully painted face: rim = paint
    return float(delta_e(face.body, labs[die.body]))


MAX_BODY_DE = 45.0  # beyond this a region cannot be the die at all
OFF_TRAY_COST = 4.0  # added to every die's cost for a region off the tray


def _learned_opinion(face: Face, die: DieSpec, model: DiceModel, ink: np.ndarray) -> GlyphMatch | None:
    """The templates learned from the user's own dice (calibration), when there are any."""
    if model.learned_templates == 0:
        return None
    keys = [face_key(die.kind, die.style, f) for f in die.faces]
    rows, _ = model.learned_bank.rows(keys)
    if len(rows) == 0:
        return None
    vectors = glyph_vectors(ink)
    if vectors is None:
        return None
    return match_glyph(vectors, model.learned_bank, die.faces, keys)


def _candidate_cost(
    face: Face, die: DieSpec, model: DiceModel, labs: dict[str, np.ndarray], probs: np.ndarray | None
) -> tuple[float, FaceRead]:
    """How well a region fits a die, and the die's best face there.

    `probs` are the glyph network's class probabilities for the region read with this die's
    ink (None for the colour die, or where the body colour rules the die out).
    """
    body_de = _body_distance(face, die, labs)
    body_cost = min((body_de / 10.0) ** 2, NO_MATCH) + face.prior_cost
    if body_de > MAX_BODY_DE:
        return NO_MATCH + body_cost, None
    if die.kind == "colour":
        dists = sorted((float(delta_e(face.centre, labs[die.paint(f)])), f) for f in die.faces)
        (d1, f1), (d2, _) = dists[0], dists[1] if len(dists) > 1 else (float("inf"), None)
        paint_cost = (d1 / 10.0) ** 2 + (face.paint_spread / 8.0) ** 2
        return body_cost + min(paint_cost, NO_MATCH), (f1, d1, d2)
    assert probs is not None
    read = face_probabilities(probs, die.kind, die.style, die.faces)
    # The die's own faces must explain the region: probability mass on them (any orientation),
    # not on "no glyph", pips on a letter die, or letters the die does not carry.
    glyph_cost = min(-3.0 * math.log(max(read.fit, 1e-9)), NO_MATCH)
    if die.kind == "theme" and die.style == "pips" and read.best is not None:
        ink = ink_coverage(face.lab, face.body, labs[die.ink])
        pips = pip_count(ink)
        if pips is not None and pips != read.best:
            # The count and the shape disagree: trust neither.
            read = replace(read, runner_up=pips, runner_up_prob=read.prob)
    elif read.best is not None and model.learned_templates:
        learned = _learned_opinion(face, die, model, ink_coverage(face.lab, face.body, labs[die.ink]))
        if learned is not None:
            read = _with_learned(read, learned, model.thresholds)
    return body_cost + glyph_cost, read


def _with_learned(read: GlyphRead, learned: GlyphMatch, th: Thresholds) -> GlyphRead:
    """Combine the network with the user's own labelled faces: a clear learned match settles a
    face the network doubts; a clear learned disagreement casts doubt on a confident network."""
    read = replace(read, learned=learned.best, learned_score=learned.score)
    clear = learned.score >= th.learned_score and learned.margin >= th.learned_margin
    if not clear:
        return read
    settled = (1.0 + th.face_prob) / 2  # trusted, though less than a sure network read
    if learned.best == read.best:
        return replace(read, prob=max(read.prob, settled))
    if read.prob < th.face_prob:
        return replace(
            read,
            best=learned.best,
            prob=settled,
            runner_up=read.best,
            runner_up_prob=read.prob,
            turns=learned.turns,
        )
    return replace(read, runner_up=learned.best, runner_up_prob=read.prob)


# Chroma noise of a face's rim (robust σ of a* or b*) above which its letter is read a second
# time from lightness alone. Faces in the tuning light mostly stay below it; under a strongly
# coloured lamp the colour planes scatter while lightness stays clean (see docs/dice-reader.md).
SECOND_OPINION_NOISE = 5.0
# The lightness-only read disputes the first only where it all but rules the first's letter
# out (gives it less than SECOND_OPINION_REJECTS, or sees no letter at all), and only as a
# witness worth hearing: its lightness plane is clean (the rim's L* σ below
# SECOND_OPINION_CLEAN_L) or it is sure of itself (SECOND_OPINION_SURE). On dim, noisy faces
# the lightness alone often hesitates between letters (E, M, B) that the first read rightly
# ruled out. Chosen on val-lamps seeds 620000-620699, 640000-640699, 1620000-1620499 and
# 1640000-1640499: on confident first reads the old rule (any disagreement) disputed 10 right
# reads and caught 8 misreads; this one disputes 4 and catches the same 8.
SECOND_OPINION_REJECTS = 0.05
SECOND_OPINION_CLEAN_L = 4.0
SECOND_OPINION_SURE = 0.9
LIGHTNESS_ONLY = np.array([0.0, 1e6, 1e6])  # "noise" that gives a* and b* no weight at all


def _disputes(first: GlyphRead, second: GlyphRead, light_noise: float) -> bool:
    """Whether the lightness-only read `second` puts the first read in doubt: it all but rules
    out the first's letter (or sees no letter at all: a green V read A by its colour planes was
    blank in lightness, val-lamps seed 600010), and it is worth hearing (the rim's lightness σ
    `light_noise` is low, or it is sure of itself).

    >>> a = GlyphRead("L", 0.99, "E", 0.01, 0.0, 1.0, 1.0, 0, {"L": 0.99, "E": 0.01})
    >>> e = GlyphRead("E", 0.999, "L", 0.001, 0.0, 1.0, 1.0, 0, {"L": 0.001, "E": 0.999})
    >>> _disputes(a, e, light_noise=7.0), _disputes(a, a, light_noise=1.0)
    (True, False)
    """
    if first.best is None or second.best == first.best:
        return False
    rules_out = second.best is None or second.probs.get(first.best, 0.0) < SECOND_OPINION_REJECTS
    heard = light_noise < SECOND_OPINION_CLEAN_L or second.prob >= SECOND_OPINION_SURE
    return rules_out and heard


def _second_opinions(
    faces: list[Face],
    assignment: list[int],
    reads: dict[tuple[int, int], FaceRead],
    dice: tuple[DieSpec, ...],
    labs: dict[str, np.ndarray],
) -> None:
    """Read again, from lightness alone, every assigned letter whose colour planes are noisy;
    where the second read all but rules out the first's letter, and its lightness is clean or
    it is sure, the read is put in doubt (never changed).

    On val-lamps (seeds 990000-990299) any disagreement caught 2 of 4 confident misreads but
    also disputed 2 of about 490 right reads of noisy faces, where the second read hesitated
    (the first letter kept 0.2-0.5 of it); see SECOND_OPINION_REJECTS.
    """
    todo: list[tuple[int, int]] = []
    for i, j in enumerate(assignment):
        if j < 0 or dice[j].kind != "letter" or not isinstance(reads[i, j], GlyphRead):
            continue
        if float(faces[i].noise[1:].max()) > SECOND_OPINION_NOISE:
            todo.append((i, j))
    if not todo:
        return
    batch = np.stack(
        [glyph_input(faces[i].lab, faces[i].body, labs[dice[j].ink], LIGHTNESS_ONLY) for i, j in todo]
    )
    for (i, j), probs in zip(todo, classify(batch), strict=True):
        read = reads[i, j]
        assert isinstance(read, GlyphRead)
        die = dice[j]
        second = face_probabilities(probs, die.kind, die.style, die.faces)
        if _disputes(read, second, float(faces[i].noise[0])):
            reads[i, j] = replace(read, runner_up=second.best, runner_up_prob=read.prob)


# A strip of table showing along the tray's edge (the plain tray's edge found a little
# outside the real one) is not a hand: at most 30 mm wide (two fingers), at least four times
# as long, parallel to the edge and near it. Chosen on val-lamps frames of dim rooms (seeds
# 990000-990199, strips 9-24 mm wide and 180-300 mm long).
STRIP_WIDTH_MM = 30.0
STRIP_EDGE_MM = 40.0


def _table_strip(contour: np.ndarray, rect: Rectified, tray: TrayView) -> bool:
    """Whether a large region is a strip of table along the tray's nearest edge (a finger
    reaching in from that edge runs across it, not along it)."""
    box = cv2.minAreaRect(contour.astype(np.float32).reshape(-1, 1, 2))
    (cx, cy), (a, b), _ = box
    short, long = min(a, b), max(a, b)
    if short > STRIP_WIDTH_MM * SCALE or long < 4 * max(short, 1.0):
        return False
    corners = cv2.boxPoints(box)
    sides = [corners[1] - corners[0], corners[2] - corners[1]]
    dx, dy = np.abs(max(sides, key=lambda v: float(np.hypot(*v))))
    if min(dx, dy) > 0.18 * max(dx, dy):
        return False  # slanted (more than 10 degrees) against the tray's edges
    x, y = rect.to_mm(cx, cy)
    # Distances to the left, right (vertical edges), top and bottom (horizontal edges).
    vertical = min(abs(x), abs(tray.width_mm - x))
    horizontal = min(abs(y), abs(tray.height_mm - y))
    along = horizontal if dx > dy else vertical  # the edges the strip runs along
    return along < STRIP_EDGE_MM and along <= (vertical if dx > dy else horizontal)


def _reaches_over_tray(large: tuple[np.ndarray, ...], rect: Rectified, tray: TrayView) -> bool:
    """A hand (or anything big) reaching over the tray itself. Resting on the table beside it
    is fine; over the dice it may hide or move one."""
    m = rect.margin_mm * SCALE
    for contour in large:
        inside = (
            (contour[:, 0] > m + 10 * SCALE)
            & (contour[:, 0] < m + (tray.width_mm - 10) * SCALE)
            & (contour[:, 1] > m + 10 * SCALE)
            & (contour[:, 1] < m + (tray.height_mm - 10) * SCALE)
        )
        if inside.any() and not _table_strip(contour, rect, tray):
            return True
    return False


def read_dice(
    image: np.ndarray, model: DiceModel | None = None, diagnostics: list[dict[str, Any]] | None = None
) -> DiceRead:
    """Read every die of the set from a BGR frame (see the module docstring).

    `diagnostics`, when given, receives one dict of measurements per assigned die (for tuning).
    """
    _single_threaded_blas()
    # OpenCV's own thread pool, like BLAS's, costs more than it gains on images this size when
    # the cores are busy (measured: the glyph network's p95 fell from 37 to 7 ms on two loaded
    # cores); the caller's setting is put back afterwards.
    threads = cv2.getNumThreads()
    cv2.setNumThreads(1)
    try:
        return _read(image, model, diagnostics)
    finally:
        cv2.setNumThreads(threads)


def _read(image: np.ndarray, model: DiceModel | None, diagnostics: list[dict[str, Any]] | None) -> DiceRead:
    t0 = time.perf_counter()
    img = _check_image(image)
    model = model or default_model()
    ds = model.dieset
    th = model.thresholds
    labs = model.colour_labs
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    tray = find_tray(img, ds.tray, gray)
    squares = list(marker_squares(ds.tray).values()) if tray.method == "markers" else None
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
    raws = [raw_face(img, rect, blob, top_face(blob, side, nadir)) for blob in blobs]
    white = white_reference(rect, tray, raws, model)
    faces: list[Face] = []
    for raw in raws:
        face = measure(raw, white)
        flat_u, flat_v = flat_extents(raw.blob, die_px, k, nadir)
        face.excess = max(raw.blob.extents[0] - flat_u, raw.blob.extents[1] - flat_v) / die_px
        # Where the die stands: its top face is seen pushed away from the camera's foot point by
        # parallax (a factor 1 + k), so undo that before asking whether it is on the tray.
        cx, cy = raw.square.centre
        face.pos_mm = rect.to_mm(nadir[0] + (cx - nadir[0]) / (1 + k), nadir[1] + (cy - nadir[1]) / (1 + k))
        # Dice are rarely off the tray and the table beside it holds look-alikes (a light
        # stripe of wood, a token): a region there must fit a die clearly better to be one.
        if tray.method != "frame" and not tray.contains(*face.pos_mm):
            face.prior_cost = OFF_TRAY_COST
        faces.append(face)

    # The glyph network reads every region once per ink colour of a die it could be (one
    # batch for the whole frame).
    slots: dict[tuple[int, str], int] = {}
    inputs: list[np.ndarray] = []
    for i, face in enumerate(faces):
        for die in ds.dice:
            if die.kind == "colour" or (i, die.ink) in slots:
                continue
            if _body_distance(face, die, labs) <= MAX_BODY_DE:
                slots[i, die.ink] = len(inputs)
                inputs.append(glyph_input(face.lab, face.body, labs[die.ink], face.noise))
    probs = classify(np.stack(inputs)) if inputs else np.zeros((0, 0), np.float32)

    # Score every region against every die, then assign.
    n_dice = len(ds.dice)
    cost = np.full((len(faces), n_dice), NO_MATCH * 2)
    reads: dict[tuple[int, int], FaceRead] = {}
    for i, face in enumerate(faces):
        for j, die in enumerate(ds.dice):
            slot = slots.get((i, die.ink))
            p = probs[slot] if slot is not None and die.kind != "colour" else None
            cost[i, j], reads[i, j] = _candidate_cost(face, die, model, labs, p)
    t3 = time.perf_counter()
    if diagnostics is not None:
        diagnostics.append(
            {"cost": cost.copy(), "faces": [(f.raw.square.centre, f.body, f.centre) for f in faces]}
        )
    total, assignment = assign(cost)
    _second_opinions(faces, assignment, reads, ds.dice, labs)

    dice_reads: list[DieRead] = []
    for j, die in enumerate(ds.dice):
        if j not in assignment:
            dice_reads.append(DieRead(die.name, die.kind, None, 0.0, (MISSING,)))
            continue
        i = assignment.index(j)
        face = faces[i]
        # Identity margin: how much worse the best assignment is where this region is not this die.
        margin_id = identity_margin(cost, total, i, j)
        conf_identity = _sigmoid(margin_id, th.identity_margin)
        read = reads[i, j]
        alternatives: tuple[tuple[FaceValue, float], ...] = ()
        turns = 0
        if isinstance(read, GlyphRead):
            value: FaceValue | None = read.best
            # The face's probability among the die's faces, scaled so the threshold sits at
            # th.confidence; a runner-up close behind (e.g. a pip count that disagrees) caps it.
            conf_face = _prob_confidence(read.prob, th.face_prob, th.confidence)
            conf_face = min(conf_face, _prob_confidence(read.margin, th.face_margin, th.confidence))
            # Most of what the face looks like must be one of this die's faces at all.
            conf_face = min(conf_face, _prob_confidence(read.mass, th.face_mass, th.confidence))
            ranked = sorted(read.probs.items(), key=lambda kv: -kv[1])
            alternatives = tuple((v, s) for v, s in ranked if v != value)[:3]
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
        c = face.raw.corners_img.mean(axis=0)
        if diagnostics is not None:
            diagnostics.append(
                {
                    "die": die.name,
                    "value": value,
                    "ring_spread": face.ring_spread,
                    "excess": face.excess,
                    "identity_margin": margin_id,
                    "prob": read.prob if isinstance(read, GlyphRead) else None,
                    "margin": read.margin if isinstance(read, GlyphRead) else None,
                    "mass": read.mass if isinstance(read, GlyphRead) else None,
                    "learned": (read.learned, read.learned_score) if isinstance(read, GlyphRead) else None,
                    "colour_margin": (read[2] - read[1]) if isinstance(read, tuple) else None,
                    "patch": face.lab,
                    "merged": face.blob.merged,
                    "pips": (
                        pip_count(ink_coverage(face.lab, face.body, labs[die.ink]))
                        if die.kind == "theme" and die.style == "pips"
                        else None
                    ),
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
                corners=tuple((float(x), float(y)) for x, y in face.raw.corners_img),
                alternatives=alternatives,
                turns=turns,
                body_lab=(float(face.body[0]), float(face.body[1]), float(face.body[2])),
                paint_lab=(float(face.centre[0]), float(face.centre[1]), float(face.centre[2])),
            )
        )
    frame_flags: list[str] = []
    if _reaches_over_tray(regions.large, rect, tray):
        frame_flags.append(HAND)
    if tray.method == "frame":
        frame_flags.append(NO_TRAY)
    # A die-like thing on the tray that is none of the dice is worth a look; on the table
    # around it (a token, a crumb, the table's grain beside the tray's edge) it is not: a die
    # that jumped off the tray is assigned like any other and flagged off-tray.
    if any(
        a < 0 and (tray.method == "frame" or tray.contains(*faces[i].pos_mm))
        for i, a in enumerate(assignment)
    ):
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
