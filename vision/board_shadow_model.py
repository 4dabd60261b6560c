"""Where a hand's shadow falls, predicted from the hand (board13s: measured, not kept).

One lamp casts every hand's shadow the same way: the shadow is the hand's silhouette moved
by one offset and softened. `fit_shadow` fits the darkening of the seen board beside the
hands as ``level + depth × blur(silhouette moved by d, softness)``, offset, softness and
depth measured on the frame. Two uses were measured (`shadow_seen`):

- *probe*: a pixel cannot be under a hand when the board where its shadow would fall (at
  every probe around the measured offset: lengths 0.8–1.2 of it, ±0.2 rad) is seen bare
  and unshadowed: a hand there would darken it;
- *match*: a pixel that shows the board dimmed by just the predicted shadow (within 2 noise
  sigmas, with its 3 × 3 neighbourhood) is board in the shadow.

The silhouette is the reader's unseen area (foreign or hidden) near its hands: the foreign
regions alone are fragments (a hand of a dimmed board colour fits as shade over one colour
of square), and the fit from them was no better than a guess.
"""

from __future__ import annotations

import math
import os
from dataclasses import dataclass

import cv2
import numpy as np

BLOB = 0.1  # squares²: regions this big may be hands (the reader's BLOB_AREA)
REACH = 16  # px: the board beside the hands the fit looks at
SEARCH = 14  # px: offsets tried, each way
SIGMAS = (2.0, 3.0, 4.0, 5.5)  # px: softness tried
ROBUST = 2  # refits leaving out misfits beyond 2.5 robust sigmas
MIN_EXPLAINED = 0.8  # share of the darkening's variance the fit must explain to be used
LIT = 0.92  # dimmed less than this: no shadow
SPREAD = (0.8, 1.0, 1.2)
TURNS = (-0.2, 0.0, 0.2)
MATCH_SIGMAS = 2.0
MIN_SHADOW = 0.05
RULES = os.environ.get("BOARD_SHADOW_RULES", "probe").split(",")


@dataclass(frozen=True)
class ShadowFit:
    """Offset (px, x right, y down), softness (px), level and depth (linear), and the
    share of the darkening's variance explained."""

    dx: int
    dy: int
    sigma: float
    level: float
    depth: float
    explained: float
    silhouette: np.ndarray

    def darkening(self) -> np.ndarray:
        """The predicted share of light taken away at every pixel."""
        p = SEARCH + 20
        padded = cv2.copyMakeBorder(self.silhouette.astype(np.float32), p, p, p, p, cv2.BORDER_REPLICATE)
        blurred = cv2.GaussianBlur(padded, (0, 0), self.sigma)
        h, w = self.silhouette.shape
        return self.level + self.depth * blurred[p - self.dy : p - self.dy + h, p - self.dx : p - self.dx + w]


def _big(mask: np.ndarray, ppu: int) -> np.ndarray:
    _, lab, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    big = stats[:, cv2.CC_STAT_AREA] >= BLOB * ppu * ppu
    big[0] = False
    return big[lab]


