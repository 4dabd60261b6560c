"""Round 25's exact speed-ups of the lighting and glare step (board25g) give the numbers of the
forms they replace (main's at stop 30), bit for bit: those forms are kept here and checked
against the new ones on generated inputs and on every call made while reading a few tune
scenes (glare spots, hands, an ellipse kept, a spot held at the bound)."""

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
from vision.board_glare import (
    ELLIPSE_GAIN,
    FLANK_AMPLITUDE,
    ITERATIONS,
    MAX_ASPECT,
    MAX_REJECTS,
    MAX_SPOTS,
    MAX_WIDTH,
    MIN_AMPLITUDE,
    MIN_WIDTH,
    NARROW,
    OUTSIDE,
    OUTSIDE_NARROW,
    SCALE,
    Spot,
    _disc,
    _held,
    _tukey_step,
    spot_light,
    spot_map,
)
from vision.board_lighting import CONSENSUS_TOL, LOG_FLOOR, Lighting
from vision.board_surface import (
    SPOT_CONTRAST,
    SPOT_DOUBT,
    SPOT_EXPLAINS,
    SPOT_SLACK,
    SPOT_WITNESS,
    Lamp,
    View,
    _at_saturated,
    _box,
    _light_sums,
    _lone_spot,
    channel_mean,
    csum,
)

# ---- the forms replaced, as main had them at stop 30 ----


def _predict_on_main(lighting, basis, classes):
    top = int(classes.max()) + 1 if classes.size else 1
    table = np.zeros((max(top, *[c + 1 for c in lighting.offsets]), 3), basis.dtype)
    known_table = np.zeros(len(table), bool)
    for c, off in lighting.offsets.items():
        table[c] = off
        known_table[c] = True
    return basis @ lighting.field.astype(basis.dtype) + np.take(table, classes, axis=0), known_table[classes]


def _predict_main(lighting, view):
    log, known = _predict_on_main(lighting, view.basis, view.classes)
    return (np.exp(log) - LOG_FLOOR).clip(1e-4, None), known


