"""The blurred rim of a hand: how much of each edge pixel is hand?

A hand's outline is sharp on the table but not in the picture: the lens, the camera's
resolution and the warp to the top view blur it over a pixel or two, so the pixels along it
are a mix of hand and board, and they misfit the board (`vision.board_surface` calls them
foreign). A piece can hide only under the hand itself: of a pixel that is a quarter hand,
three quarters are seen board. Counting the whole rim as hand makes the hand look a pixel or
two wider than it is, all round, and the squares beside it lose a few hundredths of their
free share each (a piece's footprint is 8–10 px across: 7 % of it per pixel of edge).

So each foreign pixel on the outline, beside bare board, is unmixed: its colour is taken as
``(1 − s) · board + s · hand``, with ``board`` the colour of the bare board beside it (same
class of square, within a few pixels) and ``hand`` the colour of the hand's inside next to it
(foreign pixels two or more pixels in). A pixel less than half hand is seen board. It stays
foreign unless the mix explains its colour (it lies on the segment between the two, within
the noise) and the two colours are far enough apart for the share to be measured. The mix is
measured in both linear light (how a lens blurs) and 0–255 levels (how a blurred picture
may have been drawn), and the larger hand share of the two is kept.

The next ring is then unmixed the same way against the same colours, up to RINGS rings.

The board beside an outline is not always one colour within BOARD_PX: the hand's own shadow
falls there, deepest right against the hand, so the board under the outline pixel can be
darker than the mean of the bare board a few pixels out, and the pixel then lies off the
segment, or looks more hand than it is. So the board is also taken from the bare pixels of
the same class right beside it (LOCAL_PX: 3 × 3 and 5 × 5 windows); a pixel freed by any of
the windows is freed. A mean of a few pixels is noisier than the wide one, so against it a
pixel must be less than LOCAL_HALF hand, a margin below the half; and where it makes a pixel
half hand or more, the wide window's mean, which the shadow biases either way, frees nothing.

A finger or a thumb tip less than 2 · HAND_IN + 1 px wide has no inside, and its outline would
stay foreign all round. Where no inside lies within HAND_PX, the hand's colour is taken
THIN_IN px in (from no part of the hand with an inside of its own nearby): still a little board
there, so against it a pixel looks if anything more hand than it is. Those thin parts' colours
guard their own outline pixels too; every other pixel is judged as before.
"""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np

from vision.board_fast import as_channels
from vision.board_geometry import SIZE
from vision.board_surface import PALETTE_BIN, PALETTE_BINS, SHADES, colour_bins, csum  # the hand's palette

RINGS = 3  # rings of the outline looked at, outwards from the bare board
BOARD_PX = 5  # the bare board beside a pixel: same class, within this many pixels
LOCAL_PX = (1, 2)  # ... and right beside it (the shadow by a hand darkens the board there)
LOCAL_HALF = 0.45  # against those few pixels, the share of hand must stay below this
HAND_IN = 2  # the hand's inside: foreign pixels at least this far from its outline
HAND_PX = 4  # ... within this many pixels
THIN_IN = 1  # ... or, where no inside is that near (a finger too thin to have one), this far
CONTRAST = 8.0  # hand and board at least this many noise sigmas apart (levels)
ON_MIX = 3.0  # the pixel within this many sigmas of the mixing segment
HALF = 0.5  # share of hand from which a pixel may hide a piece


class _Sums:
    """Window sums of values over a mask at chosen pixels, from integral images. ``weight`` is
    a mask (bool or 0/1): its integral is taken from a uint8 copy."""

    def __init__(self, values: np.ndarray, weight: np.ndarray) -> None:
        # Summed in float64 from the values as they are (OpenCV widens each one as it adds):
        # the same sums as from a float64 copy, several times faster.
        # The weight as the values' channels (`as_channels`: quicker than broadcasting).
        self.v = cv2.integral(values * as_channels(weight, values.shape[-1]), sdepth=cv2.CV_64F)
        self.w = cv2.integral(weight.astype(np.uint8), sdepth=cv2.CV_64F)

    def mean(self, y: np.ndarray, x: np.ndarray, r: int) -> tuple[np.ndarray, np.ndarray]:
        """Mean over the (2r+1)² window around (y, x), clipped to the view, and the weight."""
        h, w = self.w.shape[0] - 1, self.w.shape[1] - 1
        y0, y1 = np.clip(y - r, 0, h), np.clip(y + r + 1, 0, h)
        x0, x1 = np.clip(x - r, 0, w), np.clip(x + r + 1, 0, w)

        def box(a: np.ndarray) -> np.ndarray:
            return a[y1, x1] - a[y0, x1] - a[y1, x0] + a[y0, x0]

        sw = box(self.w)
        return box(self.v) / np.maximum(sw, 1e-9)[:, None], sw


