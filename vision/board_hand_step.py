"""Where a hand meets a patch of bare-looking board with a step in colour, it ends there.

The reader counts bare-looking pixels beside a hand as "maybe under it" when their colour is
one the hand shows somewhere (its palette) or when they lie in a gap a palm may span
(`vision.board_surface._under_hands`): a hand of one square colour shows only over the other
colour, and over its own it has no outline. Both rules look at the whole hand. But a hand's
own colour changes smoothly across it (its shading, its lighting): where the hand goes on
unseen over board of its colour, the hand seen right beside that board has about that colour
too, and the step between them is small (an arm of the light squares' colour seen over a
dark square goes on over the light square next to it with no visible edge). Where every
place a patch of such pixels touches the hand shows a clear step in colour (a hollow of dark
board between a pale thumb and the fingers, the board beside a brown hand whose colour some
other part of a hand happens to share), the hand is not over the patch: it would have to
change colour abruptly right where it meets it.

So the hidden pixels are taken as patches (joined across the grid lines, which are not
judged), and a patch is seen board when

- it touches the hand: some of its pixels lie within CONTACT px of foreign pixels;
- every such pixel NEAR px or more from the hand (the pixel right beside the hand is a blur
  of both) differs from the hand's colour at its nearest foreign pixel (the mean log colour
  of the hand's inside, HAND_ERODE px in, within HAND_RADIUS px of it, or within HAND_FAR
  px where a thin finger or sliver has fewer than MIN_INSIDE inside pixels that near) by
  more than STEP in some channel; a pixel whose nearest hand pixel has no inside even that
  far counts as a small step (nothing is known);
- and it holds no pixel the caller marks ``other``: a hand part that fits as the board
  dimmed, colours washed out or lit by a lamp's reflection (light added to the board and
  not to a hand makes steps of its own). The caller keeps deep shadows and off-hue shade
  hidden whatever the patch.

Real-world assumption: a hand's (or a sleeve's) colour changes smoothly across it; a step in
colour between a hand and the board beside it is the hand's outline. It does not hold where
one part of a hand lies over another part of a different colour (a finger over a palm in its
own shadow): such a lower part must then show elsewhere to be bounded by the other rules.

>>> import numpy as np
>>> levels = np.full((40, 40, 3), 60.0)          # dark board
>>> foreign = np.zeros((40, 40), bool); foreign[:, :20] = True
>>> levels[:, :20] = (140, 170, 210)             # a pale hand on the left
>>> hidden = np.zeros((40, 40), bool); hidden[:, 20:30] = True
>>> bool(step_bounded(levels, foreign, hidden, np.zeros_like(hidden), np.zeros_like(hidden))[5, 25])
True
>>> levels[:, 20:] = (135, 165, 205)             # board of the hand's colour beside it
>>> bool(step_bounded(levels, foreign, hidden, np.zeros_like(hidden), np.zeros_like(hidden))[5, 25])
False
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.board_fast import as_channels, pixels_of

STEP = 0.25  # log levels: a hand's colour changes less than this across a few pixels
CONTACT = 6  # px: a patch touches the hand within this (across a grid line band of 4 px)
NEAR = 2  # px: pixels nearer the hand than this are a blur of hand and board, not compared
HAND_RADIUS = 4  # px: the hand's colour at a contact is its inside's mean within this
HAND_FAR = 8  # px: ... or within this, where the hand is too thin there to have an inside
HAND_ERODE = 1  # px: the hand's inside lies this far in from its outline (its blur)
MIN_INSIDE = 2  # inside pixels around a contact before its colour counts
LEVEL_FLOOR = 12.0  # levels added before the log: a dark colour's noise is no step
JOIN = 5  # px: hidden pixels this near each other (across a grid line) are one patch


def step_bounded(
    levels: np.ndarray,
    foreign: np.ndarray,
    hidden: np.ndarray,
    other: np.ndarray,
    line: np.ndarray,
) -> np.ndarray:
    """The ``hidden`` pixels that are seen board after all: their patch meets the hand
    (``foreign``) only across a step in colour (see the module doc). ``levels``: the top view
    (0–255 BGR); ``other``: pixels hidden for another reason, whose patches are left alone;
    ``line``: the grid-line band, across which patches join."""
    out = np.zeros(hidden.shape, bool)
    hidden = hidden & ~line
    if not hidden.any() or not foreign.any():
        return out
    # Only the box around the hidden pixels matters: a patch's contacts lie within CONTACT px
    # of it, and the hand's colour there within HAND_RADIUS px more (a speed-up, exact).
    ys, xs = pixels_of(hidden)
    m = CONTACT + HAND_FAR + HAND_ERODE + 2
    h, w = hidden.shape
    box = (
        slice(max(0, ys.min() - m), min(h, ys.max() + m + 1)),
        slice(max(0, xs.min() - m), min(w, xs.max() + m + 1)),
    )
    levels, foreign, hidden, other, line = (a[box] for a in (levels, foreign, hidden, other, line))
    if not foreign.any():
        return out
    dist, nearest = cv2.distanceTransformWithLabels(
        (~foreign).astype(np.uint8), cv2.DIST_L2, 3, labelType=cv2.DIST_LABEL_PIXEL
    )
    # Patches: hidden pixels off the grid lines, joined across the line band (not across a
    # band between two pieces of the hand: its line pixels lie within NEAR px of the hand).
    near_hidden = cv2.dilate(
        hidden.astype(np.uint8), cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (JOIN,) * 2)
    )
    joined = hidden | (line & (near_hidden > 0) & (dist > NEAR))
    count, labels = cv2.connectedComponents(joined.astype(np.uint8), connectivity=8)
    if count <= 1:
        return out
    touching = np.zeros(count, bool)
    smooth = np.zeros(count, bool)
    compared = np.zeros(count, bool)  # a patch touching the hand only within NEAR px: left alone
    at = hidden & (dist <= CONTACT)
    # Flags set by the labels as they come, repeats and all: the same flags as setting them
    # by np.unique's labels, without its sort.
    touching[labels[at]] = True
    cmp = at & (dist >= NEAR)
    ys, xs = pixels_of(cmp)
    if len(ys):
        # The labels of the pixel variant number the zero pixels (foreign) in row-major order.
        fy, fx = pixels_of(foreign)
        idx = nearest[ys, xs] - 1
        hy, hx = fy[idx], fx[idx]
        lg = np.log(levels.astype(np.float32) + LEVEL_FLOOR)
        inside = cv2.erode(foreign.astype(np.uint8), np.ones((2 * HAND_ERODE + 1,) * 2, np.uint8))
        n_in, hand = _mean_within(lg, inside, (HAND_RADIUS, HAND_FAR), hy, hx)
        # A thin finger or a sliver of a hand has no inside of its own: its colour is then the
        # hand's a little farther off (its blurred outline says nothing).
        thin = n_in[0] < MIN_INSIDE
        known = np.where(thin, n_in[1], n_in[0]) >= MIN_INSIDE
        hand = np.where(thin[:, None], hand[1], hand[0])
        # The patch's colour at the contact: the mean of its hidden pixels' within 3 × 3 px.
        _, board = _mean_within(lg, hidden.astype(np.uint8), (1,), ys, xs)
        d = np.abs(board[0] - hand)
        step = np.maximum(np.maximum(d[:, 0], d[:, 1]), d[:, 2])  # .max(axis=1), the same values
        small = ~known | (step < STEP)
        smooth[labels[ys[small], xs[small]]] = True
        compared[labels[ys, xs]] = True
    spoilt = np.zeros(count, bool)
    spoilt[labels[other & joined]] = True
    free = touching & compared & ~smooth & ~spoilt
    free[0] = False
    out[box] = free[labels] & hidden
    return out


def _mean_within(
    lg: np.ndarray, inside: np.ndarray, radii: tuple[int, ...], ys: np.ndarray, xs: np.ndarray
) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """For each of ``radii``: the count of ``inside`` pixels (uint8 0 / 1) within that many px
    (a square window) of the pixels ``ys, xs``, and the mean of ``lg`` over them there.

    The window sums are made over the whole view (a box filter's numbers depend on the row
    width: no crop), but divided only at the pixels asked about: the same quotients, a value
    at a time, as dividing the whole view (tests/test_board_speed_24c.py keeps that form)."""
    weighted = lg * as_channels(inside)  # 2-D terms as three channels (vision.board_fast)
    counts, means = [], []
    for radius in radii:
        k = (2 * radius + 1,) * 2
        n = cv2.boxFilter(inside.astype(np.float32), -1, k, normalize=False)[ys, xs]
        total = cv2.boxFilter(weighted, -1, k, normalize=False)[ys, xs]
        counts.append(n)
        means.append(total / np.maximum(n, 1)[:, None])
    return counts, means
