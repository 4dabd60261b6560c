"""Round 24's exact speed-ups of the hand rules (board24c) give the pixels of the plain forms
they replace, bit for bit. The plain forms are kept here: on drawn hands (hypothesis) and on
the hand rules' own arguments in real frames."""

from __future__ import annotations

import copy
import math

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.drawn_hands import PPU, N, drawn_hand, verdicts
from tests.plain_near_colour import near_hand_colour_plain
from tests.same_bits import same_bits as _same_bits
from vision import board_hand_curves as curves
from vision import board_hand_edges as edges
from vision import board_hand_step as step
from vision import board_hands as hands_mod
from vision import board_near_colour as near
from vision.board_fast import as_channels, share, small_unique
from vision.board_geometry import DEFAULT_GEOMETRY
from vision.board_surface import _LEVELS_LUT, View

# --- step_bounded: the window means divided over the whole box (before round 24) ---------


def _mean_within_plain(lg: np.ndarray, inside: np.ndarray, radius: int) -> tuple[np.ndarray, np.ndarray]:
    k = (2 * radius + 1,) * 2
    n = cv2.boxFilter(inside.astype(np.float32), -1, k, normalize=False)
    mean = cv2.boxFilter(lg * as_channels(inside), -1, k, normalize=False) / as_channels(np.maximum(n, 1))
    return n, mean


def _step_bounded_plain(levels, foreign, hidden, other, line):
    out = np.zeros(hidden.shape, bool)
    hidden = hidden & ~line
    if not hidden.any() or not foreign.any():
        return out
    ys, xs = np.nonzero(hidden)
    m = step.CONTACT + step.HAND_FAR + step.HAND_ERODE + 2
    h, w = hidden.shape
    box = (
        slice(max(0, ys.min() - m), min(h, ys.max() + m + 1)),
        slice(max(0, xs.min() - m), min(w, xs.max() + m + 1)),
    )
    levels, foreign, hidden, other, line = (a[box] for a in (levels, foreign, hidden, other, line))
    if not foreign.any():
        return out
    dist, nearest = cv2.distanceTransformWithLabels(
        (~foreign).astype(np.uint8), cv2.DIST_L2, 3, labelType=cv2.DIST_LABEL_PIXEL
    )
    near_hidden = cv2.dilate(
        hidden.astype(np.uint8), cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (step.JOIN,) * 2)
    )
    joined = hidden | (line & (near_hidden > 0) & (dist > step.NEAR))
    count, labels = cv2.connectedComponents(joined.astype(np.uint8), connectivity=8)
    if count <= 1:
        return out
    fy, fx = np.nonzero(foreign)
    lg = np.log(levels.astype(np.float32) + step.LEVEL_FLOOR)
    inside = cv2.erode(foreign.astype(np.uint8), np.ones((2 * step.HAND_ERODE + 1,) * 2, np.uint8))
    n_in, hand = _mean_within_plain(lg, inside, step.HAND_RADIUS)
    n_far, hand_far = _mean_within_plain(lg, inside, step.HAND_FAR)
    thin = n_in < step.MIN_INSIDE
    hand = np.where(as_channels(thin), hand_far, hand)
    n_in = np.where(thin, n_far, n_in)
    h32 = hidden.astype(np.float32)
    n_h = cv2.boxFilter(h32, -1, (3, 3), normalize=False)
    board = cv2.boxFilter(lg * as_channels(h32), -1, (3, 3), normalize=False)
    board = board / as_channels(np.maximum(n_h, 1))
    touching = np.zeros(count, bool)
    smooth = np.zeros(count, bool)
    compared = np.zeros(count, bool)
    at = hidden & (dist <= step.CONTACT)
    touching[labels[at]] = True
    cmp = at & (dist >= step.NEAR)
    ys, xs = np.nonzero(cmp)
    if len(ys):
        idx = nearest[ys, xs] - 1
        hy, hx = fy[idx], fx[idx]
        known = n_in[hy, hx] >= step.MIN_INSIDE
        d = np.abs(board[ys, xs] - hand[hy, hx]).max(axis=1)
        small = ~known | (d < step.STEP)
        smooth[labels[ys[small], xs[small]]] = True
        compared[labels[ys, xs]] = True
    spoilt = np.zeros(count, bool)
    spoilt[labels[other & joined]] = True
    free = touching & compared & ~smooth & ~spoilt
    free[0] = False
    out[box] = free[labels] & hidden
    return out


