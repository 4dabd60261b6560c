"""Draw a :class:`~vision.synth.scene.Scene`: tray, markers, dice as projected cubes, hands, light.

The dice are real cubes seen through a pinhole camera, so dice away from the image centre
show their sides (parallax), as they do under a camera fixed above a tray. Textures are never
mirrored: a face's texture axes (u, v) satisfy ``u × v = -n`` for its outward normal ``n``,
which is what a face looks like from outside.

Needs Pillow (fonts); the reader itself never imports this module.

>>> from vision.dieset import default_dieset
>>> from vision.synth.scene import sample_scene
>>> frame, labels = render_scene(sample_scene(default_dieset(), "tune", 1), default_dieset())
>>> frame.shape, len(labels.dice)
((720, 1280, 3), 7)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

import cv2
import numpy as np

from vision.dieset import DieSet, DieSpec, FaceValue
from vision.synth.scene import DiePlacement, HandSpec, Scene, font_path

TEX = 96  # face texture side in pixels


@dataclass(frozen=True)
class DieLabel:
    """The truth about one die in a rendered frame."""

    name: str
    value: FaceValue
    centre: tuple[float, float]  # image pixels, centre of the top face
    quad: tuple[tuple[float, float], ...]  # the top face's corners in the image
    on_tray: bool
    cocked: bool
    visible: bool  # False when a hand covers it or it is out of the frame
    touching: bool


@dataclass(frozen=True)
class FrameLabels:
    """The truth about a rendered frame."""

    dice: tuple[DieLabel, ...]
    markers: bool
    hand: bool
    hand_over_tray: bool

    def value(self, name: str) -> FaceValue:
        return next(d.value for d in self.dice if d.name == name)


# --- face textures -------------------------------------------------------------------------


@cache
def _pil_font(filename: str, px: int):  # type: ignore[no-untyped-def]
    from PIL import ImageFont

    return ImageFont.truetype(str(font_path(filename)), px)


@cache
def glyph_mask(text: str, font: str, glyph_height: float, size: int = TEX) -> np.ndarray:
    """Anti-aliased ink coverage (0..1) of `text` centred on a face of `size` pixels.

    The font size makes the capital H `glyph_height` of the face tall, so letters keep their
    natural proportions and heights (a Q's tail still hangs below).
    """
    from PIL import Image, ImageDraw

    ss = 4
    big = size * ss
    probe = _pil_font(font, 400)
    _, y0, _, y1 = probe.getbbox("H")
    px = max(8, round(400 * glyph_height * big / (y1 - y0)))
    pil_font = _pil_font(font, px)
    bx0, _, bx1, _ = pil_font.getbbox(text)
    img = Image.new("L", (big, big), 0)
    draw = ImageDraw.Draw(img)
    # Centre the cap-height box (not the ink box) vertically so Q and J keep their baseline.
    _, hy0, _, hy1 = pil_font.getbbox("H")
    ox = big / 2 - (bx0 + bx1) / 2
    oy = big / 2 - (hy0 + hy1) / 2
    draw.text((ox, oy), text, font=pil_font, fill=255)
    arr = np.asarray(img, dtype=np.float32) / 255.0
    return cv2.resize(arr, (size, size), interpolation=cv2.INTER_AREA)


@cache
def pip_mask(count: int, size: int = TEX) -> np.ndarray:
    """Pips of a standard die face (1..6)."""
    spots = {
        1: [(0.5, 0.5)],
        2: [(0.27, 0.27), (0.73, 0.73)],
        3: [(0.27, 0.27), (0.5, 0.5), (0.73, 0.73)],
        4: [(0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)],
        5: [(0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)],
        6: [(0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)],
    }[count]
    ss = 4
    big = np.zeros((size * ss, size * ss), np.uint8)
    r = round(0.095 * size * ss)
    for x, y in spots:
        cv2.circle(big, (round(x * size * ss), round(y * size * ss)), r, 255, -1, cv2.LINE_AA)
    return cv2.resize(big.astype(np.float32) / 255.0, (size, size), interpolation=cv2.INTER_AREA)


@cache
def _rim(size: int = TEX) -> np.ndarray:
    """Darkening towards the rounded edges of a face."""
    idx = np.arange(size, dtype=np.float32) + 0.5
    d = np.minimum(idx, size - idx) / (0.09 * size)
    edge = np.minimum(d[None, :], d[:, None])
    return (0.72 + 0.28 * np.sqrt(np.clip(edge, 0, 1))).astype(np.float32)


def _rgb(dieset: DieSet, name: str) -> np.ndarray:
    return np.asarray(dieset.colours[name], dtype=np.float32) / 255.0


def face_texture(
    dieset: DieSet, die: DieSpec, value: FaceValue, font: str, glyph_height: float, tint: np.ndarray
) -> np.ndarray:
    """The face of `die` showing `value`, as RGB floats (TEX, TEX, 3)."""
    body = np.clip(_rgb(dieset, die.body) * tint, 0, 1)
    tex = np.empty((TEX, TEX, 3), np.float32)
    tex[:] = body
    if die.kind == "colour":
        patch = np.zeros((TEX, TEX), np.uint8)
        side = die.patch * TEX
        a, b = round((TEX - side) / 2), round((TEX + side) / 2)
        if die.patch >= 0.999:
            patch[:] = 255
        else:
            rad = max(1, round(0.12 * side))
            cv2.rectangle(patch, (a + rad, a), (b - rad, b), 255, -1, cv2.LINE_AA)
            cv2.rectangle(patch, (a, a + rad), (b, b - rad), 255, -1, cv2.LINE_AA)
            for cx, cy in ((a + rad, a + rad), (b - rad, a + rad), (a + rad, b - rad), (b - rad, b - rad)):
                cv2.circle(patch, (cx, cy), rad, 255, -1, cv2.LINE_AA)
        m = (patch.astype(np.float32) / 255.0)[..., None]
        colour = np.clip(_rgb(dieset, die.paint(value)) * tint, 0, 1)
        tex = tex * (1 - m) + colour * m
    else:
        if die.kind == "theme" and die.style == "pips":
            mask = pip_mask(int(value))
        else:
            mask = glyph_mask(str(value), font, glyph_height)
        ink = _rgb(dieset, die.ink)
        m = mask[..., None]
        tex = tex * (1 - m) + ink * m
    return tex * _rim()[..., None]


# --- geometry --------------------------------------------------------------------------------

_FACES = (  # (normal, u axis, v axis) in die coordinates; u × v = -n (never mirrored)
    ((0.0, 0.0, -1.0), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0)),
    ((1.0, 0.0, 0.0), (0.0, -1.0, 0.0), (0.0, 0.0, 1.0)),
    ((-1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)),
    ((0.0, 1.0, 0.0), (1.0, 0.0, 0.0), (0.0, 0.0, 1.0)),
    ((0.0, -1.0, 0.0), (-1.0, 0.0, 0.0), (0.0, 0.0, 1.0)),
)


def _die_pose(p: DiePlacement, s: float) -> tuple[np.ndarray, np.ndarray]:
    """Rotation (die → world) and translation of a die's local frame (origin: footprint centre)."""
    yaw = math.radians(p.yaw)
    rz = np.array([[math.cos(yaw), -math.sin(yaw), 0], [math.sin(yaw), math.cos(yaw), 0], [0, 0, 1]])
    t = np.array([p.x, p.y, 0.0])
    if p.cocked:
        # Tip the die about its bottom edge at local x = +s/2: the far side lifts (z < 0 is up).
        b = -math.radians(p.cocked)
        ry = np.array([[math.cos(b), 0, math.sin(b)], [0, 1, 0], [-math.sin(b), 0, math.cos(b)]])
        pivot = np.array([s / 2, 0, 0])
        # p_world = rz (ry (q - pivot) + pivot) + t
        return rz @ ry, rz @ (pivot - ry @ pivot) + t
    return rz, t


def _face_corners(normal: np.ndarray, u: np.ndarray, v: np.ndarray, s: float) -> np.ndarray:
    h = s / 2
    c = normal * h + np.array([0, 0, -h])
    return np.array([c - u * h - v * h, c + u * h - v * h, c + u * h + v * h, c - u * h + v * h])


def top_quad_world(p: DiePlacement, s: float) -> np.ndarray:
    rot, t = _die_pose(p, s)
    n, u, v = (np.asarray(a) for a in _FACES[0])
    return _face_corners(n, u, v, s) @ rot.T + t


def _paste(img: np.ndarray, tex: np.ndarray, quad: np.ndarray, shade: float = 1.0) -> None:
    """Warp `tex` onto image quadrilateral `quad` (TL, TR, BR, BL of the texture)."""
    h, w = img.shape[:2]
    x0, y0 = np.floor(quad.min(axis=0)).astype(int) - 1
    x1, y1 = np.ceil(quad.max(axis=0)).astype(int) + 2
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, w), min(y1, h)
    if x1 <= x0 or y1 <= y0:
        return
    n = tex.shape[0]
    src = np.float32([[0, 0], [n, 0], [n, n], [0, n]])
    m = cv2.getPerspectiveTransform(src, (quad - [x0, y0]).astype(np.float32))
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpPerspective(tex * shade, m, size, flags=cv2.INTER_LINEAR)
    alpha = cv2.warpPerspective(np.ones((n, n), np.float32), m, size, flags=cv2.INTER_LINEAR)[..., None]
    roi = img[y0:y1, x0:x1]
    roi[:] = roi * (1 - alpha) + warped * alpha


