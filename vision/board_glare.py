"""Glare on the board as a few Gaussian spots of lamp light.

A lamp reflected by a glossy board *adds* its light to whatever the board shows: in linear
RGB the excess over the bare board's colour is the lamp's colour times a smooth bump. The
reader models each reflection as an isotropic Gaussian spot (centre, width, amplitude) in the
top view, fitted greedily to the lamp-coloured excess (strongest spot first, Gauss–Newton with
Tukey weights so that hands and pieces inside the spot do not pull it). Saturated pixels are
left out of the fit: the spot's shoulders fix its height, and the spot then *predicts* the
clipping, so a washed-out bare square is still recognised as bare board.

Below the least amplitude, two kinds of faint spot are still fitted, where only part of a
reflection shows: the flank of a spot centred off the board (looked for at the board's edge,
kept only if centred off it), and a faint companion beside a strong spot (two overlapping
reflections, first fitted as one).

A round reflection seen through a tilted camera is an ellipse in the top view. On request
(``elliptic``: the reader asks in its last glare round, once the lighting is settled) each
spot found, but the faint ones, is refined as an ellipse at most MAX_ASPECT times longer one
way than the other, and kept so only if it leaves at most ELLIPSE_GAIN of the round spot's
misfit.

>>> import numpy as np
>>> yy, xx = np.mgrid[0:80, 0:80].astype(np.float32)
>>> excess = 0.3 * np.exp(-((xx - 30) ** 2 + (yy - 50) ** 2) / (2 * 8.0**2))
>>> [round(v) for v in fit_spots(excess, np.ones_like(excess, bool), ppu=20)[0][:3]]
[30, 50, 8]
"""

from __future__ import annotations

import math
from functools import cache, lru_cache
from typing import NamedTuple

import cv2
import numpy as np

from vision.board_fast import BINNED_ABOVE, SORT_BELOW, median

MAX_SPOTS = 3
MAX_REJECTS = 4  # peaks tried and given up (not spot-shaped) before stopping
MIN_AMPLITUDE = 0.04  # linear excess below this is not worth modelling
FLANK_AMPLITUDE = 0.02  # ... or this, at the board's edge, for the flank of a spot centred off it
FLANK_BAND = 0.5  # squares: how near the board's edge such a flank is looked for
COMPANION, COMPANION_REACH = 0.03, 2.0  # beside a strong spot: share of its peak, its widths
MIN_WIDTH = 0.25  # squares: narrower bumps are not lamp reflections (edges, stickers)
MAX_WIDTH = 4.0
MAX_ASPECT = 1.3  # long ÷ short width of an elliptic spot (a round reflection seen at an angle)
ELLIPSE_GAIN = 0.8  # an ellipse replaces a round spot only if it leaves this share of its misfit
OUTSIDE = 1.5  # squares: how far off the board a spot's centre may lie (one fitted further out is held here)
OUTSIDE_NARROW = 2.5  # ... if the spot is no wider than NARROW squares
NARROW = 1.25
ITERATIONS = 12
LONG_COLUMNS = 2048  # a Jacobian this long is weighted column by column (`_tukey_step`)
SCALE = 2  # the fit runs on a view this many times smaller: spots are smooth


class Spot(NamedTuple):
    """A Gaussian spot of lamp light: centre (u, v) and width in top-view pixels, peak excess.

    A round reflection seen at an angle is an ellipse in the top view: ``width`` is then the
    geometric mean of its two widths, ``aspect`` (≥ 1) their ratio and ``angle`` the long
    axis's direction (radians, from the u axis towards v).
    """

    u: float
    v: float
    width: float
    amplitude: float
    aspect: float = 1.0
    angle: float = 0.0


def _bump(u: np.ndarray, v: np.ndarray, s: Spot) -> np.ndarray:
    du, dv = u - s.u, v - s.v
    if s.aspect == 1.0:
        return np.exp(-(du * du + dv * dv) / (2 * s.width * s.width))
    c, n = np.cos(s.angle), np.sin(s.angle)
    along, across = du * c + dv * n, dv * c - du * n
    long2, short2 = s.width * s.width * s.aspect, s.width * s.width / s.aspect
    return np.exp(-(along * along / (2 * long2) + across * across / (2 * short2)))