# --- beyond_curves: pair by pair (before round 24) ----------------------------------------


def _beyond_curves_plain(foreign, seen, hidden, unseen, ppu, found=None):
    out = np.zeros(hidden.shape, bool)
    pieces = curves._pieces(foreign, seen, unseen, found)
    if len(pieces) < 2:
        return out
    lo = np.array([p[0].min(axis=0) for p in pieces])
    hi = np.array([p[0].max(axis=0) for p in pieces])
    reach = curves.MAX_GAP * ppu
    for i in range(len(pieces)):
        near = np.all((lo[i + 1 :] <= hi[i] + reach) & (hi[i + 1 :] >= lo[i] - reach), axis=1)
        for j in np.flatnonzero(near) + i + 1:
            _bridge_plain(out, pieces[i], pieces[j], foreign, seen, hidden, ppu)
    return out


def _bridge_plain(out, a, b, foreign, seen, hidden, ppu):
    c = curves
    pa, pb = a[0], b[0]
    dx, dy = pa[:, 0, None] - pb[None, :, 0], pa[:, 1, None] - pb[None, :, 1]
    d2 = dx * dx + dy * dy
    ia, ib = np.unravel_index(int(np.argmin(d2)), d2.shape)
    gap = float(np.sqrt(d2[ia, ib]))
    if gap < c.MIN_GAP or gap > c.MAX_GAP * ppu:
        return
    end = c.END * ppu
    ka = ((pa - pa[ia]) ** 2).sum(axis=1) <= end * end
    kb = ((pb - pb[ib]) ** 2).sum(axis=1) <= end * end
    if ka.sum() < c.MIN_PIECE or kb.sum() < c.MIN_PIECE:
        return
    ea, eb = pa[ka], pb[kb]
    oa, ob = a[1][ka].sum(axis=0), b[1][kb].sum(axis=0)
    ca, cb = ea.mean(axis=0), eb.mean(axis=0)
    u = cb - ca
    length = float(np.hypot(*u))
    if length < 1e-6:
        return
    u /= length
    v = np.array([-u[1], u[0]])
    if (oa + ob) @ v < 0:
        v = -v
    for o in (oa, ob):
        if o @ v < c.FACING * max(float(np.hypot(*o)), 1e-6):
            return
    xa, ya = (ea - ca) @ u, (ea - ca) @ v
    xb, yb = (eb - ca) @ u, (eb - ca) @ v
    g0, g1 = float(xa.max()), float(xb.min())
    if g1 - g0 < c.MIN_GAP:
        return
    x = np.concatenate([xa, xb])
    y = np.concatenate([ya, yb])
    coef = c._parabola(x, y)
    res = y - ((coef[0] * x + coef[1]) * x + coef[2])
    if np.sqrt(np.mean(res * res)) > c.RMS or np.abs(res).max() > c.WORST:
        return
    for xs_, ys_ in ((xa, ya), (xb, yb)):
        if np.ptp(xs_) < c.MIN_END:
            return
        dx = xs_ - xs_.mean()
        own = float(dx @ (ys_ - ys_.mean())) / float(dx @ dx)
        if abs(np.arctan(own) - np.arctan(2 * coef[0] * xs_.mean() + coef[1])) > c.TANGENT:
            return
    sag = abs(coef[0]) * ((g1 - g0) / 2) ** 2
    if sag > c.SAG * (g1 - g0):
        return
    depth = c.DEPTH * ppu
    span = np.array([ca + t * u + s * v for t in (g0, g1) for s in (-c.INNER[1] - 2 * sag, depth + 2 * sag)])
    found = edges.view_box(span, hidden.shape, ca)
    if found is None:
        return
    box, gx, gy = found
    t = gx * u[0] + gy * u[1]
    s = (gx * v[0] + gy * v[1] - ((coef[0] * t + coef[1]) * t + coef[2])) / np.sqrt(
        1 + (2 * coef[0] * t + coef[1]) ** 2
    )
    across = (t > g0) & (t < g1)
    beyond = across & (s > c.MARGIN) & (s <= depth)
    if (foreign[box] & across & (s > c.BULGE) & (s <= depth)).any():
        return
    inner = seen[box][across & (s <= -c.INNER[0]) & (s >= -c.INNER[1])]
    if inner.size and share(inner) > 1 - c.INNER_SHARE:
        return
    out[box] |= beyond & hidden[box]


