"""A hand under glare: where the lamp washes out the board's colours, the hand's outline does
not show either (`vision.board_surface._under_hands`)."""

from __future__ import annotations

from tests.scene_cache import scene
from vision.board_geometry import ALL_SQUARES, square_index
from vision.board_reader import read_board


def _near_a_hand(shot, square: str) -> bool:
    """A square that a hand covers some of, or beside one (8 neighbours) that it does."""
    f, r = square_index(square)
    for other in ALL_SQUARES:
        g, s = square_index(other)
        if max(abs(f - g), abs(r - s)) <= 1 and shot.hide[other] > 0:
            return True
    return False


def test_a_sleeve_washed_out_by_glare_is_not_bounded_by_where_it_shows() -> None:
    # Tune scene 2780: a dark red sleeve crosses f6 (a dark square) under a glare spot. Over
    # the light squares beside it the glare washes the sleeve out, so it shows as a hand only
    # in a sliver of them, and its outline, carried on from that sliver, bounded f6 to a
    # quarter: f6 read empty where 94 % of a piece could hide.
    shot = scene("tune", 2780)
    assert shot.hide["f6"] > 0.9
    read = read_board(shot.image)
    assert read.square("f6").state == "unknown", read.square("f6")
    # Squares away from the hands are still read, glare or not.
    far = [q for q in ALL_SQUARES if not _near_a_hand(shot, q)]
    assert len(far) >= 30
    wrong = [
        q
        for q in far
        if read.square(q).state == "unknown" or (read.square(q).token or None) != (shot.truth[q] or None)
    ]
    assert wrong == []
