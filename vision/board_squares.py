"""Is an unmarked square empty? The appearance half of the board reader.

A square with no decoded marker is *empty* only when no piece can be hidden on it: wherever
a piece standing on the square could be (its centre within `CENTRE_BOX` of the square's
centre), most of its footprint must be seen as bare board. Anything else (a piece whose marker
cannot be read, a hand over the square, a hand of the board's own colour beside it) is
*unknown*: the reader never guesses.

The steps, on a top view of the grid (`top_view`, `PPU` pixels per square):

1. **Lighting** (`vision.board_lighting`): the colour of bare board under this frame's light,
   fitted on the squares themselves, anchored on the checker contrast.
2. **Glare** (`vision.board_glare`): lamp reflections as Gaussian spots of added light, fitted
   to the grey excess; the lighting is refitted without them (a bright spot must not bend the
   lighting field), and the spots refitted on the better lighting. A spot dropped by a little
   is judged again on lighting refitted without the squares it lights (`_without_doubtful`).
3. **Pixels** (`vision.board_surface`): bare, foreign, or hidden beside a hand.
4. **Squares**: the free fraction of a piece-sized disc, at its worst position on the square.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.board_fast import as_channels, pyr_down_around, share
from vision.board_geometry import ALL_SQUARES, SIZE, BoardGeometry, square_index
from vision.board_lighting import Lighting, design, fit_lighting, square_means
from vision.board_rim import board_rim
from vision.board_surface import (
    GLARE_ROUNDS,
    Lamp,
    Surface,
    View,
    analyse,
    cmax,
    free_fraction,
    judge_spots,
    lamp_light,
    levels_of,
    predict,
    spot_map,
)
from vision.board_surface import to_linear as _linear

PPU = 24  # pixels per square of the top-down view the statistics are taken on
INNER = 0.18  # the lighting fit uses each square's inside only: grid lines, neighbours' bleed
MIN_USABLE = 0.35  # share of a square's inside not under a known piece, to fit lighting on it
CENTRE_BOX = 0.17  # squares: how far off its square's centre a piece may stand
PIECE_RADIUS = 0.33  # squares: the smallest piece the reader must not miss (0.66 diameter)
NOISE_CEILING = 20.0  # levels: a board model needing more noise than this has not found the board
FREE_ENOUGH = 0.5  # share of a piece's footprint that must be seen bare, everywhere it may be
DOUBT_LIGHT = 0.02  # linear: the squares a doubtful glare spot lights this much are left out of the refit
DOUBT_INLIERS = 0.9  # ... and the refit must keep this share of the first fit's inlier squares


@dataclass(frozen=True)
class PieceReach:
    """The piece the reader must not miss on an unmarked square: its radius, and how far off
    the square's centre (per axis, in squares) its centre may stand. The reader measures both
    on the pieces it sees (`vision.board_reader.piece_reach`); the defaults are for a frame
    with too few pieces to tell."""

    radius: float = PIECE_RADIUS
    box: float = CENTRE_BOX


@dataclass(frozen=True)
class Verdict:
    """For one unmarked square: empty or not, with a confidence and the reason if not.

    ``seen``: the share of a piece's footprint seen as bare board at the worst position a
    piece could take on the square (FREE_ENOUGH is the bound for *empty*).
    """

    empty: bool
    confidence: float
    note: str = ""
    seen: float = 0.0


def top_view(image: np.ndarray, H: np.ndarray) -> np.ndarray:
    """The grid seen from above, ``9 × PPU`` pixels wide, rank 9 at the top, BGR uint8.

    The image is first halved while the board is drawn at more than twice PPU, so the warp
    averages rather than aliases.
    """
    scale = 1.0
    times = 0
    h, w = image.shape[:2]
    px_per_square = np.sqrt(abs(np.linalg.det(H[:2, :2]))) / max(abs(H[2, 2]), 1e-9)
    while px_per_square * scale > 2.5 * PPU and min(h, w) > 64:
        h, w = (h + 1) // 2, (w + 1) // 2  # cv2.pyrDown's size
        times += 1
        scale /= 2
    S = np.diag([scale, scale, 1.0])
    # top-view pixel (u, v) → board (u/PPU, 9 − v/PPU) → image
    T = np.array([[1 / PPU, 0, 0], [0, -1 / PPU, SIZE], [0, 0, 1]])
    M = S @ H @ T
    # Only the part of the frame the warp reads is halved (the board is a third of a frame).
    n = SIZE * PPU - 1
    corners = M @ np.array([[0, n, n, 0], [0, 0, n, n], [1, 1, 1, 1]], np.float64)
    if np.all(corners[2] > 1e-9):
        xs, ys = corners[0] / corners[2], corners[1] / corners[2]
        box = (
            int(np.floor(xs.min())) - 2,
            int(np.floor(ys.min())) - 2,
            int(np.ceil(xs.max())) + 3,
            int(np.ceil(ys.max())) + 3,
        )
        img = pyr_down_around(image, times, box)
    else:  # the board not wholly in front of the camera: halve it all
        img = pyr_down_around(image, times, (0, 0, w, h))
    return cv2.warpPerspective(
        img,
        M,
        (SIZE * PPU, SIZE * PPU),
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=(0, 0, 0),
    )


def _blocks(img: np.ndarray) -> np.ndarray:
    """The inner part of every square of a top view, shape (81, n, n, ...), in ALL_SQUARES order."""
    a, b = round(INNER * PPU), round((1 - INNER) * PPU)
    rest = img.shape[2:]
    blocks = img.reshape(SIZE, PPU, SIZE, PPU, *rest).swapaxes(1, 2)[::-1]  # [rank][file]
    return blocks[:, :, a:b, a:b].reshape(SIZE * SIZE, b - a, b - a, *rest)


def _piece_mask(discs: Sequence[tuple[float, float, float]]) -> np.ndarray:
    """Top-view pixels under a known piece (disc centre x, y, radius in board units)."""
    mask = np.zeros((SIZE * PPU, SIZE * PPU), np.uint8)
    for cx, cy, rad in discs:
        centre = (round(cx * PPU * 8), round((SIZE - cy) * PPU * 8))
        cv2.circle(mask, centre, round(rad * PPU * 8), 1, -1, cv2.LINE_8, shift=3)
    return mask > 0


def square_masks(discs: Sequence[tuple[float, float, float]]) -> np.ndarray:
    """Per square, the inner pixels not covered by a known piece."""
    return ~_blocks(_piece_mask(discs))


def _usable_squares(
    top: np.ndarray, masks: np.ndarray, candidates: Sequence[int], brightest: np.ndarray | None = None
) -> np.ndarray:
    """Squares the lighting may be fitted on: unmarked, mostly free of pieces, in the picture
    and not washed out. ``brightest``: the top view's brightest channel (`cmax`), if made."""
    # Shares of each square's inner pixels as their counts over the count (a boolean mean is
    # that count as a float64 over the count: the same numbers), all squares at once.
    inner = masks.reshape(SIZE * SIZE, -1)
    brightest = _blocks(cmax(top) if brightest is None else brightest).reshape(SIZE * SIZE, -1)
    free, pixels = np.count_nonzero(inner, axis=1), inner.shape[1]
    usable = free / pixels
    saturated = np.count_nonzero((brightest >= 250) & inner, axis=1) / np.maximum(free, 1)
    black = np.count_nonzero(brightest == 0, axis=1) / pixels
    ok = np.zeros(SIZE * SIZE, bool)
    at = np.asarray(candidates, dtype=np.intp)
    ok[at] = ((usable >= MIN_USABLE) & (saturated < 0.1) & (black < 0.02))[at]
    return ok


