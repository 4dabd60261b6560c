"""Where a hand's outline is seen on both sides of a square, it goes on straight between.

A hand (a sleeve, an arm, a finger) the colour of one class of squares shows only over the
other class, so across a checkerboard its outline is seen in stretches about a square long (over
squares of the other colour) with gaps of about a square (over squares of its own colour),
cut again by the grid lines, which are not judged. Over a gap the pixel model cannot tell
where the hand ends: the board-coloured pixels joined to it there are *hidden* (they may be
under the hand) as far as they reach.

But a hand's outline is smooth: where the *same* straight stretch of outline is seen on both
sides of a gap (two stretches on one line, the hand on the same side of both, the hand's side
of the line not seen as board in the gap), the outline goes on along that line across the
gap. That is interpolation, not extrapolation: past the last stretch seen, a hand may go
anywhere. An outline that bulges out between two stretches on one line (a thumb, fingers,
the palm where it joins the arm, another hand) is what this must not miss, so a pair is used
only if nothing foreign shows more than ``BULGE`` px beyond the line in the gap. Hidden
pixels more than ``MARGIN`` px beyond the line (the outline is measured on blurred,
thresholded pixels), between the two stretches, within ``DEPTH`` of the line, are then board.

Assumption about the real world: a hand's outline that is seen straight on both sides of a
stretch of squares of its colour (up to ``MAX_GAP`` squares: part of a forearm) goes on
straight across them (an arm's side, a finger's side), unless some of the hand shows beyond
the line there.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

from vision.board_fast import components, mean, share

MIN_PIECE = 5  # px: a seen stretch of outline shorter than this gives no direction to trust
STRAIGHT = 1.2  # px: rms distance of a stretch's pixels from its line (a stretch is straight)
BENT = 3.0  # px: ... and the largest
ANGLE = np.radians(17)  # two stretches of one outline run the same way within this
OFFSET = 3.0  # px: ... and each lies this near the other's line (plus the angle's share)
JOINT = 1.5  # px: rms of both stretches' pixels about their common line
MIN_GAP = 3  # px: stretches nearer than this along their line are one, cut by noise
MAX_GAP = 4.0  # squares: the longest gap an outline is carried straight across
MARGIN = 2.0  # px beyond the line before a pixel is board (blur, thresholds, the line's fit)
DEPTH = 1.5  # squares beyond the line the bound holds for
BULGE = 5.0  # px: a foreign pixel further beyond the line in the gap may be the hand bulging out
INNER = (1.0, 4.0)  # px inside the line: the hand's side, which must not be seen board
INNER_SHARE = 0.8  # share of the hand's side in the gap that must be unseen (one hand)
NEAR = 3  # px: a seen pixel this near the hand showing lies on its outline

Stretch = tuple[np.ndarray, np.ndarray, np.ndarray, float, float, np.ndarray]


def outline_pixels(
    foreign: np.ndarray, seen: np.ndarray, unseen: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, tuple[int, int]] | None:
    """The pixels of a hand's outline against seen board, in a box around the hand: the
    outline mask, the outward direction per pixel (x, y: away from the unseen neighbours) and
    the box's corner (x0, y0) in the view; None without a hand."""
    # The outline is drawn on the seen side: seen pixels next to a pixel that is not seen
    # (4-neighbours, grid lines left out by the caller: ``unseen``), with the hand showing
    # within NEAR px (a hand's blurred outline leaves a rim of hidden pixels between; a seen
    # pixel next to hidden ones alone marks where the pixel model stopped, no outline).
    rows, cols = np.flatnonzero(foreign.any(axis=1)), np.flatnonzero(foreign.any(axis=0))
    if not len(rows):
        return None
    # Only pixels within NEAR of the hand (and their neighbours) are looked at.
    m = NEAR + 2
    h, w = foreign.shape
    y0, x0 = max(0, int(rows[0]) - m), max(0, int(cols[0]) - m)
    box = (slice(y0, min(h, int(rows[-1]) + m + 1)), slice(x0, min(w, int(cols[-1]) + m + 1)))
    foreign, seen, unseen = foreign[box], seen[box], unseen[box]
    s8 = seen.astype(np.uint8)
    u8 = unseen.astype(np.uint8)
    out_x = np.zeros(seen.shape, np.int8)
    out_y = np.zeros(seen.shape, np.int8)
    # Outward (towards the board): away from the unseen neighbours.
    out_x[:, 1:] += u8[:, :-1]
    out_x[:, :-1] -= u8[:, 1:]
    out_y[1:, :] += u8[:-1, :]
    out_y[:-1, :] -= u8[1:, :]
    edge = seen & ~(cv2.erode(s8 | (1 - u8), _CROSS) > 0)
    edge &= cv2.dilate(foreign.astype(np.uint8), _NEAR) > 0
    return edge, out_x, out_y, (x0, y0)


OutlinePiece = tuple[np.ndarray, np.ndarray]  # pixels (x, y in the view) and outward vector per pixel


