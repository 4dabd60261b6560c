"""What bare board looks like under this frame's light: the lighting half of the board reader.

In log linear RGB a bare square's colour is ``lighting(x, y) + offset[class]``: a smooth field
shared by the whole board plus one constant per class of the printed pattern (dark, light,
maze). Both are measured on the frame itself, from the squares with no decoded marker, and
must survive hands, sleeves, unread pieces and glare covering many of those squares:

- the **checker contrast** (light minus dark) is the mode of the differences between
  neighbouring dark and light squares. A sleeve or a palm painting two neighbours one colour
  gives a difference near zero, a hand's edge a random one; bare neighbours agree with each
  other, so the largest cluster of clearly non-zero differences is the board's own contrast;
- the **lighting field** is then fitted by consensus: planes through random triples of
  squares, the one most squares agree with wins (a majority need not be bare: hands and glare
  rarely agree with one plane), then a robust refit on its supporters, with gentle curvature
  (vignetting) kept in check by a ridge so that a fit on a corner of the board does not
  extrapolate wildly;
- a class too small to measure (the maze is one square) takes its offset from
  `BoardGeometry.class_offsets` (calibrated per board).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

from vision.board_fast import as_channels, median
from vision.board_geometry import DARK, LIGHT, SIZE, BoardGeometry

LOG_FLOOR = 0.01  # added before taking logs: keeps the noise of dark squares from dominating
MIN_CONTRAST = 0.5  # |log light − log dark| a checkerboard must show (the printed pattern)
LIGHTER = 0.25  # mean over B, G, R of log light − log dark: the light squares are the lighter ones
CONTRAST_RADIUS = 0.2  # neighbour differences this close (log units) belong to one cluster
CONSENSUS_TRIALS = 150
CONSENSUS_TOL = 0.15  # log units; a plane is a rough model, curvature is refitted after
CURVATURE_RIDGE = 4.0  # ridge on the quadratic terms, in units of squares' weights
SCALE_FLOOR = 0.035


def design(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The lighting field's basis at board points: 1, x, y, x², y², xy (centred, scaled)."""
    u, v = (np.asarray(x) - 4.5) / 4.5, (np.asarray(y) - 4.5) / 4.5
    return np.stack([np.ones_like(u), u, v, u * u, v * v, u * v], axis=-1)


