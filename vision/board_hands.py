"""Where can a hand go on unseen? A bound from the shape of the part that shows.

A hand (or sleeve) the colour of one class of squares shows only over the other class: over a
square of its own colour it is invisible. The reader therefore cannot see where such a hand
ends over a square of its colour; but a hand is not a cloud of paint. It is one solid piece
with a smooth outline (an arm is a straight band, a finger a narrow one, a palm a rounded
blob of about a hand's width), so where the part that shows in a neighbouring square crosses
the grid line, its outline goes on into the unseen square in about the direction it had.

`reach_across_lines` draws that bound. For every square and each of its four sides, every run
of hand pixels along the side (a *chord*: where the hand crosses the grid line) is traced into
the neighbour where it shows, its two ends followed for up to a third of a square, and the
straight lines through them carried on across the line into the square, with a margin that
grows with the distance (``ANGLE``: an outline may curve a little; ``MARGIN`` px: the ends are
measured on blurred, thresholded pixels). An end that runs out of the side's window (the hand
is wider than the square there) bounds nothing. A hand part seen only over a sliver of the
neighbour (``MIN_TRACE`` rows) gives no direction to trust: its chord may then widen by
``SHORT_SPREAD`` per pixel of distance, like an outline at 45°.

What is *not* bounded here: a hand seen inside the square itself (its shading may fade into
the square's colour anywhere) and gaps a palm spans between hand regions (closed by the
caller). The bound only ever removes "this bare-looking pixel may be under a hand" where a
solid hand could not reach from the part that shows.

`dimmed_hand_parts` adds what the pixel model misses the other way: a hand part a shade darker
than one colour of square fits there as a shadow. One lamp casts every hand's shadow the same
way (`shadow_direction`, measured beside the hands of the frame); a dimmed patch over one
colour of square that touches a hand where its shadow cannot fall (`downwind`) may be the hand.
So may a patch that stops at the grid lines of its square, near a hand (a shadow goes on
across a line).

>>> import numpy as np
>>> hand = np.zeros((9 * 24, 9 * 24), bool)
>>> hand[2:22, 100:106] = True                 # a finger in one square, along its length
>>> bound = reach_across_lines(hand, 24, 2)
>>> bool(bound[30, 103]), bool(bound[30, 90])  # it may go on straight down, not sideways
(True, False)
"""

from __future__ import annotations

import math
from functools import lru_cache

import cv2
import numpy as np

from vision.board_fast import box_around

ANGLE = math.radians(25)  # an outline may turn by this much beyond where it is measured
MARGIN = 2.0  # px: slack on each end of a chord (blur and thresholding move an edge)
TRACE = 8  # px: how deep into the neighbour a chord's ends are followed
NEAR = 1  # px: a hand within this distance of a grid line is taken to reach it
MIN_TRACE = NEAR + 1  # px: a chord followed less deep than this gives no direction to trust
SHORT_SPREAD = 1.0  # px per px: how fast such a chord may widen into the square
MAX_NARROW = 1.5  # px per px: how fast a chord's end may close in
MAX_SLOPE = 1.5  # px per px: steeper ends (an outline nearly along the line) are clipped
DIRECTIONS = 16  # directions around a hand in which the board beside it is looked at
RING = (2, 5)  # px beyond a hand's outline where its shadow is looked for
RING_PIXELS = 20  # pixels such a ring must have to count
SHADOW_REACH = 0.75  # squares: how far beyond a hand (looking back along it) its shadow may fall
PART_WIDTH = 2  # px: a hand part that looks dimmed is more than twice this wide ...
PART_PIXELS = 4  # ... over this many pixels
SHADOW_SIDED = 0.25  # the dimming must be this lopsided (|weighted sum| ÷ sum) to show a side
GRID_BOUNDED = 0.8  # share of a dimmed patch's outline along grid lines: it ends where a square does
GRID_NEAR = 1.0  # squares: how near a hand such a patch must come


