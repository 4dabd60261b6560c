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

import math

import cv2
import numpy as np

SORT_BELOW = 2048  # bytes: arrays up to this size are sorted for `median` (512 float32 values)
BINNED_ABOVE = 20_000  # values: a float32 array this long has its median found by bins (`_binned_median`)


def median(a: np.ndarray) -> np.floating:
    """``np.median(a)`` for a non-empty float array (of any shape: all its values), bit for
    bit: a numpy scalar of the array's dtype, as numpy's (a difference of two medians stays
    in that dtype).

    numpy partitions around the middle (and the last element, which holds a NaN if there is
    one) and takes the mean of the one or two middle values in the array's dtype.
    """
    a = a.ravel()
    n = a.size
    h = n // 2
    if n >= BINNED_ABOVE and a.dtype == np.float32:
        binned = _binned_median(a)
        if binned is not None:
            return binned
    # numpy takes the mean of the middle value(s), a sum from +0.0: its median of -0.0
    # values is +0.0. Adding +0.0 does that, and changes no other value.
    zero = a.dtype.type(0.0)
    if n <= SORT_BELOW // a.itemsize:
        # A short array is sorted faster than numpy partitions it around two or three
        # places, and a sort leaves the same values there (but for the order of -0.0 and
        # 0.0, which the +0.0 makes alike).
        s = np.sort(a)
        mid = s[h] if n % 2 else (s[h - 1] + s[h]) / 2
        return s[-1] if np.isnan(s[-1]) else mid + zero
    if n % 2:
        p = np.partition(a, (h, -1))
        mid = p[h]
    else:
        p = np.partition(a, (h - 1, h, -1))
        mid = (p[h - 1] + p[h]) / 2
    return p[-1] if np.isnan(p[-1]) else mid + zero


def _binned_median(a: np.ndarray) -> np.floating | None:
    """`median` of a long float32 array whose values are all +0.0 or positive and finite (else
    None): the middle values found by their bits' top half first (such floats sort as their
    bits do, and equal values have equal bits), then a partition of the values in that bin
    alone. The same values as the partition of the whole array, in half its time or less:
    the noise sigmas of a frame's judged pixels (some 90,000) sit in a few hundred bins."""
    top = a.view(np.uint32) >> 16
    lo, hi = int(top.min()), int(top.max())
    if hi >= 0x7F80:  # infinity, NaN, or a sign bit (a negative value, -0.0)
        return None
    ends = np.cumsum(np.bincount(top - lo))  # the values below the end of each bin

    def kth(k: int) -> np.floating:
        b = int(np.searchsorted(ends, k, side="right"))
        inside = a[top == lo + b]
        k -= int(ends[b - 1]) if b else 0
        return np.partition(inside, k)[k]

    h = a.size // 2
    return kth(h) if a.size % 2 else (kth(h - 1) + kth(h)) / 2


def split_quantiles(values: np.ndarray, order: np.ndarray, parts: int, q: float) -> list[float]:
    """``[float(np.quantile(values[p], q)) for p in np.array_split(order, parts)]`` in (at
    most) two calls: `np.array_split` makes the first ``len % parts`` parts one longer, so
    the parts of each length are the rows of one matrix, and numpy's quantile along an axis
    computes every row exactly as it would on its own."""
    return [v for rows in _parts_as_rows(values, order, parts) for v in row_quantiles(rows, q)]


def _parts_as_rows(values: np.ndarray, order: np.ndarray, parts: int) -> list[np.ndarray]:
    """``values`` in the parts ``np.array_split(order, parts)`` makes, as the rows of (at most)
    two matrices: the first ``len % parts`` parts, one longer, then the others."""
    size, longer = divmod(len(order), parts)
    cut = longer * (size + 1)
    out = [values[order[:cut]].reshape(longer, size + 1)] if longer else []
    return out + ([values[order[cut:]].reshape(parts - longer, size)] if parts - longer else [])


