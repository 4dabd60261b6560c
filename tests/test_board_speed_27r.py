"""Round 27's exact speed-ups of the camera-still read outside the light and the surface
(board27r) give the numbers of the forms they replace, bit for bit. The old forms (main's at
stop 32) are kept here and checked against the new ones on drawn inputs (hypothesis) and on
real tune frames read as camera-still frames."""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.recorded_calls import recorded_calls
from tests.same_bits import same_values
from tests.scene_cache import scene
from vision import board_detect, board_fast, board_reader, board_regions, board_squares
from vision.board_detect import AROUND, HomographyFit, Marker, _sides, board_roi, square_side_px
from vision.board_geometry import ALL_SQUARES, DEFAULT_GEOMETRY, SIZE, square_index
from vision.board_reader import PIECE_SEARCH_SIDE, BoardTracker, _Expected, _Placed, piece_reach
from vision.board_squares import PPU, least_free, top_view
from vision.markers import CORNER_BASE

# Tune scenes: 2 without a hand, 4 with hands (one still read each).
SCENES = (2, 4)


@cache
def _still(index: int) -> tuple[np.ndarray, BoardTracker]:
    """A tune scene's frame and a tracker that has read it once (its homography cached)."""
    image = scene("tune", index).image
    tracker = BoardTracker(reuse=False)
    tracker.read(image)
    return image, tracker


# --- the tracker's expectations, once a homography ------------------------------------------


def _corner_rois_26(fit: HomographyFit) -> list[tuple[int, int, int, int]]:
    rois = []
    for pts in DEFAULT_GEOMETRY.corner_marker_points().values():
        img = fit.to_image(pts)
        side = float(np.max(np.ptp(img, axis=0)))
        x0, y0 = img.min(axis=0) - 0.6 * side
        x1, y1 = img.max(axis=0) + 0.6 * side
        rois.append((int(x0), int(y0), int(x1 - x0), int(y1 - y0)))
    return rois


def _errors_26(fit: HomographyFit, corners: list[Marker]) -> list[float]:
    model = DEFAULT_GEOMETRY.corner_marker_points()
    return [
        float(np.max(np.linalg.norm(fit.to_image(model[m.id]) - m.corners, axis=1)))
        for m in corners
        if m.id in model
    ]


@pytest.mark.parametrize("index", SCENES)
def test_the_expected_crops_and_corners_are_round_26s(index):
    image, tracker = _still(index)
    fit, shape = tracker.fit, image.shape[:2]
    assert fit is not None
    expected = _Expected.of(fit, DEFAULT_GEOMETRY, shape)
    assert list(expected.corner_rois) == _corner_rois_26(fit)
    assert expected.board == board_roi(fit, shape, -0.2, SIZE + 0.2)
    assert same_values(expected.largest_marker, PIECE_SEARCH_SIDE * square_side_px(fit))
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    corners = [
        m
        for roi in expected.corner_rois
        for m in board_detect.detect_markers(gray, roi, refine=True)
        if m.id >= CORNER_BASE
    ]
    at = expected.corners_at
    errors = [float(np.max(np.linalg.norm(at[m.id] - m.corners, axis=1))) for m in corners if m.id in at]
    assert len(errors) >= 2 and same_values(errors, _errors_26(fit, corners))


def test_the_expectations_follow_the_homography_the_geometry_and_the_frame():
    image, _ = _still(2)
    tracker = BoardTracker(reuse=False)
    tracker.read(image)
    tracker.read(image)
    cached = tracker._expected
    assert cached is not None and cached.fit is tracker.fit and cached.shape == image.shape[:2]
    tracker.read(image)
    assert tracker._expected is cached
    assert tracker._expect((540, 960)) is not cached  # another frame size
    assert tracker._expect(image.shape[:2]).shape == image.shape[:2]
    tracker.reset()
    tracker.read(image)  # fitted afresh: a new homography object
    tracker.read(image)
    assert tracker._expected is not None and tracker._expected.fit is tracker.fit
    again = tracker._expected
    tracker.geometry = DEFAULT_GEOMETRY.__class__(**DEFAULT_GEOMETRY.__dict__)  # equal, not the same
    tracker.read(image)
    assert tracker._expected is not again and tracker._expected.geometry is tracker.geometry


