"""Round 25's exact speed-ups of the hand steps (board25h) give the pixels of the plain forms
they replace, bit for bit. The plain forms are kept here: on drawn hands (hypothesis) and on
`_under_hands`' own arguments in real frames."""

from __future__ import annotations

import copy
import itertools

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.drawn_hands import PPU, N, drawn_hand
from tests.plain_near_colour import near_hand_colour_plain
from vision import board_gaps as gaps
from vision import board_hands as hands_mod
from vision import board_near_colour as near_colour
from vision import board_surface
from vision.board_fast import box_around
from vision.board_geometry import SIZE
from vision.board_surface import _LEVELS_LUT, Hands

# --- reach_across_lines: every square and side tested in Python (before round 25) ----------


def _reach_across_lines_plain(hand, ppu, line_px, squares=None):
    n = hand.shape[0]
    size = n // ppu
    out = np.zeros_like(hand, dtype=bool)
    lo, hi = line_px, ppu - line_px
    gap = 2 * line_px + 1
    inside = hi - lo
    along = np.arange(inside, dtype=np.float64)
    near = hands_mod.NEAR
    inner = hands_mod.square_insides(hand, ppu, line_px)
    touches = {
        (0, -1): np.asarray(inner[:, :, :, -near:].any(axis=(1, 3))),
        (0, 1): np.asarray(inner[:, :, :, :near].any(axis=(1, 3))),
        (-1, 0): np.asarray(inner[:, -near:].any(axis=(1, 3))),
        (1, 0): np.asarray(inner[:, :near].any(axis=(1, 3))),
    }
    bands = {}
    for row in range(size):
        for col in range(size):
            if squares is not None and not squares[row, col]:
                continue
            v0, u0 = row * ppu + lo, col * ppu + lo
            for dr, dc in ((0, -1), (0, 1), (-1, 0), (1, 0)):
                nr, nc = row + dr, col + dc
                if not (0 <= nr < size and 0 <= nc < size) or not touches[(dr, dc)][nr, nc]:
                    continue
                strip = hands_mod._neighbour_strip(hand, nr * ppu + lo, nc * ppu + lo, inside, (dr, dc))
                key = strip.tobytes()
                allowed = bands.get(key)
                if allowed is None:
                    allowed = bands[key] = hands_mod._carried_on(strip, along + gap, along)
                block = out[v0 : v0 + inside, u0 : u0 + inside]
                block |= hands_mod._to_square(allowed, (dr, dc))
    return out


def _drawn_hands(rng: np.random.Generator, n: int, blobs: int) -> np.ndarray:
    v, u = np.mgrid[0:n, 0:n]
    hand = np.zeros((n, n), bool)
    for _ in range(blobs):
        cy, cx, r = rng.uniform(-n / 4, n * 1.25), rng.uniform(-n / 4, n * 1.25), rng.uniform(2, n / 3)
        hand |= np.hypot(v - cy, u - cx) < r
    return hand


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    ppu=st.sampled_from([12, 16, 24]),
    blobs=st.integers(0, 4),
    speckle=st.floats(0, 0.2),
    asked=st.sampled_from([None, 0.3, 0.8, 1.0]),
)
def test_reach_across_lines_faces_the_plain_squares(seed, ppu, blobs, speckle, asked):
    """The squares facing a touched side found by shifted tables: the same pixels as testing
    every square and side, with and without the squares asked about, at the board's edges."""
    rng = np.random.default_rng(seed)
    n = SIZE * ppu
    hand = _drawn_hands(rng, n, blobs) | (rng.random((n, n)) < speckle)
    squares = None if asked is None else rng.random((SIZE, SIZE)) < asked
    line_px = 2
    got = hands_mod.reach_across_lines(hand, ppu, line_px, squares)
    assert np.array_equal(got, _reach_across_lines_plain(hand, ppu, line_px, squares))


def test_facing_keeps_the_loops_order():
    """`_facing` lists the (square, side) pairs in the plain loops' order."""
    rng = np.random.default_rng(5)
    touches = {side: rng.random((SIZE, SIZE)) < 0.4 for side in ((0, -1), (0, 1), (-1, 0), (1, 0))}
    squares = rng.random((SIZE, SIZE)) < 0.7
    want = [
        (row, col, dr, dc)
        for row, col in itertools.product(range(SIZE), range(SIZE))
        if squares[row, col]
        for dr, dc in ((0, -1), (0, 1), (-1, 0), (1, 0))
        if 0 <= row + dr < SIZE and 0 <= col + dc < SIZE and touches[(dr, dc)][row + dr, col + dc]
    ]
    assert hands_mod._facing(touches, squares, SIZE) == want


# --- _rectangles: remembered per kernel ------------------------------------------------------


