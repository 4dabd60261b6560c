"""Marker detection and the board homography: the geometric half of the board reader.

`detect_markers` finds our ArUco codes in a grey image (optionally inside a region), and
`fit_homography` turns the corner markers into the board→image homography with RANSAC over
their 16 corners, so one misplaced or misread corner marker cannot bend the grid.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, cached_property, lru_cache

import cv2
import numpy as np

from vision.board_fast import median
from vision.board_geometry import SIZE, BoardGeometry
from vision.markers import CORNER_BASE, corner_square, dictionary

# A marker's corners more than this many pixels off the fitted model are outliers. Scaled up
# for large markers (see fit_homography), since corner noise grows with blur and size.
RANSAC_PX = 3.0
MIN_MARKER_SIDE_PX = 12  # smaller markers cannot be decoded reliably at 7 cells
# A second look at the candidates the detector could not decode (see `_second_look`).
SECOND_LOOK_SIZE = (0.8, 1.25)  # a candidate's side, relative to the decoded pieces' median
SECOND_LOOK_CELL = 8  # pixels per marker cell in the canonical view it is decoded from
SECOND_LOOK_MIN_PIECES = 3  # decoded piece markers needed to know a piece marker's size
AROUND = 0.7  # a decoded quad holding the centre of a marker this much smaller is not a marker


@dataclass(frozen=True)
class Marker:
    """A decoded marker: its id, its 4 image corners (ArUco order) and the detector's confidence."""

    id: int
    corners: np.ndarray  # (4, 2) float64, image pixels
    confidence: float

    @property
    def center(self) -> np.ndarray:
        return self.corners.mean(axis=0)

    @property
    def side_px(self) -> float:
        return float(np.mean(np.linalg.norm(self.corners - np.roll(self.corners, 1, axis=0), axis=1)))


@dataclass(frozen=True)
class HomographyFit:
    """Board units → image pixels, with the corner markers that supported it."""

    H: np.ndarray  # 3×3
    corners_seen: tuple[str, ...]  # corner squares whose marker was an inlier
    rms_px: float
    points: int  # inlier correspondences
    from_pieces: bool = False  # one corner marker and the pieces (less precise far from them)

    def to_image(self, pts: np.ndarray) -> np.ndarray:
        return cv2.perspectiveTransform(np.asarray(pts, np.float64).reshape(-1, 1, 2), self.H).reshape(-1, 2)

    def to_board(self, pts: np.ndarray) -> np.ndarray:
        return cv2.perspectiveTransform(np.asarray(pts, np.float64).reshape(-1, 1, 2), self._inverse).reshape(
            -1, 2
        )

    @cached_property
    def _inverse(self) -> np.ndarray:
        """Image pixels → board units (inverted once: a still camera's frames ask again)."""
        return np.linalg.inv(self.H)


@lru_cache(maxsize=32)
def _detector(
    longest: int, refine: bool, full_frame: bool, max_side: float | None = None
) -> cv2.aruco.ArucoDetector:
    """The detector for an image whose longer side is ``longest`` pixels (made once: a still
    camera asks for the same crops frame after frame)."""
    p = cv2.aruco.DetectorParameters()
    p.minMarkerPerimeterRate = min(4 * MIN_MARKER_SIDE_PX / longest, 0.5)
    # In a whole frame nothing we print is wider than a quarter of it; bigger "markers" are
    # the board frame or a sheet of paper, and rejecting them early saves decoding work.
    p.maxMarkerPerimeterRate = 1.0 if full_frame else 4.0
    if max_side is not None:
        # ArUco measures an outline by its pixels (a side of s pixels has about s of them
        # upright, s / √2 at 45°): one of ``max_side`` has about 4 × max_side at most.
        p.maxMarkerPerimeterRate = min(p.maxMarkerPerimeterRate, 4 * max_side / longest)
    p.errorCorrectionRate = 1.0  # of the dictionary's own CORRECTABLE_BITS (2)
    # Thresholding windows of 7 and 17 px instead of 3, 13 and 23: our markers' cells are 4–10 px,
    # the 3 px window found nothing the others missed on the tuning scenes, and costs a pass.
    p.adaptiveThreshWinSizeMin = 7
    if refine:
        p.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    return cv2.aruco.ArucoDetector(dictionary(), p)


