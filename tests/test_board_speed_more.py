"""Round 13's speed-ups give the same numbers, bit for bit, as the computations they replace
(as tests/test_board_speed.py does for the earlier ones)."""

from __future__ import annotations

import numpy as np

RNG = np.random.default_rng(20261130)


def _ramp_deviation_as_it_was(values: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """vision.board_shadow_verify.ramp_deviation before round 13: its own grid, its products
    stacked with np.dstack."""
    import cv2

    from vision.board_shadow_verify import RAMP_RIDGE, RAMP_SIGMA

    m = mask.astype(np.float32)
    v = values.astype(np.float32)
    h, w = v.shape
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    mx_, my_, mv = m * xx, m * yy, m * v
    sums = [
        cv2.GaussianBlur(np.dstack(group), (0, 0), RAMP_SIGMA)
        for group in ((m, mx_, my_), (mx_ * xx, mx_ * yy, my_ * yy), (mv, mv * xx, mv * yy))
    ]
    s = np.maximum(sums[0][..., 0], 1e-6)
    mx, my = sums[0][..., 1] / s, sums[0][..., 2] / s
    cxx = sums[1][..., 0] / s - mx * mx + RAMP_RIDGE
    cxy = sums[1][..., 1] / s - mx * my
    cyy = sums[1][..., 2] / s - my * my + RAMP_RIDGE
    mean = sums[2][..., 0] / s
    cvx = sums[2][..., 1] / s - mean * mx
    cvy = sums[2][..., 2] / s - mean * my
    det = np.maximum(cxx * cyy - cxy * cxy, 1e-6)
    gx = (cvx * cyy - cvy * cxy) / det
    gy = (cvy * cxx - cvx * cxy) / det
    return np.abs(v - (mean + gx * (xx - mx) + gy * (yy - my)))


def test_ramp_deviation_at_some_pixels_is_the_whole_views_there():
    from vision.board_shadow_verify import ramp_deviation

    for t in range(40):
        h, w = (int(v) for v in RNG.integers(24, 217, 2))
        values = (RNG.normal(0, 0.3, (h, w)) - (RNG.random() * np.arange(w) / w)).astype(np.float32)
        if t % 2:
            values = values.astype(np.float64)  # made float32 inside, either way
        mask = RNG.random((h, w)) < RNG.uniform(0.1, 1.0)
        at = RNG.random((h, w)) < RNG.uniform(0.0, 0.3)
        full = ramp_deviation(values, mask)
        got = ramp_deviation(values, mask, at)
        assert got.dtype == full.dtype == np.float32
        assert np.array_equal(got, full[at])
        assert np.array_equal(full, _ramp_deviation_as_it_was(values, mask))


def test_clipped_case_only_where_saturated_is_the_whole_views_where():
    from vision.board_surface import SATURATED, _at_saturated

    for t in range(200):
        shape = (40, 50, 3) if t % 2 else (40, 50)
        model = RNG.uniform(0, 270, shape).astype(np.float32)
        levels = RNG.uniform(0, 255, shape).astype(np.float32)
        saturated = RNG.random(shape) < [0.0, 0.001, 0.05, 0.5][t % 4]
        ceiling = SATURATED if t % 3 else 1.0
        want = np.where(saturated, np.maximum(ceiling - model, 0.0), levels - model)
        got = _at_saturated(levels - model, saturated, ceiling, model)
        assert got.dtype == want.dtype and np.array_equal(got, want)
