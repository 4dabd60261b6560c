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

from typing import NamedTuple

import cv2
import numpy as np

from vision.board_fast import pixels_of
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
    """Window sums of values over masks at chosen pixels, from integral images: one integral
    of the values and one of the mask for each mask (bool), stacked, so that each pixel is
    asked about its own mask's sums (``which``) in one gather for all masks."""

    def __init__(self, values: np.ndarray, weights: list[np.ndarray]) -> None:
        h, w, c = values.shape
        self.h, self.w = h, w
        self.v = np.empty((len(weights), h + 1, w + 1, c))
        self.s = np.empty((len(weights), h + 1, w + 1))
        for v, s, weight in zip(self.v, self.s, weights, strict=True):
            # Summed in float64 from the values as they are (OpenCV widens each one as it
            # adds): the same sums as from a float64 copy, several times faster. The values
            # outside the mask are zeros (the finite values times a 0/1 weight: the same
            # numbers; a masked copy is quicker than the product). OpenCV writes into the
            # stack's own (fitting) arrays (tests/test_board_speed_24u.py would see otherwise).
            u8 = weight.astype(np.uint8)
            cv2.integral(cv2.copyTo(values, u8, np.zeros_like(values)), sum=v, sdepth=cv2.CV_64F)
            cv2.integral(u8, sum=s, sdepth=cv2.CV_64F)
        self.v, self.s = self.v.reshape(-1, c), self.s.reshape(-1)

    def mean(
        self, y: np.ndarray, x: np.ndarray, r: int, which: np.ndarray | int = 0
    ) -> tuple[np.ndarray, np.ndarray]:
        """Mean over the (2r+1)² window around (y, x), clipped to the view, of the mask
        ``which`` (an index into the masks, one for all pixels or one a pixel), and the
        weight."""
        h, w = self.h, self.w
        # np.clip(y - r, 0, h) and np.clip(y + r + 1, 0, h), ... for pixels in the view (the
        # same integers, without np.clip's overhead).
        y0, y1 = np.maximum(y - r, 0), np.minimum(y + r + 1, h)
        x0, x1 = np.maximum(x - r, 0), np.minimum(x + r + 1, w)
        # Flat indices into the stacked integrals (the rows of ``v``, the values of ``s``).
        at = np.asarray(which) * ((h + 1) * (w + 1))
        y0, y1 = at + y0 * (w + 1), at + y1 * (w + 1)

        def box(a: np.ndarray) -> np.ndarray:
            return (
                a.take(y1 + x1, axis=0)
                - a.take(y0 + x1, axis=0)
                - a.take(y1 + x0, axis=0)
                + a.take(y0 + x0, axis=0)
            )

        sw = box(self.s)
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
    # The window's pixels (clipped to the view) gathered by flat index: the same arrays as
    # indexing by the clipped rows and columns, faster.
    flat = np.minimum(np.maximum(yy, 0), h - 1) * w + np.minimum(np.maximum(xx, 0), w - 1)
    wt = weight.ravel().take(flat) & inside
    sw = wt.sum(axis=(1, 2)).astype(np.float64)
    sv = (values.reshape(h * w, -1).take(flat, axis=0).astype(np.float64) * wt[..., None]).sum(axis=(1, 2))
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
    cy, cx = pixels_of(foreign & near)
    if not len(cy):
        return out
    sigma = max(float(noise), 1.0)
    # Everything is measured in the box around the candidates, as far as the windows reach.
    m = max(HAND_PX, BOARD_PX) + HAND_IN + 1
    h, w = foreign.shape
    y0, y1 = max(0, int(cy.min()) - m), min(h, int(cy.max()) + m + 1)
    x0, x1 = max(0, int(cx.min()) - m), min(w, int(cx.max()) + m + 1)
    crop = (slice(y0, y1), slice(x0, x1))
    both = _side_by_side(levels[crop], lin[crop])
    py, px = cy - y0, cx - x0
    # The hand's inside: foreign, HAND_IN px or more from anything else.
    inside = np.zeros(foreign.shape, bool)
    inside[crop] = cv2.erode(foreign[crop].astype(np.uint8), np.ones((2 * HAND_IN + 1,) * 2, np.uint8)) > 0
    # The board beside a pixel is of its own class of square (below): the window sums over
    # the hand's inside and over each class's bare board, made once.
    cls = classes[cy, cx]
    kinds, which = np.unique(cls, return_inverse=True)
    bare_in, classes_in = bare[crop], classes[crop]
    sums = _Sums(both, [inside[crop]] + [bare_in & (classes_in == c) for c in kinds])
    hand, hand_w = sums.mean(py, px, HAND_PX)
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
    colours = levels[cy, cx].astype(np.float64), lin[cy, cx].astype(np.float64)
    mixes = []  # (unmixed, half hand or more, the board's levels) for each window
    for radius, half in ((BOARD_PX, HALF), *((r, LOCAL_HALF) for r in LOCAL_PX)):
        board, board_w = sums.mean(py, px, radius, 1 + which)
        mixes.append((*_unmixed(*colours, hand, hand_w, board, board_w, sigma, half), board[:, :3]))
    # A hand that shows a colour of the board beside it (skin the colour of the light squares,
    # a grey sleeve on a grey board) may go on over that board unseen: its outline against
    # that board is not where it ends, and nothing of it is unmixed. Its colours guard every
    # pixel; a thin part's outline is also guarded by the thin parts' own colours (a finger of
    # the board's colour). With no inside anywhere, only the thin parts have a colour (and a
    # guard). Each pixel's answer is its own: asked for all the windows at once.
    keys, ppu = _hand_colours(levels, inside), foreign.shape[0] // SIZE
    unmixed, boards = [ok for ok, _, _ in mixes], [board for _, _, board in mixes]
    if not keys.empty:
        _guard(keys, ppu, cy, cx, unmixed, boards)
        thin_asked = [ok & use for ok in unmixed]
        if any(ok.any() for ok in thin_asked):
            _guard(_hand_colours(levels, thin), ppu, cy, cx, thin_asked, boards, unmixed)
    else:
        _guard(_hand_colours(levels, thin) if use.any() else keys, ppu, cy, cx, unmixed, boards)
    (wide, _, _), *local = mixes
    freed = np.logical_or.reduce([f for f, _, _ in local])
    more_hand = np.logical_or.reduce([m for _, m, _ in local])
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


