"""`vision.board_near_colour.near_hand_colour` as it was before round 24 (np.unique's sorts):
the reference its faster forms are checked against (tests/test_board_speed_24c.py and
tests/test_board_speed_25h.py)."""

from __future__ import annotations

import numpy as np

from vision import board_gaps as gaps
from vision import board_near_colour as near
from vision.board_fast import channel_min


def near_hand_colour_plain(levels, core, candidates, ppu, smooth=None):
    out = candidates.copy()
    if not candidates.any() or not core.any():
        return out
    # A candidate's hue from a 3 × 3 mean (one noisy pixel does not decide); a dark one's hue
    # is noise: it is not judged.
    py, px = np.nonzero(candidates)
    c = (gaps.mean3(levels) if smooth is None else smooth)[py, px]
    judged = channel_min(c) >= gaps.HUE_DARKEST
    if not judged.any():
        return out
    py, px = py[judged], px[judged]
    hues, which = np.unique(gaps.hue_bins(c[judged]), return_inverse=True)
    # The core's pixels of each candidate hue (within gaps.HUE_MARGIN bins), counted per cell of
    # the grid: their number, and the sum and sum of squares of their log brightness.
    cy, cx = np.nonzero(core)
    core_bins, core_which, core_counts = np.unique(
        gaps.hue_bins(levels[cy, cx]), return_inverse=True, return_counts=True
    )
    close = (
        np.abs(core_bins[:, None] // gaps.HUE_BINS - hues[None, :] // gaps.HUE_BINS) <= gaps.HUE_MARGIN
    ) & (np.abs(core_bins[:, None] % gaps.HUE_BINS - hues[None, :] % gaps.HUE_BINS) <= gaps.HUE_MARGIN)
    close &= (core_counts >= near.MIN_PIXELS)[:, None]
    h, w = core.shape
    gh, gw = -(-h // near.CELL), -(-w // near.CELL)
    # Per (cell, core hue bin) first: far fewer than the core's pixels.
    nb = len(core_bins)
    keys, group = np.unique(((cy // near.CELL) * gw + cx // near.CELL) * nb + core_which, return_inverse=True)
    b = near._bright(levels[cy, cx]).astype(np.float64)
    sums = [np.bincount(group, weights=v, minlength=len(keys)) for v in (None, b, b * b)]
    pair, hue = np.nonzero(close[keys % nb])  # (cell and core hue, candidate hue) pairs
    if not len(pair):
        return out
    k = len(hues)
    at = (keys[pair] // nb) * k + hue
    sigma = near.NEAR_SIGMA * ppu / near.CELL
    count, s1, s2 = (
        near._blur(
            np.bincount(at, weights=v[pair], minlength=gh * gw * k).reshape(gh, gw, k).astype(np.float32),
            sigma,
        )
        for v in sums
    )
    cell = (py // near.CELL, px // near.CELL, which)
    wn = count[cell]
    mean = s1[cell] / np.maximum(wn, 1e-6)
    sd = np.sqrt(np.maximum(s2[cell] / np.maximum(wn, 1e-6) - mean * mean, 0.0))
    # The kernel is normalised: one pixel right at the candidate weighs 1 / (2π sigma²).
    seen = wn >= near.NEAR_PIXELS / (2 * np.pi * sigma * sigma)
    # Only a pixel brighter than the hand nearby: the hand's darker parts fit as the board
    # dimmed and are left out of its core (and often of its foreign region), so the core
    # nearby need not show them (tune 2043 i4 and 2645 e6 were guessed, hands' shaded parts).
    unlike = seen & (near._bright(levels[py, px]) - mean > near.NEAR_K * sd + near.NEAR_SHADE)
    out[py[unlike], px[unlike]] = False
    return out
