"""A shadow's dimming is smooth among the shadow's own pixels (vision.board_surface._shadowed):
the hand casting it, beside it, does not make it rough; but that smoothness alone does not
link a patch to where both colours of square show the dimming is light's, so a hand a shade
darker than one colour of square, joined to its own shadow along a smooth ramp, is not
trusted as a deep shadow."""

from __future__ import annotations

import numpy as np

from tests.scene_cache import scene
from vision.board_geometry import DEFAULT_GEOMETRY
from vision.board_reader import read_board
from vision.board_squares import PPU
from vision.board_surface import View, _shadowed, to_levels

VIEW = View.of(DEFAULT_GEOMETRY, PPU)
N = VIEW.classes.shape[0]
DARK, LIGHT = np.array([0.06, 0.08, 0.1]), np.array([0.5, 0.45, 0.4])  # linear BGR
WHITE = np.array([0.9, 0.9, 0.9])  # a white sleeve: it fits neither square as dimmed board


def _shadow_beside_a_sleeve() -> tuple[tuple[np.ndarray, ...], int, int]:
    """A white sleeve across four ranks' width, its shadow (dimmed to 0.6) inside one light
    square just below it; the inputs of `_shadowed` and the light square's top-left pixel."""
    light = np.argwhere(VIEW.classes[96:120:PPU, ::PPU] == 1)[0]
    r0, c0 = 96, int(light[1]) * PPU
    pred = np.where(VIEW.classes[..., None] == 0, DARK, LIGHT).astype(np.float32)
    dim = np.ones((N, N), np.float32)
    dim[r0 + 2 : r0 + 16, c0 + 3 : c0 + 21] = 0.6
    rest = dim[..., None] * pred
    rest[60 : r0 + 2] = WHITE
    levels = to_levels(rest)
    args = (
        rest,
        pred,
        np.ones((N, N), np.float32),
        np.zeros((N, N), np.float32),
        np.zeros((N, N), np.float32),  # no lamp light
        np.zeros((N, N), bool),  # so nothing washed out
        levels,
        np.zeros(levels.shape, bool),
        np.full(levels.shape, 3.0, np.float32),
        ~VIEW.line,
        VIEW.classes,
        VIEW.line,
    )
    return args, r0, c0


def test_a_shadow_beside_the_sleeve_that_casts_it_is_smooth() -> None:
    args, r0, c0 = _shadow_beside_a_sleeve()
    dimmed, smooth, deep, log_dim, _ = _shadowed(*args)
    row = (slice(r0 + 2, r0 + 4), slice(c0 + 5, c0 + 19))  # the shadow's first rows, by the sleeve
    assert dimmed[row].all() and not deep[row].any()
    assert np.allclose(log_dim[row], np.log(0.6), atol=0.01)
    # Among all the pixels around, the sleeve's would make these rough; not among the
    # shadow's own (nor is the dimming shown light's by the dark squares: they are not dimmed).
    assert smooth[row].all()


def test_a_hand_joined_to_its_shadow_by_a_smooth_ramp_is_not_read_empty() -> None:
    # Scene 25: a hand a shade darker than the light squares (0.24 of their light) over the
    # top of g4, its own shadow below it, the two joined by a smooth ramp of "dimmed board";
    # 56 % of a piece could hide under the hand. Linking by smoothness among own pixels
    # would carry "light's" from the shadow, verified over both colours in h4, onto the hand.
    shot = scene("tune", 25)
    assert shot.hide["g4"] > 0.5
    assert read_board(shot.image).square("g4").state == "unknown"


def test_a_piece_under_a_hand_of_the_boards_colour_is_not_read_empty() -> None:
    # Scene 2070: a militant wholly under a hand that fits a3 as bare board.
    shot = scene("tune", 2070)
    assert shot.truth["a3"] and shot.marker_cover["a3"] > 0
    assert read_board(shot.image).square("a3").state == "unknown"


def test_a_square_in_a_hands_shadow_is_read_empty() -> None:
    # Scene 375: e7 is bare, a hand in the rank below. The hand's shadow beside it was rough
    # among all the pixels around (the hand's among them) and counted as the hand: the hand's
    # region, that much wider, took its blurred rim (hand and board mixed) into its core, and
    # its palette took e7's colour: e7 was flagged "beside a hand of the board's colour".
    shot = scene("tune", 375)
    assert not shot.truth["e7"] and shot.hide["e7"] == 0
    assert read_board(shot.image).square("e7").state == "empty"
