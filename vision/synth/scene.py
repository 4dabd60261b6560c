"""Random scenes of the dice tray: everything the renderer draws, decided from a seed.

A scene is data (camera, tray, dice with their faces, lighting, camera defects), so the labels
are exact and a scene can be rebuilt from ``(split, seed)`` alone. Two splits never share fonts
or lighting: ``tune`` is what the reader's templates and thresholds were chosen on, ``heldout``
is only ever measured (bench/bench_dice.py).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import numpy as np

from vision.dieset import DieSet, DieSpec, FaceValue

FONT_DIRS = (Path("/usr/share/fonts"), Path("/usr/local/share/fonts"))

# Bold sans-serif faces: the reader's templates are made from the tune fonts; the held-out
# fonts are never seen while tuning (Debian packages: fonts-dejavu-core, fonts-dejavu-extra,
# fonts-liberation for tune; fonts-freefont-ttf, fonts-open-sans, fonts-lato, fonts-roboto-unhinted,
# fonts-clear-sans for heldout).
TUNE_FONTS = ("DejaVuSans-Bold.ttf", "LiberationSans-Bold.ttf", "DejaVuSansCondensed-Bold.ttf")
HELDOUT_FONTS = (
    "FreeSansBold.ttf",
    "OpenSans-Bold.ttf",
    "Lato-Bold.ttf",
    "Roboto-Bold.ttf",
    "ClearSans-Bold.ttf",
)
# The glyph classifier (vision/dice_glyphs.py) is trained on *train* and its thresholds chosen
# on *val*: more bold sans-serifs, none of them a held-out font or one derived from one (no
# Nimbus Sans / TeX Gyre Heros, which FreeSans copies; no Noto or Droid Sans, the Open Sans
# family; no Carlito, which is Lato; no Roboto or Clear Sans weights). Both use the tune lighting.
TRAIN_FONTS = (
    *TUNE_FONTS,
    "LiberationSansNarrow-Bold.ttf",
    "Cantarell-Bold.otf",
    "Inter-Bold.otf",
    "Cabin-Bold.otf",
    "B612-Bold.otf",
    "Manrope-Bold.ttf",
    "Oxygen-Sans-Bold.ttf",
    "Go-Bold.ttf",
    "Sora-Bold.otf",
    "GilliusADF-Bold.otf",
    "UniversalisADFStd-Bold.otf",
    "Andika-Bold.ttf",
)
VAL_FONTS = ("PTS75F.ttf", "Play-Bold.ttf", "tiresias_infofont_bold.ttf", "Karla-Bold.otf")
FONT_PACKAGES = (
    "fonts-dejavu-core fonts-dejavu-extra fonts-liberation "
    "fonts-freefont-ttf fonts-open-sans fonts-lato fonts-roboto-unhinted fonts-clear-sans"
)
TRAIN_FONT_PACKAGES = (
    "fonts-cantarell fonts-inter fonts-cabin fonts-b612 fonts-manrope fonts-oxygen fonts-go "
    "fonts-sora fonts-adf-gillius fonts-adf-universalis fonts-sil-andika "
    "fonts-paratype fonts-play fonts-tiresias fonts-karla"
)

# Appending keeps each split's seed stream (the split's index is part of the seed).
SPLITS = ("tune", "heldout", "train", "val", "val-light", "val-lamps")
TRAY_COLOURS = ((22, 22, 24), (18, 34, 26), (20, 26, 44), (38, 28, 22), (30, 30, 32), (12, 12, 12))
TABLE_COLOURS = ((150, 110, 70), (190, 160, 120), (110, 80, 55), (200, 200, 195), (90, 95, 100))
SKIN_COLOURS = ((224, 172, 138), (198, 134, 100), (141, 85, 60), (236, 192, 160), (96, 60, 40))


class FontMissing(RuntimeError):
    """A font file the renderer needs is not installed."""


@cache
def font_path(filename: str) -> Path:
    """Where a font file is installed; raises FontMissing naming the Debian packages."""
    for root in FONT_DIRS:
        if root.is_dir():
            for found in root.rglob(filename):
                return found
    raise FontMissing(
        f"font {filename} is not installed; apt-get install {FONT_PACKAGES} (training: {TRAIN_FONT_PACKAGES})"
    )


@dataclass(frozen=True)
class CameraSpec:
    """A pinhole camera above the tray. World: millimetres, x right, y down the tray, z into it."""

    width: int
    height: int
    f: float
    cx: float
    cy: float
    position: tuple[float, float, float]  # z < 0: above the tray
    rotation: tuple[float, float, float]  # small tilts about x and y, then yaw about z (degrees)

    def matrix(self) -> np.ndarray:
        return np.array([[self.f, 0, self.cx], [0, self.f, self.cy], [0, 0, 1]], dtype=np.float64)

    def rotation_matrix(self) -> np.ndarray:
        rx, ry, rz = (math.radians(a) for a in self.rotation)
        cx_, sx = math.cos(rx), math.sin(rx)
        cy_, sy = math.cos(ry), math.sin(ry)
        cz, sz = math.cos(rz), math.sin(rz)
        mx = np.array([[1, 0, 0], [0, cx_, -sx], [0, sx, cx_]])
        my = np.array([[cy_, 0, sy], [0, 1, 0], [-sy, 0, cy_]])
        mz = np.array([[cz, -sz, 0], [sz, cz, 0], [0, 0, 1]])
        return mz @ my @ mx

    def project(self, points: np.ndarray) -> np.ndarray:
        """World points (N, 3) → image points (N, 2)."""
        p = (points - np.asarray(self.position)) @ self.rotation_matrix().T
        uv = p[:, :2] / p[:, 2:3]
        return uv * self.f + np.array([self.cx, self.cy])


@dataclass(frozen=True)
class DiePlacement:
    """One die on (or off) the tray: what it shows on top and how it lies."""

    name: str
    value: FaceValue
    x: float  # centre of the footprint, mm
    y: float
    yaw: float  # degrees
    sides: tuple[FaceValue, FaceValue, FaceValue, FaceValue]  # faces on the four sides
    cocked: float = 0.0  # degrees of tilt about a bottom edge; 0 = flat on the tray
    on_tray: bool = True
    glare: float = 0.0  # strength of a specular highlight on the top face (0 = none)
    tint: tuple[float, float, float] = (1.0, 1.0, 1.0)  # this die's small colour difference


@dataclass(frozen=True)
class HandSpec:
    """A hand reaching in from an image edge."""

    edge: str  # "left", "right", "top", "bottom"
    along: float  # 0..1 position along that edge
    reach: float  # how far into the image (fraction of the image size)
    angle: float  # degrees off the perpendicular
    colour: tuple[int, int, int]


@dataclass(frozen=True)
class Scene:
    """Everything one rendered frame shows; the labels follow from it exactly."""

    split: str
    seed: int
    camera: CameraSpec
    dice: tuple[DiePlacement, ...]
    font: str
    markers: bool
    tray_colour: tuple[int, int, int]
    table_colour: tuple[int, int, int]
    light_kind: str  # "gradient" or "spot"
    light_gradient: tuple[float, float]  # strength, direction (degrees)
    light_spot: tuple[float, float, float]  # x, y (fractions of the image), radius (fraction)
    exposure: float
    temperature_k: float
    light_dir: tuple[float, float]  # azimuth, elevation (degrees) of the key light
    shadow: float  # shadow darkness 0..1
    blur: float  # Gaussian sigma in pixels
    noise: float  # sigma in grey levels
    jpeg_quality: int
    hand: HandSpec | None = None
    glyph_height: float = 0.56
    touching: tuple[tuple[str, str], ...] = field(default_factory=tuple)
    # Only the val-lamps split sets these (every other split's scenes are unchanged):
    # a green (+) or magenta (-) cast of fluorescent tubes and cheap LEDs, as a gain on green;
    lamp_tint: float = 0.0
    # for light_kind "lamps": two lamps of their own colours, each (x, y, radius as fractions
    # of the image, colour temperature K, strength), over a dim ambient light.
    lamps: tuple[tuple[float, float, float, float, float], ...] = ()


def _split_params(split: str) -> dict[str, object]:
    if split == "tune":
        return {"fonts": TUNE_FONTS, "temps": ((4200.0, 6800.0),), "lights": ("gradient",)}
    if split == "val-light":
        # Lamps colder and warmer than any other split's (neither tune nor held-out lighting):
        # to study the reader's colour constancy without touching the held-out lighting.
        # Its gradients are also steeper (up to ±100 % across the tray), a harsher unevenness
        # than any other split's gradient, though not the held-out spot lamps.
        return {
            "fonts": VAL_FONTS,
            "temps": ((2300.0, 2700.0), (9500.0, 11000.0)),
            "lights": ("gradient",),
            "gradient_scale": 2.4,
        }
    if split in ("train", "val"):
        fonts = TRAIN_FONTS if split == "train" else VAL_FONTS
        return {"fonts": fonts, "temps": ((4200.0, 6800.0),), "lights": ("gradient",)}
    if split == "val-lamps":
        # Tuning lamps that no held-out frame has (those are 2800-4000 K and 7000-9000 K, one
        # spot lamp or a gradient): colder and warmer light, green or magenta casts, two lamps
        # of different colours over a dim room (the colour changes across the tray), dim
        # light, and gradients twice as steep. Found faults here, never on held-out frames.
        return {
            "fonts": VAL_FONTS,
            "temps": ((2000.0, 2700.0), (4200.0, 6800.0), (9500.0, 12000.0)),
            "lights": ("lamps", "gradient", "lamps"),
            "gradient_scale": 2.0,
            "extra": True,
        }
    if split == "heldout":
        return {
            "fonts": HELDOUT_FONTS,
            "temps": ((2800.0, 4000.0), (7000.0, 9000.0)),
            "lights": ("spot", "spot", "gradient"),
        }
    raise ValueError(f"unknown split {split!r}; use one of {', '.join(SPLITS)}")


@dataclass(frozen=True)
class SceneOptions:
    """How often the awkward cases happen (probabilities per scene)."""

    p_markers: float = 0.6
    p_hand_edge: float = 0.2  # a hand at the image edge, off the dice
    p_cocked: float = 0.0
    p_touching: float = 0.0
    p_off_tray: float = 0.0
    p_glare: float = 0.15  # per die
    p_on_marker: float = 0.0  # a die lying on a marker's paper (drawn only when above 0)
    width: int = 1280
    height: int = 720


def _sides(rng: np.random.Generator, die: DieSpec, top: FaceValue) -> tuple[FaceValue, ...]:
    others = [f for f in die.faces if f != top] or [top]
    picks = rng.choice(len(others), size=4, replace=len(others) < 4)
    return tuple(others[int(i)] for i in picks)


def sample_scene(
    dieset: DieSet,
    split: str,
    seed: int,
    options: SceneOptions | None = None,
    values: dict[str, FaceValue] | None = None,
) -> Scene:
    """A random scene of `split`; `values` forces what some dice show (others are rolled)."""
    opts = options or SceneOptions()
    params = _split_params(split)
    # The split name is part of the seed so the two splits never draw the same scene.
    rng = np.random.default_rng([seed, SPLITS.index(split)])
    tw, th = dieset.tray.width_mm, dieset.tray.height_mm
    s = dieset.die_size_mm

    height_mm = float(rng.uniform(360, 520))
    # The tray (3:2) fills the frame's height (16:9) with a small margin above and below.
    view = th * float(rng.uniform(1.1, 1.2))
    f = opts.height * height_mm / view
    camera = CameraSpec(
        width=opts.width,
        height=opts.height,
        f=f,
        cx=opts.width / 2 + float(rng.normal(0, 8)),
        cy=opts.height / 2 + float(rng.normal(0, 8)),
        position=(tw / 2 + float(rng.normal(0, 5)), th / 2 + float(rng.normal(0, 3)), -height_mm),
        rotation=(float(rng.normal(0, 0.6)), float(rng.normal(0, 0.8)), float(rng.normal(0, 1.5))),
    )

    markers = bool(rng.random() < opts.p_markers)
    # Dice stay off the markers' paper (the reader ignores what lies on it).
    keep_out = dieset.tray.marker_inset_mm + dieset.tray.marker_size_mm + 4 + 1.2 * s if markers else 0.0
    placed: list[DiePlacement] = []
    touching: list[tuple[str, str]] = []
    order = list(dieset.dice)
    rng.shuffle(order)  # type: ignore[arg-type]
    cocked_die = order[0].name if rng.random() < opts.p_cocked else None
    off_die = order[1].name if rng.random() < opts.p_off_tray else None
    touch_pair = (order[2].name, order[3].name) if rng.random() < opts.p_touching else None
    # Only drawn when asked for, so the scenes of every existing seed stay as they were.
    on_marker = None
    if opts.p_on_marker > 0 and markers and rng.random() < opts.p_on_marker:
        on_marker = (order[4].name, int(rng.integers(4)))

    def free(x: float, y: float, min_gap: float) -> bool:
        return all(math.hypot(x - p.x, y - p.y) >= min_gap for p in placed)

    for die in order:
        value = (values or {}).get(die.name)
        if value is None:
            value = die.faces[int(rng.integers(len(die.faces)))]
        yaw = float(rng.uniform(0, 360))
        on_tray = True
        cocked = 0.0
        x = y = 0.0
        if touch_pair and die.name == touch_pair[1]:
            anchor = next(p for p in placed if p.name == touch_pair[0])
            for _ in range(50):
                side = int(rng.integers(4))
                ang = math.radians(anchor.yaw + 90 * side)
                gap = s * float(rng.uniform(1.0, 1.04))
                slide = s * float(rng.uniform(-0.3, 0.3))
                x = anchor.x + gap * math.cos(ang) - slide * math.sin(ang)
                y = anchor.y + gap * math.sin(ang) + slide * math.cos(ang)
                yaw = anchor.yaw + float(rng.normal(0, 2.0))
                others = [p for p in placed if p.name != anchor.name]
                if (
                    1.2 * s < x < tw - 1.2 * s
                    and 1.2 * s < y < th - 1.2 * s
                    and all(math.hypot(x - p.x, y - p.y) >= 1.9 * s for p in others)
                ):
                    touching.append(touch_pair)
                    break
            else:
                touch_pair = None
        if not (touch_pair and die.name == touch_pair[1]):
            for _ in range(500):
                if on_marker and die.name == on_marker[0]:
                    # On a corner marker's paper, the die's centre over the printed square.
                    t = dieset.tray
                    lo = t.marker_inset_mm + 0.2 * t.marker_size_mm
                    hi = t.marker_inset_mm + 0.8 * t.marker_size_mm
                    x, y = float(rng.uniform(lo, hi)), float(rng.uniform(lo, hi))
                    corner = on_marker[1]
                    x = tw - x if corner in (1, 2) else x
                    y = th - y if corner in (2, 3) else y
                elif die.name == off_die:
                    # Just past a short edge of the tray, on the table and still in view.
                    x = -1.8 * s if rng.random() < 0.5 else tw + 1.8 * s
                    y = float(rng.uniform(0.25 * th, 0.75 * th))
                    on_tray = False
                else:
                    x = float(rng.uniform(1.3 * s, tw - 1.3 * s))
                    y = float(rng.uniform(1.3 * s, th - 1.3 * s))
                    near_corner = min(x, tw - x) < keep_out and min(y, th - y) < keep_out
                    if near_corner:
                        continue
                if free(x, y, 2.0 * s):
                    break
        if die.name == cocked_die:
            cocked = float(rng.uniform(18, 38))
        glare = float(rng.uniform(0.2, 0.6)) if rng.random() < opts.p_glare else 0.0
        tint = tuple(float(t) for t in rng.normal(1.0, 0.03, 3))
        placed.append(
            DiePlacement(
                name=die.name,
                value=value,
                x=x,
                y=y,
                yaw=yaw,
                sides=_sides(rng, die, value),  # type: ignore[arg-type]
                cocked=cocked,
                on_tray=on_tray,
                glare=glare,
                tint=(tint[0], tint[1], tint[2]),
            )
        )

    fonts = params["fonts"]
    assert isinstance(fonts, tuple)
    temps = params["temps"]
    assert isinstance(temps, tuple)
    lo, hi = temps[int(rng.integers(len(temps)))]
    lights = params["lights"]
    assert isinstance(lights, tuple)
    hand = None
    if rng.random() < opts.p_hand_edge:
        hand = HandSpec(
            edge=str(rng.choice(["left", "right", "top", "bottom"])),
            along=float(rng.uniform(0.15, 0.85)),
            reach=float(rng.uniform(0.03, 0.08)),
            angle=float(rng.normal(0, 15)),
            colour=SKIN_COLOURS[int(rng.integers(len(SKIN_COLOURS)))],
        )
    extra: dict[str, object] = {}
    if params.get("extra"):
        # Drawn after everything else, so the other splits' streams stay as they were.
        extra["lamp_tint"] = float(rng.choice([-1.0, 1.0])) * float(rng.uniform(0.05, 0.25))
        lamp_temps = [float(rng.uniform(*temps[int(rng.integers(len(temps)))])) for _ in range(2)]
        extra["lamps"] = tuple(
            (
                float(rng.uniform(0.1, 0.9)),
                float(rng.uniform(0.1, 0.9)),
                float(rng.uniform(0.25, 0.6)),
                t,
                float(rng.uniform(0.4, 0.9)),
            )
            for t in lamp_temps
        )
        if rng.random() < 0.3:  # a dim room: the camera's gain is up, so is its noise
            extra["dim"] = float(rng.uniform(0.45, 0.7))
    dim = float(extra.pop("dim", 1.0))  # type: ignore[arg-type]
    return Scene(
        split=split,
        seed=seed,
        camera=camera,
        dice=tuple(sorted(placed, key=lambda p: [d.name for d in dieset.dice].index(p.name))),
        font=str(fonts[int(rng.integers(len(fonts)))]),
        markers=markers,
        tray_colour=TRAY_COLOURS[int(rng.integers(len(TRAY_COLOURS)))],
        table_colour=TABLE_COLOURS[int(rng.integers(len(TABLE_COLOURS)))],
        light_kind=str(lights[int(rng.integers(len(lights)))]),
        light_gradient=(
            float(rng.uniform(0.0, 0.5)) * float(params.get("gradient_scale", 1.0)),  # type: ignore[arg-type]
            float(rng.uniform(0, 360)),
        ),
        light_spot=(
            float(rng.uniform(0.2, 0.8)),
            float(rng.uniform(0.2, 0.8)),
            float(rng.uniform(0.35, 0.8)),
        ),
        exposure=float(rng.uniform(0.8, 1.12)) * dim,
        temperature_k=float(rng.uniform(lo, hi)),
        light_dir=(float(rng.uniform(0, 360)), float(rng.uniform(55, 80))),
        shadow=float(rng.uniform(0.25, 0.6)),
        blur=float(rng.uniform(0.0, 1.3)),
        noise=float(rng.uniform(1.0, 5.0)) / math.sqrt(dim),
        jpeg_quality=int(rng.integers(55, 96)),
        hand=hand,
        glyph_height=dieset.glyph_height * float(rng.uniform(0.9, 1.08)),
        touching=tuple(touching),
        **extra,  # type: ignore[arg-type]
    )