def _side_by_side(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``np.concatenate([a, b], axis=2)`` (two 3-channel pictures of one size): by
    ``cv2.merge`` when they are of one float type (the same copy, several times faster)."""
    if a.dtype == b.dtype and a.dtype in (np.float32, np.float64):
        return cv2.merge([a, b])
    return np.concatenate([a, b], axis=2)


def _guard(
    keys: _HandColours,
    ppu: int,
    cy: np.ndarray,
    cx: np.ndarray,
    asked: list[np.ndarray],
    boards: list[np.ndarray],
    into: list[np.ndarray] | None = None,
) -> None:
    """The pixels of each mask of ``asked`` (over (cy, cx); ``boards``: the board's levels
    beside every pixel) whose board colour a hand's inside shows (its colours ``keys``,
    `_board_coloured`) are no longer unmixed: set False in the mask, or in the matching mask
    of ``into`` (which holds them), the others left True. One `_board_coloured` for all the
    masks: a pixel's answer depends on its own square and board colour only."""
    into = asked if into is None else into
    at = [np.flatnonzero(mask) for mask in asked]
    if not sum(len(a) for a in at):
        return
    hit = _board_coloured(
        keys,
        ppu,
        np.concatenate([cy[a] for a in at]),
        np.concatenate([cx[a] for a in at]),
        np.concatenate([board[a] for a, board in zip(at, boards, strict=True)]),
    )
    for mask, a, part in zip(into, at, np.split(hit, np.cumsum([len(a) for a in at])[:-1]), strict=True):
        mask[a] = ~part


