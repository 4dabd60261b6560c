"""Where a hand's curved outline is seen on both sides of a gap, it goes on smoothly between.

`vision.board_hand_edges` carries a *straight* stretch of a hand's outline across a gap of
hand-coloured (*hidden*) pixels. A palm, a thumb or a finger has a curved outline: its two
seen stretches on either side of a square of the hand's own colour do not lie on one line,
and the hidden pixels beyond the outline there stay hidden (a flag beside the hand).

This module fits one smooth curve to the ends of two seen stretches jointly: in a frame
along the chord between them, the outline is a parabola ``y = c0 + c1 x + c2 x²`` (``y`` out
towards the board). The two stretches must be one outline: the hand on the same side of
both, the joint fit close to every pixel (``RMS``, ``WORST``), each stretch running the way
the curve runs where it is (``TANGENT``: no kink), and the curve bending no more than a
finger's side does (``SAG``). Then, in the gap only (interpolation, never past the last
stretch seen), hidden pixels more than ``MARGIN`` px beyond the curve (within ``DEPTH``) are
board, unless anything unlike the board shows more than ``BULGE`` px beyond it there (the
hand bulging out: a thumb, a finger, another hand) or the hand's side of the curve is seen
as board (no hand there, or two hands).

Assumption about the real world: a hand's outline seen on both sides of a gap of up to
``MAX_GAP`` squares, the two stretches meeting smoothly, goes on smoothly across the gap
(a palm's, a thumb's or a finger's side bends, it does not jump out), unless part of the
hand shows beyond it there.
"""

from __future__ import annotations

import numpy as np

from vision.board_fast import mean, share
from vision.board_hand_edges import OutlinePiece, at_least, outline_pieces, view_box

MIN_PIECE = 6  # px: a seen stretch shorter than this gives no direction to trust
MIN_END = 8.0  # px: each end spans at least this along the chord (else its direction is noise)
END = 0.55  # squares: the part of each stretch next to the gap that the curve is fitted to
MIN_GAP = 3.0  # px: stretches nearer than this are one, cut by noise (board_hand_edges' job)
MAX_GAP = 1.6  # squares: the widest gap a curve is carried across
DISTANCE_ROWS = 256  # outline pixels whose distances to all others are held at once (memory)
FACING = 0.6  # each stretch's outward direction within ~53° of the curve's
RMS = 1.0  # px: rms distance of both stretches' pixels from the joint curve
WORST = 2.5  # px: ... and the largest
TANGENT = np.radians(20)  # a stretch's own direction and the curve's there agree within this
SAG = 0.25  # the curve leaves the chord across the gap by at most this share of the gap
MARGIN = 2.0  # px beyond the curve before a pixel is board (blur, thresholds, the fit)
DEPTH = 1.0  # squares beyond the curve the bound holds for
BULGE = 4.0  # px: anything unlike the board further beyond the curve may be the hand
INNER = (1.0, 4.0)  # px inside the curve: the hand's side, which must not be seen board
INNER_SHARE = 0.8  # share of the hand's side in the gap that must be unseen


Piece = OutlinePiece  # pixels (x, y as float) and outward vector per pixel


def beyond_curves(
    foreign: np.ndarray,
    seen: np.ndarray,
    hidden: np.ndarray,
    unseen: np.ndarray,
    ppu: int,
    found: list[Piece] | None = None,
) -> np.ndarray:
    """The ``hidden`` pixels beyond a hand's curved outline carried smoothly across a gap
    between two seen stretches of it (see the module docstring): board, not hand.

    Arguments as `vision.board_hand_edges.beyond_outlines`: ``seen`` pixels seen as bare
    board; ``unseen`` judged pixels that are not (foreign or hidden), grid lines in neither;
    ``foreign`` pixels unlike the board (a hand, a piece). ``found``: `outline_pieces` of
    ``foreign``, ``seen`` and ``unseen`` (any least area up to MIN_PIECE), if already made."""
    out = np.zeros(hidden.shape, bool)
    pieces = _pieces(foreign, seen, unseen, found)
    if len(pieces) < 2:
        return out
    for ea, eb, oa, ob, ca, cb in _facing_ends(pieces, ppu):
        _bridge(out, ea, eb, oa, ob, ca, cb, foreign, seen, hidden, ppu)
    return out


def _pieces(
    foreign: np.ndarray, seen: np.ndarray, unseen: np.ndarray, found: list[Piece] | None = None
) -> list[Piece]:
    """The connected stretches of a hand's outline against seen board long enough to give an end."""
    if found is None:
        found = outline_pieces(foreign, seen, unseen, MIN_PIECE)
    found = at_least(found, MIN_PIECE)
    if not found:
        return []
    # Too short for an end to span MIN_END along any chord: the diagonal of a piece's box
    # (``np.hypot(*np.ptp(pts, axis=0))``, every piece's at once: the same numbers).
    lo, hi, _ = _boxes(found)
    extent = hi - lo
    return [p for p, long in zip(found, np.hypot(extent[:, 0], extent[:, 1]) >= MIN_END, strict=True) if long]


