"""Round 24's exact speed-ups of shadows, noise and blurs (board24s) give the numbers of the
plain forms they replace, bit for bit. The plain forms are kept here."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.line_scenes import lines_scene
from tests.plain_median import median_by_partition
from tests.recorded_calls import analyse_calls, calls_within_analyse
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
    bridged = _bridge_ends_plain(shaded, v, ppu, line_px)
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
    return analyse_calls((2, 10, 25))


def _plain_local_light(lin, pred, w, r, lam_a, lam_b, sums=None, sw=None):
    """`_local_light` before round 24: its own window sum of the weights."""
    from vision.board_surface import _box, _light_sums

    pp, pl, ps, ls = _light_sums(lin, pred) if sums is None else sums
    w = w.astype(np.float32)  # (board27a: `analyse`'s weights are booleans, the same numbers)
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
    w = w.astype(np.float32)  # (board27a: `analyse`'s weights are booleans, the same numbers)
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
    monkeypatch.setattr(board_surface, "_shadowed", lambda *a: _shadowed_plain(*a[:-1]))
    monkeypatch.setattr(board_surface, "seen_lines", _seen_lines_plain)
    monkeypatch.setattr(board_surface, "_bridged", _bridged_plain)
    monkeypatch.setattr(board_shadow_verify, "_bridge_ends", _bridge_ends_plain)
    monkeypatch.setattr(board_surface, "median", _median_or_plain)
    plain = [board_surface.analyse(*a, **k) for a, k in real_surfaces]
    assert len(new) == 3
    for x, y in zip(new, plain, strict=True):
        for name in ("good", "foreign", "hidden", "outside", "reach"):
            assert np.array_equal(getattr(x, name), getattr(y, name)), name
        assert x.noise == y.noise


def test_real_frames_verify_the_same_shadows(real_surfaces):
    """`verified_shadow` on the real frames' own arguments: the same pixels as the plain form."""
    from vision.board_shadow_verify import verified_shadow

    seen = calls_within_analyse("verified_shadow", real_surfaces)
    assert len(seen) == 2  # the hand frames' (board27a: the frame without one verifies none)
    for args in seen:
        got = verified_shadow(*args)
        assert np.array_equal(got, _verified_shadow_plain(*args))
    assert sum(int(verified_shadow(*args).sum()) for args in seen) > 0  # some shadow verified


