"""A hand's straight outline, seen on both sides of a square of its colour, bounds it there.

The pixel verdicts of a sleeve of one square colour are drawn by hand: over squares of the
other colour it is foreign, over squares of its own colour it is invisible and the whole
square is hidden (the reader's palette reaches that far). `beyond_outlines` must give back
the hidden pixels clearly beyond the sleeve's side where the side is seen on both sides of
the gap, and nothing of the sleeve itself, nor of a thumb that shows beyond the line, nor
beyond where the side is last seen.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.drawn_hands import PPU, N, verdicts
from tests.scene_cache import scene
from vision import board_surface
from vision.board_hand_edges import MARGIN, beyond_outlines
from vision.board_reader import read_board


def _sleeve(width: float = 30.0, slope: float = 0.45, y0: float = 80.0) -> np.ndarray:
    """A straight band across the whole view: y between ``y0 + slope·x`` and ``+ width``."""
    v, u = np.mgrid[0:N, 0:N]
    top = y0 + slope * u
    return (v >= top) & (v <= top + width)


def _distance_outside(hand: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """For the pixels of ``mask``, how far (px) each lies outside ``hand``."""
    import cv2

    dist = cv2.distanceTransform((~hand).astype(np.uint8), cv2.DIST_L2, 5)
    return dist[mask]


def test_a_sleeve_side_seen_on_both_sides_of_a_gap_bounds_the_gap() -> None:
    hand = _sleeve()
    foreign, seen, hidden, unseen = verdicts(hand)
    board = beyond_outlines(foreign, seen, hidden, unseen, PPU)
    wrongly_hidden = hidden & ~hand
    # Much of what the palette hid beside the sleeve is board again, none of the sleeve.
    assert board.sum() > 0.3 * wrongly_hidden.sum()
    assert not (board & hand).any()
    assert _distance_outside(hand, board).min() >= MARGIN - 1.0


def test_a_thumb_that_shows_beyond_the_line_keeps_its_gap_hidden() -> None:
    hand = _sleeve()
    board = beyond_outlines(*verdicts(hand), PPU)
    # A thumb out of the sleeve's upper side, over the gap squares the bound above cleared,
    # reaching on into the squares beyond them where it shows.
    _, xs = np.nonzero(board)
    x_mid = int(np.median(xs))
    thumb = np.zeros_like(hand)
    top = int(80 + 0.45 * x_mid)
    thumb[top - 40 : top + 2, x_mid - 5 : x_mid + 5] = True
    foreign, seen, hidden, unseen = verdicts(hand | thumb)
    assert foreign[thumb].any()  # it shows somewhere
    board = beyond_outlines(foreign, seen, hidden, unseen, PPU)
    assert not (board & thumb).any()


def test_nothing_is_bounded_beyond_where_the_side_is_last_seen() -> None:
    # A sleeve that ends half-way across the board: past its last seen stretch of side the
    # hand (its palm, its fingers) may go anywhere.
    _, u = np.mgrid[0:N, 0:N]
    hand = _sleeve() & (u < 110)
    foreign, seen, hidden, unseen = verdicts(hand)
    board = beyond_outlines(foreign, seen, hidden, unseen, PPU)
    last = int(np.nonzero(foreign.any(axis=0))[0].max())
    assert not board[:, last + 1 :].any()


@pytest.mark.parametrize("bounded", [True, False])
def test_a_square_beside_a_sleeve_of_the_board_colour_is_read_empty(
    bounded: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Tune scene 15: an arm crosses the board past the maze (e5); where its sides pass over
    # squares of its own colour they do not show, and the hand's palette hid the board beside
    # them, on e6 and g5 too. Its sides are seen straight on both sides of those gaps, and
    # bound it there: a piece on e6 or g5 would show almost whole (hide 0.04).
    shot = scene("tune", 15)
    assert shot.truth["e6"] == shot.truth["g5"] == "" and max(shot.hide["e6"], shot.hide["g5"]) < 0.05
    if not bounded:
        monkeypatch.setattr(board_surface, "beyond_outlines", lambda *a: np.zeros_like(a[2]))
    read = read_board(shot.image)
    expected = "empty" if bounded else "unknown"
    assert read.square("e6").state == read.square("g5").state == expected