def reach_across_lines(
    hand: np.ndarray, ppu: int, line_px: int, squares: np.ndarray | None = None
) -> np.ndarray:
    """Pixels of each square's inside that a hand seen in a side neighbour could cover unseen,
    carried on straight (± ANGLE) from where it crosses the grid line (see the module doc).

    ``squares`` (size × size bools, top-view order) limits the work to the squares asked about.
    """
    n = hand.shape[0]
    size = n // ppu
    out = np.zeros_like(hand, dtype=bool)
    lo, hi = line_px, ppu - line_px  # a square's judged inside, relative to its corner
    gap = 2 * line_px + 1  # from the last inside pixel of one square to the first of the next
    inside = hi - lo
    along = np.arange(inside, dtype=np.float64)  # px along a side, and depth into a square
    # Which squares the hand touches on which side (within NEAR px of the line), all at once;
    # keyed by where the square lies from the neighbour it faces.
    inner = square_insides(hand, ppu, line_px)
    touches: dict[tuple[int, int], np.ndarray] = {
        (0, -1): np.asarray(
            inner[:, :, :, -NEAR:].any(axis=(1, 3))
        ),  # right side, facing a neighbour on its right
        (0, 1): np.asarray(inner[:, :, :, :NEAR].any(axis=(1, 3))),
        (-1, 0): np.asarray(inner[:, -NEAR:].any(axis=(1, 3))),  # bottom side
        (1, 0): np.asarray(inner[:, :NEAR].any(axis=(1, 3))),
    }
    # A strip's band depends on the strip alone: the same strip (a side the hand fills, most
    # often) is worked out once a call.
    bands: dict[bytes, np.ndarray] = {}
    for row, col, dr, dc in _facing(touches, squares, size):
        v0, u0 = row * ppu + lo, col * ppu + lo
        nr, nc = row + dr, col + dc
        strip = _neighbour_strip(hand, nr * ppu + lo, nc * ppu + lo, inside, (dr, dc))
        key = strip.tobytes()
        allowed = bands.get(key)
        if allowed is None:
            allowed = bands[key] = _carried_on(strip, along + gap, along)  # (depth, along)
        block = out[v0 : v0 + inside, u0 : u0 + inside]
        block |= _to_square(allowed, (dr, dc))
    return out


def _facing(
    touches: dict[tuple[int, int], np.ndarray], squares: np.ndarray | None, size: int
) -> list[tuple[int, int, int, int]]:
    """The (row, column, dr, dc) of every square asked about (``squares``; all if None) whose
    side neighbour at (row + dr, column + dc) the hand touches on the side facing it, in
    `reach_across_lines`' order (square by square, row-major, then the sides). Each side's
    squares found by one shifted table of ``touches`` instead of 324 Python tests (the
    same squares; the order does not change the union, but is kept)."""
    sides = ((0, -1), (0, 1), (-1, 0), (1, 0))
    faced = np.zeros((size, size, len(sides)), bool)
    for k, (dr, dc) in enumerate(sides):
        # faced[row, col] = touches[row + dr, col + dc], False beyond the board.
        here = slice(max(0, -dr), size - max(0, dr)), slice(max(0, -dc), size - max(0, dc))
        there = slice(max(0, dr), size + min(0, dr)), slice(max(0, dc), size + min(0, dc))
        faced[here[0], here[1], k] = touches[(dr, dc)][there]
    if squares is not None:
        faced &= np.asarray(squares, bool)[:, :, None]
    return [(r, c, *sides[k]) for r, c, k in zip(*(i.tolist() for i in np.nonzero(faced)), strict=True)]


def square_insides(mask: np.ndarray, ppu: int, line_px: int) -> np.ndarray:
    """A top-view mask as (row, y, column, x): each square's inside, its grid lines
    (``line_px`` on each side) left out."""
    size = mask.shape[0] // ppu
    return mask.reshape(size, ppu, size, ppu)[:, line_px : ppu - line_px, :, line_px : ppu - line_px]


def _neighbour_strip(hand: np.ndarray, v0: int, u0: int, inside: int, side: tuple[int, int]) -> np.ndarray:
    """The neighbour's inside as rows of increasing distance from the shared line (row 0 next
    to it), each row running along the line in the square's own along-coordinate."""
    block = hand[v0 : v0 + inside, u0 : u0 + inside]
    dr, dc = side
    if dc == -1:  # neighbour on the left: its rightmost column is next to the line
        return block[:, ::-1].T[:TRACE]
    if dc == 1:
        return block.T[:TRACE]
    if dr == -1:  # neighbour above: its bottom row is next to the line
        return block[::-1][:TRACE]
    return block[:TRACE]


