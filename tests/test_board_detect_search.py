"""Round 23's marker search on a still camera (board23m): the piece search gives up on
outlines larger than a marker can be (the board's own squares)."""

from __future__ import annotations

from functools import cache

import numpy as np

from tests.scene_cache import scene
from vision.board_detect import HomographyFit, Marker, board_roi, detect_markers, square_side_px
from vision.board_geometry import SIZE
from vision.board_reader import BoardTracker, _gray, read_with
from vision.markers import CORNER_BASE, marker_image

# Tune scenes: 4 and 5 with hands, 2 without (one still read each).
SCENES = (2, 4, 5)


def _same(a: list[Marker], b: list[Marker]) -> bool:
    return len(a) == len(b) and all(
        x.id == y.id and x.confidence == y.confidence and np.array_equal(x.corners, y.corners)
        for x, y in zip(a, b, strict=True)
    )


@cache
def _still(index: int) -> tuple[np.ndarray, BoardTracker]:
    """A tune scene's frame and a tracker that has read it once (its homography cached)."""
    image = scene("tune", index).image
    tracker = BoardTracker(reuse=False)
    tracker.read(image)
    return image, tracker


def _old_piece_search(image: np.ndarray, fit: HomographyFit) -> tuple[list[Marker], list[np.ndarray]]:
    """The still camera's piece search as it was: every outline up to four times the region's
    side decoded."""
    gray = _gray(image)
    unread: list[np.ndarray] = []
    found = detect_markers(gray, board_roi(fit, gray.shape, -0.2, SIZE + 0.2), unread=unread)
    return [m for m in found if m.id < CORNER_BASE], unread


def test_the_search_gives_up_on_outlines_larger_than_its_side():
    """A marker larger than ``max_side`` is not decoded; one below it is, as without."""
    page = np.full((400, 600), 255, np.uint8)
    page[100:160, 80:140] = marker_image(3, 60)
    page[100:280, 300:480] = marker_image(7, 180)
    everything = sorted(m.id for m in detect_markers(page, (0, 0, 600, 400)))
    assert everything == [3, 7]
    small = detect_markers(page, (0, 0, 600, 400), max_side=100)
    assert [m.id for m in small] == [3]
    assert _same(small, [m for m in detect_markers(page, (0, 0, 600, 400)) if m.id == 3])


def test_the_largest_square_is_measured_where_the_board_is_nearest():
    scale = HomographyFit(np.diag([50.0, 50.0, 1.0]), ("a1", "i9"), 0.0, 8)
    assert square_side_px(scale) == 50.0
    H = np.array([[60.0, 8.0, 300.0], [-5.0, 55.0, 120.0], [0.0004, 0.02, 1.0]])
    fit = HomographyFit(H, ("a1", "i9"), 0.0, 8)
    sides = [
        float(
            np.linalg.norm(
                fit.to_image(np.array([[i + di, j + dj]]))[0] - fit.to_image(np.array([[i, j]]))[0]
            )
        )
        for i in range(SIZE + 1)
        for j in range(SIZE + 1)
        for di, dj in ((1, 0), (0, 1))
        if i + di <= SIZE and j + dj <= SIZE
    ]
    assert abs(square_side_px(fit) - max(sides)) < 1e-9
    assert max(sides) > 1.2 * min(sides)  # the test's view has perspective


def test_the_still_piece_search_finds_what_the_old_one_did():
    """On tune scenes with and without hands, the still read's piece search (no outline above
    PIECE_SEARCH_SIDE squares decoded) finds the markers and unread quads of the old search,
    and the read is the one those give."""
    for index in SCENES:
        image, tracker = _still(index)
        assert tracker.fit is not None
        pieces, unread = _old_piece_search(image, tracker.fit)
        read = tracker.read(image)
        assert read.camera == "still"
        old = read_with(image, tracker.fit, pieces, tracker.geometry, "still", read.corners_seen, unread)
        assert read == old


def test_the_largest_marker_follows_the_homography():
    """The piece search's largest marker is worked out once for a homography, and again for
    a new one."""
    image, _ = _still(2)
    tracker = BoardTracker(reuse=False)
    tracker.read(image)
    tracker.read(image)
    cached = tracker._expected
    assert cached is not None and cached.fit is tracker.fit
    assert cached.largest_marker == 0.8 * square_side_px(tracker.fit)
    tracker.read(image)
    assert tracker._expected is cached
    tracker.reset()
    tracker.read(image)  # fitted afresh: a new homography object
    tracker.read(image)
    assert tracker._expected is not cached and tracker._expected is not None
    assert tracker._expected.fit is tracker.fit