def _unmixed(
    c_lv: np.ndarray,
    c_li: np.ndarray,
    hand: np.ndarray,
    hand_w: np.ndarray,
    board: np.ndarray,
    board_w: np.ndarray,
    sigma: float,
    half: float,
) -> tuple[np.ndarray, np.ndarray]:
    """Pixels of colours ``c_lv`` (levels) and ``c_li`` (linear), mixes of ``board`` and
    ``hand`` (levels then linear, six columns), the two colours far enough apart to tell: is
    each one less than ``half`` hand (unmixed, before the hand's colours are asked about:
    `_guard`), and is it HALF hand or more?"""
    hand_lv, hand_li, board_lv, board_li = hand[:, :3], hand[:, 3:], board[:, :3], board[:, 3:]
    s_lv, off_lv, span_lv = _share(c_lv, board_lv, hand_lv)
    s_li, _, _ = _share(c_li, board_li, hand_li)
    share = np.maximum(s_lv, s_li)
    valid = (
        (hand_w >= 1)
        & (board_w >= 1)
        & (span_lv >= CONTRAST * sigma)
        & (off_lv <= ON_MIX * sigma * np.sqrt(3.0))
    )
    return valid & (share < half), valid & (share >= HALF)


# A question's fields (rank, file, colour bin × 3), their bounds and their weights in one integer.
_FIELDS = np.array([SIZE, SIZE, PALETTE_BINS, PALETTE_BINS, PALETTE_BINS], np.int64)
_WEIGHTS = np.cumprod(_FIELDS[::-1])[::-1] // _FIELDS

# Square (rank, file) and colour bin (three channels) offsets: the eight squares around and
# one bin either way.
_OFFSETS = np.array(np.meshgrid(*([(-1, 0, 1)] * 5), indexing="ij")).reshape(5, -1).T


class _HandColours(NamedTuple):
    """The colours a hand's inside shows, give or take its shading, with the square they are
    seen in (`_hand_colours`): a table of every (square, colour bin), True where seen."""

    seen: np.ndarray  # (SIZE² · PALETTE_BINS³,) bools, indexed by square · bins³ + colour bin
    empty: bool  # no colour at all (no inside)


def _hand_colours(levels: np.ndarray, inside: np.ndarray) -> _HandColours:
    """The colours of the hand's ``inside`` pixels (`_HandColours`). A table, not a sorted list
    of its keys: looking a key up is one read, and the few thousand keys of a hand need no
    sort (the same keys either way)."""
    ppu = inside.shape[0] // SIZE
    nb = PALETTE_BINS
    vy, vx = pixels_of(inside)
    sq_in = (vy // ppu) * SIZE + vx // ppu
    colours = levels[vy, vx]
    # Every shade at once: a float32 colour times a Python float is a float32 product (the
    # factor rounded to float32 first), times the factors as an array of the colours' type.
    shades = np.asarray(SHADES, np.result_type(colours.dtype, 1.0))[:, None, None]
    seen = np.zeros(SIZE * SIZE * nb**3, bool)
    seen[sq_in * nb**3 + colour_bins(colours * shades)] = True
    return _HandColours(seen, not len(vy))


def _board_coloured(
    colours: _HandColours, ppu: int, qy: np.ndarray, qx: np.ndarray, board: np.ndarray
) -> np.ndarray:
    """At the pixels (qy, qx): does a hand's inside (its ``colours``, `_hand_colours`) show
    the colour of the board beside them (``board``), give or take its shading and a bin per
    channel, in their square or one of the eight around it?"""
    nb = PALETTE_BINS
    if colours.empty:
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
    hit = (valid & colours.seen[np.where(valid, key, 0)]).any(axis=1)
    return hit[back.ravel()]


__all__ = ["board_rim"]
