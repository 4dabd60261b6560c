"""The synthetic scenes: reproducible, labelled exactly, splits apart."""

from __future__ import annotations

import hashlib

import pytest

from vision.board_read import PlacementError
from vision.board_synth import (
    SPLITS,
    faces_from_placement,
    initial_position,
    random_position,
    render_placement,
    scene,
)
from vision.markers import Face, piece_of

SETUP = "gCgAgM3yMyAyC/gRgDgM3yMyDyR/gMgMgN3yNyMyM/9/9/9/rMrMrN3bNbMbM/rRrDrM3bMbDbR/rCrArM3bMbAbC"


def test_initial_position_matches_the_rulebook_table() -> None:
    faces = initial_position()
    tokens = {sq: f.token for sq, f in faces.items()}
    # djambi.md §1.3: Red chief a1, assassin b1, reporter a2, diplomat b2, necromobile c3
    assert [tokens[s] for s in ("a1", "b1", "a2", "b2", "c3")] == ["rC", "rA", "rR", "rD", "rN"]
    assert [tokens[s] for s in ("i9", "h9", "i8", "h8", "g7")] == ["yC", "yA", "yR", "yD", "yN"]
    assert len({f.piece.index for f in faces.values()}) == 36


def test_scenes_are_reproducible_and_splits_differ() -> None:
    a, b = scene("test", 2), scene("test", 2)
    assert hashlib.sha1(a.image.tobytes()).digest() == hashlib.sha1(b.image.tobytes()).digest()
    assert a.truth == b.truth
    others = {scene(split, 2).placement for split in SPLITS}
    assert len(others) == len(SPLITS)


def test_labels_are_the_position_drawn() -> None:
    shot = render_placement(SETUP, seed=2)
    assert shot.placement == SETUP
    assert all(v == 0.0 for v in shot.hidden.values())  # no hands by default
    assert shot.faces["c1"] == Face(piece_of("rM", 1), dead=False)


def test_corpses_get_identities_of_pieces_not_alive() -> None:
    faces = faces_from_placement("9/9/9/9/4xx4/9/9/9/rC8")
    assert faces["e5"].dead and faces["e5"].piece.index != faces["a1"].piece.index


@pytest.mark.parametrize(
    "bad", ["9/9/9/9/9/9/9/9/rCrC7", "9/9/9/9/9/9/9/9/??8", "9/9/9/9/9/9/9/9/rMrMrMrMrM4"]
)
def test_impossible_placements_cannot_be_drawn(bad: str) -> None:
    with pytest.raises(PlacementError):
        faces_from_placement(bad)


def test_random_positions_keep_the_maze_legal() -> None:
    import numpy as np

    for seed in range(40):
        faces = random_position(np.random.default_rng(seed))
        maze = faces.get("e5")
        assert maze is None or maze.dead or maze.piece.kind == "chief"
        assert len({f.piece.index for f in faces.values()}) == len(faces)


def test_labels_say_where_a_hand_could_hide_a_piece() -> None:
    import math
    from dataclasses import replace

    from vision.board_synth import Hand, SceneParams

    plain = render_placement(SETUP, seed=3)
    assert set(plain.hide.values()) == {0.0} and set(plain.marker_cover.values()) == {0.0}
    palm = Hand(palm=(1.5, 1.5), angle=math.pi / 4, size=2.0, skin=(120, 160, 215), sleeve=(60, 60, 60))
    shot = render_placement(SETUP, replace(SceneParams(), hands=(palm,)), seed=3)
    assert shot.hide["b2"] == 1.0 and shot.marker_cover["b2"] > 0.9  # under the palm
    assert shot.hide["i9"] == 0.0 and shot.marker_cover["i9"] == 0.0  # far from it
    for sq, h in shot.hide.items():
        # A whole piece fits under the hand only where the hand covers much of the square.
        assert h < 1.0 or shot.hidden[sq] > 0.3, sq
