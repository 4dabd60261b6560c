"""A square wholly under a hand is never read empty, even where the hand looks like board.

Two tune scenes (`vision.board_synth.scene("tune", i)`) where that happened:

- **2633**: a hand whose skin is the dark squares' colour (BGR 60, 95, 150 on wood 70, 110,
  150) lies over the a8 corner. Over the dark squares (a9, b8, a7) it is invisible; over the
  light square a8 it fits as the square dimmed to 0.42 plus the lamp's light: a smooth
  "shadow" over one colour of square (`_one_colour_shade`), which `dimmed_hand_parts` takes
  for the hand only if it touches a foreign region, and the hand's only foreign pixels are in
  b9 and c9, a square away. So no pixel of a7, a8 or b8 was foreign or hidden, and the red
  militant on a8 (all of it under the hand) and the green one on a7 (88 %) were read as
  empty squares. The patch fills a8's inside and ends along its four grid lines: a shadow
  goes on across a line, a hand part whose hand is invisible all round ends there.
- **2578**: a pale hand under a lamp's reflection covers all of the dark square g3, where it
  looks like the square plus the lamp's light; beside it, over the light square h3, it fits
  as a dimmed hand part. That part counted as the hand showing in h3, but not as the hand
  crossing the grid line into g3 (`reach_across_lines`), so g3 was bounded out and read
  empty.
"""

from __future__ import annotations

import pytest

from tests.scene_cache import scene
from vision.board_reader import read_board


def test_pieces_under_a_hand_of_the_dark_squares_colour_are_not_read_empty() -> None:
    shot = scene("tune", 2633)
    assert min(shot.hide["a8"], shot.hide["a7"]) > 0.99  # all of a piece could be under the hand
    read = read_board(shot.image)
    for square in ("a8", "a7", "b8"):  # rM, gM, empty: all wholly under the hand
        assert read.square(square).state == "unknown", square


def test_square_wholly_under_a_washed_out_hand_beside_a_dimmed_hand_part_is_unknown() -> None:
    shot = scene("tune", 2578)
    assert shot.hidden["g3"] == pytest.approx(1.0)  # the hand covers all of the square
    read = read_board(shot.image)
    assert read.square("g3").state == "unknown"
