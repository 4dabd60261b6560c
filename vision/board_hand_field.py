"""Hand or board? A hand's colour predicted beside it, and the pixels it does not fit.

A bare-looking pixel beside a hand is "maybe under the hand" when its colour is one the
hand shows (`vision.board_surface._under_hands`): any colour of the hand's core, give or
take a palette bin (8 levels a channel) and 20 % of shading, or any hue of a hand for the
gaps a palm spans (`vision.board_gaps`, bins of 0.06 log ratio, widened by two). Those
tolerances are the whole hand's and the whole frame's; a hand a few percent off the colour of
a square passes them, and every such square beside it is unknown.

But a hand (a palm, a sleeve) is close to one colour, and its shading changes over many
squares, not within one; shading scales the channels together and leaves the *hue* (the
ratios of the channels) alone. So each pixel gets two predictions of its hue: the board's
(the predicted colour of bare board, `vision.board_lighting`) and the hand's, from the hand's
core. The pixel's hue is measured on its neighbourhood (a BOX × BOX mean of the bare-looking
pixels, whose spread gives the measurement's noise), the hand's on the core's BOX × BOX
means. The pixel is seen board when its hue is within BOARD_K standard errors (its noise and
a floor) of the board's, and more than K off both

- the hand's hue beside it: a smooth field, the Gaussian-weighted mean of the core's hue over
  about half a square (a square and a quarter where the core is farther), with its spread
  there added to the error; and
- every hue the hands' cores show anywhere: a hand of two colours (skin and a sleeve) may lie
  unseen with either, also where the other outweighs it nearby.

The board's fit is checked closely, not only "it looks bare": a dark hand part a shade off a
square's hue passes for the board dimmed through its noise alone, and if its hue shows
nowhere in the core (it is left out as shadow-like), nothing else would keep it.

Where the hand really has the board's hue, both predictions fit and the pixel stays hidden.

Lamp light (a glare spot's added light) shifts hues towards the lamp's. Whether a hand under
the lamp shows that light (a synthetic frame adds it to everything) or not (a real glare spot
is the board's reflection, which a hand blocks), a pixel is released only if neither its
colour nor its colour less the lamp's light fits the hand's (both the hand's core with and
without the lamp's light).

Not judged: a dark pixel (a channel under DARKEST: its hue is noise; dark pixels are left
out of every mean too), a pixel of a hand's blurred outline (RIM px: a mix of hand and board,
`vision.board_rim`), and a pixel with too few bare-looking pixels around it or no hand core
within reach.

Real-world assumptions: a hand's hue changes little across it (shading and shadows change its
brightness), and every colour a hand could show unseen over the board it shows somewhere as a
hand, over board of another colour (its core). A hand part that looks like the board dimmed
wherever it lies is left out of the core; it is kept hidden only because its hue is not quite
the board's (within the measurement's noise, it would be released): the weak point.

>>> import numpy as np
>>> lin = np.full((48, 96, 3), 0.2, np.float32); lin[..., 2] = 0.3   # a skin-like hand (B, G, R)
>>> lin[:, 48:] = (0.2, 0.22, 0.3)                                     # board a little greener
>>> hand = np.zeros((48, 96), bool); hand[:, :40] = True
>>> cand = ~hand
>>> board = np.broadcast_to(np.float32([0.2, 0.22, 0.3]), lin.shape)          # its prediction
>>> out = unlike_hand(lin, board, np.zeros((48, 96), np.float32), hand, hand, cand, 24)
>>> bool(out[20, 60]), bool(out[20, 44])   # off the hand's hue: board; its own hue: not told
(True, False)
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.board_fast import as_channels, pixels_of

SIGMA = 0.5  # squares: the hand's pixels that predict its hue beside them (Gaussian sigma)
FAR_SIGMA = 1.25  # squares: ... where the hand's core is farther than that
MIN_WEIGHT = 0.05  # share of the Gaussian's weight the core must fill to predict at all
HUE_BIN = 0.01  # log ratio: the grid the hands' hues are marked on
HUE_REACH = 0.25  # log ratio: hand hues farther than this from a pixel's are all as far
HUE_MIN = 1  # box means of the core in a hue bin before it is a hand's hue
CORE_SHARE = 0.5  # share of a box of the core's pixels before its mean is a hue of the hand
BOX = 5  # px: the neighbourhood a pixel's hue is measured on
K = 3.0  # standard errors off the hand's hue before a pixel is not the hand
BOARD_K = 3.0  # ... and within this many of the board's predicted hue
FLOOR = 0.022  # log ratio: the least error of the hand's predicted hue (linear light)
DARKEST = 0.006  # linear (about 25 of 255 levels): a darker channel's hue is noise
LAMP_SHIFT = 0.005  # lamp light under this share of a pixel's darkest channel shifts no hue
RIM = 3  # px: a hand's blurred outline, hand and board mixed (vision.board_rim.RINGS)
SCALE = 4  # the hand's hue field is smooth: computed on a view this many times smaller


def unlike_hand(
    lin: np.ndarray,
    board: np.ndarray,
    lamp: np.ndarray,
    hands: np.ndarray,
    core: np.ndarray,
    candidates: np.ndarray,
    ppu: int,
    bare: np.ndarray | None = None,
) -> np.ndarray:
    """The ``candidates`` (bare-looking pixels maybe under a hand) whose hue the hand beside
    them does not have (see the module doc). ``lin``: the top view, linear BGR; ``board``:
    the predicted colour of bare board there (linear BGR, any brightness); ``lamp``: the
    modelled lamp light (linear, grey) per pixel; ``hands``: the hands' foreign regions;
    ``core``: the pixels whose colour is surely the hand's; ``bare``: the bare-looking pixels
    a hue is measured on (default: the candidates)."""
    out = np.zeros(candidates.shape, bool)
    if not candidates.any() or not core.any():
        return out
    bare = candidates if bare is None else bare
    rim = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * RIM + 1,) * 2)
    cand = candidates & (cv2.dilate(hands.astype(np.uint8), rim) == 0)
    if not cand.any():
        return out
    # The board's prediction must fit too, and closely: a pixel that only passes for dimmed
    # board (a dark hand part a shade off the square's hue, its noise large) is not told.
    lamped = bool(lamp.any())
    rest = _hue(np.maximum(lin - as_channels(lamp), 0.0)) if lamped else _hue(lin)
    cand = _board_hue(rest, board, cand, bare)
    if not cand.any():
        return out
    unlike = _off_hue(_hue(lin) if lamped else rest, core, cand, bare, ppu)
    # Less the lamp's light, where it could shift a hue measurably (a glare spot's skirt
    # reaches everywhere, mostly far below a hundredth of the pixel's light).
    ys, xs = pixels_of(unlike)
    darkest = np.minimum(np.minimum(lin[ys, xs, 0], lin[ys, xs, 1]), lin[ys, xs, 2])
    if lamped and (lamp[ys, xs] > LAMP_SHIFT * darkest).any():
        unlike &= _off_hue(rest, core, unlike, bare, ppu)
    return unlike


def _hue(colour: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Log ratios R/G and B/G of linear BGR colours, and where the darkest channel is bright
    enough for them to mean anything."""
    b, g, r = cv2.split(np.log(np.maximum(colour, 1e-4)).astype(np.float32))
    darkest = np.minimum(np.minimum(colour[..., 0], colour[..., 1]), colour[..., 2])
    return cv2.merge([r - g, b - g]), darkest >= DARKEST