def _square_means_main(lin, masks):
    logc = np.log(np.clip(lin, 0, None) + LOG_FLOOR)
    m = masks.astype(np.float32)
    count, channels = len(logc), logc.shape[-1]
    prod = np.empty((logc[0].size // channels, count, channels), np.result_type(logc, m))
    np.multiply(logc.reshape(count, -1, channels), m.reshape(count, -1, 1), out=prod.transpose(1, 0, 2))
    return (prod.sum(axis=0) / np.maximum(m.sum(axis=(1, 2)), 1.0)[:, None]).astype(np.float64)


def _grey_excess_main(lin, pred):
    e0, e1, e2 = (lin[..., c] - pred[..., c] for c in range(3))
    mean = (e0 + e1 + e2) / 3
    sq = None
    for e in (e0, e1, e2):
        np.subtract(e, mean, out=e)
        np.multiply(e, e, out=e)
        sq = e if sq is None else np.add(sq, e, out=sq)
    return mean, np.sqrt(sq) < 0.43 * np.abs(mean) + 0.01


def _local_light_main(lin, pred, w, r, lam_a, lam_b, sums=None, sw=None):
    pp, pl, ps, ls = _light_sums(lin, pred) if sums is None else sums
    if sw is None:
        sw = _box(w, r)
    a11 = _box(w * pp, r) + lam_a
    a12 = _box(w * ps, r)
    a22 = 3 * sw + lam_b
    r1 = _box(w * pl, r) + lam_a
    r2 = _box(w * ls, r)
    det = a11 * a22 - a12 * a12
    det = np.where(np.abs(det) < 1e-12, 1e-12, det)
    return (r1 * a22 - a12 * r2) / det, (a11 * r2 - a12 * r1) / det


def _judged_main(spots, lin, pred, grey, usable, saturated, view, pieces=None):
    lin_mean, pred_mean = csum(lin) / 3, csum(pred) / 3
    seeing = (usable & grey) | saturated
    seeing_dark, seeing_light = seeing & (view.classes == 0), seeing & (view.classes == 1)
    kept, doubtful = [], []
    for s in spots:
        bump = spot_map([s], lin_mean.shape)
        lit = pred_mean + bump
        gap = _at_saturated(lin_mean - lit, saturated, 1.0, lit)
        witnessed = False
        for level in (0.5, 0.25, 0.1):
            under = bump > level * s.amplitude
            dark, light = seeing_dark & under, seeing_light & under
            if np.count_nonzero(dark) >= 10 and np.count_nonzero(light) >= 10:
                lit_dark, lit_light = float(median(bump[dark])), float(median(bump[light]))
                seen = sorted((lit_dark, lit_light))
                witnessed = not (seen[0] < SPOT_WITNESS and seen[1] >= 2 * SPOT_WITNESS)
                break
        if not witnessed:
            if _lone_spot(s, bump, gap, seeing & under, view, pieces):
                kept.append(s)
            continue
        gap_dark, gap_light = median(gap[dark]), median(gap[light])
        lost = float(gap_dark - gap_light)
        contrast = float(median(pred_mean[light]) - median(pred_mean[dark]))
        there = all(
            float(g) >= -SPOT_EXPLAINS * b - SPOT_SLACK
            for g, b in ((gap_dark, lit_dark), (gap_light, lit_light))
        )
        if contrast <= 0 or not there:
            continue
        if lost <= (1 - SPOT_CONTRAST) * contrast:
            kept.append(s)
        elif lost <= SPOT_DOUBT * contrast:
            doubtful.append(s)
    return Lamp(kept, doubtful)


def _refine_main(rest, m, uu, vv, s, p, least=MIN_AMPLITUDE):
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
        J = np.empty((g.size, 4), g.dtype)
        J[:, 0] = g
        for k, (x, d) in enumerate(((du, wd**2), (dv, wd**2), (r2, wd**3)), 1):
            np.divide(np.multiply(ag, x, out=J[:, k]), d, out=J[:, k])
        step = _tukey_step(J, res)
        if step is None:
            return None
        d_amp, d_u, d_v, d_wd = step.tolist()
        amp += d_amp
        cu += d_u
        cv += d_v
        wd = min(max(wd + d_wd, 0.15 * p), MAX_WIDTH * p)
        if it > 3 and wd < MIN_WIDTH * p:
            return None
        if abs(d_u) < 0.05 and abs(d_v) < 0.05 and abs(d_wd) < 0.05:
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


def _elliptic_main(rest, m, uu, vv, s, p):
    cu, cv, amp = s.u, s.v, s.amplitude
    q = np.array([1 / s.width**2, 0.0, 1 / s.width**2])  # inverse covariance: uu, uv, vv
    reach = 3.5 * s.width
    near = ((uu - cu) ** 2 + (vv - cv) ** 2 < reach**2) & (m > 0)
    if near.sum() < 24:
        return s
    u_near, v_near, rest_near = uu[near], vv[near], rest[near]
    for _ in range(ITERATIONS):
        du, dv = u_near - cu, v_near - cv
        g = np.exp(-0.5 * (q[0] * du * du + 2 * q[1] * du * dv + q[2] * dv * dv))
        res = rest_near - amp * g
        ag = amp * g
        J = np.stack(
            [
                g,
                ag * (q[0] * du + q[1] * dv),
                ag * (q[1] * du + q[2] * dv),
                -0.5 * ag * du * du,
                -ag * du * dv,
                -0.5 * ag * dv * dv,
            ],
            1,
        )
        step = board_glare._tukey_step(J, res)
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
    long_w, short_w = 1 / np.sqrt(lam[0]), 1 / np.sqrt(lam[1])  # smaller precision: longer axis
    if (
        long_w / short_w > MAX_ASPECT
        or short_w < MIN_WIDTH * p
        or long_w > MAX_WIDTH * p
        or amp < s.amplitude / 2
    ):
        return s
    # It must stay where the round fit put it: the ellipse refines a spot, it does not move it.
    if (cu - s.u) ** 2 + (cv - s.v) ** 2 > (0.5 * s.width) ** 2:
        return s
    angle = float(np.arctan2(vec[1, 0], vec[0, 0]))
    out = Spot(cu, cv, float(np.sqrt(long_w * short_w)), amp, float(long_w / short_w), angle)
    # Kept only if it explains the light around it clearly better than the round spot did
    # (robust loss over the same pixels, at the round fit's noise scale).
    before = rest[near] - s.amplitude * board_glare._bump(uu[near], vv[near], s)
    after = rest[near] - out.amplitude * board_glare._bump(uu[near], vv[near], out)
    c = 4.685 * max(1.4826 * float(median(np.abs(before))), 0.004)
    gain = board_glare._tukey(after, c) / max(board_glare._tukey(before, c), 1e-12)
    if gain > ELLIPSE_GAIN:
        return s
    return out


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
    found: list[Spot] = []  # in the small view's pixels
    # Where the excess is measured: a smoothed copy finds the peaks, the raw one fits them.
    den = cv2.GaussianBlur(m, (0, 0), 0.15 * p)
    measured = den > 0.3
    den_floor = np.maximum(den, 1e-6)
    blocked = np.zeros_like(m)  # peaks that did not make a spot (a hand's edge, a sticker)
    # What is left of the excess, smoothed, and the companions' floor change only when a
    # spot is added: a peak given up just blocks its place (the same numbers, made once).
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
            # Two overlapping reflections are first fitted as one spot; what the strong one
            # leaves beside it is fainter than a spot on its own, and as real.
            k = int(np.argmax(near))
            cv, cu = divmod(k, w)
            amp, least, flank = float(smooth[cv, cu]), float(floor[cv, cu]), False
        elif flank:
            # A spot centred off the board shows only its flank, fainter than its peak: a
            # faint bump at the board's edge is tried, and kept only if centred off the board.
            k = int(np.argmax(np.where(board_glare._edge_band(h, w, p), smooth, -1.0)))
            cv, cu = divmod(k, w)
            amp = float(smooth[cv, cu])
            if amp < FLANK_AMPLITUDE:
                break
        # Start from the half-height area of the peak, then refine.
        half = ((smooth > amp / 2) & measured).astype(np.uint8)
        width = max(MIN_WIDTH * p, float(np.sqrt(board_glare._area_around(half, cu, cv) / np.pi)) / 1.177)
        spot = board_glare._refine(rest, m, uu, vv, Spot(float(cu), float(cv), width, amp), p, least)
        if spot is not None and flank and 0 <= spot.u <= w and 0 <= spot.v <= h:
            spot = None  # a faint bump on the board is noise or a misfit, not a flank
        if spot is not None and least < MIN_AMPLITUDE and not board_glare._beside(spot, found):
            spot = None  # a faint companion must stay beside its strong spot
        if spot is None:
            cv2.circle(blocked, (cu, cv), max(2, round(2 * width)), 1.0, -1)
            continue
        found.append(spot)
        model += spot.amplitude * board_glare._grid_bump((h, w), spot)
        rest = None
    # Then each spot is refined as an ellipse, the others' light taken away: the spots found
    # stay the same, only their shapes improve.
    for k, spot in enumerate(found if elliptic else []):
        if spot.amplitude < MIN_AMPLITUDE:
            continue  # a faint flank or companion: its shape is not worth the time
        others = model - spot.amplitude * board_glare._grid_bump((h, w), spot)
        found[k] = board_glare._elliptic(small - others, m, uu, vv, spot, p)
        model = others + found[k].amplitude * board_glare._grid_bump((h, w), found[k])
    return [s._replace(u=s.u * SCALE, v=s.v * SCALE, width=s.width * SCALE) for s in found]


def _consensus_main(xy, y, usable, X=None):  # X: the new form's argument, unused
    X = board_lighting.design(xy[:, 0], xy[:, 1])[:, :3]
    idx = np.flatnonzero(usable)
    if len(idx) < 5:
        return usable.astype(float)
    samples = idx[board_lighting._trial_triples(len(idx))]  # (T, 3) distinct squares per trial
    A = X[samples]  # (T, 3, 3)
    ok = np.abs(np.linalg.det(A)) > 1e-6
    if not ok.any():
        return usable.astype(float)
    betas = np.linalg.solve(A[ok], y[samples[ok]])  # (T, 3, 3): per trial, basis × channel
    diff = y[None] - np.matmul(X[None], betas)  # (T, 81, 3)
    sq = diff * diff
    err = np.sqrt((sq[..., 0] + sq[..., 1] + sq[..., 2]) / 3)  # .sum(axis=2), bit for bit, faster
    inliers = usable[None] & (err < CONSENSUS_TOL)
    return inliers[int(np.argmax(inliers.sum(axis=1)))].astype(float)


# ---- generated inputs ----


def _lighting(rng, offsets):
    field = rng.normal(0, 0.4, (6, 3)) * [[1], [1], [1], [0.3], [0.3], [0.3]]
    field[0] += rng.uniform(-4, 1)
    offs = {0: np.zeros(3)}
    for c in offsets:
        offs[c] = rng.normal(0, 1.5, 3)
    return Lighting(field, offs, 0, np.ones(81, bool))


@settings(max_examples=60, deadline=None)
@given(
    ppu=st.sampled_from([6, 12, 24]),
    offsets=st.sampled_from([(), (1,), (1, 2), (2,)]),
    seed=st.integers(0, 2**32 - 1),
)
def test_predict_in_place_is_main(ppu, offsets, seed):
    """Bare board's prediction over a view (some classes unknown, light fields that clip
    at the floor), and the log prediction at board points of broadcast shapes."""
    from vision.board_geometry import DEFAULT_GEOMETRY

    rng = np.random.default_rng(seed)
    lighting = _lighting(rng, offsets)
    view = View.of(DEFAULT_GEOMETRY, ppu)
    assert _same(board_surface.predict(lighting, view), _predict_main(lighting, view))
    x, y = rng.uniform(0, 9, (5, 4)), rng.uniform(0, 9, (5, 4))
    from vision.board_lighting import design

    for classes in (rng.integers(0, 3, (5, 4)), rng.integers(0, 3, (2, 5, 4))):  # the second broadcasts
        assert _same(lighting.predict(x, y, classes), _predict_on_main(lighting, design(x, y), classes))
    basis = design(x, y).astype(np.float32)
    classes = rng.integers(0, 3, (5, 4))
    assert _same(lighting.predict_on(basis, classes), _predict_on_main(lighting, basis, classes))


def test_predict_keeps_nan_and_the_floor():
    """A NaN in the field stays NaN, a prediction below the floor is held at 1e-4."""
    from vision.board_geometry import DEFAULT_GEOMETRY

    view = View.of(DEFAULT_GEOMETRY, 6)
    for field0 in (np.nan, -30.0, np.inf, -np.inf):
        field = np.zeros((6, 3))
        field[0] = field0
        lighting = Lighting(field, {0: np.zeros(3), 1: np.ones(3)}, 0, np.ones(81, bool))
        assert _same(board_surface.predict(lighting, view), _predict_main(lighting, view))


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(1, 8),
    squares=st.integers(1, 12),
    spread=st.floats(0.01, 3.0),
    dtype=st.sampled_from([np.float32, np.float64]),
    seed=st.integers(0, 2**32 - 1),
)
def test_square_means_in_place_is_main(n, squares, spread, dtype, seed):
    """Square means of blocks with negative and zero values (clipped) in either float type."""
    rng = np.random.default_rng(seed)
    lin = (rng.normal(0.2, spread, (squares, n, n, 3))).astype(dtype)
    lin[rng.random(lin.shape) < 0.1] = 0
    masks = rng.random((squares, n, n)) < 0.7
    assert _same(board_lighting.square_means(lin, masks), _square_means_main(lin, masks))


@settings(max_examples=60, deadline=None)
@given(
    h=st.integers(1, 40), w=st.integers(1, 40), spread=st.floats(0.001, 2.0), seed=st.integers(0, 2**32 - 1)
)
def test_grey_excess_and_channel_mean_are_main(h, w, spread, seed):
    """The grey excess, and the mean over the channels, of pictures with NaN now and then."""
    rng = np.random.default_rng(seed)
    lin = rng.normal(0.3, spread, (h, w, 3)).astype(np.float32)
    pred = rng.normal(0.3, spread, (h, w, 3)).astype(np.float32)
    lin[rng.random(lin.shape) < 0.01] = np.nan
    assert _same(board_surface._grey_excess(lin, pred), _grey_excess_main(lin, pred))
    assert _same(channel_mean(lin), csum(lin) / 3)
    assert _same(channel_mean(lin.astype(np.float64)), csum(lin.astype(np.float64)) / 3)


@settings(max_examples=60, deadline=None)
@given(
    size=st.integers(8, 60),
    r=st.integers(1, 12),
    holes=st.floats(0.0, 1.0),
    lam=st.floats(0.0, 50.0),
    flat=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
def test_local_light_in_place_is_main(size, r, holes, lam, flat, seed):
    """The local light's per-pixel solve, with and without its sums made, with weights of 0
    and 1 (windows with none: a zero determinant held at 1e-12)."""
    rng = np.random.default_rng(seed)
    lin = rng.uniform(0, 1, (size, size, 3)).astype(np.float32)
    pred = rng.uniform(0, 1, (size, size, 3)).astype(np.float32)
    if flat:
        pred[:] = pred[0, 0]
    w = (rng.random((size, size)) >= holes).astype(np.float32)
    lam_a, lam_b = lam * float(rng.uniform(0, 1)), lam
    assert _same(
        board_surface._local_light(lin, pred, w, r, lam_a, lam_b),
        _local_light_main(lin, pred, w, r, lam_a, lam_b),
    )
    sums, sw = _light_sums(lin, pred), _box(w, r)
    assert _same(
        board_surface._local_light(lin, pred, w, r, lam_a, lam_b, sums, sw),
        _local_light_main(lin, pred, w, r, lam_a, lam_b, sums, sw),
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
def test_refine_and_elliptic_are_main(size, count, holes, start_u, start_v, start_w, least, seed):
    """A round spot's fit from any start on a view of (slightly oval) bumps, and the ellipse
    refined from where it ends (or from the start), end where main's forms end."""
    rng = np.random.default_rng(seed)
    rest = glare_bumps(rng, size, size, count, oval=True)
    m = (cv2.GaussianBlur(rng.random((size, size)).astype(np.float32), (0, 0), 3) >= holes * 0.6).astype(
        np.float32
    )
    vv, uu = board_glare._grid(size, size)
    start = Spot(start_u, start_v, start_w, float(rng.uniform(0.01, 0.4)))
    p = size / 9
    spot = board_glare._refine(rest, m, uu, vv, start, p, least)
    assert _same(spot, _refine_main(rest, m, uu, vv, start, p, least))
    for s in (start, spot):
        if s is not None:
            assert _same(board_glare._elliptic(rest, m, uu, vv, s, p), _elliptic_main(rest, m, uu, vv, s, p))


@settings(max_examples=60, deadline=None)
@given(
    h=st.integers(1, 60),
    w=st.integers(1, 60),
    u=st.floats(-20, 80),
    v=st.floats(-20, 80),
    width=st.floats(0.5, 30),
    amplitude=st.sampled_from([0.3, 1e-30, 0.0, -0.0, -0.2, float("nan")]),
    aspect=st.sampled_from([1.0, MAX_ASPECT]),
)
def test_spot_light_is_its_map(h, w, u, v, width, amplitude, aspect):
    """One spot's light, read-only, is `spot_map` of it alone (amplitudes of either sign,
    zero and NaN)."""
    s = Spot(u, v, width, amplitude, aspect, 0.3)
    assert _same(spot_light(s, (h, w)), spot_map([s], (h, w)))


@settings(max_examples=60, deadline=None)
@given(
    size=st.integers(30, 120),
    count=st.integers(0, 5),
    holes=st.floats(0.0, 0.5),
    elliptic=st.booleans(),
    most=st.integers(1, 3),
    seed=st.integers(0, 2**32 - 1),
)
def test_fit_spots_is_main(size, count, holes, elliptic, most, seed):
    """The greedy spot search (the model left unmade where nothing reads it), round or
    elliptic, with room for fewer spots than the view shows."""
    rng = np.random.default_rng(seed)
    excess = glare_bumps(rng, size, size, count, oval=True)
    usable = cv2.GaussianBlur(rng.random((size, size)).astype(np.float32), (0, 0), 3) >= holes * 0.6
    p = size / 9
    assert _same(
        board_glare.fit_spots(excess, usable, p, elliptic, most),
        _fit_spots_main(excess, usable, p, elliptic, most),
    )


@settings(max_examples=60, deadline=None)
@given(bare=st.floats(0.0, 1.0), spread=st.floats(0.01, 1.0), seed=st.integers(0, 2**32 - 1))
def test_consensus_is_main(bare, spread, seed):
    """The consensus plane's squares, given the layout's basis, on planes with outliers."""
    from vision.board_geometry import DEFAULT_GEOMETRY

    rng = np.random.default_rng(seed)
    _, xy, X = board_lighting._square_layout(DEFAULT_GEOMETRY.classes)
    y = X[:, :3] @ rng.normal(0, 0.5, (3, 3)) + rng.normal(0, 0.03, (81, 3))
    y[rng.random(81) > bare] += rng.normal(0, spread, 3)
    usable = rng.random(81) < 0.8
    assert _same(board_lighting._consensus(xy, y, usable, X), _consensus_main(xy, y, usable))
    assert _same(board_lighting._consensus(xy, y, usable), _consensus_main(xy, y, usable))


@settings(max_examples=80, deadline=None)
@given(
    ppu=st.sampled_from([6, 12]),
    spots=st.lists(
        st.tuples(
            st.floats(-40, 150),
            st.floats(-40, 150),
            st.floats(0.3, 60),
            st.sampled_from([0.3, 0.05, 0.01, 0.0, -0.1, float("nan")]),
            st.sampled_from([1.0, 1.2, MAX_ASPECT]),
        ),
        max_size=3,
    ),
    sat=st.floats(0.0, 0.2),
    hand=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
def test_judged_in_its_box_is_main(ppu, spots, sat, hand, seed):
    """The spots' judgement made in the box each lights (`_lit_box`): spots on and off the
    view, narrow and wide, round and elliptic, of no or negative amplitude, over board with
    clipped pixels, a pale patch and pieces."""
    from vision.board_geometry import DEFAULT_GEOMETRY

    rng = np.random.default_rng(seed)
    view = View.of(DEFAULT_GEOMETRY, ppu)
    n = 9 * ppu
    pred = np.where((view.classes == 1)[..., None], 0.6, 0.1).astype(np.float32) * rng.uniform(0.5, 1.5, 3)
    pred = pred.astype(np.float32)
    spots = [Spot(u, v, w, a, asp, 0.4) for u, v, w, a, asp in spots]
    lamp = spot_map([t for t in spots if t.amplitude > 0], (n, n))
    lin = (pred + lamp[..., None] * rng.uniform(0.8, 1.2) + rng.normal(0, 0.01, pred.shape)).astype(
        np.float32
    )
    if hand:
        lin[n // 3 : n // 2, n // 4 : n // 2] = 0.45
    saturated = rng.random((n, n)) < sat
    grey = rng.random((n, n)) < 0.9
    usable = rng.random((n, n)) < 0.95
    pieces = rng.random((n, n)) < 0.05 if hand else None
    args = (spots, lin, pred, grey, usable, saturated, view, pieces)
    assert _same(board_surface._judged(*args), _judged_main(*args))


# ---- real reads ----

_REPLACED = {
    "predict": board_surface,
    "fit_spots": board_glare,
    "_consensus": board_lighting,
    "square_means": board_lighting,
    "_grey_excess": board_surface,
    "_judged": board_surface,
    "_local_light": board_surface,
    "_refine": board_glare,
    "_elliptic": board_glare,
}
_MAIN = {
    "predict": _predict_main,
    "fit_spots": _fit_spots_main,
    "_consensus": _consensus_main,
    "square_means": _square_means_main,
    "_grey_excess": _grey_excess_main,
    "_judged": _judged_main,
    "_local_light": _local_light_main,
    "_refine": _refine_main,
    "_elliptic": _elliptic_main,
}


@pytest.fixture(scope="module")
def real_inputs():
    """Every call of the replaced functions in the stateless and camera-still reads of a few
    tune scenes (glare spots, hands, an ellipse kept, a spot held at the bound)."""
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
    for name, module in _REPLACED.items():
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
    new = getattr(_REPLACED[name], name)
    for args, kwargs in calls:
        assert _same(new(*args, **kwargs), _MAIN[name](*args, **kwargs)), name
