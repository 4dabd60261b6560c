"""A hand's shadow verified across the grid lines (vision.board_shadow_verify): its penumbra is
a ramp, which the flat smoothness test calls rough beside the hand that casts it; a shadow that
goes on across a line with the same dimming (or the same ramp) is light's, while a hand or a
cloth of one dimmed board colour stops at the lines of its square."""

from __future__ import annotations

import numpy as np

from tests.scene_cache import scene
from vision.board_geometry import SIZE
from vision.board_reader import read_board
from vision.board_shadow_verify import ramp_deviation, verified_shadow
from vision.board_squares import PPU
from vision.board_surface import LINE_PX, SHADOW_DEV, _deviation

N = SIZE * PPU
_IDX = np.arange(N) % PPU
_NEAR = np.minimum(_IDX, PPU - 1 - _IDX) < LINE_PX
LINE = _NEAR[:, None] | _NEAR[None, :]
V, U = np.mgrid[0:N, 0:N].astype(np.float32)


def _verified(dimmed: np.ndarray, log_dim: np.ndarray) -> np.ndarray:
    fits = ~LINE  # the board around fits everywhere: bare or dimmed
    return verified_shadow(fits, dimmed & ~LINE, log_dim.astype(np.float32), LINE, PPU, LINE_PX)


def _trapezoid(d: np.ndarray, depth: float) -> np.ndarray:
    """A shadow band's log dimming across it (``d`` px from its middle): ``depth`` over its
    core (6 px each side), ramping to none over 6 px more."""
    return np.log(depth) * np.clip((12 - np.abs(d)) / 6, 0, 1)


def test_a_penumbra_ramp_beside_a_hand_is_smooth() -> None:
    # The shadow deepens by 0.15 a pixel towards a hand below row 100; the hand's pixels do
    # not fit as board. Just above the hand the flat mean of the board around is off by about
    # the slope times the window; the fitted plane carries the ramp on.
    log_dim = np.where(V < 100, -0.15 * np.clip(V - 88, 0, None), 0.0).astype(np.float32)
    board = V < 100
    row = (slice(99, 100), slice(40, 60))
    assert float(_deviation(log_dim, board)[row].min()) > SHADOW_DEV
    assert float(ramp_deviation(log_dim, board)[row].max()) < 0.05


def test_a_shadow_band_crossing_the_lines_at_a_slant_is_verified() -> None:
    # A diagonal band with ramped sides (clear of the grid's corners): across a line its
    # dimming changes along the ramp.
    d = (U - V - 12) / np.sqrt(2)
    log_dim = _trapezoid(d, 0.3)
    dimmed = log_dim < np.log(0.9)
    ok = _verified(dimmed, log_dim)
    assert ok[dimmed & ~LINE].mean() > 0.9


def test_a_patch_that_ends_at_its_square_lines_is_not_verified() -> None:
    # A sleeve the colour of a light square dimmed, over one square and its lines: beyond them
    # it shows over the dark squares as something else (not dimmed board).
    patch = (V >= 96) & (V < 120) & (U >= 96) & (U < 120)
    log_dim = np.where(patch, np.log(0.4), 0.0)
    assert not _verified(patch, log_dim).any()


def test_a_patch_joined_to_a_shadow_but_cut_at_its_lines_is_not_verified() -> None:
    # The same sleeve patch, with a real shadow band (its sides ramped) along the line between
    # ranks 6 and 5, joining the patch inside its square: the band is verified, the square the
    # patch fills is not.
    band = _trapezoid(V - 96, 0.4)
    patch = (V >= 96) & (V < 120) & (U >= 96) & (U < 120)
    log_dim = np.where(patch, np.log(0.4), band)
    ok = _verified(log_dim < np.log(0.9), log_dim)
    assert ok[90, 30] and ok[102, 30] and ok[90, 180] and ok[102, 180]  # the band
    assert not ok[110, 108]  # inside the patch


def test_an_arms_shadow_band_is_seen_board() -> None:
    # Tune scene 83: an arm lies along rank 7, its shadow a band over the lower part of rank 8,
    # deepest (a steep ramp) against the arm. The band over d8, f8 and h8 failed the flat
    # smoothness test there and the squares were unknown, although no piece could hide on them.
    shot = scene("tune", 83)
    read = read_board(shot.image)
    for sq in ("d8", "f8", "h8"):
        assert shot.hide[sq] < 0.4 and not shot.truth[sq]
        assert read.square(sq).state == "empty", sq
    for sq in ("d7", "e7", "f7"):  # under the arm: pieces there are not guessed
        assert shot.hide[sq] > 0.9
        assert read.square(sq).state == "unknown", sq


def test_a_kink_at_a_line_is_no_bridge() -> None:
    # Tune scene 2099: a mauve arm over a light square, shaded lighter away from the line,
    # beside its own shadow over the dark square, deepest against the line: the two dimmings
    # meet at the line, but one is no continuation of the other.
    left = (U >= 72) & (U < 96) & (V >= 100) & (V < 116)  # the shadow, deepening towards u = 96
    right = (U >= 96) & (U < 116) & (V >= 100) & (V < 116)  # the arm, dimmest at the line
    log_dim = np.where(left, -0.9 - 0.1 * (U - 93), np.where(right, -1.2 + 0.1 * (U - 98), 0.0))
    dimmed = (left | right) & (log_dim < np.log(0.9))
    assert not _verified(dimmed, log_dim)[108, 104]
    # The same dimmings carried on straight across the line are one ramp.
    ramp = np.where(left | right, -0.9 - 0.05 * (U - 93), 0.0)
    assert _verified((left | right) & (ramp < np.log(0.9)), ramp)[108, 104]
