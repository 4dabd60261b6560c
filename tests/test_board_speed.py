"""The board reader's speed-ups give the same numbers, bit for bit, as the straightforward
computations they replace (vision.board_fast and the shortcuts inside the reader)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.board_fast import HALVING_MARGIN, box_around, median, pyr_down_around, split_quantiles
from vision.board_glare import _disc_box
from vision.board_hands import _grown_by, _labels_in, _labels_near, _row_runs, _runs, _slope
from vision.board_surface import colour_bins, csum

RNG = np.random.default_rng(20261130)


def _samples(count: int) -> list[np.ndarray]:
    """Float arrays of many sizes, scales and both float dtypes, some with ties."""
    out = []
    for k in range(count):
        n = int(RNG.integers(1, 400))
        a = RNG.standard_normal(n) * 10.0 ** int(RNG.integers(-4, 5))
        if k % 5 == 0:
            a = np.round(a, 1)
        out.append(a.astype(np.float32 if k % 2 else np.float64))
    return out


def test_median_is_numpys_bit_for_bit():
    for a in _samples(600):
        want = np.median(a)
        got = median(a)
        assert got == want and got.dtype == want.dtype
        # A difference of two medians stays in the array's dtype, as with numpy's.
        assert float(median(a) - median(a[::-1] * 2)) == float(np.median(a) - np.median(a[::-1] * 2))
    grid = RNG.random((7, 5, 3)).astype(np.float32)
    assert median(grid) == np.median(grid)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", [1, 2, 3, 4, 5000, 100_001])
def test_a_median_of_signed_zeros_is_numpys_positive_zero(dtype, n) -> None:
    # Each path (sort, partition, bins) with -0.0 in the middle: numpy's mean makes it +0.0.
    a = np.full(n, -0.0, dtype)
    a[::3] = 0.0
    if n > 2:
        a[0], a[-1] = -1.0, 1.0
    want, got = np.median(a), median(a)
    assert got == want and np.signbit(got) == np.signbit(want) == False  # noqa: E712
    assert got.dtype == want.dtype


def test_median_keeps_nan():
    assert np.isnan(median(np.array([1.0, np.nan, 2.0])))


def test_split_quantiles_match_per_part_quantiles():
    for a in _samples(300):
        if a.size < 8:
            continue
        order = np.argsort(a)
        e = np.abs(RNG.standard_normal(a.size)).astype(a.dtype)
        want = [float(np.quantile(e[p], 0.25)) for p in np.array_split(order, 8)]
        assert split_quantiles(e, order, 8, 0.25) == want


@pytest.mark.parametrize("times", [1, 2, 3])
def test_pyr_down_around_is_exact_inside_its_box(times):
    for _ in range(60):
        h, w = int(RNG.integers(40, 500)), int(RNG.integers(40, 700))
        img = RNG.integers(0, 256, (h, w, 3), dtype=np.uint8)
        full = img
        for _ in range(times):
            full = cv2.pyrDown(full)
        H, W = full.shape[:2]
        x0, y0 = int(RNG.integers(-5, W)), int(RNG.integers(-5, H))
        x1, y1 = int(RNG.integers(x0 + 1, W + 6)), int(RNG.integers(y0 + 1, H + 6))
        got = pyr_down_around(img, times, (x0, y0, x1, y1))
        assert got.shape == full.shape
        inside = (slice(max(0, y0), max(0, min(H, y1))), slice(max(0, x0), max(0, min(W, x1))))
        assert np.array_equal(got[inside], full[inside])


def test_pyr_down_around_needs_its_margin(monkeypatch):
    """The margin matters: without it the crop's own mirrored edges show inside the box."""
    import vision.board_fast as fast

    monkeypatch.setattr(fast, "HALVING_MARGIN", 0)
    img = RNG.integers(0, 256, (400, 600, 3), dtype=np.uint8)
    box = (60, 50, 200, 150)
    got = fast.pyr_down_around(img, 1, box)
    assert not np.array_equal(got[50:150, 60:200], cv2.pyrDown(img)[50:150, 60:200])
    assert HALVING_MARGIN > 0


