"""Where a hand the board's colour may go on unseen (vision.board_hands): its outline carried on
across a grid line, and the reader's verdicts beside such a hand on a drawn top view."""

from __future__ import annotations

import numpy as np

from tests.scene_cache import scene
from tests.test_board_surface import LIGHT, _board, _box_of, _judge, _to_image
from vision.board_geometry import ALL_SQUARES, SIZE
from vision.board_hands import reach_across_lines
from vision.board_reader import read_board
from vision.board_squares import PPU

N = SIZE * PPU


def _square(row: int, col: int) -> tuple[slice, slice]:
    return slice(row * PPU, (row + 1) * PPU), slice(col * PPU, (col + 1) * PPU)


def test_a_finger_goes_on_straight_not_sideways() -> None:
    hand = np.zeros((N, N), bool)
    hand[2:22, 100:106] = True  # a finger along square (0, 4), touching its bottom side
    bound = reach_across_lines(hand, PPU, 2)
    below = bound[_square(1, 4)]
    assert below[2:8, 4:10].all()  # straight on, just past the line
    assert not below[2:6, 16:].any()  # beside it: no (the margin grows with the distance)
    assert not bound[_square(0, 3)].any() and not bound[_square(0, 5)].any()  # it touches no side there


def test_a_slanted_band_goes_on_slanted() -> None:
    hand = np.zeros((N, N), bool)
    v, u = np.mgrid[0:N, 0:N]
    hand |= (np.abs(u - 96 - v / 2) < 3) & (v < 22)  # a band leaning right, down square (0, 4)
    below = reach_across_lines(hand, PPU, 2)[_square(1, 4)]
    assert below[16, 12:16].all()  # deep into the square below, it went on to the right
    assert not below[16, 2:6].any()  # and left its left side behind, as it leant


def test_a_hand_wider_than_the_square_bounds_nothing_on_that_side() -> None:
    hand = np.zeros((N, N), bool)
    hand[2:22, 96:120] = True  # fills the inside of square (0, 4): its ends run out of the window
    below = reach_across_lines(hand, PPU, 2)[_square(1, 4)]
    assert below[2:22, 2:22].all()


def test_a_finger_of_the_light_colour_is_followed_across_the_square_it_hides_over() -> None:
    # A finger of the light squares' colour runs down file e from the top edge to the middle
    # of e7: it shows over e9 and e7 (dark), not over e8. The bound must keep e8, which it
    # crosses unseen, unknown; the light squares beside it are read.
    rng = np.random.default_rng(11)
    lin = _board(rng)
    cols = slice(4 * PPU + PPU // 2 - 4, 4 * PPU + PPU // 2 + 4)
    lin[0 : round(2.5 * PPU), cols] = LIGHT * 1.02
    verdicts = _judge(_to_image(lin, rng))
    assert _box_of("e8")[0].start == PPU  # the drawing's rows: rank 9 on top
    for sq in ("d9", "f9", "d7", "f7"):
        assert verdicts[sq] == "empty", (sq, verdicts[sq])
    assert verdicts["e9"] == verdicts["e8"] == "unknown"


def test_beside_a_hand_in_a_rendered_scene() -> None:
    # Tune scene 57: a hand beside c5, where nothing of it could hide a piece; the reader had
    # let it reach over c5 unseen ("beside a hand of the board's colour"). Where it could
    # hide half a piece or more, the squares stay unknown.
    shot = scene("tune", 57)
    read = read_board(shot.image)
    assert shot.hide["c5"] < 0.1
    assert read.square("c5").state == "empty", read.square("c5").note
    hidden = [sq for sq in ALL_SQUARES if not shot.truth[sq] and shot.hide[sq] >= 0.5]
    assert hidden and all(read.square(sq).state == "unknown" for sq in hidden)