# --- the markers as the detector gives them -------------------------------------------------


def _markers_of_26(corners, ids, conf, offset):
    out = []
    for c, i, k in zip(corners, np.asarray(ids).reshape(-1), np.asarray(conf).reshape(-1), strict=True):
        pts = np.asarray(c, np.float64).reshape(4, 2) + offset
        out.append(Marker(int(i), pts, float(k)))
    return out


def _same_markers(a: list[Marker], b: list[Marker]) -> bool:
    return len(a) == len(b) and all(
        type(x.id) is type(y.id)
        and x.id == y.id
        and same_values(x.confidence, y.confidence)
        and same_values(np.asarray(x.corners), np.asarray(y.corners))
        for x, y in zip(a, b, strict=True)
    )


@settings(max_examples=200, deadline=None)
@given(
    n=st.integers(1, 40),
    seed=st.integers(0, 2**32 - 1),
    offset=st.tuples(st.integers(0, 2000), st.integers(0, 2000)),
)
def test_the_markers_made_at_once_are_round_26s(n, seed, offset):
    rng = np.random.default_rng(seed)
    corners = tuple(rng.uniform(-5, 900, (1, 4, 2)).astype(np.float32) for _ in range(n))
    ids = rng.integers(0, 80, (n, 1)).astype(np.int32)
    conf = rng.random(n).astype(np.float32)
    at = np.array(offset, np.float64)
    assert _same_markers(
        board_detect._markers_of(corners, ids, conf, at), _markers_of_26(corners, ids, conf, at)
    )


def _not_around_others_26(markers):
    if len(markers) < 2:
        return markers
    corners = np.array([m.corners for m in markers])
    sides = _sides(corners)
    centres = [(float(x), float(y)) for x, y in corners.mean(axis=1)]
    keep = []
    for m, side in zip(markers, sides, strict=True):
        if m.id >= CORNER_BASE:
            keep.append(m)
            continue
        smaller = np.flatnonzero(sides < AROUND * side)
        quad = m.corners.astype(np.float32).reshape(-1, 1, 2)
        if not any(cv2.pointPolygonTest(quad, centres[j], False) > 0 for j in smaller):
            keep.append(m)
    return keep


@settings(max_examples=300, deadline=None)
@given(
    n=st.integers(0, 30),
    nested=st.integers(0, 6),
    seed=st.integers(0, 2**32 - 1),
    corner_share=st.sampled_from([0.0, 0.1, 0.5]),
)
def test_markers_around_smaller_ones_are_dropped_as_in_round_26(n, nested, seed, corner_share):
    """Markers of one size (the usual frame), and some large quads drawn around smaller ones
    (a square decoded round a piece), some of them corner markers."""
    rng = np.random.default_rng(seed)
    markers = []
    for k in range(n + nested):
        side = rng.uniform(20, 40) if k < n else rng.uniform(50, 150)
        cx, cy = rng.uniform(0, 800, 2)
        if k >= n and markers:  # round a marker drawn before
            cx, cy = markers[int(rng.integers(len(markers)))].corners.mean(axis=0) + rng.normal(0, 5, 2)
        angle = rng.uniform(0, np.pi / 2)
        c, s = np.cos(angle) * side / 2, np.sin(angle) * side / 2
        quad = np.array(
            [
                [cx - c + s, cy - s - c],
                [cx + c + s, cy + s - c],
                [cx + c - s, cy + s + c],
                [cx - c - s, cy - s + c],
            ]
        )
        mid = (
            int(rng.integers(CORNER_BASE, CORNER_BASE + 4))
            if rng.random() < corner_share
            else int(rng.integers(0, CORNER_BASE))
        )
        markers.append(Marker(mid, quad, float(rng.random())))
    order = rng.permutation(len(markers))
    markers = [markers[i] for i in order]
    got, want = board_detect._not_around_others(list(markers)), _not_around_others_26(list(markers))
    assert [id(m) for m in got] == [id(m) for m in want]


