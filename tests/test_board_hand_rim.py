"""The blurred rim of a hand (vision.board_rim): the pixels along a hand's outline are a mix
of hand and board; those less than half hand are seen board, unless the hand shows the
board's own colour somewhere beside it."""

from __future__ import annotations

import numpy as np

from vision.board_geometry import SIZE
from vision.board_reader import read_board
from vision.board_rim import board_rim
from vision.board_squares import PPU
from vision.board_synth import scene

N = SIZE * PPU
V, U = np.mgrid[0:N, 0:N].astype(np.float32)
CLASSES = ((U // PPU + V // PPU) % 2).astype(int)
DARK, LIGHT = np.array([70.0, 110.0, 150.0]), np.array([150.0, 200.0, 230.0])
SKIN = np.array([140.0, 90.0, 40.0])  # BGR: a blue sleeve, unlike either square
SLEEVE = np.array([60.0, 60.0, 60.0])


def _frame(hand_colour: np.ndarray, edge: float) -> tuple[np.ndarray, np.ndarray]:
    """A checkered board with a hand over everything right of the column ``edge`` (sub-pixel):
    the levels and each pixel's exact hand share."""
    board = np.where(CLASSES[..., None] == 0, DARK, LIGHT)
    share = np.clip(U + 1 - edge, 0.0, 1.0)  # pixel u covers [u, u + 1)
    hand = np.broadcast_to(hand_colour, board.shape) if hand_colour.ndim == 1 else hand_colour
    levels = (1 - share[..., None]) * board + share[..., None] * hand
    return levels.astype(np.float32), share


def _rim(levels: np.ndarray, share: np.ndarray) -> np.ndarray:
    foreign = share > 0.05  # what the board model calls foreign: any visible mix
    bare = ~foreign
    lin = (levels / 255.0) ** 2.2
    return board_rim(levels, lin, foreign, bare, bare, CLASSES, 3.0)


def test_the_board_side_of_a_blurred_outline_is_seen() -> None:
    levels, share = _frame(SKIN, edge=100.8)
    rim = _rim(levels, share)
    # Column 100 is 20 % hand: seen board; column 101 on is all hand: not.
    assert rim[:, 100].mean() > 0.95
    assert not rim[:, 101:].any()
    assert not rim[share >= 0.5].any()


def test_a_pixel_more_than_half_hand_stays_foreign() -> None:
    levels, share = _frame(SKIN, edge=100.4)  # column 100: 60 % hand
    rim = _rim(levels, share)
    assert (share[:, 100] > 0.5).all()
    assert not rim[:, 100].any()


def test_a_hand_showing_the_board_colour_is_not_unmixed() -> None:
    # The same hand, its fingers the colour of the light squares further in: where it meets
    # the light squares, its outline may not be where it ends.
    hand = np.broadcast_to(SLEEVE, (N, N, 3)).copy()
    hand[(U > 104) & (U < 110)] = LIGHT
    levels, share = _frame(hand, edge=100.8)
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
