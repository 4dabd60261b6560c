"""Find the dice tray: by the ArUco markers in its corners, or as the plain dark rectangle.

The result maps the image to *tray millimetres* (x right along the tray's long side, y down),
which is where the dice are segmented. The markers also give white (their paper) and black
(their ink) references for colour; a plain tray gives neither.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.dieset import TraySpec

# Margin around the tray that the reader still looks at (dice that jumped just off it), mm.
OFF_TRAY_MARGIN_MM = 45.0


@dataclass(frozen=True)
class TrayView:
    """Where the tray is in an image, and the colour references found on it."""

    image_to_tray: np.ndarray  # 3x3 homography, image pixels → tray mm
    width_mm: float
    height_mm: float
    quad: np.ndarray  # (4, 2) tray corners in the image: TL, TR, BR, BL
    markers: int  # how many corner markers were found (0 = plain tray)
    method: str  # "markers", "plain", "frame" (no tray found: the whole image)
    white_refs: tuple[tuple[float, float, np.ndarray], ...] = ()  # (x_mm, y_mm, BGR 0..255)
    black_refs: tuple[tuple[float, float, np.ndarray], ...] = ()

    def tray_to_image(self) -> np.ndarray:
        return np.linalg.inv(self.image_to_tray)

    def contains(self, x_mm: float, y_mm: float) -> bool:
        return 0.0 <= x_mm <= self.width_mm and 0.0 <= y_mm <= self.height_mm


def marker_squares(tray: TraySpec) -> dict[int, np.ndarray]:
    """Each marker's black square corners (TL, TR, BR, BL as ArUco reports them) in tray mm."""
    w, h, m, i = tray.width_mm, tray.height_mm, tray.marker_size_mm, tray.marker_inset_mm
    origins = ((i, i), (w - i - m, i), (w - i - m, h - i - m), (i, h - i - m))
    out = {}
    for mid, (x, y) in zip(tray.marker_ids, origins, strict=True):
        out[mid] = np.array([[x, y], [x + m, y], [x + m, y + m], [x, y + m]], np.float64)
    return out


_DETECTORS: dict[str, cv2.aruco.ArucoDetector] = {}


def _detector(name: str) -> cv2.aruco.ArucoDetector:
    if name not in _DETECTORS:
        code = getattr(cv2.aruco, name, None)
        if code is None:
            raise ValueError(f"unknown ArUco dictionary {name!r} (try DICT_4X4_50)")
        params = cv2.aruco.DetectorParameters()
        # Corners are refined on the full-size image afterwards; two threshold windows find
        # markers ~30 px wide as surely as three (same detections on the val frames, a third
        # faster).
        params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_NONE
        params.adaptiveThreshWinSizeMax = 13
        _DETECTORS[name] = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(code), params)
    return _DETECTORS[name]


def _ring_median(
    img: np.ndarray, tray_to_img: np.ndarray, square: np.ndarray, lo: float, hi: float
) -> np.ndarray:
    """Median BGR of the band between offsets `lo` and `hi` mm outside (negative: inside) a square."""
    x0, y0 = square[0]
    x1, y1 = square[2]
    pts = []
    for t in np.linspace(lo, hi, 3):
        for u in np.linspace(0.0, 1.0, 12):
            for px, py in (
                (x0 + (x1 - x0) * u, y0 - t),
                (x0 + (x1 - x0) * u, y1 + t),
                (x0 - t, y0 + (y1 - y0) * u),
                (x1 + t, y0 + (y1 - y0) * u),
            ):
                pts.append((px, py))
    img_pts = cv2.perspectiveTransform(np.array([pts], np.float64), tray_to_img)[0]
    h, w = img.shape[:2]
    xi = np.clip(np.round(img_pts[:, 0]).astype(int), 0, w - 1)
    yi = np.clip(np.round(img_pts[:, 1]).astype(int), 0, h - 1)
    return np.median(img[yi, xi].astype(np.float32), axis=0)