@dataclass(frozen=True)
class BoardLight:
    """The light on the board in this frame: the lighting model, glare spots, bare board's
    predicted linear colour per top-view pixel (and where it is known), the lamp light added."""

    lighting: Lighting
    spots: tuple
    predicted: np.ndarray
    known: np.ndarray
    lamp: np.ndarray


def board_light(
    lin: np.ndarray,
    masks: np.ndarray,
    ok: np.ndarray,
    view: View,
    judged: np.ndarray,
    saturated: np.ndarray,
    geometry: BoardGeometry,
    pieces: np.ndarray | None = None,
) -> BoardLight:
    """Fit the lighting and the glare spots, alternately (see the module docstring);
    ``pieces`` is the decoded pieces' footprint (no board for a glare spot to light)."""
    lighting = fit_lighting(square_means(_blocks(lin), masks), ok, geometry)
    pred, known = predict(lighting, view)
    spots: list = []
    lamp = np.zeros(lin.shape[:2], np.float32)
    # Squares a spot kept on the second judgement lights: the lighting took up its light
    # there once, and would again (a spot fitted on that lighting is too narrow, and its
    # skirt is left in the board's light), so the lighting is refitted without them.
    left_out = np.zeros_like(ok)
    for k in range(GLARE_ROUNDS):
        # Elliptic spots only in the last round: the lighting is not refitted on them (a
        # spot's shape then refines the lamp light without bending the lighting field).
        found = lamp_light(
            lin, pred, judged & known, saturated, view, elliptic=k == GLARE_ROUNDS - 1, pieces=pieces
        )
        spots = found.kept
        if found.doubtful:
            again = _without_doubtful(
                lin, masks, ok, view, judged, saturated, geometry, lighting, found, pieces
            )
            if again is not None:
                spots, lighting, pred, known, lit = again
                left_out |= lit
        lamp = spot_map(spots, lin.shape[:2])
        if not spots or k == GLARE_ROUNDS - 1:
            break
        lighting = fit_lighting(square_means(_without_lamp(lin, lamp), masks), ok & ~left_out, geometry)
        pred, known = predict(lighting, view)
    return BoardLight(lighting, tuple(spots), pred, known, lamp)


