"""Could the hand next to this pixel be this bright? A hand's lighting is a local matter.

A bare-looking pixel beside a hand is counted as "maybe under the hand" when its colour is one
the hand shows (`vision.board_surface._under_hands`: the hand's palette, every colour of its
core give or take 20 % shading), or when it lies in a gap a palm may span (of a hue some hand
shows, `vision.board_gaps`). Both look at the whole hand: the sleeve's lit fold, the palm's
shaded side lend their brightness to every pixel within reach. But a hand is shaded smoothly:
how bright it is next to where it shows is about how bright it shows there.

A hand can lie unseen over a pixel only where it has that pixel's colour. So where the hand
shows the pixel's hue nearby (its core, within NEAR_SIGMA squares, Gaussian weights, hues
within HUE_MARGIN bins of `vision.board_gaps`), the pixel must not be brighter than those
pixels by more than their spread (NEAR_K standard deviations) plus NEAR_SHADE (log units,
about 10 %): otherwise the hand would have to be lit there unlike anywhere around. Darker is
allowed: a hand's shaded parts fit as the board dimmed and are left out of its core (often of
its foreign region too), so the core nearby need not show them. Where the hand shows no pixel
of that hue nearby, nothing is said (the palette and the hue rule stand: a hand's skin may
show only farther off). The hue is the ratio of the channels, which shading leaves alone, so
a part of another colour (a sleeve beside the skin) does not widen the skin's spread.

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
>>> levels[:, 30:] /= 2.25                                       # far darker: its shaded side
>>> bool(near_hand_colour(levels, core, cand, 24)[10, 34])
True
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.board_fast import channel_min, pixels_of, small_unique
from vision.board_gaps import HUE_BINS, HUE_DARKEST, HUE_MARGIN, hue_bins, mean3

NEAR_SIGMA = 0.5  # squares: the hand's pixels nearby (Gaussian sigma of their weights)
NEAR_PIXELS = 2.0  # core pixels of the hue right at the pixel (more farther off) before they testify
NEAR_SHADE = 0.1  # log brightness the hand's shading may change beyond the spread seen nearby
NEAR_K = 2.5  # standard deviations of that spread
MIN_PIXELS = 3  # core pixels of a hue bin before it counts at all
CELL = 4  # px: the grid the statistics are taken on
CHANNELS = 128  # hue bins blurred at once (OpenCV 5 takes at most 128 channels; 4.x took 512)


def near_hand_colour(
    levels: np.ndarray, core: np.ndarray, candidates: np.ndarray, ppu: int, smooth: np.ndarray | None = None
) -> np.ndarray:
    """The ``candidates`` (bare-looking pixels that may be under a hand) that stay so: all but
    those brighter than the hand's ``core`` nearby shows their hue (see the module doc).
    ``levels``: the top view, 0–255 BGR; ``smooth``: its `vision.board_gaps.mean3`, if made."""
    out = candidates.copy()
    if not candidates.any() or not core.any():
        return out
    # A candidate's hue from a 3 × 3 mean (one noisy pixel does not decide); a dark one's hue
    # is noise: it is not judged.
    py, px = pixels_of(candidates)
    c = (mean3(levels) if smooth is None else smooth)[py, px]
    judged = channel_min(c) >= HUE_DARKEST
    if not judged.any():
        return out
    py, px = py[judged], px[judged]
    hues, which, _ = small_unique(hue_bins(c[judged]), HUE_BINS * HUE_BINS)
    # The core's pixels of each candidate hue (within HUE_MARGIN bins), counted per cell of
    # the grid: their number, and the sum and sum of squares of their log brightness.
    cy, cx = pixels_of(core)
    core_bins, core_which, core_counts = small_unique(hue_bins(levels[cy, cx]), HUE_BINS * HUE_BINS)
    close = (np.abs(core_bins[:, None] // HUE_BINS - hues[None, :] // HUE_BINS) <= HUE_MARGIN) & (
        np.abs(core_bins[:, None] % HUE_BINS - hues[None, :] % HUE_BINS) <= HUE_MARGIN
    )
    close &= (core_counts >= MIN_PIXELS)[:, None]
    h, w = core.shape
    gh, gw = -(-h // CELL), -(-w // CELL)
    # Per (cell, core hue bin) first: far fewer than the core's pixels.
    nb = len(core_bins)
    # The (cell, core hue) keys numbered among the cells the core is in: a short table, and
    # the same keys in the same order as numbered among all cells.
    cells, cell_at, _ = small_unique((cy // CELL) * gw + cx // CELL, gh * gw)
    ranked, group, _ = small_unique(cell_at * nb + core_which, len(cells) * nb)
    keys = cells[ranked // nb] * nb + ranked % nb
    b = _bright(levels[cy, cx]).astype(np.float64)
    sums = [np.bincount(group, weights=v, minlength=len(keys)) for v in (None, b, b * b)]
    pair, hue = np.nonzero(close[keys % nb])  # (cell and core hue, candidate hue) pairs
    if not len(pair):
        return out
    k = len(hues)
    at = (keys[pair] // nb) * k + hue
    sigma = NEAR_SIGMA * ppu / CELL
    # Only the grid's rows the candidates are in, and the blur's reach around them, are
    # blurred: OpenCV's blur goes along each row, then down each column, every row alike, so
    # those rows are the whole grid's there (its rows beyond reach no candidate's cell; where
    # the band ends at the grid's edge, the border is the same). A band of whole rows keeps
    # every value's place in its row, which the blur's vector loops and their scalar ends
    # round by (fewer hue channels, or fewer columns, would not: tests/test_board_speed_25h.py).
    rows = py // CELL
    top, bottom = _band(int(rows.min()), int(rows.max()), gh, sigma)
    count, s1, s2 = (
        _blur(
            np.bincount(at, weights=v[pair], minlength=gh * gw * k)
            .reshape(gh, gw, k)[top:bottom]
            .astype(np.float32),
            sigma,
        )
        for v in sums
    )
    cell = (rows - top, px // CELL, which)
    wn = count[cell]
    mean = s1[cell] / np.maximum(wn, 1e-6)
    sd = np.sqrt(np.maximum(s2[cell] / np.maximum(wn, 1e-6) - mean * mean, 0.0))
    # The kernel is normalised: one pixel right at the candidate weighs 1 / (2π sigma²).
    seen = wn >= NEAR_PIXELS / (2 * np.pi * sigma * sigma)
    # Only a pixel brighter than the hand nearby: the hand's darker parts fit as the board
    # dimmed and are left out of its core (and often of its foreign region), so the core
    # nearby need not show them (tune 2043 i4 and 2645 e6 were guessed, hands' shaded parts).
    unlike = seen & (_bright(levels[py, px]) - mean > NEAR_K * sd + NEAR_SHADE)
    out[py[unlike], px[unlike]] = False
    return out


def _bright(colours: np.ndarray) -> np.ndarray:
    """Log brightness of (n, 3) colours in 0–255 levels: the mean of the channels' logs."""
    lv = np.log(np.maximum(colours.astype(np.float32), 1.0))
    return (lv[:, 0] + lv[:, 1] + lv[:, 2]) / 3


def _band(first: int, last: int, rows: int, sigma: float) -> tuple[int, int]:
    """The rows ``first`` … ``last`` of a grid of ``rows``, widened by the reach of a Gaussian
    blur of ``sigma`` (OpenCV's float kernel: ``round(8 sigma + 1) | 1`` taps, so at most
    ``4 sigma + 1.25`` each side), as far as the grid goes: (top, bottom) slice bounds."""
    reach = int(4 * sigma) + 2
    return max(0, first - reach), min(rows, last + reach + 1)


def _blur(a: np.ndarray, sigma: float) -> np.ndarray:
    """A Gaussian blur of every channel of ``a`` (rows, columns, channels)."""
    out = np.empty_like(a)
    for lo in range(0, a.shape[2], CHANNELS):
        part = np.ascontiguousarray(a[:, :, lo : lo + CHANNELS])
        blurred = cv2.GaussianBlur(part, (0, 0), sigma, borderType=cv2.BORDER_CONSTANT)
        out[:, :, lo : lo + CHANNELS] = blurred.reshape(part.shape)
    return out


__all__ = ["near_hand_colour"]
