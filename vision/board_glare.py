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

>>> import numpy as np
>>> yy, xx = np.mgrid[0:80, 0:80].astype(np.float32)
>>> excess = 0.3 * np.exp(-((xx - 30) ** 2 + (yy - 50) ** 2) / (2 * 8.0**2))
>>> [round(v) for v in fit_spots(excess, np.ones_like(excess, bool), ppu=20)[0][:3]]
[30, 50, 8]
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple

import cv2
import numpy as np

MAX_SPOTS = 3
MAX_REJECTS = 4  # peaks tried and given up (not spot-shaped) before stopping
MIN_AMPLITUDE = 0.04  # linear excess below this is not worth modelling
FLANK_AMPLITUDE = 0.02  # ... or this, at the board's edge, for the flank of a spot centred off it
FLANK_BAND = 0.5  # squares: how near the board's edge such a flank is looked for
COMPANION, COMPANION_REACH = 0.03, 2.0  # beside a strong spot: share of its peak, its widths
MIN_WIDTH = 0.25  # squares: narrower bumps are not lamp reflections (edges, stickers)
MAX_WIDTH = 4.0
OUTSIDE = 1.5  # squares: how far off the board a spot's centre may lie
OUTSIDE_NARROW = 2.5  # ... if the spot is no wider than NARROW squares
NARROW = 1.25
ITERATIONS = 12
SCALE = 2  # the fit runs on a view this many times smaller: spots are smooth


class Spot(NamedTuple):
    """A Gaussian spot of lamp light: centre (u, v) and width in top-view pixels, peak excess."""

    u: float
    v: float
    width: float
    amplitude: float


def _bump(u: np.ndarray, v: np.ndarray, s: Spot | tuple[float, float, float, float]) -> np.ndarray:
    cu, cv, w, _ = s
    return np.exp(-((u - cu) ** 2 + (v - cv) ** 2) / (2 * w * w))


def fit_spots(excess: np.ndarray, usable: np.ndarray, ppu: float) -> list[Spot]:
    """Gaussian spots explaining ``excess`` (lamp light per pixel, linear) where ``usable``.

    ``ppu`` is the view's pixels per square, which bounds the plausible spot widths.
    """
    small = cv2.resize(
        excess.astype(np.float32), None, fx=1 / SCALE, fy=1 / SCALE, interpolation=cv2.INTER_AREA
    )
    m = cv2.resize(usable.astype(np.float32), None, fx=1 / SCALE, fy=1 / SCALE, interpolation=cv2.INTER_AREA)
    m = (m > 0.99).astype(np.float32)
    p = ppu / SCALE
    h, w = small.shape
    vv, uu = _grid(h, w)
    model = np.zeros_like(small)
    spots: list[Spot] = []
    # Where the excess is measured: a smoothed copy finds the peaks, the raw one fits them.
    den = cv2.GaussianBlur(m, (0, 0), 0.15 * p)
    blocked = np.zeros_like(m)  # peaks that did not make a spot (a hand's edge, a sticker)
    for _ in range(MAX_SPOTS + MAX_REJECTS):
        if len(spots) == MAX_SPOTS:
            break
        rest = small - model
        smooth = cv2.GaussianBlur(rest * m, (0, 0), 0.15 * p) / np.maximum(den, 1e-6)
        smooth = np.where((den > 0.3) & (blocked == 0), smooth, -1.0)
        k = int(np.argmax(smooth))
        cv, cu = divmod(k, w)
        amp = float(smooth[cv, cu])
        least = MIN_AMPLITUDE
        flank = amp < MIN_AMPLITUDE
        floor = _companion_floor(spots, uu, vv) if flank and spots else None
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
        half = ((smooth > amp / 2) & (den > 0.3)).astype(np.uint8)
        _, labels = cv2.connectedComponents(half)
        width = max(MIN_WIDTH * p, float(np.sqrt((labels == labels[cv, cu]).sum() / np.pi)) / 1.177)
        spot = _refine(rest, m, uu, vv, Spot(float(cu), float(cv), width, amp), p, least)
        if spot is not None and flank and 0 <= spot.u <= w and 0 <= spot.v <= h:
            spot = None  # a faint bump on the board is noise or a misfit, not a flank
        if spot is not None and least < MIN_AMPLITUDE and not _beside(spot, spots):
            spot = None  # a faint companion must stay beside its strong spot
        if spot is None:
            cv2.circle(blocked, (cu, cv), max(2, round(2 * width)), 1.0, -1)
            continue
        spots.append(Spot(spot.u * SCALE, spot.v * SCALE, spot.width * SCALE, spot.amplitude))
        model += spot.amplitude * _bump(uu, vv, spot)
    return spots


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
    for it in range(ITERATIONS):
        near = ((uu - cu) ** 2 + (vv - cv) ** 2 < (3.5 * wd) ** 2) & (m > 0)
        if near.sum() < 12:
            return None
        du, dv = uu[near] - cu, vv[near] - cv
        g = np.exp(-(du * du + dv * dv) / (2 * wd * wd))
        res = rest[near] - amp * g
        scale = max(1.4826 * float(np.median(np.abs(res))), 0.004)
        wt = np.clip(1 - (res / (4.685 * scale)) ** 2, 0, None) ** 2
        J = np.stack(
            [g, amp * g * du / wd**2, amp * g * dv / wd**2, amp * g * (du * du + dv * dv) / wd**3], 1
        )
        JW = J * wt[:, None]
        try:
            step = np.linalg.solve(JW.T @ J + 1e-6 * np.eye(4), JW.T @ res)
        except np.linalg.LinAlgError:
            return None
        amp += float(step[0])
        cu += float(step[1])
        cv += float(step[2])
        wd = float(np.clip(wd + step[3], 0.15 * p, MAX_WIDTH * p))
        if it > 3 and wd < MIN_WIDTH * p:
            return None
        if float(np.abs(step[1:]).max()) < 0.05:
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
        return None
    return Spot(cu, cv, wd, amp)


def _companion_floor(spots: list[Spot], uu: np.ndarray, vv: np.ndarray) -> np.ndarray:
    """Per pixel of the small view, the least amplitude of a spot there: MIN_AMPLITUDE, or
    near a strong spot (within COMPANION_REACH of its widths) COMPANION of its amplitude."""
    floor = np.full(uu.shape, MIN_AMPLITUDE, np.float32)
    for s in spots:
        u, v, wd = s.u / SCALE, s.v / SCALE, s.width / SCALE
        close = (uu - u) ** 2 + (vv - v) ** 2 < (COMPANION_REACH * wd) ** 2
        floor[close] = np.minimum(floor[close], max(FLANK_AMPLITUDE, COMPANION * s.amplitude))
    return floor


def _beside(s: Spot, spots: list[Spot]) -> bool:
    """Whether spot ``s`` (small view) is within reach of a spot it may be a companion of."""
    return any(
        (s.u - t.u / SCALE) ** 2 + (s.v - t.v / SCALE) ** 2 < (COMPANION_REACH * t.width / SCALE) ** 2
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
    vv, uu = _grid(shape[0], shape[1])
    out = np.zeros(shape, np.float32)
    for s in spots:
        out += s.amplitude * _bump(uu, vv, s)
    return out
