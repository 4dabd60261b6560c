"""Which dimmed patches of the board are surely a hand's shadow, and not a hand of a dimmed
board colour?

A shadow dims dark and light squares alike, so it goes on across a grid line with the same
dimming on both sides; its soft edge (penumbra) is a ramp, which goes on across the line too.
A hand, a sleeve or a cloth that looks like one colour of square dimmed (a tan palm over a
cream square, a grey sleeve over a light grey one) looks like that only over squares of that
colour: over the squares beside it, of the other colour, its "dimming" differs by the whole
printed contrast, so the patch it makes *ends at the grid lines* of its square.

`verified_shadow` keeps the patches of dimmed board (one connected patch within one square,
its dimming smooth along a ramp: `ramp_deviation`) that are *bridged* across the grid lines
to dimming that matches on the other side, flat or carried on along the ramp, at
``MIN_BRIDGED`` pixels or more, and that end at a line without such a match along at most
``CUT_SHARE`` of their outline. A patch that touches no grid line proves nothing and is not
kept, nor one that stops at the lines of its square. Two more guards come from hands whose
own shading passes for a ramp, beside their own shadow (tune scene 2099): where the dimming
turns back at a line (deepest, or shallowest, right at it, slopes of ``KINK`` or more on
both sides), the two sides are two things meeting there, not one shadow going on; and a
patch may reach no further than ``LONG`` squares per pixel of its width where it is bridged
(a shadow crosses a square; a hand part joined to a shadow at one corner fills it).

A verified shadow is light's: the reader counts it as seen board even where its penumbra's
steep ramp beside the hand fails the flat smoothness test, or where it is deep, and the gaps
a palm spans do not reach it (vision.board_surface). A hand's colours still may: a hand of
the shadowed board's colour, beside its own shadow, is not told from it.

>>> import numpy as np
>>> n, ppu = 9 * 24, 24
>>> idx = np.arange(n) % ppu
>>> line = (np.minimum(idx, ppu - 1 - idx) < 2)[:, None] | (np.minimum(idx, ppu - 1 - idx) < 2)[None, :]
>>> band = np.zeros((n, n), bool)
>>> band[100:110] = True                            # a shadow band across a rank
>>> band &= ~line
>>> log_dim = np.where(band, -0.7, 0.0).astype(np.float32)
>>> bool(verified_shadow(band, band, log_dim, line, ppu, 2)[band].all())
True
>>> patch = np.zeros((n, n), bool)
>>> patch[96:120, 96:120] = True                     # one whole square dimmed: a sleeve's colour
>>> patch &= ~line
>>> bool(verified_shadow(patch, patch, np.where(patch, -0.7, 0.0).astype(np.float32), line, ppu, 2).any())
False
"""

from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np

from vision.board_fast import crops_around, masked, shifted

MATCH = 0.25  # log units: the same dimming (the reader's SHADOW_DEV), or a ramp off by this
RAMP_SIGMA = 3.0  # px: the window a ramp is fitted in (the reader's SHADOW_SMOOTH)
RAMP_REACH = int(4 * RAMP_SIGMA) + 1  # px: OpenCV's float blur reaches 4 σ (round(8σ + 1) | 1 taps)
RAMP_RIDGE = 0.5  # px²: holds a ramp's slope in where the window is thin one way
SLOPE_STEP = 2  # px: a ramp's slope is measured over this many pixels inside each square
KINK = 0.05  # log units per px: a ramp turns back at a line (a V) at no more than this slope
MIN_BRIDGED = 3  # edge pixels a patch must share with its neighbours across the lines
LONG = 2.0  # squares: a patch's area is at most this × ppu × its bridged edge pixels
CUT_SHARE = 0.25  # share of its outline that may end at a grid line unbridged