def _light_vector(scene: Scene) -> np.ndarray:
    az, el = (math.radians(a) for a in scene.light_dir)
    return np.array([math.cos(el) * math.cos(az), math.cos(el) * math.sin(az), -math.sin(el)])


def _blackbody_rgb(t: float) -> np.ndarray:
    """Approximate sRGB of a black body at `t` kelvin (Tanner Helland's fit), 0..1."""
    t = t / 100.0
    r = 255.0 if t <= 66 else 329.7 * (t - 60) ** -0.1332
    g = 99.47 * math.log(t) - 161.12 if t <= 66 else 288.12 * (t - 60) ** -0.0755
    b = 255.0 if t >= 66 else (0.0 if t <= 19 else 138.52 * math.log(t - 10) - 305.04)
    return np.clip(np.array([r, g, b]) / 255.0, 0.05, 1.0)


def _hand_mask(hand: HandSpec, w: int, h: int, px_per_mm: float) -> np.ndarray:
    mask = np.zeros((h, w), np.uint8)
    palm_w, palm_l, finger = 85 * px_per_mm, 100 * px_per_mm, 75 * px_per_mm
    inward = {"left": (1, 0), "right": (-1, 0), "top": (0, 1), "bottom": (0, -1)}[hand.edge]
    a = math.radians(hand.angle)
    dx = inward[0] * math.cos(a) - inward[1] * math.sin(a)
    dy = inward[0] * math.sin(a) + inward[1] * math.cos(a)
    size = w if hand.edge in ("left", "right") else h
    if hand.edge == "left":
        ex, ey = 0.0, hand.along * h
    elif hand.edge == "right":
        ex, ey = float(w), hand.along * h
    elif hand.edge == "top":
        ex, ey = hand.along * w, 0.0
    else:
        ex, ey = hand.along * w, float(h)
    tip = hand.reach * size
    # Fingertips reach `tip` px inside; the palm sits behind them, mostly outside the frame.
    cx, cy = ex + dx * (tip - finger - palm_l / 2), ey + dy * (tip - finger - palm_l / 2)
    angle = math.degrees(math.atan2(dy, dx))
    cv2.ellipse(mask, (round(cx), round(cy)), (round(palm_l / 2), round(palm_w / 2)), angle, 0, 360, 255, -1)
    for k, length in zip((-1.5, -0.5, 0.5, 1.5), (0.85, 1.0, 0.95, 0.75), strict=True):
        ox, oy = -dy * k * palm_w / 4.4, dx * k * palm_w / 4.4
        bx, by = cx + dx * palm_l * 0.35 + ox, cy + dy * palm_l * 0.35 + oy
        tx, ty = bx + dx * finger * length, by + dy * finger * length
        cv2.line(mask, (round(bx), round(by)), (round(tx), round(ty)), 255, max(2, round(17 * px_per_mm)))
    return mask