def detect_markers(
    gray: np.ndarray,
    roi: tuple[int, int, int, int] | None = None,
    refine: bool = False,
    unread: list[np.ndarray] | None = None,
    max_side: float | None = None,
) -> list[Marker]:
    """Markers of our set in ``gray`` (uint8), or only inside ``roi`` = (x, y, w, h).

    ``refine`` asks for sub-pixel corners (for the corner markers that carry the homography).
    ``max_side`` (pixels), if given, is the largest marker looked for: the detector drops a
    larger outline before decoding it. Inside the board, the squares are such outlines, 81 of
    them in each thresholding pass, and decoding them costs about as much as the rest of the
    search (see `BoardTracker`).
    ``unread``, if given, receives the quads (4 × 2, full-image pixels) of the candidates of a
    piece marker's size that could not be decoded even at a second look, away from every
    marker read: a piece is probably there, its marker unreadable in this frame.
    """
    x0 = y0 = 0
    img = gray
    if roi is not None:
        x, y, w, h = roi
        x0, y0 = max(0, x), max(0, y)
        x1, y1 = min(gray.shape[1], x + w), min(gray.shape[0], y + h)
        if x1 - x0 < 16 or y1 - y0 < 16:
            return []
        img = gray[y0:y1, x0:x1]
    detector = _detector(max(img.shape[:2]), refine, roi is None, max_side)
    corners, ids, conf, rejected = detector.detectMarkersWithConfidence(img)
    if ids is None or len(ids) == 0:
        return []
    offset = np.array([x0, y0], np.float64)
    out = _markers_of(corners, ids, conf, offset)
    again, missed = _second_look(img, rejected, out, offset)
    out += [Marker(m.id, m.corners + offset, m.confidence) for m in again]
    if unread is not None:
        unread += [q.astype(np.float64) + offset for q in missed]
    return _not_around_others(out)


def _markers_of(
    corners: Sequence[np.ndarray], ids: np.ndarray, conf: np.ndarray, offset: np.ndarray
) -> list[Marker]:
    """The detector's markers (its corners, ids and confidences) with their corners in the
    full image (``offset`` added). All at once: each value widened to float64 and offset, as
    one marker at a time would; each marker's corners are a view of one array's rows."""
    quads = np.asarray(corners, np.float64).reshape(-1, 4, 2) + offset
    ids_, conf_ = np.asarray(ids).reshape(-1).tolist(), np.asarray(conf).reshape(-1).tolist()
    return [Marker(i, q, k) for q, i, k in zip(quads, ids_, conf_, strict=True)]


def _not_around_others(markers: list[Marker]) -> list[Marker]:
    """The markers without the piece codes whose quad holds a smaller marker's centre.

    A sticker is opaque: nothing can be seen inside a real marker. A square of the board (or
    a sticker's disc) around a piece's marker is a dark-edged quad too, and the pattern inside
    it, read as 7 × 7 cells, now and then matches one of our codes within the bits corrected:
    a "marker" two or three times a piece marker's size, on the same square, which would
    make the square unknown (a marker of implausible size) or, worse, another piece.
    """
    if len(markers) < 2:
        return markers
    corners = np.array([m.corners for m in markers])
    sides = _sides(corners)
    # Which markers are smaller than AROUND × each one's side, all pairs at once (the same
    # comparisons): usually none, markers are one size. Only piece codes are asked about:
    # the homography's anchors are never dropped on this ground.
    smaller = sides[None, :] < AROUND * sides[:, None]
    asked = [n for n in np.flatnonzero(smaller.any(axis=1)).tolist() if markers[n].id < CORNER_BASE]
    if not asked:
        return markers
    centres = [(float(x), float(y)) for x, y in corners.mean(axis=1)]
    dropped = set()
    for n in asked:
        quad = markers[n].corners.astype(np.float32).reshape(-1, 1, 2)
        if any(cv2.pointPolygonTest(quad, centres[j], False) > 0 for j in np.flatnonzero(smaller[n])):
            dropped.add(n)
    return [m for n, m in enumerate(markers) if n not in dropped]


@cache
def _canonical_detector() -> cv2.aruco.ArucoDetector:
    p = cv2.aruco.DetectorParameters()
    p.errorCorrectionRate = 1.0
    p.perspectiveRemovePixelPerCell = SECOND_LOOK_CELL
    return cv2.aruco.ArucoDetector(dictionary(), p)


