"""A hand's outline inside its own shadow (vision.board_rim): the board beside a hand lies in
the hand's shadow, so the pixels along the outline mix the hand with *dimmed* board. Those
less than half hand are seen board all the same; more than half hand, or a hand that is
itself a dimmed board colour, stay foreign."""

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
EDGE = 100.8  # the hand covers everything right of this column (sub-pixel)
SHADOW = 97  # the hand's shadow dims the board from this column on ...
DIM = 0.7  # ... by this factor (levels)


def _rim(hand_colour: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The rim found on a checkered board with a hand right of EDGE casting a shadow on the
    board beside it, and each pixel's exact hand share. The shadowed board next to the hand
    misfits the board model (the shadow's edge is not smooth beside a hand): foreign."""
    board = np.where(CLASSES[..., None] == 0, DARK, LIGHT)
    board = board * np.where(U >= SHADOW, DIM, 1.0)[..., None]
    share = np.clip(U + 1 - EDGE, 0.0, 1.0)  # pixel u covers [u, u + 1)
    levels = ((1 - share[..., None]) * board + share[..., None] * hand_colour).astype(np.float32)
    foreign = U >= SHADOW
    bare = ~foreign
    lin = (levels / 255.0) ** 2.2
    return board_rim(levels, lin, foreign, bare, bare, CLASSES, 3.0), share


def test_the_shadowed_board_side_of_an_outline_is_seen() -> None:
    rim, share = _rim(SKIN)
    # Columns 97–99 are shadowed board, column 100 is 20 % hand on shadowed board: all seen.
    assert rim[:, SHADOW:101].mean() > 0.95
    assert not rim[share >= 0.5].any()


def test_a_hand_the_colour_of_dimmed_board_is_not_unmixed_against_the_shadow() -> None:
    # A hand that is a darker shade of the board: its mix with shadowed board is a dimmed
    # board colour again, and may be the hand going on over the square.
    hand = 0.5 * np.where(CLASSES[..., None] == 0, DARK, LIGHT)
    rim, _ = _rim(hand)
    assert not rim[:, SHADOW:].any()


def test_a_square_beside_a_sleeve_and_its_shadow_is_read_empty() -> None:
    # Tune scene 27: a dark sleeve covers part of d2 (a piece there would show more than half
    # of itself, hide 0.27); the band of shadowed board along its outline was foreign, and
    # the square unknown.
    shot = scene("tune", 27)
    assert shot.truth["d2"] == "" and 0 < shot.hide["d2"] < 0.5
    assert read_board(shot.image).square("d2").state == "empty"