def _boxes(pieces: list[Piece]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each piece's least and greatest x and y (rows), and where each piece's pixels start
    in the pieces' pixels one after another."""
    starts = np.cumsum([0] + [len(p[0]) for p in pieces[:-1]])
    pts = np.concatenate([p[0] for p in pieces])
    return np.minimum.reduceat(pts, starts, axis=0), np.maximum.reduceat(pts, starts, axis=0), starts


def _facing_ends(
    pieces: list[Piece], ppu: int
) -> list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
    """For each pair of ``pieces`` that may be one outline across a gap (their boxes within
    MAX_GAP squares, their nearest pixels MIN_GAP to MAX_GAP squares apart, each end of at
    least MIN_PIECE px): the ends facing each other (the pixels within END squares of the
    nearest pixel), their outward vectors summed and their centres, as `_bridge` takes them.

    All pairs at once: the pixels' and outward vectors' coordinates are whole numbers, so
    every distance, sum and count is exact whatever the order it is added in, and
    the nearest pixels are the first of the least distances in each pair's rows, as
    ``np.argmin`` finds them (tests/test_board_speed_24c.py keeps the pair-by-pair form)."""
    lo, hi, starts = _boxes(pieces)
    reach = MAX_GAP * ppu
    # Only pairs whose boxes come within the widest gap are looked at (i before j).
    near = np.triu(
        ((lo[None, :] <= hi[:, None] + reach) & (hi[None, :] >= lo[:, None] - reach)).all(axis=2), 1
    )
    first, second = np.nonzero(near)
    if not len(first):
        return []
    pts = np.concatenate([p[0] for p in pieces])
    outward = np.concatenate([p[1] for p in pieces])
    owner = np.repeat(np.arange(len(pieces)), [len(p[0]) for p in pieces])
    # Whole pixels of the view: their squared distances are exact in int32 too (a quarter of
    # the memory of float64's, and the same numbers). The table of every pixel's distance to
    # every other is made DISTANCE_ROWS rows at a time: a long outline (thousands of pixels
    # round several hands) must not cost its square in memory on a Pi.
    xy = pts.astype(np.int32)
    row_least = np.empty((len(pts), len(pieces)), np.int32)  # a pixel's to each piece
    for r in range(0, len(pts), DISTANCE_ROWS):
        row_least[r : r + DISTANCE_ROWS] = np.minimum.reduceat(
            _squared_distances(xy[r : r + DISTANCE_ROWS], xy), starts, axis=1
        )
    # Each pair's least squared distance, and the first row of its block that reaches it.
    least = np.minimum.reduceat(row_least, starts, axis=0)  # a piece's to each piece
    rows = np.where(row_least == least[owner], np.arange(len(pts))[:, None], len(pts))
    g2 = least[first, second]
    ia = np.minimum.reduceat(rows, starts, axis=0)[first, second]
    # ... and the first column of that row in the second piece that reaches it.
    from_a = _squared_distances(xy[ia], xy)
    ib = np.argmax((from_a == g2[:, None]) & (owner == second[:, None]), axis=1)
    gap = np.sqrt(g2.astype(np.float64))
    keep = (gap >= MIN_GAP) & (gap <= MAX_GAP * ppu)
    first, second, ia, ib, from_a = first[keep], second[keep], ia[keep], ib[keep], from_a[keep]
    # The ends of the two stretches that face each other across the gap.
    end = END * ppu
    ka = (from_a <= end * end) & (owner == first[:, None])
    kb = (_squared_distances(xy[ib], xy) <= end * end) & (owner == second[:, None])
    na, nb = ka.sum(axis=1), kb.sum(axis=1)
    keep = (na >= MIN_PIECE) & (nb >= MIN_PIECE)
    ka, kb, na, nb = ka[keep], kb[keep], na[keep], nb[keep]
    fa, fb = ka.astype(np.float64), kb.astype(np.float64)
    ca, cb = (fa @ pts) / na[:, None], (fb @ pts) / nb[:, None]
    oa, ob = fa @ outward, fb @ outward
    return [
        (pts[ka[k]], pts[kb[k]], oa[k].copy(), ob[k].copy(), ca[k].copy(), cb[k].copy())
        for k in range(len(ka))
    ]


def _squared_distances(rows: np.ndarray, xy: np.ndarray) -> np.ndarray:
    """Squared distances (int32) from each of ``rows`` to each of ``xy`` (whole pixels)."""
    dx = rows[:, 0, None] - xy[None, :, 0]
    dy = rows[:, 1, None] - xy[None, :, 1]
    return dx * dx + dy * dy


def _bridge(
    out: np.ndarray,
    ea: np.ndarray,
    eb: np.ndarray,
    oa: np.ndarray,
    ob: np.ndarray,
    ca: np.ndarray,
    cb: np.ndarray,
    foreign: np.ndarray,
    seen: np.ndarray,
    hidden: np.ndarray,
    ppu: int,
) -> None:
    """Mark in ``out`` the hidden pixels beyond the curve joining two pieces' facing ends
    (`_facing_ends`: their pixels ``ea``, ``eb``, outward vectors summed ``oa``, ``ob`` and
    centres ``ca``, ``cb``) across the gap between them, if they are one smooth outline with
    the hand on one side."""
    # The frame: x along the chord from a's end to b's, y out towards the board.
    u = cb - ca
    length = float(np.hypot(*u))
    if length < 1e-6:
        return
    u /= length
    v = np.array([-u[1], u[0]])
    if (oa + ob) @ v < 0:
        v = -v
    for o in (oa, ob):
        if o @ v < FACING * max(float(np.hypot(*o)), 1e-6):
            return  # a stretch does not face the board on the curve's side
    da, db = ea - ca, eb - ca
    xa, ya = da @ u, da @ v
    xb, yb = db @ u, db @ v
    g0, g1 = float(xa.max()), float(xb.min())
    if g1 - g0 < MIN_GAP:
        return  # the stretches overlap along the chord: no gap between them to bridge
    x = np.concatenate([xa, xb])
    y = np.concatenate([ya, yb])
    coef = _parabola(x, y)
    c2, c1, c0 = coef  # numpy scalars: the same arithmetic as indexing each time
    res = y - ((c2 * x + c1) * x + c0)
    if np.sqrt(mean(res * res)) > RMS or np.abs(res).max() > WORST:
        return
    # No kink: each stretch's own direction is the curve's where it lies.
    for xs_, ys_ in ((xa, ya), (xb, yb)):
        if xs_.max() - xs_.min() < MIN_END:  # np.ptp, without its Python layers
            return
        mx = mean(xs_)
        dx = xs_ - mx
        own = float(dx @ (ys_ - mean(ys_))) / float(dx @ dx)
        if abs(np.arctan(own) - np.arctan(2 * c2 * mx + c1)) > TANGENT:
            return
    # Bends no more than a finger's side does across the gap.
    sag = abs(c2) * ((g1 - g0) / 2) ** 2
    if sag > SAG * (g1 - g0):
        return
    depth = DEPTH * ppu
    # The corners ``ca + t * u + s * v`` for t in (g0, g1), s in (inside, beyond), as rows:
    # each coordinate the same two products and sums, made for the four corners at once.
    span = (
        ca
        + np.multiply.outer(np.array([g0, g0, g1, g1]), u)
        + np.multiply.outer(np.array([-INNER[1] - 2 * sag, depth + 2 * sag] * 2), v)
    )
    found = view_box(span, hidden.shape, ca)
    if found is None:
        return
    box, gx, gy = found
    u0, u1, v0, v1 = u[0], u[1], v[0], v[1]
    t = gx * u0 + gy * u1
    # Distance beyond the curve, measured across it (the curve's slope taken into account).
    s = (gx * v0 + gy * v1 - ((c2 * t + c1) * t + c0)) / np.sqrt(1 + (2 * c2 * t + c1) ** 2)
    across = (t > g0) & (t < g1)
    beyond = across & (s > MARGIN) & (s <= depth)
    if (foreign[box] & across & (s > BULGE) & (s <= depth)).any():
        return  # something shows beyond the curve: the hand may bulge out there
    inner = seen[box][across & (s <= -INNER[0]) & (s >= -INNER[1])]
    if inner.size and share(inner) > 1 - INNER_SHARE:
        return  # the hand's side of the curve is seen board: two hands, or no hand
    out[box] |= beyond & hidden[box]


def _parabola(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Least-squares ``(c2, c1, c0)`` of ``y = c2 x² + c1 x + c0`` (x scaled for conditioning)."""
    k = max(float(np.abs(x).max()), 1.0)
    xn = x / k
    # The design matrix's columns x², x, 1 written into one (n, 3) array: np.stack's array.
    a = np.empty((len(xn), 3))
    np.multiply(xn, xn, out=a[:, 0])
    a[:, 1] = xn
    a[:, 2] = 1.0
    c = np.linalg.solve(a.T @ a + _RIDGE, a.T @ y)
    return np.array([c[0] / (k * k), c[1] / k, c[2]])


_RIDGE = 1e-9 * np.eye(3)  # the normal equations' ridge (made once: the same products)
_RIDGE.setflags(write=False)
