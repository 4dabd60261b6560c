"""A shadow keeps the board's hue (`vision.board_shade_hue`): a "shadow" beside a hand whose
hue is off the board's may be the hand, and a thumb tip that looked like shadow is hidden."""

from __future__ import annotations

import numpy as np
import pytest

from tests.scene_cache import scene
from vision import board_surface
from vision.board_reader import read_board
from vision.board_shade_hue import off_hue_shade

N = 90  # a 10 px-per-square view: ppu = N // 9
LIGHT = np.float32([0.125, 0.364, 0.499])  # B, G, R of a light square, linear light
DIM = 0.8  # its shadow


def _levels(lin: np.ndarray) -> np.ndarray:
    return 255 * np.clip(lin, 0, 1) ** (1 / 2.2)


def _judge(
    thumb: tuple[float, float, float], *, added: float = 0.0, bare_cols: slice = slice(40, 46)
) -> np.ndarray:
    """A light square in a shadow on the left (plus ``added`` grey light), ``thumb`` (0–255
    levels) on the right, every pixel taken for shadow beside a hand; lit board seen in
    ``bare_cols``."""
    board = np.broadcast_to(LIGHT, (N, N, 3)).astype(np.float32)
    levels = _levels(DIM * board + added)
    levels[:, 50:] = thumb
    everywhere = np.ones((N, N), bool)
    bare = np.zeros((N, N), bool)
    bare[:, bare_cols] = True
    dim = np.full((N, N), np.log(DIM), np.float32)
    return off_hue_shade(
        levels,
        board,
        dim,
        np.full((N, N), added, np.float32),
        everywhere,
        everywhere,
        bare,
        np.zeros((N, N), int),
        ~everywhere,
        everywhere,
    )


def test_skin_as_dark_as_the_shadowed_board_is_told_from_the_shadow() -> None:
    out = _judge((97, 140, 174))  # tune 3917's thumb tip over its light square
    assert not out[:, :36].any()  # the shadow keeps the board's hue
    assert out[:, 56:66].all()  # (where bare board of its colour is near enough to compare)


def test_a_shadow_washed_towards_grey_by_added_light_is_still_a_shadow() -> None:
    # Grey light the model does not know of (the shadow dims it less than the board) moves
    # the hue towards grey only.
    board = np.broadcast_to(LIGHT, (N, N, 3))
    washed = _levels(DIM * board + 0.05)[0, 0]
    assert not _judge(tuple(washed)).any()


def test_without_bare_board_of_its_colour_nearby_nothing_is_said() -> None:
    # The model's own hue error is unknown there: the thumb is not judged.
    assert not _judge((97, 140, 174), bare_cols=slice(0, 0)).any()


def test_a_dark_thumb_is_not_judged() -> None:
    # Under DARKEST levels a few levels of error are a large change of hue.
    assert not _judge((40, 55, 70)).any()


@pytest.fixture(scope="module")
def shot_3917():
    return scene("tune", 3917)


def test_tune_3917_thumb_tip_over_a_light_square_is_not_read_as_bare_board(shot_3917, monkeypatch) -> None:
    """i8: a hand hides more than half a piece, its thumb tip a shade darker than the light
    square, hanging where the shadows fall. Without the rule the tip counted as bare board and
    (with the hand's hue rule, `vision.board_hand_field`, freeing the board beside it) the
    square was read empty: a guess."""
    assert shot_3917.truth["i8"] == "" and shot_3917.hide["i8"] > 0.5
    assert read_board(shot_3917.image).square("i8").state == "unknown"
    monkeypatch.setattr(board_surface, "off_hue_shade", lambda levels, *a: np.zeros(levels.shape[:2], bool))
    assert read_board(shot_3917.image).square("i8").state == "empty"