def _grid_bump(shape: tuple[int, int], s: Spot) -> np.ndarray:
    """``_bump`` over the whole ``_grid`` of a view of ``shape``: the same numbers. A round
    spot's squared offsets are made once per column and per row and added over the view
    (the same two squares summed at each pixel), not squared pixel by pixel."""
    vv, uu = _grid(shape[0], shape[1])
    if s.aspect != 1.0:
        return _bump(uu, vv, s)
    du, dv = uu[0] - s.u, vv[:, 0] - s.v
    r2 = (du * du)[None, :] + (dv * dv)[:, None]
    # ``np.exp(-r2 / (2 * s.width * s.width))``, negated in the sum's memory and exponentiated
    # in the quotient's: the same operations, two arrays of the view's size fewer.
    g = np.divide(np.negative(r2, out=r2), 2 * s.width * s.width)
    return np.exp(g, out=g)


def fit_spots(
    excess: np.ndarray, usable: np.ndarray, ppu: float, elliptic: bool = False, most: int = MAX_SPOTS
) -> list[Spot]:
    """At most ``most`` Gaussian spots explaining ``excess`` (lamp light per pixel, linear)
    where ``usable``.

    ``ppu`` is the view's pixels per square, which bounds the plausible spot widths;
    ``elliptic`` lets a spot be refined as an ellipse (see the module docstring).
    """
    small = cv2.resize(
        excess.astype(np.float32, copy=False), None, fx=1 / SCALE, fy=1 / SCALE, interpolation=cv2.INTER_AREA
    )
    m = cv2.resize(usable.astype(np.float32), None, fx=1 / SCALE, fy=1 / SCALE, interpolation=cv2.INTER_AREA)
    m = (m > 0.99).astype(np.float32)
    p = ppu / SCALE
    h, w = small.shape
    vv, uu = _grid(h, w)
    model = np.zeros_like(small)
    found: list[Spot] = []  # in the small view's pixels
    lights: list[np.ndarray] = []  # each found spot's light over the small view, as in the model
    # Where the excess is measured: a smoothed copy finds the peaks, the raw one fits them.
    den = cv2.GaussianBlur(m, (0, 0), 0.15 * p)
    measured = den > 0.3
    den_floor = np.maximum(den, 1e-6)
    # Where a peak is looked for: measured, and not where one that did not make a spot was
    # (a hand's edge, a sticker: blocked by a disc drawn as 0, the pixels `cv2.circle` fills
    # whatever the array's type). A bool array's bytes are the 0/1 of a uint8 one.
    free = measured.view(np.uint8).copy()
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
        smooth = np.where(free.view(bool), smoothed, -1.0)
        k = int(np.argmax(smooth))
        cv, cu = divmod(k, w)
        amp = float(smooth[cv, cu])
        least = MIN_AMPLITUDE
        flank = amp < MIN_AMPLITUDE
        if flank and found and floors is None:
            floors = _companion_floor(found, uu, vv)
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
            k = int(np.argmax(np.where(_edge_band(h, w, p), smooth, -1.0)))
            cv, cu = divmod(k, w)
            amp = float(smooth[cv, cu])
            if amp < FLANK_AMPLITUDE:
                break
        # Start from the half-height area of the peak, then refine.
        half = np.greater(smooth, amp / 2)
        half &= measured
        width = max(MIN_WIDTH * p, float(np.sqrt(_area_around(half.view(np.uint8), cu, cv) / np.pi)) / 1.177)
        spot = _refine(rest, m, uu, vv, Spot(float(cu), float(cv), width, amp), p, least)
        if spot is not None and flank and 0 <= spot.u <= w and 0 <= spot.v <= h:
            spot = None  # a faint bump on the board is noise or a misfit, not a flank
        if spot is not None and least < MIN_AMPLITUDE and not _beside(spot, found):
            spot = None  # a faint companion must stay beside its strong spot
        if spot is None:
            cv2.circle(free, (cu, cv), max(2, round(2 * width)), 0, -1)
            continue
        found.append(spot)
        if len(found) < most or elliptic:  # else the model is not looked at again
            lights.append(spot.amplitude * _grid_bump((h, w), spot))
            model += lights[-1]
        rest = None
    # Then each spot is refined as an ellipse, the others' light taken away: the spots found
    # stay the same, only their shapes improve.
    # Each spot's light is the one added to the model above (the same product of the same
    # spot), and again when the ellipse is refused (`_elliptic` then gives the spot back).
    for k, spot in enumerate(found if elliptic else []):
        if spot.amplitude < MIN_AMPLITUDE:
            continue  # a faint flank or companion: its shape is not worth the time
        others = model - lights[k]
        found[k] = _elliptic(small - others, m, uu, vv, spot, p)
        if k < len(found) - 1:  # the last spot's model is not looked at again
            light = lights[k] if found[k] is spot else found[k].amplitude * _grid_bump((h, w), found[k])
            model = others + light
    return [s._replace(u=s.u * SCALE, v=s.v * SCALE, width=s.width * SCALE) for s in found]