@pytest.mark.parametrize("index", SCENES)
def test_real_frames_find_round_26s_markers(index, monkeypatch):
    """The still read's searches (the corner crops and the pieces' region) find the same
    markers, corners, confidences and unread quads with every old form patched back in
    (the markers one at a time, the second look's median by numpy, the nested quads' loop)."""
    image, tracker = _still(index)
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    expected = tracker._expect(gray.shape)
    searches = [dict(roi=roi, refine=True) for roi in expected.corner_rois]
    searches.append(dict(roi=expected.board, max_side=expected.largest_marker))

    def run() -> list[tuple[list[Marker], list[np.ndarray]]]:
        out = []
        for kw in searches:
            unread: list[np.ndarray] = []
            out.append((board_detect.detect_markers(gray, unread=unread, **kw), unread))
        return out

    new = run()
    monkeypatch.setattr(board_detect, "_markers_of", _markers_of_26)
    monkeypatch.setattr(board_detect, "median", np.median)
    monkeypatch.setattr(board_detect, "_not_around_others", _not_around_others_26)
    old = run()
    assert sum(len(found) for found, _ in new) >= 10
    for (found, unread), (found_26, unread_26) in zip(new, old, strict=True):
        assert _same_markers(found, found_26)
        assert same_values(unread, unread_26)


# --- the pieces' reach ----------------------------------------------------------------------


def _piece_reach_26(placed, geometry, from_pieces=False):
    sized = [p for p in placed if p.side > 0]
    if not sized:
        return board_squares.PieceReach()
    radii = sorted(p.side / geometry.piece_marker_ratio / 2 for p in sized)
    if len(sized) < board_reader.MIN_PIECES_MEASURED or from_pieces:
        return board_squares.PieceReach(
            min(board_squares.PIECE_RADIUS, 0.9 * float(np.median(radii))), board_squares.CENTRE_BOX
        )
    radius = min(float(np.median(radii)), 1.03 * radii[0])
    offsets = [abs(v - np.floor(v) - 0.5) for p in sized for v in (p.x, p.y)]
    largest = max(offsets)
    bound = largest / board_reader.OFFSET_CONFIDENCE ** (1 / len(offsets)) + board_reader.OFFSET_SLACK
    box = min(bound, max(board_squares.CENTRE_BOX, largest + board_reader.OFFSET_SLACK))
    return board_squares.PieceReach(radius, float(box))


@settings(max_examples=400, deadline=None)
@given(
    n=st.integers(0, 40),
    seed=st.integers(0, 2**32 - 1),
    from_pieces=st.booleans(),
    implausible=st.floats(0.0, 0.3),
    whole=st.booleans(),
)
def test_the_pieces_reach_is_round_26s(n, seed, from_pieces, implausible, whole):
    rng = np.random.default_rng(seed)
    placed = []
    for _ in range(n):
        x, y = rng.uniform(0, SIZE, 2)
        if whole:  # centres on the grid's lines and its squares' centres, sides repeated
            x, y = np.round(x * 2) / 2, np.round(y * 2) / 2
        side = (
            -1.0
            if rng.random() < implausible
            else float(rng.choice([0.35, 0.4]) if whole else rng.uniform(0.2, 0.75))
        )
        placed.append(_Placed(None, float(x), float(y), side, ALL_SQUARES[0]))  # type: ignore[arg-type]
    got = piece_reach(placed, DEFAULT_GEOMETRY, from_pieces)
    assert same_values(got, _piece_reach_26(placed, DEFAULT_GEOMETRY, from_pieces))


@settings(max_examples=300, deadline=None)
@given(
    values=st.lists(
        st.one_of(st.floats(allow_nan=False, allow_subnormal=True), st.sampled_from([0.0, -0.0, 0.4])),
        min_size=1,
        max_size=40,
    )
)
def test_the_median_of_sorted_values_is_numpys(values):
    """Any floats but NaN (a radius is positive), signed zeros, infinities and ties among them."""
    values = sorted(values)
    assert same_values(board_reader._median_of_sorted(values), float(np.median(values)))


# --- the squares' least free share ----------------------------------------------------------


def _least_free_26(free, candidates, box):
    out = []
    for i in candidates:
        f, r = square_index(ALL_SQUARES[i])
        cu, cv = f * PPU + PPU // 2, (SIZE - 1 - r) * PPU + PPU // 2
        out.append(float(free[cv - box : cv + box + 1, cu - box : cu + box + 1].min()))
    return out


