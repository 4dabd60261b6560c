"""Synthetic camera frames of a tagged Djambi board, with exact labels.

The board and its stickered pieces are drawn top-down, then seen through a random camera
(perspective, rotation in any of the four seat directions), lit unevenly, with glare spots,
hands and arms reaching over the board, blur, sensor noise and JPEG compression. Everything
random comes from a `numpy.random.Generator`, so a seed reproduces a scene exactly.

Two uses:

- `render(faces, params, rng)` draws a given position, e.g. every frame of a synthetic game
  (keep one `SceneParams` for the whole game: the camera does not move between frames);
- `scene(split, index)` draws the numbered scene of a split. ``"tune"`` scenes may be used to
  tune the reader; ``"heldout"`` scenes are for the benchmark only and never for tuning.

>>> shot = render_placement("9/9/9/9/4rC4/9/9/9/9", seed=1)
>>> shot.image.shape, shot.truth["e5"]
((1080, 1920, 3), 'rC')
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.board_geometry import ALL_SQUARES, DEFAULT_GEOMETRY, MAZE, SIZE, BoardGeometry, square_center
from vision.board_read import PlacementError, format_placement, parse_placement
from vision.markers import (
    CORNER_SQUARES,
    PARTY_LETTERS,
    PIECE_COUNT,
    Face,
    Piece,
    corner_id,
    marker_image,
    piece_of,
)

SPLITS = {"tune": 1, "heldout": 2, "test": 3}
PARTY_BGR = {"red": (40, 40, 200), "blue": (190, 90, 30), "yellow": (40, 200, 230), "green": (60, 150, 40)}
SKIN_BGR = ((160, 190, 235), (120, 160, 215), (90, 130, 190), (60, 95, 150), (40, 60, 100))
SLEEVE_BGR = ((60, 60, 60), (140, 90, 40), (200, 200, 200), (40, 40, 140), (90, 120, 90))
# Board colour schemes (dark, light) in BGR: wood, green/cream, grey, brown/sand.
SCHEMES = (
    ((70, 110, 150), (150, 200, 230)),
    ((80, 120, 60), (200, 230, 235)),
    ((90, 90, 90), (200, 200, 200)),
    ((50, 70, 110), (170, 200, 215)),
)
TEXTURE_PPU = 110  # texture pixels per board unit


def _srgb_to_linear(c: np.ndarray) -> np.ndarray:
    c = np.asarray(c, dtype=np.float64) / 255.0
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def _linear_to_srgb(c: np.ndarray) -> np.ndarray:
    c = np.clip(c, 0, 1)
    return 255.0 * np.where(c <= 0.0031308, c * 12.92, 1.055 * c ** (1 / 2.4) - 0.055)


@dataclass(frozen=True)
class Hand:
    """A hand over the board: palm centre in board units, pointing direction, arm to the frame edge."""

    palm: tuple[float, float]
    angle: float  # radians, direction the fingers point in image space
    size: float  # palm length in board units
    skin: tuple[int, int, int]
    sleeve: tuple[int, int, int]


@dataclass(frozen=True)
class SceneParams:
    """Everything that makes one frame look the way it does, except the position itself."""

    image_size: tuple[int, int] = (1920, 1080)  # width, height
    board_to_image: tuple[tuple[float, ...], ...] = ()  # 3×3 homography; empty = a default view
    scheme: int = 0
    piece_diameter: float = 0.78  # in squares
    max_offset: float = 0.12  # piece centre off the square centre, in squares, per axis
    gain: tuple[float, float, float] = (0.0, 0.0, 0.0)  # lighting: level offset, x and y slopes
    tint: tuple[float, float, float] = (1.0, 1.0, 1.0)  # B, G, R multipliers (white balance)
    vignette: float = 0.0
    glare: tuple[tuple[float, float, float, float], ...] = ()  # (x, y, sigma px, amplitude 0–255)
    hands: tuple[Hand, ...] = ()
    blur: float = 0.0  # Gaussian sigma in pixels
    noise: float = 2.0  # sensor noise sigma (0–255 scale)
    jpeg: int = 92  # 0 = no JPEG round trip
    geometry: BoardGeometry = field(default_factory=lambda: DEFAULT_GEOMETRY)

    def homography(self) -> np.ndarray:
        if self.board_to_image:
            return np.array(self.board_to_image, dtype=np.float64)
        return default_view(self.image_size)


@dataclass(frozen=True)
class Shot:
    """A rendered frame and its exact labels.

    ``truth``: square → token for every square (``""`` empty). ``hidden``: square → fraction of
    the square's area covered by a hand. ``marker_hidden``: for occupied squares, the largest
    hand coverage anywhere the piece's marker could be (a cautious bound).
    ``hide``: square → the largest fraction of a piece's footprint that a hand could cover on
    this square (1.0: a whole piece could stand there unseen; nobody can tell from the picture
    whether the square is empty). ``marker_cover``: occupied square → the exact fraction of its
    piece's marker, with the one-cell white margin around it, under a hand.
    """

    image: np.ndarray
    truth: dict[str, str]
    faces: dict[str, Face]
    hidden: dict[str, float]
    marker_hidden: dict[str, float]
    params: SceneParams
    hide: dict[str, float] = field(default_factory=dict)
    marker_cover: dict[str, float] = field(default_factory=dict)

    @property
    def placement(self) -> str:
        return format_placement({sq: t for sq, t in self.truth.items() if t})


def view(
    image_size: tuple[int, int], *, side: float, center: tuple[float, float], turn: float, keystone: float
) -> np.ndarray:
    """A board→image homography: the board's outer square (corner markers included) drawn as a
    square of ``side`` px around ``center``, turned by ``turn`` radians, one edge shortened by
    ``keystone`` (a tilted camera)."""
    lo, hi = -1.0, SIZE + 1.0
    src = np.array([[lo, hi], [hi, hi], [hi, lo], [lo, lo]], dtype=np.float32)
    h = side / 2
    pts = np.array([[-h, -h], [h, -h], [h, h], [-h, h]], dtype=np.float64)
    pts[0, 0] += keystone * h
    pts[1, 0] -= keystone * h  # far edge shorter: the camera looks from the near side
    c, s = math.cos(turn), math.sin(turn)
    rot = np.array([[c, -s], [s, c]])
    dst = (pts @ rot.T + np.array(center)).astype(np.float32)
    return cv2.getPerspectiveTransform(src, dst).astype(np.float64)


def default_view(image_size: tuple[int, int]) -> np.ndarray:
    w, h = image_size
    return view(image_size, side=0.94 * min(w, h), center=(w / 2, h / 2), turn=0.0, keystone=0.0)


def faces_from_placement(placement: str | Mapping[str, str]) -> dict[str, Face]:
    """Give each token of a placement a physical piece: militants numbered in square order,
    corpses given the dead faces of pieces that are not on the board alive (lowest first).

    Raises PlacementError for more pieces of a kind than a party owns, or for ``??``.
    """
    tokens = parse_placement(placement) if isinstance(placement, str) else dict(placement)
    faces: dict[str, Face] = {}
    used: set[int] = set()
    for sq in ALL_SQUARES:
        tok = tokens.get(sq)
        if tok is None or tok == "xx":
            continue
        if tok == "??":
            raise PlacementError(f"{sq}: a scene cannot show an unknown square (??)")
        candidates = [piece_of(tok, m) for m in range(1, 5)] if tok[1] == "M" else [piece_of(tok)]
        free = [p for p in candidates if p.index not in used]
        if not free:
            raise PlacementError(f"{sq}: one {tok} too many for one party")
        used.add(free[0].index)
        faces[sq] = Face(free[0], dead=False)
    dead_pool = [i for i in range(PIECE_COUNT) if i not in used]
    for sq in ALL_SQUARES:
        if tokens.get(sq) == "xx":
            if not dead_pool:
                raise PlacementError("more corpses than pieces left")
            faces[sq] = Face(Piece(dead_pool.pop(0)), dead=True)
    return faces


def _sticker(
    face: Face, diameter_px: int, rng: np.random.Generator, ratio: float
) -> tuple[np.ndarray, np.ndarray]:
    """The top of a piece, drawn upright: BGR patch and alpha mask, ``diameter_px`` wide."""
    n = diameter_px
    img = np.zeros((n, n, 3), np.uint8)
    alpha = np.zeros((n, n), np.uint8)
    c = (n - 1) / 2
    body = PARTY_BGR[face.piece.party]
    cv2.circle(img, (round(c), round(c)), n // 2, body, -1, cv2.LINE_AA)
    cv2.circle(alpha, (round(c), round(c)), n // 2, 255, -1, cv2.LINE_AA)
    # White paper up to 0.47 D; the piece's own colour shows as a rim. Nothing dark may come
    # near the marker's corners, or its black border merges with it and the quad is lost.
    paper = int(rng.integers(200, 215)) if face.dead else int(rng.integers(228, 250))
    cv2.circle(img, (round(c), round(c)), int(n * 0.47), (paper, paper, paper), -1, cv2.LINE_AA)
    m = round(ratio * n)
    marker = cv2.cvtColor(marker_image(face.marker_id, m), cv2.COLOR_GRAY2BGR)
    x0 = round(c - m / 2)
    img[x0 : x0 + m, x0 : x0 + m] = marker
    text = ("+" + face.piece.token) if face.dead else face.piece.token
    scale = n / 190
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
    cv2.putText(
        img,
        text,
        (round(c - tw / 2), round(x0 + m + th + n * 0.03)),
        cv2.FONT_HERSHEY_SIMPLEX,
        scale,
        (30, 30, 30),
        1,
        cv2.LINE_AA,
    )
    return img, alpha


def _board_texture(
    params: SceneParams, faces: Mapping[str, Face], rng: np.random.Generator
) -> tuple[np.ndarray, float, np.ndarray]:
    """The board seen straight from above; returns (texture, origin offset in units, piece
    poses: square → (x, y, turn in degrees), the sticker's centre in board units)."""
    g = params.geometry
    margin = 1.25
    ppu = TEXTURE_PPU
    n = round((SIZE + 2 * margin) * ppu)
    dark, light = (np.array(c, np.float64) for c in SCHEMES[params.scheme % len(SCHEMES)])
    frame = 0.55 * dark + 0.45 * np.array([40, 40, 40])
    tex = np.empty((n, n, 3), np.float64)
    tex[:] = frame

    def px(x: float, y: float) -> tuple[float, float]:
        return (x + margin) * ppu, (SIZE + margin - y) * ppu

    maze_lin = _srgb_to_linear(dark[::-1]) * np.exp(np.array(g.class_offsets.get(2, (0, 0, 0))))
    maze = _linear_to_srgb(maze_lin)[::-1]
    for sq in ALL_SQUARES:
        cls = g.class_of(sq)
        colour = dark if cls == 0 else light if cls == 1 else maze
        x, y = square_center(sq)
        u0, v0 = px(x - 0.5, y + 0.5)
        tex[round(v0) : round(v0 + ppu), round(u0) : round(u0 + ppu)] = colour
    # Wood grain / print texture: low-amplitude smooth noise.
    grain = cv2.resize(rng.normal(0, 1, (n // 16, n // 16)), (n, n), interpolation=cv2.INTER_CUBIC)
    tex *= (1 + 0.03 * grain)[..., None]
    tex = np.clip(tex, 0, 255).astype(np.uint8)
    line = tuple(int(v) for v in (0.4 * dark))
    for i in range(SIZE + 1):
        a, b = px(i, 0), px(i, SIZE)
        cv2.line(tex, (round(a[0]), round(a[1])), (round(b[0]), round(b[1])), line, 2, cv2.LINE_AA)
        a, b = px(0, i), px(SIZE, i)
        cv2.line(tex, (round(a[0]), round(a[1])), (round(b[0]), round(b[1])), line, 2, cv2.LINE_AA)
    # Corner stickers: white square with one cell of quiet zone, marker upright for Red.
    for sq, pts in ((s, g.corner_marker_points()[corner_id(s)]) for s in CORNER_SQUARES):
        side = g.corner_side
        cell = side / 7
        tl = px(pts[0][0] - cell, pts[0][1] + cell)
        q = round((side + 2 * cell) * ppu)
        cv2.rectangle(
            tex, (round(tl[0]), round(tl[1])), (round(tl[0]) + q, round(tl[1]) + q), (235, 235, 235), -1
        )
        mk = round(side * ppu)
        m0 = px(pts[0][0], pts[0][1])
        tex[round(m0[1]) : round(m0[1]) + mk, round(m0[0]) : round(m0[0]) + mk] = marker_image(
            corner_id(sq), mk
        )[..., None]
    # Pieces: shadow, body, sticker, each turned at random and a little off-centre.
    d = round(params.piece_diameter * ppu)
    poses: dict[str, tuple[float, float, float]] = {}
    shadow = np.zeros((n, n), np.float32)
    placed = []
    for sq, face in faces.items():
        x, y = square_center(sq)
        x += rng.uniform(-params.max_offset, params.max_offset)
        y += rng.uniform(-params.max_offset, params.max_offset)
        u, v = px(x, y)
        placed.append((face, u, v, rng.uniform(0, 360)))
        poses[sq] = (x, y, placed[-1][3])
        cv2.circle(shadow, (round(u + 0.06 * ppu), round(v + 0.06 * ppu)), d // 2, 1.0, -1)
    if placed:
        shadow = cv2.GaussianBlur(shadow, (0, 0), ppu * 0.05)
        tex = (tex * (1 - 0.35 * shadow[..., None])).astype(np.uint8)
    for face, u, v, ang in placed:
        patch, alpha = _sticker(face, d, rng, g.piece_marker_ratio)
        rot = cv2.getRotationMatrix2D(((d - 1) / 2, (d - 1) / 2), ang, 1.0)
        rot[:, 2] += (u - (d - 1) / 2, v - (d - 1) / 2)
        x0, y0 = math.floor(u - d), math.floor(v - d)
        x0, y0 = max(x0, 0), max(y0, 0)
        w = min(2 * d, n - x0)
        h = min(2 * d, n - y0)
        rot[:, 2] -= (x0, y0)
        p = cv2.warpAffine(patch, rot, (w, h), flags=cv2.INTER_LINEAR)
        a = cv2.warpAffine(alpha, rot, (w, h), flags=cv2.INTER_LINEAR).astype(np.float32)[..., None] / 255
        region = tex[y0 : y0 + h, x0 : x0 + w]
        region[:] = (region * (1 - a) + p * a).astype(np.uint8)
    return tex, margin, poses


def _hand_mask(params: SceneParams, hand: Hand, H: np.ndarray) -> np.ndarray:
    w, h = params.image_size
    mask = np.zeros((h, w), np.uint8)
    c = cv2.perspectiveTransform(np.array([[hand.palm]], np.float64), H)[0, 0]
    # Pixels per board unit around the palm.
    e = cv2.perspectiveTransform(np.array([[(hand.palm[0] + 1, hand.palm[1])]], np.float64), H)[0, 0]
    ppu = float(np.linalg.norm(e - c))
    ax = np.array([math.cos(hand.angle), math.sin(hand.angle)])
    nx = np.array([-ax[1], ax[0]])
    L = hand.size * ppu
    cv2.ellipse(
        mask,
        (round(c[0]), round(c[1])),
        (round(0.55 * L), round(0.45 * L)),
        math.degrees(hand.angle),
        0,
        360,
        255,
        -1,
        cv2.LINE_AA,
    )
    for i, (off, ln) in enumerate(((-0.3, 0.75), (-0.1, 0.85), (0.1, 0.8), (0.28, 0.65))):
        base = c + ax * 0.4 * L + nx * off * L
        tip = base + ax * ln * L
        cv2.line(
            mask,
            (round(base[0]), round(base[1])),
            (round(tip[0]), round(tip[1])),
            255,
            max(2, round(0.17 * L)),
            cv2.LINE_AA,
        )
        if i == 0:  # the thumb, sideways
            t0 = c - nx * 0.35 * L
            t1 = t0 - nx * 0.45 * L + ax * 0.35 * L
            cv2.line(
                mask,
                (round(t0[0]), round(t0[1])),
                (round(t1[0]), round(t1[1])),
                255,
                max(2, round(0.2 * L)),
                cv2.LINE_AA,
            )
    # Arm: from the palm backwards to far outside the frame.
    back = c - ax * 4 * max(w, h)
    cv2.line(
        mask,
        (round(c[0]), round(c[1])),
        (round(back[0]), round(back[1])),
        255,
        max(3, round(0.8 * L)),
        cv2.LINE_AA,
    )
    return mask


def render(faces: Mapping[str, Face], params: SceneParams, rng: np.random.Generator | int = 0) -> Shot:
    """Draw the position ``faces`` (square → piece face up) as the camera of ``params`` sees it."""
    rng = np.random.default_rng(rng) if isinstance(rng, int) else rng
    w, h = params.image_size
    tex, margin, poses = _board_texture(params, faces, rng)
    H = params.homography()
    t2b = np.array([[1 / TEXTURE_PPU, 0, -margin], [0, -1 / TEXTURE_PPU, SIZE + margin], [0, 0, 1]])
    # Table: a smooth random colour field behind the board.
    table = cv2.resize(rng.uniform(40, 110, (6, 10, 3)), (w, h), interpolation=cv2.INTER_CUBIC).astype(
        np.uint8
    )
    img = cv2.warpPerspective(
        tex, H @ t2b, (w, h), dst=table, flags=cv2.INTER_AREA, borderMode=cv2.BORDER_TRANSPARENT
    )
    f = img.astype(np.float32)
    # Hands: shadow first, then the hand itself with shading.
    hand_mask = np.zeros((h, w), np.float32)
    for hand in params.hands:
        m = _hand_mask(params, hand, H).astype(np.float32) / 255
        sh = cv2.GaussianBlur(np.roll(m, (25, 18), axis=(0, 1)), (0, 0), 12)
        f *= (1 - 0.45 * sh)[..., None]
        hand_mask = np.maximum(hand_mask, m)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        c = cv2.perspectiveTransform(np.array([[hand.palm]], np.float64), H)[0, 0]
        shade = 1.0 + 0.25 * np.tanh(
            ((xx - c[0]) * math.cos(hand.angle + 1.2) + (yy - c[1]) * math.sin(hand.angle + 1.2)) / 150
        )
        ax = np.array([math.cos(hand.angle), math.sin(hand.angle)])
        along = (xx - c[0]) * ax[0] + (yy - c[1]) * ax[1]
        sleeve = (along < -0.9 * hand.size * 90)[..., None]
        colour = np.where(sleeve, np.array(hand.sleeve, np.float32), np.array(hand.skin, np.float32))
        skin = colour * shade[..., None]
        f = f * (1 - m[..., None]) + skin * m[..., None]
    # Lighting: a smooth gain field with a colour tint, a vignette, glare spots.
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    xn, yn = xx / w - 0.5, yy / h - 0.5
    gain = 1 + params.gain[0] + params.gain[1] * xn + params.gain[2] * yn - params.vignette * (xn**2 + yn**2)
    f *= gain[..., None] * np.array(params.tint, np.float32)
    # Auto-exposure: like a camera, keep the brightest of the board just below clipping.
    top = float(np.percentile(f[::8, ::8], 99.5))
    if top > 245:
        f *= 245 / top
    if params.glare:
        # Glare is light reflected off the surface: it adds in linear light, tinted like the lamp.
        lin = (np.clip(f, 0, 255) / 255) ** 2.2
        for gx, gy, gs, ga in params.glare:
            spot = (ga / 255) * np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * gs * gs))
            lin += spot[..., None] * np.array(params.tint, np.float32)
        f = 255 * np.clip(lin, 0, 1) ** (1 / 2.2)
    if params.blur > 0:
        f = cv2.GaussianBlur(f, (0, 0), params.blur)
    if params.noise > 0:
        f += rng.normal(0, params.noise, f.shape).astype(np.float32)
    img = np.clip(f, 0, 255).astype(np.uint8)
    if params.jpeg:
        _, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, params.jpeg])
        decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        assert decoded is not None  # we just encoded it
        img = decoded
    hidden, marker_hidden = _coverage(hand_mask, H, faces, params)
    hide, marker_cover = _hiding(hand_mask, H, poses, params)
    truth = {sq: (faces[sq].token if sq in faces else "") for sq in ALL_SQUARES}
    return Shot(img, truth, dict(faces), hidden, marker_hidden, params, hide, marker_cover)


def _coverage(
    hand_mask: np.ndarray, H: np.ndarray, faces: Mapping[str, Face], params: SceneParams
) -> tuple[dict[str, float], dict[str, float]]:
    """Fraction of each square, and of each piece's central marker area, under a hand."""
    ppu = 20
    t2b = np.array([[1 / ppu, 0, 0], [0, -1 / ppu, SIZE], [0, 0, 1]])
    top = (
        cv2.warpPerspective(
            hand_mask, H @ t2b, (SIZE * ppu, SIZE * ppu), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP
        )
        if False
        else cv2.warpPerspective(hand_mask, np.linalg.inv(H @ t2b), (SIZE * ppu, SIZE * ppu))
    )
    hidden, marker_hidden = {}, {}
    half = params.piece_diameter * params.geometry.piece_marker_ratio / 2
    for sq in ALL_SQUARES:
        x, y = square_center(sq)
        u0, v0 = round((x - 0.5) * ppu), round((SIZE - y - 0.5) * ppu)
        hidden[sq] = float(top[v0 : v0 + ppu, u0 : u0 + ppu].mean())
        if sq in faces:
            # The marker lies within max_offset of the centre: take the union of its positions.
            r = (half + params.max_offset) * ppu
            cu, cv = (x * ppu, (SIZE - y) * ppu)
            marker_hidden[sq] = float(top[round(cv - r) : round(cv + r), round(cu - r) : round(cu + r)].max())
    return hidden, marker_hidden


def _hiding(
    hand_mask: np.ndarray, H: np.ndarray, poses: Mapping[str, tuple[float, float, float]], params: SceneParams
) -> tuple[dict[str, float], dict[str, float]]:
    """How much a hand hides, exactly: for every square, the largest fraction of a piece's
    footprint that could be under a hand, over every place the piece could stand on the square
    (centre within ``max_offset`` of the square's centre; 1.0 = a whole piece could be hidden);
    for every piece, the fraction of its marker (with the white margin of one marker cell that
    a detector needs around it) under a hand."""
    ppu = 40
    to_top = np.linalg.inv(H @ np.array([[1 / ppu, 0, 0], [0, -1 / ppu, SIZE], [0, 0, 1]]))
    top = cv2.warpPerspective(hand_mask, to_top, (SIZE * ppu, SIZE * ppu)) > 0.5
    r = round(params.piece_diameter / 2 * ppu)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1,) * 2).astype(np.float32)
    covered = cv2.filter2D(top.astype(np.float32), -1, disc / disc.sum(), borderType=cv2.BORDER_CONSTANT)
    box = round(params.max_offset * ppu)
    hide = {}
    for sq in ALL_SQUARES:
        x, y = square_center(sq)
        cu, cv = round(x * ppu), round((SIZE - y) * ppu)
        hide[sq] = min(1.0, round(float(covered[cv - box : cv + box + 1, cu - box : cu + box + 1].max()), 4))
    marker_cover = {}
    # The marker and the one-cell white margin a detector needs around it (7 cells + 2).
    half = params.piece_diameter * params.geometry.piece_marker_ratio / 2 * 9 / 7
    for sq, (x, y, turn) in poses.items():
        # The sticker is turned by ``turn`` degrees counter-clockwise as drawn (image y down).
        c, s = math.cos(math.radians(turn)), math.sin(math.radians(turn))
        corners = [
            (x + c * dx + s * dy, y - s * dx + c * dy)
            for dx, dy in ((-half, -half), (half, -half), (half, half), (-half, half))
        ]
        quad = np.array([[px * ppu, (SIZE - py) * ppu] for px, py in corners], np.float32)
        m = np.zeros(top.shape, np.uint8)
        cv2.fillConvexPoly(m, np.round(quad).astype(np.int32), 1)
        marker_cover[sq] = float((top & (m > 0)).sum()) / max(1, int(m.sum()))
    return hide, marker_cover


