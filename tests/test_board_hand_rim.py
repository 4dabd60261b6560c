"""The blurred rim of a hand (vision.board_rim): the pixels along a hand's outline are a mix
of hand and board; those less than half hand are seen board, unless the hand shows the
board's own colour somewhere beside it.

In the hand's own shadow (board12c) the board right under the outline is darker than the bare
board a few pixels out, so the outline pixels are unmixed against the board right beside them
too."""

from __future__ import annotations

import numpy as np
import pytest

from tests.scene_cache import scene
from vision.board_geometry import SIZE
from vision.board_reader import read_board
from vision.board_rim import board_rim
from vision.board_squares import PPU

N = SIZE * PPU
V, U = np.mgrid[0:N, 0:N].astype(np.float32)
CLASSES = ((U // PPU + V // PPU) % 2).astype(int)
DARK, LIGHT = np.array([70.0, 110.0, 150.0]), np.array([150.0, 200.0, 230.0])
BLUE_SLEEVE = np.array([140.0, 90.0, 40.0])  # BGR: unlike either square
GREY_SLEEVE = np.array([60.0, 60.0, 60.0])
EDGE_COL = 100


def _frame(
    hand_colour: np.ndarray, edge: float, shadowed: bool = False
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A checkered board with a hand over everything right of the column ``edge`` (sub-pixel):
    the levels, each pixel's exact hand share and the board's light factor. ``shadowed``: the
    hand's shadow on the board beside it, 0.55 of the light within 2 px of the edge,
    brightening to full light 8 px out."""
    shadow = np.clip(0.55 + 0.45 * (edge - 2 - (U + 0.5)) / 6, 0.55, 1.0) if shadowed else np.ones_like(U)
    board = np.where(CLASSES[..., None] == 0, DARK, LIGHT) * shadow[..., None]
    share = np.clip(U + 1 - edge, 0.0, 1.0)  # pixel u covers [u, u + 1)
    hand = np.broadcast_to(hand_colour, board.shape) if hand_colour.ndim == 1 else hand_colour
    levels = (1 - share[..., None]) * board + share[..., None] * hand
    return levels.astype(np.float32), share, shadow


def _rim(levels: np.ndarray, share: np.ndarray) -> np.ndarray:
    foreign = share > 0.05  # what the board model calls foreign: any visible mix
    bare = ~foreign
    lin = (levels / 255.0) ** 2.2
    return board_rim(levels, lin, foreign, bare, bare, CLASSES, 3.0)


def test_the_board_side_of_a_blurred_outline_is_seen() -> None:
    levels, share, _ = _frame(BLUE_SLEEVE, edge=100.8)
    rim = _rim(levels, share)
    # Column 100 is 20 % hand: seen board; column 101 on is all hand: not.
    assert rim[:, 100].mean() > 0.95
    assert not rim[:, 101:].any()
    assert not rim[share >= 0.5].any()


def test_a_pixel_more_than_half_hand_stays_foreign() -> None:
    levels, share, _ = _frame(BLUE_SLEEVE, edge=100.4)  # column 100: 60 % hand
    rim = _rim(levels, share)
    assert (share[:, 100] > 0.5).all()
    assert not rim[:, 100].any()


def test_a_hand_showing_the_board_colour_is_not_unmixed() -> None:
    # The same hand, its fingers the colour of the light squares further in: where it meets
    # the light squares, its outline may not be where it ends.
    hand = np.broadcast_to(GREY_SLEEVE, (N, N, 3)).copy()
    hand[(U > 104) & (U < 110)] = LIGHT
    levels, share, _ = _frame(hand, edge=100.8)
    rim = _rim(levels, share)
    light_rim = (CLASSES == 1) & (U == 100)
    assert not rim[light_rim].any()


def test_a_square_beside_a_visible_hand_is_read_empty() -> None:
    # Tune scene 49: a hand covers part of b8, but a piece there would show more than half
    # of itself (hide 0.34). The hand's blurred outline, counted whole, made the square
    # unknown (0.48 of a piece seen at worst); less than half of it is hand.
    shot = scene("tune", 49)
    assert shot.truth["b8"] == "" and 0 < shot.hide["b8"] < 0.5
    assert read_board(shot.image).square("b8").state == "empty"


def test_a_hand_of_the_board_colour_beside_its_outline_keeps_the_square_unknown() -> None:
    # Tune scene 591: skin the colour of the light squares covers f9 (a piece stands there,
    # its marker under the hand); its outline against a dark sleeve is not where the hand ends.
    shot = scene("tune", 591)
    assert shot.hide["f9"] == 1.0
    assert read_board(shot.image).square("f9").state == "unknown"


def test_an_outline_pixel_in_the_hands_shadow_is_seen() -> None:
    levels, share, shadow = _frame(BLUE_SLEEVE, EDGE_COL + 0.8, shadowed=True)
    # The board under the outline pixel is in the shadow's depth; the bare board within five
    # pixels is brighter on average, and against it the pixel looks off the mix.
    assert shadow[:, EDGE_COL].max() < 0.56 and shadow[:, EDGE_COL - 5].min() > 0.6
    rim = _rim(levels, share)
    assert rim[:, EDGE_COL].mean() > 0.95  # 20 % hand: seen board
    assert not rim[:, EDGE_COL + 1 :].any()
    assert not rim[share >= 0.5].any()


@pytest.mark.parametrize("edge", [0.5, 0.45])
def test_an_outline_pixel_in_shadow_half_hand_or_more_stays_foreign(edge: float) -> None:
    # Half hand: against the brighter board a few pixels out, a pixel over the dark squares
    # looked less hand than it is and was freed; the board right beside it tells, and it
    # stays foreign. Likewise at 55 %.
    levels, share, _ = _frame(BLUE_SLEEVE, EDGE_COL + edge, shadowed=True)
    assert share[:, EDGE_COL].min() >= 0.5
    assert not _rim(levels, share)[:, EDGE_COL].any()


def test_against_the_board_right_beside_it_a_pixel_needs_a_margin() -> None:
    # Against a mean of a few pixels a pixel must be under 45 % hand: one of 47 % over the
    # light squares (where the wider board, brighter, makes it more hand still) stays foreign.
    levels, share, _ = _frame(BLUE_SLEEVE, EDGE_COL + 0.53, shadowed=True)
    assert np.allclose(share[:, EDGE_COL], 0.47)
    assert not _rim(levels, share)[CLASSES[:, EDGE_COL] == 1, EDGE_COL].any()


def test_a_square_beside_a_hand_in_its_shadow_is_read_empty() -> None:
    # Tune scene 93: a hand covers part of g1 (hide 0.45: a piece there would show more than
    # half of itself); its outline over g1 lies in its own shadow and was counted as hand.
    shot = scene("tune", 93)
    assert shot.truth["g1"] == "" and 0 < shot.hide["g1"] < 0.5
    assert read_board(shot.image).square("g1").state == "empty"


def _finger(left: float, right: float) -> tuple[np.ndarray, np.ndarray]:
    """A finger of the blue sleeve's colour lying along the columns ``left`` … ``right``
    (sub-pixel), too thin to have an inside HAND_IN px from its outline: its levels and each
    pixel's exact hand share."""
    board = np.where(CLASSES[..., None] == 0, DARK, LIGHT)
    share = np.clip(np.minimum(U + 1 - left, right - U), 0.0, 1.0)
    levels = (1 - share[..., None]) * board + share[..., None] * BLUE_SLEEVE
    return levels.astype(np.float32), share


def test_the_outline_of_a_finger_too_thin_for_an_inside_is_unmixed() -> None:
    # Columns 100 and 103 are a fifth finger, 101 and 102 all finger: the foreign region is
    # 4 px wide, so nothing of it lies HAND_IN (2) px from its outline. The finger's colour is
    # taken 1 px in (THIN_IN); its outline pixels, mostly board, are seen.
    levels, share = _finger(EDGE_COL + 0.8, EDGE_COL + 3.2)
    assert np.allclose(share[:, EDGE_COL], 0.2, atol=1e-3) and np.allclose(
        share[:, EDGE_COL + 3], 0.2, atol=1e-3
    )
    rim = _rim(levels, share)
    assert rim[:, EDGE_COL].mean() > 0.95 and rim[:, EDGE_COL + 3].mean() > 0.95
    assert not rim[:, EDGE_COL + 1 : EDGE_COL + 3].any()


def test_the_outline_of_a_thin_finger_half_finger_or_more_stays_foreign() -> None:
    # The same finger wider by a fifth of a pixel each side: its outline pixels are 60 %
    # finger (and its inside pixels 1 px in are pure finger): none is freed.
    levels, share = _finger(EDGE_COL + 0.4, EDGE_COL + 3.6)
    assert np.allclose(share[:, EDGE_COL], 0.6, atol=1e-3)
    assert not _rim(levels, share).any()


def test_a_square_beside_a_thumb_too_thin_for_an_inside_is_read_empty() -> None:
    # Tune scene 200: a thumb reaches down into b8 (hide 0.43: a piece there would show more
    # than half of itself). The thumb is too thin to have an inside 2 px from its outline, so
    # its blurred outline was counted whole as hand and b8 was unknown.
    shot = scene("tune", 200)
    assert shot.truth["b8"] == "" and 0 < shot.hide["b8"] < 0.5
    assert read_board(shot.image).square("b8").state == "empty"
