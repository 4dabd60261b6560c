"""Round 21's exact speed-ups (board21s) give the numbers of the plain forms they replace,
bit for bit."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.board_fast import row_quantiles, share


@settings(max_examples=300, deadline=None)
@given(
    rows=st.integers(1, 6),
    n=st.integers(1, 300),
    q=st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0, 1 / 3, 0.999]),
    seed=st.integers(0, 2**32 - 1),
    dtype=st.sampled_from([np.float32, np.float64]),
    ties=st.booleans(),
)
def test_row_quantiles_are_numpys(rows, n, q, seed, dtype, ties):
    rng = np.random.default_rng(seed)
    a = (rng.standard_normal((rows, n)) * 10.0 ** rng.integers(-3, 4)).astype(dtype)
    if ties:
        a = np.round(a, 0)
    want = [float(v) for v in np.quantile(a, q, axis=1)]
    got = row_quantiles(a.copy(), q)
    assert np.array_equal(np.array(got), np.array(want), equal_nan=True)
    assert np.array_equal(np.signbit(got), np.signbit(want))


def test_row_quantiles_keep_nan_and_inf():
    a = np.array([[1.0, np.nan, 3.0, 4.0], [1.0, 2.0, np.inf, 4.0], [np.inf, np.inf, 1.0, 2.0]], np.float32)
    # inf − inf is NaN in both forms; numpy warns of it, and so do we: expected here.
    with np.errstate(invalid="ignore"):
        for q in (0.25, 0.5, 0.75, 1.0):
            want = [float(v) for v in np.quantile(a, q, axis=1)]
            assert np.array_equal(np.array(row_quantiles(a.copy(), q)), np.array(want), equal_nan=True)


@settings(max_examples=200, deadline=None)
@given(h=st.integers(1, 30), w=st.integers(1, 30), p=st.floats(0, 1), seed=st.integers(0, 2**32 - 1))
def test_share_is_the_mean_of_a_mask(h, w, p, seed):
    mask = np.random.default_rng(seed).random((h, w)) < p
    assert share(mask) == float(mask.mean())
    part = mask[::2, 1:]
    assert share(part) == float(part.mean()) if part.size else np.isnan(share(part))


@settings(max_examples=100, deadline=None)
@given(
    h=st.integers(13, 60),
    w=st.integers(13, 60),
    p=st.floats(0, 1),
    k=st.integers(0, 15),
    seed=st.integers(0, 2**32 - 1),
)
def test_ring_kernel_dilation_is_the_shifted_union(h, w, p, k, seed):
    import cv2

    from vision.board_hands import _ring, _ring_kernel

    # `shadow_direction` looks in a box at least RING[1] + 1 px round a hand pixel.
    hands = np.random.default_rng(seed).random((h, w)) < p
    u, kernel = _ring_kernel(k)
    got = cv2.dilate(hands.astype(np.uint8), kernel).view(bool)
    assert np.array_equal(got, _ring(hands, u))


def _reach_across_lines_plain(hand, ppu, line_px):
    """`reach_across_lines` as it was: every strip worked out afresh."""
    from vision.board_hands import _carried_on, _neighbour_strip, _to_square

    size = hand.shape[0] // ppu
    out = np.zeros_like(hand)
    lo, inside = line_px, ppu - 2 * line_px
    along = np.arange(inside, dtype=np.float64)
    for row in range(size):
        for col in range(size):
            for dr, dc in ((0, -1), (0, 1), (-1, 0), (1, 0)):
                nr, nc = row + dr, col + dc
                if not (0 <= nr < size and 0 <= nc < size):
                    continue
                strip = _neighbour_strip(hand, nr * ppu + lo, nc * ppu + lo, inside, (dr, dc))
                if not strip[:1].any():  # no chord at the line (`touches`, NEAR = 1)
                    continue
                allowed = _carried_on(strip, along + 2 * line_px + 1, along)
                out[row * ppu + lo : row * ppu + lo + inside, col * ppu + lo : col * ppu + lo + inside] |= (
                    _to_square(allowed, (dr, dc))
                )
    return out


def test_reach_across_lines_with_repeated_strips_is_unchanged():
    from vision.board_hands import reach_across_lines

    rng = np.random.default_rng(21)
    ppu, line_px = 24, 2
    for _ in range(20):
        hand = np.zeros((9 * ppu, 9 * ppu), bool)
        for _ in range(3):  # a few rectangles: whole sides (the same strip) and ragged ones
            y, x = rng.integers(0, 9 * ppu, 2)
            hand[y : y + rng.integers(10, 90), x : x + rng.integers(10, 90)] = True
        hand &= rng.random(hand.shape) < 0.97
        assert np.array_equal(
            reach_across_lines(hand, ppu, line_px), _reach_across_lines_plain(hand, ppu, line_px)
        )


def _hand_masks(seed: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """A ragged hand (discs), the board seen round it with holes, the rest hidden."""
    import cv2

    rng = np.random.default_rng(seed)
    foreign = np.zeros((216, 216), np.uint8)
    for _ in range(rng.integers(1, 5)):
        cv2.circle(foreign, tuple(int(v) for v in rng.integers(0, 216, 2)), int(rng.integers(8, 50)), 1, -1)
    foreign = foreign > 0
    foreign &= rng.random(foreign.shape) < 0.98
    hidden = ~foreign & (cv2.dilate(foreign.astype(np.uint8), np.ones((9, 9), np.uint8)) > 0)
    hidden &= rng.random(foreign.shape) < 0.7
    seen = ~foreign & ~hidden
    return foreign, seen, hidden, hidden | foreign


def test_outline_pieces_found_once_serve_both_rules():
    from vision.board_hand_curves import MIN_PIECE as CURVE_PIECE
    from vision.board_hand_curves import beyond_curves
    from vision.board_hand_edges import MIN_PIECE as EDGE_PIECE
    from vision.board_hand_edges import at_least, beyond_outlines, outline_pieces

    for seed in range(40):
        foreign, seen, hidden, unseen = _hand_masks(seed)
        found = outline_pieces(foreign, seen, unseen, min(EDGE_PIECE, CURVE_PIECE))
        for least in (EDGE_PIECE, CURVE_PIECE):
            want = outline_pieces(foreign, seen, unseen, least)
            got = at_least(found, least)
            assert len(got) == len(want)
            for (p, o), (pw, ow) in zip(got, want, strict=True):
                assert np.array_equal(p, pw) and np.array_equal(o, ow)
        assert np.array_equal(
            beyond_outlines(foreign, seen, hidden, unseen, 24, found),
            beyond_outlines(foreign, seen, hidden, unseen, 24),
        )
        assert np.array_equal(
            beyond_curves(foreign, seen, hidden, unseen, 24, found),
            beyond_curves(foreign, seen, hidden, unseen, 24),
        )


def test_hands_core_on_a_blob_is_the_blob_eroded_alone():
    import cv2

    from vision.board_surface import PALETTE_ERODE, REACH, Hands

    erode = np.ones((2 * PALETTE_ERODE + 1,) * 2, np.uint8)
    reach = round(REACH * 24) + 2
    for seed in range(30):
        foreign, *_ = _hand_masks(seed)
        dimmed = np.random.default_rng(seed).random(foreign.shape) < 0.1
        hands = Hands.of(foreign, dimmed, 24)
        h, w = foreign.shape
        for k in hands.big:
            x, y, bw, bh = (int(v) for v in hands.stats[k, :4])
            box = (
                slice(max(0, y - reach), min(h, y + bh + reach)),
                slice(max(0, x - reach), min(w, x + bw + reach)),
            )
            blob = hands.labels[box] == k
            alone = (cv2.erode(blob.astype(np.uint8), erode) > 0) & ~dimmed[box]
            assert np.array_equal(hands.core[box] & blob, alone)


def test_the_views_mean_made_once_serves_both_hue_rules():
    from vision.board_gaps import mean3, spanned_gaps
    from vision.board_near_colour import near_hand_colour

    rng = np.random.default_rng(7)
    for seed in range(10):
        foreign, _, hidden, _ = _hand_masks(seed)
        levels = (rng.random((216, 216, 3)) * 200 + 30).astype(np.float32)
        levels[foreign] *= np.array([0.7, 0.9, 1.3], np.float32)  # a hand of its own hue
        smooth = mean3(levels)
        core = foreign & (rng.random(foreign.shape) < 0.8)
        assert np.array_equal(
            near_hand_colour(levels, core, hidden, 24, smooth), near_hand_colour(levels, core, hidden, 24)
        )
        lit = rng.random(foreign.shape) < 0.05
        shade = rng.random(foreign.shape) < 0.1
        parts = np.zeros_like(foreign)
        assert np.array_equal(
            spanned_gaps(hidden, foreign, levels, lit, shade, parts, smooth),
            spanned_gaps(hidden, foreign, levels, lit, shade, parts),
        )
