"""Round 24's exact speed-ups of the hands' machinery (board24u) give the results of the plain
forms they replace, bit for bit: the hand's blurred rim (`vision.board_rim`), a palm's
closing (`vision.board_surface._closing`), the hand's outline in pieces
(`vision.board_hand_edges.outline_pieces`), a piece's sticker under the fingers
(`vision.board_piece_ink.sticker_faces`) and the foreign regions
(`vision.board_regions.find_regions`, `light_of`). The plain forms are kept here."""

from __future__ import annotations

from functools import cache

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.same_bits import same_bits
from vision.board_fast import as_channels, box_of, channel_max, channel_min, components, median, share
from vision.board_geometry import ALL_SQUARES, SIZE
from vision.board_hand_edges import outline_pieces, outline_pixels
from vision.board_piece_ink import (
    INK_CONTRAST,
    INK_ENCLOSED,
    INK_MIN,
    INK_NEAR,
    INK_SPAN,
    STICKER,
    WHITE,
    sticker_faces,
)
from vision.board_regions import (
    CORE,
    EDGE_PX,
    JOIN_PX,
    LAMP_STRONG,
    MIN_AREA,
    REFLECTION_GREY,
    REFLECTION_KEPT,
    TOUCH,
    Region,
    _square_cover,
    board_seen_through,
    classify,
    find_regions,
    grey_brighter,
    is_reflection,
    kept_whole,
    light_of,
    shows_board,
)
from vision.board_rim import (
    _FIELDS,
    _OFFSETS,
    _WEIGHTS,
    BOARD_PX,
    CONTRAST,
    HALF,
    HAND_IN,
    HAND_PX,
    LOCAL_HALF,
    LOCAL_PX,
    ON_MIX,
    RINGS,
    THIN_IN,
    _share,
    board_rim,
)
from vision.board_surface import (
    LINE_PX,
    PALETTE_BIN,
    PALETTE_BINS,
    REACH,
    SHADES,
    _by_rectangles,
    _closing,
    _grown,
    _rectangles,
    _spread,
    colour_bins,
    to_linear,
)

# --- The hand's rim: vision.board_rim before round 24 ---------------------------------------


class _SumsPlain:
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


