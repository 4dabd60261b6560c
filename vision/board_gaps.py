"""The gaps a palm spans: could a hand be in them, unseen, by its hue?

A hand the colour of one class of squares shows only over the other class, so the reader
closes the gaps between a hand's foreign regions (`vision.board_surface._under_hands`): a
palm spans the squares it covers, seen or not. Closing also fills every hollow of a hand's
outline up to about a square and a half wide: between the fingers, between thumb and palm,
between two hands. The board seen in such a hollow is then "maybe under the hand", and a
square beside a hand whose free share was just over half a piece became unknown.

A hand is invisible over the board only where it has the board's colour. Its own shading,
a shadow or a dimmer part of the lamp's light scale its colour; they do not change its
*hue* (the ratios between its channels, which a scale leaves alone in 0–255 levels as in
linear light). So a bare-looking pixel of a gap whose hue no hand in the frame shows
cannot be a hand there: it is released from the gap. A hand's hues are those of its core
(its foreign region 2 px in, shadow-like pixels left out, hand parts found dimmed kept)
that fill at least HUE_SHARE of it, binned and widened by HUE_MARGIN bins for noise. Not
released: a dark pixel (its hue is noise), and a pixel under a lamp's reflection (added
grey light shifts hues towards the lamp's).

>>> import numpy as np
>>> levels = np.full((3, 3, 3), 128.0); levels[1, 1] = (60, 120, 200)  # B, G, R
>>> bool(hue_bins(levels)[1, 1] != hue_bins(levels)[0, 0])  # skin is not grey
True
>>> bool(hue_bins(0.5 * levels)[1, 1] == hue_bins(levels)[1, 1])  # in a shadow: the same hue
True
"""

from __future__ import annotations

from typing import NamedTuple

import cv2
import numpy as np

from vision.board_fast import channel_min, pixels_of

HUE_BIN = 0.06  # width of a hue bin: natural log of a channel ratio (R/G and B/G)
HUE_RANGE = 2.0  # hues beyond ±this (log ratio) share the last bin
HUE_BINS = round(2 * HUE_RANGE / HUE_BIN) + 1
# With one bin, tune 215 g3 and 927 d6 (at the half-piece line, beside smooth shadows) were guessed.
HUE_MARGIN = 2  # bins either side of a hand's hue that are its hue too (noise, chroma blur)
HUE_DARKEST = 40.0  # levels: a pixel whose darkest channel is below this has no reliable hue
HUE_LAMP = 0.1  # lamp light above this share of the board's own shifts hues: not judged
HUE_SHARE = 0.01  # share of a hand's core a hue bin needs to be the hand's
HUE_MIN_PIXELS = 3  # ... and at least this many pixels
CORE_ERODE = 2  # px: a hand's edge pixels mix with the board; its hue is its core's


class HandRegions(NamedTuple):
    """The hands as the reader found them (`vision.board_surface.Hands`): the foreign
    regions' ``labels`` and ``stats`` (8-connected), the labels of the ``hands`` among them
    (``hands`` in `hands_hues` is their pixels), and their ``core``: the hands eroded by
    CORE_ERODE px, without the ``shade`` pixels."""

    labels: np.ndarray
    stats: np.ndarray
    hands: np.ndarray
    core: np.ndarray


def hue_bins(levels: np.ndarray) -> np.ndarray:
    """Per pixel (0–255 levels, last axis B, G, R): the index of its hue bin."""
    lv = np.log(np.maximum(levels.astype(np.float32), 1.0))
    u = lv[..., 2] - lv[..., 1]
    v = lv[..., 0] - lv[..., 1]
    iu = np.clip(np.round((u + HUE_RANGE) / HUE_BIN), 0, HUE_BINS - 1).astype(np.int32)
    iv = np.clip(np.round((v + HUE_RANGE) / HUE_BIN), 0, HUE_BINS - 1).astype(np.int32)
    return iu * HUE_BINS + iv


