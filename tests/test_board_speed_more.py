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


def test_the_cached_grid_is_the_grid_ramp_deviation_made_before():
    # Round 13's whole-view ramp differs from the earlier one only in taking its coordinates
    # from this cache instead of np.mgrid each call: the same values, and never written to.
    from vision.board_shadow_verify import _grid

    for h, w in ((24, 216), (216, 24), (216, 216), (37, 91)):
        yy, xx = _grid(h, w)
        want_y, want_x = np.mgrid[0:h, 0:w].astype(np.float32)
        assert yy.dtype == xx.dtype == np.float32
        assert np.array_equal(yy, want_y) and np.array_equal(xx, want_x)
        assert not yy.flags.writeable and not xx.flags.writeable
        assert _grid(h, w)[0] is yy  # made once per size


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


def test_the_cached_light_of_a_spot_adds_up_as_the_plain_sum():
    # Round 16 caches each spot's light over the view (lamp_light checks a spot, board_light
    # adds up the kept ones): the lamp light is the plain sum bit for bit, round or elliptic,
    # and the cached arrays are never written to.
    from vision.board_glare import Spot, _bump, _grid, _spot_light, spot_map

    vv, uu = _grid(216, 216)
    for t in range(20):
        spots = [
            Spot(*(float(x) for x in RNG.uniform([-20, -20, 5, 0.02], [236, 236, 60, 0.8])))
            for _ in range(int(RNG.integers(1, 4)))
        ]
        if t % 2:
            spots[0] = spots[0]._replace(aspect=float(RNG.uniform(1, 1.3)), angle=float(RNG.uniform(-3, 3)))
        want = np.zeros((216, 216), np.float32)
        for s in spots:
            want += s.amplitude * _bump(uu, vv, s)
        for _ in range(2):  # made, then taken from the cache
            got = spot_map(spots, (216, 216))
            assert got.dtype == np.float32 and np.array_equal(got, want)
        assert not _spot_light(spots[0], (216, 216)).flags.writeable
