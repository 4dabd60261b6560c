"""Round 21's exact speed-ups (board21s) give the numbers of the plain forms they replace,
bit for bit."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.board_fast import row_quantiles
from vision.board_squares import _share


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
    for q in (0.25, 0.5, 0.75, 1.0):
        want = [float(v) for v in np.quantile(a, q, axis=1)]
        assert np.array_equal(np.array(row_quantiles(a.copy(), q)), np.array(want), equal_nan=True)


@settings(max_examples=200, deadline=None)
@given(h=st.integers(1, 30), w=st.integers(1, 30), p=st.floats(0, 1), seed=st.integers(0, 2**32 - 1))
def test_share_is_the_mean_of_a_mask(h, w, p, seed):
    mask = np.random.default_rng(seed).random((h, w)) < p
    assert _share(mask) == float(mask.mean())
    assert _share(mask[::2, 1:]) == float(mask[::2, 1:].mean()) if mask[::2, 1:].size else True
