"""Round 23's exact speed-ups of the lighting and glare step (board23g) give the numbers of the
plain forms they replace, bit for bit: the plain forms are kept here, checked against the
new ones on generated inputs and on the inputs of real reads (tune scenes read with every
replaced function run both ways)."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.glare_views import glare_bumps
from tests.same_bits import same_values as _same
from vision import board_glare, board_lighting, board_surface
from vision.board_fast import median
from vision.board_glare import (
    ITERATIONS,
    MAX_WIDTH,
    MIN_AMPLITUDE,
    MIN_WIDTH,
    NARROW,
    OUTSIDE,
    OUTSIDE_NARROW,
    Spot,
    _disc,
    _held,
    _ridge,
    spot_map,
)
from vision.board_lighting import (
    CONTRAST_RADIUS,
    CURVATURE_RIDGE,
    LIGHTER,
    LOG_FLOOR,
    MIN_CONTRAST,
    SCALE_FLOOR,
    _consensus,
    _neighbour_pairs,
    _pair_distances,
    _square_layout,
)
from vision.board_surface import (
    SPOT_CONTRAST,
    SPOT_DOUBT,
    SPOT_EXPLAINS,
    SPOT_SLACK,
    SPOT_WITNESS,
    Lamp,
    _at_saturated,
    _lone_spot,
    csum,
)

# ---- the plain forms, as main had them before round 23 ----


def _square_means_plain(lin, masks):
    logc = np.log(np.clip(lin, 0, None) + LOG_FLOOR)
    m = masks.astype(np.float32)
    return ((logc * m[..., None]).sum(axis=(1, 2)) / np.maximum(m.sum(axis=(1, 2)), 1.0)[:, None]).astype(
        np.float64
    )


def _grey_excess_plain(lin, pred):
    excess = lin - pred
    mean = csum(excess) / 3
    off = excess - mean[..., None]
    return mean, np.sqrt(csum(off * off)) < 0.43 * np.abs(mean) + 0.01


def _area_plain(mask, u, v):
    _, labels = cv2.connectedComponents(mask)
    return (labels == labels[v, u]).sum()


def _tukey_step_plain(J, res):
    scale = max(1.4826 * float(median(np.abs(res))), 0.004)
    wt = np.maximum(1 - (res / (4.685 * scale)) ** 2, 0) ** 2
    JW = J * wt[:, None]
    try:
        return np.linalg.solve(JW.T @ J + _ridge(J.shape[1]), JW.T @ res)
    except np.linalg.LinAlgError:
        return None


def _refine_plain(rest, m, uu, vv, s, p, least=MIN_AMPLITUDE):
    cu, cv, wd, amp = s.u, s.v, s.width, s.amplitude
    usable = m > 0
    for it in range(ITERATIONS):
        disc = _disc(rest, usable, uu, vv, cu, cv, wd)
        if disc is None:
            return None
        du, dv, r2, seen = disc
        g = np.exp(-r2 / (2 * wd * wd))
        ag = amp * g
        res = seen - ag
        J = np.stack([g, ag * du / wd**2, ag * dv / wd**2, ag * r2 / wd**3], 1)
        step = _tukey_step_plain(J, res)
        if step is None:
            return None
        amp += float(step[0])
        cu += float(step[1])
        cv += float(step[2])
        wd = min(max(wd + float(step[3]), 0.15 * p), MAX_WIDTH * p)
        if it > 3 and wd < MIN_WIDTH * p:
            return None
        if float(np.abs(step[1:]).max()) < 0.05:
            break
    if amp < least or wd < MIN_WIDTH * p:
        return None
    h, w = rest.shape
    out = (OUTSIDE_NARROW if wd <= NARROW * p else OUTSIDE) * p
    if not (-out <= cu <= w + out and -out <= cv <= h + out):
        lim = OUTSIDE * p
        held = Spot(min(max(cu, -lim), w + lim), min(max(cv, -lim), h + lim), wd, amp)
        return _held(rest, usable, uu, vv, held, p, least)
    return Spot(cu, cv, wd, amp)


def _checker_contrast_plain(means, ok, geometry):
    dark, light = _neighbour_pairs(tuple(tuple(row) for row in geometry.classes))
    both = ok[dark] & ok[light]
    if int(both.sum()) < 3:
        return None, 0
    d = means[light[both]] - means[dark[both]]
    close = _pair_distances(d) < CONTRAST_RADIUS
    plausible = (np.linalg.norm(d, axis=1) >= MIN_CONTRAST) & (d.mean(axis=1) >= LIGHTER)
    counts = close.sum(axis=1) * plausible
    k = int(np.argmax(counts))
    if counts[k] < 3:
        return None, 0
    return np.median(d[close[k]], axis=0), int(counts[k])


def _fit_lighting_plain(means, ok, geometry):
    from vision.board_geometry import DARK, LIGHT

    classes, xy, X = _square_layout(geometry.classes)
    contrast, support = _checker_contrast_plain(means, ok, geometry)
    offsets = {DARK: np.zeros(3)}
    if contrast is not None:
        offsets[LIGHT] = contrast
    for c, off in geometry.class_offsets.items():
        if c not in offsets:
            offsets[c] = np.array(off, dtype=np.float64)[::-1]
    use = ok & np.isin(classes, list(offsets))
    y = means.copy()
    for c, off in offsets.items():
        y[classes == c] -= off
    w = _consensus(xy, y, use)
    ridge = np.zeros((3, 6))
    ridge[0, 3] = ridge[1, 4] = ridge[2, 5] = np.sqrt(CURVATURE_RIDGE)
    field = np.zeros((6, 3))
    for _ in range(6):
        sw = np.sqrt(w)[:, None]
        field, *_ = np.linalg.lstsq(
            np.vstack([X * sw, ridge]), np.vstack([y * sw, np.zeros((3, 3))]), rcond=None
        )
        resid = y - X @ field
        good = w > 0
        scale = max(SCALE_FLOOR, float(1.4826 * median(np.abs(resid[good])))) if good.any() else SCALE_FLOOR
        d = np.sqrt(np.mean((resid / scale) ** 2, axis=1))
        w = np.where(use & (d < 4.685), (1 - (d / 4.685) ** 2) ** 2, 0.0)
    return board_lighting.Lighting(field, offsets, support, w > 0)


def _judged_plain(spots, lin, pred, grey, usable, saturated, view, pieces=None):
    lin_mean, pred_mean = csum(lin) / 3, csum(pred) / 3
    kept, doubtful = [], []
    for s in spots:
        bump = spot_map([s], lin_mean.shape)
        lit = pred_mean + bump
        gap = _at_saturated(lin_mean - lit, saturated, 1.0, lit)
        witnessed = False
        for level in (0.5, 0.25, 0.1):
            core = ((usable & grey) | saturated) & (bump > level * s.amplitude)
            dark, light = core & (view.classes == 0), core & (view.classes == 1)
            if dark.sum() >= 10 and light.sum() >= 10:
                seen = sorted(float(median(bump[c])) for c in (dark, light))
                witnessed = not (seen[0] < SPOT_WITNESS and seen[1] >= 2 * SPOT_WITNESS)
                break
        if not witnessed:
            if _lone_spot(s, bump, gap, core, view, pieces):
                kept.append(s)
            continue
        lost = float(median(gap[dark]) - median(gap[light]))
        contrast = float(median(pred_mean[light]) - median(pred_mean[dark]))
        there = all(
            float(median(gap[c])) >= -SPOT_EXPLAINS * float(median(bump[c])) - SPOT_SLACK
            for c in (dark, light)
        )
        if contrast <= 0 or not there:
            continue
        if lost <= (1 - SPOT_CONTRAST) * contrast:
            kept.append(s)
        elif lost <= SPOT_DOUBT * contrast:
            doubtful.append(s)
    return Lamp(kept, doubtful)


# ---- generated inputs ----


def _linear_picture(rng, shape, spread):
    """Linear colours as a top view holds them: float32, mostly 0–1, some clipped or negative."""
    return (rng.random(shape) * spread - 0.05 * rng.random()).astype(np.float32)


@settings(max_examples=150, deadline=None)
@given(
    n=st.integers(1, 30),
    squares=st.integers(1, 90),
    fill=st.floats(0.0, 1.0),
    spread=st.floats(0.01, 3.0),
    seed=st.integers(0, 2**32 - 1),
)
def test_square_means_pixel_major_are_the_plain_sums(n, squares, fill, spread, seed):
    rng = np.random.default_rng(seed)
    lin = _linear_picture(rng, (squares, n, n, 3), spread)
    masks = rng.random((squares, n, n)) < fill
    assert _same(board_lighting.square_means(lin, masks), _square_means_plain(lin, masks))


@settings(max_examples=150, deadline=None)
@given(
    h=st.integers(1, 80), w=st.integers(1, 80), spread=st.floats(0.01, 3.0), seed=st.integers(0, 2**32 - 1)
)
def test_grey_excess_channel_by_channel_is_the_plain_one(h, w, spread, seed):
    rng = np.random.default_rng(seed)
    lin, pred = _linear_picture(rng, (h, w, 3), spread), _linear_picture(rng, (h, w, 3), spread)
    same = rng.random((h, w)) < 0.2
    pred[same] = lin[same]  # some pixels with no excess at all
    got, want = board_surface._grey_excess(lin, pred), _grey_excess_plain(lin, pred)
    assert _same(got[0], want[0]) and _same(got[1], want[1])


@settings(max_examples=150, deadline=None)
@given(
    h=st.integers(1, 60),
    w=st.integers(1, 60),
    channels=st.integers(1, 5),
    tiny=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
def test_light_taken_from_every_channel_is_numpys(h, w, channels, tiny, seed):
    """The lighting refits' ``lin - as_channels(lamp)`` is ``lin - lamp[..., None]``, also for
    subnormal light (a spot's far skirt), zeros of either sign, infinities and NaN."""
    from vision.board_fast import as_channels

    rng = np.random.default_rng(seed)
    lin = _linear_picture(rng, (h, w, channels), 1.5)
    lamp = (rng.random((h, w)) * (1e-39 if tiny else 0.5)).astype(np.float32)
    special = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-45, -1e-45], np.float32)
    lin.ravel()[:: max(1, lin.size // 7)][:7] = special[: min(7, lin.size)]
    lamp.ravel()[-min(7, lamp.size) :] = special[: min(7, lamp.size)]
    with np.errstate(invalid="ignore"):  # inf − inf
        assert _same(lin - as_channels(lamp, channels), lin - lamp[..., None])


@settings(max_examples=300, deadline=None)
@given(
    h=st.integers(1, 110),
    w=st.integers(1, 110),
    blur=st.floats(0.0, 4.0),
    fill=st.floats(0.0, 1.0),
    seed=st.integers(0, 2**32 - 1),
)
def test_area_around_a_pixel_is_its_components(h, w, blur, fill, seed):
    """The flood fill's area is the labelled region's, on blobs and speckle, from a pixel
    inside a region or on the background."""
    rng = np.random.default_rng(seed)
    noise = rng.random((h, w)).astype(np.float32)
    if blur > 0.3:
        noise = cv2.GaussianBlur(noise, (0, 0), blur)
    mask = (noise < np.quantile(noise, fill)).astype(np.uint8)
    u, v = int(rng.integers(0, w)), int(rng.integers(0, h))
    want = _area_plain(mask, u, v)
    assert board_glare._area_around(mask.copy(), u, v) == want


@settings(max_examples=200, deadline=None)
@given(
    n=st.integers(1, 700),
    columns=st.sampled_from([2, 4, 6]),
    scale=st.sampled_from([1e-4, 1e-2, 1.0, 10.0]),
    dtype=st.sampled_from([np.float32, np.float64]),
    seed=st.integers(0, 2**32 - 1),
)
def test_tukey_step_in_one_array_is_the_plain_one(n, columns, scale, dtype, seed):
    rng = np.random.default_rng(seed)
    J = (rng.standard_normal((n, columns)) * scale).astype(dtype)
    res = (rng.standard_normal(n) * scale * rng.random()).astype(dtype)
    assert _same(board_glare._tukey_step(J, res), _tukey_step_plain(J, res))


@settings(max_examples=200, deadline=None)
@given(
    h=st.integers(1, 120),
    w=st.integers(1, 120),
    u=st.floats(-200, 300),
    v=st.floats(-200, 300),
    width=st.floats(0.05, 60),
    amplitude=st.floats(0.001, 2),
    aspect=st.sampled_from([1.0, 1.0, 1.2, 1.3]),
    angle=st.floats(-3.2, 3.2),
)
def test_a_spot_over_the_grid_is_its_bump(h, w, u, v, width, amplitude, aspect, angle):
    """`_grid_bump` is ``_bump`` over the view's grid, round or elliptic, near or far."""
    s = Spot(u, v, width, amplitude, aspect, angle)
    vv, uu = board_glare._grid(h, w)
    assert _same(board_glare._grid_bump((h, w), s), board_glare._bump(uu, vv, s))


@settings(max_examples=150, deadline=None)
@given(
    size=st.integers(20, 110),
    count=st.integers(0, 3),
    holes=st.floats(0.0, 0.5),
    start_u=st.floats(-5, 115),
    start_v=st.floats(-5, 115),
    start_w=st.floats(0.5, 20),
    least=st.sampled_from([MIN_AMPLITUDE, 0.02, 0.005]),
    seed=st.integers(0, 2**32 - 1),
)
def test_refine_is_the_plain_one(size, count, holes, start_u, start_v, start_w, least, seed):
    """A round spot's Gauss–Newton fit, from any start on any view of bumps (with unusable
    pixels), ends where the plain form ends, or gives up where it does."""
    rng = np.random.default_rng(seed)
    rest = glare_bumps(rng, size, size, count)
    m = (cv2.GaussianBlur(rng.random((size, size)).astype(np.float32), (0, 0), 3) >= holes * 0.6).astype(
        np.float32
    )
    vv, uu = board_glare._grid(size, size)
    start = Spot(start_u, start_v, start_w, float(rng.uniform(0.01, 0.4)))
    p = size / 9
    assert _same(
        board_glare._refine(rest, m, uu, vv, start, p, least), _refine_plain(rest, m, uu, vv, start, p, least)
    )


@settings(max_examples=100, deadline=None)
@given(
    spread=st.floats(0.05, 2.0),
    bare=st.floats(0.0, 1.0),
    unknown=st.booleans(),
    maze=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
def test_fit_lighting_is_the_plain_one(spread, bare, unknown, maze, seed):
    """The lighting fit, on square means of a smooth field and a checker contrast with
    squares covered at random (and sometimes no class offsets but dark's)."""
    from vision.board_geometry import DEFAULT_GEOMETRY

    rng = np.random.default_rng(seed)
    classes, _, X = _square_layout(DEFAULT_GEOMETRY.classes)
    field = rng.normal(0, 0.3, (6, 3)) * [[1], [1], [1], [0.3], [0.3], [0.3]]
    means = X @ field + np.where((classes == 1)[:, None], rng.uniform(0.3, 1.2, 3), 0.0)
    means += rng.normal(0, 0.02, means.shape)
    covered = rng.random(81) > bare
    means[covered] += rng.normal(0, spread, (int(covered.sum()), 3))
    ok = rng.random(81) > (0.6 if unknown else 0.05)
    geometry = DEFAULT_GEOMETRY
    if maze:  # the maze's offset unknown: its square is left out
        geometry = dataclasses.replace(DEFAULT_GEOMETRY, class_offsets={})
    got = board_lighting.fit_lighting(means, ok, geometry)
    want = _fit_lighting_plain(means, ok, geometry)
    assert _same(got, want)


# ---- real reads ----


@pytest.fixture(scope="module")
def real_inputs():
    """Every call of the replaced functions in the reads of a few tune scenes (glare spots,
    hands, a spot refitted held at the bound, an ellipse kept), with its arguments."""
    from tests.scene_cache import scene
    from vision import board_squares
    from vision.board_reader import read_board

    calls: dict[str, list] = {}
    real = {
        "square_means": (board_lighting, board_lighting.square_means, [board_squares]),
        "fit_lighting": (board_lighting, board_lighting.fit_lighting, [board_squares]),
        "_grey_excess": (board_surface, board_surface._grey_excess, []),
        "_judged": (board_surface, board_surface._judged, []),
        "_refine": (board_glare, board_glare._refine, []),
        "_tukey_step": (board_glare, board_glare._tukey_step, []),
    }

    def recording(name, fn):
        def record(*args, **kwargs):
            calls.setdefault(name, []).append((args, kwargs))
            return fn(*args, **kwargs)

        return record

    mp = pytest.MonkeyPatch()
    for name, (module, fn, users) in real.items():
        for m in [module, *users]:
            mp.setattr(m, name, recording(name, fn))
    try:
        for i in (5, 41, 74, 15):  # spots and hands; an ellipse kept; a spot held at the bound
            read_board(scene("tune", i).image)
    finally:
        mp.undo()
    return calls


@pytest.mark.parametrize(
    "name, plain",
    [
        ("square_means", _square_means_plain),
        ("fit_lighting", _fit_lighting_plain),
        ("_grey_excess", _grey_excess_plain),
        ("_judged", _judged_plain),
        ("_refine", _refine_plain),
        ("_tukey_step", _tukey_step_plain),
    ],
)
def test_real_reads_give_the_plain_numbers(real_inputs, name, plain):
    calls = real_inputs[name]
    assert calls
    module = {"square_means": board_lighting, "fit_lighting": board_lighting}.get(name, board_glare)
    new = getattr(board_surface if name in ("_grey_excess", "_judged") else module, name)
    for args, kwargs in calls:
        assert _same(new(*args, **kwargs), plain(*args, **kwargs)), name
