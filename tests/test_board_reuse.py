"""A camera stream: the same scene again gets the last read; any change is read in full."""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.board_geometry import square_center
from vision.board_reader import SAME_SCENE_LEVELS, BoardTracker, _same_scene
from vision.board_synth import Hand, SceneParams, faces_from_placement, render, view

MIDGAME = "gC2xx1gM3/1yA5yRyD/3rN1bD3/bM1gR3xx2/2xx1yC4/1rM5bM1/rR1bN4yM1/2gA4rDbC/rCrA3yN3"
PARAMS = SceneParams(
    board_to_image=tuple(map(tuple, view((1920, 1080), side=900, center=(900, 540), turn=0.1, keystone=0.1)))
)


def again(image: np.ndarray, rng: np.random.Generator, sigma: float = 6.0) -> np.ndarray:
    """The next video frame of the same scene: fresh sensor noise, JPEG again."""
    noisy = image.astype(np.float32) + rng.normal(0, sigma, image.shape).astype(np.float32)
    ok, buf = cv2.imencode(".jpg", np.clip(noisy, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 80])
    assert ok
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


@pytest.fixture(scope="module")
def scene() -> np.ndarray:
    return render(faces_from_placement(MIDGAME), PARAMS, 5).image


def test_the_same_scene_again_is_answered_from_the_last_read(scene: np.ndarray) -> None:
    rng = np.random.default_rng(1)
    tracker = BoardTracker()
    assert tracker.read(again(scene, rng)).camera == "fitted"
    full = tracker.read(again(scene, rng))
    assert full.camera == "still" and full.placement == MIDGAME and tracker.reused == 0
    frames = [again(scene, rng) for _ in range(3)]
    reads = [tracker.read(f) for f in frames]
    assert tracker.reused == 3
    assert all(r == full for r in reads)
    # What a full read of the last of them says is what the tracker answered.
    fresh = BoardTracker(reuse=False)
    fresh.read(frames[-1])
    assert fresh.read(frames[-1]).placement == reads[-1].placement
    assert fresh.reused == 0


def test_a_piece_taken_away_is_read_in_full(scene: np.ndarray) -> None:
    rng = np.random.default_rng(2)
    tracker = BoardTracker()
    for _ in range(3):
        tracker.read(again(scene, rng))
    assert tracker.reused == 1
    taken = MIDGAME.replace("gC2xx1gM3", "gC2xx5")  # the green militant leaves g9
    read = tracker.read(again(render(faces_from_placement(taken), PARAMS, 5).image, rng))
    assert tracker.reused == 1 and read.placement == taken


def _fingertip(image: np.ndarray, square: str) -> np.ndarray:
    """A fingertip's worth of skin (a 24 × 10 px blob) over the middle of ``square``."""
    x, y = square_center(square)
    centre = cv2.perspectiveTransform(np.array([[[x, y]]], np.float64), PARAMS.homography())[0, 0]
    out = image.copy()
    cv2.ellipse(out, (int(centre[0]), int(centre[1])), (12, 5), 30, 0, 360, (120, 150, 205), -1)
    return out


def test_a_fingertip_is_a_change(scene: np.ndarray) -> None:
    rng = np.random.default_rng(3)
    tracker = BoardTracker()
    for _ in range(2):
        tracker.read(again(scene, rng))
    # Too small to hide a piece (the read may well still call e7 empty), but read in full.
    tracker.read(again(_fingertip(scene, "e7"), rng))
    assert tracker.reused == 0
    tracker.read(again(_fingertip(scene, "e7"), rng))
    assert tracker.reused == 1  # ... and the fingertip resting there is the same scene again


def test_noise_is_not_a_change_and_a_small_blob_is() -> None:
    rng = np.random.default_rng(4)
    board = np.tile(np.repeat(np.repeat(np.array([[60, 190], [190, 60]], np.uint8), 40, 0), 40, 1), (6, 6))
    for sigma in (2.0, 5.0, 8.0):
        a = np.clip(board + rng.normal(0, sigma, board.shape), 0, 255).astype(np.uint8)
        b = np.clip(board + rng.normal(0, sigma, board.shape), 0, 255).astype(np.uint8)
        assert _same_scene(a, b), sigma
    blob = a.copy()
    blob[100:106, 100:106] = np.where(blob[100:106, 100:106] > 128, 60, 190)  # 6 × 6 px flipped
    assert not _same_scene(blob, a)
    assert not _same_scene(a[:-1], a)  # another region: never the same scene
    assert SAME_SCENE_LEVELS > 20


def test_without_reuse_every_frame_is_read(scene: np.ndarray) -> None:
    rng = np.random.default_rng(5)
    tracker = BoardTracker(reuse=False)
    for _ in range(3):
        tracker.read(again(scene, rng))
    assert tracker.reused == 0


def test_a_read_in_doubt_is_read_again_every_frame() -> None:
    # A hand resting on the board: squares unknown, a hand region. The next frame's noise may
    # let a square be read, and a follower waiting for the hand to go must see every frame.
    hand = Hand(palm=(2.5, 6.5), angle=math.pi * 0.8, size=1.8, skin=(120, 160, 215), sleeve=(60, 60, 60))
    image = render(faces_from_placement(MIDGAME), replace(PARAMS, hands=(hand,)), 5).image
    rng = np.random.default_rng(6)
    tracker = BoardTracker()
    reads = [tracker.read(again(image, rng)) for _ in range(4)]
    assert reads[-1].unknown and any(r.kind == "hand" for r in reads[-1].regions)
    assert tracker.reused == 0
