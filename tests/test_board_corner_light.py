"""Bare squares at the board's corners and edge that the light model misread (board21c).

- The local light's grey term on the dark squares' darkest channel: fitted in linear light,
  where the bright channels decide it, a colour misfit of the lighting field in a vignetted
  corner makes it negative, and on scheme 3's dark blue (about 0.01 linear there) it takes
  away most of the light: whole corner squares were foreign by 15–35 levels of blue
  (`board_surface.THIN_LIGHT`).
- Two overlapping reflections just off the edge fit as one bump centred past
  `board_glare.OUTSIDE`, and nothing modelled their light on the edge squares: the spot is
  now held at the bound.
"""

from __future__ import annotations

import pytest

from tests.scene_cache import scene
from vision.board_reader import read_board


@pytest.mark.parametrize(("index", "squares"), [(2590, ("i9",)), (1069, ("i1",)), (1665, ("i1",))])
def test_bare_corner_squares_of_scheme_3_under_a_vignette_read_empty(
    index: int, squares: tuple[str, ...]
) -> None:
    shot = scene("tune", index)
    assert shot.params.scheme == 3 and shot.params.vignette > 0.6
    read = read_board(shot.image)
    for sq in squares:
        assert not shot.truth[sq] and shot.hidden[sq] == 0
        assert read.square(sq).state == "empty", (index, sq)


@pytest.mark.parametrize(("index", "squares"), [(2122, ("c1", "d1")), (3529, ("g1", "h1", "i1"))])
def test_edge_squares_under_two_reflections_off_the_board_read_empty(
    index: int, squares: tuple[str, ...]
) -> None:
    shot = scene("tune", index)
    assert len(shot.params.glare) == 2 and not shot.params.hands
    read = read_board(shot.image)
    for sq in squares:
        assert not shot.truth[sq]
        assert read.square(sq).state == "empty", (index, sq)
