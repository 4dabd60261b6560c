"""A hand ends where it meets board-coloured pixels with a step in colour (vision.board_hand_step)."""

from __future__ import annotations

import numpy as np
import pytest

from tests.scene_cache import scene
from vision import board_surface
from vision.board_hand_step import step_bounded
from vision.board_reader import read_board

N = 48


def _hand_beside_board(board: tuple[float, float, float]) -> tuple[np.ndarray, ...]:
    """A pale hand over the left half, a patch of hidden board of colour ``board`` beside it,
    a grid line band across the middle of the patch."""
    levels = np.full((N, N, 3), 70.0, np.float32)
    levels[:, :20] = (140, 170, 210)
    levels[:, 20:34] = board
    foreign = np.zeros((N, N), bool)
    foreign[:, :20] = True
    hidden = np.zeros((N, N), bool)
    hidden[:, 20:34] = True
    line = np.zeros((N, N), bool)
    line[22:26, :] = True
    hidden &= ~line
    return levels, foreign, hidden, line


def test_board_darker_than_the_hand_beside_it_is_seen() -> None:
    levels, foreign, hidden, line = _hand_beside_board((60, 55, 50))
    freed = step_bounded(levels, foreign, hidden, np.zeros_like(hidden), line)
    assert freed[5, 28] and freed[40, 28]  # both sides of the line band: one patch
    assert not freed[line].any()


def test_board_of_the_hands_colour_beside_it_may_be_the_hand() -> None:
    # The hand's shading (10 % darker) carries it on over board of its colour.
    levels, foreign, hidden, line = _hand_beside_board((126, 153, 189))
    assert not step_bounded(levels, foreign, hidden, np.zeros_like(hidden), line).any()


def test_one_smooth_contact_keeps_the_whole_patch() -> None:
    levels, foreign, hidden, line = _hand_beside_board((60, 55, 50))
    # Below the line band the hand has the board's colour where it meets the patch.
    levels[30:, :20] = (62, 57, 52)
    assert not step_bounded(levels, foreign, hidden, np.zeros_like(hidden), line).any()


def test_a_patch_holding_a_hand_part_or_washed_pixels_is_left_alone() -> None:
    levels, foreign, hidden, line = _hand_beside_board((60, 55, 50))
    other = np.zeros_like(hidden)
    other[40:44, 30:33] = True
    assert not step_bounded(levels, foreign, hidden, other, line).any()


def test_a_thin_hand_with_no_inside_says_nothing() -> None:
    levels, foreign, hidden, line = _hand_beside_board((60, 55, 50))
    foreign[:, :18] = False  # two pixels wide: all blurred outline, no inside
    assert not step_bounded(levels, foreign, hidden, np.zeros_like(hidden), line).any()


@pytest.fixture(scope="module")
def shot_49():
    return scene("tune", 49)


def test_tune_49_board_below_a_brown_hand_is_read_empty(shot_49, monkeypatch) -> None:
    """g1: dark grey board below a brown hand, in the gap the palm may span between the hand
    and the pale sleeve; its hue is one the hands show (the sleeve's greyish beige), so only
    the step from the brown hand tells it is board."""
    assert shot_49.truth["g1"] == "" and shot_49.hide["g1"] < 0.45
    assert read_board(shot_49.image).square("g1").state == "empty"
    monkeypatch.setattr(board_surface, "step_bounded", lambda levels, *a: np.zeros(levels.shape[:2], bool))
    assert read_board(shot_49.image).square("g1").state == "unknown"