def _without_lamp(lin: np.ndarray, lamp: np.ndarray) -> np.ndarray:
    """``_blocks(lin - as_channels(lamp))``: the squares' inner pixels less the lamp light
    there, subtracted there only (the lighting fit reads nothing else), the same numbers."""
    return _blocks(lin) - as_channels(_blocks(lamp))


def _without_doubtful(
    lin: np.ndarray,
    masks: np.ndarray,
    ok: np.ndarray,
    view: View,
    judged: np.ndarray,
    saturated: np.ndarray,
    geometry: BoardGeometry,
    lighting: Lighting,
    found: Lamp,
    pieces: np.ndarray | None = None,
) -> tuple[list, Lighting, np.ndarray, np.ndarray, np.ndarray] | None:
    """The spots dropped by a little (``found.doubtful``), judged again on lighting refitted
    without the squares they light: the spots then kept, with the lighting, its prediction
    and the squares left out, or None if none is kept.

    The lighting field fitted on squares a reflection lights takes up some of its light, in
    log light: it raises the light squares' prediction more than the dark ones', and the spot
    seems to lose the printed contrast a lamp keeps. The refit must stand on most of the
    squares the first fit stood on (DOUBT_INLIERS): a field fitted on what is left beside a
    sleeve or a hand would explain the sleeve as well as the board.
    """
    lamp = spot_map(found.kept, lin.shape[:2])
    lit = _blocks(spot_map(found.doubtful, lin.shape[:2])).mean(axis=(1, 2)) > DOUBT_LIGHT
    refit = fit_lighting(square_means(_without_lamp(lin, lamp), masks), ok & ~lit, geometry)
    # Off the spots' squares, the refit stands on about as many squares as the first fit did.
    stood = int((lighting.inlier_squares & ~lit).sum())
    if refit.inliers < DOUBT_INLIERS * stood:
        return None
    pred, known = predict(refit, view)
    again = judge_spots(found.doubtful, lin, pred, judged & known, saturated, view, pieces).kept
    if not again:
        return None
    return found.kept + again, refit, pred, known, lit


def judge_squares(
    top: np.ndarray,
    candidates: Sequence[int],
    discs: Sequence[tuple[float, float, float]],
    geometry: BoardGeometry,
    reach: PieceReach = PieceReach(),
    look: Callable[[Surface, BoardLight, np.ndarray], None] | None = None,
) -> dict[int, Verdict]:
    """Decide empty/unknown for the squares at ``candidates`` (indices into ALL_SQUARES).

    ``discs`` are the pieces already found (centre x, y and radius in squares); their
    footprint is known, not judged. ``reach`` is the piece to look for and where it may stand.
    ``look``, if given, is shown the pixel verdicts, the light and the linear top view (the
    reader's foreign regions are found from them, `vision.board_regions`).
    """
    out: dict[int, Verdict] = {}
    pieces = _piece_mask(discs)
    masks = ~_blocks(pieces)
    brightest = cmax(top)
    ok = _usable_squares(top, masks, candidates, brightest)
    if ok.sum() < 8:
        return {i: Verdict(False, 0.0, "too little bare board to judge the lighting") for i in candidates}
    lin = _linear(top)
    view = View.of(geometry, PPU)
    judged = ~view.line & ~pieces & (brightest > 0) & (brightest < 250)
    saturated = ~view.line & ~pieces & (brightest >= 250)
    light = board_light(lin, masks, ok, view, judged, saturated, geometry, pieces)
    surface = analyse(lin, light.predicted, light.known, light.lamp, pieces, view, levels_of(top))
    if look is not None:
        look(surface, light, lin)
    if surface.noise > NOISE_CEILING:
        # The noise is measured as what the board model leaves over; cameras and prints give
        # 3–8 levels (12 at worst on the tune scenes). Far beyond that the lighting model is
        # wrong (a sleeve taken for a class of squares), and a wrong model "fits" anything.
        why = f"the board's colours could not be modelled in this light (misfit {surface.noise:.0f} levels)"
        return {i: Verdict(False, 0.0, why) for i in candidates}
    # The blurred outline of a hand is partly board: what of it is less than half hand is seen.
    rim = board_rim(
        top.astype(np.float32),
        lin,
        surface.foreign,
        surface.good & judged,
        surface.good & ~pieces,
        view.classes,
        surface.noise,
    )
    free = free_fraction(surface.good | rim, reach.radius * PPU)
    box = round(reach.box * PPU)
    for i, worst in zip(candidates, least_free(free, candidates, box), strict=True):
        if worst >= FREE_ENOUGH:
            out[i] = Verdict(True, 0.5 + 0.5 * (worst - FREE_ENOUGH) / (1 - FREE_ENOUGH), "", worst)
        else:
            out[i] = Verdict(False, 0.0, _why(surface, light, *_CENTRES[i]), worst)
    return out