def _area_around(mask: np.ndarray, u: int, v: int) -> int:
    """The number of pixels in the 8-connected region of a uint8 0/1 ``mask`` holding (u, v),
    as ``cv2.connectedComponents`` labels it (all the zeros, if (u, v) is one), without
    labelling the whole view: a flood fill from (u, v), which changes ``mask``."""
    if not mask[v, u]:
        return int(np.count_nonzero(mask == 0))  # the background is one label
    return int(cv2.floodFill(mask, None, (u, v), 2, 0, 0, 8)[0])


def _tukey_step(J: np.ndarray, res: np.ndarray) -> np.ndarray | None:
    """One Gauss–Newton step for the Jacobian ``J`` and residuals ``res``, each residual
    weighted by Tukey's biweight (a robust scale from their median): a hand's edge or a
    sticker beside a reflection does not pull its fit. None if the system is singular."""
    scale = _robust_scale(res)
    # ``np.maximum(1 - (res / (4.685 * scale)) ** 2, 0) ** 2`` (``** 2`` is ``x * x``) in
    # one array: the same numbers.
    wt = res / (4.685 * scale)
    np.multiply(wt, wt, out=wt)
    np.subtract(1, wt, out=wt)
    np.maximum(wt, 0, out=wt)
    np.multiply(wt, wt, out=wt)
    if len(J) > LONG_COLUMNS:
        # ``J * wt[:, None]`` column by column: the same products (numpy broadcasts over a
        # short last axis a few values at a time, slowly once the columns are long).
        JW = np.empty_like(J)
        for k in range(J.shape[1]):
            np.multiply(J[:, k], wt, out=JW[:, k])
    else:
        JW = J * wt[:, None]
    try:
        return np.linalg.solve(JW.T @ J + _ridge(J.shape[1]), JW.T @ res)
    except np.linalg.LinAlgError:
        return None


def _robust_scale(res: np.ndarray) -> float:
    """``max(1.4826 * float(median(np.abs(res))), 0.004)`` for a 1-D float array: the same
    number, the absolute values sorted (short) or partitioned (long) in their own array, as
    `median` does in a copy of them. Their zeros are all +0.0, so a zero median is the same
    whichever zero lands in the middle (and gives the floor anyway)."""
    a = np.abs(res)
    n = a.size
    if a.ndim != 1 or n == 0 or (n >= BINNED_ABOVE and a.dtype == np.float32):
        return max(1.4826 * float(median(a)), 0.004)
    h = n // 2
    if n <= SORT_BELOW // a.itemsize:
        a.sort()
    else:
        a.partition((h, -1) if n % 2 else (h - 1, h, -1))
    last = a[-1]
    if last != last:  # a NaN: numpy's median is that NaN
        return max(1.4826 * float(last), 0.004)
    return max(1.4826 * float(a[h] if n % 2 else (a[h - 1] + a[h]) / 2), 0.004)


@cache
def _ridge(n: int) -> np.ndarray:
    """The Gauss–Newton steps' small ridge, ``1e-6 · I`` (n × n; made once per size)."""
    out = 1e-6 * np.eye(n)
    out.setflags(write=False)
    return out