def _to_square(allowed: np.ndarray, side: tuple[int, int]) -> np.ndarray:
    """(depth into the square from the shared side, along) → the square's own (row, column)."""
    dr, dc = side
    if dc == -1:  # entering from the left side: depth runs along columns
        return allowed.T
    if dc == 1:
        return allowed.T[:, ::-1]
    if dr == -1:
        return allowed
    return allowed[::-1]


def _runs(row: np.ndarray) -> list[tuple[int, int]]:
    """(first, last) index of every run of True in a 1-D array."""
    padded = np.concatenate([[False], row, [False]])
    edges = np.flatnonzero(padded[1:] != padded[:-1])
    return [(int(a), int(b) - 1) for a, b in zip(edges[::2], edges[1::2], strict=True)]


def _row_runs(strip: np.ndarray) -> list[list[tuple[int, int]]]:
    """`_runs` of every row of a 2-D array, found at once."""
    padded = np.zeros((strip.shape[0], strip.shape[1] + 2), bool)
    padded[:, 1:-1] = strip
    r, c = np.nonzero(padded[:, 1:] != padded[:, :-1])  # row by row, left to right: start, end
    out: list[list[tuple[int, int]]] = [[] for _ in range(strip.shape[0])]
    for row, a, b in zip(r[::2].tolist(), c[::2].tolist(), c[1::2].tolist(), strict=True):
        out[row].append((a, b - 1))
    return out


def _carried_on(strip: np.ndarray, distance: np.ndarray, along: np.ndarray) -> np.ndarray:
    """For each chord in ``strip`` row 0, the band it may cover in the square: rows at
    ``distance`` px from the neighbour's row 0, columns ``along``."""
    inside = len(along)
    allowed = np.zeros((len(distance), inside), bool)
    # The hand's pixels nearest a line are often missed (the line's own darkness blurs into
    # them): the hand "at the line" is what shows within NEAR px of it.
    rows = _row_runs(strip)
    # (Within NEAR = 1 px: the runs of row 0, already found.)
    for first, last in rows[0] if NEAR == 1 else _runs(np.asarray(strip[:NEAR].any(axis=0))):
        lefts, rights, at = [float(first)], [float(last)], [0.0]
        left, right = first, last
        for d in range(NEAR, len(strip)):
            # The runs of row d that overlap or touch the chord: their least start and
            # greatest end (one pass; ``min`` and ``max`` of the overlapping runs).
            lo_run = hi_run = None
            for a, b in rows[d]:
                if b >= left - 1 and a <= right + 1:
                    lo_run = a if lo_run is None else min(lo_run, a)
                    hi_run = b if hi_run is None else max(hi_run, b)
            if lo_run is None:
                break
            left, right = lo_run, hi_run
            lefts.append(float(left))
            rights.append(float(right))
            at.append(float(d))
        lo = _end_bound(at, lefts, first == 0, -1, distance)
        hi = _end_bound(at, rights, last == inside - 1, 1, distance)
        allowed |= (along[None, :] >= lo[:, None]) & (along[None, :] <= hi[:, None])
    return allowed


def _end_bound(
    at: list[float], ends: list[float], open_end: bool, sign: int, distance: np.ndarray
) -> np.ndarray:
    """Where one end of a chord may be at each ``distance`` past the neighbour's row 0: on the
    straight line through its traced positions, widened (``sign`` −1 for the low end, +1 for
    the high end) by the margin; unbounded if the end runs out of the window."""
    if open_end:
        return np.full(len(distance), sign * np.inf)
    e0 = ends[0]
    if at[-1] < MIN_TRACE:
        return e0 + sign * (MARGIN + SHORT_SPREAD * distance)
    slope = _slope(tuple(at), tuple(ends))
    # Going from the neighbour into the square is going the other way along d. An outline
    # that closes in towards the line may be one whose last pixels were missed: the chord is
    # never taken to narrow into the square, only to widen.
    widening = min(max(-sign * slope, -MAX_NARROW), MAX_SLOPE)  # np.clip of one float, the same
    return e0 + sign * (MARGIN + (widening + math.tan(ANGLE)) * distance)


