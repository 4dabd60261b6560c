"""The board's light: the checker contrast (`vision.board_lighting`)."""

from __future__ import annotations

import numpy as np

from vision.board_geometry import DEFAULT_GEOMETRY, LIGHT, SIZE
from vision.board_lighting import checker_contrast
from vision.board_reader import read_board
from vision.board_synth import scene

# Log B, G, R of a green and a cream square, and of a blue sleeve.
GREEN = np.log(np.array([0.08, 0.19, 0.05]))
CREAM = np.log(np.array([0.58, 0.78, 0.82]))
BLUE = np.log(np.array([0.26, 0.10, 0.02]))


def _is_light(i: int) -> bool:
    return DEFAULT_GEOMETRY.classes[i // SIZE][i % SIZE] == LIGHT


def test_a_sleeve_along_a_diagonal_of_light_squares_is_not_the_light_class() -> None:
    # A sleeve lying along a diagonal covers light squares only, all one colour, so "sleeve
    # minus dark square" is the tightest cluster of neighbour differences, while glare and a
    # lighting gradient spread the bare pairs. The light class is the lighter one: the blue
    # sleeve (darker than green in G and R) cannot be it.
    rng = np.random.default_rng(3)
    means = np.zeros((SIZE * SIZE, 3))
    for i in range(SIZE * SIZE):
        f, r = i % SIZE, i // SIZE
        if not _is_light(i):
            means[i] = GREEN + rng.normal(0, 0.02, 3)
        elif f == r + 1:  # the light diagonal beside a1–i9 (which is dark)
            means[i] = BLUE + rng.normal(0, 0.01, 3)
        else:  # bare cream under glare and a gradient: pairs that cluster only loosely
            means[i] = CREAM + rng.normal(0, 0.3, 3)
    ok = np.ones(SIZE * SIZE, bool)
    contrast, support = checker_contrast(means, ok, DEFAULT_GEOMETRY)
    assert contrast is not None
    assert contrast.mean() > 1.0, contrast  # cream minus green, not blue minus green
    assert support >= 3


def test_a_blue_sleeve_across_the_board_does_not_become_the_light_squares_colour() -> None:
    # Tune scene 3757: a blue sleeve lies along a diagonal of cream squares under two glare
    # spots. Its pairs with the green squares were taken for the printed contrast, the board
    # was modelled as green and blue, and four pieces under the sleeve were read as empty.
    shot = scene("tune", 3757)
    read = read_board(shot.image)
    under = [sq for sq in ("e4", "f5", "g6", "h6") if shot.truth[sq]]
    assert len(under) == 4
    assert all(read.square(sq).state != "empty" for sq in under), [
        (sq, read.square(sq).state) for sq in under
    ]