def outline_pieces(
    foreign: np.ndarray, seen: np.ndarray, unseen: np.ndarray, min_area: int
) -> list[OutlinePiece]:
    """The connected stretches of a hand's outline against seen board, straight or curved, of
    at least ``min_area`` pixels: their pixels (x, y in the view, float) and each pixel's
    outward vector (away from the unseen side)."""
    found = outline_pixels(foreign, seen, unseen)
    if found is None:
        return []
    edge, out_x, out_y, (x0, y0) = found
    count, labels, areas = components(edge.astype(np.uint8))
    if count <= 1:
        return []
    # The outline's pixels in row order (np.nonzero's), each read by its flat index.
    at = np.flatnonzero(edge)
    lab = np.take(labels, at)
    order = np.argsort(lab, kind="stable")
    bounds = np.searchsorted(lab[order], np.arange(1, count + 1))
    # Every pixel's point and outward vector made once, in the order of their pieces; each
    # piece is its run of rows (the arrays a piece at a time would make).
    at = at[order]
    ys, xs = np.divmod(at, edge.shape[1])
    pts = np.stack([xs + x0, ys + y0], axis=1).astype(np.float64)
    outward = np.stack([np.take(out_x, at), np.take(out_y, at)], axis=1).astype(np.float64)
    return [
        (pts[bounds[k - 1] : bounds[k]], outward[bounds[k - 1] : bounds[k]])
        for k in range(1, count)
        if areas[k] >= min_area
    ]


def at_least(pieces: list[OutlinePiece], min_area: int) -> list[OutlinePiece]:
    """The ``pieces`` of at least ``min_area`` pixels: `outline_pieces` with that least area,
    from its result with a smaller one (the same pieces in the same order)."""
    return [p for p in pieces if len(p[0]) >= min_area]


def view_box(
    corners: np.ndarray, shape: tuple[int, ...], origin: np.ndarray
) -> tuple[tuple[slice, slice], np.ndarray, np.ndarray] | None:
    """The box of the view around ``corners`` (rows of x, y), clipped to ``shape``: its slices,
    and its pixels' x (a row) and y (a column) measured from ``origin``; None if it is empty."""
    h, w = shape[:2]
    # math.floor and math.ceil of a float: the whole numbers int(np.floor(q)), int(np.ceil(q)).
    (lx, ly), (hx, hy) = corners.min(axis=0).tolist(), corners.max(axis=0).tolist()
    x0, y0 = max(math.floor(lx), 0), max(math.floor(ly), 0)
    x1, y1 = min(math.ceil(hx) + 1, w), min(math.ceil(hy) + 1, h)
    if x0 >= x1 or y0 >= y1:
        return None
    gx = np.arange(x0, x1, dtype=np.float64) - origin[0]
    gy = np.arange(y0, y1, dtype=np.float64)[:, None] - origin[1]
    return (slice(y0, y1), slice(x0, x1)), gx, gy


def outline_stretches(
    foreign: np.ndarray, seen: np.ndarray, unseen: np.ndarray, pieces: list[OutlinePiece] | None = None
) -> list[Stretch]:
    """The straight stretches of a hand's outline against seen board: per stretch, a point on
    it, its direction and its outward normal (unit vectors, top-view x, y), and the extent of
    its pixels along the direction (lowest, highest), measured from the point, and its pixels.
    ``pieces``: `outline_pieces` of the same arguments, if made (with any smaller least area)."""
    if pieces is None:
        pieces = outline_pieces(foreign, seen, unseen, MIN_PIECE)
    stretches: list[Stretch] = []
    pieces = at_least(pieces, MIN_PIECE)
    if not pieces:
        return stretches
    centres = [pts.mean(axis=0) for pts, _ in pieces]
    offsets = [pts - centre for (pts, _), centre in zip(pieces, centres, strict=True)]
    for (pts, outward_px), centre, d, v in zip(pieces, centres, offsets, _axes(offsets), strict=True):
        direction = v[:, 1]
        normal = np.array([-direction[1], direction[0]])
        off = d @ normal
        if np.sqrt(mean(off * off)) > STRAIGHT or np.abs(off).max() > BENT:
            continue
        along = d @ direction
        if along.max() - along.min() < MIN_PIECE - 1:
            continue
        outward = outward_px.sum(axis=0)
        if abs(outward @ normal) < 0.5 * np.linalg.norm(outward):
            continue  # the board does not lie to one side of this stretch
        if outward @ normal < 0:
            normal = -normal
        stretches.append((centre, direction, normal, float(along.min()), float(along.max()), pts))
    return stretches