def test_rectangles_are_remembered_per_kernel():
    """Kernels of one shape but other pixels get their own rectangles; the list a caller gets
    is its own (changing it changes nothing remembered)."""
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (9, 9))
    box = np.ones((9, 9), np.uint8)
    ring = disc.copy()
    ring[4, 4] = 0
    first = board_surface._rectangles(disc)
    assert first is not None and board_surface._rectangles(box) == [(4, 4)]
    assert board_surface._rectangles(ring) is None
    first.clear()
    assert board_surface._rectangles(disc) == board_surface._rectangles(disc.copy()) != []
    assert board_surface._rectangles(disc * 7) == board_surface._rectangles(disc)  # any nonzero


# --- dimmed_hand_parts and hands_hues: the hands as `Hands` found them -------------------------


def _dimmed_hand_parts_plain(shade, labels, hands, log_dim, usable, gap, unseen=None):
    h = hands_mod
    out = np.zeros(shade.shape, bool)
    if not len(hands) or not shade.any():
        return out
    count, lab = cv2.connectedComponents(shade.astype(np.uint8), connectivity=8)
    size = np.bincount(lab.ravel(), minlength=count)
    body = cv2.erode(shade.astype(np.uint8), np.ones((2 * h.PART_WIDTH + 1,) * 2, np.uint8)) > 0
    wide = np.bincount(lab[body], minlength=count) >= h.PART_PIXELS
    is_hand = np.zeros(max(int(labels.max()), int(np.max(hands))) + 1, bool)
    is_hand[hands] = True
    blobs = is_hand[labels]
    ppu = shade.shape[0] // 9
    reach = round(h.SHADOW_REACH * ppu)
    n_hands, hand = cv2.connectedComponents(h._grown_by(blobs, gap), connectivity=8)
    casts = np.zeros(shade.shape, bool) if unseen is None else unseen
    may_be_hand = h._grid_bounded(lab, count, wide, gap // 2, ppu)
    may_be_hand &= h._labels_near(lab, count, may_be_hand, blobs, round(h.GRID_NEAR * ppu))
    way = h.shadow_direction(blobs, log_dim, usable)
    if way is None:
        return may_be_hand[lab]
    for k in range(1, n_hands):
        near = hand == k
        touching = h._labels_in(lab, near, count) & wide
        if not touching.any():
            continue
        box = box_around(touching[lab], reach + 1)
        inside = np.bincount(
            lab[box][h.downwind((near | casts)[box], way, reach) & shade[box]], minlength=count
        )
        may_be_hand |= touching & (inside < 0.5 * size)
    return may_be_hand[lab]


def _frame(seed: int, ppu: int, blobs: int, density: float):
    rng = np.random.default_rng(seed)
    n = SIZE * ppu
    foreign = _drawn_hands(rng, n, blobs) | (rng.random((n, n)) < density)
    dimmed = rng.random((n, n)) < 0.2
    v, u = np.mgrid[0:n, 0:n]
    for _ in range(3):  # dimmed patches beside the hands
        cy, cx, r = rng.uniform(0, n), rng.uniform(0, n), rng.uniform(2, n / 5)
        dimmed |= np.hypot(v - cy, u - cx) < r
    levels = rng.uniform(0, 255, (n, n, 3)).astype(np.float32)
    return rng, foreign, dimmed & ~foreign, levels


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    ppu=st.sampled_from([12, 24]),
    blobs=st.integers(0, 4),
    density=st.floats(0, 0.05),
    with_parts=st.booleans(),
)
def test_hands_as_found_give_the_plain_parts_and_hues(seed, ppu, blobs, density, with_parts):
    """`dimmed_hand_parts` given the hands' mask (and grouping the hands in their box), and
    `hands_hues` given their labels and core (`Hands`), answer as the plain forms that find
    them again."""
    rng, foreign, dimmed, levels = _frame(seed, ppu, blobs, density)
    hands = Hands.of(foreign, dimmed, ppu)
    if not len(hands.big):
        return
    assert board_surface.PALETTE_ERODE == gaps.CORE_ERODE
    n = foreign.shape[0]
    # The hands' shadow, offset one way (so that the frame shows which), over some noise.
    dy, dx = rng.integers(-6, 7, 2)
    log_dim = -rng.uniform(0, 0.1, (n, n)) - np.roll(foreign, (dy, dx), axis=(0, 1))
    usable = rng.random((n, n)) < 0.9
    unseen = rng.random((n, n)) < 0.05
    parts_args = (dimmed, hands.labels, hands.big, log_dim, usable, 5, unseen)
    parts = hands_mod.dimmed_hand_parts(*parts_args, hands.mask)
    assert np.array_equal(parts, _dimmed_hand_parts_plain(*parts_args))
    assert np.array_equal(parts, hands_mod.dimmed_hand_parts(*parts_args))
    if not with_parts:
        parts = np.zeros_like(parts)
    regions = gaps.HandRegions(hands.labels, hands.stats, hands.big, hands.core)
    got = gaps.hands_hues(levels, hands.mask, dimmed, parts, regions)
    assert np.array_equal(got, gaps.hands_hues(levels, hands.mask, dimmed, parts))