def _refine(
    rest: np.ndarray,
    m: np.ndarray,
    uu: np.ndarray,
    vv: np.ndarray,
    s: Spot,
    p: float,
    least: float = MIN_AMPLITUDE,
) -> Spot | None:
    """Gauss–Newton on (amplitude, centre, width) with Tukey weights; None if implausible."""
    cu, cv, wd, amp = s.u, s.v, s.width, s.amplitude
    usable = m > 0
    for it in range(ITERATIONS):
        disc = _disc(rest, usable, uu, vv, cu, cv, wd)
        if disc is None:
            return None
        du, dv, r2, seen = disc
        # ``np.exp(-r2 / (2 * wd * wd))`` in the quotient's memory (a negated quotient is
        # the quotient by the negated divisor, bit for bit).
        g = np.divide(r2, -(2 * wd * wd))
        np.exp(g, out=g)
        ag = amp * g
        res = seen - ag
        # The Jacobian's columns g, ag·du/wd², ag·dv/wd², ag·r2/wd³ written in place (the
        # products associate from the left, as written out they would): the numbers
        # ``np.stack`` of them gave, with fewer arrays made.
        J = np.empty((g.size, 4), g.dtype)
        J[:, 0] = g
        for k, (x, d) in enumerate(((du, wd**2), (dv, wd**2), (r2, wd**3)), 1):
            np.divide(np.multiply(ag, x, out=J[:, k]), d, out=J[:, k])
        step = _tukey_step(J, res)
        if step is None:
            return None
        d_amp, d_u, d_v, d_wd = step.tolist()  # the float() of each
        amp += d_amp
        cu += d_u
        cv += d_v
        # np.clip of a scalar, without its overhead (NaN stays NaN either way).
        wd = min(max(wd + d_wd, 0.15 * p), MAX_WIDTH * p)
        if it > 3 and wd < MIN_WIDTH * p:
            return None
        # ``np.abs(step[1:]).max() < 0.05``: a NaN fails both.
        if abs(d_u) < 0.05 and abs(d_v) < 0.05 and abs(d_wd) < 0.05:
            break
    if amp < least or wd < MIN_WIDTH * p:
        return None
    h, w = rest.shape
    # Centred far off the board, a wide bump is poorly pinned down by the skirt that shows: it
    # soaks up any misfit of the lighting (a hand's, a strong vignette). A narrow one just off
    # the edge is pinned down by its steep flank, and the light it throws over the edge
    # squares is as real as any spot's.
    out = (OUTSIDE_NARROW if wd <= NARROW * p else OUTSIDE) * p
    if not (-out <= cu <= w + out and -out <= cv <= h + out):
        # Two overlapping reflections off the edge fit as one bump centred further out than
        # either, wider and brighter: held at OUTSIDE, its height and width refitted, it
        # models the light they throw on the board and soaks up no more than a spot
        # centred there may.
        lim = OUTSIDE * p
        return _held(
            rest,
            usable,
            uu,
            vv,
            Spot(min(max(cu, -lim), w + lim), min(max(cv, -lim), h + lim), wd, amp),
            p,
            least,
        )
    return Spot(cu, cv, wd, amp)


def _held(
    rest: np.ndarray, usable: np.ndarray, uu: np.ndarray, vv: np.ndarray, s: Spot, p: float, least: float
) -> Spot | None:
    """`_refine` with the centre held where ``s`` has it: Gauss–Newton on (amplitude, width)
    only; None if implausible."""
    cu, cv, wd, amp = s.u, s.v, s.width, s.amplitude
    for _ in range(ITERATIONS):
        disc = _disc(rest, usable, uu, vv, cu, cv, wd)
        if disc is None:
            return None
        _, _, r2, seen = disc
        g = np.exp(-r2 / (2 * wd * wd))
        ag = amp * g
        step = _tukey_step(np.stack([g, ag * r2 / wd**3], 1), seen - ag)
        if step is None:
            return None
        amp += float(step[0])
        wd = min(max(wd + float(step[1]), 0.15 * p), MAX_WIDTH * p)
        if abs(float(step[1])) < 0.05:
            break
    if amp < least or wd < MIN_WIDTH * p:
        return None
    return Spot(cu, cv, wd, amp)