def _sides(quads: np.ndarray) -> np.ndarray:
    """Mean side length of each quad (n, 4, 2)."""
    return np.linalg.norm(quads - np.roll(quads, 1, axis=1), axis=2).mean(axis=1)


def _second_look(
    img: np.ndarray, rejected: Sequence[np.ndarray], found: Sequence[Marker], offset: np.ndarray
) -> tuple[list[Marker], list[np.ndarray]]:
    """Piece markers among the candidates the detector gave up on (quads in ``img``'s
    pixels; ``found`` in the full image's, ``offset`` apart).

    The detector reads each cell from a warp of 4 × 4 pixels per cell; a small, blurred
    marker's thin white cells then average with the blur around them and read black, too many
    bits for the code's correction. Each candidate of a piece marker's size (measured on the
    markers decoded) is warped upright at 8 pixels per cell with a quiet zone around it and
    decoded again by the same detector and dictionary: the centre of every cell is what is
    read, and the code must still match one of ours within the same 2 bits. A code already
    decoded elsewhere is not taken (the first sighting stands). Returns the markers read and
    the quads of the candidates still unread (in ``img``'s pixels).
    """
    pieces = [m for m in found if m.id < CORNER_BASE]
    if len(pieces) < SECOND_LOOK_MIN_PIECES or not len(rejected):
        return [], []
    size = float(median(_sides(np.array([m.corners for m in pieces]))))
    quads = np.asarray(rejected, np.float32).reshape(-1, 4, 2)
    q_sides = _sides(quads)
    plausible = np.flatnonzero(
        (q_sides >= SECOND_LOOK_SIZE[0] * size) & (q_sides <= SECOND_LOOK_SIZE[1] * size)
    )
    if not len(plausible):
        return [], []
    seen = {m.id for m in found}
    centres = np.array([m.center - offset for m in found])
    side = 7 * SECOND_LOOK_CELL
    pad = 2 * SECOND_LOOK_CELL
    square = np.array([[0, 0], [side, 0], [side, side], [0, side]], np.float32) + pad
    out, missed = [], []
    for n in plausible:
        pts, q_side = quads[n], float(q_sides[n])
        if len(centres) and float(np.min(np.linalg.norm(centres - pts.mean(axis=0), axis=1))) < q_side:
            continue  # beside a marker already read: its inside or its rim, not another marker
        M = cv2.getPerspectiveTransform(pts, square)
        canon = cv2.warpPerspective(img, M, (side + 2 * pad, side + 2 * pad), flags=cv2.INTER_LINEAR)
        c2, ids2, conf2, _ = _canonical_detector().detectMarkersWithConfidence(canon)
        read = False
        ids = np.asarray(ids2).reshape(-1) if ids2 is not None else np.empty(0, int)
        for c, i, k in zip(c2, ids, np.asarray(conf2).reshape(-1), strict=False):
            got = np.asarray(c, np.float64).reshape(4, 2)
            if int(i) >= CORNER_BASE or int(i) in seen:
                continue
            if float(np.abs(got.mean(axis=0) - (pad + side / 2)).max()) > SECOND_LOOK_CELL:
                continue  # not the candidate itself
            back = cv2.perspectiveTransform(got.reshape(-1, 1, 2), np.linalg.inv(M)).reshape(4, 2)
            out.append(Marker(int(i), back, float(k)))
            seen.add(int(i))
            centres = np.vstack([centres, back.mean(axis=0)]) if len(centres) else back.mean(axis=0)[None]
            read = True
        if not read:
            missed.append(pts)
    return out, missed