def random_params(rng: np.random.Generator, image_size: tuple[int, int] = (1920, 1080)) -> SceneParams:
    """A random camera, board scheme and set of nuisances, in the ranges the benchmark uses."""
    w, h = image_size
    side = rng.uniform(0.82, 0.97) * min(w, h)
    keystone = rng.uniform(0.0, 0.18)
    turn = rng.integers(0, 4) * math.pi / 2 + rng.uniform(-0.15, 0.15)
    slack = (min(w, h) - side) / 2
    center = (w / 2 + rng.uniform(-0.5, 0.5) * (w - side) / 2, h / 2 + rng.uniform(-slack, slack) * 0.5)
    H = view(image_size, side=side, center=center, turn=float(turn), keystone=float(keystone))
    glare = []
    for _ in range(int(rng.choice([0, 0, 1, 1, 2]))):
        glare.append(
            (rng.uniform(0.2, 0.8) * w, rng.uniform(0.2, 0.8) * h, rng.uniform(30, 120), rng.uniform(30, 110))
        )
    hands = []
    for _ in range(int(rng.choice([0, 0, 0, 1, 1, 2]))):
        hands.append(
            Hand(
                palm=(float(rng.uniform(0, SIZE)), float(rng.uniform(0, SIZE))),
                angle=float(rng.uniform(0, 2 * math.pi)),
                size=float(rng.uniform(1.3, 2.0)),
                skin=tuple(int(v) for v in SKIN_BGR[rng.integers(len(SKIN_BGR))]),  # type: ignore[arg-type]
                sleeve=tuple(int(v) for v in SLEEVE_BGR[rng.integers(len(SLEEVE_BGR))]),  # type: ignore[arg-type]
            )
        )
    return SceneParams(
        image_size=image_size,
        board_to_image=tuple(tuple(float(v) for v in row) for row in H),
        scheme=int(rng.integers(len(SCHEMES))),
        piece_diameter=float(rng.uniform(0.7, 0.85)),
        max_offset=float(rng.uniform(0.05, 0.15)),
        gain=(float(rng.uniform(-0.25, 0.1)), float(rng.uniform(-0.4, 0.4)), float(rng.uniform(-0.4, 0.4))),
        tint=tuple(float(v) for v in rng.uniform(0.85, 1.15, 3)),  # type: ignore[arg-type]
        vignette=float(rng.uniform(0, 0.8)),
        glare=tuple(tuple(float(v) for v in g) for g in glare),  # type: ignore[misc]
        hands=tuple(hands),
        blur=float(rng.choice([0.0, rng.uniform(0.3, 1.4)])),
        noise=float(rng.uniform(1.0, 5.0)),
        jpeg=int(rng.integers(60, 96)),
    )