def _disc(
    rest: np.ndarray, usable: np.ndarray, uu: np.ndarray, vv: np.ndarray, cu: float, cv: float, wd: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray] | None:
    """The usable pixels within 3.5 widths of (``cu``, ``cv``) that a spot's fit weighs: their
    offsets, squared distances and ``rest`` values; None if fewer than 12 (too little to fit)."""
    # Found in the box around that disc only: the same pixels in the same order as over the
    # whole view. The offsets and squared distances once for the box (``** 2`` is
    # ``x * x``): the same numbers at the pixels picked as computed there alone.
    box = _disc_box(cu, cv, 3.5 * wd, rest.shape)
    if box is None:
        return None
    du, dv = uu[box] - cu, vv[box] - cv
    r2 = du * du
    r2 += dv * dv
    near = r2 < (3.5 * wd) ** 2
    near &= usable[box]
    if np.count_nonzero(near) < 12:
        return None
    return du[near], dv[near], r2[near], rest[box][near]


def _disc_box(cu: float, cv: float, radius: float, shape: tuple[int, ...]) -> tuple[slice, slice] | None:
    """The rows and columns of a view of ``shape`` that may lie within ``radius`` of (cu, cv)
    (a pixel or two to spare), or None when none can (or the disc is not finite)."""
    if not (math.isfinite(cu) and math.isfinite(cv) and math.isfinite(radius)):
        return None
    h, w = shape[:2]
    v0, v1 = max(0, math.floor(cv - radius) - 2), min(h, math.ceil(cv + radius) + 3)
    u0, u1 = max(0, math.floor(cu - radius) - 2), min(w, math.ceil(cu + radius) + 3)
    if v0 >= v1 or u0 >= u1:
        return None
    return slice(v0, v1), slice(u0, u1)


def _elliptic(rest: np.ndarray, m: np.ndarray, uu: np.ndarray, vv: np.ndarray, s: Spot, p: float) -> Spot:
    """The round spot ``s`` refined as an ellipse (Gauss–Newton on amplitude, centre and the
    inverse covariance, Tukey weights), or ``s`` itself if the ellipse is implausible.

    A reflection seen at an angle is longer one way than the other, and two overlapping
    reflections side by side look like one long spot: a round fit of either leaves narrow
    ridges of light beside it, which look like anything but board.
    """
    cu, cv, amp = s.u, s.v, s.amplitude
    q = np.array([1 / s.width**2, 0.0, 1 / s.width**2])  # inverse covariance: uu, uv, vv
    reach = 3.5 * s.width
    # The pixels within reach, found in the box around the disc only (`_disc_box`): the same
    # pixels in the same order as over the whole view, each one's numbers its own.
    box = _disc_box(cu, cv, reach, rest.shape)
    if box is None:
        return s
    near = ((uu[box] - cu) ** 2 + (vv[box] - cv) ** 2 < reach**2) & (m[box] > 0)
    if np.count_nonzero(near) < 24:
        return s
    u_near, v_near, rest_near = uu[box][near], vv[box][near], rest[box][near]
    for _ in range(ITERATIONS):
        du, dv = u_near - cu, v_near - cv
        # ``np.exp(-0.5 * (q[0] * du * du + 2 * q[1] * du * dv + q[2] * dv * dv))``, its
        # products ``q[0] * du`` and ``q[2] * dv`` kept for the Jacobian, which makes them
        # again (the same numbers: q's entries are float64 scalars, so all is float64).
        q0du, q2dv = q[0] * du, q[2] * dv
        quad = q0du * du
        quad += 2 * q[1] * du * dv
        quad += q2dv * dv
        g = np.exp(np.multiply(quad, -0.5, out=quad), out=quad)
        ag = amp * g
        res = rest_near - ag
        # The Jacobian's six columns written into one array, each the product its column
        # had as written out (``ag * (q[0] * du + q[1] * dv)``, ``-0.5 * ag * du * du``, …,
        # left to right), ``-0.5 * ag`` made once for its two columns.
        J = np.empty((g.size, 6), g.dtype)
        J[:, 0] = g
        np.multiply(ag, np.add(q0du, q[1] * dv, out=q0du), out=J[:, 1])
        np.multiply(ag, np.add(q[1] * du, q2dv, out=q2dv), out=J[:, 2])
        half = -0.5 * ag
        np.multiply(np.multiply(half, du, out=J[:, 3]), du, out=J[:, 3])
        np.multiply(np.multiply(np.negative(ag), du, out=J[:, 4]), dv, out=J[:, 4])
        np.multiply(np.multiply(half, dv, out=J[:, 5]), dv, out=J[:, 5])
        step = _tukey_step(J, res)
        if step is None:
            return s
        d_amp, d_u, d_v, *_ = step.tolist()  # the float() of each
        amp += d_amp
        cu += d_u
        cv += d_v
        q = q + step[3:]
        if not (q[0] > 0 and q[2] > 0 and q[0] * q[2] > q[1] * q[1]):
            return s
        # ``np.abs(step[1:3]).max() < 0.05 and np.abs(step[3:]).max() < 0.01 * (q[0] + q[2])``:
        # a NaN fails both.
        bound = 0.01 * float(q[0] + q[2])
        if abs(d_u) < 0.05 and abs(d_v) < 0.05 and all(abs(d) < bound for d in step[3:].tolist()):
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
    before = rest_near - s.amplitude * _bump(u_near, v_near, s)
    after = rest_near - out.amplitude * _bump(u_near, v_near, out)
    c = 4.685 * max(1.4826 * float(median(np.abs(before))), 0.004)
    gain = _tukey(after, c) / max(_tukey(before, c), 1e-12)
    if gain > ELLIPSE_GAIN:
        return s
    return out