def _board_hue(
    rest: tuple[np.ndarray, np.ndarray], board: np.ndarray, cand: np.ndarray, bare: np.ndarray
) -> np.ndarray:
    """The ``cand`` pixels whose neighbourhood's hue (``rest``: `_hue` of the colour less the
    lamp's light) is within BOARD_K standard errors of the predicted board's hue there."""
    hue, bright = rest
    board_hue, _ = _hue(board)
    du, dv = cv2.split(hue - board_hue)
    ys, xs = pixels_of(cand & bright)
    out = np.zeros(cand.shape, bool)
    wp = (bare & bright).astype(np.float32)
    sums = cv2.boxFilter(
        cv2.merge([wp, du * wp, dv * wp, du * du * wp + dv * dv * wp]), -1, (BOX, BOX), normalize=False
    )[ys, xs]
    n = np.maximum(sums[:, 0], 1e-6)
    off = sums[:, 1:3] / n[:, None]
    off2 = off[:, 0] * off[:, 0] + off[:, 1] * off[:, 1]  # (off * off).sum(axis=1), bit for bit, faster
    noise = np.maximum(sums[:, 3] / n - off2, 0.0)
    fits = off2 <= BOARD_K * BOARD_K * (FLOOR * FLOOR + noise / np.maximum(n, 1.0))
    out[ys[fits], xs[fits]] = True
    return out


