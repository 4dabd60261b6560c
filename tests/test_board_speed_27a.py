"""Round 27's exact speed-ups of the part of the surface analysis every frame runs, hand or not
(board27a), give the numbers of the forms they replace, bit for bit. The old forms (main's at
the round's start) are kept here and checked against the new ones on drawn inputs
(hypothesis) and on the calls the reader makes while reading real tune frames."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from tests.drawn_hands import PPU, N, drawn_hand
from tests.recorded_calls import analyse_calls, calls_within_analyse
from tests.same_bits import same_values
from tests.test_board_speed_24s import drawn_shadow_args
from vision import board_surface as bs
from vision.board_fast import rank_parts, sorted_medians, split_medians, split_quantiles


@pytest.fixture(scope="module")
def real_surfaces():
    """`analyse`'s arguments on four tune scenes as `judge_squares` made them: three without a
    hand (2; 37, whose misfit pixels are the most of tune 0–99's frames without a hand; 45,
    with many clipped pixels) and one with a hand (10)."""
    return analyse_calls((2, 37, 45, 10))


def _specks(rng: np.random.Generator, count: int) -> np.ndarray:
    out = np.zeros((N, N), bool)
    out.ravel()[rng.choice(N * N, count, replace=False)] = True
    return out


# --- Hands.of: no labelling where no region can be hand-sized --------------------------------


def _hands_old(foreign, dimmed, ppu):
    """`Hands.of` at the round's start: (labels, stats, big, mask, core)."""
    _, labels, stats, _ = cv2.connectedComponentsWithStats(foreign.astype(np.uint8), connectivity=8)
    is_big = stats[:, cv2.CC_STAT_AREA] >= bs.BLOB_AREA * ppu * ppu
    is_big[0] = False
    mask = is_big[labels]
    erode = np.ones((2 * bs.PALETTE_ERODE + 1,) * 2, np.uint8)
    core = (cv2.erode(mask.astype(np.uint8), erode) > 0) & ~dimmed
    return labels, stats, np.flatnonzero(is_big), mask, core