def _window_mean_plain(
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


def _board_rim_plain(
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
    hand, hand_w = _SumsPlain(both, inside[crop]).mean(py, px, HAND_PX)
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
            thin_hand, thin_w = _window_mean_plain(both, thin[crop], py[ask], px[ask], HAND_PX)
            got = ask[thin_w >= 1]
            use[got] = True
            hand[got], hand_w[got] = thin_hand[thin_w >= 1], thin_w[thin_w >= 1]
    # The board beside it, of the pixel's own class of square: within BOARD_PX, or right
    # beside it (LOCAL_PX). A pixel unmixed against the board right beside it is freed; one
    # unmixed against the wider board only, unless the board right beside it, measured,
    # makes it half hand or more (a shadow makes the wider mean lie either way).
    cls = classes[cy, cx]
    classes_in = [(cls == c, _SumsPlain(both, (bare & (classes == c))[crop])) for c in np.unique(cls)]
    keys, ppu = _hand_colours_plain(levels, inside), foreign.shape[0] // SIZE

    # A thin part's outline is also guarded by the thin parts' own colours (a finger of the
    # board's colour); every other pixel is judged as before. Found once, when first asked.
    @cache
    def thin_colours() -> np.ndarray:
        return _hand_colours_plain(levels, thin)

    def unmixed(radius: int, half: float) -> tuple[np.ndarray, np.ndarray]:
        board, board_w = np.zeros((len(cy), 6)), np.zeros(len(cy))
        for own, sums in classes_in:
            board[own], board_w[own] = sums.mean(py[own], px[own], radius)
        # With no inside anywhere, only the thin parts have a colour (and a guard).
        guard = keys if len(keys) or not use.any() else thin_colours()
        ok, more = _unmixed_plain(levels, lin, guard, ppu, cy, cx, hand, hand_w, board, board_w, sigma, half)
        thin_ok = ok & use
        if len(keys) and thin_ok.any():  # a thin part's outline: its own colours guard it too
            ok[thin_ok] = ~_board_coloured_plain(
                thin_colours(), ppu, cy[thin_ok], cx[thin_ok], board[thin_ok, :3]
            )
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


def _unmixed_plain(
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
        ok[ok] = ~_board_coloured_plain(keys, ppu, cy[ok], cx[ok], board_lv[ok])
    return ok, more


def _hand_colours_plain(levels: np.ndarray, inside: np.ndarray) -> np.ndarray:
    """The colours a hand's inside shows, give or take its shading, with the square they are
    seen in: sorted keys (square, colour bin) for `_board_coloured`."""
    ppu = inside.shape[0] // SIZE
    nb = PALETTE_BINS
    vy, vx = np.nonzero(inside)
    sq_in = (vy // ppu) * SIZE + vx // ppu
    colours = levels[vy, vx]
    return np.unique(np.concatenate([sq_in * nb**3 + colour_bins(colours * f) for f in SHADES]))


def _board_coloured_plain(
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


def _rim_frame(seed: int, ppu: int, whole_levels: bool, blobs: int, thin: int, maze: bool):
    """A drawn top view: a checkered board (a third class of squares, the maze's, if
    ``maze``), ``blobs`` hand-like discs and ``thin`` fingers of 1–3 px, their outlines
    blurred into the board, with noise; the verdicts board_rim is given, as the reader makes
    them (foreign where the colour is off the board's, bare elsewhere)."""
    rng = np.random.default_rng(seed)
    n = SIZE * ppu
    v, u = np.mgrid[0:n, 0:n]
    classes = (u // ppu + v // ppu) % 2
    if maze:
        classes = (
            np.where(rng.random((SIZE, SIZE)) < 0.2, 2, classes[::ppu, ::ppu]).repeat(ppu, 0).repeat(ppu, 1)
        )
    colours = rng.uniform(30, 230, (3, 3))
    board = colours[classes]
    share = np.zeros((n, n))
    for _ in range(blobs):
        cy, cx, r = rng.uniform(0, n), rng.uniform(0, n), rng.uniform(3, n / 3)
        share = np.maximum(share, np.clip(r - np.hypot(v - cy, u - cx), 0, 1))
    for _ in range(thin):
        y, x0 = rng.integers(0, n), rng.integers(0, n // 2)
        share[y : y + rng.integers(1, 4), x0 : x0 + rng.integers(5, n // 2)] = 1.0
    hand = rng.uniform(0, 255, 3)
    if rng.random() < 0.3:
        hand = colours[rng.integers(0, 2)]  # a hand of the board's own colour
    levels = (1 - share[..., None]) * board + share[..., None] * hand + rng.normal(0, 2, (n, n, 3))
    levels = np.clip(levels, 0, 255)
    if whole_levels:  # the reader's: a uint8 view, its levels and its linear light
        top = np.round(levels).astype(np.uint8)
        levels, lin = top.astype(np.float32), to_linear(top)
    else:
        levels = levels.astype(np.float32)
        lin = (levels / 255.0) ** 2.2
    foreign = share > 0.05
    bare = ~foreign & (rng.random((n, n)) < 0.97)
    seen = bare | ((classes == 2) & ~foreign)
    return levels, lin, foreign, bare, seen, classes, float(rng.uniform(0.5, 6))


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    ppu=st.sampled_from([6, 8, 12, 24]),
    whole_levels=st.booleans(),
    blobs=st.integers(0, 4),
    thin=st.integers(0, 3),
    maze=st.booleans(),
)
def test_board_rim_is_the_plain_forms(seed, ppu, whole_levels, blobs, thin, maze):
    """The whole rim (its window sums stacked, the classes gathered at once, the hand's
    colours as a table, the colour guard asked once) frees the pixels the plain form frees."""
    args = _rim_frame(seed, ppu, whole_levels, blobs, thin, maze)
    assert np.array_equal(board_rim(*args), _board_rim_plain(*args))


@settings(max_examples=200, deadline=None)
@given(
    shape=st.tuples(st.integers(1, 40), st.integers(1, 40)),
    channels=st.integers(2, 6),
    share=st.floats(0, 1),
    seed=st.integers(0, 2**32 - 1),
    masks=st.integers(1, 3),
    r=st.integers(0, 6),
)
def test_stacked_window_sums_are_the_plain_ones(shape, channels, share, seed, masks, r):
    """`_Sums` of several masks, each pixel asked about its own mask's, against one
    `_SumsPlain` per mask (values over many decades: where float64 sums round)."""
    from vision.board_rim import _Sums

    rng = np.random.default_rng(seed)
    values = (rng.random((*shape, channels)) * 10.0 ** rng.integers(-8, 4, (*shape, channels))).astype(
        np.float32
    )
    weights = [rng.random(shape) < share for _ in range(masks)]
    y, x = rng.integers(0, shape[0], 50), rng.integers(0, shape[1], 50)
    which = rng.integers(0, masks, 50)
    mean, sw = _Sums(values, weights).mean(y, x, r, which)
    for k, weight in enumerate(weights):
        plain_mean, plain_sw = _SumsPlain(values, weight).mean(y[which == k], x[which == k], r)
        assert same_bits(mean[which == k], plain_mean)
        assert same_bits(sw[which == k], plain_sw)


# --- A palm's closing: vision.board_surface._closing before round 24 ------------------------


def _closing_plain(mask: np.ndarray, kernel: np.ndarray) -> np.ndarray:
    r = max(kernel.shape) // 2
    rows, cols = np.flatnonzero(mask.any(axis=1)), np.flatnonzero(mask.any(axis=0))
    if not len(rows):
        return np.zeros(mask.shape, bool)
    h, w = mask.shape
    m = 2 * r + 1
    y0, y1 = max(0, int(rows[0]) - m), min(h, int(rows[-1]) + m + 1)
    x0, x1 = max(0, int(cols[0]) - m), min(w, int(cols[-1]) + m + 1)
    out = np.zeros(mask.shape, bool)
    out[y0:y1, x0:x1] = cv2.morphologyEx(mask[y0:y1, x0:x1].astype(np.uint8), cv2.MORPH_CLOSE, kernel) > 0
    return out


@settings(max_examples=300, deadline=None)
@given(
    shape=st.tuples(st.integers(1, 120), st.integers(1, 120)),
    k=st.integers(0, 24),
    density=st.floats(0, 0.4),
    blob=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
def test_closing_by_rectangles_is_opencvs(shape, k, density, blob, seed):
    """The closing by OpenCV's ellipse of any size, as rectangles built from strokes, on
    speckled masks and on a blob touching the view's edge (where the border decides)."""
    rng = np.random.default_rng(seed)
    mask = rng.random(shape) < density
    if blob:
        cy, cx, r = rng.uniform(0, shape[0]), rng.uniform(0, shape[1]), rng.uniform(1, 60)
        v, u = np.mgrid[0 : shape[0], 0 : shape[1]]
        mask |= np.hypot(v - cy, u - cx) < r
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1,) * 2)
    assert _rectangles(disc) is not None
    assert np.array_equal(_closing(mask, disc), _closing_plain(mask, disc))
    m8 = mask.astype(np.uint8)
    rects = _rectangles(disc)
    assert np.array_equal(_by_rectangles(m8, rects, cv2.dilate, np.bitwise_or), cv2.dilate(m8, disc))
    assert np.array_equal(_by_rectangles(m8, rects, cv2.erode, np.bitwise_and), cv2.erode(m8, disc))


def test_other_kernels_close_as_opencv():
    """Kernels that are no union of centred rectangles (a ring, an even size, a lopsided
    one) are closed by OpenCV itself; a cross and a rectangle are rectangles."""
    rng = np.random.default_rng(3)
    mask = rng.random((60, 70)) < 0.1
    ring = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (9, 9))
    ring[4, 4] = 0
    lopsided = np.zeros((5, 5), np.uint8)
    lopsided[2, 1:] = 1
    for kernel in (ring, np.ones((4, 4), np.uint8), lopsided):
        assert _rectangles(kernel) is None
        assert np.array_equal(_closing(mask, kernel), _closing_plain(mask, kernel))
    cross, box = cv2.getStructuringElement(cv2.MORPH_CROSS, (7, 7)), np.ones((5, 9), np.uint8)
    assert _rectangles(cross) == [(3, 0), (0, 3)]
    assert _rectangles(box) == [(4, 2)]
    for kernel in (cross, box):
        assert np.array_equal(_closing(mask, kernel), _closing_plain(mask, kernel))


def _grown_plain(blobs: np.ndarray, allowed: np.ndarray, ppu: int) -> np.ndarray:
    out = np.zeros(allowed.shape, bool)
    rows, cols = np.flatnonzero(allowed.any(axis=1)), np.flatnonzero(allowed.any(axis=0))
    if not len(rows):
        return out
    box = slice(int(rows[0]), int(rows[-1]) + 1), slice(int(cols[0]), int(cols[-1]) + 1)
    jump = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (4 * LINE_PX + 3,) * 2)
    may = allowed[box].astype(np.uint8)
    grown = cv2.dilate(blobs.astype(np.uint8), jump)[box] & may
    step = np.ones((3, 3), np.uint8)
    for _ in range(round(REACH * ppu)):
        nxt = cv2.dilate(grown, step) & may
        if np.array_equal(nxt, grown):
            break
        grown = nxt
    out[box] = grown > 0
    return out


@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    ppu=st.sampled_from([4, 8, 24]),
    blobs=st.integers(0, 3),
    density=st.floats(0, 1),
    patch=st.booleans(),
)
def test_grown_and_spread_are_the_plain_forms(seed, ppu, blobs, density, patch):
    """Growing from the hands with the jump's dilation made around the allowed pixels' box
    only (a box anywhere, at the view's edge too), and a square mask spread by repeats."""
    rng = np.random.default_rng(seed)
    n = SIZE * ppu
    v, u = np.mgrid[0:n, 0:n]
    hands = np.zeros((n, n), bool)
    for _ in range(blobs):
        cy, cx, r = rng.uniform(0, n), rng.uniform(0, n), rng.uniform(1, n / 3)
        hands |= np.hypot(v - cy, u - cx) < r
    allowed = (rng.random((n, n)) < density) & ~hands
    if patch:
        y, x = rng.integers(0, n, 2)
        allowed[:] = False
        allowed[y : y + rng.integers(1, n), x : x + rng.integers(1, n)] = True
    assert np.array_equal(_grown(hands, allowed, ppu), _grown_plain(hands, allowed, ppu))
    squares = rng.random((SIZE, SIZE)) < 0.3
    assert same_bits(_spread(squares, ppu), np.kron(squares, np.ones((ppu, ppu), bool)))


# --- The foreign regions: vision.board_regions before round 24 ------------------------------


def _light_of_plain(lin: np.ndarray, pred: np.ndarray, known: np.ndarray) -> tuple:
    brightness = pred[..., 0] + pred[..., 1] + pred[..., 2]
    cut = float(median(brightness[known])) / 3 if known.any() else 0.0
    return lin, pred, known, cut


def _find_regions_plain(foreign, hidden, outside, lamp_share, held=(), light=None):
    if callable(lamp_share):  # regions_of passes it as a function since round 27 (board27r)
        lamp_share = lamp_share()
    n = foreign.shape[0]
    ppu = n // SIZE
    mask = (foreign | hidden) & ~outside
    if not mask.any():
        return ()
    kernel = np.ones((JOIN_PX, JOIN_PX), np.uint8)
    joined = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_CLOSE, kernel) > 0
    joined &= ~outside
    count, labels, _ = components(joined.astype(np.uint8))
    border = np.zeros((n, n), bool)
    border[:EDGE_PX], border[-EDGE_PX:], border[:, :EDGE_PX], border[:, -EDGE_PX:] = True, True, True, True
    near_outside = cv2.dilate(outside.astype(np.uint8), np.ones((2 * EDGE_PX + 1,) * 2, np.uint8)) > 0
    lit = lamp_share > LAMP_STRONG
    held_set = set(held)
    out = []
    for k in range(1, count):
        component = labels == k
        own = component & mask
        area = float(own.sum()) / (ppu * ppu)
        if area < MIN_AREA:
            continue
        cover = _square_cover(component, ppu)
        most = {int(np.argmax(cover))}
        squares = tuple(ALL_SQUARES[i] for i in sorted(set(np.flatnonzero(cover >= TOUCH)) | most))
        core = tuple(ALL_SQUARES[i] for i in sorted(set(np.flatnonzero(cover >= CORE)) | most))
        board_edge = bool((component & border).any())
        frame_edge = bool((component & near_outside).any())
        _, _, w, h = box_of(component)
        compact = max(w, h) <= 1.4 * ppu and max(w, h) <= 2 * min(w, h)
        lit_share = float(lit[own].mean())
        held_here = bool(held_set & set(squares))
        kind = classify(area, board_edge, frame_edge, lit_share, held_here, compact, len(core))
        if light is not None and kind == "hand":
            showing, hiding, whole = board_seen_through(own, light, ppu)
            board_shows = shows_board(showing, hiding) or kept_whole(whole, hiding)
            if whole >= REFLECTION_KEPT or board_shows:
                grey = grey_brighter(own, light)
                if is_reflection(grey, whole):
                    kind = "glare"
                elif board_shows:
                    kind = "glare" if grey >= REFLECTION_GREY else "other"
        out.append(Region(kind, squares, area, board_edge, frame_edge, core))
    return tuple(sorted(out, key=lambda r: -r.area))


@settings(max_examples=150, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    ppu=st.sampled_from([8, 12, 24]),
    density=st.floats(0, 0.05),
    blobs=st.integers(0, 4),
    with_light=st.booleans(),
)
def test_regions_are_the_plain_forms(seed, ppu, density, blobs, with_light):
    """Regions found with their areas counted at once and the light's cut worked out when
    asked: the plain form's regions, and its cut."""
    rng = np.random.default_rng(seed)
    n = SIZE * ppu
    v, u = np.mgrid[0:n, 0:n]
    foreign = rng.random((n, n)) < density
    for _ in range(blobs):
        cy, cx, r = rng.uniform(0, n), rng.uniform(0, n), rng.uniform(2, n / 3)
        foreign |= np.hypot(v - cy, u - cx) < r
    hidden = (rng.random((n, n)) < density) & ~foreign
    outside = u + v < rng.integers(0, n // 2)
    lamp_share = rng.random((n, n)) * 0.6
    classes = (u // ppu + v // ppu) % 2
    pred = np.where(classes[..., None] == 0, 0.1, 0.5).astype(np.float32) * rng.uniform(0.8, 1.2, 3).astype(
        np.float32
    )
    lin = np.where(foreign[..., None], rng.random((n, n, 3)).astype(np.float32), pred)
    known = rng.random((n, n)) < 0.9
    light = light_of(lin, pred, known) if with_light else None
    got = find_regions(foreign, hidden, outside, lamp_share, ("e5",), light)
    assert got == _find_regions_plain(foreign, hidden, outside, lamp_share, ("e5",), light)
    if light is not None:
        assert light.cut == _light_of_plain(lin, pred, known)[3]


# --- A hand's outline in pieces: vision.board_hand_edges.outline_pieces before round 24 -----


def _outline_pieces_plain(foreign, seen, unseen, min_area):
    found = outline_pixels(foreign, seen, unseen)
    if found is None:
        return []
    edge, out_x, out_y, (x0, y0) = found
    count, labels, areas = components(edge.astype(np.uint8))
    if count <= 1:
        return []
    ys, xs = np.nonzero(edge)
    lab = labels[ys, xs]
    order = np.argsort(lab, kind="stable")
    bounds = np.searchsorted(lab[order], np.arange(1, count + 1))
    pieces = []
    for k in range(1, count):
        if areas[k] < min_area:
            continue
        idx = order[bounds[k - 1] : bounds[k]]
        pts = np.stack([xs[idx] + x0, ys[idx] + y0], axis=1).astype(np.float64)
        outward = np.stack([out_x[ys[idx], xs[idx]], out_y[ys[idx], xs[idx]]], axis=1).astype(np.float64)
        pieces.append((pts, outward))
    return pieces


@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    n=st.integers(8, 120),
    blobs=st.integers(0, 5),
    density=st.floats(0, 0.3),
    min_area=st.integers(1, 12),
)
def test_outline_pieces_at_once_are_piece_by_piece(seed, n, blobs, density, min_area):
    """The outline's pieces, every pixel's point and outward vector made once and cut into
    runs: the same arrays (dtype, shape, bits), in the same order, as made a piece at a time."""
    rng = np.random.default_rng(seed)
    v, u = np.mgrid[0:n, 0:n]
    foreign = np.zeros((n, n), bool)
    for _ in range(blobs):
        cy, cx, r = rng.uniform(0, n), rng.uniform(0, n), rng.uniform(1, n / 2)
        foreign |= np.hypot(v - cy, u - cx) < r
    hidden = (rng.random((n, n)) < density) & ~foreign
    seen = ~foreign & ~hidden & (rng.random((n, n)) < 0.95)
    got = outline_pieces(foreign, seen, foreign | hidden, min_area)
    want = _outline_pieces_plain(foreign, seen, foreign | hidden, min_area)
    assert len(got) == len(want)
    for (p, o), (q, w) in zip(got, want, strict=True):
        assert same_bits(p, q) and same_bits(o, w)


# --- A piece's sticker under the fingers: vision.board_piece_ink before round 24 -----------


def _sticker_faces_plain(lin: np.ndarray, hands: np.ndarray, ppu: int) -> np.ndarray:
    out = np.zeros(hands.shape, bool)
    if not hands.any():
        return out
    brightest, darkest = channel_max(lin), channel_min(lin)
    whiteness = np.where(darkest >= WHITE * brightest, darkest, 0).astype(darkest.dtype)
    near = np.ones((2 * INK_NEAR + 1,) * 2, np.uint8)
    ink = hands & (cv2.dilate(whiteness, near) >= INK_CONTRAST * brightest)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
    h, w = hands.shape
    found = np.zeros(count, bool)
    for k in range(1, count):
        x, y, bw, bh, area = (int(v) for v in stats[k])
        if area < INK_MIN or max(bw, bh) > INK_SPAN * ppu:
            continue
        y0, y1 = max(0, y - INK_NEAR), min(h, y + bh + INK_NEAR)
        x0, x1 = max(0, x - INK_NEAR), min(w, x + bw + INK_NEAR)
        patch = labels[y0:y1, x0:x1] == k
        ring = (cv2.dilate(patch.astype(np.uint8), near) > 0) & ~patch
        level = median(brightest[y0:y1, x0:x1][patch])
        found[k] = share(whiteness[y0:y1, x0:x1][ring] >= INK_CONTRAST * level) >= INK_ENCLOSED
    if not found[1:].any():
        return out
    r = round(STICKER * ppu)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1,) * 2)
    return cv2.dilate(found[labels].astype(np.uint8), disc) > 0


@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    ppu=st.sampled_from([8, 12, 24]),
    stickers=st.integers(0, 4),
    blobs=st.integers(0, 3),
)
def test_sticker_faces_in_the_hands_box_are_the_views(seed, ppu, stickers, blobs):
    """Stickers (white fields with ink, some at the view's edge) in hands anywhere: the faces
    found in the box around the hands are those found over the whole view."""
    rng = np.random.default_rng(seed)
    n = SIZE * ppu
    v, u = np.mgrid[0:n, 0:n]
    lin = rng.uniform(0.05, 0.6, (n, n, 3)).astype(np.float32)
    hands = np.zeros((n, n), bool)
    for _ in range(blobs):
        cy, cx, r = rng.uniform(0, n), rng.uniform(0, n), rng.uniform(2, n / 3)
        hands |= np.hypot(v - cy, u - cx) < r
    for _ in range(stickers):
        y, x, s = rng.integers(-4, n), rng.integers(-4, n), rng.integers(4, 2 * ppu)
        lin[max(0, y) : y + s, max(0, x) : x + s] = rng.uniform(0.6, 0.9)
        k = rng.integers(1, s)
        lin[max(0, y + 2) : y + 2 + k, max(0, x + 2) : x + 2 + k] = rng.uniform(0.0, 0.1)
        hands[max(0, y - 3) : y + s + 3, max(0, x - 3) : x + s + 3] |= rng.random() < 0.8
    assert np.array_equal(sticker_faces(lin, hands, ppu), _sticker_faces_plain(lin, hands, ppu))


# --- Real frames: the reads with every plain form patched back in ---------------------------


@pytest.fixture(scope="module")
def real_reads():
    """Two tune scenes with a hand, read by `read_board` (their squares and regions)."""
    from tests.scene_cache import scene

    return [scene("tune", index).image for index in (4, 10)]


def _read(images):
    from vision.board_reader import read_board

    return [(r.squares, r.notes, r.regions) for r in map(read_board, images)]


def test_real_frames_read_as_with_the_plain_forms(real_reads, monkeypatch):
    """Two tune frames with a hand read alike with the new forms and with the plain ones
    patched back in (the rim, the closing, the growing, the outline's pieces, the stickers, the
    regions and their light):
    squares (state, token, confidence, note), notes and regions."""
    import vision.board_regions as board_regions
    import vision.board_squares as board_squares
    import vision.board_surface as board_surface

    new = _read(real_reads)
    rims = []

    def plain_rim(*a):
        rims.append(np.count_nonzero(_board_rim_plain(*a)))
        return _board_rim_plain(*a)

    class PlainLight:
        def __init__(self, lin, pred, known):
            self.lin, self.pred, self.known, self.cut = _light_of_plain(lin, pred, known)

    monkeypatch.setattr(board_squares, "board_rim", plain_rim)
    monkeypatch.setattr(board_surface, "_closing", _closing_plain)
    monkeypatch.setattr(board_surface, "outline_pieces", _outline_pieces_plain)
    monkeypatch.setattr(board_surface, "sticker_faces", _sticker_faces_plain)
    monkeypatch.setattr(board_surface, "_grown", _grown_plain)
    monkeypatch.setattr(
        board_surface, "_spread", lambda squares, ppu: np.kron(squares, np.ones((ppu, ppu), bool))
    )
    monkeypatch.setattr(board_regions, "find_regions", _find_regions_plain)
    monkeypatch.setattr(board_regions, "light_of", PlainLight)
    plain = _read(real_reads)
    assert len(rims) == 2 and all(rims)  # the rim freed pixels in both
    assert any(r.kind == "hand" for _, _, regions in new for r in regions)
    assert new == plain
