"""The tests' render cache (`tests/scene_cache.py`): one render a scene a run, a fresh copy a call."""

from __future__ import annotations

import numpy as np
import pytest

import bench.bench_board as bench_board
import vision.board_synth as board_synth
from tests import scene_cache


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, int]]:
    """Small renders in place of the scenes (a scene takes seconds), each call noted."""
    calls: list[tuple[str, int]] = []

    def small(split: str, index: int) -> board_synth.Shot:
        calls.append((split, index))
        params = board_synth.SceneParams(image_size=(320, 240))
        return board_synth.render_placement("9/9/9/9/4rC4/9/9/9/9", params, seed=index)

    monkeypatch.setattr(bench_board, "scene", small)
    monkeypatch.setattr(board_synth, "scene", small)
    return calls


def test_a_scene_is_rendered_once_a_run_and_each_call_gets_its_own_copy(renders, tmp_path, monkeypatch):
    monkeypatch.setenv(scene_cache.ENV, str(tmp_path))
    first = scene_cache.scene("tune", 3)
    first.image[:] = 0  # a test drawing on its image...
    again = scene_cache.scene("tune", 3)
    other = scene_cache.scene("tune", 4)
    assert renders == [("tune", 3), ("tune", 4)]
    assert again.image.any()  # ...does not draw on the next test's
    assert not np.array_equal(again.image, other.image)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["tune-00003.pkl", "tune-00004.pkl"]


def test_without_a_run_folder_every_call_renders(renders, monkeypatch):
    monkeypatch.delenv(scene_cache.ENV, raising=False)
    scene_cache.scene("tune", 3)
    scene_cache.scene("tune", 3)
    assert renders == [("tune", 3), ("tune", 3)]


def test_the_run_has_a_render_folder():
    """`conftest.py` names one for the whole run (the xdist workers inherit it)."""
    import os

    folder = os.environ.get(scene_cache.ENV)
    assert folder and os.path.isdir(folder)