@settings(max_examples=300, deadline=None)
@given(
    box=st.integers(0, PPU // 2 + 3),
    seed=st.integers(0, 2**32 - 1),
    special=st.sampled_from([0.0, np.nan, -0.0, np.inf, 1e-42]),
    levels=st.sampled_from([0, 3, 256]),
)
def test_the_least_free_share_is_round_26s(box, seed, special, levels):
    """Free shares as `free_fraction` makes them (float32, a few values repeated or many),
    with a special value here and there (NaN, signed zeros, infinity, subnormals)."""
    rng = np.random.default_rng(seed)
    free = rng.uniform(-0.5, 1.5, (SIZE * PPU, SIZE * PPU)).astype(np.float32)
    if levels:
        free = np.round(free * levels) / levels
    free[rng.random(free.shape) < 0.002] = special
    candidates = sorted(
        rng.choice(SIZE * SIZE, int(rng.integers(0, SIZE * SIZE + 1)), replace=False).tolist()
    )
    if box > PPU // 2:  # boxes over the view's edge: as one square at a time, errors and all
        try:
            want = _least_free_26(free, candidates, box)
        except ValueError:
            with pytest.raises(ValueError):
                least_free(free, candidates, box)
            return
    else:
        want = _least_free_26(free, candidates, box)
    assert same_values(least_free(free, candidates, box), want)


# --- the top view's halving into a frame not cleared ----------------------------------------


def test_the_top_view_never_reads_the_frame_outside_its_halving(monkeypatch):
    """The halved frame is left as it comes outside the part halved: filled with noise here,
    the top view is the plain form's (the whole frame halved, then warped) all the same."""
    rng = np.random.default_rng(27)

    def noisy(shape, dtype):
        return rng.integers(0, 256, shape, dtype=np.uint8).astype(dtype)

    monkeypatch.setattr(board_fast, "_frame", noisy)
    img = cv2.GaussianBlur(rng.integers(0, 256, (1080, 1920, 3), dtype=np.uint8), (0, 0), 2)
    halvings = set()
    for _ in range(8):
        side = float(rng.uniform(60, 200))  # halved once under 120 px a square, twice above
        x0, y0 = float(rng.uniform(-100, 1920 - 9 * side)), float(rng.uniform(-50, max(1080 - 9 * side, 0)))
        src = np.array([[0, 0], [9, 0], [9, 9], [0, 9]], np.float32)
        dst = np.array(
            [[x0, y0 + 9 * side], [x0 + 9 * side, y0 + 9 * side], [x0 + 9 * side + 20, y0], [x0 - 15, y0]]
        )
        H = cv2.getPerspectiveTransform(src, (dst + rng.normal(0, 8, dst.shape)).astype(np.float32))
        half, scale = img, 1.0
        px = np.sqrt(abs(np.linalg.det(H[:2, :2]))) / max(abs(H[2, 2]), 1e-9)
        while px * scale > 2.5 * PPU and min(half.shape[:2]) > 64:
            half, scale = cv2.pyrDown(half), scale / 2
        halvings.add(scale)
        T = np.array([[1 / PPU, 0, 0], [0, -1 / PPU, SIZE], [0, 0, 1]])
        want = cv2.warpPerspective(
            half,
            np.diag([scale, scale, 1.0]) @ H @ T,
            (SIZE * PPU, SIZE * PPU),
            flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
            borderMode=cv2.BORDER_CONSTANT,
        )
        assert np.array_equal(top_view(img, H), want)
    assert halvings == {0.5, 0.25}


# --- the regions' lamp share, made when a region asks ---------------------------------------


def _regions_of_26(surface, light, held=(), lin=None):
    pred = light.predicted
    own = np.maximum((pred[..., 0] + pred[..., 1] + pred[..., 2]) / 3, 1e-4)
    shown = None if lin is None else board_regions.light_of(lin, light.predicted, light.known)
    hidden = surface.hidden if surface.reach is None else surface.reach
    found = board_regions.find_regions(
        surface.foreign, hidden, surface.outside, light.lamp / own, held, shown
    )
    covered = {sq for r in found for sq in r.core}
    return found + tuple(
        board_regions.held_region(sq) for sq in sorted(set(held) - covered, key=ALL_SQUARES.index)
    )


@cache
def _regions_calls():
    # The first reads (which fix the homographies) are made before the recording: only the
    # camera-still reads' calls are recorded, one each, whatever the first read called.
    stills = [_still(index) for index in SCENES]

    def read_all() -> None:
        for image, tracker in stills:
            tracker.read(image)

    return recorded_calls(board_regions, "regions_of", read_all)


def test_real_frames_find_round_26s_regions():
    calls = _regions_calls()
    assert len(calls) == len(SCENES)
    found = 0
    for a, k in calls:
        got = board_regions.regions_of(*a, **k)
        assert got == _regions_of_26(*a, **k)
        found += len(got)
        for held in (("e5",), ("a1", "e5")):
            assert board_regions.regions_of(a[0], a[1], held, *a[3:]) == _regions_of_26(
                a[0], a[1], held, *a[3:]
            )
    assert found > 0


# --- the squares the lighting may be fitted on ----------------------------------------------


def _usable_squares_26(top, masks, candidates):
    usable = masks.mean(axis=(1, 2))
    inner = board_squares._blocks(top)
    brightest = np.maximum(np.maximum(inner[..., 0], inner[..., 1]), inner[..., 2])
    saturated = ((brightest >= 250) & masks).sum(axis=(1, 2)) / np.maximum(masks.sum(axis=(1, 2)), 1)
    black = (brightest == 0).mean(axis=(1, 2))
    ok = np.zeros(SIZE * SIZE, bool)
    for i in candidates:
        ok[i] = usable[i] >= board_squares.MIN_USABLE and saturated[i] < 0.1 and black[i] < 0.02
    return ok


@settings(max_examples=100, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    pieces=st.integers(0, 40),
    bright=st.floats(0.0, 0.6),
    dark=st.floats(0.0, 0.3),
    given_brightest=st.booleans(),
)
def test_the_usable_squares_are_round_26s(seed, pieces, bright, dark, given_brightest):
    """Top views with washed-out and black patches (the bounds' edges: shares of 0.1, 0.02
    and 0.35 of a square), under pieces of every size, and any subset of candidates."""
    rng = np.random.default_rng(seed)
    n = SIZE * PPU
    top = rng.integers(1, 250, (n, n, 3), dtype=np.uint8)
    for value, share in ((255, bright), (250, bright), (0, dark)):
        patch = cv2.resize(
            (rng.random((SIZE * 12, SIZE * 12)) < share).astype(np.uint8),
            (n, n),
            interpolation=cv2.INTER_NEAREST,
        )
        top[patch > 0, int(rng.integers(0, 3))] = value
        if value == 0:
            top[patch > 0] = 0
    discs = [
        (float(x), float(y), float(r))
        for x, y, r in rng.uniform((0, 0, 0.05), (SIZE, SIZE, 0.6), (pieces, 3))
    ]
    masks = board_squares.square_masks(discs)
    candidates = sorted(
        rng.choice(SIZE * SIZE, int(rng.integers(0, SIZE * SIZE + 1)), replace=False).tolist()
    )
    brightest = board_squares.cmax(top) if given_brightest else None
    got = board_squares._usable_squares(top, masks, candidates, brightest)
    assert same_values(got, _usable_squares_26(top, masks, candidates))


# --- image pixels to board units, the homography inverted once ------------------------------


@settings(max_examples=200, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(1, 50))
def test_points_mapped_to_the_board_are_round_26s(seed, n):
    rng = np.random.default_rng(seed)
    src = np.array([[0, 0], [9, 0], [9, 9], [0, 9]], np.float32)
    dst = (rng.uniform(0, 1000, (4, 2)) + np.array([[0, 900], [900, 900], [900, 0], [0, 0]])).astype(
        np.float32
    )
    fit = HomographyFit(cv2.getPerspectiveTransform(src, dst), ("a1", "i9"), 0.5, 8)
    for _ in range(2):  # the second call uses the inverse made by the first
        pts = rng.uniform(-100, 2000, (n, 2))
        want = cv2.perspectiveTransform(pts.reshape(-1, 1, 2), np.linalg.inv(fit.H)).reshape(-1, 2)
        assert same_values(fit.to_board(pts), want)