# Each square's centre pixel on the top view (column, row), in ALL_SQUARES order.
_CENTRES = tuple(
    (f * PPU + PPU // 2, (SIZE - 1 - r) * PPU + PPU // 2) for f, r in map(square_index, ALL_SQUARES)
)
_CENTRE_PIXELS = np.array(_CENTRES, np.intp)


def least_free(free: np.ndarray, squares: Sequence[int], box: int) -> list[float]:
    """For each of ``squares`` (indices into ALL_SQUARES), the least of ``free`` (a top view's
    free shares, `free_fraction`) over the ``2 · box + 1`` pixels square around its centre:
    where a piece may stand on it. All the squares at once (a minimum is the same number
    however it is found) while the boxes lie within the view (``box`` under ``PPU // 2``;
    a reach's box can be half a square and its slack, and the far edge squares' boxes are
    then cut short by the view's end, as a slice is)."""
    if not 0 <= box < PPU // 2:  # one square at a time
        return [
            float(free[v - box : v + box + 1, u - box : u + box + 1].min())
            for u, v in map(_CENTRES.__getitem__, squares)
        ]
    cu, cv = _CENTRE_PIXELS[np.asarray(squares, dtype=np.intp)].T
    windows = np.lib.stride_tricks.sliding_window_view(free, (2 * box + 1, 2 * box + 1))
    return windows[cv - box, cu - box].min(axis=(1, 2)).tolist()


def _why(surface: Surface, light: BoardLight, cu: int, cv: int) -> str:
    """The main reason a square cannot be called empty, for people reading the JSON."""
    h = PPU // 2
    sl = (slice(max(0, cv - h), cv + h), slice(max(0, cu - h), cu + h))
    if share(surface.outside[sl]) > 0.02:
        return "outside the picture"
    if not light.known[sl].any():
        return "no colour reference for this square (calibrate the board)"
    foreign, hidden = share(surface.foreign[sl]), share(surface.hidden[sl])
    if foreign >= hidden:
        return "covered: not bare board, and no readable marker"
    return "beside a hand of the board's colour: it may reach over this square"


def measure_class_offsets(
    top: np.ndarray, bare: Sequence[int], discs: Sequence[tuple[float, float, float]], geometry: BoardGeometry
) -> dict[int, tuple[float, float, float]]:
    """Calibration: the colour of every square class relative to class 0 (log linear R, G, B),
    measured on squares known to be bare board (``bare``, indices into ALL_SQUARES).

    The lighting field is fitted on all the bare squares together with one offset per class,
    so a class of a single square (the maze) gets its offset from its one square.
    """
    masks = square_masks(discs)
    means = square_means(_blocks(_linear(top)), masks)
    ok = _usable_squares(top, masks, bare)
    use = np.flatnonzero(ok)
    classes = np.array([geometry.class_of(ALL_SQUARES[i]) for i in use])
    if 0 not in classes or len(use) < 12:
        raise ValueError(
            "too little bare board to calibrate: clear the middle of the board and keep hands away"
        )
    others = sorted(set(classes.tolist()) - {0})
    X = design(use % SIZE + 0.5, use // SIZE + 0.5)
    if others:
        X = np.concatenate([X, np.stack([(classes == c).astype(float) for c in others], axis=1)], axis=1)
    beta, *_ = np.linalg.lstsq(X, means[use], rcond=None)
    # Rows of beta are B, G, R (the image's order); offsets are stored as R, G, B.
    return {c: tuple(float(v) for v in beta[6 + k][::-1]) for k, c in enumerate(others)}  # type: ignore[misc]