# --- real frames ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def under_hands_calls():
    """`_under_hands`' arguments in three tune scenes with hands (camera-still reads)."""
    from tests.recorded_calls import recorded_calls
    from tests.scene_cache import scene
    from vision.board_reader import BoardTracker

    calls = []
    for index in (4, 25, 1411):
        image = scene("tune", index).image
        tracker = BoardTracker(reuse=False)
        tracker.read(image)  # finds the board; the second read is a camera-still one
        calls += recorded_calls(
            board_surface, "_under_hands", lambda t=tracker, i=image: t.read(i), copied=True
        )
    return calls


def _plain_rectangles(kernel):
    return board_surface._rectangles_of.__wrapped__(kernel.shape, (kernel != 0).tobytes())


def test_real_frames_under_hands_as_with_the_plain_forms(under_hands_calls, monkeypatch):
    """`_under_hands` on its real arguments: the same pixels (and hand parts) with the plain
    reach, the rectangles worked out afresh, and the hands found again by the steps."""
    assert len(under_hands_calls) == 3

    def run():
        out = []
        for a, k in copy.deepcopy(under_hands_calls):
            parts: list[np.ndarray] = []
            k = {**k, "parts_out": parts} if len(a) < 12 else k
            a = (*a[:11], parts, *a[12:]) if len(a) >= 12 else a
            out.append((board_surface._under_hands(*a, **k), parts))
        return out

    new = run()
    spanned = board_surface.spanned_gaps
    monkeypatch.setattr(board_surface, "reach_across_lines", _reach_across_lines_plain)
    monkeypatch.setattr(board_surface, "_rectangles", lambda kernel: _plain_rectangles(kernel))
    monkeypatch.setattr(board_surface, "spanned_gaps", lambda *a: spanned(*a[:7]))
    monkeypatch.setattr(board_surface, "dimmed_hand_parts", lambda *a: _dimmed_hand_parts_plain(*a[:7]))
    plain = run()
    assert sum(int(held.sum()) for held, _ in new) > 0
    for (x, px), (y, py) in zip(new, plain, strict=True):
        assert np.array_equal(x, y)
        assert len(px) == len(py) and all(np.array_equal(p, q) for p, q in zip(px, py, strict=True))


# --- near_hand_colour: the blur in the band of the candidates' rows -------------------------


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    rows=st.integers(1, 60),
    cols=st.integers(1, 60),
    k=st.integers(1, 300),
    sigma=st.floats(0.5, 6.0),
    fill=st.floats(0.01, 1.0),
)
def test_a_band_of_rows_blurs_as_the_whole_grid(seed, rows, cols, k, sigma, fill):
    """`near_colour._blur` of the rows `_band` gives around some rows: the whole grid's
    numbers in those rows, bit for bit (any number of hue channels, in chunks of CHANNELS)."""
    rng = np.random.default_rng(seed)
    grid = (rng.random((rows, cols, k)) * (rng.random((rows, cols, k)) < fill) * 50).astype(np.float32)
    first = int(rng.integers(0, rows))
    last = int(rng.integers(first, rows))
    top, bottom = near_colour._band(first, last, rows, sigma)
    whole = near_colour._blur(grid, sigma)[first : last + 1]
    band = near_colour._blur(np.ascontiguousarray(grid[top:bottom]), sigma)[first - top : last + 1 - top]
    assert np.array_equal(whole.view(np.uint32), band.view(np.uint32))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), parts=st.integers(1, 3), height=st.integers(1, 80))
def test_near_hand_colour_in_a_band_is_the_plain_one(seed, parts, height):
    """Candidates in a band of rows beside a drawn hand (the blur made in their rows only):
    the pixels of the plain form (round 24's test keeps it)."""
    rng = np.random.default_rng(seed)
    hand = drawn_hand(rng, parts)
    core = cv2.erode(hand.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
    colours = rng.integers(30, 256, (4, 3))
    top = np.where(
        hand[..., None], colours[rng.integers(0, 2, (N, N))], colours[2 + rng.integers(0, 2, (N, N))]
    )
    levels = _LEVELS_LUT[np.clip(top + rng.integers(-20, 21, (N, N, 1)), 0, 255).astype(np.uint8)]
    y = int(rng.integers(0, N - height + 1))
    candidates = np.zeros((N, N), bool)
    candidates[y : y + height] = ~hand[y : y + height] & (rng.random((height, N)) < 0.7)
    want = near_hand_colour_plain(levels, core, candidates, PPU)
    assert np.array_equal(near_colour.near_hand_colour(levels, core, candidates, PPU), want)