def fit_homography(markers: Sequence[Marker], geometry: BoardGeometry) -> HomographyFit | None:
    """RANSAC homography from the corner markers seen; None with fewer than two of them.

    One marker's four corners would fit any homography exactly and extrapolate the grid
    badly, so at least two distinct corner markers must agree.
    """
    model = geometry.corner_marker_points()
    src, dst, owners = [], [], []
    for m in markers:
        if m.id in model:
            src.append(model[m.id])
            dst.append(m.corners)
            owners += [m.id] * 4
    if len({o for o in owners}) < 2:
        return None
    src_a = np.concatenate(src).astype(np.float64)
    dst_a = np.concatenate(dst).astype(np.float64)
    side = float(np.median([m.side_px for m in markers if m.id in model]))
    thresh = max(RANSAC_PX, 0.04 * side)
    H, mask = cv2.findHomography(src_a, dst_a, cv2.RANSAC, thresh, maxIters=200, confidence=0.999)
    if H is None:
        return None
    inl = mask.reshape(-1).astype(bool)
    seen = {owners[i] for i in range(len(owners)) if inl[i]}
    if len(seen) < 2 or inl.sum() < 6:
        return None
    # Refit on the inliers only (least squares), the RANSAC model is from a minimal sample.
    H2, _ = cv2.findHomography(src_a[inl], dst_a[inl], 0)
    H = H2 if H2 is not None else H
    proj = cv2.perspectiveTransform(src_a[inl].reshape(-1, 1, 2), H).reshape(-1, 2)
    rms = float(np.sqrt(np.mean(np.sum((proj - dst_a[inl]) ** 2, axis=1))))
    squares = tuple(sq for mid in sorted(seen) if (sq := corner_square(mid)) is not None)
    return HomographyFit(H, squares, rms, int(inl.sum()))


# Locating the board from one corner marker and the pieces (see fit_with_pieces).
GROWTH = tuple(np.arange(2.0, 14.0, 0.75))  # squares from the corner marker, step by step
SNAP = 0.3  # a piece centre this close to a square's centre is taken to stand on it
MIN_PIECES = 6
PROJECTIVE_PIECES = 5  # below this many pieces the fit stays affine (steadier far away)
MAX_PIECE_RMS = 0.13  # squares: pieces stand a little off-centre, but not more than this


def _fit(src: np.ndarray, dst: np.ndarray, projective: bool) -> np.ndarray | None:
    if projective:
        H, _ = cv2.findHomography(src, dst, 0)
        return H
    A, _ = cv2.estimateAffine2D(src, dst, method=cv2.LMEDS)
    return None if A is None else np.vstack([A, [0.0, 0.0, 1.0]])


def fit_with_pieces(
    corners: Sequence[Marker],
    pieces: Sequence[Marker],
    geometry: BoardGeometry,
    start: HomographyFit | None = None,
) -> HomographyFit | None:
    """The homography from a single corner marker helped by the piece markers; None when
    they do not pin it down.

    One marker's four corners fix the board near it but extrapolate badly. Every piece stands
    on a square, near its centre, so the pieces near the marker are snapped to their squares,
    the model refitted on them (affine while few, a homography once there are enough), and
    the circle of trusted pieces widened step by step: the grid cannot slip by a square, as
    each step only reaches pieces the previous fit places well within half a square. The fit
    is kept only if enough pieces agree closely.

    ``start``: a fit from two or more corner markers that the pieces disagree with (two
    markers on one edge of the board pin down that edge only); the pieces are then grown from
    all of its markers the same way.
    """
    model = geometry.corner_marker_points()
    seen = {m.id for m in corners if m.id in model}
    if len(pieces) < MIN_PIECES or (len(seen) != 1 and start is None):
        return None
    anchors = [
        m for m in corners if m.id in model and (start is None or corner_square(m.id) in start.corners_seen)
    ]
    if not anchors:
        return None
    src_c = np.concatenate([model[m.id] for m in anchors]).astype(np.float64)
    dst_c = np.concatenate([m.corners for m in anchors]).astype(np.float64)
    H = start.H if start is not None else _fit(src_c, dst_c, projective=False)
    if H is None:
        return None
    centres = np.array([m.center for m in pieces], np.float64)
    anchor = src_c.mean(axis=0)
    snapped = np.zeros((0, 2))
    used = np.zeros(0, int)
    for reach in GROWTH:
        for _ in range(2):  # snap, refit, snap again with the better fit
            board = cv2.perspectiveTransform(centres.reshape(-1, 1, 2), np.linalg.inv(H)).reshape(-1, 2)
            grid = np.floor(board) + 0.5
            off = np.linalg.norm(board - grid, axis=1)
            inside = np.all((grid > 0) & (grid < SIZE), axis=1)
            near = np.linalg.norm(board - anchor, axis=1) <= reach
            take = np.flatnonzero(inside & near & (off < SNAP))
            squares = [tuple(g) for g in grid[take]]
            if len(set(squares)) != len(squares):
                return None  # two pieces on one square: the grid is not where we think
            if len(take) < 2:
                break
            snapped, used = grid[take], take
            src = np.concatenate([src_c, snapped])
            dst = np.concatenate([dst_c, centres[used]])
            H2 = _fit(src, dst, projective=len(used) >= PROJECTIVE_PIECES)
            if H2 is None:
                return None
            H = H2
    if len(used) < MIN_PIECES:
        return None
    board = cv2.perspectiveTransform(centres[used].reshape(-1, 1, 2), np.linalg.inv(H)).reshape(-1, 2)
    rms = float(np.sqrt(np.mean(np.sum((board - snapped) ** 2, axis=1))))
    proj = cv2.perspectiveTransform(src_c.reshape(-1, 1, 2), H).reshape(-1, 2)
    errors = np.linalg.norm(proj - dst_c, axis=1)
    marker_err = float(np.max(errors))
    side_px = float(np.median([m.side_px for m in anchors]))
    if start is not None:
        # Several markers: one corner of one of them may be off (a finger over it), as the
        # RANSAC fit allowed; most must agree, none by more than twice as much.
        marker_err = max(float(np.median(errors)), marker_err / 2)
    # Every piece the fit places on the board must sit near a square's centre: a grid that
    # slipped somewhere leaves some of them on the lines.
    board_all = cv2.perspectiveTransform(centres.reshape(-1, 1, 2), np.linalg.inv(H)).reshape(-1, 2)
    on_board = np.all((board_all > 0) & (board_all < SIZE), axis=1)
    off_all = np.linalg.norm(board_all - (np.floor(board_all) + 0.5), axis=1)
    if rms > MAX_PIECE_RMS or marker_err > max(RANSAC_PX, 0.06 * side_px):
        return None
    if (off_all[on_board] > SNAP).sum() > 0.1 * on_board.sum():
        return None
    squares = tuple(sq for m in anchors if (sq := corner_square(m.id)) is not None)
    return HomographyFit(H, squares, marker_err, len(src_c) + len(used), from_pieces=True)