@settings(max_examples=150, deadline=None)
@given(
    parts=st.integers(0, 3),
    specks=st.sampled_from([0, 1, 20, 57, 58, 200]),
    clump=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
def test_hands_are_the_old_ones(parts, specks, clump, seed):
    """Hands of discs and fingers, or only a few misfit pixels (up to and just past a hand's
    least area, 57.6 px at 24 px a square; in one clump or scattered): the same regions,
    labels and stats (made when asked for), mask and core."""
    rng = np.random.default_rng(seed)
    foreign = drawn_hand(rng, parts) if parts else np.zeros((N, N), bool)
    if clump:
        y, x = (int(c) for c in rng.integers(0, N - 15, 2))
        patch = np.zeros((N, N), bool)
        patch[y : y + 15, x : x + 15] = True
        foreign |= patch & (np.cumsum(patch.ravel()).reshape(N, N) <= specks)
    else:
        foreign |= _specks(rng, specks)
    dimmed = rng.random((N, N)) < 0.3
    new = bs.Hands.of(foreign, dimmed, PPU)
    old = _hands_old(foreign, dimmed, PPU)
    assert same_values((new.labels, new.stats, new.big, new.mask, new.core), old)


# --- _grow_from_blobs: nothing grows from too few seeds --------------------------------------


def _grow_from_blobs_old(seeds, allowed, ppu):
    count, labels = cv2.connectedComponents(allowed.astype(np.uint8), connectivity=8)
    if count <= 1:
        return seeds
    big_seed = np.bincount(labels[seeds], minlength=count) >= bs.BLOB_AREA * ppu * ppu
    big_seed[0] = False
    return seeds | big_seed[labels]


@settings(max_examples=150, deadline=None)
@given(
    seeds=st.sampled_from([0, 1, 30, 57, 58, 300]),
    parts=st.integers(0, 3),
    seed=st.integers(0, 2**32 - 1),
)
def test_growing_from_blobs_is_the_old_one(seeds, parts, seed):
    rng = np.random.default_rng(seed)
    strong = _specks(rng, seeds)
    if parts:
        strong |= drawn_hand(rng, parts) & (rng.random((N, N)) < 0.5)
    allowed = strong | (rng.random((N, N)) < 0.4)
    assert same_values(bs._grow_from_blobs(strong, allowed, PPU), _grow_from_blobs_old(strong, allowed, PPU))


# --- _at_clipped: the clipped channels by flat index -----------------------------------------


@settings(max_examples=300, deadline=None)
@given(
    shape=st.sampled_from([(1, 1, 3), (7, 5, 3), (40, 31, 3), (9, 11)]),
    share=st.sampled_from([0.0, 0.001, 0.05, 0.5, 1.0]),
    seed=st.integers(0, 2**32 - 1),
)
def test_clipped_by_index_is_by_mask(shape, share, seed):
    rng = np.random.default_rng(seed)
    model = (rng.random(shape) * 300).astype(np.float32)
    levels = (rng.random(shape) * 300).astype(np.float32)
    saturated = rng.random(shape) < share
    want = bs._at_saturated(levels - model, saturated, bs.SATURATED, model)
    got = bs._at_clipped(levels - model, np.flatnonzero(saturated), bs.SATURATED, model)
    assert same_values(got, want)


# --- the light fit's passes: the board's levels in one buffer, the determinant's floor -------


@settings(max_examples=300, deadline=None)
@given(
    values=arrays(
        st.sampled_from([np.float32, np.float64]),
        st.tuples(st.integers(1, 9), st.integers(1, 9), st.sampled_from([1, 3])),
        elements=st.floats(-2.0, 3.0, width=32) | st.sampled_from([np.nan, np.inf, -np.inf, -0.0, 1e-40]),
    ),
)
def test_levels_of_a_fresh_array_are_the_copys(values):
    want = bs.to_levels(values)
    assert same_values(bs.to_levels(values.copy(), fresh=True), want)
    as_int = (np.nan_to_num(values) > 0.5).astype(np.uint8)
    assert same_values(bs.to_levels(as_int, fresh=True), bs.to_levels(as_int))


@settings(max_examples=300, deadline=None)
@given(
    shape=st.tuples(st.integers(1, 40), st.integers(1, 40)),
    types=st.sampled_from([(np.float32,) * 3, (np.float64,) * 3, (np.float32, np.float64, np.float32)]),
    seed=st.integers(0, 2**32 - 1),
)
def test_board_levels_are_the_expressions(shape, types, seed):
    """`_board_levels` against the expression it replaces (`analyse`'s model, `_shadowed`'s):
    light factors about 1 and beyond, added light either side of zero (levels clipped at
    both ends), one float type or mixed (then computed as written)."""
    rng = np.random.default_rng(seed)
    a = rng.uniform(-0.5, 2.0, shape).astype(types[0])
    pred = rng.uniform(0.0, 1.0, (*shape, 3)).astype(types[1])
    added = rng.normal(0.0, 0.3, shape).astype(types[2])
    want = bs.to_levels(bs.as_channels(a) * pred + bs.as_channels(added))
    assert same_values(bs._board_levels(a, pred, added), want)


def _local_light_old(lin, pred, w, r, lam_a, lam_b, sums=None, sw=None):
    """`_local_light` at the round's start (the determinant's floor set by `np.putmask`)."""
    pp, pl, ps, ls = bs._light_sums(lin, pred) if sums is None else sums
    if sw is None:
        sw = bs._box(w, r)
    a11 = bs._box(w * pp, r)
    a11 += lam_a
    a12 = bs._box(w * ps, r)
    a22 = 3 * sw
    a22 += lam_b
    r1 = bs._box(w * pl, r)
    r1 += lam_a
    r2 = bs._box(w * ls, r)
    det = a11 * a22
    det -= a12 * a12
    np.putmask(det, np.abs(det) < 1e-12, 1e-12)
    a = r1 * a22
    a -= a12 * r2
    a /= det
    b = a11 * r2
    b -= a12 * r1
    b /= det
    return a, b


@settings(max_examples=150, deadline=None)
@given(
    shape=st.tuples(st.integers(1, 60), st.integers(1, 60)),
    r=st.integers(1, 14),
    lam=st.sampled_from([0.0, 1e-9, 0.5, 30.0]),
    share=st.sampled_from([0.0, 0.1, 0.9, 1.0]),
    grey=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
def test_local_light_is_the_old_one(shape, r, lam, share, grey, seed):
    """Windows with no weight (a determinant of the ridge alone, or zero: its floor), grey
    predictions (a singular window: the floor again), and ordinary ones."""
    rng = np.random.default_rng(seed)
    pred = rng.uniform(0.01, 1.0, (*shape, 3)).astype(np.float32)
    if grey:
        pred[:] = pred[..., :1]
    lin = (pred * rng.uniform(0.5, 1.2, shape)[..., None] + rng.normal(0, 0.02, (*shape, 3))).astype(
        np.float32
    )
    w = (rng.random(shape) < share).astype(np.float32)
    assert same_values(
        bs._local_light(lin, pred, w, r, lam, lam), _local_light_old(lin, pred, w, r, lam, lam)
    )


def test_real_frames_light_fit_with_boolean_weights_as_with_floats(real_surfaces):
    """The light fit's weights are booleans now (0.0 and 1.0 floats before): its window sums,
    counts and local light on the real frames' own calls are those of the float weights."""
    calls = calls_within_analyse("_local_light", real_surfaces)
    assert len(calls) >= 8
    for lin, pred, w, r, lam_a, lam_b, sums, sw in calls:
        assert w.dtype == np.bool_
        wf = w.astype(np.float32)
        counts = bs._window_counts(w, *_classes(w.shape), r)
        assert same_values(counts, bs._window_counts(wf, *_classes(w.shape), r))
        assert same_values(sw, counts[..., 0])
        assert same_values(
            bs._local_light(lin, pred, w, r, lam_a, lam_b, sums, sw),
            _local_light_old(lin, pred, wf, r, lam_a, lam_b, sums, sw),
        )


def _classes(shape: tuple[int, ...]) -> tuple[np.ndarray, np.ndarray]:
    from vision.board_geometry import DEFAULT_GEOMETRY

    classes = bs.View.of(DEFAULT_GEOMETRY, shape[0] // 9).classes
    return (classes == 0).view(np.uint8), (classes == 1).view(np.uint8)


@settings(max_examples=100, deadline=None)
@given(n=st.integers(1, 300), seed=st.integers(0, 2**32 - 1))
def test_boolean_weights_are_the_float_ones(n, seed):
    """The next pass's weights: ``w0 & keep & ~doubt`` is ``w0 * keep * ~doubt`` of 0.0 / 1.0."""
    rng = np.random.default_rng(seed)
    w0, keep, doubt = rng.random((3, n)) < 0.7
    assert same_values((w0 & keep & ~doubt).astype(np.float32), w0.astype(np.float32) * keep * ~doubt)


# --- _noise: the levels gathered by index, their parts' medians off the sorted levels --------


def _noise_old(resid, level, sel):
    """`_noise` at the round's start (its brightness ranges' medians by `split_medians`)."""
    sub = (slice(None, None, 3), slice(None, None, 3))
    pick = sel[sub].ravel()
    v = np.compress(pick, level[sub].reshape(pick.size, -1), axis=0).ravel()
    e = np.abs(np.compress(pick, resid[sub].reshape(pick.size, -1), axis=0)).ravel()
    if len(v) < 100:
        return np.full(level.shape, 4.0, np.float32)
    order = rank_parts(v, bs.NOISE_BINS)
    quantiles = split_quantiles(e, order, bs.NOISE_BINS, bs.NOISE_QUANTILE)
    medians = split_medians(v, order, bs.NOISE_BINS)
    rows = [[1.0, m**2] for m in medians]
    ys = [(bs.NOISE_SCALE * q) ** 2 for q in quantiles]
    return bs._noise_curve(rows, ys, level)


@settings(max_examples=150, deadline=None)
@given(
    h=st.integers(20, 120),
    w=st.integers(20, 120),
    channels=st.sampled_from([3, 1, 0]),
    share=st.floats(0.05, 1.0),
    steps=st.sampled_from([None, 4, 30, 255]),
    seed=st.integers(0, 2**32 - 1),
)
def test_noise_is_the_old_one(h, w, channels, share, steps, seed):
    """Levels continuous or on a few steps (ties across the ranges' edges: the argsort's
    ranges), three channels, one, or none (a 2-D view); a selection of any share."""
    rng = np.random.default_rng(seed)
    shape = (h, w) if channels == 0 else (h, w, channels)
    level = (rng.random(shape) * 255).astype(np.float32)
    if steps is not None:
        level = (np.round(level * steps / 255) * (255 / steps)).astype(np.float32)
    resid = (rng.standard_normal(shape) * rng.uniform(0.5, 20)).astype(np.float32)
    sel = rng.random((h, w)) < share
    assert same_values(bs._noise(resid, level, sel), _noise_old(resid, level, sel))


@settings(max_examples=300, deadline=None)
@given(
    n=st.integers(12, 3000),
    parts=st.integers(2, 12),
    steps=st.sampled_from([None, 3, 20, 255]),
    nans=st.integers(0, 3),
    seed=st.integers(0, 2**32 - 1),
)
def test_sorted_medians_are_the_parts_medians(n, parts, steps, nans, seed):
    """Each part's median off the sorted values: `split_medians`' numbers for `rank_parts`'
    order, given the sorted values or not (which are also its edges)."""
    rng = np.random.default_rng(seed)
    v = (rng.random(n) * 255).astype(np.float32)
    if steps is not None:
        v = np.round(v * steps / 255).astype(np.float32)
    v[rng.choice(n, nans, replace=False)] = np.nan
    ranked = np.sort(v)
    order = rank_parts(v, parts)
    assert same_values(rank_parts(v, parts, ranked), order)
    assert same_values(sorted_medians(ranked, parts), split_medians(v, order, parts))


def test_real_frames_noise_as_the_old_form(real_surfaces):
    """`_noise` on the calls of the real frames' light fits (each pass's own arguments)."""
    seen = calls_within_analyse("_noise", real_surfaces)
    assert len(seen) >= 8
    for args in seen:
        assert same_values(bs._noise(*args), _noise_old(*args))


# --- _shadowed: the shadow verified only where it decides a pixel asked about ---------------


def _check_shadowed_as_old(args, weak):
    """`_shadowed` with ``weak``, against itself verifying every time (the form at the round's
    start): the same candidates, dimming and deep pixels, the same smoothness at the dimmed
    weak pixels (the only ones `analyse` reads it at), the verified shadow the same where
    made. Returns whether it was made."""
    new = bs._shadowed(*args, weak)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(bs, "_verify_decides", lambda *a: True)
        old = bs._shadowed(*args, weak)
    for i in (0, 2, 3):
        assert same_values(new[i], old[i])
    assert same_values(new[1] & new[0] & weak, old[1] & old[0] & weak)
    if new[4] is None:
        usable, line = args[9], args[11]
        ratio = bs._dimming(*args[:4])[1]
        assert same_values(bs._verify(usable & new[0], ratio, args[5], new[3], line), old[4])
        return False
    assert same_values(new[4], old[4])
    return True


@settings(max_examples=35, deadline=None)
@given(
    hands=st.integers(0, 3),
    shadows=st.integers(0, 4),
    lamp_on=st.booleans(),
    weak_share=st.sampled_from([0.0, 0.002, 0.02]),
    seed=st.integers(0, 2**32 - 1),
)
def test_shadowed_verifies_where_it_decides(hands, shadows, lamp_on, weak_share, seed):
    """Drawn top views (round 24's: shadows, some deep, hands of random colours, lamp light),
    the misfit ``weak`` around the hands and a speckle of any share."""
    args, weak = drawn_shadow_args(hands, shadows, lamp_on, seed)
    weak = weak & (np.random.default_rng(seed).random(weak.shape) < weak_share) if not hands else weak
    _check_shadowed_as_old(args, weak)


def _deviation_old(values, mask):
    m = mask.astype(np.float32)
    den = cv2.GaussianBlur(m, (0, 0), bs.SHADOW_SMOOTH)
    return np.abs(values - cv2.GaussianBlur(values * m, (0, 0), bs.SHADOW_SMOOTH) / np.maximum(den, 1e-6))


@settings(max_examples=200, deadline=None)
@given(
    shape=st.tuples(st.integers(1, 80), st.integers(1, 80)),
    share=st.sampled_from([0.0, 0.01, 0.5, 1.0]),
    dtype=st.sampled_from([np.float32, np.float64]),
    seed=st.integers(0, 2**32 - 1),
)
def test_deviation_is_the_old_one(shape, share, dtype, seed):
    """`_deviation` in the blur's memory: log dimmings either side of zero (signed zeros where
    the mask leaves a pixel out), masks empty (the floor of the weights) to full."""
    rng = np.random.default_rng(seed)
    values = rng.normal(-0.3, 0.5, shape).astype(dtype)
    mask = rng.random(shape) < share
    assert same_values(bs._deviation(values, mask), _deviation_old(values, mask))


def test_real_frames_shadowed_as_the_old_form(real_surfaces):
    """On the real frames' own calls: verified on the hand frame and on tune 37 (a shadow
    there is dimmed, weak and not smooth without it), not on the other two."""
    seen = calls_within_analyse("_shadowed", real_surfaces)
    made = [_check_shadowed_as_old(args[:-1], args[-1]) for args in seen]
    assert made == [False, True, False, True]


# --- the whole surface analysis ---------------------------------------------------------------


def test_real_frames_read_as_with_the_old_forms(real_surfaces, monkeypatch):
    """The whole surface analysis of real frames, with the old forms patched back in, is the
    same, pixel for pixel."""
    new = [bs.analyse(*a, **k) for a, k in real_surfaces]
    hands = bs.Hands

    class OldHands:
        @staticmethod
        def of(foreign, dimmed, ppu):
            labels, stats, big, mask, core = _hands_old(foreign, dimmed, ppu)
            return hands(big, mask, core, foreign, (labels, stats))

    monkeypatch.setattr(bs, "Hands", OldHands)
    monkeypatch.setattr(bs, "_grow_from_blobs", _grow_from_blobs_old)
    monkeypatch.setattr(bs, "_at_clipped", lambda v, at, c, m: bs._at_saturated(v, _mask_of(at, v), c, m))
    monkeypatch.setattr(bs, "_noise", _noise_old)
    monkeypatch.setattr(bs, "_verify_decides", lambda *a: True)
    monkeypatch.setattr(bs, "_local_light", _local_light_old)
    monkeypatch.setattr(bs, "_deviation", _deviation_old)
    monkeypatch.setattr(
        bs, "_board_levels", lambda a, p, b: bs.to_levels(bs.as_channels(a) * p + bs.as_channels(b))
    )
    old = [bs.analyse(*a, **k) for a, k in real_surfaces]
    assert len(new) == 4
    for x, y in zip(new, old, strict=True):
        assert same_values(x, y)


def test_without_a_hand_the_one_colour_patches_are_not_read(real_surfaces):
    """`analyse` makes the one-colour patches only where a region is hand-sized: elsewhere
    `_under_hands`, their only reader, returns before it looks at them (any patches give its
    answer, nothing hidden)."""
    seen = calls_within_analyse("_under_hands", real_surfaces)
    assert [len(args[10].big) > 0 for args in seen] == [False, False, False, True]
    rng = np.random.default_rng(5)
    for args in seen[:3]:
        assert args[6] is None
        for one_colour in (None, rng.random(args[0].shape) < 0.5, np.ones(args[0].shape, bool)):
            got = bs._under_hands(*args[:6], one_colour, *args[7:])
            assert not got.any()
    assert seen[3][6] is not None


def _mask_of(at: np.ndarray, like: np.ndarray) -> np.ndarray:
    mask = np.zeros(like.shape, bool)
    mask.ravel()[at] = True
    return mask


@settings(max_examples=50, deadline=None)
@given(values=arrays(np.float32, st.integers(1, 50), elements=st.floats(0, 300, width=32)))
def test_clipped_mask_helper(values):
    """(The test's own helper: the mask of the flat indices.)"""
    at = np.flatnonzero(values > 150)
    assert np.array_equal(np.flatnonzero(_mask_of(at, values)), at)