def _window_mean(
    values: np.ndarray, weight: np.ndarray, y: np.ndarray, x: np.ndarray, r: int
) -> tuple[np.ndarray, np.ndarray]:
    """`_Sums.mean` for a few pixels: each (2r+1)² window gathered directly, no integral
    image of the whole view."""
    h, w = weight.shape
    d = np.arange(-r, r + 1)
    yy, xx = y[:, None, None] + d[None, :, None], x[:, None, None] + d[None, None, :]
    inside = (yy >= 0) & (yy < h) & (xx >= 0) & (xx < w)
    yy, xx = np.clip(yy, 0, h - 1), np.clip(xx, 0, w - 1)
    wt = weight[yy, xx] & inside
    sw = wt.sum(axis=(1, 2)).astype(np.float64)
    sv = (values[yy, xx].astype(np.float64) * wt[..., None]).sum(axis=(1, 2))
    return sv / np.maximum(sw, 1e-9)[:, None], sw


def _share(c: np.ndarray, board: np.ndarray, hand: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per pixel: the hand share of ``c`` on the segment board → hand, the distance of ``c``
    from that segment's line, and the length of the segment."""
    # Channel sums as `csum`: numpy's .sum(axis=-1), bit for bit, without its slow short axis.
    d = hand - board
    n2 = np.maximum(csum(d * d), 1e-12)
    s = csum((c - board) * d) / n2
    off = c - board - s[..., None] * d
    return s, np.sqrt(csum(off * off)), np.sqrt(n2)


def board_rim(
    levels: np.ndarray,
    lin: np.ndarray,
    foreign: np.ndarray,
    bare: np.ndarray,
    seen: np.ndarray,
    classes: np.ndarray,
    noise: float,
) -> np.ndarray:
    """The foreign pixels of a hand's outline that are less than half hand (see the module
    docstring). ``levels``, ``lin``: the top view in 0–255 levels and in linear light (3
    channels); ``bare``: the judged pixels seen as bare board; ``seen``: every pixel that
    cannot hide a piece (bare board, good grid lines, known pieces: the rings start from
    them); ``classes``: the square class of each pixel; ``noise``: the board model's noise
    sigma in levels."""
    out = np.zeros(foreign.shape, bool)
    if not foreign.any() or not bare.any():
        return out
    near = cv2.dilate(seen.astype(np.uint8), np.ones((2 * RINGS + 1,) * 2, np.uint8)) > 0
    cy, cx = np.nonzero(foreign & near)
    if not len(cy):
        return out
    sigma = max(float(noise), 1.0)
    # Everything is measured in the box around the candidates, as far as the windows reach.
    m = max(HAND_PX, BOARD_PX) + HAND_IN + 1
    h, w = foreign.shape
    y0, y1 = max(0, int(cy.min()) - m), min(h, int(cy.max()) + m + 1)
    x0, x1 = max(0, int(cx.min()) - m), min(w, int(cx.max()) + m + 1)
    crop = (slice(y0, y1), slice(x0, x1))
    both = np.concatenate([levels[crop], lin[crop]], axis=2)
    py, px = cy - y0, cx - x0
    # The hand's inside: foreign, HAND_IN px or more from anything else.
    inside = np.zeros(foreign.shape, bool)
    inside[crop] = cv2.erode(foreign[crop].astype(np.uint8), np.ones((2 * HAND_IN + 1,) * 2, np.uint8)) > 0
    hand, hand_w = _Sums(both, inside[crop]).mean(py, px, HAND_PX)
    # A finger narrower than 2 · HAND_IN + 1 px has no inside: its colour is taken THIN_IN px
    # in, where no wider part of the hand is within HAND_PX. Those pixels are still a little
    # board, so the hand share measured against them comes out if anything too high.
    thin = np.zeros(foreign.shape, bool)
    use = np.zeros(len(cy), bool)
    if (hand_w < 1).any():
        window = np.ones((2 * HAND_PX + 1,) * 2, np.uint8)
        thin_in = cv2.erode(foreign[crop].astype(np.uint8), np.ones((2 * THIN_IN + 1,) * 2, np.uint8)) > 0
        thin[crop] = thin_in & ~(cv2.dilate(inside[crop].astype(np.uint8), window) > 0)
        # The few pixels with no inside but a thin part near: their windows read directly.
        (ask,) = np.nonzero((hand_w < 1) & (cv2.dilate(thin[crop].astype(np.uint8), window)[py, px] > 0))
        if len(ask):
            thin_hand, thin_w = _window_mean(both, thin[crop], py[ask], px[ask], HAND_PX)
            got = ask[thin_w >= 1]
            use[got] = True
            hand[got], hand_w[got] = thin_hand[thin_w >= 1], thin_w[thin_w >= 1]
    # The board beside it, of the pixel's own class of square: within BOARD_PX, or right
    # beside it (LOCAL_PX). A pixel unmixed against the board right beside it is freed; one
    # unmixed against the wider board only, unless the board right beside it, measured,
    # makes it half hand or more (a shadow makes the wider mean lie either way).
    cls = classes[cy, cx]
    classes_in = [(cls == c, _Sums(both, (bare & (classes == c))[crop])) for c in np.unique(cls)]
    keys, ppu = _hand_colours(levels, inside), foreign.shape[0] // SIZE

    # A thin part's outline is also guarded by the thin parts' own colours (a finger of the
    # board's colour); every other pixel is judged as before. Found once, when first asked.
    @cache
    def thin_colours() -> np.ndarray:
        return _hand_colours(levels, thin)

    def unmixed(radius: int, half: float) -> tuple[np.ndarray, np.ndarray]:
        board, board_w = np.zeros((len(cy), 6)), np.zeros(len(cy))
        for own, sums in classes_in:
            board[own], board_w[own] = sums.mean(py[own], px[own], radius)
        # With no inside anywhere, only the thin parts have a colour (and a guard).
        guard = keys if len(keys) or not use.any() else thin_colours()
        ok, more = _unmixed(levels, lin, guard, ppu, cy, cx, hand, hand_w, board, board_w, sigma, half)
        thin_ok = ok & use
        if len(keys) and thin_ok.any():  # a thin part's outline: its own colours guard it too
            ok[thin_ok] = ~_board_coloured(thin_colours(), ppu, cy[thin_ok], cx[thin_ok], board[thin_ok, :3])
        return ok, more

    wide, _ = unmixed(BOARD_PX, HALF)
    local = [unmixed(radius, LOCAL_HALF) for radius in LOCAL_PX]
    freed = np.logical_or.reduce([f for f, _ in local])
    more_hand = np.logical_or.reduce([m for _, m in local])
    ok = (wide & ~more_hand) | freed
    allowed = np.zeros(foreign.shape, bool)
    allowed[cy[ok], cx[ok]] = True
    grown = seen.copy()
    step = np.ones((3, 3), np.uint8)
    for _ in range(RINGS):
        new = allowed & ~out & (cv2.dilate(grown.astype(np.uint8), step) > 0)
        if not new.any():
            break
        out |= new
        grown |= new
    return out


def _unmixed(
    levels: np.ndarray,
    lin: np.ndarray,
    keys: np.ndarray,
    ppu: int,
    cy: np.ndarray,
    cx: np.ndarray,
    hand: np.ndarray,
    hand_w: np.ndarray,
    board: np.ndarray,
    board_w: np.ndarray,
    sigma: float,
    half: float,
) -> tuple[np.ndarray, np.ndarray]:
    """At the pixels (cy, cx), mixes of ``board`` and ``hand`` (levels then linear, six
    columns), the two colours far enough apart to tell: is each one less than ``half`` hand,
    with the hand not showing the board's colour (its colours ``keys``) (freed), and is it
    HALF hand or more?"""
    hand_lv, hand_li, board_lv, board_li = hand[:, :3], hand[:, 3:], board[:, :3], board[:, 3:]
    s_lv, off_lv, span_lv = _share(levels[cy, cx].astype(np.float64), board_lv, hand_lv)
    s_li, _, _ = _share(lin[cy, cx].astype(np.float64), board_li, hand_li)
    share = np.maximum(s_lv, s_li)
    valid = (
        (hand_w >= 1)
        & (board_w >= 1)
        & (span_lv >= CONTRAST * sigma)
        & (off_lv <= ON_MIX * sigma * np.sqrt(3.0))
    )
    ok = valid & (share < half)
    more = valid & (share >= HALF)
    # A hand that shows a colour of the board beside it (skin the colour of the light squares,
    # a grey sleeve on a grey board) may go on over that board unseen: its outline against
    # that board is not where it ends, and nothing of it is unmixed.
    if ok.any():
        ok[ok] = ~_board_coloured(keys, ppu, cy[ok], cx[ok], board_lv[ok])
    return ok, more


# A question's fields (rank, file, colour bin × 3), their bounds and their weights in one integer.
_FIELDS = np.array([SIZE, SIZE, PALETTE_BINS, PALETTE_BINS, PALETTE_BINS], np.int64)
_WEIGHTS = np.cumprod(_FIELDS[::-1])[::-1] // _FIELDS

# Square (rank, file) and colour bin (three channels) offsets: the eight squares around and
# one bin either way.
_OFFSETS = np.array(np.meshgrid(*([(-1, 0, 1)] * 5), indexing="ij")).reshape(5, -1).T


def _hand_colours(levels: np.ndarray, inside: np.ndarray) -> np.ndarray:
    """The colours a hand's inside shows, give or take its shading, with the square they are
    seen in: sorted keys (square, colour bin) for `_board_coloured`."""
    ppu = inside.shape[0] // SIZE
    nb = PALETTE_BINS
    vy, vx = np.nonzero(inside)
    sq_in = (vy // ppu) * SIZE + vx // ppu
    colours = levels[vy, vx]
    return np.unique(np.concatenate([sq_in * nb**3 + colour_bins(colours * f) for f in SHADES]))


def _board_coloured(
    keys: np.ndarray, ppu: int, qy: np.ndarray, qx: np.ndarray, board: np.ndarray
) -> np.ndarray:
    """At the pixels (qy, qx): does a hand's inside (its colours ``keys``, `_hand_colours`)
    show the colour of the board beside them (``board``), give or take its shading and a bin
    per channel, in their square or one of the eight around it?"""
    nb = PALETTE_BINS
    if not len(keys):
        return np.ones(len(qy), bool)
    # The questions, one per square and board colour.
    q = np.clip(board // PALETTE_BIN, 0, nb - 1).astype(np.int64)
    pairs = np.stack([qy // ppu, qx // ppu, q[:, 0], q[:, 1], q[:, 2]], axis=1)
    # np.unique(pairs, axis=0), each row as one integer (the same rows in the same order): a
    # row-wise unique sorts a structured copy, many times slower.
    codes, back = np.unique(pairs @ _WEIGHTS, return_inverse=True)
    uniq = codes[:, None] // _WEIGHTS % _FIELDS
    o = _OFFSETS
    r = uniq[:, None, 0] + o[:, 0]
    f = uniq[:, None, 1] + o[:, 1]
    c = uniq[:, None, 2:] + o[:, 2:]
    valid = (r >= 0) & (r < SIZE) & (f >= 0) & (f < SIZE) & ((c >= 0) & (c < nb)).all(axis=-1)
    key = (r * SIZE + f) * nb**3 + (c[..., 0] * nb + c[..., 1]) * nb + c[..., 2]
    at = np.minimum(np.searchsorted(keys, key), len(keys) - 1)
    hit = (valid & (keys[at] == key)).any(axis=1)
    return hit[back.ravel()]


__all__ = ["board_rim"]