# --- the frame -------------------------------------------------------------------------------


def render_scene(scene: Scene, dieset: DieSet) -> tuple[np.ndarray, FrameLabels]:
    """The BGR uint8 frame the camera would take of `scene`, and its exact labels."""
    cam = scene.camera
    w, h = cam.width, cam.height
    rng = np.random.default_rng([scene.seed, 7919])
    s = dieset.die_size_mm
    tw, th = dieset.tray.width_mm, dieset.tray.height_mm
    px_per_mm = cam.f / -cam.position[2]

    # Table with a low-frequency grain, then the dark tray.
    img = np.empty((h, w, 3), np.float32)
    img[:] = np.asarray(scene.table_colour, np.float32) / 255.0
    grain = cv2.resize(rng.normal(0, 0.06, (6, 48)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC)
    img *= (1 + grain)[..., None]
    tray_poly = cam.project(np.array([[0, 0, 0], [tw, 0, 0], [tw, th, 0], [0, th, 0]], float))
    tray_mask = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(tray_mask, np.round(tray_poly * 16).astype(np.int32), 255, cv2.LINE_AA, 4)
    felt = np.asarray(scene.tray_colour, np.float32) / 255.0
    felt_img = (
        felt
        * (
            1
            + cv2.resize(
                rng.normal(0, 0.05, (9, 16)).astype(np.float32), (w, h), interpolation=cv2.INTER_CUBIC
            )
            + rng.normal(0, 0.03, (h, w)).astype(np.float32)
        )[..., None]
    )
    tm = (tray_mask.astype(np.float32) / 255.0)[..., None]
    img = img * (1 - tm) + felt_img * tm

    # Markers on white paper in the tray corners.
    if scene.markers:
        t = dieset.tray
        dictionary = cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, t.marker_dictionary))
        margin = min(4.0, t.marker_inset_mm)
        paper_mm = t.marker_size_mm + 2 * margin
        n = 240
        for mid, (ox, oy) in zip(
            t.marker_ids,
            ((0, 0), (tw - paper_mm - 2 * (t.marker_inset_mm - margin), 0), (tw, th), (0, th)),
            strict=True,
        ):
            x0 = t.marker_inset_mm - margin if ox == 0 else tw - t.marker_inset_mm - t.marker_size_mm - margin
            y0 = t.marker_inset_mm - margin if oy == 0 else th - t.marker_inset_mm - t.marker_size_mm - margin
            tex = np.full((n, n), 0.93, np.float32)
            inner = round(n * t.marker_size_mm / paper_mm)
            off = (n - inner) // 2
            marker = cv2.aruco.generateImageMarker(dictionary, mid, inner).astype(np.float32) / 255.0
            tex[off : off + inner, off : off + inner] = np.where(marker > 0.5, 0.93, 0.06)
            quad = cam.project(
                np.array(
                    [
                        [x0, y0, 0],
                        [x0 + paper_mm, y0, 0],
                        [x0 + paper_mm, y0 + paper_mm, 0],
                        [x0, y0 + paper_mm, 0],
                    ]
                )
            )
            tex3 = np.repeat(tex[..., None], 3, axis=2) * np.array([1.0, 0.99, 0.96], np.float32)
            _paste(img, tex3, quad)

    # Shadows of the dice (and the hand) on the tray and table.
    light = _light_vector(scene)
    shadow = np.zeros((h, w), np.float32)
    for p in scene.dice:
        rot, t_ = _die_pose(p, s)
        local = np.array([[x, y, z] for x in (-s / 2, s / 2) for y in (-s / 2, s / 2) for z in (0.0, -s)])
        world = local @ rot.T + t_
        ground = world - light[None, :] * (world[:, 2:3] / light[2])
        pts = cam.project(ground)
        hull = cv2.convexHull(np.round(pts * 16).astype(np.int32))
        cv2.fillConvexPoly(shadow, hull, 1.0, cv2.LINE_AA, 4)
    hand_mask = None
    if scene.hand is not None:
        hand_mask = _hand_mask(scene.hand, w, h, px_per_mm)
        shift = np.float32([[1, 0, -light[0] * 30 * px_per_mm], [0, 1, -light[1] * 30 * px_per_mm]])
        shadow = np.maximum(shadow, cv2.warpAffine(hand_mask.astype(np.float32) / 255.0, shift, (w, h)))
    sigma = 1.2 * px_per_mm
    shadow = cv2.GaussianBlur(shadow, (0, 0), sigma)
    img *= (1 - scene.shadow * shadow)[..., None]

    # Dice, farthest from the camera first (painter's order).
    cpos = np.asarray(cam.position)
    font = scene.font
    ambient, top_ref = 0.45, 0.45 + 0.55 * -light[2]
    order = sorted(scene.dice, key=lambda p: -np.hypot(p.x - cpos[0], p.y - cpos[1]))
    quads: dict[str, np.ndarray] = {}
    for p in order:
        die = dieset.die(p.name)
        rot, t_ = _die_pose(p, s)
        tint = np.asarray(p.tint, np.float32)
        shown = (p.value, *p.sides)
        for i, (n_, u_, v_) in enumerate(_FACES):
            n, u, v = np.asarray(n_), np.asarray(u_), np.asarray(v_)
            corners = _face_corners(n, u, v, s) @ rot.T + t_
            normal = rot @ n
            if float(normal @ (cpos - corners.mean(axis=0))) <= 0:
                continue
            tex = face_texture(dieset, die, shown[i], font, scene.glyph_height, tint)
            shade = (ambient + 0.55 * max(0.0, float(normal @ light))) / top_ref
            quad = cam.project(corners)
            _paste(img, tex, quad, shade)
            if i == 0:
                quads[p.name] = quad

    if hand_mask is not None and scene.hand is not None:
        skin = np.asarray(scene.hand.colour, np.float32) / 255.0
        hm = cv2.GaussianBlur(hand_mask.astype(np.float32) / 255.0, (0, 0), 1.0)[..., None]
        shade = 0.85 + 0.25 * cv2.GaussianBlur(hand_mask.astype(np.float32) / 255.0, (0, 0), 25)[..., None]
        img = img * (1 - hm) + skin * shade * hm

    # Light: field × exposure × colour temperature (white balance locked at 5600 K).
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    xn, yn = xx / w - 0.5, yy / w - 0.5 * h / w
    if scene.light_kind in ("gradient", "lamps"):
        g, ang = scene.light_gradient
        field = 1 + g * (math.cos(math.radians(ang)) * xn + math.sin(math.radians(ang)) * yn) * 1.6
    else:
        sx, sy, r = scene.light_spot
        field = 0.55 + 0.6 * np.exp(
            -((xn + 0.5 - sx) ** 2 + (yn + 0.5 * h / w - sy * h / w) ** 2) / (2 * r * r)
        )
        g, ang = scene.light_gradient
        field *= 1 + 0.5 * g * (math.cos(math.radians(ang)) * xn + math.sin(math.radians(ang)) * yn)
    field *= 1 - 0.25 * (xn**2 + yn**2)  # vignetting
    gains = _blackbody_rgb(scene.temperature_k) / _blackbody_rgb(5600.0)
    gains = gains / gains.max() * 1.0
    if scene.lamp_tint:
        gains = gains * np.array([1.0, 1.0 + scene.lamp_tint, 1.0])
        gains = gains / gains.max()
    img *= (field * scene.exposure)[..., None]
    if scene.light_kind == "lamps" and scene.lamps:
        # Two lamps of their own colours over a dim ambient light of the scene's colour: the
        # light's colour changes across the tray, which no single white reference undoes.
        colour_field = 0.5 * gains.astype(np.float32) * np.ones((h, w, 1), np.float32)
        for lx, ly, lr, lt, strength in scene.lamps:
            g = _blackbody_rgb(lt) / _blackbody_rgb(5600.0)
            g = g / g.max()
            pool = np.exp(-((xn + 0.5 - lx) ** 2 + (yn + 0.5 * h / w - ly * h / w) ** 2) / (2 * lr * lr))
            colour_field += (strength * pool)[..., None] * g.astype(np.float32)
        img *= colour_field / max(float(colour_field.max()), 1e-6) * 1.15
        gains = colour_field.reshape(-1, 3).mean(axis=0) / max(float(colour_field.max()), 1e-6)
    else:
        img *= gains.astype(np.float32)

    # Glare: specular spots on glossy dice take the colour of the light, not of the die.
    for p in scene.dice:
        if p.glare > 0 and p.name in quads:
            q = quads[p.name]
            c = (
                q.mean(axis=0)
                + (q[1] - q[0]) * rng.uniform(-0.3, 0.3)
                + (q[3] - q[0]) * rng.uniform(-0.3, 0.3)
            )
            rad = np.linalg.norm(q[1] - q[0]) * rng.uniform(0.06, 0.14)
            # Only where the spot adds anything (6 sigma: under 1e-7 of its peak beyond).
            r6 = 6 * rad
            x0, x1 = max(int(c[0] - r6), 0), min(int(c[0] + r6) + 1, w)
            y0, y1 = max(int(c[1] - r6), 0), min(int(c[1] + r6) + 1, h)
            if x1 <= x0 or y1 <= y0:
                continue
            sub_x, sub_y = xx[y0:y1, x0:x1], yy[y0:y1, x0:x1]
            spot = np.exp(-((sub_x - c[0]) ** 2 + (sub_y - c[1]) ** 2) / (2 * rad * rad)) * p.glare
            img[y0:y1, x0:x1] += (spot[..., None] * gains).astype(np.float32)

    # Camera: optics, sensor noise, compression. Working in sRGB-like values is good enough.
    img = np.clip(img, 0, 1) * 255.0
    if scene.blur > 0.05:
        img = cv2.GaussianBlur(img, (0, 0), scene.blur)
    img += rng.normal(0, scene.noise, img.shape).astype(np.float32)
    out = cv2.cvtColor(np.clip(img, 0, 255).astype(np.uint8), cv2.COLOR_RGB2BGR)
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, scene.jpeg_quality])
    assert ok
    out = cv2.imdecode(buf, cv2.IMREAD_COLOR)

    touching = {n for pair in scene.touching for n in pair}
    labels: list[DieLabel] = []
    for p in scene.dice:
        quad = cam.project(top_quad_world(p, s))
        c = quad.mean(axis=0)
        inside = 0 <= c[0] < w and 0 <= c[1] < h
        covered = bool(hand_mask is not None and inside and hand_mask[int(c[1]), int(c[0])] > 0)
        labels.append(
            DieLabel(
                name=p.name,
                value=p.value,
                centre=(float(c[0]), float(c[1])),
                quad=tuple((float(x), float(y)) for x, y in quad),
                on_tray=p.on_tray,
                cocked=p.cocked > 0,
                visible=inside and not covered,
                touching=p.name in touching,
            )
        )
    hand_over = bool(hand_mask is not None and (hand_mask > 0)[tray_mask > 0].any())
    return out, FrameLabels(tuple(labels), scene.markers, scene.hand is not None, hand_over)