def rank_parts(values: np.ndarray, parts: int, ranked: np.ndarray | None = None) -> np.ndarray:
    """An order of the 1-D ``values`` whose ``np.array_split(order, parts)`` holds in each
    part the same indices as ``np.argsort(values)``'s does, in some order within the part:
    for `split_quantiles` and `split_medians`, which look at a part's values as a set.

    The values at the parts' edges are found by one partition (numpy's is vectorised; its
    argsort and argpartition are not), each value is given its part by the edges, and the
    part numbers are sorted (a radix sort): about a third of the time of the full sort on the
    noise model's 15,000 levels. Kept only where each edge falls between two different
    values and every part has its size: then the values below an edge are the same indices
    however ties are broken. Otherwise (equal values across an edge, a NaN), the argsort.

    ``ranked``: ``np.sort(values)``, if made (for `sorted_medians`): its values at the edges
    are the partition's (a sorted array is partitioned around every place)."""
    n = len(values)
    size, longer = divmod(n, parts)
    if size == 0 or parts < 2 or parts > 255 or values.dtype.kind != "f":
        return np.argsort(values)
    sizes = np.full(parts, size)
    sizes[:longer] += 1
    cuts = np.cumsum(sizes)[:-1]
    edges = np.partition(values, np.union1d(cuts - 1, cuts)) if ranked is None else ranked
    below, above = edges[cuts - 1], edges[cuts]
    if np.all(below < above):
        part = np.zeros(n, np.uint8)
        for edge in above:
            part += values >= edge
        if np.array_equal(np.bincount(part, minlength=parts), sizes):
            return np.argsort(part, kind="stable")
    return np.argsort(values)


def split_medians(values: np.ndarray, order: np.ndarray, parts: int) -> list[float]:
    """The median of each part ``np.array_split(order, parts)`` makes of ``values`` (as
    `split_quantiles`, the parts of each length as the rows of one matrix): the middle value
    of a part, or the mean of the two middle ones in the values' dtype."""
    out: list[float] = []
    for rows in _parts_as_rows(values, order, parts):
        m = rows.shape[1]
        h = m // 2
        if m % 2:
            mid = np.partition(rows, h, axis=1)[:, h]
        else:
            part = np.partition(rows, (h - 1, h), axis=1)
            mid = (part[:, h - 1] + part[:, h]) / 2
        out += [float(v) for v in mid]
    return out


