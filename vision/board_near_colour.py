"""Could the hand next to this pixel be this bright? A hand's shading is a local matter.

A bare-looking pixel beside a hand is counted as "maybe under the hand" when its colour is one
the hand shows (`vision.board_surface._under_hands`: the hand's palette, every colour of its
core give or take 20 % shading), or when it lies in a gap a palm may span (of a hue some hand
shows, `vision.board_gaps`). Both look at the whole hand: the sleeve's lit fold, the palm's
shaded side lend their brightness to every pixel within reach. But a hand is shaded smoothly:
how bright it is next to where it shows is about how bright it shows there.

A hand can lie unseen over a pixel only where it has that pixel's colour. So where the hand
shows the pixel's hue nearby (its core, within NEAR_SIGMA squares, Gaussian weights, hues
within HUE_MARGIN bins of `vision.board_gaps`), the pixel's brightness must lie within the
spread of those pixels' brightness (NEAR_K standard deviations) plus NEAR_SHADE (log units,
about ±10 %): otherwise the hand would have to be shaded there unlike anywhere around. Where
the hand shows no pixel of that hue nearby, nothing is said (the palette and the hue rule
stand). The hue is the ratio of the channels, which shading leaves alone, so a part of another
colour (a sleeve beside the skin) does not widen the skin's spread.

Not judged: a dark pixel (its hue is noise) and a pixel under a lamp's reflection (added light
raises its brightness; the caller leaves those out).

The statistics are taken on a grid of CELL px: per hue bin of the core, the count, sum and sum
of squares of the log brightness, blurred once as the channels of one image.

>>> import numpy as np
>>> levels = np.full((48, 48, 3), 120.0); levels[:, :, 2] = 160  # B, G, R: one hue
>>> core = np.zeros((48, 48), bool); core[:, :16] = True       # the hand shows on the left
>>> levels[:, 30:] *= 1.5                                        # a brighter patch beside it
>>> cand = np.zeros((48, 48), bool); cand[:, 20:] = True
>>> kept = near_hand_colour(levels, core, cand, 24)
>>> bool(kept[10, 24]), bool(kept[10, 34])   # as bright as the hand: kept; far brighter: not
(True, False)
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.board_gaps import HUE_BINS, HUE_DARKEST, HUE_MARGIN, hue_bins

NEAR_SIGMA = 0.5  # squares: the hand's pixels nearby (Gaussian sigma of their weights)
NEAR_PIXELS = 2.0  # core pixels of the hue right at the pixel (more farther off) before they testify
NEAR_SHADE = 0.1  # log brightness the hand's shading may change beyond the spread seen nearby
NEAR_K = 2.5  # standard deviations of that spread
MIN_PIXELS = 3  # core pixels of a hue bin before it counts at all
CELL = 4  # px: the grid the statistics are taken on
CHANNELS = 500  # hue bins blurred at once (OpenCV's limit is 512 channels)


def near_hand_colour(levels: np.ndarray, core: np.ndarray, candidates: np.ndarray, ppu: int) -> np.ndarray:
    """The ``candidates`` (bare-looking pixels that may be under a hand) that stay so: all but
    those whose brightness the hand's ``core`` nearby, in the candidate's hue, does not reach
    (see the module doc). ``levels``: the top view, 0–255 BGR."""
    out = candidates.copy()
    if not candidates.any() or not core.any():
        return out
    bright = np.log(np.maximum(levels.astype(np.float32), 1.0)).mean(axis=-1)
    cy, cx = np.nonzero(core)
    bins, inverse, counts = np.unique(hue_bins(levels[cy, cx]), return_inverse=True, return_counts=True)
    used = counts >= MIN_PIXELS
    if not used.any():
        return out
    index = np.cumsum(used) - 1
    keep = used[inverse]
    k = int(used.sum())
    h, w = core.shape
    gh, gw = -(-h // CELL), -(-w // CELL)
    at = ((cy[keep] // CELL) * gw + cx[keep] // CELL) * k + index[inverse[keep]]
    b = bright[cy[keep], cx[keep]].astype(np.float64)
    n = gh * gw * k
    sigma = NEAR_SIGMA * ppu / CELL
    count, s1, s2 = (
        _blur(np.bincount(at, weights=v, minlength=n).reshape(gh, gw, k).astype(np.float32), sigma)
        for v in (None, b, b * b)
    )
    # A candidate's hue from a 3 × 3 mean (one noisy pixel does not decide); a dark one's hue
    # is noise: it is not judged.
    smooth = cv2.blur(levels.astype(np.float32), (3, 3))
    py, px = np.nonzero(candidates)
    c = smooth[py, px]
    judged = c.min(axis=-1) >= HUE_DARKEST
    py, px, c = py[judged], px[judged], c[judged]
    hb = bins[used]
    ph = hue_bins(c)
    match = (np.abs(ph[:, None] // HUE_BINS - hb[None, :] // HUE_BINS) <= HUE_MARGIN) & (
        np.abs(ph[:, None] % HUE_BINS - hb[None, :] % HUE_BINS) <= HUE_MARGIN
    )
    gy, gx = py // CELL, px // CELL
    wn = (count[gy, gx] * match).sum(axis=1)
    mean = (s1[gy, gx] * match).sum(axis=1) / np.maximum(wn, 1e-6)
    sd = np.sqrt(np.maximum((s2[gy, gx] * match).sum(axis=1) / np.maximum(wn, 1e-6) - mean * mean, 0.0))
    # The kernel is normalised: one pixel right at the candidate weighs 1 / (2π sigma²).
    seen = wn >= NEAR_PIXELS / (2 * np.pi * sigma * sigma)
    unlike = seen & (np.abs(bright[py, px] - mean) > NEAR_K * sd + NEAR_SHADE)
    out[py[unlike], px[unlike]] = False
    return out


def _blur(a: np.ndarray, sigma: float) -> np.ndarray:
    """A Gaussian blur of every channel of ``a`` (rows, columns, channels)."""
    out = np.empty_like(a)
    for lo in range(0, a.shape[2], CHANNELS):
        part = np.ascontiguousarray(a[:, :, lo : lo + CHANNELS])
        blurred = cv2.GaussianBlur(part, (0, 0), sigma, borderType=cv2.BORDER_CONSTANT)
        out[:, :, lo : lo + CHANNELS] = blurred.reshape(part.shape)
    return out


__all__ = ["near_hand_colour"]
