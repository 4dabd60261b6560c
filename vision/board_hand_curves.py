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

from vision.board_fast import share
from vision.board_hand_edges import OutlinePiece, at_least, outline_pieces, view_box

MIN_PIECE = 6  # px: a seen stretch shorter than this gives no direction to trust
MIN_END = 8.0  # px: each end spans at least this along the chord (else its direction is noise)
END = 0.55  # squares: the part of each stretch next to the gap that the curve is fitted to
MIN_GAP = 3.0  # px: stretches nearer than this are one, cut by noise (board_hand_edges' job)
MAX_GAP = 1.6  # squares: the widest gap a curve is carried across
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
    lo = np.array([p[0].min(axis=0) for p in pieces])
    hi = np.array([p[0].max(axis=0) for p in pieces])
    reach = MAX_GAP * ppu
    for i in range(len(pieces)):
        # Only pairs whose boxes come within the widest gap are looked at.
        near = np.all((lo[i + 1 :] <= hi[i] + reach) & (hi[i + 1 :] >= lo[i] - reach), axis=1)
        for j in np.flatnonzero(near) + i + 1:
            _bridge(out, pieces[i], pieces[j], foreign, seen, hidden, ppu)
    return out


def _pieces(
    foreign: np.ndarray, seen: np.ndarray, unseen: np.ndarray, found: list[Piece] | None = None
) -> list[Piece]:
    """The connected stretches of a hand's outline against seen board long enough to give an end."""
    if found is None:
        found = outline_pieces(foreign, seen, unseen, MIN_PIECE)
    return [
        (pts, outward)
        for pts, outward in at_least(found, MIN_PIECE)
        # too short for an end to span MIN_END along any chord
        if np.hypot(*np.ptp(pts, axis=0)) >= MIN_END
    ]


def _bridge(
    out: np.ndarray,
    a: Piece,
    b: Piece,
    foreign: np.ndarray,
    seen: np.ndarray,
    hidden: np.ndarray,
    ppu: int,
) -> None:
    """Mark in ``out`` the hidden pixels beyond the curve joining pieces ``a`` and ``b``
    across the gap between them, if they are one smooth outline with the hand on one side."""
    pa, pb = a[0], b[0]
    # ((pa[:, None] - pb[None]) ** 2).sum(axis=2), bit for bit, a coordinate at a time (numpy
    # reduces a short last axis slowly, and the pairs are many).
    dx, dy = pa[:, 0, None] - pb[None, :, 0], pa[:, 1, None] - pb[None, :, 1]
    d2 = dx * dx + dy * dy
    ia, ib = np.unravel_index(int(np.argmin(d2)), d2.shape)
    gap = float(np.sqrt(d2[ia, ib]))
    if gap < MIN_GAP or gap > MAX_GAP * ppu:
        return
    # The ends of the two stretches that face each other across the gap.
    end = END * ppu
    ka = ((pa - pa[ia]) ** 2).sum(axis=1) <= end * end
    kb = ((pb - pb[ib]) ** 2).sum(axis=1) <= end * end
    if ka.sum() < MIN_PIECE or kb.sum() < MIN_PIECE:
        return
    ea, eb = pa[ka], pb[kb]
    oa, ob = a[1][ka].sum(axis=0), b[1][kb].sum(axis=0)
    # The frame: x along the chord from a's end to b's, y out towards the board.
    ca, cb = ea.mean(axis=0), eb.mean(axis=0)
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
    xa, ya = (ea - ca) @ u, (ea - ca) @ v
    xb, yb = (eb - ca) @ u, (eb - ca) @ v
    g0, g1 = float(xa.max()), float(xb.min())
    if g1 - g0 < MIN_GAP:
        return  # the stretches overlap along the chord: no gap between them to bridge
    x = np.concatenate([xa, xb])
    y = np.concatenate([ya, yb])
    coef = _parabola(x, y)
    res = y - ((coef[0] * x + coef[1]) * x + coef[2])
    if np.sqrt(np.mean(res * res)) > RMS or np.abs(res).max() > WORST:
        return
    # No kink: each stretch's own direction is the curve's where it lies.
    for xs_, ys_ in ((xa, ya), (xb, yb)):
        if np.ptp(xs_) < MIN_END:
            return
        dx = xs_ - xs_.mean()
        own = float(dx @ (ys_ - ys_.mean())) / float(dx @ dx)
        if abs(np.arctan(own) - np.arctan(2 * coef[0] * xs_.mean() + coef[1])) > TANGENT:
            return
    # Bends no more than a finger's side does across the gap.
    sag = abs(coef[0]) * ((g1 - g0) / 2) ** 2
    if sag > SAG * (g1 - g0):
        return
    depth = DEPTH * ppu
    span = np.array([ca + t * u + s * v for t in (g0, g1) for s in (-INNER[1] - 2 * sag, depth + 2 * sag)])
    found = view_box(span, hidden.shape, ca)
    if found is None:
        return
    box, gx, gy = found
    t = gx * u[0] + gy * u[1]
    # Distance beyond the curve, measured across it (the curve's slope taken into account).
    s = (gx * v[0] + gy * v[1] - ((coef[0] * t + coef[1]) * t + coef[2])) / np.sqrt(
        1 + (2 * coef[0] * t + coef[1]) ** 2
    )
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
    a = np.stack([xn * xn, xn, np.ones_like(xn)], axis=1)
    c = np.linalg.solve(a.T @ a + 1e-9 * np.eye(3), a.T @ y)
    return np.array([c[0] / (k * k), c[1] / k, c[2]])