def _off_hue(
    colour: tuple[np.ndarray, np.ndarray], core: np.ndarray, cand: np.ndarray, bare: np.ndarray, ppu: int
) -> np.ndarray:
    """The ``cand`` pixels whose neighbourhood's hue is more than K standard errors off the
    hue the hands' ``core`` predicts beside them, and off every hue the core shows."""
    hue, bright = colour
    u, v = cv2.split(hue)
    ys, xs = pixels_of(cand & bright)
    out = np.zeros(cand.shape, bool)
    if not len(ys):
        return out
    # The hands' hues: the core's means over BOX × BOX px (the scale a pixel's hue is measured
    # on, where the camera's noise averages out), binned in the hue plane.
    wc = (core & bright).astype(np.float32)
    box = cv2.boxFilter(cv2.merge([wc, u * wc, v * wc]), -1, (BOX, BOX), normalize=False)
    full = box[..., 0] >= CORE_SHARE * BOX * BOX
    if not full.any():
        return out
    n_core = box[..., 0][full]
    hand_hues = np.stack([box[..., 1][full], box[..., 2][full]], axis=-1) / n_core[:, None]
    # The pixel's hue: the mean over its neighbourhood's bare-looking pixels, with its noise.
    wp = (bare & bright).astype(np.float32)
    sums = cv2.boxFilter(
        cv2.merge([wp, u * wp, v * wp, u * u * wp + v * v * wp]), -1, (BOX, BOX), normalize=False
    )[ys, xs]
    n = np.maximum(sums[:, 0], 1e-6)
    own = sums[:, 1:3] / n[:, None]
    noise = np.maximum(sums[:, 3] / n - (own[:, 0] * own[:, 0] + own[:, 1] * own[:, 1]), 0.0)  # .sum(axis=1)
    err = FLOOR * FLOOR + noise / np.maximum(n, 1.0)
    # Every hue the hands show, near or far: a hand of two colours (skin, a sleeve) may lie
    # unseen with either, wherever the other outweighs it nearby (tune 591 f9, 954 d2).
    far = _hue_distance(hand_hues, own)
    off = (far * far > K * K * err) & (sums[:, 0] >= BOX)
    # The hand beside the pixel: the mean and spread of the core's box means nearby,
    # Gaussian-weighted (half a square; a square and a quarter where the core is farther).
    held = full.astype(np.float32)
    bu, bv = box[..., 1] / np.maximum(box[..., 0], 1.0), box[..., 2] / np.maximum(box[..., 0], 1.0)
    small = _shrunk([held, bu * held, bv * held, bu * bu * held, bv * bv * held])
    near = _field(small, SIGMA * ppu, ys, xs)
    wide = near[0] <= MIN_WEIGHT
    if wide.any():
        near = np.where(wide, _field(small, FAR_SIGMA * ppu, ys, xs), near)
    weight = np.maximum(near[0], 1e-6)
    mean = near[1:3] / weight
    var = np.maximum(near[3:5] / weight - mean * mean, 0.0)
    off &= (((own.T - mean) ** 2 / (var + err)).sum(axis=0) > K * K) & (near[0] > MIN_WEIGHT)
    out[ys[off], xs[off]] = True
    return out