def test_colour_bins_equal_a_floor_division():
    levels = np.concatenate(
        [
            np.arange(-20, 300, 0.125, dtype=np.float32),
            np.nextafter(np.arange(0, 300, 8, dtype=np.float32), np.float32(0)),
            RNG.uniform(-50, 400, 3000).astype(np.float32),
        ]
    )
    levels = levels[: len(levels) // 3 * 3].reshape(-1, 3)
    for lv in (levels, levels.astype(np.float64), levels * np.float32(1.1)):
        q = np.clip(lv // 8, 0, 31).astype(np.int32)
        want = (q[..., 0] * 32 + q[..., 1]) * 32 + q[..., 2]
        assert np.array_equal(colour_bins(lv), want)


def test_channel_sums_are_numpys_last_axis_sums():
    """csum (and the channel-by-channel sums of board_regions) add the channels in the order
    numpy's ``sum(axis=-1)`` does: the same float32 numbers."""
    x = (RNG.random((100, 100, 3)) ** 3 * RNG.choice([1e-3, 1.0, 1e3], (100, 100, 3))).astype(np.float32)
    assert np.array_equal(csum(x), x.sum(axis=2))
    rows = x.reshape(-1, 3)
    assert np.array_equal(rows[:, 0] + rows[:, 1] + rows[:, 2], rows.sum(axis=1))


def test_widened_palette_is_the_six_neighbour_dilation():
    from vision.board_surface import _widen

    for share in (0.0005, 0.01, 0.2):
        p = RNG.random((32, 32, 32)) < share
        want = p.copy()
        for axis in range(3):
            want |= np.roll(p, 1, axis) & (np.arange(32) > 0).reshape(
                [-1 if a == axis else 1 for a in range(3)]
            )
            want |= np.roll(p, -1, axis) & (np.arange(32) < 31).reshape(
                [-1 if a == axis else 1 for a in range(3)]
            )
        assert np.array_equal(_widen(p), want)


def test_disc_box_holds_every_pixel_of_the_disc():
    h, w = 108, 108
    vv, uu = np.mgrid[0:h, 0:w].astype(np.float32)
    for _ in range(300):
        cu, cv = (float(v) for v in RNG.uniform(-60, 170, 2))
        radius = float(RNG.uniform(0.5, 120))
        disc = (uu - cu) ** 2 + (vv - cv) ** 2 < radius**2
        box = _disc_box(cu, cv, radius, (h, w))
        if box is None:
            assert not disc.any()
            continue
        outside = disc.copy()
        outside[box] = False
        assert not outside.any()
        # The same pixels in the same order as over the whole view.
        assert np.array_equal(uu[box][disc[box]], uu[disc])
    assert _disc_box(float("nan"), 3.0, 5.0, (h, w)) is None


def test_runs_of_all_rows_at_once():
    for _ in range(500):
        a = RNG.random((int(RNG.integers(1, 10)), int(RNG.integers(1, 25)))) < RNG.random()
        assert _row_runs(a) == [_runs(r) for r in a]


def test_slope_is_polyfits():
    for _ in range(2000):
        n = int(RNG.integers(3, 10))
        at = tuple(float(d) for d in range(n))
        ends = tuple(float(v) for v in np.cumsum(RNG.integers(-3, 4, n)) + 10)
        assert _slope(at, ends) == float(np.polyfit(np.asarray(at), np.asarray(ends), 1)[0])


def test_labels_near_is_the_whole_view_dilation():
    for _ in range(40):
        blobs = np.zeros((216, 216), np.uint8)
        for _ in range(int(RNG.integers(1, 6))):
            x, y, r = (int(v) for v in RNG.integers(0, 216, 3))
            cv2.circle(blobs, (x, y), r % 20 + 2, 1, -1)
        patches = np.zeros((216, 216), np.uint8)
        for _ in range(int(RNG.integers(1, 12))):
            x, y = (int(v) for v in RNG.integers(0, 210, 2))
            patches[y : y + int(RNG.integers(2, 20)), x : x + int(RNG.integers(2, 20))] = 1
        count, lab = cv2.connectedComponents(patches, connectivity=8)
        wanted = RNG.random(count) < 0.5
        wanted[0] = False
        radius = int(RNG.integers(1, 30))
        want = wanted & _labels_in(lab, _grown_by(blobs > 0, radius) > 0, count)
        assert np.array_equal(_labels_near(lab, count, wanted, blobs > 0, radius), want)


def test_box_around():
    mask = np.zeros((50, 60), bool)
    mask[10:12, 40:45] = True
    assert box_around(mask, 3) == (slice(7, 15), slice(37, 48))
    assert box_around(mask, 20) == (slice(0, 32), slice(20, 60))


def _shadow_direction_whole_view(hands, log_dim, usable):
    """vision.board_hands.shadow_direction as it was, over the whole view (the direction
    taken from the rings' dimming is the module's own)."""
    import math

    from vision.board_hands import DIRECTIONS, RING, RING_PIXELS, _pointing, _shifted

    grown = cv2.dilate(hands.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    dim = np.clip(-log_dim, 0.0, None)
    ways, seen = [], []
    for k in range(DIRECTIONS):
        t = 2 * math.pi * k / DIRECTIONS
        u = np.array([math.cos(t), math.sin(t)])
        ring = np.zeros_like(hands)
        for step in range(RING[0], RING[1] + 1):
            ring |= _shifted(hands, round(step * u[0]), round(step * u[1]))
        ring &= usable & ~grown
        if ring.sum() >= RING_PIXELS:
            ways.append(u)
            seen.append(float(dim[ring].mean()))
    return _pointing(ways, seen)


def test_shadow_direction_looks_around_the_hands_only():
    from vision.board_hands import shadow_direction

    found = 0
    for _ in range(40):
        hands = np.zeros((216, 216), np.uint8)
        x, y = (int(v) for v in RNG.integers(0, 216, 2))
        cv2.ellipse(
            hands,
            (x, y),
            (int(RNG.integers(5, 60)), int(RNG.integers(5, 30))),
            float(RNG.uniform(0, 180)),
            0,
            360,
            1,
            -1,
        )
        hands = hands > 0
        dx, dy = (int(v) for v in RNG.integers(-6, 7, 2))
        shadow = np.roll(np.roll(hands, dy, 0), dx, 1) & ~hands
        log_dim = (RNG.normal(0, 0.02, hands.shape) - 0.5 * shadow).astype(np.float32)
        usable = RNG.random(hands.shape) < 0.9
        want = _shadow_direction_whole_view(hands, log_dim, usable)
        got = shadow_direction(hands, log_dim, usable)
        assert (got is None) == (want is None)
        if want is not None:
            found += 1
            assert np.array_equal(got, want)
    assert found > 10


def test_top_view_halves_only_what_it_reads():
    from vision.board_squares import PPU, top_view

    img = RNG.integers(0, 256, (1080, 1920, 3), dtype=np.uint8)
    img = cv2.GaussianBlur(img, (0, 0), 2)
    for _ in range(6):
        # A board of 9 squares, 70–110 px each, somewhere in the frame, a little tilted.
        side = float(RNG.uniform(70, 110))
        x0, y0 = float(RNG.uniform(-100, 1920 - 9 * side)), float(RNG.uniform(50, 1080 - 9 * side))
        src = np.array([[0, 0], [9, 0], [9, 9], [0, 9]], np.float64)
        dst = np.array(
            [[x0, y0 + 9 * side], [x0 + 9 * side, y0 + 9 * side], [x0 + 9 * side + 20, y0], [x0 - 15, y0]]
        )
        dst = dst + RNG.normal(0, 8, dst.shape)
        H = cv2.getPerspectiveTransform(src.astype(np.float32), dst.astype(np.float32))
        half = img
        scale = 1.0
        px = np.sqrt(abs(np.linalg.det(H[:2, :2]))) / max(abs(H[2, 2]), 1e-9)
        while px * scale > 2.5 * PPU and min(half.shape[:2]) > 64:
            half = cv2.pyrDown(half)
            scale /= 2
        T = np.array([[1 / PPU, 0, 0], [0, -1 / PPU, 9], [0, 0, 1]])
        M = np.diag([scale, scale, 1.0]) @ H @ T
        want = cv2.warpPerspective(
            half,
            M,
            (9 * PPU, 9 * PPU),
            flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
            borderMode=cv2.BORDER_CONSTANT,
        )
        assert np.array_equal(top_view(img, H), want)


def test_closing_in_its_box_is_the_whole_views():
    from vision.board_surface import _closing

    for t in range(200):
        mask = np.zeros((216, 216), np.uint8)
        for _ in range(int(RNG.integers(0, 6))):
            x, y = (int(v) for v in RNG.integers(-20, 236, 2))
            axes = (int(RNG.integers(1, 40)), int(RNG.integers(1, 20)))
            cv2.ellipse(mask, (x, y), axes, float(RNG.uniform(0, 180)), 0, 360, 1, -1)
        size = 35 if t % 2 else 2 * int(RNG.integers(1, 20)) + 1
        kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
        want = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel) > 0
        assert np.array_equal(_closing(mask > 0, kernel), want)


def test_neighbour_pairs_are_every_dark_light_edge_once_and_triples_are_seeded():
    from vision.board_geometry import DARK, LIGHT, SIZE, default_classes
    from vision.board_lighting import CONSENSUS_TRIALS, _neighbour_pairs, _trial_triples

    classes = default_classes()
    dark, light = _neighbour_pairs(classes)
    cls = [classes[i // SIZE][i % SIZE] for i in range(SIZE * SIZE)]
    # Every side two squares share (right and upper neighbours) that joins dark and light:
    # 140 of the 144 (the maze in the middle is neither).
    sides = [(i, i + 1) for i in range(SIZE * SIZE) if i % SIZE < SIZE - 1]
    sides += [(i, i + SIZE) for i in range(SIZE * SIZE - SIZE)]
    want = {frozenset(p) for p in sides if {cls[p[0]], cls[p[1]]} == {DARK, LIGHT}}
    assert len(want) == 140
    assert all(cls[i] == DARK and cls[j] == LIGHT for i, j in zip(dark, light, strict=True))
    assert {frozenset(p) for p in zip(dark.tolist(), light.tolist(), strict=True)} == want
    assert len(dark) == len(want)  # each side once
    assert list(dark) == sorted(dark)  # dark squares in ALL_SQUARES order, as the loop took them
    for n in (5, 40, 81):
        rng = np.random.default_rng(0)
        want = np.argsort(rng.random((CONSENSUS_TRIALS, n)), axis=1)[:, :3]
        assert np.array_equal(_trial_triples(n), want)
        assert not _trial_triples(n).flags.writeable  # cached: callers must not change it


def test_or_shifted_is_an_or_with_the_shifted_copy():
    from vision.board_hands import _or_shifted, _shifted

    for _ in range(300):
        mask = RNG.random((int(RNG.integers(8, 40)), int(RNG.integers(8, 40)))) < 0.2
        out = RNG.random(mask.shape) < 0.1
        dx, dy = (int(v) for v in RNG.integers(-7, 8, 2))
        want = out | _shifted(mask, dx, dy)
        _or_shifted(out, mask, dx, dy)
        assert np.array_equal(out, want)


def test_column_var_is_numpys():
    from vision.board_fast import column_var

    for t in range(300):
        n = int(RNG.integers(1, 50000)) if t % 3 else int(RNG.integers(1, 40))
        c = 3 if t % 4 else int(RNG.integers(1, 6))
        x = (RNG.random((n, c)) ** RNG.uniform(0.3, 4) * 10.0 ** int(RNG.integers(-3, 3))).astype(np.float32)
        if t % 7 == 0:
            x = np.round(x, 2)
        want = np.var(x, axis=0)
        got = column_var(x)
        assert got.dtype == want.dtype and np.array_equal(got, want)
        assert float(got.sum()) == float(want.sum())


def _noise_as_it_was(resid, level, sel):
    """vision.board_surface._noise with numpy's own median, quantile and boolean index (the
    curve fitted to them is the module's own)."""
    from vision.board_surface import NOISE_BINS, NOISE_QUANTILE, NOISE_SCALE, _noise_curve

    sub = (slice(None, None, 3), slice(None, None, 3))
    s3 = sel[sub]
    v, e = level[sub][s3].ravel(), np.abs(resid[sub][s3]).ravel()
    if len(v) < 100:
        return np.full(level.shape, 4.0, np.float32)
    order = np.argsort(v)
    rows, ys = [], []
    for part in np.array_split(order, NOISE_BINS):
        rows.append([1.0, float(np.median(v[part])) ** 2])
        ys.append((NOISE_SCALE * float(np.quantile(e[part], NOISE_QUANTILE))) ** 2)
    return _noise_curve(rows, ys, level)


@pytest.mark.parametrize("channels", [0, 3])
def test_noise_is_the_same_as_with_numpys_statistics(channels):
    from vision.board_surface import _noise

    for _ in range(20):
        shape = (120, 120) if not channels else (120, 120, channels)
        level = RNG.uniform(20, 240, shape).astype(np.float32)
        resid = RNG.normal(0, RNG.uniform(1, 8), shape).astype(np.float32)
        resid[RNG.random(shape) < 0.2] = 60.0
        sel = RNG.random((120, 120)) < RNG.uniform(0.05, 1.0)
        assert np.array_equal(_noise(resid, level, sel), _noise_as_it_was(resid, level, sel))