def _tukey(r: np.ndarray, c: float) -> float:
    """Tukey's biweight loss of residuals ``r`` at cut-off ``c`` (each outlier costs 1)."""
    return float(np.sum(1 - np.clip(1 - (r / c) ** 2, 0, None) ** 3))


def _companion_floor(spots: list[Spot], uu: np.ndarray, vv: np.ndarray) -> np.ndarray:
    """Per pixel of the small view, the least amplitude of a spot there: MIN_AMPLITUDE, or
    near a strong spot (within COMPANION_REACH of its widths) COMPANION of its amplitude."""
    floor = np.full(uu.shape, MIN_AMPLITUDE, np.float32)
    for s in spots:
        u, v, wd = s.u, s.v, s.width
        close = (uu - u) ** 2 + (vv - v) ** 2 < (COMPANION_REACH * wd) ** 2
        floor[close] = np.minimum(floor[close], max(FLANK_AMPLITUDE, COMPANION * s.amplitude))
    return floor


def _beside(s: Spot, spots: list[Spot]) -> bool:
    """Whether spot ``s`` (small view) is within reach of a spot it may be a companion of."""
    return any(
        (s.u - t.u) ** 2 + (s.v - t.v) ** 2 < (COMPANION_REACH * t.width) ** 2
        and s.amplitude >= COMPANION * t.amplitude
        for t in spots
    )


@cache
def _edge_band(h: int, w: int, p: float) -> np.ndarray:
    """The pixels within FLANK_BAND squares of the view's border (cached per size)."""
    band = np.ones((h, w), bool)
    d = max(1, round(FLANK_BAND * p))
    band[d:-d, d:-d] = False
    band.setflags(write=False)
    return band


@cache
def _grid(h: int, w: int) -> tuple[np.ndarray, np.ndarray]:
    """Row and column coordinates of a view (cached: every frame uses the same sizes)."""
    vv, uu = np.mgrid[0:h, 0:w].astype(np.float32)
    vv.setflags(write=False)
    uu.setflags(write=False)
    return vv, uu


def spot_map(spots: list[Spot], shape: tuple[int, int]) -> np.ndarray:
    """The lamp light the spots add at every pixel of a view of ``shape``."""
    out = np.zeros(shape, np.float32)
    for s in spots:
        out += _spot_light(s, shape)
    return out


def spot_light(s: Spot, shape: tuple[int, int]) -> np.ndarray:
    """``spot_map([s], shape)``, read-only: for a round spot of positive amplitude the cached
    light itself (0 + x is x, and such a spot's light is never -0.0), without adding it to
    zeros. (An elliptic spot's light is made in float64, which the map rounds to float32.)"""
    if s.amplitude > 0:
        light = _spot_light(s, shape)
        if light.dtype == np.float32:
            return light
    return spot_map([s], shape)


@lru_cache(maxsize=8)
def _spot_light(s: Spot, shape: tuple[int, int]) -> np.ndarray:
    """The light one spot adds over a view of ``shape`` (cached: the reader asks for a kept
    spot's light twice, when it checks the spot and when it adds up the lamp light)."""
    out = s.amplitude * _grid_bump(shape, s)
    out.setflags(write=False)
    return out
