"""A shadow keeps the board's hue: "shadow" beside a hand that does not may be the hand.

A hand part a shade darker than one colour of square (a thumb tip over a light square) fits
the pixel model as that square in a shadow: its misfit to the lit board is explained by a
grey dimming (`vision.board_surface._shadowed`), each pixel within SHADOW_SIGMAS of its own
noise. That per-pixel test is loose (sensor noise and the board's grain allow several levels
per channel), and the rules that then tell such a patch from the hand's real shadow look at
its shape and place (`vision.board_hands.dimmed_hand_parts`: over one colour only, where
the shadow cannot fall, ending at grid lines). A thumb tip hanging over a light square on the
side where the shadows fall passes them all: the reader counted about 75 px of one (tune
3917 i8) as bare board, under a hand.

But a shadow takes light away: it scales the board's colour and leaves its *hue* (the ratios
of its channels) alone, while skin as bright as the dimmed board is still skin-coloured. The
one thing light adds to a shadow is grey-ish light (a lamp's reflection, the room's light,
which a shadow may dim less or more than the board): that moves the hue along the line from
the board's hue towards grey, never across it. So each pixel's hue is compared with that of
the shadow model at it (the board dimmed, plus the modelled added light), and only the
offset *across* that line counts. Over a few pixels the hue is measured far more closely
than any one pixel's channels: the mean of that offset over the dimmed pixels of a BOX x BOX
neighbourhood, with its standard error from their spread. The model's own hue error is taken
out first: the same offset measured on the bare board of the same colour of square around
(a Gaussian of REF_SIGMA squares). A pixel the reader took for a shadow (``shade``), within
reach of a hand, whose neighbourhood is off by more than FLOOR and K standard errors, may be
the hand: it is hidden.

Not judged: a pixel whose darkest channel is below DARKEST levels (a few levels of the
model's error there are a large change of hue), one under a lamp's reflection or washed out
(as for the gaps a palm spans, `vision.board_gaps`), one whose board is grey (no line to
grey), and one without bare board of its colour around.

Real-world assumption: a shadow on the board changes the board's hue only towards or away
from grey (the colour of added light), by no more than FLOOR across that line (about 7 % in
a channel ratio); a hand part of the dimmed board's brightness but of another hue is skin or
cloth. A hand part of the board's very hue (dimmed) is not caught.

>>> import numpy as np
>>> board = np.zeros((90, 90, 3), np.float32); board[:] = (0.125, 0.364, 0.499)  # light square
>>> levels = 255 * (0.8 * board) ** (1 / 2.2)            # in a shadow, as the camera sees it
>>> levels[:, 50:] = (97, 140, 174)                      # | a thumb tip as dark
>>> everywhere = np.ones((90, 90), bool); nowhere = ~everywhere
>>> bare = nowhere.copy(); bare[:, 40:46] = True         # lit board seen between
>>> dim, added = np.full((90, 90), np.log(0.8), np.float32), np.zeros((90, 90), np.float32)
>>> out = off_hue_shade(levels, board, dim, added, everywhere, everywhere, bare,
...                     np.zeros((90, 90), int), nowhere, everywhere)
>>> bool(out[20, 30]), bool(out[20, 60])   # the shadow keeps the hue; the thumb does not
(False, True)
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.board_fast import as_channels, channel_min

GAMMA = 2.2  # vision.board_surface.to_levels
DARKEST = 60.0  # levels: a darker channel's hue is not judged (a few levels' error is 5 %)
GREYISH = 0.05  # log ratio: a board hue this near grey gives no line to grey
BOX = 5  # px: the neighbourhood a pixel's hue is measured on
MIN_PIXELS = 9  # dimmed pixels in that neighbourhood before its hue is measured
K = 3.0  # standard errors of the neighbourhood's mean off the line
FLOOR = 0.07  # natural log of a channel ratio: how far a shadow may move the hue across it
REF_SIGMA = 1.0  # squares: the bare board whose hue error is taken to be the model's here
REF_REACH = 2.0  # squares: ... looked for this far (the Gaussian's reach)
REF_WEIGHT = 0.02  # share of that Gaussian's weight the bare board must fill
SCALE = 4  # the reference is smooth: taken on a view this many times smaller


def off_hue_shade(
    levels: np.ndarray,
    board: np.ndarray,
    log_dim: np.ndarray,
    added: np.ndarray,
    shade: np.ndarray,
    dimmed: np.ndarray,
    bare: np.ndarray,
    classes: np.ndarray,
    untold: np.ndarray,
    near: np.ndarray,
) -> np.ndarray:
    """The ``shade`` pixels within ``near`` whose neighbourhood (its ``dimmed`` pixels) is off
    the hue of the board's shadow model (``board``, the predicted bare board in linear light,
    B, G, R, times ``exp(log_dim)``, plus the ``added`` grey light; ``levels``: the view in
    0–255 levels) across the line to grey, by more than the ``bare`` board of the same class (``classes``)
    around is and more than a shadow allows (see the module doc). ``untold`` pixels are not
    judged."""
    out = np.zeros(shade.shape, bool)
    cand = shade & near & ~untold
    if not cand.any():
        return out
    ppu = shade.shape[0] // 9
    # Work in the box around the candidates, widened by the reference's reach.
    rows, cols = np.flatnonzero(cand.any(axis=1)), np.flatnonzero(cand.any(axis=0))
    h, w = shade.shape
    m = max(BOX // 2, round(REF_REACH * ppu))
    y0, y1 = max(0, int(rows[0]) - m), min(h, int(rows[-1]) + m + 1)
    x0, x1 = max(0, int(cols[0]) - m), min(w, int(cols[-1]) + m + 1)
    box = (slice(y0, y1), slice(x0, x1))
    lv = levels[box].astype(np.float32)
    seen = np.log(np.maximum(lv, 1.0))
    # The model's hue, in the units of the levels' (a 2.2 gamma divides log ratios by 2.2).
    # 2-D terms as three channels (vision.board_fast.as_channels: quicker than broadcasting).
    model = as_channels(np.exp(log_dim[box])) * board[box] + as_channels(added[box])
    pred = np.log(np.maximum(model, 1e-6)) / GAMMA
    hu, hv = pred[..., 2] - pred[..., 1], pred[..., 0] - pred[..., 1]
    norm = np.sqrt(hu * hu + hv * hv)
    # The offset across the line from the model's hue to grey (signed).
    across = ((seen[..., 2] - seen[..., 1] - hu) * hv - (seen[..., 0] - seen[..., 1] - hv) * hu) / np.maximum(
        norm, 1e-6
    )
    hued = (channel_min(lv) >= DARKEST) & ~untold[box] & (norm >= GREYISH)
    if not (cand[box] & hued).any():
        return out
    # The model's own error here: the same offset on the bare board of the same colour around
    # (smooth over a square: taken on a view SCALE times smaller).
    cls = classes[box]
    planes = []
    for c in (0, 1):
        wc = (bare[box] & hued & (cls == c)).astype(np.float32)
        planes += [wc, across * wc]
    small = cv2.resize(cv2.merge(planes), None, fx=1 / SCALE, fy=1 / SCALE, interpolation=cv2.INTER_AREA)
    sigma = REF_SIGMA * ppu / SCALE
    sums = cv2.resize(
        cv2.GaussianBlur(small, (0, 0), sigma), (x1 - x0, y1 - y0), interpolation=cv2.INTER_LINEAR
    )
    g = np.where(cls == 0, sums[..., 0], sums[..., 2])
    known = g > REF_WEIGHT
    ref = np.where(cls == 0, sums[..., 1], sums[..., 3]) / np.maximum(g, 1e-6)
    e = across - ref
    use = (dimmed[box] & hued).astype(np.float32)
    sums = cv2.boxFilter(cv2.merge([use, e * use, e * e * use]), -1, (BOX, BOX), normalize=False)
    n = np.maximum(sums[..., 0], 1e-6)
    mean = sums[..., 1] / n
    var = np.maximum(sums[..., 2] / n - mean * mean, 0.0)
    off = (sums[..., 0] >= MIN_PIXELS) & (np.abs(mean) > FLOOR) & (mean * mean > K * K * var / n)
    out[box] = cand[box] & hued & known & off
    return out
