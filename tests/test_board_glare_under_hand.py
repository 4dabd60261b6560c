"""A lamp's reflection partly under a hand, looked at again without the hand
(`vision.board_squares._second_look`)."""

from __future__ import annotations

import pytest

from vision import board_squares
from vision.board_reader import read_board
from vision.board_synth import scene


@pytest.fixture(scope="module")
def shot_184():
    # A reflection under the palm of an orange hand: its light reaches f2 and g3 beside it.
    return scene("tune", 184)


def test_tune_184_the_board_the_reflection_lights_beside_a_hand_is_read_empty(shot_184) -> None:
    read = read_board(shot_184.image)
    assert read.square("f2").state == "empty"
    assert read.square("i1").state == "empty"  # the lighting, refitted without the spot's light


def test_tune_184_without_the_second_look_the_reflection_is_foreign(shot_184, monkeypatch) -> None:
    monkeypatch.setattr(board_squares, "_second_look", lambda surface, light, *a: (surface, light))
    read = read_board(shot_184.image)
    assert read.square("f2").state == "unknown"
    assert read.square("f2").note.startswith("covered")


def test_tune_1004_fingers_of_the_light_squares_colour_under_the_reflection_stay_unknown() -> None:
    # The reflection lies under two hands of the light squares' colour: their fingers fit as
    # board under its light, so they must not witness it (hide 0.65 on e2).
    read = read_board(scene("tune", 1004).image)
    assert read.square("e2").state == "unknown"
