"""`board_fast.median` in its plainest form, numpy's own partition (before rounds 18 and 24),
kept as the reference the faster forms are checked against."""

from __future__ import annotations

import numpy as np


def median_by_partition(a: np.ndarray) -> np.floating:
    """The middle of ``a`` (all its values) by one partition, as ``np.median`` finds it."""
    a = a.ravel()
    n = a.size
    h = n // 2
    if n % 2:
        p = np.partition(a, (h, -1))
        mid = p[h]
    else:
        p = np.partition(a, (h - 1, h, -1))
        mid = (p[h - 1] + p[h]) / 2
    # numpy's mean of the middle value(s) sums from +0.0: a median of -0.0 values is +0.0.
    return p[-1] if np.isnan(p[-1]) else mid + a.dtype.type(0.0)