def _hue_distance(hand_hues: np.ndarray, hues: np.ndarray) -> np.ndarray:
    """For each of ``hues`` (n, 2), its distance to the nearest of ``hand_hues`` (m, 2), up
    to HUE_REACH (farther is HUE_REACH) and to within a bin: the hands' hues are marked on a
    grid of HUE_BIN around ``hues`` and the grid's distance transform read at each hue (less a
    bin's half diagonal and the 5 × 5 mask's error of up to 2 %, so never more than the truth)."""
    # Only hand hues within HUE_REACH of some pixel's hue can be the nearest within it.
    lo, hi = hues.min(axis=0) - HUE_REACH, hues.max(axis=0) + HUE_REACH
    within = (hand_hues >= lo) & (hand_hues <= hi)
    inside = within[:, 0] & within[:, 1]  # np.all(…, axis=1), without the slow short axis
    if not inside.any():
        return np.full(len(hues), HUE_REACH)
    shape = np.ceil((hi - lo) / HUE_BIN).astype(int) + 1
    at = np.round((hand_hues[inside] - lo) / HUE_BIN).astype(int)
    counts = np.bincount(at[:, 0] * shape[1] + at[:, 1], minlength=int(shape[0] * shape[1]))
    grid = (counts < HUE_MIN).reshape(tuple(shape)).astype(np.uint8)
    dist = cv2.distanceTransform(grid, cv2.DIST_L2, cv2.DIST_MASK_5)
    q = np.round((hues - lo) / HUE_BIN).astype(int)
    far = np.maximum(0.98 * dist[q[:, 0], q[:, 1]] - 0.71, 0.0) * HUE_BIN  # the 5 × 5 mask: 2 %
    return np.minimum(far, HUE_REACH)


def _shrunk(moments: list[np.ndarray]) -> np.ndarray:
    """The ``moments`` images averaged over blocks of SCALE × SCALE px, as the channels of one
    image (the hand's field is smooth: it is blurred on this smaller view)."""
    h, w = moments[0].shape
    size = (max(1, w // SCALE), max(1, h // SCALE))
    return np.dstack([cv2.resize(m, size, interpolation=cv2.INTER_AREA) for m in moments])


def _field(small: np.ndarray, sigma: float, ys: np.ndarray, xs: np.ndarray) -> np.ndarray:
    """The Gaussian blur of the ``_shrunk`` moments, read at the full view's pixels ``ys, xs``
    (bilinear between block centres): (channels, len(ys))."""
    blurred = cv2.GaussianBlur(small, (0, 0), sigma / SCALE, borderType=cv2.BORDER_CONSTANT)
    sh, sw = blurred.shape[:2]
    # Pixel centre y + 0.5 lies at (y + 0.5) / SCALE - 0.5 in block units.
    fy = np.clip((ys + 0.5) / SCALE - 0.5, 0, sh - 1)
    fx = np.clip((xs + 0.5) / SCALE - 0.5, 0, sw - 1)
    y0, x0 = np.minimum(fy.astype(np.int32), sh - 2).clip(0), np.minimum(fx.astype(np.int32), sw - 2).clip(0)
    ty, tx = (fy - y0)[:, None], (fx - x0)[:, None]
    y1, x1 = np.minimum(y0 + 1, sh - 1), np.minimum(x0 + 1, sw - 1)
    top = blurred[y0, x0] * (1 - tx) + blurred[y0, x1] * tx
    bottom = blurred[y1, x0] * (1 - tx) + blurred[y1, x1] * tx
    return (top * (1 - ty) + bottom * ty).T


__all__ = ["unlike_hand"]