def verified_shadow(
    fits: np.ndarray,
    dimmed: np.ndarray,
    log_dim: np.ndarray,
    line: np.ndarray,
    ppu: int,
    line_px: int,
) -> np.ndarray:
    """The ``dimmed`` pixels in patches bridged across the grid lines to a matching dimming
    (see the module docstring). ``fits``: the pixels that look like the board under some
    light (the ramp is fitted to them), ``dimmed`` among them those clearly dimmed;
    ``log_dim``: the dimming; ``line``: the grid lines (not judged), ``line_px`` of them on
    each side of a square's boundary; ``ppu``: pixels a square."""
    out = np.zeros(dimmed.shape, bool)
    if int(dimmed.sum()) < MIN_BRIDGED:
        return out
    n = dimmed.shape[0]
    idx = np.arange(n) % ppu
    # The first judged pixel beside an inner line (beyond the board's edge nothing is seen).
    at_line = (idx == line_px) | (idx == ppu - 1 - line_px)
    at_line[[line_px, n - 1 - line_px]] = False
    # Work on the squares around the dimmed ones only (a patch and the squares across its
    # lines; the ramp's window is well under a square): shadows are small, the board is not.
    rows, cols = np.flatnonzero(dimmed.any(axis=1)), np.flatnonzero(dimmed.any(axis=0))
    r0, r1 = max(0, (rows[0] // ppu - 1) * ppu), min(n, (rows[-1] // ppu + 2) * ppu)
    c0, c1 = max(0, (cols[0] // ppu - 1) * ppu), min(n, (cols[-1] // ppu + 2) * ppu)
    box = (slice(r0, r1), slice(c0, c1))
    v = log_dim[box]
    # The ramp is needed at the dimmed pixels only (a few per cent of the view): the blurred
    # sums are made over the box, the plane's arithmetic at those pixels alone.
    shaded = dimmed[box] & ~line[box]
    # Only a patch that faces shaded pixels across the lines at MIN_BRIDGED pixels or more
    # can be kept (the ramp test only takes pixels away): the test is made there alone.
    asked = _may_be_kept(shaded, ppu, line_px)
    shaded[shaded] = False
    shaded[asked] = ramp_deviation(v, fits[box], asked) < MATCH
    bridged = _bridge_ends(shaded, v, ppu, line_px)
    edge = shaded & (at_line[r0:r1, None] | at_line[None, c0:c1])
    # A patch never crosses a line: the line's pixels are not shaded.
    count, lab = cv2.connectedComponents(shaded.astype(np.uint8), connectivity=8)
    patch = lab > 0
    outline = patch & ~(cv2.erode(patch.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0)
    length = np.bincount(masked(lab, outline), minlength=count)
    linked = np.bincount(masked(lab, edge & bridged), minlength=count)
    cut = np.bincount(masked(lab, edge & ~bridged), minlength=count)
    area = np.bincount(lab.ravel(), minlength=count)
    keep = (linked >= MIN_BRIDGED) & (linked * LONG * ppu >= area) & (cut <= CUT_SHARE * length)
    keep[0] = False
    out[box] = np.take(keep, lab)  # each pixel its patch's flag (np.take: as indexing, faster)
    return out


def ramp_deviation(values: np.ndarray, mask: np.ndarray, at: np.ndarray | None = None) -> np.ndarray:
    """How far each pixel's value is from the plane fitted (Gaussian-weighted least squares,
    ``RAMP_SIGMA``) to the ``mask`` pixels around it. A penumbra is a ramp: beside the hand
    that casts it, its pixels have shallower dimming on one side only, and their flat mean
    is off by the slope times the window; the plane carries the ramp on.

    With ``at`` (a boolean map), only the pixels there, in their row-major order: the same
    numbers (each pixel's arithmetic is its own), without the whole view's. The blurred sums
    are then made only in crops around those pixels (`vision.board_fast.crops_around`: the
    same numbers there as the whole view's blurs)."""
    m = mask.astype(np.float32)
    v = values.astype(np.float32)
    h, w = v.shape
    yy, xx = _grid(h, w)
    if at is None:
        sums = _ramp_sums(m, v, xx, yy)
    else:
        crops = crops_around(at, RAMP_REACH)
        if len(crops) == 1 and crops[0][1] == (slice(0, h), slice(0, w)):
            sums = _ramp_sums(m, v, xx, yy)
        else:
            # Only the regions are written, and read at the ``at`` pixels (all inside them).
            sums = [np.empty((h, w, 3), np.float32) for _ in range(3)]
            for region, crop in crops:
                part = _ramp_sums(m[crop], v[crop], xx[crop], yy[crop])
                for whole, p in zip(sums, part, strict=True):
                    whole[region] = p[shifted(region, crop)]
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


def _ramp_sums(m: np.ndarray, v: np.ndarray, xx: np.ndarray, yy: np.ndarray) -> list[np.ndarray]:
    """The nine Gaussian-weighted sums of the plane's fit (weights ``m``, values ``v`` at
    columns ``xx`` and rows ``yy``), blurred three at a time (one pass over three channels is
    cheaper than three): (m, m·x, m·y), (m·x², m·x·y, m·y²), (m·v, m·v·x, m·v·y)."""
    mx_, my_, mv = m * xx, m * yy, m * v
    return [
        cv2.GaussianBlur(np.dstack(group), (0, 0), RAMP_SIGMA)
        for group in ((m, mx_, my_), (mx_ * xx, mx_ * yy, my_ * yy), (mv, mv * xx, mv * yy))
    ]


@lru_cache(maxsize=32)
def _grid(h: int, w: int) -> tuple[np.ndarray, np.ndarray]:
    """Row and column coordinates of an ``h × w`` view, float32 (cached: a few sizes, the
    same every frame)."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    yy.setflags(write=False)
    xx.setflags(write=False)
    return yy, xx


def _may_be_kept(shaded: np.ndarray, ppu: int, line_px: int) -> np.ndarray:
    """The ``shaded`` pixels whose ramp test can change `verified_shadow`'s answer: those of
    the patches (``shaded``'s 8-connected parts, before the test) with MIN_BRIDGED pixels or
    more facing a shaded pixel across a grid line, and the shaded pixels within a bridge's
    reach of them along a row or a column (`_bridge_ends` reads SLOPE_STEP px beyond the
    pixel across the line). The view must start at a square's corner.

    The test only takes pixels away, and a bridge joins two pixels shaded after it: a part
    of any other patch has fewer than MIN_BRIDGED bridged pixels whatever the test says, and
    is not kept. A part of one of these keeps its neighbours and its bridges, all asked
    about: the same pixels are kept (tests/test_board_speed_24s.py checks it against the
    test made everywhere)."""
    gap = 2 * line_px + 1
    facing = np.zeros(shaded.shape, bool)
    for axis in (0, 1):
        sh, f = (shaded, facing) if axis == 0 else (shaded.T, facing.T)
        n = sh.shape[0]
        before_line = (np.arange(n - gap) % ppu == ppu - 1 - line_px)[:, None]
        pair = before_line & sh[: n - gap] & sh[gap:]
        f[: n - gap] |= pair  # f is facing or its transposed view
        f[gap:] |= pair
    if np.count_nonzero(facing) < MIN_BRIDGED:
        return np.zeros(shaded.shape, bool)
    count, lab = cv2.connectedComponents(shaded.astype(np.uint8), connectivity=8)
    live = np.bincount(masked(lab, facing), minlength=count) >= MIN_BRIDGED
    live[0] = False
    if not live.any():
        return np.zeros(shaded.shape, bool)
    reach = np.ones((1, 2 * (gap + SLOPE_STEP) + 1), np.uint8)
    mine = np.take(live, lab).view(np.uint8)  # np.take: as indexing, faster
    return shaded & ((cv2.dilate(mine, reach) | cv2.dilate(mine, reach.T)) > 0)


def _bridge_ends(shaded: np.ndarray, log_dim: np.ndarray, ppu: int, line_px: int) -> np.ndarray:
    """Edge pixels of ``shaded`` facing a shaded pixel across a grid line with a matching
    dimming: the same value, or the same ramp carried on from both sides to the line's middle
    (a penumbra crossing a line at an angle changes across the line's width). The view must
    start at a square's corner.

    Only the last judged row (column) before each line can start a pair: the rows are taken
    alone, each pixel's arithmetic as over the whole view (tests/test_board_speed_24s.py
    keeps that form)."""
    gap = 2 * line_px + 1  # from the last judged pixel before a line to the first after it
    s = SLOPE_STEP
    out = np.zeros(shaded.shape, bool)
    v = log_dim.astype(np.float32)
    for axis in (0, 1):
        vv, sh, o = (v, shaded, out) if axis == 0 else (v.T, shaded.T, out.T)
        n = vv.shape[0]
        # p: the last judged pixel before a line, q = p + gap the first after it; p − s and
        # q + s lie inside each square.
        p = np.arange(ppu - 1 - line_px, n - gap - s, ppu)
        p = p[p >= s]
        q = p + gap
        vp, vq = vv[p], vv[q]
        flat = np.abs(vp - vq) < MATCH
        half = gap / 2
        slope_p, slope_q = (vp - vv[p - s]) / s, (vv[q + s] - vq) / s
        inner = sh[p - s] & sh[q + s]
        ramp = inner & (np.abs((vp + slope_p * half) - (vq - slope_q * half)) < MATCH)
        # A shadow's dimming goes on across a line as it was; a kink there (deepest, or
        # shallowest, right at the line) is where two things meet: a hand of a dimmed board
        # colour, shaded, beside its own shadow over the other colour.
        kink = inner & (slope_p * slope_q < 0) & (np.minimum(np.abs(slope_p), np.abs(slope_q)) > KINK)
        pair = sh[p] & sh[q] & (flat | ramp) & ~kink
        o[p] |= pair  # o is out or its transposed view
        o[q] |= pair
    return out


__all__ = ["ramp_deviation", "verified_shadow"]
