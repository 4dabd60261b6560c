"""A hand part that looks like the board dimmed (vision.board_hands.dimmed_hand_parts): the way
a frame's shadows fall is measured beside its hands, and a dimmed patch touching a hand on the
side its shadow cannot reach is taken for the hand, not for its shadow."""

from __future__ import annotations

import numpy as np

from tests.scene_cache import scene
from vision.board_geometry import ALL_SQUARES, SIZE
from vision.board_hands import dimmed_hand_parts, shadow_direction
from vision.board_reader import read_board
from vision.board_squares import PPU

N = SIZE * PPU


def _hand_and_shadow(dx: int, dy: int) -> tuple[np.ndarray, np.ndarray]:
    """A square hand in the middle of the top view and its shadow offset by (dx, dy) px,
    dimming the board by a third (log dimming, 0 where bare)."""
    hand = np.zeros((N, N), bool)
    hand[80:130, 80:130] = True
    shadow = np.zeros((N, N), bool)
    shadow[80 + dy : 130 + dy, 80 + dx : 130 + dx] = True
    log_dim = np.where(shadow & ~hand, np.log(0.66), 0.0).astype(np.float32)
    return hand, log_dim


def test_the_way_shadows_fall_is_measured_beside_the_hand() -> None:
    hand, log_dim = _hand_and_shadow(7, 4)
    way = shadow_direction(hand, log_dim, ~hand)
    assert way is not None
    drawn = np.array([7, 4]) / np.hypot(7, 4)
    assert float(way @ drawn) > np.cos(np.radians(15))  # right and a little down, as drawn


def test_a_dimming_all_round_points_nowhere() -> None:
    # Another hand's shadow or a lighting misfit may dim the board all round a hand: only the
    # dimming beyond that points the way.
    hand, log_dim = _hand_and_shadow(0, 7)  # shadows fall down
    log_dim = log_dim + np.float32(np.log(0.8))
    way = shadow_direction(hand, log_dim, ~hand)
    assert way is not None and way[1] > 0.95


def test_no_shadow_shows_no_way() -> None:
    hand, _ = _hand_and_shadow(0, 0)
    assert shadow_direction(hand, np.zeros((N, N), np.float32), ~hand) is None


def test_a_dimmed_patch_on_the_unlit_side_is_the_hand() -> None:
    hand, log_dim = _hand_and_shadow(7, 0)  # shadows fall to the right
    labels = hand.astype(np.int32)
    thumb = np.zeros((N, N), bool)
    thumb[95:105, 66:79] = True  # sticks out on the left, where no shadow can fall
    shade = thumb | (log_dim < 0)
    parts = dimmed_hand_parts(shade, labels, np.array([1]), log_dim, ~hand, 5)
    assert parts[100, 70]  # the thumb may be the hand
    assert not parts[100, 133]  # the shadow on the right is a shadow


def test_the_thumbs_that_passed_for_shadows_are_unknown() -> None:
    # Tune scenes 15 (f9), 264 (d7) and 1449 (g2): a thumb a shade darker than the light
    # square it lies on, pointing away from where the hand's shadow falls, fitted as a shadow
    # and was read as bare board on a square where more than half a piece could hide under
    # it. In 1326 (a1, where nearly a whole piece could hide) a sleeve did the same, in a
    # frame whose board is dimmed all round the hands.
    for index, square in ((264, "d7"), (15, "f9"), (1449, "g2"), (1326, "a1")):
        shot = scene("tune", index)
        assert not shot.truth[square] and shot.hide[square] >= 0.5
        read = read_board(shot.image)
        assert read.square(square).state == "unknown", (index, square)
        clear = [sq for sq in ALL_SQUARES if shot.hide[sq] == 0 and not shot.truth[sq]]
        assert sum(read.square(sq).state == "empty" for sq in clear) >= len(clear) - 2