def random_position(rng: np.random.Generator) -> dict[str, Face]:
    """A plausible mid-game position: some pieces alive, some corpses, the maze legal."""
    order = rng.permutation(PIECE_COUNT)
    n_alive = int(rng.integers(6, PIECE_COUNT + 1))
    n_dead = int(rng.integers(0, min(14, PIECE_COUNT - n_alive) + 1))
    squares = [s for s in ALL_SQUARES if s != MAZE]
    rng.shuffle(squares)
    faces: dict[str, Face] = {}
    pieces = [Face(Piece(int(i)), dead=False) for i in order[:n_alive]]
    pieces += [Face(Piece(int(i)), dead=True) for i in order[n_alive : n_alive + n_dead]]
    # Only a living chief or a corpse may stand in the maze.
    maze_ok = [f for f in pieces if f.dead or f.piece.kind == "chief"]
    if maze_ok and rng.random() < 0.4:
        pick = maze_ok[int(rng.integers(len(maze_ok)))]
        faces[MAZE] = pick
        pieces.remove(pick)
    for face, sq in zip(pieces, squares, strict=False):
        faces[sq] = face
    return faces


def initial_position() -> dict[str, Face]:
    """The standard setup (djambi.md §1.3)."""
    layout = {
        "r": ("a1", "b1", "a2", "b2", "c3", ("c1", "c2", "a3", "b3")),
        "b": ("i1", "h1", "i2", "h2", "g3", ("g1", "g2", "h3", "i3")),
        "y": ("i9", "h9", "i8", "h8", "g7", ("g9", "g8", "h7", "i7")),
        "g": ("a9", "b9", "a8", "b8", "c7", ("c9", "c8", "a7", "b7")),
    }
    faces = {}
    for p in PARTY_LETTERS:
        chief, assassin, reporter, diplomat, necro, militants = layout[p]
        for sq, k in ((chief, "C"), (assassin, "A"), (reporter, "R"), (diplomat, "D"), (necro, "N")):
            faces[sq] = Face(piece_of(p + k), dead=False)
        for i, sq in enumerate(militants):
            faces[sq] = Face(piece_of(p + "M", i + 1), dead=False)
    return faces


def scene(split: str, index: int) -> Shot:
    """Scene number ``index`` of a split (``tune``, ``heldout`` or ``test``), reproducibly."""
    if split not in SPLITS:
        raise ValueError(f"unknown split {split!r}; one of {', '.join(SPLITS)}")
    rng = np.random.default_rng([SPLITS[split], index])
    params = random_params(rng)
    faces = initial_position() if rng.random() < 0.1 else random_position(rng)
    return render(faces, params, rng)


def render_placement(
    placement: str | Mapping[str, str], params: SceneParams | None = None, seed: int = 0
) -> Shot:
    """Draw a placement string (or square → token map); identities as `faces_from_placement`."""
    return render(faces_from_placement(placement), params or SceneParams(), np.random.default_rng(seed))


__all__ = [
    "Hand",
    "SceneParams",
    "Shot",
    "default_view",
    "faces_from_placement",
    "initial_position",
    "random_params",
    "random_position",
    "render",
    "render_placement",
    "scene",
    "view",
]