def pieces_disagree(fit: HomographyFit, pieces: Sequence[Marker]) -> bool:
    """Whether the piece markers say ``fit``'s grid is off: more than a tenth of those on the
    board far from every square's centre (SNAP), or two of them on one square. A table
    places its pieces within about 0.15 square of a centre; a grid extrapolated from two
    corner markers on one edge can be half a square off at the far side."""
    if len(pieces) < MIN_PIECES:
        return False
    centres = np.array([m.center for m in pieces], np.float64)
    board = fit.to_board(centres)
    on_board = np.all((board > 0) & (board < SIZE), axis=1)
    if not on_board.any():
        return False
    cells = [tuple(c) for c in np.floor(board[on_board]).astype(int)]
    off = np.linalg.norm(board - (np.floor(board) + 0.5), axis=1)[on_board]
    return len(set(cells)) < len(cells) or (off > SNAP).sum() > 0.1 * on_board.sum()


def square_side_px(fit: HomographyFit) -> float:
    """The longest side of any of the board's squares in the image, in pixels (a square
    nearest the camera): every side of the 9 × 9 grid, projected."""
    steps = np.arange(SIZE + 1, dtype=np.float64)
    gx, gy = np.meshgrid(steps, steps)
    grid = fit.to_image(np.stack([gx.ravel(), gy.ravel()], axis=1)).reshape(SIZE + 1, SIZE + 1, 2)
    across = np.linalg.norm(np.diff(grid, axis=1), axis=2)
    down = np.linalg.norm(np.diff(grid, axis=0), axis=2)
    return float(max(across.max(), down.max()))


def board_roi(
    fit: HomographyFit, image_shape: tuple[int, ...], lo: float, hi: float
) -> tuple[int, int, int, int]:
    """The image rectangle (x, y, w, h) holding the board square [lo, hi]² (board units)."""
    pts = fit.to_image(np.array([[lo, lo], [hi, lo], [hi, hi], [lo, hi]]))
    x0, y0 = np.floor(pts.min(axis=0)).astype(int)
    x1, y1 = np.ceil(pts.max(axis=0)).astype(int)
    x0, y0 = max(0, x0), max(0, y0)
    x1, y1 = min(image_shape[1], x1), min(image_shape[0], y1)
    return int(x0), int(y0), int(max(0, x1 - x0)), int(max(0, y1 - y0))
