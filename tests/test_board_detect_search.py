"""Round 23's marker search on a still camera (board23m): the piece search gives up on
outlines larger than a marker can be, and only what is searched is made grey."""

from __future__ import annotations

from functools import cache

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.board_detect import HomographyFit, Marker, board_roi, detect_markers, square_side_px
from vision.board_geometry import SIZE
from vision.board_reader import BoardTracker, _gray, _gray_of, read_with
from vision.board_synth import scene
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
    """The still camera's piece search as it was: the whole frame made grey, every outline up
    to four times the region's side decoded."""
    gray = _gray(image)
    unread: list[np.ndarray] = []
    found = detect_markers(gray, board_roi(fit, gray.shape, -0.2, SIZE + 0.2), unread=unread)
    return [m for m in found if m.id < CORNER_BASE], unread


@settings(max_examples=200, deadline=None)
@given(
    h=st.integers(1, 60),
    w=st.integers(1, 60),
    x=st.integers(-70, 70),
    y=st.integers(-70, 70),
    rw=st.integers(0, 80),
    rh=st.integers(0, 80),
    seed=st.integers(0, 2**32 - 1),
)
def test_a_regions_grey_is_the_frames(h, w, x, y, rw, rh, seed):
    """Grey made of a part of a frame (any size, partly or wholly outside it) has the values
    of that part of the whole frame's grey, bit for bit (SIMD tails included)."""
    bgr = np.random.default_rng(seed).integers(0, 256, (h, w, 3), dtype=np.uint8)
    grey, (x0, y0) = _gray_of(bgr, (x, y, rw, rh))
    x1, y1 = min(w, x + rw), min(h, y + rh)
    assert (x0, y0) == (max(0, x), max(0, y))
    if x1 <= x0 or y1 <= y0:
        assert grey.size == 0
    else:
        assert np.array_equal(grey, _gray(bgr)[y0:y1, x0:x1])


def test_markers_found_in_a_grey_part_are_the_frames():
    """`detect_markers` on a region's own grey (``origin``) finds what it finds in the whole
    frame's grey: the same ids, corners, confidences and unread quads, even where the region
    runs off the frame."""
    image, tracker = _still(5)
    assert tracker.fit is not None
    gray = _gray(image)
    rois = [*tracker._corner_rois(image.shape), board_roi(tracker.fit, image.shape, -0.2, SIZE + 0.2)]
    x, y, w, h = rois[0]
    rois.append((-25, -10, x + w + 25, y + h + 10))  # off the frame's top-left corner
    for n, roi in enumerate(rois):
        refine = n < 4
        whole: list[np.ndarray] = []
        part: list[np.ndarray] = []
        grey, origin = _gray_of(image, roi)
        a = detect_markers(gray, roi, refine=refine, unread=whole)
        b = detect_markers(grey, roi, refine=refine, unread=part, origin=origin)
        assert _same(a, b)
        assert len(whole) == len(part) and all(np.array_equal(p, q) for p, q in zip(whole, part, strict=True))
    assert detect_markers(np.zeros((0, 0), np.uint8), (-50, -50, 40, 40), origin=(0, 0)) == []


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
    """On tune scenes with and without hands, the still read's piece search (its own grey,
    no outline above PIECE_SEARCH_SIDE squares decoded) finds the markers and unread quads
    of the old search, and the read is the one those give."""
    for index in SCENES:
        image, tracker = _still(index)
        assert tracker.fit is not None
        pieces, unread = _old_piece_search(image, tracker.fit)
        read = tracker.read(image)
        assert read.camera == "still"
        old = read_with(image, tracker.fit, pieces, tracker.geometry, "still", read.corners_seen, unread)
        assert read == old


def test_the_search_plan_follows_the_homography():
    """The crops and the largest marker are worked out once for a homography, and again for
    a new one (a refit, or another frame size)."""
    image, _ = _still(2)
    tracker = BoardTracker(reuse=False)
    tracker.read(image)
    tracker.read(image)
    plan = tracker._plan
    assert plan is not None and plan.fit is tracker.fit
    assert plan.largest_marker == 0.8 * square_side_px(tracker.fit)
    tracker.read(image)
    assert tracker._plan is plan
    tracker.reset()
    tracker.read(image)  # fitted afresh: a new homography object
    tracker.read(image)
    assert tracker._plan is not plan and tracker._plan is not None and tracker._plan.fit is tracker.fit
