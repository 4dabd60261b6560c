"""An arm is a straight band: beside its straight side, no hand hides.

A hand reaches over the board from the table's edge: an arm of about constant width, then a
palm and fingers. A hand (or sleeve) of one colour of square shows only over the other colour,
so the reader lets it reach unseen over squares of its colour beside where it shows
(`vision.board_surface`, `vision.board_hands`). Beside an arm that is too generous: where the
arm's side is seen as a long straight edge (hand on one side, bare board of another colour on
the other), the arm does not bulge beyond that straight line anywhere along it, over squares
of either colour. Only the palm and the thumb, at the far end, are wider than the arm.

`beyond_arm_sides` finds such straight edges (`cv2.HoughLines` on the hand's pixels that touch
board seen bare) and returns the pixels beyond them, between the board's edge (where the arm
comes from) and the last point where the straight edge is seen. The band is not carried on
past that point: the palm may widen there. An edge is kept only if it is long (``MIN_LENGTH``
squares of it seen), the hand lies wholly on one side of it along that stretch (a visible
bulge means it is no arm's side), and the hand comes in from the board's edge on that side of
where the edge is last seen.

>>> import numpy as np
>>> n = 9 * 24
>>> hand = np.zeros((n, n), bool)
>>> hand[100:130, 0:150] = True                 # an arm from the left edge, 30 px wide
>>> bare = ~hand
>>> cut = beyond_arm_sides(hand, hand, bare, 24)
>>> bool(cut[140, 60]), bool(cut[125, 60]), bool(cut[140, 170])  # beside the arm; on it; past its end
(True, False, False)
"""

from __future__ import annotations

import math

import cv2
import numpy as np

MIN_LENGTH = 1.5  # squares: a straight edge seen over at least this length may be an arm's side
MIN_POINTS = 1.0  # squares' worth of edge pixels on the line
TOLERANCE = 1.5  # px: an edge pixel this near the line lies on it
MARGIN = 4.0  # px: slack beyond the line (blur and thresholding move an edge; measured up to 4)
BULGE = 2.0  # px: hand pixels beyond the line by more than this make it no arm's side
BULGE_SHARE = 0.002  # ... when more than this share of the hand's pixels along the stretch do
ALIGNED = math.radians(20)  # the outline at an edge pixel on the line runs along it within this
ALIGNED_SHARE = 0.8  # ... at this share of them
INSIDE_SHARE = 0.8  # of the line's stretch with the hand just inside it
INSIDE = 3  # px: how far inside the line the hand is looked for
BORDER = 4  # px: a hand within this of the top view's border comes from off the board
LINES = 24  # Hough lines looked at per hand
OTHER_REACH = 1.5  # squares: how far another hand beyond the line may reach unseen (over REACH)
REACH_SIDE = 1.5  # squares: how far beside the line a hand is looked at, and the bound reaches
HAND_LENGTH = 3.0  # arm widths: from where a hand starts to widen (palm, thumb) to its tip
WIDTH_QUANTILE = 0.75  # of the hand's extent from the line, slice by slice: the arm's width


