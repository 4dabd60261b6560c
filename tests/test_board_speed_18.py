"""Round 18's speed-ups give the same numbers, bit for bit, as the plain forms they replace
(as tests/test_board_speed.py and tests/test_board_speed_more.py do for earlier rounds)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.plain_median import median_by_partition

RNG = np.random.default_rng(20261201)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_levels_in_one_buffer_are_the_plain_formula(dtype):
    from vision.board_surface import to_levels

    for _ in range(20):
        lin = RNG.uniform(-0.2, 1.3, (int(RNG.integers(1, 217)), 216, 3)).astype(dtype)
        lin[RNG.random(lin.shape) < 0.01] = np.nan
        got = to_levels(lin)
        want = 255.0 * np.clip(lin, 0, 1) ** (1 / 2.2)
        assert got.dtype == want.dtype == dtype
        assert np.array_equal(got, want, equal_nan=True)
    lin = RNG.uniform(0, 1, (50, 50, 3)).astype(np.float32)
    before = lin.copy()
    to_levels(lin)
    assert np.array_equal(lin, before)  # the input is left as it was


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_noise_curve_in_one_buffer_is_the_plain_formula(dtype):
    from vision.board_surface import _noise_curve

    for _ in range(20):
        level = RNG.uniform(0, 255, (216, 216, 3)).astype(dtype)
        rows = [[1.0, float(v) ** 2] for v in np.sort(RNG.uniform(10, 240, 8))]
        ys = [float(v) for v in RNG.uniform(2, 60, 8) ** 2]
        got = _noise_curve(rows, ys, level)
        # The fit as _noise_curve makes it, then the plain form of its last line.
        X, y = np.array(rows), np.array(ys)
        keep = np.ones(len(y), bool)
        while True:
            coef = np.linalg.lstsq(X[keep], y[keep], rcond=None)[0]
            fit = np.maximum(X @ coef, 1.5**2)
            worst = int(np.argmax(np.where(keep, y / fit, 0.0)))
            if y[worst] <= 1.6**2 * fit[worst] or keep.sum() <= 4:
                break
            keep[worst] = False
        s0, k = max(float(coef[0]), 1.5**2), max(float(coef[1]), 0.0)
        want = np.sqrt(s0 + k * level * level).astype(np.float32)
        assert got.dtype == np.float32
        assert np.array_equal(got, want)


def _widen_by_dilation(palette: np.ndarray) -> np.ndarray:
    """The widened palette as round 15 made it: two OpenCV dilations of the whole cube."""
    nb = palette.shape[0]
    p8 = palette.astype(np.uint8)
    across = cv2.dilate(p8.reshape(nb, nb, nb), cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3)))
    along = cv2.dilate(p8.reshape(nb * nb, nb), np.ones((1, 3), np.uint8))
    return (across.reshape(nb, nb, nb) | along.reshape(nb, nb, nb)) > 0


def test_widened_palette_by_index_is_the_dilated_cube():
    from vision.board_surface import _widen

    for share in (0.0, 0.0002, 0.003, 0.05, 0.5, 1.0):
        p = RNG.random((32, 32, 32)) < share
        p[0, 0, 0] = p[31, 31, 31] = share > 0.01  # the cube's corners: no wrap-around
        got = _widen(p)
        assert got.shape == p.shape and got.dtype == bool
        assert np.array_equal(got, _widen_by_dilation(p))


def _grown_plain(blobs: np.ndarray, allowed: np.ndarray, ppu: int) -> np.ndarray:
    """`board_surface._grown` before round 18: every step over the whole view."""
    from vision.board_surface import LINE_PX, REACH

    jump = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (4 * LINE_PX + 3,) * 2)
    grown = cv2.dilate(blobs.astype(np.uint8), jump) & allowed.astype(np.uint8)
    step = np.ones((3, 3), np.uint8)
    for _ in range(round(REACH * ppu)):
        nxt = cv2.dilate(grown, step) & allowed.astype(np.uint8)
        if np.array_equal(nxt, grown):
            break
        grown = nxt
    return grown > 0


def test_growing_in_the_allowed_box_is_growing_over_the_view():
    from vision.board_surface import _grown

    n = 216
    for t in range(60):
        blobs = np.zeros((n, n), np.uint8)
        allowed = np.zeros((n, n), np.uint8)
        for _ in range(int(RNG.integers(0, 4))):
            c = (int(RNG.integers(0, n)), int(RNG.integers(0, n)))
            cv2.circle(blobs, c, int(RNG.integers(3, 40)), 1, -1)
        for _ in range(int(RNG.integers(0, 6))):
            c = (int(RNG.integers(0, n)), int(RNG.integers(0, n)))
            axes = (int(RNG.integers(2, 70)), int(RNG.integers(1, 12)))
            cv2.ellipse(allowed, c, axes, float(RNG.uniform(0, 180)), 0, 360, 1, -1)
        if t % 3 == 0:
            allowed |= (RNG.random((n, n)) < 0.3).astype(np.uint8)  # speckle: long thin paths
        if t % 7 == 0:
            allowed[:, :2] = 1  # the view's edge
        got = _grown(blobs > 0, allowed > 0, 24)
        assert np.array_equal(got, _grown_plain(blobs > 0, allowed > 0, 24))


def test_marker_sides_all_at_once_are_each_markers_mean_side():
    for n in (1, 2, 7, 40):
        corners = RNG.uniform(-1, 10, (n, 4, 2)) * RNG.choice([1e-3, 1.0, 1e3], (n, 1, 1))
        d = corners - np.roll(corners, 1, axis=1)
        got = np.mean(np.sqrt(d[..., 0] * d[..., 0] + d[..., 1] * d[..., 1]), axis=1).tolist()
        want = [float(np.mean(np.linalg.norm(c - np.roll(c, 1, axis=0), axis=1))) for c in corners]
        assert got == want


def test_marker_faces_are_remembered_and_equal_to_fresh_ones():
    from vision.markers import MARKER_COUNT, Face, Piece, marker_face

    for i in range(-2, MARKER_COUNT + 2):
        face = marker_face(i)
        assert face is marker_face(i)
        if 0 <= i < 36:
            assert face == Face(Piece(i), dead=False)
        elif 36 <= i < 72:
            assert face == Face(Piece(i - 36), dead=True)
        else:
            assert face is None


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_median_of_a_short_array_by_sorting_is_the_partitions(dtype):
    from vision.board_fast import SORT_BELOW, median

    short = SORT_BELOW // np.dtype(dtype).itemsize
    for n in (1, 2, 3, 4, 9, 80, 81, 400, 401, short - 1, short, short + 1, 3000):
        for _ in range(10):
            a = RNG.normal(0, RNG.choice([1e-3, 1.0, 1e3]), n).astype(dtype)
            kind = int(RNG.integers(0, 4))
            if kind == 1:
                a = np.round(a)  # ties
            elif kind == 2:
                a[RNG.random(n) < 0.5] = 0.0
                a[RNG.random(n) < 0.5] *= -1  # zeros of both signs
            elif kind == 3 and n > 2:
                a[int(RNG.integers(0, n))] = np.nan
            want = median_by_partition(a)
            got = median(a)
            assert type(got) is type(want)
            if np.isnan(want):
                assert np.isnan(got)
            else:
                assert got.tobytes() == want.tobytes()  # bit for bit, a zero's sign included
            if not np.isnan(want) and want != 0:
                assert got == np.median(a)
