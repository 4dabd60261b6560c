"""Round 27's exact speed-ups of the lighting and glare step (board27g) give the numbers of the
forms they replace (main's at stop 32), bit for bit: those forms are kept here and checked
against the new ones on drawn inputs and on every call made while reading a few tune scenes
(glare spots, hands, an ellipse kept, a spot held at the bound)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.glare_views import glare_bumps
from tests.same_bits import same_values as _same
from vision import board_glare, board_lighting, board_surface
from vision.board_fast import median
from vision.board_geometry import DEFAULT_GEOMETRY, BoardGeometry
from vision.board_glare import (
    ELLIPSE_GAIN,
    FLANK_AMPLITUDE,
    ITERATIONS,
    LONG_COLUMNS,
    MAX_ASPECT,
    MAX_REJECTS,
    MAX_SPOTS,
    MAX_WIDTH,
    MIN_AMPLITUDE,
    MIN_WIDTH,
    SCALE,
    Spot,
    _disc_box,
    _ridge,
)
from vision.board_lighting import LOG_FLOOR, Lighting
from vision.board_surface import View

# ---- the forms replaced, as main had them at stop 32 ----


def _tukey_step_main(J, res):
    scale = max(1.4826 * float(median(np.abs(res))), 0.004)
    wt = res / (4.685 * scale)
    np.multiply(wt, wt, out=wt)
    np.subtract(1, wt, out=wt)
    np.maximum(wt, 0, out=wt)
    np.multiply(wt, wt, out=wt)
    JW = J * wt[:, None]
    try:
        return np.linalg.solve(JW.T @ J + _ridge(J.shape[1]), JW.T @ res)
    except np.linalg.LinAlgError:
        return None


def _disc_main(rest, usable, uu, vv, cu, cv, wd):
    box = _disc_box(cu, cv, 3.5 * wd, rest.shape)
    if box is None:
        return None
    du, dv = uu[box] - cu, vv[box] - cv
    r2 = du * du + dv * dv
    near = (r2 < (3.5 * wd) ** 2) & usable[box]
    if np.count_nonzero(near) < 12:
        return None
    return du[near], dv[near], r2[near], rest[box][near]


def _elliptic_main(rest, m, uu, vv, s, p):
    cu, cv, amp = s.u, s.v, s.amplitude
    q = np.array([1 / s.width**2, 0.0, 1 / s.width**2])
    reach = 3.5 * s.width
    box = _disc_box(cu, cv, reach, rest.shape)
    if box is None:
        return s
    near = ((uu[box] - cu) ** 2 + (vv[box] - cv) ** 2 < reach**2) & (m[box] > 0)
    if np.count_nonzero(near) < 24:
        return s
    u_near, v_near, rest_near = uu[box][near], vv[box][near], rest[box][near]
    for _ in range(ITERATIONS):
        du, dv = u_near - cu, v_near - cv
        g = np.exp(-0.5 * (q[0] * du * du + 2 * q[1] * du * dv + q[2] * dv * dv))
        res = rest_near - amp * g
        ag = amp * g
        J = np.empty((g.size, 6), g.dtype)
        J[:, 0] = g
        J[:, 1] = ag * (q[0] * du + q[1] * dv)
        J[:, 2] = ag * (q[1] * du + q[2] * dv)
        J[:, 3] = -0.5 * ag * du * du
        J[:, 4] = -ag * du * dv
        J[:, 5] = -0.5 * ag * dv * dv
        step = _tukey_step_main(J, res)
        if step is None:
            return s
        amp += float(step[0])
        cu += float(step[1])
        cv += float(step[2])
        q = q + step[3:]
        if not (q[0] > 0 and q[2] > 0 and q[0] * q[2] > q[1] * q[1]):
            return s
        if float(np.abs(step[1:3]).max()) < 0.05 and float(np.abs(step[3:]).max()) < 0.01 * float(
            q[0] + q[2]
        ):
            break
    lam, vec = np.linalg.eigh(np.array([[q[0], q[1]], [q[1], q[2]]]))
    long_w, short_w = 1 / np.sqrt(lam[0]), 1 / np.sqrt(lam[1])
    if (
        long_w / short_w > MAX_ASPECT
        or short_w < MIN_WIDTH * p
        or long_w > MAX_WIDTH * p
        or amp < s.amplitude / 2
    ):
        return s
    if (cu - s.u) ** 2 + (cv - s.v) ** 2 > (0.5 * s.width) ** 2:
        return s
    angle = float(np.arctan2(vec[1, 0], vec[0, 0]))
    out = Spot(cu, cv, float(np.sqrt(long_w * short_w)), amp, float(long_w / short_w), angle)
    before = rest_near - s.amplitude * board_glare._bump(u_near, v_near, s)
    after = rest_near - out.amplitude * board_glare._bump(u_near, v_near, out)
    c = 4.685 * max(1.4826 * float(median(np.abs(before))), 0.004)
    gain = board_glare._tukey(after, c) / max(board_glare._tukey(before, c), 1e-12)
    if gain > ELLIPSE_GAIN:
        return s
    return out


def _square_means_main(lin, masks):
    logc = np.clip(lin, 0, None)
    if isinstance(logc, np.ndarray) and logc.dtype.kind == "f":
        np.add(logc, LOG_FLOOR, out=logc)
        np.log(logc, out=logc)
    else:
        logc = np.log(logc + LOG_FLOOR)
    m = masks.astype(np.float32)
    count, channels = len(logc), logc.shape[-1]
    prod = np.empty((logc[0].size // channels, count, channels), np.result_type(logc, m))
    np.multiply(logc.reshape(count, -1, channels), m.reshape(count, -1, 1), out=prod.transpose(1, 0, 2))
    return (prod.sum(axis=0) / np.maximum(m.sum(axis=(1, 2)), 1.0)[:, None]).astype(np.float64)


def _predict_main(lighting, view):
    log, known = lighting.predict_on(view.basis, view.classes)
    np.exp(log, out=log)
    np.subtract(log, board_lighting.LOG_FLOOR, out=log)
    np.maximum(log, 1e-4, out=log)
    return log, known


def _fit_spots_main(excess, usable, ppu, elliptic=False, most=MAX_SPOTS):
    small = cv2.resize(
        excess.astype(np.float32), None, fx=1 / SCALE, fy=1 / SCALE, interpolation=cv2.INTER_AREA
    )
    m = cv2.resize(usable.astype(np.float32), None, fx=1 / SCALE, fy=1 / SCALE, interpolation=cv2.INTER_AREA)
    m = (m > 0.99).astype(np.float32)
    p = ppu / SCALE
    h, w = small.shape
    vv, uu = board_glare._grid(h, w)
    model = np.zeros_like(small)
    found: list[Spot] = []
    den = cv2.GaussianBlur(m, (0, 0), 0.15 * p)
    measured = den > 0.3
    den_floor = np.maximum(den, 1e-6)
    blocked = np.zeros_like(m)
    rest = smoothed = floors = None
    for _ in range(most + MAX_REJECTS):
        if len(found) == most:
            break
        if rest is None or smoothed is None:
            rest = small - model
            smoothed = cv2.GaussianBlur(rest * m, (0, 0), 0.15 * p) / den_floor
            floors = None
        smooth = np.where(measured & (blocked == 0), smoothed, -1.0)
        k = int(np.argmax(smooth))
        cv, cu = divmod(k, w)
        amp = float(smooth[cv, cu])
        least = MIN_AMPLITUDE
        flank = amp < MIN_AMPLITUDE
        if flank and found and floors is None:
            floors = board_glare._companion_floor(found, uu, vv)
        floor = floors if flank and found else None
        near = None if floor is None else np.where(smooth >= floor, smooth, -1.0)
        if floor is not None and near is not None and float(near.max()) > 0:
            k = int(np.argmax(near))
            cv, cu = divmod(k, w)
            amp, least, flank = float(smooth[cv, cu]), float(floor[cv, cu]), False
        elif flank:
            k = int(np.argmax(np.where(board_glare._edge_band(h, w, p), smooth, -1.0)))
            cv, cu = divmod(k, w)
            amp = float(smooth[cv, cu])
            if amp < FLANK_AMPLITUDE:
                break
        half = ((smooth > amp / 2) & measured).astype(np.uint8)
        width = max(MIN_WIDTH * p, float(np.sqrt(board_glare._area_around(half, cu, cv) / np.pi)) / 1.177)
        spot = board_glare._refine(rest, m, uu, vv, Spot(float(cu), float(cv), width, amp), p, least)
        if spot is not None and flank and 0 <= spot.u <= w and 0 <= spot.v <= h:
            spot = None
        if spot is not None and least < MIN_AMPLITUDE and not board_glare._beside(spot, found):
            spot = None
        if spot is None:
            cv2.circle(blocked, (cu, cv), max(2, round(2 * width)), 1.0, -1)
            continue
        found.append(spot)
        if len(found) < most or elliptic:
            model += spot.amplitude * board_glare._grid_bump((h, w), spot)
        rest = None
    for k, spot in enumerate(found if elliptic else []):
        if spot.amplitude < MIN_AMPLITUDE:
            continue
        others = model - spot.amplitude * board_glare._grid_bump((h, w), spot)
        found[k] = board_glare._elliptic(small - others, m, uu, vv, spot, p)
        if k < len(found) - 1:
            model = others + found[k].amplitude * board_glare._grid_bump((h, w), found[k])
    return [s._replace(u=s.u * SCALE, v=s.v * SCALE, width=s.width * SCALE) for s in found]


# ---- drawn inputs ----

_ODD_VALUES = [0.0, -0.0, 1e-40, -1e-40, 1e-8, 0.3, -0.3, 5.0, np.inf, -np.inf, np.nan]


@settings(max_examples=150, deadline=None)
@given(
    n=st.sampled_from([1, 2, 3, 11, 12, 255, 256, 257, 511, 512, 513, 600, 2047, 2048, 2049, 5000]),
    dtype=st.sampled_from([np.float32, np.float64]),
    zeros=st.floats(0.0, 1.0),
    odd=st.lists(st.sampled_from(_ODD_VALUES), max_size=4),
    spread=st.sampled_from([1e-4, 0.003, 0.1, 3.0]),
    seed=st.integers(0, 2**32 - 1),
)
def test_robust_scale_is_the_median_of_the_absolute_values(n, dtype, zeros, odd, spread, seed):
    """`_robust_scale` is main's ``max(1.4826 * float(median(np.abs(res))), 0.004)`` on
    residuals of every length either side of the sort / partition switch, in float32 and
    float64, with runs of signed zeros, subnormals, infinities and NaNs."""
    rng = np.random.default_rng(seed)
    res = rng.normal(0, spread, n).astype(dtype)
    res[rng.random(n) < zeros] = rng.choice([0.0, -0.0])
    for value in odd:
        res[rng.integers(n)] = value
    kept = res.copy()
    assert _same(board_glare._robust_scale(res), max(1.4826 * float(median(np.abs(res))), 0.004))
    assert _same(res, kept)  # the residuals are not touched


def test_robust_scale_of_a_long_float32_array_is_the_binned_median():
    """A residual list as long as `median` takes by bins (never so on the glare fit's small view)."""
    rng = np.random.default_rng(3)
    res = rng.normal(0, 0.02, 25_000).astype(np.float32)
    assert _same(board_glare._robust_scale(res), max(1.4826 * float(median(np.abs(res))), 0.004))


@settings(max_examples=100, deadline=None)
@given(
    n=st.sampled_from([12, 40, 300, LONG_COLUMNS, LONG_COLUMNS + 1, 6000]),
    columns=st.sampled_from([2, 4, 6]),
    dtype=st.sampled_from([np.float32, np.float64]),
    spread=st.sampled_from([1e-4, 0.01, 1.0]),
    singular=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
def test_tukey_step_is_mains(n, columns, dtype, spread, singular, seed):
    """A Gauss–Newton step weighted column by column (long Jacobians) or at once (short ones)
    is main's step, bit for bit, singular systems included."""
    rng = np.random.default_rng(seed)
    J = rng.normal(0, 1, (n, columns)).astype(dtype)
    if singular:
        J[:, -1] = 0
        J[:, 0] = 0
    res = rng.normal(0, spread, n).astype(dtype)
    res[rng.random(n) < 0.05] *= 40  # outliers, weighed to zero
    assert _same(board_glare._tukey_step(J, res), _tukey_step_main(J, res))


@settings(max_examples=150, deadline=None)
@given(
    size=st.integers(8, 110),
    holes=st.floats(0.0, 0.9),
    cu=st.floats(-60, 170),
    cv=st.floats(-60, 170),
    wd=st.floats(0.1, 50),
    seed=st.integers(0, 2**32 - 1),
)
def test_disc_is_mains(size, holes, cu, cv, wd, seed):
    """A spot's disc of usable pixels (its squared distances made in place) is main's, for
    discs inside, across and off the view, tiny and wider than it."""
    rng = np.random.default_rng(seed)
    rest = rng.normal(0, 0.1, (size, size)).astype(np.float32)
    usable = rng.random((size, size)) >= holes
    vv, uu = board_glare._grid(size, size)
    assert _same(
        board_glare._disc(rest, usable, uu, vv, cu, cv, wd), _disc_main(rest, usable, uu, vv, cu, cv, wd)
    )


@settings(max_examples=100, deadline=None)
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
def test_refine_and_elliptic_loops_are_mains(size, count, holes, start_u, start_v, start_w, least, seed):
    """The round fit (with the new step and disc) ends where main's ends, and the ellipse
    refined from where it ends (or from its start) is main's."""
    rng = np.random.default_rng(seed)
    rest = glare_bumps(rng, size, size, count, oval=True)
    m = (cv2.GaussianBlur(rng.random((size, size)).astype(np.float32), (0, 0), 3) >= holes * 0.6).astype(
        np.float32
    )
    vv, uu = board_glare._grid(size, size)
    start = Spot(start_u, start_v, start_w, float(rng.uniform(0.01, 0.4)))
    p = size / 9
    mp = pytest.MonkeyPatch()
    try:
        mp.setattr(board_glare, "_tukey_step", _tukey_step_main)
        mp.setattr(board_glare, "_disc", _disc_main)
        main_spot = board_glare._refine(rest, m, uu, vv, start, p, least)
    finally:
        mp.undo()
    spot = board_glare._refine(rest, m, uu, vv, start, p, least)
    assert _same(spot, main_spot)
    for s in (start, spot):
        if s is not None:
            assert _same(board_glare._elliptic(rest, m, uu, vv, s, p), _elliptic_main(rest, m, uu, vv, s, p))


@settings(max_examples=60, deadline=None)
@given(
    size=st.integers(30, 120),
    count=st.integers(0, 5),
    holes=st.floats(0.0, 0.5),
    elliptic=st.booleans(),
    most=st.integers(1, 3),
    seed=st.integers(0, 2**32 - 1),
)
def test_fit_spots_is_mains(size, count, holes, elliptic, most, seed):
    """The greedy spot search with each spot's light kept for the ellipses (round or elliptic,
    with room for fewer spots than the view shows) finds main's spots."""
    rng = np.random.default_rng(seed)
    excess = glare_bumps(rng, size, size, count, oval=True)
    usable = cv2.GaussianBlur(rng.random((size, size)).astype(np.float32), (0, 0), 3) >= holes * 0.6
    p = size / 9
    assert _same(
        board_glare.fit_spots(excess, usable, p, elliptic, most),
        _fit_spots_main(excess, usable, p, elliptic, most),
    )


@settings(max_examples=80, deadline=None)
@given(
    n=st.integers(1, 20),
    squares=st.integers(1, 81),
    channels=st.sampled_from([1, 2, 3, 4, 5]),
    dtype=st.sampled_from([np.float32, np.float64]),
    fill=st.floats(0.0, 1.0),
    bool_mask=st.booleans(),
    odd=st.lists(st.sampled_from(_ODD_VALUES), max_size=4),
    seed=st.integers(0, 2**32 - 1),
)
def test_square_means_are_mains(n, squares, channels, dtype, fill, bool_mask, odd, seed):
    """Each square's mean log colour, the products made where they lie and laid out
    pixel-major by `cv2.transpose`, is main's: any block size and count, 1 to 5 channels,
    float32 and float64, squares wholly masked, negative values (whose products with a
    masked pixel are -0.0), zeros, infinities and NaNs, and masks that are not boolean
    (main's form, kept for them)."""
    rng = np.random.default_rng(seed)
    lin = rng.normal(0.3, 0.4, (squares, n, n, channels)).astype(dtype)
    for value in odd:
        lin.flat[rng.integers(lin.size)] = value
    masks = rng.random((squares, n, n)) < fill
    if squares > 1:
        masks[0] = False
    if not bool_mask:
        masks = masks.astype(np.float32) * rng.choice([1.0, 0.5])
    kept = lin.copy()
    with np.errstate(invalid="ignore", divide="ignore"):
        assert _same(board_lighting.square_means(lin, masks), _square_means_main(lin, masks))
    assert _same(lin, kept)  # the caller's blocks are not touched


_CHECKERS = BoardGeometry(classes=tuple(tuple((r + f) % 2 for f in range(9)) for r in range(9)))


@settings(max_examples=60, deadline=None)
@given(
    ppu=st.sampled_from([1, 3, 8, 24]),
    maze=st.booleans(),
    unknown=st.booleans(),
    spread=st.sampled_from([0.01, 1.0, 30.0]),
    seed=st.integers(0, 2**32 - 1),
)
def test_prediction_by_squares_is_by_pixels(ppu, maze, unknown, spread, seed):
    """The lighting predicted with the class offsets laid out a row of squares at a time is
    the prediction with one offset looked up per pixel (main's), and so is where it is
    known: both board layouts, a class without an offset, fields from flat to overflowing."""
    rng = np.random.default_rng(seed)
    geometry = DEFAULT_GEOMETRY if maze else _CHECKERS
    view = View.of(geometry, ppu)
    offsets = {0: np.zeros(3), 1: rng.normal(0, 1, 3)}
    if maze and not unknown:
        offsets[2] = rng.normal(0, 1, 3)
    lighting = Lighting(rng.normal(0, spread, (6, 3)), offsets, 0, np.ones(81, bool))
    assert view.squares is not None
    with np.errstate(over="ignore"):
        assert _same(board_surface.predict(lighting, view), _predict_main(lighting, view))
    assert _same(
        lighting.predict_by_squares(view.basis, view.squares), lighting.predict_on(view.basis, view.classes)
    )


def test_a_view_not_in_squares_is_predicted_by_pixels():
    """A view whose class map is not one class per ppu × ppu square has no `squares`, and is
    predicted pixel by pixel as before."""
    base = View.of(DEFAULT_GEOMETRY, 4)
    classes = base.classes.copy()
    classes[5, 7] = 1 - classes[5, 7]
    odd = View(base.ppu, base.x, base.y, classes, base.line, base.basis)
    assert odd.squares is None
    assert View(3, base.x, base.y, base.classes, base.line, base.basis).squares is None  # 36 px, not 9 × 3
    lighting = Lighting(np.full((6, 3), 0.1), {0: np.zeros(3), 1: np.ones(3)}, 0, np.ones(81, bool))
    assert _same(board_surface.predict(lighting, odd), _predict_main(lighting, odd))


@settings(max_examples=40, deadline=None)
@given(
    odd=st.lists(st.sampled_from(_ODD_VALUES), max_size=6),
    dtype=st.sampled_from([np.float32, np.float64]),
    seed=st.integers(0, 2**32 - 1),
)
def test_the_lamp_taken_from_the_squares_only_is_from_the_whole_view(odd, dtype, seed):
    """The squares' inner pixels less the lamp light, subtracted there only, are the blocks of
    the whole view less the lamp light (odd values in both)."""
    from vision.board_fast import as_channels
    from vision.board_squares import PPU, _blocks, _without_lamp

    rng = np.random.default_rng(seed)
    n = 9 * PPU
    lin = rng.normal(0.3, 0.3, (n, n, 3)).astype(np.float32)
    lamp = rng.normal(0, 0.2, (n, n)).astype(dtype)
    for value in odd:
        lin.flat[rng.integers(lin.size)] = value
        lamp.flat[rng.integers(lamp.size)] = value
    with np.errstate(invalid="ignore"):
        assert _same(_without_lamp(lin, lamp), _blocks(lin - as_channels(lamp)))


def test_a_views_colours_of_square_are_its_classes():
    """`View.dark` and `View.light` are ``classes == 0`` and ``classes == 1``, read-only."""
    for ppu in (1, 24):
        view = View.of(DEFAULT_GEOMETRY, ppu)
        assert _same(view.dark, view.classes == 0) and _same(view.light, view.classes == 1)
        assert not view.dark.flags.writeable and not view.light.flags.writeable


def _grid_bump_main(shape, s):
    vv, uu = board_glare._grid(shape[0], shape[1])
    if s.aspect != 1.0:
        return board_glare._bump(uu, vv, s)
    du, dv = uu[0] - s.u, vv[:, 0] - s.v
    r2 = (du * du)[None, :] + (dv * dv)[:, None]
    return np.exp(-r2 / (2 * s.width * s.width))


@settings(max_examples=80, deadline=None)
@given(
    h=st.integers(1, 60),
    w=st.integers(1, 60),
    u=st.floats(-20, 80),
    v=st.floats(-20, 80),
    width=st.sampled_from([0.0, 1e-20, 0.4, 3.0, 30.0, 1e20, float("inf"), float("nan")]),
    numpy_width=st.booleans(),
    aspect=st.sampled_from([1.0, 1.2]),
)
def test_a_spot_over_the_grid_is_mains(h, w, u, v, width, numpy_width, aspect):
    """A spot's light over the small view, the exponential taken in the quotient's memory, is
    main's: widths from zero to infinite and NaN, given as a Python or a numpy float (whose
    product makes the quotient float64, as main's)."""
    s = Spot(u, v, np.float64(width) if numpy_width else width, 0.3, aspect, 0.5)
    with np.errstate(all="ignore"):
        assert _same(board_glare._grid_bump((h, w), s), _grid_bump_main((h, w), s))


# ---- real reads ----

_REPLACED = {
    "fit_spots": (board_glare, _fit_spots_main),
    "_tukey_step": (board_glare, _tukey_step_main),
    "_disc": (board_glare, _disc_main),
    "square_means": (board_lighting, _square_means_main),
    "predict": (board_surface, _predict_main),
    "_elliptic": (board_glare, _elliptic_main),
    "_grid_bump": (board_glare, _grid_bump_main),
}


@pytest.fixture(scope="module")
def real_inputs():
    """Every call of the replaced functions in the stateless and camera-still reads of a few tune scenes (glare spots, hands, an ellipse kept, a spot held
    at the bound)."""
    from tests.scene_cache import scene
    from vision import board_squares
    from vision.board_reader import BoardTracker

    calls: dict[str, list] = {}

    def recording(name, fn):
        def record(*args, **kwargs):
            calls.setdefault(name, []).append((args, kwargs))
            return fn(*args, **kwargs)

        return record

    mp = pytest.MonkeyPatch()
    for name, (module, _) in _REPLACED.items():
        fn = getattr(module, name)
        for m in (module, board_squares, board_surface):
            if getattr(m, name, None) is fn:
                mp.setattr(m, name, recording(name, fn))
    try:
        for i in (5, 41, 74, 15):
            tracker = BoardTracker(reuse=False)
            image = scene("tune", i).image
            tracker.read(image)
            tracker.read(image)
    finally:
        mp.undo()
    return calls


@pytest.mark.parametrize("name", sorted(_REPLACED))
def test_real_reads_give_mains_numbers(real_inputs, name):
    calls = real_inputs.get(name)
    assert calls
    module, main = _REPLACED[name]
    new = getattr(module, name)
    for args, kwargs in calls:
        assert _same(new(*args, **kwargs), main(*args, **kwargs)), name
