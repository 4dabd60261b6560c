"""Round 23's exact speed-ups of the surface analysis (board23a) give the numbers of the plain
forms they replace, bit for bit. The plain forms are kept here."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.recorded_calls import analyse_calls
from tests.same_bits import same_bits as _same_bits
from vision.board_fast import (
    as_channels,
    column_var,
    rank_parts,
    split_medians,
    split_quantiles,
)


def _sorted_median_plain(s: np.ndarray) -> float:
    """``float(np.median(s))`` for a sorted 1-D float array without NaNs (vision.board_fast's
    before round 23, the noise model's median of a range)."""
    n = s.size
    h = n // 2
    return float(s[h]) if n % 2 else float((s[h - 1] + s[h]) / 2)


def test_the_plain_sorted_median_is_numpys():
    rng = np.random.default_rng(7)
    for n in range(1, 300):
        s = np.sort(rng.standard_normal(n) * 10.0 ** rng.integers(-3, 4))
        assert _sorted_median_plain(s) == float(np.median(s))


def _column_var_plain(x: np.ndarray) -> np.ndarray:
    """`column_var` before round 23: the running sums as cumulative sums of the columns."""
    count = np.intp(x.shape[0])
    rows = np.ascontiguousarray(x.T)
    mean = np.cumsum(rows, axis=1)[:, -1][None, :]
    mean = np.true_divide(mean, count, out=mean, casting="unsafe", subok=False)
    dev = np.subtract(rows, mean.T)
    dev = np.square(dev, out=dev)
    total = np.cumsum(dev, axis=1)[:, -1]
    return np.true_divide(total, np.maximum(count, 0), out=total, casting="unsafe", subok=False)


@settings(max_examples=200, deadline=None)
@given(
    n=st.integers(1, 3000),
    c=st.integers(2, 6),
    spread=st.integers(0, 12),
    seed=st.integers(0, 2**32 - 1),
    strided=st.booleans(),
)
def test_column_var_by_reduce_is_the_running_sum(n, c, spread, seed, strided):
    """Values over up to 12 decades (where a float32 running sum rounds at every step), in a
    contiguous array and a strided view: numpy's variance and the cumulative-sum form."""
    rng = np.random.default_rng(seed)
    x = (
        rng.standard_normal((n, c)) * 10.0 ** rng.integers(-spread // 2 - 1, spread // 2 + 1, (n, c))
    ).astype(np.float32)
    if strided:
        x = np.concatenate([x, x], axis=1)[:, ::2]
    got = column_var(x)
    assert _same_bits(got, np.var(x, axis=0))
    assert _same_bits(got, _column_var_plain(x))


def _ranges_plain(v: np.ndarray, e: np.ndarray, parts: int, q: float) -> tuple[list[float], list[float]]:
    """The noise model's brightness ranges before round 23: a full argsort, each part's
    median from its sorted values."""
    order = np.argsort(v)
    medians = [_sorted_median_plain(v[p]) for p in np.array_split(order, parts)]
    return medians, split_quantiles(e, order, parts, q)


@settings(max_examples=300, deadline=None)
@given(
    n=st.integers(12, 4000),
    parts=st.integers(2, 12),
    levels=st.sampled_from([None, 3, 20, 255]),
    seed=st.integers(0, 2**32 - 1),
)
def test_rank_parts_are_the_argsorts(n, parts, levels, seed):
    """Continuous values and values with many ties (a few levels: equal values straddle the
    parts' edges, and the argsort is taken): each part holds the argsort's indices, and the
    parts' medians and quantiles are the plain form's."""
    rng = np.random.default_rng(seed)
    v = (rng.random(n) * 255).astype(np.float32)
    if levels is not None:
        v = np.round(v * levels / 255).astype(np.float32)
    e = rng.random(n).astype(np.float32)
    order = rank_parts(v, parts)
    plain = np.argsort(v)
    ties_at_edges = any(
        np.isin(v[a], v[b]).any() for a, b in itertools.pairwise(np.array_split(plain, parts))
    )
    if not ties_at_edges:
        assert [set(p) for p in np.array_split(order, parts)] == [
            set(p) for p in np.array_split(plain, parts)
        ]
    medians, quantiles = _ranges_plain(v, e, parts, 0.25)
    assert split_medians(v, order, parts) == medians
    assert split_quantiles(e, order, parts, 0.25) == quantiles


def test_rank_parts_with_a_nan_fall_back_to_the_argsort():
    v = np.arange(40, dtype=np.float32)
    v[3] = np.nan
    assert np.array_equal(rank_parts(v, 8), np.argsort(v))


@settings(max_examples=200, deadline=None)
@given(
    shape=st.sampled_from([(1, 1), (1, 9), (9, 1), (37, 23), (5,), (4, 5, 2)]),
    dtype=st.sampled_from([np.float32, np.float64, np.uint8, np.bool_, np.int32]),
    n=st.sampled_from([1, 3, 6]),
    step=st.integers(1, 2),
    seed=st.integers(0, 2**32 - 1),
)
def test_as_channels_is_repeat(shape, dtype, n, step, seed):
    a = (np.random.default_rng(seed).random(shape) * 300).astype(dtype)[::step]
    views = [a, a.T, a[..., ::2], a[::-1]]  # strided, transposed, reversed
    for v in views:
        assert _same_bits(as_channels(v, n), np.repeat(v[..., None], n, axis=-1))


@settings(max_examples=150, deadline=None)
@given(h=st.integers(1, 40), w=st.integers(1, 40), seed=st.integers(0, 2**32 - 1))
def test_products_with_channels_are_the_broadcast_ones(h, w, seed):
    """The forms `analyse` and `_shadowed` now take: the same numbers as broadcasting."""
    rng = np.random.default_rng(seed)
    a, b, lamp = (rng.standard_normal((h, w)).astype(np.float32) for _ in range(3))
    pred = rng.random((h, w, 3)).astype(np.float32)
    assert _same_bits(
        as_channels(a) * pred + as_channels(b + lamp), a[..., None] * pred + (b + lamp)[..., None]
    )
    assert _same_bits(pred - as_channels(lamp), pred - lamp[..., None])
    assert _same_bits(pred / as_channels(np.maximum(a, 1)), pred / np.maximum(a, 1)[..., None])
    inside = rng.integers(0, 2, (h, w)).astype(np.uint8)
    assert _same_bits(pred * as_channels(inside), pred * inside[..., None])
    thin = inside > 0
    assert _same_bits(np.where(as_channels(thin), pred, -pred), np.where(thin[..., None], pred, -pred))


def _reference_profile_plain(
    qb: np.ndarray, refb: np.ndarray, bounds: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """`seen_lines`' reference profile before round 23: one kind at a time."""
    from vision.board_line_seen import MIN_REFERENCE

    prof = np.zeros_like(qb)
    spread = np.zeros_like(qb)
    for s, e in itertools.pairwise(bounds):
        vals = qb[s:e][refb[s:e]]
        h = len(vals) // 2
        if h < MIN_REFERENCE // 2:
            continue
        med = np.partition(vals, h, axis=0)[h]
        mad = np.partition(np.abs(vals - med), h, axis=0)[h]
        prof[s:e] = med
        spread[s:e] = 1.4826 * mad / np.maximum(med, 1e-3)
    return prof, spread


@settings(max_examples=200, deadline=None)
@given(
    kinds=st.integers(1, 12),
    seed=st.integers(0, 2**32 - 1),
    p=st.floats(0, 1),
    ties=st.booleans(),
)
def test_reference_profile_at_once_is_kind_by_kind(kinds, seed, p, ties):
    from vision.board_line_seen import _kind_profile

    def _reference_profile(qb, refb, bounds):  # every kind's, spread over the band (round 23)
        sizes = np.diff(bounds)
        med, spread = _kind_profile(qb, refb, bounds, np.ones(len(sizes), bool))
        return np.repeat(med, sizes, axis=0), np.repeat(spread, sizes, axis=0)

    rng = np.random.default_rng(seed)
    sizes = rng.integers(0, 60, kinds)
    bounds = np.concatenate([[0], np.cumsum(sizes)])
    qb = (rng.random((int(bounds[-1]), 3)) * 1.5 - 0.1).astype(np.float32)
    if ties:
        qb = np.round(qb * 8).astype(np.float32) / 8
    refb = rng.random(len(qb)) < p
    for got, want in zip(
        _reference_profile(qb, refb, bounds), _reference_profile_plain(qb, refb, bounds), strict=True
    ):
        assert _same_bits(got, want)


@pytest.fixture(scope="module")
def real_surfaces():
    """`analyse`'s arguments on two tune scenes (one with a hand), as `judge_squares` made them."""
    return analyse_calls((2, 10))


def test_real_frames_read_as_with_the_plain_forms(real_surfaces, monkeypatch):
    """The whole surface analysis of real frames, with the plain forms patched back in
    (argsort for the noise model's ranges, cumulative sums for the variance, broadcasting for
    the channels, a kind at a time for the lines' reference), is the same, pixel for pixel."""
    import sys

    import vision.board_line_seen as board_line_seen
    import vision.board_surface as board_surface

    new = [board_surface.analyse(*a, **k) for a, k in real_surfaces]

    def argsort_parts(values, parts, ranked=None):
        return np.argsort(values)

    def broadcast(a, n=3):
        return np.broadcast_to(a[..., None], (*a.shape, n))

    monkeypatch.setattr(board_surface, "rank_parts", argsort_parts)
    monkeypatch.setattr(board_surface, "column_var", _column_var_plain)

    def kind_profile_plain(qb, refb, bounds, needed):  # each kind's numbers, read off the band
        prof, spread = _reference_profile_plain(qb, refb, bounds)
        first = np.minimum(bounds[:-1], max(len(qb) - 1, 0))
        return prof[first], spread[first]

    monkeypatch.setattr(board_line_seen, "_kind_profile", kind_profile_plain)
    for name, module in list(sys.modules.items()):
        if name.startswith("vision.") and hasattr(module, "as_channels"):
            monkeypatch.setattr(module, "as_channels", broadcast)
    plain = [board_surface.analyse(*a, **k) for a, k in real_surfaces]
    assert len(new) == 2
    for x, y in zip(new, plain, strict=True):
        for name in ("good", "foreign", "hidden", "outside", "reach"):
            assert np.array_equal(getattr(x, name), getattr(y, name)), name
        assert x.noise == y.noise


@settings(max_examples=200, deadline=None)
@given(
    hands=st.integers(1, 6),
    n=st.integers(0, 3000),
    spread=st.integers(1, 32768),
    seed=st.integers(0, 2**32 - 1),
)
def test_palette_bins_by_unique_are_the_bincounts(hands, n, spread, seed):
    """`_in_palettes`' full bins from `np.unique`'s counts, widened, are those of the
    `bincount` over every hand's bins (tests/test_board_speed_22.py checks the palettes whole)."""
    from vision.board_surface import PALETTE_BINS, PALETTE_MIN, _widen, _widen_bins

    nb = PALETTE_BINS
    rng = np.random.default_rng(seed)
    codes = rng.integers(0, hands, n) * nb**3 + rng.integers(0, min(spread, nb**3), n)
    counts = np.bincount(codes, minlength=hands * nb**3)
    want = _widen((counts >= PALETTE_MIN).reshape(hands, nb, nb, nb)).reshape(hands, nb**3)
    bins, seen = np.unique(codes, return_counts=True)
    got = _widen_bins(bins[seen >= PALETTE_MIN], hands * nb**3, nb).reshape(hands, nb**3)
    assert np.array_equal(got, want)