def fit_shadow(
    dim: np.ndarray, good: np.ndarray, unseen: np.ndarray, foreign: np.ndarray
) -> ShadowFit | None:
    """The frame's shadow model, or None (no hand, or a fit that explains too little)."""
    ppu = dim.shape[0] // 9
    if not _big(foreign, ppu).any():
        return None
    closed = cv2.morphologyEx(unseen.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8)) > 0
    sil = _big(closed, ppu)
    if not sil.any():
        return None
    dist = cv2.distanceTransform((~sil).astype(np.uint8), cv2.DIST_L2, 3)
    w = good & (dist > 1.5) & (dist <= REACH)
    yy, xx = np.nonzero(w)
    if len(yy) < 100:
        return None
    dd = np.clip(1 - dim[yy, xx], -0.5, 1.0)
    p = SEARCH + 20
    padded = cv2.copyMakeBorder(sil.astype(np.float32), p, p, p, p, cv2.BORDER_REPLICATE)
    blurred = {s: cv2.GaussianBlur(padded, (0, 0), s) for s in SIGMAS}
    wt = np.ones(len(dd), np.float32)
    cands = [
        (s, x, y) for s in SIGMAS for y in range(-SEARCH, SEARCH + 1) for x in range(-SEARCH, SEARCH + 1)
    ]
    best = None
    for _ in range(ROBUST + 1):
        sw = float(wt.sum())
        md = float((wt * dd).sum()) / sw
        best = None
        for s, x, y in cands:
            v = blurred[s][yy - y + p, xx - x + p]
            ms = float((wt * v).sum()) / sw
            vs = float((wt * (v - ms) ** 2).sum()) / sw
            if vs < 1e-6:
                continue
            c = float((wt * (v - ms) * (dd - md)).sum()) / sw
            if c <= 0:
                continue
            if best is None or c * c / vs > best[0]:
                best = (c * c / vs, x, y, s, c / vs, md - c / vs * ms)
        if best is None:
            return None
        _, x, y, s, k1, k0 = best
        res = dd - (k0 + k1 * blurred[s][yy - y + p, xx - x + p])
        mad = 1.48 * float(np.median(np.abs(res))) + 1e-3
        wt = (np.abs(res) < 2.5 * mad).astype(np.float32)
        cands = [(s2, a, b) for s2 in SIGMAS for b in range(y - 3, y + 4) for a in range(x - 3, x + 4)]
    assert best is not None
    _, x, y, s, k1, k0 = best
    mean = float((wt * dd).sum() / wt.sum())
    var = float(np.mean(wt * (dd - mean) ** 2))
    explained = 1 - float(np.mean((wt * res) ** 2)) / max(var, 1e-9)
    return ShadowFit(x, y, s, k0, k1, explained, sil)


def shadow_seen(
    *,
    rest: np.ndarray,
    pred: np.ndarray,
    lamp: np.ndarray,
    levels: np.ndarray,
    sigma: np.ndarray,
    judged: np.ndarray,
    foreign: np.ndarray,
    good: np.ndarray,
    line: np.ndarray,
    **_: np.ndarray,
) -> np.ndarray:
    """Judged pixels not seen as bare board that the frame's shadow model says are board."""
    out = np.zeros(judged.shape, bool)
    dim = (rest * pred).sum(-1) / np.maximum((pred * pred).sum(-1), 1e-9)
    unseen = judged & ~good | foreign
    fit = fit_shadow(dim, good, unseen, foreign)
    if fit is None or fit.explained < MIN_EXPLAINED:
        return out
    candidates = judged & ~good & ~foreign
    if "probe" in RULES:
        clear = good & (dim > LIT) & ~foreign
        length, base = math.hypot(fit.dx, fit.dy), math.atan2(fit.dy, fit.dx)
        blocked = np.zeros(judged.shape, bool)
        seen = np.zeros(judged.shape, np.int32)
        n = 0
        for t in TURNS:
            for f in SPREAD:
                sx, sy = round(f * length * math.cos(base + t)), round(f * length * math.sin(base + t))
                c = _shifted(clear, -sx, -sy)
                blocked |= ~c & ~_shifted(line, -sx, -sy)
                seen += c
                n += 1
        out |= ~blocked & (seen * 2 >= n) & candidates
    if "match" in RULES:
        dark = fit.darkening()
        att = np.clip(1 - dark, 0.05, 1.2)
        model = 255.0 * np.clip(att[..., None] * pred + lamp[..., None], 0, 1) ** (1 / 2.2)
        ok = (np.abs(levels - model) / sigma).max(axis=-1) < MATCH_SIGMAS
        ok &= candidates
        rough = cv2.filter2D((~ok & candidates).astype(np.float32), -1, np.ones((3, 3), np.float32))
        out |= ok & (rough < 0.5) & (dark - fit.level > MIN_SHADOW)
    return out


def _shifted(mask: np.ndarray, dx: int, dy: int) -> np.ndarray:
    """``mask`` moved by (dx, dy) pixels, nothing wrapped around."""
    out = np.zeros_like(mask)
    h, w = mask.shape
    ys, yd = (slice(0, h - dy), slice(dy, h)) if dy >= 0 else (slice(-dy, h), slice(0, h + dy))
    xs, xd = (slice(0, w - dx), slice(dx, w)) if dx >= 0 else (slice(-dx, w), slice(0, w + dx))
    out[yd, xd] = mask[ys, xs]
    return out