# --- beyond_outlines: an eigh a stretch and a pair (before round 24) ----------------------


def _outline_stretches_plain(foreign, seen, unseen, pieces=None):
    e = edges
    if pieces is None:
        pieces = e.outline_pieces(foreign, seen, unseen, e.MIN_PIECE)
    stretches = []
    for pts, outward_px in e.at_least(pieces, e.MIN_PIECE):
        centre = pts.mean(axis=0)
        d = pts - centre
        _, v = np.linalg.eigh(d.T @ d)
        direction = v[:, 1]
        normal = np.array([-direction[1], direction[0]])
        off = d @ normal
        if np.sqrt(np.mean(off * off)) > e.STRAIGHT or np.abs(off).max() > e.BENT:
            continue
        along = d @ direction
        if along.max() - along.min() < e.MIN_PIECE - 1:
            continue
        outward = outward_px.sum(axis=0)
        if abs(outward @ normal) < 0.5 * np.linalg.norm(outward):
            continue
        if outward @ normal < 0:
            normal = -normal
        stretches.append((centre, direction, normal, float(along.min()), float(along.max()), pts))
    return stretches


def _beyond_outlines_plain(foreign, seen, hidden, unseen, ppu, pieces=None):
    out = np.zeros(hidden.shape, bool)
    stretches = _outline_stretches_plain(foreign, seen, unseen, pieces)
    if len(stretches) < 2:
        return out
    for i, j in edges._gaps(stretches, ppu):
        _fill_plain(out, stretches[i], stretches[j], foreign, seen, hidden, ppu)
    return out


def _fill_plain(out, a, b, foreign, seen, hidden, ppu):
    e = edges
    pts = np.concatenate([a[5], b[5]])
    centre = pts.mean(axis=0)
    d = pts - centre
    _, v = np.linalg.eigh(d.T @ d)
    direction = v[:, 1]
    normal = np.array([-direction[1], direction[0]])
    if normal @ a[2] < 0:
        normal = -normal
    off = d @ normal
    if np.sqrt(np.mean(off * off)) > e.JOINT:
        return
    along = d @ direction
    t0, t1 = float(along.min()), float(along.max())
    depth = e.DEPTH * ppu
    corners = np.array([centre + t * direction + s * normal for t in (t0, t1) for s in (-e.INNER[1], depth)])
    found = e.view_box(corners, hidden.shape, centre)
    if found is None:
        return
    box, gx, gy = found
    t = gx * direction[0] + gy * direction[1]
    s = gx * normal[0] + gy * normal[1]
    span = (t >= t0) & (t <= t1)
    beyond = span & (s > e.MARGIN) & (s <= depth)
    if (foreign[box] & beyond & (s > e.BULGE)).any():
        return
    inner = seen[box][span & (s <= -e.INNER[0]) & (s >= -e.INNER[1])]
    if inner.size and share(inner) > 1 - e.INNER_SHARE:
        return
    out[box] |= beyond & hidden[box]


# --- near_hand_colour: np.unique's sorts (before round 24), in tests/plain_near_colour.py ---


@settings(max_examples=300, deadline=None)
@given(
    n=st.integers(1, 5000),
    size=st.integers(1, 5000),
    dtype=st.sampled_from([np.int32, np.int64]),
    seed=st.integers(0, 2**32 - 1),
)
def test_unique_by_a_table_is_numpys(n, size, dtype, seed):
    values = np.random.default_rng(seed).integers(0, size, n).astype(dtype)
    got = small_unique(values, size)
    for a, b in zip(got, np.unique(values, return_inverse=True, return_counts=True), strict=True):
        assert _same_bits(a, b)


# --- reach_across_lines: a chord's runs by list and generators (before round 24) -----------


