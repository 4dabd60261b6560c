"""Round 19's speed-up gives the same reads as the plain form it replaces (as
tests/test_board_speed_18.py does for round 18)."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="module")
def clean_scene():
    from tests.scene_cache import scene

    shot = scene("tune", 2)  # no hand: the light fit's weights settle after two passes
    assert not shot.params.hands
    return shot


def _read_counting_passes(image, monkeypatch, settle: bool):
    from vision import board_surface
    from vision.board_reader import read_board

    passes = []
    real = board_surface._local_light

    def counted(*args, **kwargs):
        passes.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(board_surface, "_local_light", counted)
    if not settle:
        monkeypatch.setattr(board_surface, "_settled", lambda w, before: False)
    read = read_board(image)
    monkeypatch.undo()
    return read, len(passes)


def test_settled_weights_end_the_passes_with_the_same_read(clean_scene, monkeypatch):
    from vision.board_surface import PASSES

    quick, quick_passes = _read_counting_passes(clean_scene.image, monkeypatch, settle=True)
    plain, plain_passes = _read_counting_passes(clean_scene.image, monkeypatch, settle=False)
    assert plain_passes == PASSES
    assert quick_passes < PASSES  # the weights settled: the last pass was skipped
    assert quick.squares == plain.squares
    assert quick.regions == plain.regions
    assert quick.notes == plain.notes


def test_settled_is_exact_equality():
    import numpy as np

    from vision.board_surface import _settled

    w = np.ones((4, 4), np.float32)
    assert _settled(w, w.copy())
    other = w.copy()
    other[2, 3] = 0.0
    assert not _settled(other, w)
