"""Exact shortcuts for numpy statistics the board reader takes many times per frame.

`np.median` and `np.quantile` cost 10–20 µs of Python each before any arithmetic; the reader
calls them hundreds of times per frame on small arrays (the robust scale of every
Gauss–Newton step of a glare spot, the noise per brightness range). These give the *same
numbers* bit for bit, with less overhead: the same partition, the same float arithmetic in
the same dtype (tests/test_board_speed.py checks them against numpy).

>>> import numpy as np
>>> float(median(np.array([3.0, 1.0, 2.0, 10.0])))
2.5
"""

from __future__ import annotations

import numpy as np


def median(a: np.ndarray) -> np.floating:
    """``np.median(a)`` for a non-empty float array (of any shape: all its values), bit for bit (a numpy scalar of the
    array's dtype, as numpy's: a difference of two medians stays in that dtype).

    numpy partitions around the middle (and the last element, which holds a NaN if there is
    one) and takes the mean of the one or two middle values in the array's dtype.
    """
    a = a.ravel()
    n = a.size
    h = n // 2
    if n % 2:
        p = np.partition(a, (h, -1))
        mid = p[h]
    else:
        p = np.partition(a, (h - 1, h, -1))
        mid = (p[h - 1] + p[h]) / 2
    return p[-1] if np.isnan(p[-1]) else mid


def sorted_median(s: np.ndarray) -> float:
    """``float(np.median(s))`` for a non-empty 1-D float array already sorted ascending,
    without NaNs."""
    n = s.size
    h = n // 2
    return float(s[h]) if n % 2 else float((s[h - 1] + s[h]) / 2)


def split_quantiles(values: np.ndarray, order: np.ndarray, parts: int, q: float) -> list[float]:
    """``[float(np.quantile(values[p], q)) for p in np.array_split(order, parts)]`` in (at
    most) two calls: `np.array_split` makes the first ``len % parts`` parts one longer, so
    the parts of each length are the rows of one matrix, and numpy's quantile along an axis
    computes every row exactly as it would on its own."""
    n = len(order)
    size, longer = divmod(n, parts)
    out: list[float] = []
    cut = longer * (size + 1)
    if longer:
        out += [float(v) for v in np.quantile(values[order[:cut]].reshape(longer, size + 1), q, axis=1)]
    if parts - longer:
        out += [float(v) for v in np.quantile(values[order[cut:]].reshape(parts - longer, size), q, axis=1)]
    return out