def _carried_on_plain(strip, distance, along):
    inside = len(along)
    allowed = np.zeros((len(distance), inside), bool)
    rows = hands_mod._row_runs(strip)
    for first, last in hands_mod._runs(np.asarray(strip[: hands_mod.NEAR].any(axis=0))):
        lefts, rights, at = [float(first)], [float(last)], [0.0]
        left, right = first, last
        for d in range(hands_mod.NEAR, len(strip)):
            over = [(a, b) for a, b in rows[d] if b >= left - 1 and a <= right + 1]
            if not over:
                break
            left, right = min(a for a, _ in over), max(b for _, b in over)
            lefts.append(float(left))
            rights.append(float(right))
            at.append(float(d))
        lo = _end_bound_plain(at, lefts, first == 0, -1, distance)
        hi = _end_bound_plain(at, rights, last == inside - 1, 1, distance)
        allowed |= (along[None, :] >= lo[:, None]) & (along[None, :] <= hi[:, None])
    return allowed


def _end_bound_plain(at, ends, open_end, sign, distance):
    h = hands_mod
    if open_end:
        return np.full(len(distance), sign * np.inf)
    e0 = ends[0]
    if at[-1] < h.MIN_TRACE:
        return e0 + sign * (h.MARGIN + h.SHORT_SPREAD * distance)
    slope = h._slope(tuple(at), tuple(ends))
    widening = float(np.clip(-sign * slope, -h.MAX_NARROW, h.MAX_SLOPE))
    return e0 + sign * (h.MARGIN + (widening + math.tan(h.ANGLE)) * distance)


@settings(max_examples=500, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    fill=st.floats(0.05, 0.95),
    blobs=st.booleans(),
    width=st.sampled_from([8, 16, 20]),
)
def test_chords_carried_on_are_the_plain_ones(seed, fill, blobs, width):
    """Random strips (noise, or a hand's blurred blobs: runs that split, join and slant)."""
    rng = np.random.default_rng(seed)
    if blobs:
        strip = cv2.GaussianBlur(rng.random((hands_mod.TRACE, width)), (0, 0), 1.5) > 0.5 - (fill - 0.5) * 0.2
    else:
        strip = rng.random((hands_mod.TRACE, width)) < fill
    along = np.arange(width, dtype=np.float64)
    got = hands_mod._carried_on(strip, along + 5, along)
    assert np.array_equal(got, _carried_on_plain(strip, along + 5, along))


# --- drawn hands ---------------------------------------------------------------------------


def _noisy(mask: np.ndarray, rng: np.random.Generator, p: float) -> np.ndarray:
    return mask ^ (rng.random(mask.shape) < p)


@settings(max_examples=150, deadline=None)
@given(parts=st.integers(1, 6), noise=st.sampled_from([0.0, 0.002, 0.02]), seed=st.integers(0, 2**32 - 1))
def test_the_outline_rules_on_drawn_hands_are_the_plain_ones(parts, noise, seed):
    """Hands of discs and fingers over the checkerboard (one colour hidden, the other foreign),
    a few verdicts flipped: both outline rules free the plain forms' pixels, with and
    without the pieces found for them."""
    rng = np.random.default_rng(seed)
    foreign, seen, hidden, unseen = verdicts(drawn_hand(rng, parts))
    if noise:
        flip = _noisy(np.zeros_like(foreign), rng, noise)
        foreign, hidden = foreign ^ (flip & ~hidden), hidden ^ (flip & ~foreign)
        seen, unseen = seen & ~foreign & ~hidden, unseen | foreign | hidden
    found = edges.outline_pieces(foreign, seen, unseen, 5)
    for pieces in (None, found):
        assert np.array_equal(
            edges.beyond_outlines(foreign, seen, hidden, unseen, PPU, pieces),
            _beyond_outlines_plain(foreign, seen, hidden, unseen, PPU, pieces),
        )
        want = _beyond_curves_plain(foreign, seen, hidden, unseen, PPU, pieces)
        assert np.array_equal(curves.beyond_curves(foreign, seen, hidden, unseen, PPU, pieces), want)


