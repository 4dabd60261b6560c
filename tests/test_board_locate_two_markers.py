"""Two corner markers on one edge pin down that edge only: the pieces must agree with the grid.

Tune scene 2783: hands cover the corner markers of file a, so the board was located from
i1 and i9 alone. The grid extrapolated to files a–d was up to half a square off: the
yellow militant of c6 was read on d6 (a silent error) and two squares held "two pieces".
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.scene_cache import scene
from vision.board_detect import HomographyFit, Marker, pieces_disagree
from vision.board_reader import read_board

PX = 100.0  # pixels per square of the drawn grid below


def _fit() -> HomographyFit:
    return HomographyFit(np.diag([PX, PX, 1.0]), ("i1", "i9"), 0.5, 8)


def _piece(i: int, x: float, y: float) -> Marker:
    half = 0.2 * PX
    c = np.array([x * PX, y * PX])
    return Marker(i, c + np.array([[-half, -half], [half, -half], [half, half], [-half, half]]), 0.9)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.floats(-0.15, 0.15), st.floats(-0.15, 0.15)), min_size=8, max_size=8))
def test_pieces_placed_near_their_centres_agree_with_the_grid(offsets: list[tuple[float, float]]) -> None:
    pieces = [_piece(i, i + 0.5 + dx, 4.5 + dy) for i, (dx, dy) in enumerate(offsets)]
    assert not pieces_disagree(_fit(), pieces)


def test_pieces_half_a_square_off_or_two_on_a_square_disagree() -> None:
    shifted = [_piece(i, i + 0.5 + (0.45 if i < 3 else 0.0), 4.5) for i in range(8)]
    assert pieces_disagree(_fit(), shifted)
    doubled = [_piece(i, i + 0.5, 4.5) for i in range(7)] + [_piece(7, 0.3, 4.5)]
    assert pieces_disagree(_fit(), doubled)


def test_board_seen_by_two_markers_on_one_edge_is_grown_from_the_pieces() -> None:
    shot = scene("tune", 2783)
    read = read_board(shot.image)
    squares = {s.square: s for s in read.squares}
    assert read.corners_seen == ("i1", "i9")
    assert any("and the pieces" in note for note in read.notes)
    assert not read.problems
    for square in ("c6", "c3", "b4", "d6"):
        token = squares[square].state
        truth = shot.truth[square]
        assert token == "unknown" or (token == "empty") == (truth == ""), (
            f"{square}: {token}, truth {truth!r}"
        )
    assert squares["c6"].piece == "yellow militant 3"
