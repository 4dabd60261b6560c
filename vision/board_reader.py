"""The board reader: one camera frame → a `BoardRead` of all 81 squares.

    read = read_board(image)              # pure: detects everything on this frame
    tracker = BoardTracker()              # for a camera stream: caches the homography
    read = tracker.read(frame)            # the same scene again: the last read, at once

Steps: find the corner markers and fit the board→image homography (RANSAC); decode the piece
markers and put each on the square under its centre in board coordinates; judge every other
square empty or unknown from its appearance (`vision.board_squares`); flag the impossible
(a piece seen twice, two pieces on one square).
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from vision.board_detect import (
    HomographyFit,
    Marker,
    board_roi,
    detect_markers,
    fit_homography,
    fit_with_pieces,
    pieces_disagree,
    square_side_px,
)
from vision.board_geometry import ALL_SQUARES, DEFAULT_GEOMETRY, SIZE, BoardGeometry, square_name
from vision.board_read import BoardRead, Camera, Problem, SquareRead
from vision.board_regions import RegionFinder
from vision.board_squares import (
    CENTRE_BOX,
    PIECE_RADIUS,
    PieceReach,
    judge_squares,
    measure_class_offsets,
    top_view,
)
from vision.markers import CORNER_BASE, corner_square, marker_face

EDGE_MARGIN = 0.04  # a piece centre this close to a square's edge (in squares) is "on the line"
PIECES_FIT_MARGIN = 0.2  # ... and this close is unknown when the board was located from the pieces
MARKER_SIZE_RANGE = (0.2, 0.75)  # plausible marker side on the board, in squares
# The still camera's piece search looks for markers up to this side, in squares of the largest
# square's size in the image: above the plausible (MARKER_SIZE_RANGE), below the squares'
# own dark-edged outlines, which the detector would otherwise decode, 81 in each pass.
PIECE_SEARCH_SIDE = 0.8
STILL_PX = 2.5  # corner markers within this many pixels of the cached model: camera still
MIN_DECODE_CONFIDENCE = 0.6
UNREAD_PIECE = "something of a piece's size lies here, and its marker cannot be read"
UNREAD_MARKER = "a marker-sized square shape lies here, and it cannot be read"
# A 5 × 5 px mean of the grey difference from the last read frame this large (levels) is a
# change in the scene. Fresh sensor noise of σ 6 and JPEG left 11–12 at most over a board;
# a piece's marker, a finger or a shadow's edge change hundreds of pixels by 50 and more.
SAME_SCENE_LEVELS = 24


class BoardImageError(ValueError):
    """The image cannot be read as a board: not an image, or no board in it."""


def as_bgr(image: np.ndarray) -> np.ndarray:
    """Check an image array and bring it to 3-channel uint8 BGR; raises BoardImageError."""
    if not isinstance(image, np.ndarray) or image.size == 0:
        raise BoardImageError("not an image (expected a non-empty numpy array)")
    if image.dtype != np.uint8:
        raise BoardImageError(f"expected 8-bit pixels, got {image.dtype}")
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.ndim == 3 and image.shape[2] == 3:
        return image
    if image.ndim == 3 and image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    raise BoardImageError(f"expected a grey, BGR or BGRA image, got shape {image.shape}")


@dataclass(frozen=True)
class _Placed:
    marker: Marker
    x: float  # centre in board units
    y: float
    side: float  # marker side in board units
    square: str


def _place_pieces(markers: Sequence[Marker], fit: HomographyFit) -> tuple[list[_Placed], list[str]]:
    notes = []
    pieces = [m for m in markers if marker_face(m.id) is not None]
    if not pieces:
        return [], notes
    # Each marker's centre (`Marker.center`, the mean of its corners) from the stacked
    # corners, and the centres and corners mapped in one call: the same sums in the same
    # order, and each point's mapping is its own.
    corners = np.array([m.corners for m in pieces])
    points = fit.to_board(np.concatenate([corners.mean(axis=1), corners.reshape(-1, 2)]))
    centres, corners = points[: len(pieces)], points[len(pieces) :].reshape(-1, 4, 2)
    # Each marker's mean side, all at once: np.mean(np.linalg.norm(c - np.roll(c, 1,
    # axis=0), axis=1)) of each, the same numbers (each row's four lengths summed in order).
    d = corners - np.roll(corners, 1, axis=1)
    sides = np.mean(np.sqrt(d[..., 0] * d[..., 0] + d[..., 1] * d[..., 1]), axis=1).tolist()
    placed = []
    for m, (x, y), side in zip(pieces, centres, sides, strict=True):
        face = marker_face(m.id)
        assert face is not None
        if not (0 <= x < SIZE and 0 <= y < SIZE):
            notes.append(
                f"{face.piece.label} ({'dead' if face.dead else 'living'}) seen off the board, ignored"
            )
            continue
        sq = square_name(int(x), int(y))
        if not MARKER_SIZE_RANGE[0] <= side <= MARKER_SIZE_RANGE[1]:
            # Held above the board, or a sticker lying loose: its position cannot be trusted.
            notes.append(f"{sq}: a marker of implausible size ({side:.2f} squares), ignored")
            placed.append(_Placed(m, float(x), float(y), -1.0, sq))
            continue
        placed.append(_Placed(m, float(x), float(y), side, sq))
    return placed, notes


FOOTPRINT = 1.3  # a piece's footprint on the view, × its radius: its rim, blur and its shadow


def _footprints(placed: Sequence[_Placed], geometry: BoardGeometry) -> list[tuple[float, float, float]]:
    """Discs (x, y, radius in squares) covering the pieces found and the shadows they cast."""
    return [(p.x, p.y, FOOTPRINT * p.side / geometry.piece_marker_ratio / 2) for p in placed if p.side > 0]


MIN_PIECES_MEASURED = 6  # pieces needed to measure the set's size and how they are placed
OFFSET_CONFIDENCE = 0.05  # the box holds the pieces' true spread with 95 % confidence
OFFSET_SLACK = 0.015  # squares: a piece's position, measured, is this far off at worst


def piece_reach(placed: Sequence[_Placed], geometry: BoardGeometry, from_pieces: bool = False) -> PieceReach:
    """The piece to look for on unmarked squares, measured on the pieces seen: its radius
    (the set's size) and how far off its square's centre it may stand (how carefully this
    table places its pieces).

    The offsets seen are a sample of the table's spread: the box is the upper 95 % bound of
    a uniform spread from the largest one (``max ÷ 0.05^(1/n)`` for n offsets), never less
    than the largest offset seen. With fewer than six pieces, or when the board was located
    from the pieces themselves (their offsets are then not measured), the defaults hold.
    """
    sized = [p for p in placed if p.side > 0]
    if not sized:
        return PieceReach()
    radii = sorted(p.side / geometry.piece_marker_ratio / 2 for p in sized)
    if len(sized) < MIN_PIECES_MEASURED or from_pieces:
        return PieceReach(min(PIECE_RADIUS, 0.9 * _median_of_sorted(radii)), CENTRE_BOX)
    # The median size, or a little over the smallest if some pieces are smaller.
    radius = min(_median_of_sorted(radii), 1.03 * radii[0])
    offsets = [abs(v - math.floor(v) - 0.5) for p in sized for v in (p.x, p.y)]
    largest = max(offsets)
    bound = largest / OFFSET_CONFIDENCE ** (1 / len(offsets)) + OFFSET_SLACK
    box = min(bound, max(CENTRE_BOX, largest + OFFSET_SLACK))
    return PieceReach(radius, float(box))


def _median_of_sorted(values: Sequence[float]) -> float:
    """``float(np.median(values))`` of sorted floats (no NaN), without numpy's overhead: the
    mean of the middle one or two as numpy takes it, a sum from +0.0 (a median of -0.0 is
    +0.0) divided by the count."""
    n = len(values)
    if n % 2:
        return 0.0 + values[n // 2]
    return (0.0 + values[n // 2 - 1] + values[n // 2]) / 2


def read_with(
    image: np.ndarray,
    fit: HomographyFit,
    piece_markers: Sequence[Marker],
    geometry: BoardGeometry = DEFAULT_GEOMETRY,
    camera: Camera = "fitted",
    corners_seen: tuple[str, ...] | None = None,
    unread: Sequence[np.ndarray] = (),
) -> BoardRead:
    """Assemble the read of a frame whose homography and markers are known.

    ``corners_seen`` defaults to the corners that supported ``fit``; a tracker reusing a
    cached fit passes the corners it actually saw in this frame. ``unread`` are the quads of
    marker-sized candidates the detector could not decode (`detect_markers`).
    """
    placed, notes = _place_pieces(piece_markers, fit)
    problems: list[Problem] = []
    by_square: dict[str, list[_Placed]] = defaultdict(list)
    for p in placed:
        by_square[p.square].append(p)
    reads: dict[str, SquareRead] = {}
    # Every piece exists once, and shows one face: a second sighting makes both unknown.
    by_piece: dict[int, list[_Placed]] = defaultdict(list)
    for p in placed:
        if p.side > 0:
            face = marker_face(p.marker.id)
            assert face is not None
            by_piece[face.piece.index].append(p)
    doubtful: set[str] = set()
    for sightings in by_piece.values():
        if len(sightings) > 1:
            face = marker_face(sightings[0].marker.id)
            assert face is not None
            sqs = tuple(sorted({s.square for s in sightings}))
            faces = {marker_face(s.marker.id).dead for s in sightings}  # type: ignore[union-attr]
            kind = "living-and-dead" if len(faces) == 2 else "duplicate-piece"
            what = "both faces up" if kind == "living-and-dead" else "seen twice"
            problems.append(Problem(kind, sqs, f"{face.piece.label} {what}: {', '.join(sqs)}"))
            doubtful.update(sqs)
    for sq, ps in by_square.items():
        if any(p.side < 0 for p in ps):
            reads[sq] = SquareRead(
                sq, "unknown", 0.0, note="a marker of implausible size (held above the board?)"
            )
            continue
        if len(ps) > 1:
            labels = [marker_face(p.marker.id).piece.label for p in ps]  # type: ignore[union-attr]
            problems.append(Problem("two-pieces-one-square", (sq,), f"{sq} holds {' and '.join(labels)}"))
            reads[sq] = SquareRead(sq, "unknown", 0.0, note="two pieces on one square")
            continue
        p = ps[0]
        face = marker_face(p.marker.id)
        assert face is not None
        if sq in doubtful:
            reads[sq] = SquareRead(sq, "unknown", 0.0, note=f"{face.piece.label} seen more than once")
            continue
        if p.marker.confidence < MIN_DECODE_CONFIDENCE:
            reads[sq] = SquareRead(sq, "unknown", 0.0, marker_id=p.marker.id, note="marker barely readable")
            continue
        edge = min(p.x - int(p.x), int(p.x) + 1 - p.x, p.y - int(p.y), int(p.y) + 1 - p.y)
        if fit.from_pieces and edge < PIECES_FIT_MARGIN:
            # The grid was fitted to the pieces themselves: near a line it may be a square out.
            reads[sq] = SquareRead(
                sq,
                "unknown",
                0.0,
                marker_id=p.marker.id,
                note="piece near a line (board located from the pieces)",
            )
            continue
        conf = p.marker.confidence * (1.0 if edge >= EDGE_MARGIN else 0.5)
        note = "" if edge >= EDGE_MARGIN else "piece centre on the line between squares"
        reads[sq] = SquareRead(
            sq,
            "corpse" if face.dead else "living",
            float(conf),
            party=face.piece.party,
            kind=face.piece.kind,
            piece=face.piece.label,
            marker_id=p.marker.id,
            note=note,
        )
    # Everything else: bare board, or unknown.
    discs = _footprints(placed, geometry)
    candidates = [i for i, sq in enumerate(ALL_SQUARES) if sq not in reads]
    top = top_view(image, fit.H)
    # The foreign regions (hands, held pieces) from the same pixel verdicts: `board_regions`.
    regions = RegionFinder([sq for sq, ps in by_square.items() if any(p.side < 0 for p in ps)])
    reach = piece_reach(placed, geometry, fit.from_pieces)
    verdicts = judge_squares(top, candidates, discs, geometry, reach, regions.look)
    for i, v in verdicts.items():
        sq = ALL_SQUARES[i]
        reads[sq] = (
            SquareRead(sq, "empty", v.confidence) if v.empty else SquareRead(sq, "unknown", 0.0, note=v.note)
        )
    # On a judged square, evidence of a piece is what the note should name, even where the
    # square was unknown anyway: with no hand in the frame, its footprint looking foreign
    # is the piece's (a hand's note there would send people looking for a hand).
    renamed = set() if any(r.kind == "hand" for r in regions.found) else {ALL_SQUARES[i] for i in verdicts}
    # A compact thing of about a piece's size on a square judged empty is a piece whose marker
    # was not found in this frame: its white face and rim can pass for bare board on a light
    # square, so half its footprint may look bare, but it is not an empty square. It must be
    # at least a marker's area (the specks a lighting misfit leaves are a tenth of a square).
    marker_area = (geometry.piece_marker_ratio * 2 * reach.radius) ** 2
    for region in regions.found:
        if region.kind != "piece" or region.area < marker_area:
            continue
        for sq in region.core:
            if reads[sq].state == "empty" or sq in renamed:
                reads[sq] = SquareRead(sq, "unknown", 0.0, note=UNREAD_PIECE)
    # A quad of a piece marker's size that the detector saw but could not decode: under a
    # lamp's reflection a sticker's white disc can match a light square, and its blurred
    # marker be too small a region to count as foreign; the dark quad is still there.
    for quad in unread:
        x, y = fit.to_board(quad.mean(axis=0, keepdims=True))[0]
        if 0 <= x < SIZE and 0 <= y < SIZE:
            sq = square_name(int(x), int(y))
            if reads[sq].state == "empty" or sq in renamed:
                reads[sq] = SquareRead(sq, "unknown", 0.0, note=UNREAD_MARKER)
    return BoardRead(
        squares=tuple(reads[sq] for sq in ALL_SQUARES),
        camera=camera,
        corners_seen=fit.corners_seen if corners_seen is None else corners_seen,
        homography=tuple(tuple(float(v) for v in row) for row in fit.H),
        problems=tuple(problems),
        notes=tuple(notes),
        regions=regions.found,
    )


def _gray(bgr: np.ndarray) -> np.ndarray:
    return cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY)


def read_board(image: np.ndarray, geometry: BoardGeometry = DEFAULT_GEOMETRY) -> BoardRead:
    """Read one frame on its own: detect every marker, fit the homography, judge the squares.

    Raises BoardImageError when the image is not an image or fewer than two corner markers
    are visible.
    """
    bgr = as_bgr(image)
    return _read_fresh(bgr, _gray(bgr), geometry, "fitted")[1]


def _read_fresh(
    bgr: np.ndarray, gray: np.ndarray, geometry: BoardGeometry, camera: Camera
) -> tuple[HomographyFit, BoardRead]:
    """Every marker of the frame detected, the board located from them, the squares judged:
    the fit and the read (see `read_board`)."""
    unread: list[np.ndarray] = []
    markers = detect_markers(gray, unread=unread)
    corners = [m for m in markers if m.id >= CORNER_BASE]
    pieces = [m for m in markers if m.id < CORNER_BASE]
    fit, notes = locate(gray, corners, pieces, geometry)
    read = read_with(bgr, fit, pieces, geometry, camera, unread=unread)
    return fit, (replace(read, notes=notes + read.notes) if notes else read)


def locate(
    gray: np.ndarray, corners: Sequence[Marker], pieces: Sequence[Marker], geometry: BoardGeometry
) -> tuple[HomographyFit, tuple[str, ...]]:
    """The board's homography from a frame's markers, with a note when it rests on the pieces;
    raises BoardImageError when the board cannot be located."""
    fit = fit_homography(corners, geometry)
    if fit is not None:
        fit = refine_fit(gray, corners, geometry) or fit
        if len(fit.corners_seen) > 2 or not pieces_disagree(fit, pieces):
            return fit, ()
        # The pieces stand off the grid: the markers seen pin down part of the board only
        # (two on one edge). Grown from them with the pieces, or not read at all.
        grown = fit_with_pieces(corners, pieces, geometry, start=fit)
        if grown is None:
            raise BoardImageError(
                f"cannot locate the board: the {len(fit.corners_seen)} corner markers seen "
                f"({', '.join(fit.corners_seen)}) and the pieces disagree about where the squares are"
            )
        return grown, (f"board located from corner markers {', '.join(grown.corners_seen)} and the pieces",)
    fit = fit_with_pieces(corners, pieces, geometry)
    if fit is not None:
        return fit, (
            f"board located from one corner marker ({fit.corners_seen[0]}) and {fit.points - 4} pieces",
        )
    seen = sorted({m.id for m in corners})
    raise BoardImageError(
        f"cannot locate the board: {len(seen)} of its 4 corner markers visible, at least 2 needed "
        "(or one and enough pieces)"
    )


def refine_fit(gray: np.ndarray, corners: Sequence[Marker], geometry: BoardGeometry) -> HomographyFit | None:
    """The homography again, from sub-pixel corners of the corner markers (found again in a
    small crop around each): a precise model for the grid and for the tracker's later
    stillness checks. None when the refined markers do not support a fit."""
    refined: list[Marker] = []
    for m in corners:
        side = m.side_px
        x0, y0 = m.corners.min(axis=0) - 0.5 * side
        roi = (int(x0), int(y0), int(2 * side), int(2 * side))
        again = [r for r in detect_markers(gray, roi, refine=True) if r.id == m.id]
        refined.append(again[0] if again else m)  # not found again (at the frame's edge): as it was
    return fit_homography(refined, geometry)


def calibrate(image: np.ndarray, geometry: BoardGeometry = DEFAULT_GEOMETRY) -> BoardGeometry:
    """Measure the colours of the board's square classes from a photo in which every square
    without a marker is bare board (an empty board, or the starting position, no hands), and
    return the geometry with those ``class_offsets``; save it with ``to_json`` and pass it to
    the reader. Raises BoardImageError or ValueError with what to fix.
    """
    bgr = as_bgr(image)
    markers = detect_markers(_gray(bgr))
    fit = fit_homography([m for m in markers if m.id >= CORNER_BASE], geometry)
    if fit is None:
        raise BoardImageError("cannot locate the board: at least 2 of its 4 corner markers must be visible")
    placed, _ = _place_pieces([m for m in markers if m.id < CORNER_BASE], fit)
    taken = {p.square for p in placed}
    discs = _footprints(placed, geometry)
    bare = [i for i, sq in enumerate(ALL_SQUARES) if sq not in taken]
    offsets = measure_class_offsets(top_view(bgr, fit.H), bare, discs, geometry)
    return replace(geometry, class_offsets=offsets)


@dataclass(frozen=True)
class _Expected:
    """What a still camera's search needs of a cached homography in a frame of ``shape``:
    the crops the corner markers are looked for in, each corner marker's corners where the
    homography puts them, the board's region (the pieces' search) and the largest piece
    marker looked for there (pixels)."""

    fit: HomographyFit
    geometry: BoardGeometry
    shape: tuple[int, ...]
    corner_rois: tuple[tuple[int, int, int, int], ...]
    corners_at: dict[int, np.ndarray]
    board: tuple[int, int, int, int]
    largest_marker: float

    @classmethod
    def of(cls, fit: HomographyFit, geometry: BoardGeometry, shape: tuple[int, ...]) -> _Expected:
        corners_at = {i: fit.to_image(pts) for i, pts in geometry.corner_marker_points().items()}
        rois = []
        for img in corners_at.values():
            side = float(np.max(np.ptp(img, axis=0)))
            x0, y0 = img.min(axis=0) - 0.6 * side
            x1, y1 = img.max(axis=0) + 0.6 * side
            rois.append((int(x0), int(y0), int(x1 - x0), int(y1 - y0)))
        board = board_roi(fit, shape, -0.2, SIZE + 0.2)
        largest = PIECE_SEARCH_SIDE * square_side_px(fit)
        return cls(fit, geometry, shape, tuple(rois), corners_at, board, largest)


@dataclass
class BoardTracker:
    """Reads a camera stream, keeping the homography while the camera stays still.

    Each frame, the corner markers are looked for only near where the cached homography puts
    them (small crops, sub-pixel corners), and the piece markers only inside the board. When
    the corners have moved more than ``still_px`` the homography is refitted and the read is
    marked ``moved``; when no corner marker can be seen the cached one is used and the read is
    marked ``unverified``. Without a cache (first frame, or after losing the board), the whole
    frame is searched.

    With ``reuse`` (the default), a still frame that shows the same scene as the last frame
    read in full (`SAME_SCENE_LEVELS`) gets that read again instead of a new one, if that
    read left nothing in doubt (`_nothing_in_doubt`): at the table the board sits unchanged
    most of the time, and the pixels say so for a fraction of a read's cost. ``reused``
    counts those frames.
    """

    geometry: BoardGeometry = field(default_factory=lambda: DEFAULT_GEOMETRY)
    still_px: float = STILL_PX
    fit: HomographyFit | None = None
    reuse: bool = True
    reused: int = field(default=0, init=False)  # frames given the last read again
    # The last still frame read in full: its board region, that region's grey pixels, its read.
    _last: tuple[tuple[int, int, int, int], np.ndarray, BoardRead] | None = field(
        default=None, init=False, repr=False
    )
    _expected: _Expected | None = field(default=None, init=False, repr=False)

    def reset(self) -> None:
        self.fit = None
        self._last = None

    def _expect(self, shape: tuple[int, ...]) -> _Expected:
        """Where the cached homography puts things in a frame of ``shape``, worked out once
        for each homography (and frame size): a still camera asks the same every frame."""
        assert self.fit is not None
        known = self._expected
        if (
            known is None
            or known.fit is not self.fit
            or known.geometry is not self.geometry
            or known.shape != shape
        ):
            known = self._expected = _Expected.of(self.fit, self.geometry, shape)
        return known

    def read(self, image: np.ndarray) -> BoardRead:
        bgr = as_bgr(image)
        gray = _gray(bgr)
        if self.fit is None:
            return self._cold(bgr, gray)
        expected = self._expect(gray.shape)
        corners: list[Marker] = []
        for roi in expected.corner_rois:
            corners += [m for m in detect_markers(gray, roi, refine=True) if m.id >= CORNER_BASE]
        at = expected.corners_at
        errors = [float(np.max(np.linalg.norm(at[m.id] - m.corners, axis=1))) for m in corners if m.id in at]
        if not errors:
            camera: Camera = "unverified"
            fit = self.fit
        elif float(np.median(errors)) <= self.still_px:
            # The median: one corner marker half under a hand, or misread, is not a moved camera.
            camera, fit = "still", self.fit
        else:
            return self._cold(bgr, gray, moved=True)
        roi = expected.board
        seen = tuple(sorted({sq for m in corners if (sq := corner_square(m.id)) is not None}))
        x, y, w, h = roi  # within the frame (`board_roi` clips it)
        crop = gray[y : y + h, x : x + w]
        last = self._last if camera == "still" and self.reuse else None
        if last is not None and last[0] == roi and _same_scene(crop, last[1]):
            self.reused += 1
            return replace(last[2], corners_seen=seen)
        unread: list[np.ndarray] = []
        found = detect_markers(gray, roi, unread=unread, max_side=expected.largest_marker)
        pieces = [m for m in found if m.id < CORNER_BASE]
        read = read_with(bgr, fit, pieces, self.geometry, camera, seen, unread)
        if camera == "still" and self.reuse and _nothing_in_doubt(read):
            self._last = (roi, crop.copy(), read)
        return read

    def _cold(self, bgr: np.ndarray, gray: np.ndarray, moved: bool = False) -> BoardRead:
        self._last = None
        try:
            self.fit, read = _read_fresh(bgr, gray, self.geometry, "moved" if moved else "fitted")
        except BoardImageError:
            self.fit = None
            raise
        return read


def _same_scene(now: np.ndarray, before: np.ndarray) -> bool:
    """Nothing in the board region changed beyond a camera's noise (`SAME_SCENE_LEVELS`)."""
    if now.shape != before.shape or now.size == 0:
        return False
    return int(cv2.blur(cv2.absdiff(now, before), (5, 5)).max()) < SAME_SCENE_LEVELS


def _nothing_in_doubt(read: BoardRead) -> bool:
    """Every square decided, nothing impossible, nothing over the board but glare: a read worth
    giving again. A doubtful one is not: the next frame's noise may let a square be read, and
    a follower waiting for the board to clear must see each frame's own regions."""
    return read.complete and all(r.kind == "glare" for r in read.regions)