@settings(max_examples=60, deadline=None)
@given(parts=st.integers(1, 6), rows=st.sampled_from([1, 7, 64]), seed=st.integers(0, 2**32 - 1))
def test_the_curved_rule_in_blocks_of_rows_is_the_plain_one(parts, rows, seed):
    """The distance table made a few rows at a time (as a long outline has it) frees the same
    pixels as the plain form's whole table."""
    rng = np.random.default_rng(seed)
    foreign, seen, hidden, unseen = verdicts(drawn_hand(rng, parts))
    pieces = edges.outline_pieces(foreign, seen, unseen, 5)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(curves, "DISTANCE_ROWS", rows)
        got = curves.beyond_curves(foreign, seen, hidden, unseen, PPU, pieces)
    assert np.array_equal(got, _beyond_curves_plain(foreign, seen, hidden, unseen, PPU, pieces))


@settings(max_examples=150, deadline=None)
@given(
    parts=st.integers(1, 6),
    seed=st.integers(0, 2**32 - 1),
    other=st.floats(0, 0.3),
)
def test_step_bounded_on_drawn_hands_is_the_plain_one(parts, seed, other):
    """A drawn hand and random colours (the levels a uint8 view gives, `_LEVELS_LUT`): a hand
    of one colour with its shading, the board of two, some patches of the hand's colour."""
    rng = np.random.default_rng(seed)
    foreign, _, hidden, _ = verdicts(drawn_hand(rng, parts))
    line = View.of(DEFAULT_GEOMETRY, PPU).line
    colours = rng.integers(0, 256, (4, 3))
    base = np.where(foreign[..., None], colours[0], np.where(hidden[..., None], colours[1], colours[2]))
    shade = rng.integers(-30, 31, (N // 8 + 1, N // 8 + 1, 1)).repeat(8, 0).repeat(8, 1)[:N, :N]
    top = np.clip(base + shade + rng.integers(-4, 5, (N, N, 3)), 0, 255).astype(np.uint8)
    levels = _LEVELS_LUT[top]
    spoilt = hidden & (rng.random((N, N)) < other * 0.01)
    want = _step_bounded_plain(levels, foreign, hidden, spoilt, line)
    assert np.array_equal(step.step_bounded(levels, foreign, hidden, spoilt, line), want)


@settings(max_examples=100, deadline=None)
@given(parts=st.integers(1, 6), seed=st.integers(0, 2**32 - 1), spread=st.integers(0, 60))
def test_near_hand_colour_on_drawn_hands_is_the_plain_one(parts, seed, spread):
    """A drawn hand of a few colours and shades beside board of two, candidates around it."""
    rng = np.random.default_rng(seed)
    hand = drawn_hand(rng, parts)
    core = cv2.erode(hand.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
    around = (cv2.dilate(hand.astype(np.uint8), np.ones((41, 41), np.uint8)) > 0) & ~hand
    colours = rng.integers(30, 256, (4, 3))
    top = np.where(
        hand[..., None], colours[rng.integers(0, 2, (N, N))], colours[2 + rng.integers(0, 2, (N, N))]
    )
    top = np.clip(top + rng.integers(-spread, spread + 1, (N, N, 1)), 0, 255).astype(np.uint8)
    levels = _LEVELS_LUT[top]
    candidates = around & (rng.random((N, N)) < 0.7)
    want = near_hand_colour_plain(levels, core, candidates, PPU)
    assert np.array_equal(near.near_hand_colour(levels, core, candidates, PPU), want)


@settings(max_examples=200, deadline=None)
@given(n=st.integers(1, 40), sizes=st.integers(3, 60), seed=st.integers(0, 2**32 - 1))
def test_a_stacked_eigh_is_one_at_a_time(n, sizes, seed):
    """`board_hand_edges._axes`: the eigenvectors of each scatter as `np.linalg.eigh` of it alone."""
    rng = np.random.default_rng(seed)
    offsets = []
    for _ in range(n):
        pts = rng.integers(0, N, (int(rng.integers(2, sizes + 1)), 2)).astype(np.float64)
        if rng.random() < 0.3:  # a straight stretch: a scatter of rank one
            pts[:, 1] = pts[0, 1]
        offsets.append(pts - pts.mean(axis=0))
    axes = edges._axes(offsets)
    for d, v in zip(offsets, axes, strict=True):
        assert _same_bits(v, np.linalg.eigh(d.T @ d)[1])


@settings(max_examples=100, deadline=None)
@given(n=st.integers(1, 3000), seed=st.integers(0, 2**32 - 1))
def test_rows_taken_are_rows_indexed(n, seed):
    """`_in_palettes`' colours at the pixels asked about: `np.take` of rows is the index's copy."""
    rng = np.random.default_rng(seed)
    levels = _LEVELS_LUT[rng.integers(0, 256, (60, 50, 3))]
    at = np.flatnonzero(rng.random(60 * 50) < n / 3000)
    flat = levels.reshape(60 * 50, -1)
    assert _same_bits(np.take(flat, at, axis=0), flat[at])


@settings(max_examples=300, deadline=None)
@given(
    hands=st.integers(1, 16),
    n=st.integers(0, 4000),
    spread=st.integers(1, 32768),
    seed=st.integers(0, 2**32 - 1),
)
def test_hand_bins_by_tables_are_the_unique_codes(hands, n, spread, seed):
    """`_in_palettes`' codes (a hand's index × 32,768 + its colour bin) and their counts."""
    from vision.board_surface import _hand_bins

    rng = np.random.default_rng(seed)
    hand = rng.integers(0, hands, n).astype(np.intp)
    bins = rng.integers(0, min(spread, 32768), n).astype(np.int32)
    got = _hand_bins(hand, bins, 32768)
    want = np.unique(hand * 32768 + bins, return_counts=True)
    for a, b in zip(got, want, strict=True):
        assert np.array_equal(a, b) and a.dtype == b.dtype


# --- real frames ---------------------------------------------------------------------------


@pytest.fixture(scope="module")
def hand_rule_calls():
    """The arguments `analyse` gives the rewritten hand rules in three tune scenes with hands
    (camera-still reads: the reader's own path)."""
    import vision.board_surface as board_surface
    from tests.scene_cache import scene
    from vision.board_reader import BoardTracker

    names = (
        "step_bounded",
        "beyond_outlines",
        "beyond_curves",
        "_in_palettes",
        "near_hand_colour",
        "reach_across_lines",
    )
    calls: dict[str, list] = {name: [] for name in names}
    originals = {name: getattr(board_surface, name) for name in names}

    def recorder(name):
        def call(*a, **k):
            calls[name].append(copy.deepcopy((a, k)))  # `analyse` changes some in place after
            return originals[name](*a, **k)

        return call

    try:
        for name in names:
            setattr(board_surface, name, recorder(name))
        for index in (4, 25, 1411):
            image = scene("tune", index).image
            tracker = BoardTracker(reuse=False)
            tracker.read(image)  # finds the board; the second read is a camera-still one
            for name in names:
                del calls[name][-1:]
            tracker.read(image)
    finally:
        for name, f in originals.items():
            setattr(board_surface, name, f)
    return calls


def test_real_frames_give_the_plain_forms_pixels(hand_rule_calls):
    plain = {
        "step_bounded": (_step_bounded_plain, step.step_bounded),
        "beyond_outlines": (_beyond_outlines_plain, edges.beyond_outlines),
        "beyond_curves": (_beyond_curves_plain, curves.beyond_curves),
        "near_hand_colour": (near_hand_colour_plain, near.near_hand_colour),
    }
    for name, (f, fast) in plain.items():
        assert len(hand_rule_calls[name]) == 3, name
        told = 0
        for a, k in hand_rule_calls[name]:
            want = f(*a, **k)
            told += int(want.sum()) if name != "near_hand_colour" else int((a[2] & ~want).sum())
            assert np.array_equal(fast(*a, **k), want), name
        assert told > 0, name  # each rule tells some pixels in these frames


def test_real_frames_palettes_are_the_plain_ones(hand_rule_calls):
    from tests.test_board_speed_22 import _in_palettes_plain
    from vision.board_surface import _in_palettes

    for a, k in hand_rule_calls["_in_palettes"]:
        assert np.array_equal(_in_palettes(*a, **k), _in_palettes_plain(*a, **k))


def test_real_frames_reach_as_with_the_plain_chords(hand_rule_calls):
    from unittest import mock

    calls = hand_rule_calls["reach_across_lines"]
    assert len(calls) == 3
    new = [hands_mod.reach_across_lines(*a, **k) for a, k in calls]
    with mock.patch.object(hands_mod, "_carried_on", _carried_on_plain):
        plain = [hands_mod.reach_across_lines(*a, **k) for a, k in calls]
    for x, y in zip(new, plain, strict=True):
        assert np.array_equal(x, y) and x.any()
