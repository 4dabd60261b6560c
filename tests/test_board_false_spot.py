"""A glare spot fitted where no reflection is: the local light takes its light away again.

The lamp model is itself a fit. A faint wide bump fitted to the lighting field's misfit (the
middle of a strongly vignetted board, the maze square's colour) adds light to squares that
show none; the local light fit then finds a negative grey term there. That is the lamp model
being wrong, not the board. Less than no added light at all (lamp plus grey term below
B_MIN) is no light; taking away more than a fifth of the lamp's light is a weak misfit,
foreign only where it joins a hand (board20l).
"""

from __future__ import annotations

import numpy as np

from tests.scene_cache import scene
from vision.board_geometry import DEFAULT_GEOMETRY, SIZE, square_index
from vision.board_reader import read_board
from vision.board_squares import PPU
from vision.board_surface import View, analyse, to_linear

DARK = np.array([0.06, 0.15, 0.26])  # linear B, G, R of the wood scheme's squares
LIGHT = np.array([0.30, 0.58, 0.79])


def _box_of(sq: str) -> tuple[slice, slice]:
    f, r = square_index(sq)
    return slice((SIZE - 1 - r) * PPU, (SIZE - r) * PPU), slice(f * PPU, (f + 1) * PPU)


def _bump(centre: tuple[float, float], width: float, amplitude: float) -> np.ndarray:
    """A Gaussian spot of lamp light on the top view (centre in board units)."""
    n = SIZE * PPU
    v, u = np.mgrid[0:n, 0:n].astype(np.float32)
    cu, cv = centre[0] * PPU, (SIZE - centre[1]) * PPU
    return (amplitude * np.exp(-((u - cu) ** 2 + (v - cv) ** 2) / (2 * width * width))).astype(np.float32)


def _frame(lamp_in_picture: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, View]:
    """A bare board (with ``lamp_in_picture`` of real lamp light), as the camera gives it
    (grain, noise, 8 bits), and bare board's exact colour: (lin, pred, known, view)."""
    rng = np.random.default_rng(7)
    view = View.of(DEFAULT_GEOMETRY, PPU)
    board = np.where((view.classes == 1)[..., None], LIGHT, DARK).astype(np.float32)
    lin = board * (1 + 0.02 * rng.standard_normal((*board.shape[:2], 1))) + lamp_in_picture[..., None]
    img = np.clip(255 * np.clip(lin, 0, 1) ** (1 / 2.2) + rng.normal(0, 1.5, lin.shape), 0, 255)
    known = view.classes != 2  # the maze's colour is the calibration's: left out here
    return to_linear(img.astype(np.uint8)), board, known, view


def test_a_spot_fitted_where_no_reflection_is_leaves_the_board_bare() -> None:
    # Tune 3743: a bump 35 px wide and 0.045 high fitted over the middle of a strongly
    # vignetted board (no reflection there); c5, d5 and f4 were foreign as "negative light".
    spot = _bump((3.5, 4.5), 35.0, 0.04)
    lin, pred, known, view = _frame(np.zeros(spot.shape, np.float32))
    surface = analyse(lin, pred, known, spot, np.zeros(spot.shape, bool), view)
    for sq in ("c5", "d5", "d4", "c4"):
        box = _box_of(sq)
        assert surface.foreign[box].mean() < 0.02, sq
        assert surface.good[box].mean() > 0.8, sq


def test_a_real_reflection_is_still_explained_by_the_spot() -> None:
    # The same spot, this time really in the picture: the board under it is bare as before.
    spot = _bump((3.5, 4.5), 35.0, 0.04)
    lin, pred, known, view = _frame(spot)
    surface = analyse(lin, pred, known, spot, np.zeros(spot.shape, bool), view)
    for sq in ("c5", "d5", "d4", "c4"):
        assert surface.good[_box_of(sq)].mean() > 0.8, sq


def test_light_taken_away_below_none_at_all_is_not_board() -> None:
    # A board darker than bare board by a grey amount (no lamp modelled): the local light
    # would need negative added light, which no lamp gives. A darker patch of 0.05 grey on
    # a light square's colour is a grey cloth or a misfit, not board lit some other way.
    n = SIZE * PPU
    _, pred, known, view = _frame(np.zeros((n, n), np.float32))
    box = _box_of("d4")
    patch = np.zeros((n, n), bool)
    patch[box[0].start - 10 : box[0].stop + 10, box[1].start - 10 : box[1].stop + 10] = True
    darker = np.where(patch[..., None], np.clip(pred - 0.05, 0.005, None), pred)
    lin2 = to_linear(np.clip(255 * darker ** (1 / 2.2), 0, 255).astype(np.uint8))
    surface = analyse(lin2, pred, known, np.zeros((n, n), np.float32), np.zeros((n, n), bool), view)
    assert surface.good[box].mean() < 0.5


def test_tune_3743_squares_under_a_spot_fitted_where_none_is_read_empty() -> None:
    # A bump 35 px wide, 0.045 high, fitted over the middle of a strongly vignetted board
    # (vignette 0.79; no reflection within three squares): c5 and d5 were unknown, "covered".
    shot = scene("tune", 3743)
    read = read_board(shot.image)
    for sq in ("c5", "d5"):
        assert not shot.truth[sq] and shot.hidden[sq] == 0
        assert read.square(sq).state == "empty", sq


def test_hands_in_a_spots_light_stay_unknown() -> None:
    # The bound alone (the doubtful pixels bare, and in the local light's weights) read these
    # empty: a hand wholly over the square, fitting as "board less the lamp's light" beside it.
    for index, sq in ((993, "d2"), (3492, "i1")):
        shot = scene("tune", index)
        assert shot.hide[sq] >= 0.99
        assert read_board(shot.image).square(sq).state == "unknown", (index, sq)