def _shadowed_plain(rest, pred, a, b, lamp, washed, levels, saturated, sigma, usable, classes, line):
    """`_shadowed` before round 24: whether both classes are dimmed alike told everywhere, and
    deep told at every pixel (the ramp's verification is the round's own: the plain one is
    checked against it above)."""
    import vision.board_surface as bs

    dim = bs.csum((rest - bs.as_channels(b)) * pred) / np.maximum(bs.csum(pred * pred), 1e-9)
    model = bs.to_levels(bs.as_channels(dim) * pred + bs.as_channels(b + lamp))
    resid = bs._at_saturated(levels - model, saturated, bs.SATURATED, model)
    fits = bs.cmax(np.abs(resid) / sigma) < bs.SHADOW_SIGMAS
    ratio = dim / np.maximum(a, 1.0)
    log_dim = np.log(np.clip(dim, 1e-3, None)).astype(np.float32)
    candidate = fits & (ratio > bs.SHADOW_RANGE[0]) & (ratio < bs.SHADOW_RANGE[1])
    own = usable & candidate
    near = []
    for c in (0, 1):
        mc = (own & (classes == c)).astype(np.float32)
        g = cv2.GaussianBlur(mc, (0, 0), bs.CROSS_SIGMA)
        near.append((g, cv2.GaussianBlur(log_dim * mc, (0, 0), bs.CROSS_SIGMA) / np.maximum(g, 1e-6)))
    (g0, l0), (g1, l1) = near
    across = (g0 > bs.CROSS_WEIGHT) & (g1 > bs.CROSS_WEIGHT) & (np.abs(l0 - l1) < bs.SHADOW_DEV)
    plain = bs._deviation(log_dim, usable) < bs.SHADOW_DEV
    hand = bs._big_regions(usable & ~own, line.shape[0] // bs.SIZE)
    among_own = bs._deviation(log_dim, usable & ~hand) < bs.SHADOW_DEV
    smooth = plain | among_own
    shadowish = own & (plain | (among_own & across))
    count, labels = cv2.connectedComponents(
        _bridged_plain(shadowish, log_dim, line).astype(np.uint8), connectivity=8
    )
    lit = np.zeros(count, bool)
    lit[labels[across & shadowish]] = True
    lit[0] = False
    across |= lit[labels]
    ppu = line.shape[0] // bs.SIZE
    verified = bs.verified_shadow(
        own, own & (ratio < bs.VERIFY_DIM) & ~washed, log_dim, line, ppu, bs.LINE_PX
    )
    smooth |= verified
    across |= verified
    return candidate, smooth, ((ratio < bs.DEEP_SHADOW) & ~across) | washed, log_dim, verified


def _check_shadowed(args, weak):
    """`_shadowed` without ``weak`` is the plain form; with it, the same but deep, which is the
    plain one's at the shade pixels (dimmed, smooth and weak) and False elsewhere."""
    from vision.board_surface import _shadowed

    plain = _shadowed_plain(*args)
    whole = _shadowed(*args)
    for got, want in zip(whole, plain, strict=True):
        assert _same_bits(got, want)
    asked = _shadowed(*args, weak)
    for i in (0, 3):
        assert _same_bits(asked[i], plain[i])
    shade = plain[0] & plain[1] & weak
    assert np.array_equal(asked[2], plain[2] & shade)
    # Smoothness at the dimmed weak pixels, and the verified shadow where made (board27a: only
    # where it decides one of those; tests/test_board_speed_27a.py).
    assert np.array_equal(asked[0] & asked[1] & weak, shade)
    assert asked[4] is None or _same_bits(asked[4], plain[4])
    return shade


@settings(max_examples=60, deadline=None)
@given(
    hands=st.integers(0, 4),
    shadows=st.integers(0, 4),
    lamp_on=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
def test_shadowed_told_at_the_shade_only_is_the_plain_one_there(hands, shadows, lamp_on, seed):
    """Drawn top views: a two-colour board, dimmed by shadows (some deep), hands of random
    colours, noise, lamp light; every argument `analyse` gives, ``weak`` a misfit around the
    hands and some speckle."""
    _check_shadowed(*drawn_shadow_args(hands, shadows, lamp_on, seed))


def drawn_shadow_args(hands: int, shadows: int, lamp_on: bool, seed: int) -> tuple[tuple, np.ndarray]:
    """`_shadowed`'s arguments for a drawn top view (above), and ``weak``."""
    from vision.board_geometry import DEFAULT_GEOMETRY
    from vision.board_surface import SATURATED, View, to_levels

    view = View.of(DEFAULT_GEOMETRY, 24)
    n = view.classes.shape[0]
    rng = np.random.default_rng(seed)
    colours = rng.uniform(0.03, 0.8, (3, 3)).astype(np.float32)
    pred = colours[np.clip(view.classes, 0, 2)]
    dim = np.ones((n, n), np.float32)
    for _ in range(shadows):
        y, x = (int(v) for v in rng.integers(0, n, 2))
        dim[y : y + int(rng.integers(10, 120)), x : x + int(rng.integers(10, 120))] *= rng.uniform(0.15, 0.9)
    rest = dim[..., None] * pred * rng.normal(1, 0.03, (n, n, 3)).astype(np.float32)
    weak = rng.random((n, n)) < 0.02
    for _ in range(hands):
        y, x = (int(v) for v in rng.integers(0, n, 2))
        part = (slice(y, y + int(rng.integers(10, 90))), slice(x, x + int(rng.integers(10, 90))))
        rest[part] = rng.uniform(0.02, 0.6, 3).astype(np.float32)
        weak[part] = True
    lamp = np.zeros((n, n), np.float32)
    if lamp_on:
        yy, xx = np.mgrid[0:n, 0:n]
        lamp = (
            0.4 * np.exp(-((yy - rng.integers(0, n)) ** 2 + (xx - rng.integers(0, n)) ** 2) / 800.0)
        ).astype(np.float32)
    levels = to_levels(rest + lamp[..., None])
    a = rng.uniform(0.9, 1.1, (n, n)).astype(np.float32)
    b = rng.normal(0, 0.005, (n, n)).astype(np.float32)
    args = (
        rest.astype(np.float32),
        pred,
        a,
        b,
        lamp,
        lamp > 0.5 * pred.sum(axis=2) / 3,
        levels,
        levels >= SATURATED,
        np.full(levels.shape, rng.uniform(1.5, 6.0), np.float32),
        ~view.line & (rng.random((n, n)) < 0.98),
        view.classes,
        view.line,
    )
    return args, weak


def test_real_frames_shadowed_the_same(real_surfaces):
    """`_shadowed` on the real frames' own arguments and misfits: the plain form's numbers,
    deep at the shade pixels, and some of them deep, some told by the blurs."""
    from vision.board_surface import _shadowed as shadowed

    seen = calls_within_analyse("_shadowed", real_surfaces)
    assert len(seen) == 3
    deep = 0
    for args in seen:
        shade = _check_shadowed(args[:-1], args[-1])
        deep += int((shadowed(*args)[2] & ~args[5]).sum())
        assert shade.any()
    assert deep > 0


def _block_crops(at, reach):
    """`crops_around` at its smallest: a crop for every block of 8 × 8 px holding a pixel
    asked about, none merged (each exact on its own)."""
    from vision.board_fast import CROP_ALIGN

    h, w = at.shape
    out = []
    blocks = np.add.reduceat(np.add.reduceat(at, np.arange(0, h, 8), 0), np.arange(0, w, 8), 1)
    for by, bx in np.argwhere(blocks):
        y0, x0 = int(by) * 8, int(bx) * 8
        y1, x1 = min(h, y0 + 8), min(w, x0 + 8)
        cy0, cy1 = max(0, y0 - reach), min(h, y1 + reach)
        cx0 = max(0, (x0 - reach) // CROP_ALIGN * CROP_ALIGN)
        cx1 = min(w, -(-(x1 + reach) // CROP_ALIGN) * CROP_ALIGN)
        out.append(((slice(y0, y1), slice(x0, x1)), (slice(cy0, cy1), slice(cx0, cx1))))
    return out


def test_real_frames_shadowed_the_same_told_in_small_crops(real_surfaces, monkeypatch):
    """With the crops as small as they can be, the patches of deep pixels reach beyond them,
    and whether they hold a pixel dimmed alike is told again over the whole view: the same."""
    import vision.board_surface as board_surface

    seen = calls_within_analyse("_shadowed", real_surfaces)
    monkeypatch.setattr(board_surface, "crops_around", _block_crops)
    for args in seen:
        _check_shadowed(args[:-1], args[-1])


def test_a_deep_ramp_whose_patch_is_lit_far_from_it_is_told_so():
    """A shadow's ramp inside one dark square, from the undimmed board at one side to 0.3 of
    it at the other (deep, and no match with the light squares beside it: not dimmed alike
    there), joined to the rest of the board, where both colours show the same dimming (none).
    The crops around the deep pixels hold no pixel dimmed alike: the patch is told again over
    the whole view, and is light's, as the plain form finds."""
    from vision.board_geometry import DEFAULT_GEOMETRY
    from vision.board_surface import View, to_levels

    view = View.of(DEFAULT_GEOMETRY, 24)
    n = view.classes.shape[0]
    pred = np.where(
        view.classes[..., None] == 0, np.float32([0.1, 0.12, 0.15]), np.float32([0.55, 0.5, 0.45])
    ).astype(np.float32)
    r0, c0 = 48, 192  # a dark square at the board's edge
    assert (view.classes[r0 : r0 + 24, c0 : c0 + 24] == 0).all()
    log_dim = np.zeros((n, n), np.float32)
    log_dim[r0 : r0 + 24, c0 : c0 + 24] = np.clip((np.arange(24) - 2) / 19.0, 0, 1) * np.log(0.3)
    rest = (np.exp(log_dim)[..., None] * pred).astype(np.float32)
    levels = to_levels(rest)
    weak = np.zeros((n, n), bool)
    weak[r0 : r0 + 24, c0 + 12 : c0 + 24] = True
    zeros = np.zeros((n, n), np.float32)
    args = (
        rest,
        pred,
        np.ones((n, n), np.float32),
        zeros,
        zeros,
        np.zeros((n, n), bool),
        levels,
        np.zeros(levels.shape, bool),
        np.full(levels.shape, 3.0, np.float32),
        ~view.line,
        view.classes,
        view.line,
    )
    shade = _check_shadowed(args, weak)
    assert shade.sum() > 100


def _seen_lines_plain(lin, pred, light, levels, sigma, reference, candidates, foreign, classes, ppu, line_px):
    """`seen_lines` before round 24: every cross-section fitted."""
    import vision.board_line_seen as bls
    from vision.board_fast import as_channels

    b = bls._band(classes, ppu, line_px)
    seen = np.zeros(classes.shape, bool)
    cand = candidates.ravel()[b.order]
    if not cand.any():
        return seen

    def band(a):
        return np.take(a.reshape(-1, 3) if a.ndim == 3 else a.ravel(), b.order, axis=0)

    model = as_channels(band(light[0])) * band(pred) + as_channels(band(light[1]))
    qb = band(lin) / np.maximum(model, 1e-4)
    rel = 2.2 * band(sigma) / np.maximum(band(levels), 5.0)
    refb = reference.ravel()[b.order]
    sizes = np.diff(b.bounds)  # every kind's profile, spread over the band (round 24)
    prof, spread = (np.repeat(x, sizes, axis=0) for x in bls._kind_profile(qb, refb, b.bounds, sizes >= 0))
    tol = bls.MATCH_SIGMAS * np.sqrt(spread**2 + rel**2) * prof
    Q, P, T = (np.take(x, b.sections, axis=0) for x in (qb, prof, tol))
    f = (Q * P).sum(axis=(1, 2)) / np.maximum((P * P).sum(axis=(1, 2)), 1e-9)
    fits = np.all(np.abs(Q - f[:, None, None] * P) <= f[:, None, None] * T, axis=(1, 2))
    fits &= (f >= bls.DIM_RANGE[0]) & (f <= bls.DIM_RANGE[1]) & np.all(P > 0, axis=(1, 2))
    fits = np.append(fits, False)
    ok = fits[:-1] & fits[b.before] & fits[b.after]
    fg = foreign.ravel()
    ok &= ~fg[b.side_lo] & ~fg[b.side_hi]
    ok = np.append(ok, False)
    seen.ravel()[b.order] = cand & ok[b.section_of]
    return seen


@settings(max_examples=80, deadline=None)
@given(
    hands=st.integers(0, 4),
    shadows=st.integers(0, 4),
    noise=st.floats(0.0, 0.08),
    asked=st.floats(0.0, 1.0),
    seed=st.integers(0, 2**32 - 1),
)
def test_lines_seen_fitting_the_asked_sections_only_are_the_plain_ones(hands, shadows, noise, asked, seed):
    """A drawn board with its lines, dimmed by shadows, hands of random colours over it, noise;
    some of the line pixels asked about (in clusters and alone), some taken as reference."""
    from vision.board_line_seen import seen_lines

    args = lines_scene(
        np.random.default_rng(seed),
        hands,
        shadows,
        noise,
        asked,
        0.9,
        lambda rng, n: _blob_map(rng, n, n, 6, 1.0),
    )
    assert np.array_equal(seen_lines(*args), _seen_lines_plain(*args))


def test_real_frames_see_the_same_lines(real_surfaces):
    from vision.board_line_seen import seen_lines

    seen = calls_within_analyse("seen_lines", real_surfaces)
    assert len(seen) == 3
    for args in seen:
        got = seen_lines(*args)
        assert np.array_equal(got, _seen_lines_plain(*args))
        assert got.any()


@settings(max_examples=200, deadline=None)
@given(
    n=st.integers(20_000, 70_000),
    kind=st.sampled_from(["spread", "ties", "zeros", "signed", "nan", "inf", "sigmas"]),
    seed=st.integers(0, 2**32 - 1),
)
def test_a_long_median_by_bins_is_numpys(n, kind, seed):
    """`median` of a long float32 array (found by bins when every value is +0 or positive and
    finite, by the partition otherwise): the partition's numbers, bit for bit, and numpy's
    (but for a NaN's payload, as before)."""
    from vision.board_fast import median

    rng = np.random.default_rng(seed)
    if kind == "spread":
        a = (rng.random(n) * 10.0 ** rng.integers(-30, 30, n)).astype(np.float32)
    elif kind == "ties":
        a = rng.integers(0, 5, n).astype(np.float32)
    elif kind == "zeros":
        a = np.abs(rng.standard_normal(n)).astype(np.float32)
        a[rng.integers(0, n, n // 2)] = 0.0
    elif kind == "signed":
        a = rng.standard_normal(n).astype(np.float32)
        a[rng.integers(0, n, 9)] = -0.0
    elif kind == "sigmas":  # the noise model's: sqrt(s0 + k · level²) at two board colours
        level = np.concatenate([rng.normal(60, 3, n // 2), rng.normal(180, 5, n - n // 2)])
        a = np.sqrt(2.25 + 0.002 * level**2).astype(np.float32)
    else:
        a = rng.random(n).astype(np.float32)
        a[rng.integers(0, n)] = np.nan if kind == "nan" else np.inf
    got = np.asarray(median(a))
    assert _same_bits(got, np.asarray(median_by_partition(a)))
    if kind != "nan":
        assert _same_bits(got, np.asarray(np.median(a)))


@settings(max_examples=100, deadline=None)
@given(h=st.integers(1, 60), w=st.integers(1, 60), seed=st.integers(0, 2**32 - 1))
def test_the_misfit_in_the_residuals_own_memory_is_the_plain_one(h, w, seed):
    """`analyse`'s ``resid_n``: ``cmax(np.abs(resid) / sigma)`` made in ``resid``'s memory."""
    from vision.board_fast import channel_max

    rng = np.random.default_rng(seed)
    resid = (rng.standard_normal((h, w, 3)) * 30).astype(np.float32)
    resid[rng.random((h, w, 3)) < 0.05] = -0.0
    sigma = rng.uniform(1.5, 9.0, (h, w, 3)).astype(np.float32)
    want = channel_max(np.abs(resid) / sigma)
    got = channel_max(np.divide(np.abs(resid, out=resid), sigma, out=resid))
    assert _same_bits(got, want)


def _bridge_ends_plain(shaded, log_dim, ppu, line_px):
    """`_bridge_ends` before round 24: every row (column) compared with the one ``gap`` on,
    kept where it is the last judged one before a line."""
    from vision.board_shadow_verify import KINK, MATCH, SLOPE_STEP

    gap = 2 * line_px + 1
    s = SLOPE_STEP
    out = np.zeros(shaded.shape, bool)
    v = log_dim.astype(np.float32)
    for axis in (0, 1):
        vv, sh, o = (v, shaded, out) if axis == 0 else (v.T, shaded.T, out.T)
        n = vv.shape[0]
        p, q = slice(s, n - gap - s), slice(s + gap, n - s)
        p_in, q_in = slice(0, n - gap - 2 * s), slice(2 * s + gap, n)
        vp, vq = vv[p], vv[q]
        flat = np.abs(vp - vq) < MATCH
        half = gap / 2
        slope_p, slope_q = (vp - vv[p_in]) / s, (vv[q_in] - vq) / s
        inner = sh[p_in] & sh[q_in]
        ramp = inner & (np.abs((vp + slope_p * half) - (vq - slope_q * half)) < MATCH)
        kink = inner & (slope_p * slope_q < 0) & (np.minimum(np.abs(slope_p), np.abs(slope_q)) > KINK)
        before_line = (np.arange(n)[p] % ppu == ppu - 1 - line_px)[:, None]
        pair = before_line & sh[p] & sh[q] & (flat | ramp) & ~kink
        o[p] |= pair
        o[q] |= pair
    return out


@settings(max_examples=200, deadline=None)
@given(
    squares=st.tuples(st.integers(1, 10), st.integers(1, 10)),
    ppu=st.sampled_from([12, 16, 24]),
    line_px=st.integers(1, 3),
    fill=st.floats(0.0, 1.0),
    spread=st.floats(0.0, 1.0),
    seed=st.integers(0, 2**32 - 1),
)
def test_bridge_ends_at_the_lines_rows_are_the_plain_ones(squares, ppu, line_px, fill, spread, seed):
    """Boxes of any number of squares each way, lines of 1–3 px, ramps and flat dimming with
    noise (ties at MATCH and KINK are as likely as anything else: each pixel's arithmetic is
    the same)."""
    from vision.board_shadow_verify import _bridge_ends

    rng = np.random.default_rng(seed)
    h, w = squares[0] * ppu, squares[1] * ppu
    shaded = rng.random((h, w)) < fill
    log_dim = (
        -rng.random() * np.arange(w)[None, :] * 0.05
        + rng.normal(0, spread, (h, w)) * (rng.random((h, w)) < 0.3)
    ).astype(np.float32)
    if rng.random() < 0.5:
        log_dim = log_dim.astype(np.float64)  # made float32 inside, either way
    assert np.array_equal(
        _bridge_ends(shaded, log_dim, ppu, line_px), _bridge_ends_plain(shaded, log_dim, ppu, line_px)
    )


def _bridged_plain(shadowish, log_dim, line):
    """`_bridged` before round 24: every row (column) compared with the one ``gap`` on."""
    from vision.board_surface import LINE_PX, SHADOW_DEV

    link = shadowish.copy()
    gap = 2 * LINE_PX + 1
    for axis in (0, 1):
        n = shadowish.shape[axis]

        def cut(lo, hi, axis=axis):
            return (slice(lo, hi), slice(None)) if axis == 0 else (slice(None), slice(lo, hi))

        a, b = cut(0, n - gap), cut(gap, n)
        pair = shadowish[a] & shadowish[b] & (np.abs(log_dim[a] - log_dim[b]) < SHADOW_DEV)
        for k in range(1, gap):
            link[cut(k, n - gap + k)] |= pair & line[cut(k, n - gap + k)]
    return link


@settings(max_examples=200, deadline=None)
@given(
    squares=st.tuples(st.integers(1, 10), st.integers(1, 10)),
    ppu=st.sampled_from([8, 12, 24]),
    line_px=st.integers(1, 3),
    grid=st.booleans(),
    on_lines=st.booleans(),
    fill=st.floats(0.0, 1.0),
    seed=st.integers(0, 2**32 - 1),
)
def test_bridged_from_the_lines_rows_is_the_plain_one(squares, ppu, line_px, grid, on_lines, fill, seed):
    """Grids of any size and line width (the reader's lines are 2 px each side, `_bridged`'s
    gap 5), or any mask of "lines"; shadowish pixels off the lines (the rows alone), or on
    them too (every row)."""
    from vision.board_surface import _bridged

    rng = np.random.default_rng(seed)
    h, w = squares[0] * ppu, squares[1] * ppu
    line = _grid_lines(max(h, w), ppu, line_px)[:h, :w] if grid else rng.random((h, w)) < rng.random()
    shadowish = rng.random((h, w)) < fill
    if not on_lines:
        shadowish &= ~line
    log_dim = (rng.normal(0, 0.3, (h, w)) - rng.random() * np.arange(w)[None, :] * 0.02).astype(np.float32)
    assert np.array_equal(_bridged(shadowish, log_dim, line), _bridged_plain(shadowish, log_dim, line))


def _median_or_plain(a: np.ndarray) -> np.floating:
    """`median` with a long array's middle by the partition of the whole (`median_by_partition`)."""
    from vision.board_fast import median

    return median_by_partition(a) if a.size >= 20_000 else median(a)
