"""Round 24's exact speed-ups of shadows, noise and blurs (board24s) give the numbers of the
plain forms they replace, bit for bit. The plain forms are kept here."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.same_bits import same_bits as _same_bits
from vision.board_fast import crops_around, shifted


def _blob_map(rng: np.random.Generator, h: int, w: int, blobs: int, density: float) -> np.ndarray:
    """Some rectangles of pixels, thinned at random: pixels asked about in clusters."""
    out = np.zeros((h, w), bool)
    for _ in range(blobs):
        y, x = int(rng.integers(0, h)), int(rng.integers(0, w))
        out[y : y + int(rng.integers(1, 40)), x : x + int(rng.integers(1, 40))] = True
    return out & (rng.random((h, w)) < density)


@settings(max_examples=200, deadline=None)
@given(
    h=st.integers(1, 230),
    w=st.integers(1, 230),
    blobs=st.integers(0, 8),
    density=st.floats(0.01, 1.0),
    sigma=st.sampled_from([3.0, 7.0, 1.5]),
    channels=st.sampled_from([1, 3]),
    seed=st.integers(0, 2**32 - 1),
)
def test_a_blur_of_the_crops_is_the_whole_arrays_blur_there(h, w, blobs, density, sigma, channels, seed):
    """`crops_around`'s promise for the Gaussian blurs the reader crops (float32, one or three
    channels, OpenCV's default mirrored edge): any array size (odd widths, vector loops' tails),
    any clusters of pixels asked about."""
    rng = np.random.default_rng(seed)
    shape = (h, w) if channels == 1 else (h, w, channels)
    image = (rng.standard_normal(shape) * 10.0 ** rng.integers(-3, 3)).astype(np.float32)
    at = _blob_map(rng, h, w, blobs, density)
    whole = cv2.GaussianBlur(image, (0, 0), sigma)
    covered = np.zeros((h, w), bool)
    for region, crop in crops_around(at, int(4 * sigma) + 1):
        part = cv2.GaussianBlur(np.ascontiguousarray(image[crop]), (0, 0), sigma)
        assert _same_bits(part[shifted(region, crop)], whole[region])
        covered[region] = True
    assert not (at & ~covered).any()


def _ramp_deviation_plain(values: np.ndarray, mask: np.ndarray, at: np.ndarray) -> np.ndarray:
    """`ramp_deviation` at the ``at`` pixels before round 24: the sums blurred over the whole
    view, then taken at those pixels."""
    from vision.board_shadow_verify import RAMP_RIDGE, RAMP_SIGMA, _grid

    m = mask.astype(np.float32)
    v = values.astype(np.float32)
    yy, xx = _grid(*v.shape)
    mx_, my_, mv = m * xx, m * yy, m * v
    sums = [
        cv2.GaussianBlur(np.dstack(group), (0, 0), RAMP_SIGMA)
        for group in ((m, mx_, my_), (mx_ * xx, mx_ * yy, my_ * yy), (mv, mv * xx, mv * yy))
    ]
    pick = at.ravel()
    sums = [np.compress(pick, g.reshape(pick.size, 3), axis=0) for g in sums]
    v, xx, yy = (np.compress(pick, a.ravel()) for a in (v, xx, yy))
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


@settings(max_examples=150, deadline=None)
@given(
    h=st.integers(1, 230),
    w=st.integers(1, 230),
    blobs=st.integers(0, 8),
    density=st.floats(0.01, 1.0),
    fill=st.floats(0.0, 1.0),
    seed=st.integers(0, 2**32 - 1),
)
def test_the_ramp_at_some_pixels_is_the_whole_views_there(h, w, blobs, density, fill, seed):
    from vision.board_shadow_verify import ramp_deviation

    rng = np.random.default_rng(seed)
    values = (rng.normal(0, 0.3, (h, w)) - rng.random() * np.arange(w) / max(w, 1)).astype(np.float32)
    mask = rng.random((h, w)) < fill
    at = _blob_map(rng, h, w, blobs, density)
    got = ramp_deviation(values, mask, at)
    assert _same_bits(got, _ramp_deviation_plain(values, mask, at))
    assert _same_bits(got, ramp_deviation(values, mask)[at])


def _verified_shadow_plain(fits, dimmed, log_dim, line, ppu, line_px):
    """`verified_shadow` before round 24: the ramp tested at every shaded pixel of the box."""
    import vision.board_shadow_verify as sv

    out = np.zeros(dimmed.shape, bool)
    if int(dimmed.sum()) < sv.MIN_BRIDGED:
        return out
    n = dimmed.shape[0]
    idx = np.arange(n) % ppu
    at_line = (idx == line_px) | (idx == ppu - 1 - line_px)
    at_line[[line_px, n - 1 - line_px]] = False
    rows, cols = np.flatnonzero(dimmed.any(axis=1)), np.flatnonzero(dimmed.any(axis=0))
    r0, r1 = max(0, (rows[0] // ppu - 1) * ppu), min(n, (rows[-1] // ppu + 2) * ppu)
    c0, c1 = max(0, (cols[0] // ppu - 1) * ppu), min(n, (cols[-1] // ppu + 2) * ppu)
    box = (slice(r0, r1), slice(c0, c1))
    v = log_dim[box]
    shaded = dimmed[box] & ~line[box]
    shaded[shaded] = _ramp_deviation_plain(v, fits[box], shaded) < sv.MATCH
    bridged = sv._bridge_ends(shaded, v, ppu, line_px)
    edge = shaded & (at_line[r0:r1, None] | at_line[None, c0:c1])
    count, lab = cv2.connectedComponents(shaded.astype(np.uint8), connectivity=8)
    patch = lab > 0
    outline = patch & ~(cv2.erode(patch.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0)
    length = np.bincount(lab[outline], minlength=count)
    linked = np.bincount(lab[edge & bridged], minlength=count)
    cut = np.bincount(lab[edge & ~bridged], minlength=count)
    area = np.bincount(lab.ravel(), minlength=count)
    keep = (linked >= sv.MIN_BRIDGED) & (linked * sv.LONG * ppu >= area) & (cut <= sv.CUT_SHARE * length)
    keep[0] = False
    out[box] = keep[lab]
    return out


def _grid_lines(n: int, ppu: int, line_px: int) -> np.ndarray:
    idx = np.arange(n) % ppu
    near = np.minimum(idx, ppu - 1 - idx) < line_px
    return near[:, None] | near[None, :]


@settings(max_examples=150, deadline=None)
@given(
    shadows=st.integers(0, 6),
    noise=st.floats(0.0, 0.2),
    speckle=st.floats(0.0, 0.3),
    seed=st.integers(0, 2**32 - 1),
)
def test_the_shadow_verified_on_the_patches_that_may_be_kept_is_the_plain_ones(shadows, noise, speckle, seed):
    """Shadows (bands and blocks of dimming, some with a ramp, some ending at a square's
    lines) over a noisy view with speckles of dimmed pixels: the same pixels verified."""
    from vision.board_shadow_verify import verified_shadow

    rng = np.random.default_rng(seed)
    ppu, line_px = 24, 2
    n = 9 * ppu
    line = _grid_lines(n, ppu, line_px)
    log_dim = rng.normal(0, noise, (n, n)).astype(np.float32)
    for _ in range(shadows):
        y, x = int(rng.integers(0, n)), int(rng.integers(0, n))
        hh, ww = int(rng.integers(3, 90)), int(rng.integers(3, 90))
        depth = -rng.uniform(0.1, 1.5)
        ramp = rng.uniform(-0.05, 0.05) * np.arange(ww)
        log_dim[y : y + hh, x : x + ww] += (depth + ramp[None, :])[: n - y, : n - x].astype(np.float32)
    log_dim[rng.random((n, n)) < speckle] -= 0.5
    dimmed = (log_dim < -0.105) & ~line
    fits = ~line & (rng.random((n, n)) < 0.95)
    got = verified_shadow(fits, dimmed & fits, log_dim, line, ppu, line_px)
    assert np.array_equal(got, _verified_shadow_plain(fits, dimmed & fits, log_dim, line, ppu, line_px))


@settings(max_examples=150, deadline=None)
@given(
    h=st.integers(1, 80),
    w=st.integers(1, 80),
    r=st.integers(0, 20),
    p=st.floats(0.0, 1.0),
    seed=st.integers(0, 2**32 - 1),
)
def test_window_counts_are_the_float_box_sums(h, w, r, p, seed):
    from vision.board_surface import _box, _window_counts

    rng = np.random.default_rng(seed)
    wt = (rng.random((h, w)) < p).astype(np.float32)
    classes = rng.integers(0, 3, (h, w))
    dark, light = (classes == 0).astype(np.float32), (classes == 1).astype(np.float32)
    counts = _window_counts(wt, (classes == 0).view(np.uint8), (classes == 1).view(np.uint8), r)
    for c, want in enumerate((_box(wt, r), _box(wt * dark, r), _box(wt * light, r))):
        assert _same_bits(np.ascontiguousarray(counts[..., c]), want)


@pytest.fixture(scope="module")
def real_surfaces():
    """`analyse`'s arguments on three tune scenes (two with a hand), as `judge_squares` made them."""
    import vision.board_squares as board_squares
    from vision.board_reader import read_board
    from vision.board_synth import scene

    calls = []
    analyse = board_squares.analyse
    board_squares.analyse = lambda *a, **k: calls.append((a, k)) or analyse(*a, **k)
    try:
        for index in (2, 10, 25):
            read_board(scene("tune", index).image)
    finally:
        board_squares.analyse = analyse
    return calls