def find_tray_by_markers(img: np.ndarray, gray: np.ndarray, tray: TraySpec) -> TrayView | None:
    """The tray from its corner markers; needs at least two of the four."""
    # Detect at half size (4x fewer pixels; the markers stay ~40 px wide), refine at full size.
    half = cv2.resize(gray, (gray.shape[1] // 2, gray.shape[0] // 2), interpolation=cv2.INTER_AREA)
    corners, ids, _ = _detector(tray.marker_dictionary).detectMarkers(half)
    scale = 2.0
    if ids is None or len(ids) == 0:
        if gray.shape[1] >= 1000:
            return None  # markers in a frame this size are ~30 px wide at half size: none there
        corners, ids, _ = _detector(tray.marker_dictionary).detectMarkers(gray)
        scale = 1.0
        if ids is None or len(ids) == 0:
            return None
    pts = (np.concatenate([np.asarray(c, np.float32).reshape(4, 2) for c in corners]) * scale).reshape(
        -1, 1, 2
    )
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.05)
    pts = cv2.cornerSubPix(gray, pts, (5, 5), (-1, -1), crit)
    corners = tuple(pts.reshape(-1, 1, 4, 2)[i] for i in range(len(corners)))
    squares = marker_squares(tray)
    src, dst, found = [], [], []
    for c, i in zip(corners, np.asarray(ids).reshape(-1), strict=True):
        if int(i) in squares and int(i) not in found:
            found.append(int(i))
            src.append(np.asarray(c, np.float64).reshape(4, 2))
            dst.append(squares[int(i)])
    if len(found) < 2:
        return None
    hom, _ = cv2.findHomography(np.concatenate(src), np.concatenate(dst), 0)
    if hom is None:
        return None
    inv = np.linalg.inv(hom)
    w, h = tray.width_mm, tray.height_mm
    quad = cv2.perspectiveTransform(np.array([[[0, 0], [w, 0], [w, h], [0, h]]], np.float64), inv)[0]
    whites, blacks = [], []
    cell = tray.marker_size_mm / 6.0  # 4x4 markers have a one-cell black border
    for mid in found:
        sq = squares[mid]
        cx, cy = sq.mean(axis=0)
        whites.append((float(cx), float(cy), _ring_median(img, inv, sq, 0.8, 2.2)))
        blacks.append((float(cx), float(cy), _ring_median(img, inv, sq, -0.75 * cell, -0.3 * cell)))
    return TrayView(hom, w, h, quad, len(found), "markers", tuple(whites), tuple(blacks))


def _order_corners(pts: np.ndarray) -> np.ndarray:
    """TL, TR, BR, BL with the long side first (the tray's width runs along x)."""
    c = pts.mean(axis=0)
    ang = np.arctan2(pts[:, 1] - c[1], pts[:, 0] - c[0])
    pts = pts[np.argsort(ang)]  # clockwise in image coordinates (y down), starting near -pi
    # Start at the corner with the smallest x + y (top-left).
    start = int(np.argmin(pts.sum(axis=1)))
    pts = np.roll(pts, -start, axis=0)
    if np.linalg.norm(pts[1] - pts[0]) < np.linalg.norm(pts[3] - pts[0]):
        pts = np.roll(pts, -1, axis=0)  # portrait: rotate so the long side is the top edge
    return pts


def _refine_edges(gray: np.ndarray, quad: np.ndarray, reach: float = 14.0) -> np.ndarray:
    """The tray's corners from its four edges found at full resolution.

    The dark region was found on a small copy of the image, good to a few pixels; each edge is
    now searched across its guessed line (the steepest rise from dark tray to lighter table,
    to a tenth of a pixel) at points along it, a line is fitted robustly (a die or a hand at
    the edge pulls a few points away, not the line) and the corners are where lines meet.
    """
    g = cv2.GaussianBlur(gray, (5, 5), 1.0).astype(np.float32)
    centre = quad.mean(axis=0)
    offsets = np.arange(-reach, reach + 1.0)
    lines = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        d = (b - a) / max(float(np.linalg.norm(b - a)), 1e-9)
        n = np.array([-d[1], d[0]])
        if float(n @ ((a + b) / 2 - centre)) < 0:
            n = -n  # pointing out of the tray
        ts = np.linspace(0.08, 0.92, 40)
        base = a[None, :] + ts[:, None] * (b - a)[None, :]
        coords = base[:, None, :] + offsets[None, :, None] * n[None, None, :]
        prof = cv2.remap(
            g, coords[..., 0].astype(np.float32), coords[..., 1].astype(np.float32), cv2.INTER_LINEAR
        )
        rise = np.diff(prof, axis=1)  # dark inside to light outside: positive
        k = np.argmax(rise, axis=1)
        strong = rise[np.arange(len(k)), k] > 3.0
        inner = (k > 0) & (k < rise.shape[1] - 1)
        ok = strong & inner
        if ok.sum() < 8:
            lines.append(None)
            continue
        kk = k[ok]
        r0, r1, r2 = (rise[ok, kk - 1], rise[ok, kk], rise[ok, kk + 1])
        frac = 0.5 * (r0 - r2) / np.where(np.abs(r0 - 2 * r1 + r2) > 1e-6, r0 - 2 * r1 + r2, 1e-6)
        pos = offsets[kk] + 0.5 + np.clip(frac, -0.5, 0.5)
        pts = base[ok] + pos[:, None] * n[None, :]
        vx, vy, x0, y0 = cv2.fitLine(pts.astype(np.float32), cv2.DIST_HUBER, 0, 0.01, 0.01).reshape(4)
        lines.append((np.array([x0, y0]), np.array([vx, vy])))
    out = quad.copy()
    for i in range(4):
        prev, cur = lines[(i - 1) % 4], lines[i]
        if prev is None or cur is None:
            continue
        (p1, d1), (p2, d2) = prev, cur
        m = np.array([d1, -d2]).T
        if abs(float(np.linalg.det(m))) < 1e-6:
            continue
        t = np.linalg.solve(m, p2 - p1)
        corner = p1 + t[0] * d1
        if float(np.linalg.norm(corner - quad[i])) < 2 * reach:
            out[i] = corner
    return out


def _aspect_misfit(quad: np.ndarray, tray: TraySpec) -> float:
    """How far a quad's side ratio is from the tray's (0: the tray's own proportions). The
    camera looks nearly straight down, so the tray's picture keeps its proportions (trays
    found right on the tuning splits: at most 0.011)."""
    top, right, bottom, left = (float(np.linalg.norm(quad[(i + 1) % 4] - quad[i])) for i in range(4))
    return abs((top + bottom) / max(left + right, 1e-9) / (tray.width_mm / tray.height_mm) - 1.0)


ASPECT_MISFIT = 0.03  # a dark region further off the tray's proportions holds dark table too


def _dark_quad(small: np.ndarray, level: float, scale: float) -> np.ndarray | None:
    """The smallest rectangle around the largest region darker than `level` (image pixels)."""
    dark = (small < level).astype(np.uint8) * 255
    dark = cv2.morphologyEx(dark, cv2.MORPH_OPEN, np.ones((7, 7), np.uint8))
    contours, _ = cv2.findContours(dark, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    if not contours:
        return None
    big = max(contours, key=cv2.contourArea)
    area = cv2.contourArea(big)
    if area < 0.15 * small.size:
        return None
    hull = cv2.convexHull(big)
    # The smallest rectangle around the dark region is a first guess that a die biting into
    # a corner cannot pull (the camera looks nearly straight down, so the tray is nearly a
    # rectangle); its edges are then found exactly at full resolution.
    quad = _order_corners(cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float64) / scale)
    if cv2.contourArea(quad.astype(np.float32)) < 0.8 * area / scale**2:
        return None
    return quad


def find_plain_tray(gray: np.ndarray, tray: TraySpec) -> TrayView | None:
    """The tray as the largest dark four-sided region of the image."""
    h, w = gray.shape
    scale = 320.0 / w
    small = cv2.resize(gray, (320, round(h * scale)), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (5, 5), 0)
    otsu, _ = cv2.threshold(small, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    below = small[small < otsu]
    if below.size == 0:
        return None
    # Halfway between the tray's own darkness and Otsu's split: a shaded table edge that is
    # darker than the rest of the table must not join the tray.
    tray_level = float(np.median(below))
    quad = _dark_quad(small, tray_level + 0.5 * (otsu - tray_level), scale)
    if quad is None:
        return None
    # Under lamps that leave the table's far parts as dim as the tray, those parts join it and
    # the region loses the tray's proportions; a level closer to the tray's own darkness
    # leaves them out (val-lamps: the table then showed inside the "tray" as a long strip,
    # taken for a hand over the tray).
    misfit = _aspect_misfit(quad, tray)
    for share in (0.3, 0.15):
        if misfit <= ASPECT_MISFIT:
            break
        alt = _dark_quad(small, tray_level + share * (otsu - tray_level), scale)
        alt_misfit = _aspect_misfit(alt, tray) if alt is not None else misfit
        if alt is not None and alt_misfit < misfit - 0.02:
            quad, misfit = alt, alt_misfit
    quad = _refine_edges(gray, quad, reach=20.0)
    wmm, hmm = tray.width_mm, tray.height_mm
    dst = np.array([[0, 0], [wmm, 0], [wmm, hmm], [0, hmm]], np.float64)
    hom = cv2.getPerspectiveTransform(quad.astype(np.float32), dst.astype(np.float32)).astype(np.float64)
    return TrayView(hom, wmm, hmm, quad, 0, "plain")


def frame_as_tray(shape: tuple[int, ...], tray: TraySpec) -> TrayView:
    """No tray found: treat the whole image as the tray (scale guessed from the tray width)."""
    h, w = shape[:2]
    s = tray.width_mm / w
    hom = np.array([[s, 0, 0], [0, s, 0], [0, 0, 1]], np.float64)
    quad = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
    return TrayView(hom, tray.width_mm, h * s, quad, 0, "frame")


def find_tray(img: np.ndarray, tray: TraySpec, gray: np.ndarray | None = None) -> TrayView:
    """Markers first, then the plain dark tray, then the whole frame."""
    if gray is None:
        gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    return (
        find_tray_by_markers(img, gray, tray) or find_plain_tray(gray, tray) or frame_as_tray(img.shape, tray)
    )
