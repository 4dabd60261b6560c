"""Round 13's speed-ups give the same numbers, bit for bit, as the computations they replace
(as tests/test_board_speed.py does for the earlier ones)."""

from __future__ import annotations

import numpy as np

RNG = np.random.default_rng(20261130)


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