@lru_cache(maxsize=4096)
def _slope(at: tuple[float, ...], ends: tuple[float, ...]) -> float:
    """The least-squares slope of ``ends`` against ``at``: ``np.polyfit(at, ends, 1)[0]``,
    bit for bit, its scaled design matrix made once per ``at`` (a trace's depths are 0, 1,
    2, … : a handful of them in all), and remembered (an outline's few small integers come
    back: a third of the calls on the tune scenes)."""
    lhs, scale, rcond = _line_design(at)
    return float(np.linalg.lstsq(lhs, np.asarray(ends) + 0.0, rcond)[0][0] / scale[0])


@lru_cache(maxsize=256)
def _line_design(at: tuple[float, ...]) -> tuple[np.ndarray, np.ndarray, float]:
    """np.polyfit's least-squares system for a line through points at ``at``: the Vandermonde
    matrix scaled to unit columns, the scale, and its rcond."""
    x = np.asarray(at) + 0.0
    lhs = np.vander(x, 2)
    scale = np.sqrt((lhs * lhs).sum(axis=0))
    lhs /= scale
    lhs.setflags(write=False)
    return lhs, scale, len(x) * np.finfo(x.dtype).eps


def dimmed_hand_parts(
    shade: np.ndarray,
    labels: np.ndarray,
    hands: np.ndarray,
    log_dim: np.ndarray,
    usable: np.ndarray,
    gap: int,
    unseen: np.ndarray | None = None,
    blobs: np.ndarray | None = None,
) -> np.ndarray:
    """The patches of ``shade`` (pixels that fit as the board dimmed, over one colour of
    square only) that may be part of a hand rather than its shadow.

    A hand a shade darker than one colour of square (a thumb over a light square) fits there
    as a shadow. A patch that touches a hand (within ``gap`` px: a grid line between) is taken
    for that hand's shadow only if it lies where the shadow falls: most of it within
    ``SHADOW_REACH`` squares of the hand, looking back against the way this frame's shadows
    fall (`shadow_direction`). When the frame does not show that way, none is (as without
    this rule: a frame whose board is dimmed all round its hands would lose every square
    beside them). ``labels`` are the foreign regions, ``hands`` the labels that may be hands;
    ``unseen`` where a hand may be without showing (over a square of its colour): its
    shadow falls beside it all the same.

    A patch that ends along the grid lines of its square (`_grid_bounded`) within
    ``GRID_NEAR`` squares of a hand may be the hand whatever the way: a hand of the other
    colour of square, invisible all round, need not show within a grid line of it.

    ``blobs``: the pixels of the ``hands`` labels, if already made (`Hands.mask`).
    """
    out = np.zeros(shade.shape, bool)
    if not len(hands) or not shade.any():
        return out
    count, lab = cv2.connectedComponents(shade.astype(np.uint8), connectivity=8)
    size = np.bincount(lab.ravel(), minlength=count)
    # A hand's blurred outline over a square of the board's colour mixes the two into a band
    # that looks dimmed, one or two pixels wide: a hand part is wider than that.
    body = cv2.erode(shade.astype(np.uint8), np.ones((2 * PART_WIDTH + 1,) * 2, np.uint8)) > 0
    wide = np.bincount(lab[body], minlength=count) >= PART_PIXELS
    if blobs is None:
        # np.isin(labels, hands), by a table of the labels (np.isin sorts or compares them all).
        is_hand = np.zeros(max(int(labels.max()), int(np.max(hands))) + 1, bool)
        is_hand[hands] = True
        blobs = is_hand[labels]
    ppu = shade.shape[0] // 9
    reach = round(SHADOW_REACH * ppu)
    casts = np.zeros(shade.shape, bool) if unseen is None else unseen
    # A patch that stops at its square's grid lines is no shadow (one goes on across a line):
    # the hand, invisible over the other colour all round, may show only a square away.
    may_be_hand = _grid_bounded(lab, count, wide, gap // 2, ppu)
    may_be_hand &= _labels_near(lab, count, may_be_hand, blobs, round(GRID_NEAR * ppu))
    way = shadow_direction(blobs, log_dim, usable)
    if way is None:  # (no hands either)
        return may_be_hand[lab]
    # The foreign regions of one hand are cut apart by the grid lines: joined across them, in
    # the hands' box widened by the join (the dilation reaches no farther; the same groups,
    # in whatever order: each is looked at alone below and what it finds is joined).
    around = box_around(blobs, gap)
    n_hands, hand = cv2.connectedComponents(_grown_by(blobs[around], gap), connectivity=8)
    for k in range(1, n_hands):
        near = np.zeros(shade.shape, bool)
        near[around] = hand == k
        touching = _labels_in(lab, near, count) & wide
        if not touching.any():
            continue
        # Only the touching patches' pixels are counted: the shadow is cast around them.
        box = box_around(touching[lab], reach + 1)
        inside = np.bincount(
            lab[box][downwind((near | casts)[box], way, reach) & shade[box]], minlength=count
        )
        may_be_hand |= touching & (inside < 0.5 * size)
    return may_be_hand[lab]


def _grown_by(mask: np.ndarray, radius: int) -> np.ndarray:
    """``mask`` dilated by a disc of ``radius`` px (uint8, 0/1)."""
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * radius + 1,) * 2)
    return cv2.dilate(mask.astype(np.uint8), disc)