def _plain_local_light(lin, pred, w, r, lam_a, lam_b, sums=None, sw=None):
    """`_local_light` before round 24: its own window sum of the weights."""
    from vision.board_surface import _box, _light_sums

    pp, pl, ps, ls = _light_sums(lin, pred) if sums is None else sums
    sw = _box(w, r)
    a11 = _box(w * pp, r) + lam_a
    a12 = _box(w * ps, r)
    a22 = 3 * sw + lam_b
    r1 = _box(w * pl, r) + lam_a
    r2 = _box(w * ls, r)
    det = a11 * a22 - a12 * a12
    det = np.where(np.abs(det) < 1e-12, 1e-12, det)
    return (r1 * a22 - a12 * r2) / det, (a11 * r2 - a12 * r1) / det


def _plain_window_counts(w, dark, light, r):
    from vision.board_surface import _box

    d, li = dark.astype(np.float32), light.astype(np.float32)
    return np.dstack([_box(w, r), _box(w * d, r), _box(w * li, r)])


def test_real_frames_read_as_with_the_plain_forms(real_surfaces, monkeypatch):
    """The whole surface analysis of real frames, with the plain forms patched back in, is the
    same, pixel for pixel."""
    import vision.board_shadow_verify as board_shadow_verify
    import vision.board_surface as board_surface

    new = [board_surface.analyse(*a, **k) for a, k in real_surfaces]
    monkeypatch.setattr(board_shadow_verify, "verified_shadow", _verified_shadow_plain)
    monkeypatch.setattr(board_surface, "verified_shadow", _verified_shadow_plain)
    monkeypatch.setattr(board_surface, "_local_light", _plain_local_light)
    monkeypatch.setattr(board_surface, "_window_counts", _plain_window_counts)
    plain = [board_surface.analyse(*a, **k) for a, k in real_surfaces]
    assert len(new) == 3
    for x, y in zip(new, plain, strict=True):
        for name in ("good", "foreign", "hidden", "outside", "reach"):
            assert np.array_equal(getattr(x, name), getattr(y, name)), name
        assert x.noise == y.noise


def test_real_frames_verify_the_same_shadows(real_surfaces, monkeypatch):
    """`verified_shadow` on the real frames' own arguments: the same pixels as the plain form."""
    import vision.board_surface as board_surface
    from vision.board_shadow_verify import verified_shadow

    seen = []
    monkeypatch.setattr(board_surface, "verified_shadow", lambda *a: seen.append(a) or verified_shadow(*a))
    for a, k in real_surfaces:
        board_surface.analyse(*a, **k)
    assert len(seen) == 3
    for args in seen:
        got = verified_shadow(*args)
        assert np.array_equal(got, _verified_shadow_plain(*args))
    assert sum(int(verified_shadow(*args).sum()) for args in seen) > 0  # some shadow verified