def sorted_medians(ranked: np.ndarray, parts: int) -> list[float]:
    """`split_medians` of the parts `rank_parts` (or ``np.argsort``) makes, from the values
    sorted (``ranked``: ``np.sort`` of them): the k-th part of the argsort holds the k-th run
    of the sorted values (`np.array_split`'s lengths), so its middle values are read off that
    run, without partitioning each part again. The same numbers (a NaN sorts last in both),
    but for the sign of a zero median, where -0.0 and 0.0 are both among the middle values
    (a sort and a partition may leave either in the middle: equal numbers)."""
    n = len(ranked)
    size, longer = divmod(n, parts)
    out: list[float] = []
    for first, count, m in ((0, longer, size + 1), (longer * (size + 1), parts - longer, size)):
        if not count:
            continue
        at = np.arange(count) * m + (first + m // 2)  # each part's middle place (the upper one)
        mid = ranked[at] if m % 2 else (ranked[at - 1] + ranked[at]) / 2
        out += [float(v) for v in mid]
    return out


def row_quantiles(rows: np.ndarray, q: float) -> list[float]:
    """``[float(v) for v in np.quantile(rows, q, axis=1)]`` for a 2-D float array (rows of at
    least one value) and a Python float ``q``, bit for bit, without numpy's 40 µs of setup.

    numpy's linear method: the virtual index ``(n − 1) · q`` in float64, its floor and the
    next index (both the last one at the top), the rows partitioned around them (and around
    the first and last places, where a NaN would sort), and ``_lerp`` of the two values with
    the fraction (from index −1 at the top, as numpy's) as a Python float (``q`` is one: weak promotion keeps the rows' dtype):
    ``a + (b − a) · t``, or ``b − (b − a) · (1 − t)`` from t = 0.5 on. A row holding a NaN
    gives NaN.
    """
    n = rows.shape[1]
    virtual = (n - 1) * q
    if virtual >= n - 1:
        # numpy takes the last value twice, its index as -1 (which the fraction counts from)
        lo = hi = n - 1
        t = virtual + 1
    else:
        lo = math.floor(virtual)
        hi = lo + 1
        t = virtual - lo
    part = np.partition(rows, sorted({0, lo, hi, n - 1}), axis=1)
    a, b = part[:, lo], part[:, hi]
    diff = b - a
    out = b - diff * (1 - t) if t >= 0.5 else a + diff * t
    nan = np.isnan(part[:, -1])
    if nan.any():
        out[nan] = np.nan
    return [float(v) for v in out]


HALVING_MARGIN = 6  # px at the last level: a halving reads 2 px either side, and errs only there


def pyr_down_around(image: np.ndarray, times: int, box: tuple[int, int, int, int]) -> np.ndarray:
    """``cv2.pyrDown`` applied ``times`` times to ``image``, bit for bit inside ``box`` =
    (x0, y0, x1, y1) (pixels of the result; anything outside it may be zero).

    A halving reads each output pixel's 5 × 5 neighbourhood, mirrored at the image's edges.
    So only a crop around the box is halved (its corner on a multiple of 2^times, so the
    grids line up, and a margin that keeps its own mirrored edges off the box), into a frame
    the size of the whole result: a warp reading the box sees the same pixels as from the
    whole image. The board is a third of a camera frame: the rest need not be halved.
    """
    if times <= 0:
        return image
    k = 1 << times
    h, w = image.shape[:2]
    hs, ws = h, w
    for _ in range(times):
        hs, ws = (hs + 1) // 2, (ws + 1) // 2
    x0, y0, x1, y1 = box
    cx0, cy0 = max(0, (x0 - HALVING_MARGIN) * k), max(0, (y0 - HALVING_MARGIN) * k)
    cx1, cy1 = min(w, (x1 + HALVING_MARGIN) * k), min(h, (y1 + HALVING_MARGIN) * k)
    if cx0 >= cx1 or cy0 >= cy1 or (cx1 - cx0) * (cy1 - cy0) > 0.8 * h * w:
        out = image
        for _ in range(times):
            out = cv2.pyrDown(out)
        return out
    part = image[cy0:cy1, cx0:cx1]
    for _ in range(times - 1):
        part = cv2.pyrDown(part)
    # The last halving is written straight into its place in a frame of zeros (a warp reading
    # the box never reads the rest; zeros keep a read from depending on old memory if one did).
    out = _frame((hs, ws, *image.shape[2:]), image.dtype)
    ph, pw = (part.shape[0] + 1) // 2, (part.shape[1] + 1) // 2  # cv2.pyrDown's size
    place = out[cy0 // k : cy0 // k + ph, cx0 // k : cx0 // k + pw]
    if cv2.pyrDown(part, dst=place) is not place:  # not written in place: never, as it fits
        raise AssertionError("pyrDown did not halve into its place in the frame")
    return out


def _frame(shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    """A picture of zeros for `pyr_down_around` to halve into (a test fills it with noise)."""
    return np.zeros(shape, dtype)


def column_var(x: np.ndarray) -> np.ndarray:
    """``np.var(x, axis=0)`` for a 2-D float32 array of a few columns (n × c, n ≥ 1, c ≥ 2),
    bit for bit, several times faster.

    numpy reduces a tall array down its columns one row at a time (a running sum in the
    array's dtype, not its pairwise sum) and divides by the count as a 64-bit integer
    (through float64, stored back in float32). `cv2.reduce` to one row adds the rows in the
    same order, in float32 (a quarter of the time of a cumulative sum, the form before:
    tests/test_board_speed_23a.py keeps it); the divisions are numpy's own calls.
    """
    if x.ndim != 2 or x.shape[1] < 2 or x.dtype != np.float32:
        return np.var(x, axis=0)  # one column is summed pairwise: numpy's own then
    count = np.intp(x.shape[0])
    x = np.ascontiguousarray(x)
    mean = cv2.reduce(x, 0, cv2.REDUCE_SUM, dtype=cv2.CV_32F)  # (1, c), like umr_sum(keepdims=True)
    mean = np.true_divide(mean, count, out=mean, casting="unsafe", subok=False)
    # The deviations made in rows (c × n): numpy's loop over a short last axis is slow, and
    # OpenCV's transpose is quicker than numpy's copy.
    dev = np.subtract(cv2.transpose(x), mean.T)
    dev = np.square(dev, out=dev)
    total = cv2.reduce(cv2.transpose(dev), 0, cv2.REDUCE_SUM, dtype=cv2.CV_32F).ravel()
    return np.true_divide(total, np.maximum(count, 0), out=total, casting="unsafe", subok=False)


def share(mask: np.ndarray) -> float:
    """``float(mask.mean())`` for a boolean array, the same number: numpy sums the bools in
    float64 (exact: an integer) and divides by the count, as here, where ``count_nonzero``
    skips the mean's Python layers (some 8 µs a call). An empty one is NaN, as numpy's
    (without its warning)."""
    return np.count_nonzero(mask) / mask.size if mask.size else math.nan


def mean(a: np.ndarray) -> np.floating:
    """``np.mean(a)`` of a non-empty float64 array (all its values), bit for bit, without its
    Python layers (some 5 µs a call): numpy sums the values by ``np.add.reduce`` (pairwise)
    and divides the sum by their count, in float64.

    >>> float(mean(np.array([1.0, 2.0, 4.0])))
    2.3333333333333335
    """
    return np.add.reduce(a, axis=None) / a.size


# `channel_sum`'s matrix: each channel once, and an offset of -0.0 (x + -0.0 is x, bit for
# bit, +0.0 and -0.0 included, where an offset of +0.0 would turn a -0.0 sum into +0.0).
_CHANNEL_SUM = np.array([[1.0, 1.0, 1.0, -0.0]])


def channel_sum(a: np.ndarray) -> np.ndarray:
    """``a[..., 0] + a[..., 1] + a[..., 2]`` for colours (the last axis 3 long): for float32
    and float64 by `cv2.transform` (a third of the time on the top view: numpy reads each
    channel with a stride). OpenCV adds ``1·a0 + 1·a1 + 1·a2 + (-0.0)`` in the array's own
    type, in that order: the products by one are exact and so is adding -0.0, so the sums are
    numpy's, bit for bit, but for a NaN's sign and payload where the sum is NaN
    (tests/test_board_speed_25a.py)."""
    if a.dtype in (np.float32, np.float64) and a.ndim >= 2 and a.shape[-1] == 3 and a.size:
        return cv2.transform(a.reshape(-1, 1, 3), _CHANNEL_SUM).reshape(a.shape[:-1])
    return a[..., 0] + a[..., 1] + a[..., 2]


def channel_min(a: np.ndarray) -> np.ndarray:
    """``a.min(axis=-1)`` for colours (last axis of 3), the same values: numpy reduces a short
    last axis one pixel at a time, some forty times slower than two elementwise minima on a
    216 × 216 view."""
    return np.minimum(np.minimum(a[..., 0], a[..., 1]), a[..., 2])


def channel_max(a: np.ndarray) -> np.ndarray:
    """``a.max(axis=-1)`` for colours, the same values (see `channel_min`)."""
    return np.maximum(np.maximum(a[..., 0], a[..., 1]), a[..., 2])


def as_channels(a: np.ndarray, n: int = 3) -> np.ndarray:
    """``np.repeat(a[..., None], n, axis=-1)``: a picture of one channel (or any array) as
    ``n`` equal channels, so that an operation with a colour picture runs on arrays of one
    shape, with the same numbers. numpy broadcasts ``a[..., None]`` over a short last axis
    a pixel at a time: on the 216 × 216 view a product with it takes some 130 µs, this merge
    and a product of one shape 40 µs. (`cv2.merge` copies the values; bools are merged as
    their bytes.)"""
    if a.size and 1 <= n <= 64 and a.dtype in (np.float32, np.float64, np.uint8, np.bool_):
        plane = (a if a.ndim == 2 else a.reshape(-1, 1)).view(np.uint8 if a.dtype == np.bool_ else a.dtype)
        return cv2.merge((plane,) * n).reshape(*a.shape, n).view(a.dtype)
    return np.repeat(a[..., None], n, axis=-1)


def components(mask: np.ndarray) -> tuple[int, np.ndarray, np.ndarray]:
    """``cv2.connectedComponentsWithStats(mask, connectivity=8)``'s count, labels and areas
    (its stats' CC_STAT_AREA column) for a uint8 ``mask``: the same labels, from
    ``cv2.connectedComponents``, and the areas counted from them. OpenCV's stats (boxes and
    centroids) cost about 0.25 ms a call on the top view whatever it holds, the labels alone a
    sixth of that; most callers ask only for the areas (`box_of` gives one region's box)."""
    count, labels = cv2.connectedComponents(mask, connectivity=8)
    return count, labels, np.bincount(labels.ravel(), minlength=count)


def masked(values: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """``values[mask]`` for a boolean ``mask`` of ``values``' leading shape: the same values in
    the same (row-major) order, by `np.compress` of the flattened arrays, two to four times
    faster than numpy's boolean indexing on the top view (labels 87 against 29 µs, colours
    211 against 51 µs, *one-off* micro-timings)."""
    return np.compress(mask.ravel(), values.reshape(mask.size, *values.shape[mask.ndim :]), axis=0)


def pixels_of(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.nonzero(mask)`` of a 2-D mask: the rows and columns of its True pixels, the same
    integers, from their flat indices (`np.flatnonzero` and a `divmod`: a fifth of the time
    of `np.nonzero`'s two arrays on the top view)."""
    rows, cols = np.divmod(np.flatnonzero(mask), mask.shape[1])
    return rows, cols


def box_of(region: np.ndarray) -> tuple[int, int, int, int]:
    """The bounding box (x, y, width, height) of the True pixels of ``region`` (not empty),
    as ``cv2.connectedComponentsWithStats`` gives a component's (CC_STAT_LEFT … HEIGHT)."""
    rows, cols = np.flatnonzero(region.any(axis=1)), np.flatnonzero(region.any(axis=0))
    return int(cols[0]), int(rows[0]), int(cols[-1] - cols[0] + 1), int(rows[-1] - rows[0] + 1)


def box_around(mask: np.ndarray, margin: int) -> tuple[slice, slice]:
    """The (rows, columns) slices of the bounding box of ``mask``'s True pixels (not empty),
    widened by ``margin`` px on every side as far as the array goes: where a step that looks
    ``margin`` px around the mask gives the whole array's answer."""
    rows, cols = np.flatnonzero(mask.any(axis=1)), np.flatnonzero(mask.any(axis=0))
    h, w = mask.shape
    return (
        slice(max(0, int(rows[0]) - margin), min(h, int(rows[-1]) + margin + 1)),
        slice(max(0, int(cols[0]) - margin), min(w, int(cols[-1]) + margin + 1)),
    )


CROP_BLOCK = 8  # px: the pixels asked about are grouped in blocks of this side
CROP_ALIGN = 16  # px: a crop's first column, and its width unless it ends at the array's edge
CROP_SHARE = 0.7  # crops covering more than this share of the array: filter it whole


def crops_around(at: np.ndarray, reach: int) -> list[tuple[tuple[slice, slice], tuple[slice, slice]]]:
    """Where to run a neighbourhood filter of ``reach`` px (an OpenCV Gaussian blur, say) so
    that it gives, at every ``at`` pixel, the numbers it gives there over the whole array:
    pairs ``(region, crop)`` of (rows, columns) slices, the ``at`` pixels inside the regions
    (which may overlap), each crop its region widened by ``reach`` (the array's edge where it
    is nearer: the filter mirrors there as before). A filter of ``array[crop]`` gives at
    ``region`` (shifted by the crop's corner) the whole array's numbers, as long as each
    pixel's arithmetic does not depend on where the pixel lies in the array: true of rows
    (OpenCV filters a row at a time), but OpenCV's vector loops run along a row from its first
    pixel and finish its last few pixels in scalar code, which rounds otherwise. So a crop
    starts at a multiple of CROP_ALIGN px and its width is one too unless it ends at the
    array's right edge: each pixel keeps its place in the vector loop's lanes, and the crop's
    own last pixels, which a shorter row finishes in scalar code, are in its widening, never
    asked about (tests/test_board_speed_24s.py checks the blurs the reader crops, bit for bit).

    The ``at`` pixels are grouped in blocks of CROP_BLOCK px; blocks whose widenings would
    meet share a crop (the box of their blocks). Where the crops would cover more than
    CROP_SHARE of the array, one crop is the whole array."""
    h, w = at.shape
    whole = [((slice(0, h), slice(0, w)), (slice(0, h), slice(0, w)))]
    b = CROP_BLOCK
    bh, bw = -(-h // b), -(-w // b)
    if (bh * b, bw * b) != (h, w):
        padded = np.zeros((bh * b, bw * b), bool)
        padded[:h, :w] = at
    else:
        padded = at
    # Any pixel in each block: along the rows first, then the columns (the same flags as
    # ``any(axis=(1, 3))`` of the blocks, which numpy reduces several times slower).
    blocks = padded.reshape(bh, b, bw * b).any(axis=1).reshape(bh, bw, b).any(axis=2)
    if not blocks.any():
        return []
    k = 2 * -(-reach // b) + 1
    count, labels = cv2.connectedComponents(
        cv2.dilate(blocks.view(np.uint8), np.ones((k, k), np.uint8)), connectivity=8
    )
    out = []
    area = 0
    a = CROP_ALIGN
    for label in range(1, count):
        mine = blocks & (labels == label)
        rows, cols = np.flatnonzero(mine.any(axis=1)), np.flatnonzero(mine.any(axis=0))
        y0, y1 = int(rows[0]) * b, min(h, (int(rows[-1]) + 1) * b)
        x0, x1 = int(cols[0]) * b, min(w, (int(cols[-1]) + 1) * b)
        cy0, cy1 = max(0, y0 - reach), min(h, y1 + reach)
        cx0, cx1 = max(0, (x0 - reach) // a * a), min(w, -(-(x1 + reach) // a) * a)
        area += (cy1 - cy0) * (cx1 - cx0)
        if area > CROP_SHARE * h * w:
            return whole
        out.append(((slice(y0, y1), slice(x0, x1)), (slice(cy0, cy1), slice(cx0, cx1))))
    return out


def shifted(region: tuple[slice, slice], crop: tuple[slice, slice]) -> tuple[slice, slice]:
    """``region`` (rows, columns) of an array as slices of its ``crop`` (`crops_around`)."""
    (r, c), (cr, cc) = region, crop
    return slice(r.start - cr.start, r.stop - cr.start), slice(c.start - cc.start, c.stop - cc.start)


def small_unique(values: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``np.unique(values, return_inverse=True, return_counts=True)`` for whole numbers in
    ``[0, size)`` (1-D), by a table of ``size`` counts instead of a sort: the same values (of
    the same dtype), indices and counts (tests/test_board_speed_24c.py); `near_hand_colour` and
    `board_surface._hand_bins` number their colour bins with it."""
    counts = np.bincount(values, minlength=size)
    present = counts > 0
    found = np.flatnonzero(present)
    return found.astype(values.dtype), (np.cumsum(present) - 1)[values], counts[found]