@dataclass(frozen=True)
class Lighting:
    """The fitted model: field coefficients (6 × 3, log B, G, R) and per-class offsets."""

    field: np.ndarray
    offsets: dict[int, np.ndarray]  # class → log B, G, R offset from the dark class
    contrast_support: int  # neighbour pairs behind the checker contrast (0: not measured)
    inlier_squares: np.ndarray  # the squares the field was fitted on (81 booleans, ALL_SQUARES order)

    @property
    def inliers(self) -> int:
        """How many squares the field was fitted on."""
        return int(self.inlier_squares.sum())

    def predict(self, x: np.ndarray, y: np.ndarray, classes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Log colour (…, 3) of bare board at board points of the given classes, and whether
        the class is known (a class without an offset cannot be predicted)."""
        return self.predict_on(design(x, y), classes)

    def predict_on(self, basis: np.ndarray, classes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """`predict` on a precomputed `design` basis (…, 6) and integer class map."""
        table, known_table = self._tables(classes, basis.dtype)
        # np.take: the same rows as ``table[classes]``, several times faster; added in the
        # product's own (fresh) memory where the two have one shape and type: the same sums.
        log, offsets = basis @ self.field.astype(basis.dtype), np.take(table, classes, axis=0)
        if log.shape == offsets.shape and log.dtype == offsets.dtype:
            return np.add(log, offsets, out=log), known_table[classes]
        return log + offsets, known_table[classes]

    def predict_by_squares(self, basis: np.ndarray, squares: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """`predict_on` for a top view whose class map is ``squares`` (rows × columns of
        squares) with every square ``n // columns`` pixels a side, ``basis`` (n, n, 6): the
        same numbers, the class offsets laid out a row of squares at a time. Each pixel gets
        its square's offset added to the same product, without the class map's (n, n, 3)
        array of offsets (a fresh one of the view's size every call) or a lookup per pixel.

        >>> import numpy as np
        >>> light = Lighting(np.zeros((6, 3)), {0: np.zeros(3), 1: np.ones(3)}, 0, np.ones(81, bool))
        >>> log, known = light.predict_by_squares(np.ones((4, 4, 6), np.float32), np.array([[0, 1], [1, 0]]))
        >>> log[..., 0].tolist()
        [[0.0, 0.0, 1.0, 1.0], [0.0, 0.0, 1.0, 1.0], [1.0, 1.0, 0.0, 0.0], [1.0, 1.0, 0.0, 0.0]]
        """
        table, known_table = self._tables(squares, basis.dtype)
        rows, columns = squares.shape
        n = basis.shape[1]
        ppu = n // columns
        log = basis @ self.field.astype(basis.dtype)
        # One row of pixels per row of squares, its squares' offsets each ppu times, added to
        # that row of squares' ppu rows of pixels (``log`` is a fresh (n, n, 3) array).
        by_row = np.repeat(np.take(table, squares, axis=0), ppu, axis=1).reshape(rows, 1, n * log.shape[-1])
        in_rows = log.reshape(rows, ppu, n * log.shape[-1])
        np.add(in_rows, by_row, out=in_rows)
        return log, np.repeat(np.repeat(known_table[squares], ppu, axis=0), ppu, axis=1)

    def _tables(self, classes: np.ndarray, dtype: np.dtype) -> tuple[np.ndarray, np.ndarray]:
        """Each class's offset (a row, zeros for a class without one) and whether it has one,
        for the classes up to the largest in ``classes`` and in ``offsets``."""
        top = int(classes.max()) + 1 if classes.size else 1
        table = np.zeros((max(top, *[c + 1 for c in self.offsets]), 3), dtype)
        known_table = np.zeros(len(table), bool)
        for c, off in self.offsets.items():
            table[c] = off
            known_table[c] = True
        return table, known_table


def checker_contrast(
    means: np.ndarray, ok: np.ndarray, geometry: BoardGeometry
) -> tuple[np.ndarray | None, int]:
    """Log colour of the light class minus the dark class, from neighbouring square pairs.

    ``means``: (81, 3) log colours in ALL_SQUARES order; ``ok``: which squares may be used.
    Returns (offset or None, number of pairs that agree with it).
    """
    dark, light = _neighbour_pairs(tuple(tuple(row) for row in geometry.classes))
    both = ok[dark] & ok[light]
    if int(both.sum()) < 3:
        return None, 0
    d = means[light[both]] - means[dark[both]]
    close = _pair_distances(d) < CONTRAST_RADIUS
    # A sleeve lying along a diagonal of light squares makes many pairs agree on "its colour
    # minus the dark squares'"; a blue or green sleeve is not lighter than the dark squares,
    # and the light class of a printed board is, by its name and in every scheme we know.
    plausible = (np.linalg.norm(d, axis=1) >= MIN_CONTRAST) & (d.mean(axis=1) >= LIGHTER)
    counts = close.sum(axis=1) * plausible
    k = int(np.argmax(counts))
    if counts[k] < 3:
        return None, 0
    # ``np.median(…, axis=0)``, column by column: the same numbers, without its overhead.
    return np.array([median(column) for column in d[close[k]].T]), int(counts[k])


def _pair_distances(d: np.ndarray) -> np.ndarray:
    """``np.linalg.norm(d[:, None] - d[None], axis=2)`` for rows of 3 values, bit for bit
    (the squares summed in the same order), channel by channel: numpy reduces a short last
    axis one element at a time, a dozen times slower."""
    e = d[:, 0, None] - d[None, :, 0]
    total = e * e
    for k in range(1, d.shape[1]):
        e = d[:, k, None] - d[None, :, k]
        total = total + e * e
    return np.sqrt(total)


@lru_cache(maxsize=16)
def _neighbour_pairs(classes: tuple[tuple[int, ...], ...]) -> tuple[np.ndarray, np.ndarray]:
    """Every (dark square, light neighbour) pair of a board, as indices into ALL_SQUARES order:
    dark squares in that order, each one's neighbours to the right, left, above, below."""
    dark, light = [], []
    for i in range(SIZE * SIZE):
        f, r = i % SIZE, i // SIZE
        if classes[r][f] != DARK:
            continue
        for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            ff, rr = f + df, r + dr
            if 0 <= ff < SIZE and 0 <= rr < SIZE and classes[rr][ff] == LIGHT:
                dark.append(i)
                light.append(rr * SIZE + ff)
    return np.array(dark, int), np.array(light, int)


@lru_cache(maxsize=128)
def _trial_triples(n: int) -> np.ndarray:
    """Three distinct positions among ``n`` for each consensus trial (seeded: reproducible,
    and the same for every frame with ``n`` usable squares)."""
    rng = np.random.default_rng(0)
    out = np.argsort(rng.random((CONSENSUS_TRIALS, n)), axis=1)[:, :3]
    out.setflags(write=False)
    return out


def _consensus(xy: np.ndarray, y: np.ndarray, usable: np.ndarray, X: np.ndarray | None = None) -> np.ndarray:
    """Squares agreeing with the best plane through random triples (seeded: reproducible).
    ``X``: ``design(xy[:, 0], xy[:, 1])``, if made (the layout's, `_square_layout`)."""
    X = (design(xy[:, 0], xy[:, 1]) if X is None else X)[:, :3]
    idx = np.flatnonzero(usable)
    if len(idx) < 5:
        return usable.astype(float)
    samples = idx[_trial_triples(len(idx))]  # (T, 3) distinct squares per trial
    A = X[samples]  # (T, 3, 3)
    ok = np.abs(np.linalg.det(A)) > 1e-6
    if not ok.any():
        return usable.astype(float)
    betas = np.linalg.solve(A[ok], y[samples[ok]])  # (T, 3, 3): per trial, basis × channel
    # ``diff = y[None] - np.matmul(X[None], betas)`` (T, 81, 3), squared, and the root of the
    # channels' mean square (``.sum(axis=2)`` as a sum, bit for bit), each in the memory of
    # the array before it.
    sq = np.matmul(X[None], betas)
    np.subtract(y[None], sq, out=sq)
    np.multiply(sq, sq, out=sq)
    err = sq[..., 0] + sq[..., 1]
    err += sq[..., 2]
    err /= 3
    np.sqrt(err, out=err)
    inliers = usable[None] & (err < CONSENSUS_TOL)
    return inliers[int(np.argmax(inliers.sum(axis=1)))].astype(float)


def fit_lighting(means: np.ndarray, ok: np.ndarray, geometry: BoardGeometry) -> Lighting:
    """Fit the lighting model on the squares where ``ok`` (their ``means``: (81, 3) log BGR)."""
    classes, xy, X = _square_layout(geometry.classes)
    contrast, support = checker_contrast(means, ok, geometry)
    offsets: dict[int, np.ndarray] = {DARK: np.zeros(3)}
    if contrast is not None:
        offsets[LIGHT] = contrast
    for c, off in geometry.class_offsets.items():
        if c not in offsets:
            offsets[c] = np.array(off, dtype=np.float64)[::-1]  # stored R, G, B; images are B, G, R
    use = ok & _of_classes(classes, offsets)
    y = means.copy()
    for c, off in offsets.items():
        y[classes == c] -= off
    w = _consensus(xy, y, use, X)
    ridge = np.zeros((3, 6))
    ridge[0, 3] = ridge[1, 4] = ridge[2, 5] = np.sqrt(CURVATURE_RIDGE)
    field = np.zeros((6, 3))
    # The weighted system over the ridge's rows, ``np.vstack([X * sw, ridge])`` and
    # ``np.vstack([y * sw, 0])``, made once and its weighted rows rewritten each pass.
    n = len(X)
    system, target = np.vstack([X, ridge]), np.zeros((n + len(ridge), y.shape[1]))
    for _ in range(6):
        sw = np.sqrt(w)[:, None]
        np.multiply(X, sw, out=system[:n])
        np.multiply(y, sw, out=target[:n])
        field, *_ = np.linalg.lstsq(system, target, rcond=None)
        resid = y - X @ field
        good = w > 0
        scale = max(SCALE_FLOOR, float(1.4826 * median(np.abs(resid[good])))) if good.any() else SCALE_FLOOR
        z = resid / scale
        z *= z
        d = np.sqrt((z[:, 0] + z[:, 1] + z[:, 2]) / 3)  # np.mean(…, axis=1), bit for bit, faster
        w = np.where(use & (d < 4.685), (1 - (d / 4.685) ** 2) ** 2, 0.0)
    return Lighting(field, offsets, support, w > 0)


def _of_classes(classes: np.ndarray, wanted: dict[int, np.ndarray]) -> np.ndarray:
    """``np.isin(classes, list(wanted))`` for a few classes, without its overhead."""
    out = np.zeros(classes.shape, bool)
    for c in wanted:
        out |= classes == c
    return out


@lru_cache(maxsize=16)
def _square_layout(classes: tuple[tuple[int, ...], ...]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per square (ALL_SQUARES order): its class, its centre (x, y) and the lighting basis
    there (made once per board layout; callers must not change them)."""
    cls = np.array([classes[i // SIZE][i % SIZE] for i in range(SIZE * SIZE)])
    xy = np.stack([np.arange(SIZE * SIZE) % SIZE + 0.5, np.arange(SIZE * SIZE) // SIZE + 0.5], axis=1)
    X = design(xy[:, 0], xy[:, 1])
    for a in (cls, xy, X):
        a.setflags(write=False)
    return cls, xy, X


def square_means(lin: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """Mean log colour of each square's unmasked inner pixels; ``lin`` is linear RGB blocks
    (81, n, n, 3) and ``masks`` (81, n, n) booleans."""
    # ``np.log(np.clip(lin, 0, None) + LOG_FLOOR)`` in the clipped copy's own memory.
    logc = np.clip(lin, 0, None)
    if isinstance(logc, np.ndarray) and logc.dtype.kind == "f":
        np.add(logc, LOG_FLOOR, out=logc)
        np.log(logc, out=logc)
    else:
        logc = np.log(logc + LOG_FLOOR)
    m = masks.astype(np.float32)
    # numpy sums over the pixel axes one pixel after another, 3 channels at a time (a short
    # inner loop, slow). The products laid out pixel-major, (n·n, 81, 3), are summed over
    # their first axis in that same order, all 81 × 3 sums a step: the same sums, bit for
    # bit (tests/test_board_speed_23g.py), several times faster.
    count, channels = len(logc), logc.shape[-1]
    if (
        logc.ndim == 4
        and masks.dtype == np.bool_
        and logc.dtype in (np.float32, np.float64)
        and 2 <= channels <= 4
    ):
        # The products made where they lie, a boolean mask merged to as many channels
        # (a float times True or False is the float times 1.0 or 0.0), then laid out
        # pixel-major by `cv2.transpose` of the (81, n·n) picture of ``channels``-valued
        # pixels, which copies each pixel's values as they are. numpy's multiply into the
        # transposed layout ran 3 values at a time, some ten times slower.
        np.multiply(logc, as_channels(masks, channels), out=logc)
        prod = cv2.transpose(logc.reshape(count, -1, channels))
    else:
        prod = np.empty((logc[0].size // channels, count, channels), np.result_type(logc, m))
        np.multiply(logc.reshape(count, -1, channels), m.reshape(count, -1, 1), out=prod.transpose(1, 0, 2))
    return (prod.sum(axis=0) / np.maximum(m.sum(axis=(1, 2)), 1.0)[:, None]).astype(np.float64)