def _labels_near(
    lab: np.ndarray, count: int, wanted: np.ndarray, mask: np.ndarray, radius: int
) -> np.ndarray:
    """Per label: ``wanted`` and some of its pixels within ``radius`` px of ``mask`` (a disc),
    i.e. ``wanted & _labels_in(lab, _grown_by(mask, radius) > 0, count)``, the disc grown only
    in the box around the wanted labels (a dilation reads ``radius`` px around a pixel)."""
    hit = np.zeros(count, bool)
    pixels = wanted[lab]
    if not pixels.any():
        return hit
    box = box_around(pixels, radius)
    grown = _grown_by(mask[box], radius) > 0
    hit[lab[box][grown & pixels[box]]] = True
    hit[0] = False
    return hit & wanted


def _labels_in(lab: np.ndarray, mask: np.ndarray, count: int) -> np.ndarray:
    """Per label of ``lab`` (0 = none): whether any of its pixels lies in ``mask``."""
    hit = np.zeros(count, bool)
    hit[lab[mask]] = True  # repeats and all: the flags of np.unique's labels, without its sort
    hit[0] = False
    return hit


def _grid_bounded(lab: np.ndarray, count: int, wide: np.ndarray, line_px: int, ppu: int) -> np.ndarray:
    """Per patch label: the patch's dimming ends along grid lines (``GRID_BOUNDED`` of its
    outline), i.e. it stops where a square of its colour stops. A shadow goes on across a
    line; a hand part of a dimmed board colour, with the hand invisible over the squares of
    the other colour around it, ends exactly there."""
    n = lab.shape[0]
    idx = np.arange(n) % ppu
    edge = np.minimum(idx, ppu - 1 - idx) <= line_px  # the first judged pixel beside a line
    near_line = edge[:, None] | edge[None, :]
    patch = lab > 0
    outline = patch & ~(cv2.erode(patch.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0)
    total = np.bincount(lab[outline], minlength=count)
    along = np.bincount(lab[outline & near_line], minlength=count)
    out = wide & (along >= GRID_BOUNDED * np.maximum(total, 1))
    out[0] = False
    return out


def shadow_direction(hands: np.ndarray, log_dim: np.ndarray, usable: np.ndarray) -> np.ndarray | None:
    """The way this frame's lamp casts a hand's shadow, as a unit vector (top-view x, y), or
    None when the frame does not show it.

    One lamp: every part of every hand casts its shadow offset the same way. Just outside a
    hand's outline the board is dimmed on the side its shadow falls, and not on the other
    side (the shadow is offset away from it). So the board a few pixels beyond the outline
    is looked at in each of ``DIRECTIONS`` directions; the dimming found there beyond the
    least found on any side, weighted by direction, points to where the shadow falls (at
    least half the directions must show enough board).
    """
    if not hands.any():
        return None
    # Every ring lies within RING[1] px of a hand: the rest of the view is not looked at.
    box = box_around(hands, RING[1] + 1)
    hands, log_dim, usable = hands[box], log_dim[box], usable[box]
    h8 = hands.astype(np.uint8)
    grown = cv2.dilate(h8, np.ones((3, 3), np.uint8)) > 0
    dim = np.clip(-log_dim, 0.0, None)
    beside = usable & ~grown  # where a ring may look (the same for every direction)
    ways, seen = [], []
    for k in range(DIRECTIONS):
        u, kernel = _ring_kernel(k)
        ring = cv2.dilate(h8, kernel).view(bool)  # 0 / 1: `_ring`, in one call
        ring &= beside
        if np.count_nonzero(ring) >= RING_PIXELS:
            ways.append(u)
            seen.append(float(dim[ring].mean()))
    return _pointing(ways, seen)


def _ring(hands: np.ndarray, u: np.ndarray) -> np.ndarray:
    """The pixels RING[0]–RING[1] px from ``hands`` along ``u`` (the shifted copies' union)."""
    ring = np.zeros_like(hands)
    for step in range(RING[0], RING[1] + 1):
        _or_shifted(ring, hands, round(step * u[0]), round(step * u[1]))
    return ring


@lru_cache(maxsize=DIRECTIONS)
def _ring_kernel(k: int) -> tuple[np.ndarray, np.ndarray]:
    """Direction ``k``'s unit vector and the dilation kernel that gives `_ring` along it:
    ``cv2.dilate`` ORs the source at the kernel's points less its centre, and counts nothing
    beyond the view's edge, so a point at minus each shift is the shifted copies' union."""
    t = 2 * math.pi * k / DIRECTIONS
    u = np.array([math.cos(t), math.sin(t)])
    r = RING[1]
    kernel = np.zeros((2 * r + 1, 2 * r + 1), np.uint8)
    for step in range(RING[0], RING[1] + 1):
        kernel[r - round(step * u[1]), r - round(step * u[0])] = 1
    u.setflags(write=False)
    kernel.setflags(write=False)
    return u, kernel


def _pointing(ways: list[np.ndarray], seen: list[float]) -> np.ndarray | None:
    """The unit vector the dimming ``seen`` beside the hands in the directions ``ways``
    points to, or None (too few directions, or no side dimmed clearly more)."""
    if len(seen) < DIRECTIONS // 2:
        return None
    # Only the dimming beyond what every side shows points somewhere: another hand's shadow
    # or a lighting misfit may dim the board all round.
    excess = np.asarray(seen) - min(seen)
    total = excess @ np.asarray(ways)
    weight = float(excess.sum())
    length = float(np.linalg.norm(total))
    if weight <= 0 or length < SHADOW_SIDED * weight:
        return None
    return total / length


def downwind(hands: np.ndarray, direction: np.ndarray, reach: int) -> np.ndarray:
    """Pixels a hand's shadow may fall on: those with some of ``hands`` within ``reach`` px
    against ``direction`` (the way shadows fall)."""
    out = hands.copy()
    for step in range(1, reach + 1):
        _or_shifted(out, hands, round(step * direction[0]), round(step * direction[1]))
    return out


def _shifted(mask: np.ndarray, dx: int, dy: int) -> np.ndarray:
    """``mask`` moved by (dx, dy) pixels, nothing wrapped around."""
    out = np.zeros_like(mask)
    h, w = mask.shape
    ys, yd = (slice(0, h - dy), slice(dy, h)) if dy >= 0 else (slice(-dy, h), slice(0, h + dy))
    xs, xd = (slice(0, w - dx), slice(dx, w)) if dx >= 0 else (slice(-dx, w), slice(0, w + dx))
    out[yd, xd] = mask[ys, xs]
    return out


def _or_shifted(out: np.ndarray, mask: np.ndarray, dx: int, dy: int) -> None:
    """``out |= _shifted(mask, dx, dy)``, in place (no shifted copy made)."""
    h, w = mask.shape
    ys, yd = (slice(0, h - dy), slice(dy, h)) if dy >= 0 else (slice(-dy, h), slice(0, h + dy))
    xs, xd = (slice(0, w - dx), slice(dx, w)) if dx >= 0 else (slice(-dx, w), slice(0, w + dx))
    out[yd, xd] |= mask[ys, xs]
