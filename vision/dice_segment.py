"""Find the dice on the tray and square up each top face.

Works in a *rectified* view of the tray (millimetres × `SCALE`), where every die's top face is
an exact square of one size: a plane parallel to the tray maps to the tray plane by a scaling
about the camera's foot point. A die away from that point also shows its sides (parallax), so
its blob is its top face smeared towards the foot point; the top face is the square at the far
end of the blob.

Dice are found as what is brighter or more colourful than the local tray background (the dice
are lighter than a dark tray; shadows are darker, so they never count).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.dice_tray import OFF_TRAY_MARGIN_MM, TrayView

SCALE = 1.5  # rectified pixels per tray millimetre
FG_THRESHOLD = 34.0  # foreground score (Lab, 8-bit units) that makes a pixel part of a die
FG_THRESHOLD_TABLE = 50.0  # the same on the table around the tray


@dataclass(frozen=True)
class Rectified:
    """The tray seen from straight above, with its background estimate."""

    bgr: np.ndarray
    lab: np.ndarray  # uint8 Lab (OpenCV scaling)
    image_to_rect: np.ndarray
    rect_to_image: np.ndarray
    tray: TrayView
    background: np.ndarray  # float32 grey level (0..255) of the bare tray, per 8 × 8 cell
    foreground: np.ndarray  # uint8 mask of die-like pixels
    margin_mm: float
    seen: np.ndarray  # uint8 mask: 255 where the camera saw (the image's own area)
    tray_median: float = 1.0  # the bare tray's median grey level
    outlines: tuple[np.ndarray, ...] = ()  # outer contour of each foreground region

    def to_mm(self, x: float, y: float) -> tuple[float, float]:
        return x / SCALE - self.margin_mm, y / SCALE - self.margin_mm

    def to_rect(self, x_mm: float, y_mm: float) -> tuple[float, float]:
        return (x_mm + self.margin_mm) * SCALE, (y_mm + self.margin_mm) * SCALE

    def shape_at(self, x: float, y: float) -> float:
        """How brightly the tray is lit at rectified pixel (x, y), relative to its median.

        The tray is one uniform material, so its background level maps the light's unevenness
        (gradients, a lamp's spot) across it.
        """
        h, w = self.foreground.shape
        m = round(self.margin_mm * SCALE)
        # Off the tray the table is another material: use the nearest tray edge.
        x = min(max(x, m), w - m - 1) if m > 0 else min(max(x, 0), w - 1)
        y = min(max(y, m), h - m - 1) if m > 0 else min(max(y, 0), h - 1)
        # Bilinear in the cell grid (cell centres at 8 k + 3.5, as cv2.resize would place them).
        bh, bw = self.background.shape
        gx = min(max((x + 0.5) / CELL - 0.5, 0.0), bw - 1.0)
        gy = min(max((y + 0.5) / CELL - 0.5, 0.0), bh - 1.0)
        x0, y0 = min(int(gx), bw - 2) if bw > 1 else 0, min(int(gy), bh - 2) if bh > 1 else 0
        fx, fy = gx - x0, gy - y0
        b = self.background
        x1, y1 = min(x0 + 1, bw - 1), min(y0 + 1, bh - 1)
        level = (b[y0, x0] * (1 - fx) + b[y0, x1] * fx) * (1 - fy) + (
            b[y1, x0] * (1 - fx) + b[y1, x1] * fx
        ) * fy
        return float(np.clip(level / max(self.tray_median, 1.0), 0.3, 3.0))


CELL = 8  # rectified pixels per cell of the background grid
_L = np.array([[1, 0, 0]], np.float32)  # picks L* out of a Lab difference
_AB = np.array([[0, 1, 1]], np.float32)  # sums the squared a* and b* differences


@functools.cache
def _tray_masks(w: int, h: int, m: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For a rectified view of this size and margin: the tray mask, each background cell's
    share of tray, and the band along the tray's edge where nothing counts."""
    inside = np.zeros((h, w), np.uint8)
    inside[m : h - m, m : w - m] = 255
    frac_in = cv2.resize(
        inside.astype(np.float32) / 255.0, (w // CELL, h // CELL), interpolation=cv2.INTER_AREA
    )
    band = cv2.morphologyEx(inside, cv2.MORPH_GRADIENT, np.ones((7, 7), np.uint8))
    for a in (inside, frac_in, band):
        a.flags.writeable = False
    return inside, frac_in, band


def rectify(img: np.ndarray, tray: TrayView, marker_squares: list[np.ndarray] | None = None) -> Rectified:
    """Warp the tray (plus a margin) to the top view and mark die-like pixels."""
    margin = OFF_TRAY_MARGIN_MM if tray.method != "frame" else 0.0
    w = round((tray.width_mm + 2 * margin) * SCALE)
    h = round((tray.height_mm + 2 * margin) * SCALE)
    to_rect = (
        np.array([[SCALE, 0, margin * SCALE], [0, SCALE, margin * SCALE], [0, 0, 1]]) @ tray.image_to_tray
    )
    bgr = cv2.warpPerspective(img, to_rect, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    lab = cv2.cvtColor(bgr, cv2.COLOR_BGR2Lab)
    # Where the camera did not see (the margin may reach past the image's edge) nothing is a die:
    # the image's outline drawn in the top view (far cheaper than warping a full mask).
    ih, iw = img.shape[:2]
    outline = cv2.perspectiveTransform(
        np.array([[[0, 0], [iw - 1, 0], [iw - 1, ih - 1], [0, ih - 1]]], np.float64), to_rect
    )[0]
    seen = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(seen, np.round(outline).astype(np.int32), 255)

    m = round(margin * SCALE)
    _, frac_in, band = _tray_masks(w, h, m)
    ignore = np.zeros((h, w), np.uint8)
    for sq in marker_squares or []:
        pts = np.round((sq + margin) * SCALE).astype(np.int32)
        x0, y0 = pts.min(axis=0) - round(5 * SCALE)
        x1, y1 = pts.max(axis=0) + round(5 * SCALE)
        ignore[max(y0, 0) : y1, max(x0, 0) : x1] = 255

    # Background: a wide median, separately for the tray and the table around it, so the
    # tray's edge does not bleed into either: a cell of the coarse grid that straddles the
    # edge belongs to neither (its mixed colour would make the table beside the tray look
    # lighter than "its" background, and so like a die).
    sw, sh = w // CELL, h // CELL
    small = cv2.resize(bgr, (sw, sh), interpolation=cv2.INTER_AREA)
    # The markers' white paper is not tray: leave it out of the background.
    small_ignore = cv2.resize(ignore, (sw, sh), interpolation=cv2.INTER_AREA) > 0

    def region_background(usable: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Full-size Lab and cell-grid grey background of one region (cells outside it take
        the region's median, so they neither darken nor lighten it)."""
        fill = small.copy()
        if usable.any():
            fill[~usable] = np.median(small[usable], axis=0).astype(np.uint8)
        bg = cv2.medianBlur(fill, 9)  # 9 cells of 8 px: 48 mm, three dice
        up_lab = cv2.resize(cv2.cvtColor(bg, cv2.COLOR_BGR2Lab), (w, h), interpolation=cv2.INTER_LINEAR)
        return up_lab, bg.astype(np.float32).mean(axis=2)

    tray_cells = (frac_in > 0.98) & ~small_ignore
    bg_lab, bg_grey = region_background(tray_cells)
    tray_median = float(np.median(bg_grey[frac_in > 0.98])) if (frac_in > 0.98).any() else 1.0
    table_cells = (frac_in < 0.02) & ~small_ignore
    if m > 0 and table_cells.any():
        # The tray is the rectangle inside the margin: slices, not masks (cheap copies).
        tray_part = (slice(m, h - m), slice(m, w - m))
        table_lab, _ = region_background(table_cells)
        table_lab[tray_part] = bg_lab[tray_part]
        bg_lab = table_lab
    # Foreground score: lighter than the background, or another colour (OpenCV operations on
    # whole planes: this is the reader's largest image).
    diff = cv2.subtract(lab, bg_lab, dtype=cv2.CV_32F)
    chroma = cv2.sqrt(cv2.transform(cv2.multiply(diff, diff), _AB))
    score = cv2.scaleAdd(chroma, 1.5, cv2.max(cv2.transform(diff, _L), 0))
    fg = cv2.compare(score, FG_THRESHOLD, cv2.CMP_GT)
    if m > 0:
        # The table around the tray has grain and stripes of light that a plain dark tray
        # does not: there a die must stand out more (one that is not found there is reported
        # missing, which asks just as "off the tray" does).
        tray_fg = fg[m : h - m, m : w - m].copy()
        fg = cv2.compare(score, FG_THRESHOLD_TABLE, cv2.CMP_GT)
        fg[m : h - m, m : w - m] = tray_fg
    if m > 0:
        fg[band > 0] = 0
    fg[ignore > 0] = 0
    fg[cv2.erode(seen, np.ones((5, 5), np.uint8)) == 0] = 0
    fg = cv2.morphologyEx(fg, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    fg = cv2.morphologyEx(fg, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    # Fill holes: a black patch or a dark letter inside a light die is still die.
    contours, _ = cv2.findContours(fg, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    cv2.drawContours(fg, contours, -1, 255, cv2.FILLED)
    return Rectified(
        bgr,
        lab,
        to_rect,
        np.linalg.inv(to_rect),
        tray,
        bg_grey,
        fg,
        margin,
        seen,
        tray_median,
        tuple(contours),
    )


@dataclass(frozen=True)
class Blob:
    """One die-like region of the rectified tray."""

    contour: np.ndarray  # (N, 2) rectified pixels
    area: float
    centre: tuple[float, float]
    angle: float  # die orientation in degrees, 0..90
    extents: tuple[float, float]  # along the die's two axes, rectified pixels
    box: tuple[float, float, float, float]  # die-aligned min x, min y, max x, max y (about centre)
    merged: bool = False  # split from a region holding several dice (touching)


@dataclass(frozen=True)
class FaceSquare:
    """A top face in the rectified view: centre, side and orientation."""

    centre: tuple[float, float]
    side: float
    angle: float

    def corners(self) -> np.ndarray:
        """TL, TR, BR, BL in rectified pixels (in the die's own frame, turned by `angle`)."""
        a = math.radians(self.angle)
        ux, uy = math.cos(a), math.sin(a)
        vx, vy = -uy, ux
        h = self.side / 2
        cx, cy = self.centre
        return np.array(
            [
                [cx - ux * h - vx * h, cy - uy * h - vy * h],
                [cx + ux * h - vx * h, cy + uy * h - vy * h],
                [cx + ux * h + vx * h, cy + uy * h + vy * h],
                [cx - ux * h + vx * h, cy - uy * h + vy * h],
            ]
        )


def _orientation(lab_l: np.ndarray, mask: np.ndarray) -> float:
    """Dominant edge direction modulo 90 degrees (the square's axes), by the 4-fold angle mean."""
    gx = cv2.Sobel(lab_l, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(lab_l, cv2.CV_32F, 0, 1, ksize=3)
    mag2 = (gx * gx + gy * gy) * mask
    phi = np.arctan2(gy, gx)
    c = float((mag2 * np.cos(4 * phi)).sum())
    s = float((mag2 * np.sin(4 * phi)).sum())
    return (math.degrees(math.atan2(s, c)) / 4.0) % 90.0


def _describe(points: np.ndarray, lab_l: np.ndarray, merged: bool) -> Blob | None:
    """Measure a region given as an (N, 2) array of pixel coordinates."""
    if len(points) < 12:
        return None
    x0, y0 = points.min(axis=0)
    x1, y1 = points.max(axis=0)
    pad = 3
    h, w = lab_l.shape
    bx0, by0 = max(int(x0) - pad, 0), max(int(y0) - pad, 0)
    bx1, by1 = min(int(x1) + pad + 1, w), min(int(y1) + pad + 1, h)
    mask = np.zeros((by1 - by0, bx1 - bx0), np.uint8)
    mask[points[:, 1] - by0, points[:, 0] - bx0] = 1
    # The outline only: letters inside (an X's diagonals) must not turn the square.
    k3 = np.ones((3, 3), np.uint8)
    outline = (cv2.dilate(mask, k3, iterations=2) - cv2.erode(mask, k3)).astype(np.float32)
    roi = lab_l[by0:by1, bx0:bx1].astype(np.float32)
    angle = _orientation(roi, outline)
    cx, cy = points.mean(axis=0)
    a = math.radians(angle)
    rel = points.astype(np.float64) - [cx, cy]
    u = rel[:, 0] * math.cos(a) + rel[:, 1] * math.sin(a)
    v = -rel[:, 0] * math.sin(a) + rel[:, 1] * math.cos(a)
    box = (float(u.min()) - 0.5, float(v.min()) - 0.5, float(u.max()) + 0.5, float(v.max()) + 0.5)
    hull = cv2.convexHull(points.astype(np.int32).reshape(-1, 1, 2)).reshape(-1, 2)
    return Blob(
        contour=hull,
        area=float(len(points)),
        centre=(float(cx), float(cy)),
        angle=angle,
        extents=(box[2] - box[0], box[3] - box[1]),
        box=box,
        merged=merged,
    )


@dataclass(frozen=True)
class Regions:
    """What segmentation found: die-sized blobs and anything too big to be a die."""

    blobs: tuple[Blob, ...]
    large: tuple[np.ndarray, ...]  # contours of regions bigger than a few dice (hands, cloths)


def _cut_off(rect: Rectified, pts: np.ndarray) -> bool:
    """Whether a region touches the edge of what the camera saw."""
    h, w = rect.seen.shape
    for off in np.array([[3, 0], [-3, 0], [0, 3], [0, -3]]):
        p = np.clip(pts + off, 0, [w - 1, h - 1])
        if (rect.seen[p[:, 1], p[:, 0]] == 0).any():
            return True
    return False


def find_blobs(rect: Rectified, die_px: float) -> Regions:
    """Die-sized regions of the foreground (not yet split: see `split_touching`)."""
    unit = die_px * die_px
    blobs: list[Blob] = []
    large: list[np.ndarray] = []
    lab_l = rect.lab[..., 0]
    # Each region is its outer contour filled (holes were filled when it was found).
    for outline in rect.outlines:
        x, y, bw, bh = cv2.boundingRect(outline)
        if bw * bh < 0.3 * unit:
            continue  # glints, specks
        mask = np.zeros((bh, bw), np.uint8)
        cv2.drawContours(mask, [outline], -1, 1, cv2.FILLED, offset=(-x, -y))
        ys, xs = np.nonzero(mask)
        area = float(len(xs))
        if area < 0.6 * bw * bh and bw * bh < 2.5 * unit:
            hull = cv2.convexHull(outline)
            if area < 0.6 * cv2.contourArea(hull) and 0.5 * unit < cv2.contourArea(hull) < 2.0 * unit:
                # A die whose painted face is as dark as the tray shows only its lighter rim,
                # and a dimly lit side can break that ring (then its hole was not filled):
                # the die is the ring's hull.
                cv2.fillConvexPoly(mask, hull.reshape(-1, 2) - [x, y], 1)
                ys, xs = np.nonzero(mask)
                area = float(len(xs))
        if area < 0.3 * unit:
            continue
        pts = np.stack([xs + x, ys + y], axis=1)
        if area > 7.0 * unit:
            large.append(cv2.convexHull(pts.astype(np.int32).reshape(-1, 1, 2)).reshape(-1, 2))
            continue
        blob = _describe(pts, lab_l, merged=False)
        if blob is None or min(blob.extents) < 0.55 * die_px:
            continue  # slivers: tray edges, cables
        if max(blob.extents) > 3.2 * die_px:
            # Longer than a row of three dice: a finger, a pencil, the edge of a hand.
            large.append(blob.contour)
            continue
        if blob.area < 0.6 * blob.extents[0] * blob.extents[1]:
            continue  # not a square or a row of squares: a strip of table, a shadow's edge
        if _cut_off(rect, pts):
            continue  # cut by the image's edge: a fingertip, or a die half out of view
        blobs.append(blob)
    return Regions(tuple(blobs), tuple(large))


def flat_extents(blob: Blob, die_px: float, k: float, nadir: tuple[float, float]) -> tuple[float, float]:
    """How long a die lying flat at the blob's place looks along its two axes (sides included)."""
    side = die_px * (1 + k)
    a = math.radians(blob.angle)
    rx, ry = blob.centre[0] - nadir[0], blob.centre[1] - nadir[1]
    ru = abs(rx * math.cos(a) + ry * math.sin(a))
    rv = abs(-rx * math.sin(a) + ry * math.cos(a))
    return max(side, (die_px + side) / 2 + k * ru), max(side, (die_px + side) / 2 + k * rv)


def split_touching(
    blobs: tuple[Blob, ...], rect: Rectified, die_px: float, k: float, nadir: tuple[float, float]
) -> tuple[Blob, ...]:
    """Split a region holding several dice (about a whole die's area too much) into that many."""
    out: list[Blob] = []
    for blob in blobs:
        fu, fv = flat_extents(blob, die_px, k, nadir)
        single = fu * fv
        if blob.area < 1.6 * single and max(blob.extents[0] - fu, blob.extents[1] - fv) < 0.8 * die_px:
            out.append(blob)
            continue
        count = max(2, min(4, round(blob.area / single)))
        mask = np.zeros(rect.foreground.shape, np.uint8)
        cv2.fillPoly(mask, [blob.contour.astype(np.int32)], 255)
        ys, xs = np.nonzero((mask > 0) & (rect.foreground > 0))
        pts = np.stack([xs, ys], axis=1).astype(np.float32)
        crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
        _, lab_k, _ = cv2.kmeans(pts, count, None, crit, 3, cv2.KMEANS_PP_CENTERS)
        for j in range(count):
            part = _describe(pts[lab_k.reshape(-1) == j].astype(np.int64), rect.lab[..., 0], merged=True)
            if part is not None and part.area >= 0.3 * die_px * die_px:
                out.append(part)
    return tuple(out)


def estimate_parallax(blobs: tuple[Blob, ...], die_px: float, nadir: tuple[float, float]) -> float:
    """How much the top faces are magnified (k: top side = die side × (1 + k)).

    A die at distance r from the camera's foot point shows its sides over about k·r, so each
    blob's extents grow by k·(|r_u| + |r_v|) on top of two die sides; the median over dice
    resists cocked and touching ones.
    """
    ks = []
    for b in blobs:
        if b.merged:
            continue
        a = math.radians(b.angle)
        rx, ry = b.centre[0] - nadir[0], b.centre[1] - nadir[1]
        ru = abs(rx * math.cos(a) + ry * math.sin(a))
        rv = abs(-rx * math.sin(a) + ry * math.cos(a))
        ks.append((b.extents[0] + b.extents[1] - 2 * die_px) / (die_px + ru + rv))
    if not ks:
        return 0.04
    return float(np.clip(np.median(ks), 0.0, 0.2))


def top_face(blob: Blob, side: float, nadir: tuple[float, float]) -> FaceSquare:
    """The top face: a square of `side` at the end of the blob away from the camera's foot point."""
    a = math.radians(blob.angle)
    rx, ry = blob.centre[0] - nadir[0], blob.centre[1] - nadir[1]
    ru = rx * math.cos(a) + ry * math.sin(a)
    rv = -rx * math.sin(a) + ry * math.cos(a)
    u0, v0, u1, v1 = blob.box

    def place(lo: float, hi: float, r: float) -> float:
        if hi - lo <= side:
            return (lo + hi) / 2
        return hi - side / 2 if r > 0 else lo + side / 2

    cu, cv = place(u0, u1, ru), place(v0, v1, rv)
    cx = blob.centre[0] + cu * math.cos(a) - cv * math.sin(a)
    cy = blob.centre[1] + cu * math.sin(a) + cv * math.cos(a)
    return FaceSquare((cx, cy), side, blob.angle)
