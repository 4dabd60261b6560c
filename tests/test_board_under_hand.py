"""A square wholly under a hand is never read empty because the hand beside it looks like a shadow.

Tune scenes 2578 (g3) and 1339 (a5): a pale hand under a lamp's reflection covers the whole
square. Over that square (a dark one) the hand, washed out by the lamp, looks like the square
plus the lamp's light; over the light square beside it (h3 in 2578) it fits as the board
dimmed, a *dimmed hand part* (`vision.board_hands.dimmed_hand_parts`). That part counted as
the hand showing in its own square, but not as the hand where the outline bound
(`reach_across_lines`) looks for the hand crossing a grid line: with no foreign pixel at the
line, no chord reached the covered square, and every washed-out pixel there was taken as
bare board (g3 read empty at confidence 0.60, with the hand over all of it).
"""

from __future__ import annotations

import pytest

from vision.board_reader import read_board
from vision.board_synth import scene


@pytest.mark.parametrize(("index", "square"), [(2578, "g3"), (1339, "a5")])
def test_square_wholly_under_a_hand_beside_a_dimmed_hand_part_is_unknown(index: int, square: str) -> None:
    shot = scene("tune", index)
    assert shot.hidden[square] == pytest.approx(1.0)  # the hand covers all of the square
    read = read_board(shot.image)
    assert read.square(square).state == "unknown"