def beyond_arm_sides(foreign: np.ndarray, hand: np.ndarray, bare: np.ndarray, ppu: int) -> np.ndarray:
    """Pixels no hand in ``hand`` (the hand's extent as the reader sees it: foreign pixels,
    gaps a palm spans, hand parts) can reach, because they lie beyond the straight side of its
    arm (see the module doc). ``foreign`` is what shows of the hand, ``bare`` the board seen
    bare and not of a hand's colour (a hand cannot be there)."""
    out = np.zeros(hand.shape, bool)
    gap = 5
    joined = cv2.dilate(hand.astype(np.uint8), np.ones((gap, gap), np.uint8))
    count, labels = cv2.connectedComponents(joined, connectivity=8)
    if count <= 1:
        return out
    border = np.zeros(hand.shape, bool)
    border[:BORDER], border[-BORDER:], border[:, :BORDER], border[:, -BORDER:] = True, True, True, True
    near_bare = cv2.dilate(bare.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
    # Each pixel belongs to the hand nearest to it: one hand's arm says nothing of another.
    _, nearest = cv2.distanceTransformWithLabels(
        (labels == 0).astype(np.uint8), cv2.DIST_L2, 3, labelType=cv2.DIST_LABEL_CCOMP
    )
    for k in range(1, count):
        comp = (labels == k) & hand
        if comp.sum() < 1.5 * ppu * ppu or not (comp & border).any():
            continue
        seen = comp & foreign
        edge = seen & near_bare
        if edge.sum() < MIN_POINTS * ppu:
            continue
        lines = cv2.HoughLines(edge.astype(np.uint8) * 255, 1, math.pi / 180, round(MIN_POINTS * ppu))
        if lines is None:
            continue
        # The outline's direction at every pixel: a line through edge pixels whose outline runs
        # across it (a line crossing the hand's side, or joining two hand parts) is no side.
        # (on what shows of the hand, its gaps at the grid lines, which are not judged, bridged)
        shown = cv2.morphologyEx(seen.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((gap, gap), np.uint8))
        soft = cv2.GaussianBlur(shown.astype(np.float32), (0, 0), 1.5)
        gx, gy = cv2.Sobel(soft, cv2.CV_32F, 1, 0), cv2.Sobel(soft, cv2.CV_32F, 0, 1)
        for rho, theta in lines[:LINES, 0]:
            cut = _beyond_line(float(rho), float(theta), edge, comp, border, ppu, (gx, gy))
            if cut is not None:
                out |= cut & (nearest == nearest[comp][0])
    return out


def _beyond_line(
    rho: float,
    theta: float,
    edge: np.ndarray,
    comp: np.ndarray,
    border: np.ndarray,
    ppu: int,
    gradient: tuple[np.ndarray, np.ndarray],
) -> np.ndarray | None:
    """The pixels beyond one Hough line (``rho``, ``theta``) if it is an arm's straight side
    of the hand ``comp`` (see the module doc), else None."""
    n = comp.shape[0]
    c, s = math.cos(theta), math.sin(theta)
    ey, ex = np.nonzero(edge)
    on = np.abs(ex * c + ey * s - rho) <= TOLERANCE
    if on.sum() < MIN_POINTS * ppu:
        return None
    gx, gy = gradient[0][ey[on], ex[on]], gradient[1][ey[on], ex[on]]
    across = np.abs(gx * c + gy * s) >= math.cos(ALIGNED) * np.hypot(gx, gy) + 1e-6
    if across.mean() < ALIGNED_SHARE:
        return None
    t_edge = -ex[on] * s + ey[on] * c  # along the line
    lo, hi = float(t_edge.min()), float(t_edge.max())
    if hi - lo < MIN_LENGTH * ppu:
        return None
    hy, hx = np.nonzero(comp)
    d_hand = hx * c + hy * s - rho
    t_hand = -hx * s + hy * c
    stretch = (t_hand >= lo) & (t_hand <= hi)
    side = 1.0 if np.median(d_hand[stretch]) > 0 else -1.0
    d_hand = side * d_hand
    # An arm's side has the hand all along it, just inside the line (where the hand does not
    # show, the gaps a palm spans fill in): a line crossing the outline does not.
    if _inside_share(comp, rho, theta, side, lo, hi) < INSIDE_SHARE:
        return None
    # The arm comes in from the board's edge behind one end of the stretch: the hand's pixels
    # at the border, beside the line, all lie behind that end.
    reach = REACH_SIDE * ppu
    at_border = border[hy, hx] & (d_hand >= -BULGE) & (d_hand <= reach)
    if not at_border.any():
        return None
    t_border = t_hand[at_border]
    quarter = 0.25 * (hi - lo)
    low, high = t_border <= lo + quarter, t_border >= hi - quarter
    if not (low | high).all():
        return None
    # The arm's width: the hand's extent from the line, slice by slice along the stretch (a
    # high quantile: where the other side does not show it is too low; the palm is wider but
    # fills few slices).
    band = stretch & (d_hand >= -BULGE) & (d_hand <= reach)
    slices = np.round(t_hand[band]).astype(int)
    extent = np.full(slices.max() - slices.min() + 1, -np.inf)
    np.maximum.at(extent, slices - slices.min(), d_hand[band])
    width = float(np.quantile(extent[np.isfinite(extent)], WIDTH_QUANTILE))
    # The hand reaches at least as far as its straight side is seen, and its palm and thumb
    # begin no nearer its tip than HAND_LENGTH widths: so up to HAND_LENGTH widths short of
    # the stretch's far end, the side is the arm's. (Where the hand's outline ends, what lies
    # beyond may be another hand or a piece joined to it: no tip is taken from it.) If the
    # hand reaches the board's edge at both ends, either end may be the hand.
    palm = HAND_LENGTH * width
    near = (d_hand >= -BULGE) & (d_hand <= width + ppu)
    last = float(t_hand[near].max())
    start, end = float(t_border.min()) - ppu, min(hi, last - palm)
    if not low.any():
        start, end = lo + palm, float(t_border.max()) + ppu
    elif high.any():
        start = lo + palm
    if end <= start:
        return None
    # No part of the hand shows beyond the line where the bound would hold: there the line is
    # no side of the arm (or another hand lies beside it).
    zone = (t_hand >= start) & (t_hand <= end)
    if (zone & (d_hand < -BULGE) & (d_hand > -BULGE - reach)).sum() > BULGE_SHARE * zone.sum() + 2:
        return None
    ys, xs = np.mgrid[0:n, 0:n]
    d_all = side * (xs * c + ys * s - rho)
    t_all = -xs * s + ys * c
    cut = (d_all < -MARGIN) & (d_all > -MARGIN - reach) & (t_all >= start) & (t_all <= end)
    # Whatever of the hand lies beyond the line (another hand, joined to this one) may reach
    # over its own squares unseen as far as any hand does: the bound says nothing there.
    others = comp & (d_all < -BULGE)
    if others.any():
        far = cv2.distanceTransform((~others).astype(np.uint8), cv2.DIST_L2, 3)
        cut &= far > OTHER_REACH * ppu
    return cut


def _inside_share(comp: np.ndarray, rho: float, theta: float, side: float, lo: float, hi: float) -> float:
    """The share of points along the line from ``lo`` to ``hi``, ``INSIDE`` px to the hand's
    side of it, that lie on the hand."""
    c, s = math.cos(theta), math.sin(theta)
    t = np.arange(lo, hi + 1.0)
    d = rho + side * INSIDE
    x = np.round(d * c - t * s).astype(int)
    y = np.round(d * s + t * c).astype(int)
    n = comp.shape[0]
    ok = (x >= 0) & (x < n) & (y >= 0) & (y < n)
    if not ok.any():
        return 0.0
    return float(comp[y[ok], x[ok]].mean())