def mean3(levels: np.ndarray) -> np.ndarray:
    """The view's 3 × 3 mean colour (float32), whose hue a pixel is judged by: one noisy pixel
    does not decide. Made once a frame for `spanned_gaps` and
    `vision.board_near_colour.near_hand_colour`, which ask it of the same view."""
    return cv2.blur(levels.astype(np.float32), (3, 3))


def hands_hues(
    levels: np.ndarray,
    hands: np.ndarray,
    shade: np.ndarray,
    parts: np.ndarray,
    regions: HandRegions | None = None,
) -> np.ndarray:
    """The hue bins any hand shows in its core, widened by HUE_MARGIN: (HUE_BINS²,) bools.
    The core leaves out ``shade`` (pixels that look like dimmed board: a hand's shadow
    beside it is often foreign too) but keeps the hand ``parts`` found dimmed.

    ``regions``: the hands' own regions and core, if already found (`HandRegions`); used
    where no hand part was found dimmed (then they are these regions and this core)."""
    nb = HUE_BINS * HUE_BINS
    if regions is not None and not parts.any():
        # The regions of ``hands`` are the hand-sized ones among the labels, numbered by
        # their place in ``regions.hands``; their core is ``regions.core``. The same groups
        # of the same pixels as labelled afresh, in another order: the bins are the same.
        index = np.zeros(len(regions.stats), np.intp)
        index[regions.hands] = np.arange(1, len(regions.hands) + 1)
        core = regions.core
        count, group = len(regions.hands) + 1, index[regions.labels[core]]
    else:
        core = cv2.erode(hands.astype(np.uint8), np.ones((2 * CORE_ERODE + 1,) * 2, np.uint8)) > 0
        core = (core & ~shade) | parts
        count, labels = cv2.connectedComponents((hands | parts).astype(np.uint8), connectivity=8)
        group = labels[core]
    # Per hand region and hue bin, its core's pixels. A hue of a few stray pixels (a piece's
    # white face under a finger, a blurred edge) is not the hand's: a hue counts with
    # HUE_SHARE of its region's core or more.
    n = np.bincount(group * nb + hue_bins(levels[core]), minlength=count * nb).reshape(count, nb)
    n[0] = 0
    need = np.maximum(HUE_MIN_PIXELS, HUE_SHARE * n.sum(axis=1, keepdims=True))
    grid = (n >= need).any(axis=0).reshape(HUE_BINS, HUE_BINS).astype(np.uint8)
    k = 2 * HUE_MARGIN + 1
    return (cv2.dilate(grid, np.ones((k, k), np.uint8)) > 0).ravel()


def spanned_gaps(
    closed: np.ndarray,
    hands: np.ndarray,
    levels: np.ndarray,
    lit: np.ndarray,
    shade: np.ndarray,
    parts: np.ndarray,
    smooth: np.ndarray | None = None,
    regions: HandRegions | None = None,
) -> np.ndarray:
    """The pixels of ``closed`` (gaps between or inside the ``hands``' foreign regions) that
    a hand could cover unseen: all but those whose hue no hand shows (see the module doc).
    ``levels``: the top view, 0–255 BGR; ``lit``: pixels under a lamp's reflection;
    ``smooth``: `mean3` of ``levels``, if made; ``regions``: see `hands_hues`."""
    if not closed.any():
        return closed
    palette = hands_hues(levels, hands, shade, parts, regions)
    # The gap's own hue from a 3 × 3 mean: one noisy pixel does not decide.
    if smooth is None:
        smooth = mean3(levels)
    ys, xs = pixels_of(closed)
    c = smooth[ys, xs]
    foreign_hue = ~palette[hue_bins(c)] & (channel_min(c) >= HUE_DARKEST) & ~lit[ys, xs]
    out = closed.copy()
    out[ys[foreign_hue], xs[foreign_hue]] = False
    return out


__all__ = ["HUE_LAMP", "HandRegions", "hands_hues", "hue_bins", "mean3", "spanned_gaps"]