def beyond_outlines(
    foreign: np.ndarray,
    seen: np.ndarray,
    hidden: np.ndarray,
    unseen: np.ndarray,
    ppu: int,
    pieces: list[OutlinePiece] | None = None,
) -> np.ndarray:
    """The ``hidden`` pixels beyond a hand's outline carried straight across a gap between two
    seen stretches of it (see the module docstring): board, not hand.

    ``seen``: pixels seen as bare board; ``unseen``: judged pixels that are not (foreign or
    hidden), grid lines in neither; ``foreign``: pixels unlike the board (a hand, a piece).
    ``pieces``: `outline_pieces` of ``foreign``, ``seen`` and ``unseen``, if already made."""
    out = np.zeros(hidden.shape, bool)
    stretches = outline_stretches(foreign, seen, unseen, pieces)
    if len(stretches) < 2:
        return out
    pairs = _gaps(stretches, ppu)
    if not pairs:
        return out
    joined = [np.concatenate([stretches[i][5], stretches[j][5]]) for i, j in pairs]
    centres = [pts.mean(axis=0) for pts in joined]
    offsets = [pts - centre for pts, centre in zip(joined, centres, strict=True)]
    for (i, _), centre, d, v in zip(pairs, centres, offsets, _axes(offsets), strict=True):
        _fill(out, stretches[i], centre, d, v, foreign, seen, hidden, ppu)
    return out


def _axes(offsets: list[np.ndarray]) -> np.ndarray:
    """The eigenvectors (columns, by rising eigenvalue) of the scatter ``d.T @ d`` of each
    of ``offsets`` (points less their centre): one `np.linalg.eigh` of all the scatters
    stacked, which solves each alone, as it would called once for each (the same LAPACK
    call on the same matrix; tests/test_board_speed_24c.py), without its fixed price each."""
    return np.linalg.eigh(np.stack([d.T @ d for d in offsets]))[1]


def _gaps(stretches: list[Stretch], ppu: int) -> list[tuple[int, int]]:
    """Pairs (i, j) of stretches with a gap between them on one line: for every stretch, the
    nearest one after it along the line (the way it runs with the board on its right), so
    every gap is looked at once."""
    centre = np.array([p[0] for p in stretches])
    normal = np.array([p[2] for p in stretches])
    lo = np.array([p[3] for p in stretches])
    hi = np.array([p[4] for p in stretches])
    # Every stretch's direction is its outward normal turned a quarter: the same for two
    # stretches of one outline, whichever way their pixels were ordered.
    direction = np.stack([normal[:, 1], -normal[:, 0]], axis=1)
    flip = np.einsum("ij,ij->i", direction, np.array([p[1] for p in stretches])) < 0
    lo, hi = np.where(flip, -hi, lo), np.where(flip, -lo, hi)
    rel = centre[None, :, :] - centre[:, None, :]  # [i, j]: from i's centre to j's
    ahead = np.einsum("ijk,ik->ij", rel, direction)
    side = np.abs(np.einsum("ijk,ik->ij", rel, normal))
    gap = ahead + lo[None, :] - hi[:, None]
    ok = (
        (normal @ normal.T >= np.cos(ANGLE))
        & (gap >= MIN_GAP)
        & (gap <= MAX_GAP * ppu)
        & (side <= OFFSET + np.sin(ANGLE) * np.abs(ahead))
    )
    pairs = []
    for i in np.flatnonzero(ok.any(axis=1)):
        j = int(np.argmin(np.where(ok[i], gap[i], np.inf)))
        pairs.append((int(i), j))
    return pairs


def _fill(
    out: np.ndarray,
    a: Stretch,
    centre: np.ndarray,
    d: np.ndarray,
    v: np.ndarray,
    foreign: np.ndarray,
    seen: np.ndarray,
    hidden: np.ndarray,
    ppu: int,
) -> None:
    """Mark in ``out`` the hidden pixels beyond the line through stretch ``a`` and another,
    between them, if they are one straight outline with the hand on one side all along: both
    stretches' pixels ``d`` less their ``centre``, and their scatter's eigenvectors ``v``
    (`_axes`)."""
    direction = v[:, 1]
    normal = np.array([-direction[1], direction[0]])
    if normal @ a[2] < 0:
        normal = -normal
    off = d @ normal
    if np.sqrt(mean(off * off)) > JOINT:
        return  # not on one line
    along = d @ direction
    t0, t1 = float(along.min()), float(along.max())
    depth = DEPTH * ppu
    # The box of the span of both stretches, from the hand's side out to DEPTH beyond: the
    # corners ``centre + t * direction + s * normal`` for t in (t0, t1), s in (-INNER[1],
    # depth), as rows; each coordinate the same products and sums, made for the four at once.
    corners = (
        centre
        + np.multiply.outer(np.array([t0, t0, t1, t1]), direction)
        + np.multiply.outer(np.array([-INNER[1], depth] * 2), normal)
    )
    found = view_box(corners, hidden.shape, centre)
    if found is None:
        return
    box, gx, gy = found
    t = gx * direction[0] + gy * direction[1]
    s = gx * normal[0] + gy * normal[1]
    span = (t >= t0) & (t <= t1)
    beyond = span & (s > MARGIN) & (s <= depth)
    if (foreign[box] & beyond & (s > BULGE)).any():
        return  # something shows beyond the line: the hand may bulge out there
    inner = seen[box][span & (s <= -INNER[0]) & (s >= -INNER[1])]
    if inner.size and share(inner) > 1 - INNER_SHARE:
        return  # the hand's side of the line is seen board: two hands, or no hand
    out[box] |= beyond & hidden[box]


_CROSS = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))
_NEAR = np.ones((2 * NEAR + 1,) * 2, np.uint8)
