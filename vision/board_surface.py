"""Which pixels of the board's top view show bare board? The pixel-level half of the reader.

Given the predicted colour of bare board at every pixel (`vision.board_lighting`, plus the lamp
light of `vision.board_glare`), each pixel is sorted into

- **bare**: explained by the board under this frame's light. Local light is refitted in a
  window of about a square around the pixel as ``observed = a · predicted + b · lamp``: the
  window always spans dark and light squares, so a (shading) and b (extra lamp light) are
  told apart by the printed contrast, which a sleeve or a palm erases (``a`` collapses); a
  smooth grey dimming of the pixel alone (the shadow of a hand or a piece) is bare too;
- **foreign**: anything else — a hand, a sleeve, a piece whose marker could not be read;
- **hidden**: bare-looking, but possibly under a hand all the same. A hand the colour of one
  class of squares shows only over the other class. So (1) gaps of up to about a square
  between large foreign regions are closed (a palm spans the squares it covers), and (2) a
  bare-looking pixel whose colour is one the neighbouring hand itself shows, and which is
  connected to that hand through such pixels, is hidden (fingers over a square of their own
  colour have no visible edge), unless it is brighter than the hand shows its hue nearby
  (`vision.board_near_colour`: a hand's lighting changes smoothly; the same holds for (1)); (3) a hand a shade darker than one colour of square passes
  there for a shadow: a dimmed patch over one colour only, touching a hand where its shadow
  cannot fall, is hidden too (`vision.board_hands.dimmed_hand_parts`).

A square is then judged by `free_fraction`: could a piece be hidden on it? See
`vision.board_squares`.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import NamedTuple

import cv2
import numpy as np

from vision.board_fast import (
    as_channels,
    box_around,
    channel_max,
    channel_min,
    channel_sum,
    column_var,
    components,
    crops_around,
    masked,
    median,
    pixels_of,
    rank_parts,
    shifted,
    small_unique,
    sorted_medians,
    split_quantiles,
)
from vision.board_gaps import CORE_ERODE, HUE_LAMP, HandRegions, mean3, spanned_gaps
from vision.board_geometry import SIZE, BoardGeometry
from vision.board_glare import MAX_SPOTS, MIN_AMPLITUDE, Spot, fit_spots, spot_light, spot_map
from vision.board_hand_curves import MIN_PIECE as CURVE_PIECE
from vision.board_hand_curves import beyond_curves
from vision.board_hand_edges import MIN_PIECE as EDGE_PIECE
from vision.board_hand_edges import beyond_outlines, outline_pieces
from vision.board_hand_field import unlike_hand
from vision.board_hand_step import step_bounded
from vision.board_hands import dimmed_hand_parts, reach_across_lines, square_insides
from vision.board_lighting import LOG_FLOOR, Lighting, design
from vision.board_line_seen import seen_lines
from vision.board_near_colour import near_hand_colour
from vision.board_piece_ink import sticker_faces
from vision.board_shade_hue import off_hue_shade
from vision.board_shadow_verify import verified_shadow

SATURATED = 250
LINE_PX = 2  # grid lines: this many pixels each side of a square boundary are not judged
WINDOW = 0.6  # half-width of the local light window, in squares (it must span both classes)
IDENTIFIABLE = 0.1  # each class must fill this share of the window to separate a from b
FILL_SIGMA = 1.0  # squares: where a window cannot tell a from b, take them from neighbours
RIDGE = 0.02  # pull of a towards 1 and b towards 0, relative to a full window's evidence
A_RANGE = (0.4, 1.5)  # local light factor: shadow at the low end, model error at the high end
B_MIN = -0.02  # added light cannot be negative: the modelled glare plus the local grey term (linear units)
B_DOUBT = 0.2  # ... and taking away more than this share of the modelled glare is a weak misfit
THIN_LIGHT = 0.5  # added light taking away more than this share of the darkest channel: a weak misfit
B_MAX, B_LAMP = 0.1, 1.0  # nor far more than the modelled glare: grey added light is a grey cloth
PASSES = 3
FOREIGN_SIGMAS = 5.0  # residual (in noise sigmas) beyond which a pixel is not board
WEAK_SIGMAS = 3.0  # ... or beyond which it is not, when joined to a large foreign region
KEEP_SIGMAS = 4.0
NOISE_BINS = 8  # brightness ranges the noise is measured in
NOISE_QUANTILE = 0.25  # of |residual|, per brightness range: a hand may fill most of a range
NOISE_SCALE = 3.2  # σ ÷ that quantile (3.14 for Gaussian noise; board residuals have heavier tails)
NOISE_OUTLIER = 1.6  # a range noisier than this × the fit through the others is left out  # pixels within this many sigmas inform the next pass
SHADOW_RANGE = (0.2, 1.05)  # a shadow dims, by this factor of the local light
DEEP_SHADOW = 0.4  # darker than this, a shadow looks like a dark grey sleeve: not seen as board
SHADOW_SIGMAS = 3.0  # a shadow keeps the board's colour: only brightness may change
SHADOW_SMOOTH, SHADOW_DEV = 3.0, 0.25  # px, log units: a shadow's dimming varies smoothly
VERIFY_DIM = 0.9  # a shadow verified across the grid lines is this much dimmed or more
VERIFY_MARGIN = 6  # px: ... and beyond this from a hand, out of the hand's reach
WASHED = 0.5  # lamp light above this share of the board's own: colours washed out
CROSS_SIGMA = 7.0  # px: how near dark and light squares must show the same dimming
CROSS_REACH = int(4 * CROSS_SIGMA) + 1  # px: OpenCV's float blur reaches 4 σ (round(8σ + 1) | 1 taps)
CROSS_WEIGHT = 0.05  # share of that neighbourhood each class must fill
BLOB_AREA = 0.1  # squares²: foreign regions at least this big may be a hand (closed, palette)
HAND_PART = 0.05  # squares²: a region unlike dimmed board this big is left out of a shadow's mean
CLOSE_RADIUS = 0.7  # squares: gaps a palm may span across squares of its own colour
PALETTE_BIN = 8  # colour bins (0–255 levels) of a hand's palette
PALETTE_BINS = 255 // PALETTE_BIN + 1  # bins per channel
PALETTE_MIN = 3  # pixels of a colour bin before it counts as the hand's
SHADES = (0.8, 0.9, 1.0, 1.1, 1.2)  # brightness factors a hand's own shading may add
PALETTE_ERODE = 2  # px: a hand's edge pixels mix with the board; its palette is its core's
LONE_SHADE = 0.25  # a dimmed patch with less than this share over one colour is over the other only
OWN_PIXELS = 4  # a hand shows in a square itself with this many pixels inside a thin line
RIM_RINGS = 3  # px: a hand's blurred outline, hand and board mixed (vision.board_rim.RINGS)
REACH = 1.2  # squares: how far a hand may extend unseen over squares of its colour
GLARE_ROUNDS = 2
SPOT_CONTRAST = 0.7  # share of the printed contrast that must survive under a glare spot
SPOT_DOUBT = 0.45  # ... a spot losing up to this share is judged again on lighting refitted without it
SPOT_EXPLAINS = 0.6  # under a spot, each class must show at least 1 − this of the spot's light
LONE_PIXELS, LONE_FILL, LONE_FIT = 40, 0.9, 0.1  # a spot over one colour: pixels, share, fit
SPOT_SLACK = 0.02  # ... give or take this much (linear): a faint skirt is within the model's error
SPOT_WITNESS = SPOT_SLACK / (1 - SPOT_EXPLAINS)  # less light than this "is there" even if it is not
SECOND_AMPLITUDE = 2 * MIN_AMPLITUDE  # a spot found by searching a dropped spot's slot again is this bright
DROPPED_REACH = 2.0  # widths: ... and not within this of a dropped spot's centre
SECOND_GREY = 0.5  # ... searched for only where this share of the usable board's excess is lamp-coloured


def to_linear(top: np.ndarray) -> np.ndarray:
    """uint8 BGR → linear RGB floats (a 2.2 gamma: close enough to sRGB for ratios).

    A uint8 picture's pixels are looked up in `_LINEAR_LUT` (`_linear` of its 256 values):
    the same numbers, without a power per pixel."""
    if _lookup(top):
        return cv2.LUT(top, _LINEAR_LUT)
    return _linear(top)


def _linear(top: np.ndarray) -> np.ndarray:
    """`to_linear` computed: ``(top / 255) ** 2.2`` in float32."""
    return (top.astype(np.float32) / 255.0) ** 2.2


def to_levels(lin: np.ndarray, fresh: bool = False) -> np.ndarray:
    """Linear → 0–255 levels, where sensor noise is about the same at every brightness.

    ``255 · clip(lin, 0, 1) ** (1 / 2.2)``, the power and the product made in the clipped
    copy's own memory: the same numbers without two more arrays of the view's size. With
    ``fresh`` (a float array of the caller's own, not read again), clipped in its memory."""
    own = fresh and isinstance(lin, np.ndarray) and lin.dtype.kind == "f"
    out = np.clip(lin, 0, 1, out=lin if own else None)
    if not isinstance(out, np.ndarray) or out.dtype.kind != "f":
        return 255.0 * out ** (1 / 2.2)
    np.power(out, 1 / 2.2, out=out)
    out *= 255.0
    return out


def levels_of(top: np.ndarray) -> np.ndarray:
    """``to_levels(to_linear(top))``: a picture's 0–255 levels as the board model sees them
    (the gamma there and back, in float32). For a uint8 picture, looked up in `_LEVELS_LUT`."""
    if _lookup(top):
        return cv2.LUT(top, _LEVELS_LUT)
    return to_levels(to_linear(top))


def _lookup(top: np.ndarray) -> bool:
    """Can ``top`` be looked up per pixel by `cv2.LUT` in its own shape (uint8, one channel
    as rows × columns, or 2–4 channels: OpenCV gives a lone channel axis back without it)?"""
    return (
        isinstance(top, np.ndarray)
        and top.dtype == np.uint8
        and top.size > 0
        and (top.ndim == 2 or (top.ndim == 3 and 2 <= top.shape[2] <= 4))
    )


# `_linear` and `to_levels` of each of the 256 values of a uint8 pixel. numpy's power works a
# value at a time, so a value gets the same bits in this table as anywhere in a picture
# (tests/test_board_speed_22.py checks the tables against the computed forms).
_LINEAR_LUT = _linear(np.arange(256, dtype=np.uint8))
_LEVELS_LUT = to_levels(_LINEAR_LUT)
_LINEAR_LUT.setflags(write=False)
_LEVELS_LUT.setflags(write=False)


@dataclass(frozen=True)
class View:
    """Pixel geometry of a top view: board coordinates, classes, grid lines."""

    ppu: int
    x: np.ndarray  # board x of each pixel centre
    y: np.ndarray
    classes: np.ndarray  # class of the square each pixel lies in
    line: np.ndarray  # within LINE_PX of a square boundary
    basis: np.ndarray  # the lighting field's basis at every pixel (n, n, 6)

    @cached_property
    def dark(self) -> np.ndarray:
        """Where the view shows a dark square (``classes == 0``; read-only, made once)."""
        return _read_only(self.classes == 0)

    @cached_property
    def light(self) -> np.ndarray:
        """Where the view shows a light square (``classes == 1``; read-only, made once)."""
        return _read_only(self.classes == 1)

    @cached_property
    def squares(self) -> np.ndarray | None:
        """The class of each square (rows × columns of ``ppu`` × ``ppu`` pixels), or None
        if ``classes`` is not one class per such square (a view made otherwise)."""
        n_v, n_u = self.classes.shape
        if self.ppu <= 0 or n_v % self.ppu or n_u % self.ppu or self.basis.shape[:2] != (n_v, n_u):
            return None
        squares = self.classes[:: self.ppu, :: self.ppu].copy()
        if not np.array_equal(np.kron(squares, np.ones((self.ppu, self.ppu), squares.dtype)), self.classes):
            return None
        return _read_only(squares)

    @classmethod
    def of(cls, geometry: BoardGeometry, ppu: int) -> View:
        key = (ppu, geometry.classes)
        if key not in _VIEWS:
            _VIEWS[key] = cls._make(geometry, ppu)
        return _VIEWS[key]

    @classmethod
    def _make(cls, geometry: BoardGeometry, ppu: int) -> View:
        n = SIZE * ppu
        v, u = np.mgrid[0:n, 0:n]
        classes = np.kron(np.array(geometry.classes)[::-1], np.ones((ppu, ppu), int))
        du = np.minimum(u % ppu, ppu - 1 - u % ppu)
        dv = np.minimum(v % ppu, ppu - 1 - v % ppu)
        x, y = (u + 0.5) / ppu, SIZE - (v + 0.5) / ppu
        return cls(ppu, x, y, classes, (du < LINE_PX) | (dv < LINE_PX), design(x, y).astype(np.float32))


_VIEWS: dict[tuple[int, tuple[tuple[int, ...], ...]], View] = {}


def _read_only(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


def predict(lighting: Lighting, view: View) -> tuple[np.ndarray, np.ndarray]:
    """Linear colour of bare board at every pixel, and where it is known."""
    squares = view.squares
    if squares is None:
        log, known = lighting.predict_on(view.basis, view.classes)
    else:
        log, known = lighting.predict_by_squares(view.basis, squares)
    # ``(np.exp(log) - LOG_FLOOR).clip(1e-4, None)`` in the log's own (fresh) memory: the
    # same numbers without two more arrays of the view's size (a NaN stays NaN either way).
    np.exp(log, out=log)
    np.subtract(log, LOG_FLOOR, out=log)
    np.maximum(log, 1e-4, out=log)
    return log, known


class Lamp(NamedTuple):
    """What `lamp_light` makes of the glare spots it fitted: those it keeps, and those it
    dropped by a little (``doubtful``: see `lamp_light`), worth judging again on lighting
    refitted without them."""

    kept: list[Spot]
    doubtful: list[Spot]


def lamp_light(
    lin: np.ndarray,
    pred: np.ndarray,
    usable: np.ndarray,
    saturated: np.ndarray,
    view: View,
    elliptic: bool = False,
    pieces: np.ndarray | None = None,
) -> Lamp:
    """Glare spots fitted to the grey excess of ``lin`` over ``pred`` (see vision.board_glare),
    keeping only spots that light dark and light squares alike (`judge_spots`; ``pieces``:
    the decoded pieces' footprint, which is no board for a spot to light). When all
    MAX_SPOTS were fitted and some then dropped, the slots they freed are searched again."""
    mean, grey = _grey_excess(lin, pred)
    spots = fit_spots(mean, usable & grey, view.ppu, elliptic)
    lamp = _judged(spots, lin, pred, grey, usable, saturated, view, pieces)
    held = lamp.kept + lamp.doubtful
    dropped = [s for s in spots if s not in held]
    if len(spots) < MAX_SPOTS or not dropped:
        return lamp
    # Every slot was taken and some spot then dropped (a hand's edge, a sleeve): a reflection
    # the search never came to may be left. It is searched for again on what the spots held
    # leave, away from the dropped ones, and only a plain one is judged (SECOND_AMPLITUDE);
    # not where hands fill most of the board (most of it not lamp-coloured, SECOND_GREY):
    # what is left there is their misfit.
    if np.count_nonzero(usable & grey) < SECOND_GREY * np.count_nonzero(usable):
        return lamp
    rest = mean - spot_map(held, mean.shape)
    away = usable & grey & ~_near_spots(dropped, mean.shape)
    more = fit_spots(rest, away, view.ppu, elliptic, MAX_SPOTS - len(held))
    more = [s for s in more if s.amplitude >= SECOND_AMPLITUDE]
    if not more:
        return lamp
    again = _judged(more, lin, pred, grey, usable, saturated, view, pieces)
    return Lamp(lamp.kept + again.kept, lamp.doubtful + again.doubtful)


def _near_spots(spots: list[Spot], shape: tuple[int, int]) -> np.ndarray:
    """The pixels of a view of ``shape`` within DROPPED_REACH long widths of a spot's centre."""
    out = np.zeros(shape, np.uint8)
    for s in spots:
        cv2.circle(
            out, (round(s.u), round(s.v)), max(1, round(DROPPED_REACH * s.width * s.aspect**0.5)), 1, -1
        )
    return out > 0


def _grey_excess(lin: np.ndarray, pred: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The mean excess of ``lin`` over ``pred`` per pixel, and where it is grey (lamp-coloured)."""
    # Channel by channel (numpy is slow over a short last axis, here of 3): the same
    # numbers as ``excess = lin - pred``, ``off = excess - mean[..., None]`` and
    # ``csum(off * off)``, bit for bit (tests/test_board_speed_23g.py).
    e0, e1, e2 = (lin[..., c] - pred[..., c] for c in range(3))
    mean = _mean_of(e0, e1, e2)
    sq = None
    for e in (e0, e1, e2):
        np.subtract(e, mean, out=e)
        np.multiply(e, e, out=e)
        sq = e if sq is None else np.add(sq, e, out=sq)
    # ``np.sqrt(sq) < 0.43 * np.abs(mean) + 0.01``, each side in its own array's memory.
    bound = np.abs(mean)
    np.multiply(bound, 0.43, out=bound)
    np.add(bound, 0.01, out=bound)
    return mean, np.sqrt(sq, out=sq) < bound


def judge_spots(
    spots: list[Spot],
    lin: np.ndarray,
    pred: np.ndarray,
    usable: np.ndarray,
    saturated: np.ndarray,
    view: View,
    pieces: np.ndarray | None = None,
) -> Lamp:
    """Which of the glare ``spots`` are lamp light over the board predicted as ``pred``
    (``pieces``: the decoded pieces' footprint, if known).

    Lamp light adds the same to every square under it, so the printed contrast (light minus
    dark, in linear light) survives; a white or grey sleeve is grey too, but it paints dark and
    light squares one colour. Under each spot, most of the contrast must be left.

    A spot that fails only because a little too much of the contrast is lost (up to
    SPOT_DOUBT of it, its light there on both colours) is ``doubtful``: the lighting field,
    fitted on squares the spot lights, takes up some of its light, and in log light that
    raises the light squares' prediction more than the dark ones' (lamp light added, a field
    multiplied), which reads as lost contrast.
    """
    return _judged(spots, lin, pred, _grey_excess(lin, pred)[1], usable, saturated, view, pieces)


def _judged(
    spots: list[Spot],
    lin: np.ndarray,
    pred: np.ndarray,
    grey: np.ndarray,
    usable: np.ndarray,
    saturated: np.ndarray,
    view: View,
    pieces: np.ndarray | None = None,
) -> Lamp:
    """`judge_spots`, given where the excess over ``pred`` is grey."""
    # Where a spot may be seen (hands say nothing), by colour of square: the same for
    # every spot and level, made once.
    seeing = (usable & grey) | saturated
    seeing_dark, seeing_light = seeing & view.dark, seeing & view.light
    kept, doubtful = [], []
    for s in spots:
        # Only the pixels the spot lights with a tenth of its amplitude or more are looked at
        # below (every level is at least that): all of them lie in `_lit_box`, and each number
        # is made there from the same pixels in the same order as over the whole view.
        box = _lit_box(s, lin.shape)
        bump = spot_light(s, lin.shape[:2])[box]
        lin_mean, pred_mean = channel_mean(lin[box]), channel_mean(pred[box])
        # How far each pixel is from board plus this spot; a clipped pixel only says that it
        # is at least as bright as white, which agrees if the spot predicts clipping.
        lit = pred_mean + bump
        gap = _at_saturated(lin_mean - lit, saturated[box], 1.0, lit)
        witnessed = False
        for level in (0.5, 0.25, 0.1):  # the spot's core, or its skirt for a narrow one
            under = bump > level * s.amplitude
            dark, light = seeing_dark[box] & under, seeing_light[box] & under
            if np.count_nonzero(dark) >= 10 and np.count_nonzero(light) >= 10:
                # Each colour must show the spot's light to witness it. Where a colour sees
                # only the far skirt, "the light is there" holds within the model's error
                # whether it is or not: a spot on a pale sleeve over one dark square, with
                # the light squares at its skirt, is then seen by one colour only.
                lit_dark, lit_light = float(median(bump[dark])), float(median(bump[light]))
                seen = sorted((lit_dark, lit_light))
                witnessed = not (seen[0] < SPOT_WITNESS and seen[1] >= 2 * SPOT_WITNESS)
                break
        if not witnessed:
            # Only one colour of square under it (a corner square, the edge), or the other
            # only under its skirt: the contrast cannot tell lamp light from a cloth, but a
            # cloth is not a Gaussian bump.
            if _lone_spot(s, bump, gap, seeing[box] & under, view, pieces, box):
                kept.append(s)
            continue
        gap_dark, gap_light = median(gap[dark]), median(gap[light])
        lost = float(gap_dark - gap_light)
        contrast = float(median(pred_mean[light]) - median(pred_mean[dark]))
        # And the light must be there, on both classes: a spot fitted to a grey sleeve also
        # "keeps" the contrast of the bare squares around the sleeve, where it adds nothing.
        there = all(
            float(g) >= -SPOT_EXPLAINS * b - SPOT_SLACK
            for g, b in ((gap_dark, lit_dark), (gap_light, lit_light))
        )
        if contrast <= 0 or not there:
            continue
        if lost <= (1 - SPOT_CONTRAST) * contrast:
            kept.append(s)
        elif lost <= SPOT_DOUBT * contrast:
            doubtful.append(s)
    return Lamp(kept, doubtful)


def _lone_spot(
    s: Spot,
    bump: np.ndarray,
    gap: np.ndarray,
    core: np.ndarray,
    view: View,
    pieces: np.ndarray | None = None,
    box: tuple[slice, slice] = (slice(None), slice(None)),
) -> bool:
    """A spot over one colour of square only is kept if it is plainly a spot: its light
    fills the board pixels it claims (none of them taken by anything else) and it fits
    them as closely as a lamp's reflection does (a cloth's excess is flat with a sharp edge).
    ``bump``, ``gap`` and ``core`` may be the view's ``box`` only (`_lit_box`).

    The decoded pieces' footprint (``pieces``) is not board it claims: a reflection over
    the middle square, its neighbours of the other colour under pieces, lights the board
    left between them only (tune 1443, 1475)."""
    region = (bump > 0.1 * s.amplitude) & ~view.line[box]
    if pieces is not None:
        region &= ~pieces[box]
    n = int(core.sum())
    if n < LONE_PIXELS or n < LONE_FILL * int(region.sum()):
        return False
    g = np.abs(gap[core])
    return (
        float(median(g)) <= LONE_FIT * s.amplitude
        and float(np.quantile(g, 0.9)) <= 2 * LONE_FIT * s.amplitude
    )


def _lit_box(s: Spot, shape: tuple[int, ...]) -> tuple[slice, slice]:
    """The rows and columns of a view of ``shape`` holding every pixel spot ``s`` lights with
    more than a tenth of its amplitude: within sqrt(2 ln 10) < 2.15 long widths of its centre,
    2 px to spare (far more than the float rounding of its light). The whole view if the
    spot's amplitude is not positive or its shape not finite."""
    whole = (slice(None), slice(None))
    if not (s.amplitude > 0 and math.isfinite(s.amplitude) and s.aspect > 0):
        return whole
    reach = 2.15 * s.width * math.sqrt(max(s.aspect, 1 / s.aspect)) + 2
    if not (math.isfinite(reach) and math.isfinite(s.u) and math.isfinite(s.v)):
        return whole
    h, w = shape[:2]
    v0, v1 = min(h, max(0, math.floor(s.v - reach))), max(0, min(h, math.ceil(s.v + reach) + 1))
    u0, u1 = min(w, max(0, math.floor(s.u - reach))), max(0, min(w, math.ceil(s.u + reach) + 1))
    return slice(v0, max(v0, v1)), slice(u0, max(u0, u1))


def _at_saturated(values: np.ndarray, saturated: np.ndarray, ceiling: float, model: np.ndarray) -> np.ndarray:
    """``np.where(saturated, np.maximum(ceiling - model, 0.0), values)``: a clipped pixel only
    says it is at least as bright as ``ceiling``. ``values`` is a fresh array, changed in
    place; the clipped case is computed only where it applies (a few pixels, most frames
    none), with the same numbers."""
    if saturated.any():
        values[saturated] = np.maximum(ceiling - model[saturated], 0.0)
    return values


def _at_clipped(values: np.ndarray, clipped: np.ndarray, ceiling: float, model: np.ndarray) -> np.ndarray:
    """`_at_saturated` with the saturated places as flat indices (``np.flatnonzero`` of the
    mask, made once for the light fit's passes): the same numbers at the same places, in the
    same order, without reading the whole mask again each pass. ``values``: C-contiguous."""
    if len(clipped):
        np.put(values, clipped, np.maximum(ceiling - np.take(model, clipped), 0.0))
    return values


csum = channel_sum  # the sum over the colour channels (numpy reduces a short last axis slowly)


def channel_mean(a: np.ndarray) -> np.ndarray:
    """``csum(a) / 3``: the mean over the 3 colour channels, in the sum's own memory."""
    return _mean_of(a[..., 0], a[..., 1], a[..., 2])


def _mean_of(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> np.ndarray:
    """``(a + b + c) / 3`` for float arrays of one shape and type, the sums and the quotient
    made in the first sum's memory (the same operations in the same order)."""
    out = a + b
    if not (
        isinstance(out, np.ndarray)
        and out.dtype.kind == "f"
        and isinstance(c, np.ndarray)
        and (c.dtype, c.shape) == (out.dtype, out.shape)
    ):
        return (out + c) / 3
    out += c
    out /= 3
    return out


cmax = channel_max  # largest colour channel (the board modules' short name)


def _smooth(a: np.ndarray, sigma: float) -> np.ndarray:
    """A wide Gaussian blur, computed on a quarter-size view (the fields it smooths are slow)."""
    h, w = a.shape
    small = cv2.resize(a, (w // 4, h // 4), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), sigma / 4)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def _box(a: np.ndarray, r: int) -> np.ndarray:
    return cv2.boxFilter(a, -1, (2 * r + 1, 2 * r + 1), normalize=False, borderType=cv2.BORDER_CONSTANT)


def _window_counts(w: np.ndarray, dark: np.ndarray, light: np.ndarray, r: int) -> np.ndarray:
    """``_box(w, r)``, ``_box(w * dark, r)`` and ``_box(w * light, r)`` as three channels, for
    weights ``w`` of 0 and 1 only (float, or booleans) and ``dark``, ``light`` uint8 masks of 0
    and 1.

    They are counts: OpenCV sums a float window in float64, exactly here (whole numbers), and
    so it does a uint8 window as integers. One box filter over three uint8 channels gives the
    same float32 numbers as the three over float planes, at half their time."""
    weights = (w if w.dtype == np.bool_ else w > 0).view(np.uint8)
    planes = cv2.merge([weights, weights & dark, weights & light])
    return cv2.boxFilter(
        planes, cv2.CV_32F, (2 * r + 1, 2 * r + 1), normalize=False, borderType=cv2.BORDER_CONSTANT
    )


def _light_sums(lin: np.ndarray, pred: np.ndarray) -> tuple[np.ndarray, ...]:
    """The per-pixel channel sums `_local_light` weighs: pred·pred, pred·lin, pred, lin."""
    return csum(pred * pred), csum(pred * lin), csum(pred), csum(lin)


def _local_light(
    lin: np.ndarray,
    pred: np.ndarray,
    w: np.ndarray,
    r: int,
    lam_a: float,
    lam_b: float,
    sums: tuple[np.ndarray, ...] | None = None,
    sw: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Per pixel, the weighted least-squares (a, b) of ``lin ≈ a · pred + b`` (b grey) over the
    window of half-width ``r``, with a ridge towards a = 1, b = 0. ``sums``: `_light_sums`
    of ``lin`` and ``pred``, if already made (they do not depend on the weights); ``sw``: the
    window sums of ``w``, if made (`_window_counts`)."""
    pp, pl, ps, ls = _light_sums(lin, pred) if sums is None else sums
    if sw is None:
        sw = _box(w, r)
    # The sums below are those of ``a11 = _box(w * pp, r) + lam_a``, ``a22 = 3 * sw + lam_b``,
    # ``det = a11 * a22 - a12 * a12``, ``np.where(np.abs(det) < 1e-12, 1e-12, det)`` and
    # ``(r1 * a22 - a12 * r2) / det``, ``(a11 * r2 - a12 * r1) / det``, each made in the
    # memory of a fresh array of its own (the same operations in the same order, the same
    # numbers: tests/test_board_speed_25g.py), without a dozen more arrays of the view's size.
    a11 = _box(w * pp, r)
    a11 += lam_a
    a12 = _box(w * ps, r)
    a22 = 3 * sw
    a22 += lam_b
    r1 = _box(w * pl, r)
    r1 += lam_a
    r2 = _box(w * ls, r)
    det = a11 * a22
    det -= a12 * a12
    if not (det.size and det.min() >= 1e-12):  # (a NaN too): most frames' are all far above it
        np.putmask(det, np.abs(det) < 1e-12, 1e-12)
    a = r1 * a22
    a -= a12 * r2
    a /= det
    b = a11 * r2
    b -= a12 * r1
    b /= det
    return a, b


def _board_levels(a: np.ndarray, pred: np.ndarray, added: np.ndarray) -> np.ndarray:
    """``to_levels(as_channels(a) * pred + as_channels(added))``: the board lit by the local
    light ``a`` (a factor) and ``added`` (grey), in levels; the product, the sum and the
    levels made in the first plane's merged copy (the same operations in the same order;
    arrays of one float type, as `analyse`'s are: else as written)."""
    if not (a.dtype == pred.dtype == added.dtype and a.dtype.kind == "f" and pred.shape == (*a.shape, 3)):
        return to_levels(as_channels(a) * pred + as_channels(added))
    out = as_channels(a)
    if not out.flags.writeable:  # (a broadcast view, say)
        return to_levels(out * pred + as_channels(added))
    out *= pred
    out += as_channels(added)
    return to_levels(out, fresh=True)


def _noise(resid: np.ndarray, level: np.ndarray, sel: np.ndarray) -> np.ndarray:
    """Per-pixel noise sigma (levels) as sqrt(s0² + (k · level)²): sensor noise plus print
    texture and model error, which grow with brightness.

    Measured by brightness range (a low quantile of the residuals in each), and fitted
    robustly: a range that a hand or a sleeve fills is far noisier than the model through
    the others, and is left out (a hand's misfit taken for noise would make it fit the board).
    """
    # Every third row and column is plenty for a few quantiles. The selected pixels (their
    # channels), in order: gathered by their flat indices (`_every_third`), without copying
    # the strided rows of every third pixel first.
    at = np.compress(sel[::3, ::3].ravel(), _every_third(sel.shape))
    v = np.take(level.reshape(sel.size, -1), at, axis=0).ravel()
    e = np.abs(np.take(resid.reshape(sel.size, -1), at, axis=0)).ravel()
    if len(v) < 100:
        return np.full(level.shape, 4.0, np.float32)
    # The brightness ranges: the parts of ``v`` in rank order (vision.board_fast.rank_parts:
    # those of ``np.argsort(v)``, without its full sort), each looked at as a set; their
    # medians read off the sorted levels (numpy sorts floats faster than it partitions them
    # around the parts' 14 edges).
    ranked = np.sort(v)
    order = rank_parts(v, NOISE_BINS, ranked)
    quantiles = split_quantiles(e, order, NOISE_BINS, NOISE_QUANTILE)
    medians = sorted_medians(ranked, NOISE_BINS)
    rows = [[1.0, m**2] for m in medians]
    ys = [(NOISE_SCALE * q) ** 2 for q in quantiles]
    return _noise_curve(rows, ys, level)


@lru_cache(maxsize=8)
def _every_third(shape: tuple[int, ...]) -> np.ndarray:
    """The flat indices of the pixels in every third row and column of a view of ``shape``
    (rows × columns), row by row: ``np.arange(h * w).reshape(h, w)[::3, ::3].ravel()``."""
    h, w = shape[:2]
    out = np.arange(h * w).reshape(h, w)[::3, ::3].ravel()
    out.setflags(write=False)
    return out


def _noise_curve(rows: list[list[float]], ys: list[float], level: np.ndarray) -> np.ndarray:
    """The noise sigma at every ``level``: σ² = s0 + k · level², fitted to the brightness
    ranges' (``rows``: 1, median level²) and squared noise (``ys``), leaving out the ranges
    far noisier than the fit through the others."""
    X, y = np.array(rows), np.array(ys)
    keep = np.ones(len(y), bool)
    while True:
        coef = np.linalg.lstsq(X[keep], y[keep], rcond=None)[0]
        fit = np.maximum(X @ coef, 1.5**2)
        worst = int(np.argmax(np.where(keep, y / fit, 0.0)))
        if y[worst] <= NOISE_OUTLIER**2 * fit[worst] or keep.sum() <= NOISE_BINS // 2:
            break
        keep[worst] = False
    s0 = max(float(coef[0]), 1.5**2)
    k = max(float(coef[1]), 0.0)
    # np.sqrt(s0 + k * level * level).astype(np.float32), the same operations in the same
    # order, in one buffer (the view's size, three channels: the copies cost more than the sums).
    sigma = k * level
    sigma *= level
    sigma += s0
    np.sqrt(sigma, out=sigma)
    return sigma.astype(np.float32, copy=False)


@dataclass(frozen=True)
class Surface:
    """The verdict per pixel (see the module docstring)."""

    good: np.ndarray  # cannot hide a piece: bare board, a known piece, a grid line among bare
    foreign: np.ndarray
    hidden: np.ndarray  # bare-looking but possibly under a hand
    outside: np.ndarray  # not in the picture
    noise: float = 0.0  # median noise sigma (levels) the board model needed: its misfit
    # The hidden pixels before the step rule freed some (vision.board_hand_step): the extent of
    # a foreign region, for telling a hand from a lighting misfit (vision.board_regions).
    reach: np.ndarray | None = None


def analyse(
    lin: np.ndarray,
    pred: np.ndarray,
    known: np.ndarray,
    lamp: np.ndarray,
    pieces: np.ndarray,
    view: View,
    levels: np.ndarray | None = None,
) -> Surface:
    """Sort the pixels of a top view (linear ``lin``) given bare board's predicted colour
    ``pred`` (where ``known``), the modelled lamp light ``lamp`` (linear, per pixel) and the
    footprint of the decoded ``pieces``. ``levels``: ``to_levels(lin)`` if already made
    (`levels_of` the top view)."""
    ppu = view.ppu
    top_levels = to_levels(lin) if levels is None else levels
    outside = cmax(top_levels) <= 0.5
    saturated = top_levels >= SATURATED
    any_sat = saturated[..., 0] | saturated[..., 1] | saturated[..., 2]
    judged = ~view.line & ~pieces & ~outside & known
    # The light fit's weights, 0 or 1: booleans (the same products with a colour's sums, and
    # cheaper to make, compare and count than floats).
    w0 = judged & ~any_sat
    # What the board shows besides the modelled glare. A 2-D term with a colour picture is
    # made three channels first (`as_channels`: the same numbers, quicker than broadcasting).
    rest = lin - as_channels(lamp)
    r = round(WINDOW * ppu)
    n = (2 * r + 1) ** 2
    # np.var(pred[w0 > 0], axis=0), the same numbers faster (vision.board_fast).
    spread = (
        float(column_var(np.compress(w0.ravel(), pred.reshape(w0.size, -1), axis=0)).sum())
        if w0.any()
        else 1e-3
    )
    lam_a, lam_b = RIDGE * n * spread, RIDGE * n
    dark, light = view.dark.view(np.uint8), view.light.view(np.uint8)  # made once per view
    fill = max(3.0, FILL_SIGMA * ppu)
    w = w0
    a = np.ones(w0.shape, np.float32)
    b = np.zeros(w0.shape, np.float32)
    resid_n = np.zeros(w0.shape, np.float32)
    implausible = np.zeros(w0.shape, bool)
    doubtful = np.zeros(w0.shape, bool)
    sigma = np.full(lin.shape, 4.0, np.float32)
    sums = _light_sums(rest, pred)  # the same every pass: only the weights change
    clipped = np.flatnonzero(saturated)  # likewise the clipped channels (`_at_clipped`)
    # The bounds on the added light, the same every pass.
    most_added, doubtful_below = B_MAX + B_LAMP * lamp, B_MIN - B_DOUBT * lamp
    added = b + lamp
    for _ in range(PASSES):
        counts = _window_counts(w, dark, light, r)
        a, b = _local_light(rest, pred, w, r, lam_a, lam_b, sums, counts[..., 0])
        # Only a window with both classes separates shading from added light; elsewhere
        # take both from the neighbourhood (they vary smoothly).
        ident = np.minimum(counts[..., 1], counts[..., 2]) >= IDENTIFIABLE * n
        idf = ident.astype(np.float32)
        den = _smooth(idf, fill)
        filled, den = den > 1e-3, np.maximum(den, 1e-6)
        a_f = np.where(filled, _smooth(a * idf, fill) / den, 1.0)
        b_f = np.where(filled, _smooth(b * idf, fill) / den, 0.0)
        a, b = np.where(ident, a, a_f), np.where(ident, b, b_f)
        added = b + lamp
        model = _board_levels(a, pred, added)
        resid = top_levels - model
        # A clipped channel only says the board is at least that bright.
        resid = _at_clipped(resid, clipped, SATURATED, model)
        sigma = _noise(resid, model, w)
        # ``cmax(np.abs(resid) / sigma)``, in the residuals' own memory (not used again).
        resid = np.divide(np.abs(resid, out=resid), sigma, out=resid)
        resid_n = cmax(resid)
        implausible = ident & ((a < A_RANGE[0]) | (a > A_RANGE[1]) | (added < B_MIN) | (b > most_added))
        # The glare spots are a fit too: where one was fitted but no reflection is there (a
        # faint bump fitted to the lighting's misfit), the local grey term takes its light
        # away again. Taking away more than a fifth of it is doubtful, a weak misfit (foreign
        # when joined to a hand: a hand in a spot's skirt fits as "board less the lamp" too);
        # only less than no added light at all is no light.
        doubtful = ident & (b < doubtful_below) & ~implausible
        before = w
        w = w0 & (resid_n < KEEP_SIGMAS) & ~(implausible | doubtful)
        if _settled(w, before):
            break
    # Under strong lamp light every colour washes out towards the lamp's: a hand there looks
    # like the board as much as one of the board's own colour, and so does a dark cloth.
    board_sum = csum(pred)
    washed = lamp > WASHED * board_sum / 3
    weak_fit = resid_n > WEAK_SIGMAS
    dimmed, smooth, deep, log_dim, verified = _shadowed(
        rest,
        pred,
        a,
        b,
        lamp,
        washed,
        top_levels,
        saturated,
        sigma,
        judged,
        view.classes,
        view.line,
        weak_fit,
    )
    shade = dimmed & smooth & weak_fit
    # The grey term is one number for all three channels, fitted in linear light, where the
    # bright channels decide it: a colour misfit of the lighting field (a corner under a
    # strong vignette) makes it negative, and on the dark squares' darkest channel (scheme
    # 3's blue) that takes away most of the light. Where the modelled added light takes away
    # more than THIN_LIGHT of the darkest predicted channel, the misfit is the model's: weak,
    # foreign only joined to a strong region (a hand).
    thin = added < -THIN_LIGHT * a * channel_min(pred)
    strong = ((resid_n > FOREIGN_SIGMAS) & ~shade & ~thin | implausible) & judged
    # Hysteresis: a weaker misfit joined to a large foreign region is part of it (a hand's
    # fingers washed out by glare fit the board a little better than its palm).
    weak = ((resid_n > WEAK_SIGMAS) & ~shade | doubtful) & judged
    foreign = _grow_from_blobs(strong, strong | weak, ppu)
    # A deep shadow is also what a dark grey sleeve looks like: not foreign (it must not join
    # a hand's palette), but not seen as bare board either.
    # The hand-sized foreign regions, found once for the rules below.
    hands = Hands.of(foreign, dimmed, ppu)
    if verified is None and len(hands.big):  # (`_shadowed` made it only where it decided a pixel)
        verified = _verify(judged & dimmed, _dimming(rest, pred, a, b)[1], washed, log_dim, view.line)
    # A hand a shade darker than one colour of square fits there as a shadow: dimmed patches
    # over one colour only are looked at beside the hands (vision.board_hands; only there:
    # without a hand-sized region, no rule reads them).
    one_colour = (
        _one_colour_shade(shade & judged, log_dim, view.line, view.classes) if len(hands.big) else None
    )
    lit = lamp > HUE_LAMP * board_sum / 3
    parts: list[np.ndarray] = []
    # A piece's sticker under the fingers is no colour of the hand's (vision.board_piece_ink).
    sticker = sticker_faces(lin, hands.mask, ppu)
    held = _under_hands(
        foreign,
        top_levels,
        judged,
        ppu,
        dimmed,
        washed,
        one_colour,
        log_dim,
        verified,
        lit,
        hands,
        parts,
        sticker,
    )
    # Where the hand's own hue, predicted from its core beside the pixel, does not fit the
    # pixel, the hand is not over it: seen board (vision.board_hand_field).
    held &= ~unlike_hand(lin, pred, lamp, hands.mask, hands.core, held & ~foreign, ppu, judged & ~foreign)
    hidden = held | (shade & deep)
    # Where a hand's straight outline is seen on both sides of a square of its colour, it
    # goes on straight between: the hidden pixels beyond it are board (vision.board_hand_edges).
    # Both rules look at the outline's stretches: found once while the straight rule frees
    # nothing (it frees hidden pixels only, so the curved rule is asked about the same ones).
    seen_px, unseen_px = judged & ~hidden & ~foreign, judged & (hidden | foreign)
    outline = outline_pieces(foreign, seen_px, unseen_px, min(EDGE_PIECE, CURVE_PIECE))
    straight = beyond_outlines(foreign, seen_px, hidden, unseen_px, ppu, outline)
    hidden &= ~straight
    # ... and where its curved outline (a palm, a thumb, a finger) is seen on both sides of
    # one, it goes on smoothly between (vision.board_hand_curves).
    hidden &= ~beyond_curves(
        foreign,
        judged & ~hidden & ~foreign,
        hidden,
        judged & (hidden | foreign),
        ppu,
        None if straight.any() else outline,
    )
    # A shadow keeps the board's hue: a "shadow" beside a hand that does not may be the hand
    # (a thumb tip a shade darker than a light square; vision.board_shade_hue).
    off_hue = off_hue_shade(
        top_levels,
        # The shadow's model at each pixel: the board dimmed, plus the added light.
        pred,
        log_dim,
        added,
        shade & judged & ~foreign,
        dimmed & judged & ~foreign,
        judged & ~foreign & ~hidden & ~shade,
        view.classes,
        lit | washed,
        _near_hands(hands.mask, ppu),
    )
    hidden |= off_hue
    # Where every place a patch of those pixels meets the hand shows a step in colour, the
    # hand ends there: its colour changes smoothly (vision.board_hand_step). A patch holding
    # a hand part that fits as the board dimmed, or washed-out or lamp-lit pixels, is left
    # alone; a deep shadow or an off-hue "shadow" stays hidden in any patch.
    stepped = step_bounded(
        top_levels,
        foreign,
        hidden & ~foreign,
        hidden & (washed | lit | (parts[0] if parts else False)),
        view.line,
    )
    reach = hidden & ~foreign
    hidden &= ~(stepped & ~(shade & deep) & ~off_hue)
    good_px = judged & ~hidden & ~foreign
    # A grid line pixel is as good as the judged pixels around it.
    near = cv2.boxFilter(good_px.astype(np.float32), -1, (5, 5), normalize=False)
    good_line = view.line & ~hidden & ~outside & (near > _half_around(view.line, outside))
    # Beside a hand, a line pixel that shows the line is seen (vision.board_line_seen).
    unsure = cv2.dilate((hidden | foreign).astype(np.uint8), np.ones((11, 11), np.uint8)) > 0
    good_line |= seen_lines(
        rest,
        pred,
        (a, b),
        top_levels,
        sigma,
        good_line & ~unsure & ~any_sat,
        view.line & ~good_line & ~outside & ~pieces & ~any_sat,
        foreign,
        view.classes,
        ppu,
        LINE_PX,
    )
    noise = (
        float(median(np.compress(judged.ravel(), sigma.reshape(judged.size, -1), axis=0)))
        if judged.any()
        else 0.0
    )
    return Surface(good_px | good_line | pieces, foreign, hidden & ~foreign, outside, noise, reach)


def _half_around(line: np.ndarray, outside: np.ndarray) -> np.ndarray:
    """Half the judged-or-bare pixels around each pixel (off the grid ``line`` and not
    ``outside`` the picture, 5 × 5, at least 1e-6): what a line pixel's good neighbours are
    measured against. With nothing outside (most frames), the view's own, made once per line
    mask (`_half_around_lines`: the same box filter of the same mask)."""
    if outside.any():
        return 0.5 * np.maximum(_around(~line & ~outside), 1e-6)
    return _half_around_lines(line.shape, np.packbits(line).tobytes())


def _around(mask: np.ndarray) -> np.ndarray:
    return cv2.boxFilter(mask.astype(np.float32), -1, (5, 5), normalize=False)


@lru_cache(maxsize=8)  # a few views' line masks; safe across threads (read-only results)
def _half_around_lines(shape: tuple[int, ...], bits: bytes) -> np.ndarray:
    line = _unpacked(shape, bits)
    half = 0.5 * np.maximum(_around(~line), 1e-6)
    half.setflags(write=False)
    return half


def _unpacked(shape: tuple[int, ...], bits: bytes) -> np.ndarray:
    """The boolean mask of ``shape`` whose ``np.packbits(mask).tobytes()`` is ``bits`` (the key
    the caches of a view's line mask are remembered by)."""
    return np.unpackbits(np.frombuffer(bits, np.uint8), count=shape[0] * shape[1]).reshape(shape).astype(bool)


@dataclass(frozen=True)
class Hands:
    """The foreign regions big enough to be a hand (BLOB_AREA), found once per frame for the
    rules that look at the hands: the regions' ``labels`` and ``stats``
    (``cv2.connectedComponentsWithStats``, 8-connected), the labels of the hand-sized ones
    (``big``), their pixels (``mask``) and their ``core``: PALETTE_ERODE px in from the
    outline (whose pixels mix with the board), without the pixels that look like dimmed
    board (a hand's shadow beside it is often foreign too): the core's colours are the
    hand's own (its palette, and its hue for `vision.board_hand_field.unlike_hand`).

    Where the ``foreign`` pixels are too few for any region of them to be hand-sized (most
    frames without a hand: a few dozen misfit pixels), ``big``, ``mask`` and ``core`` are
    empty without labelling them, and the labels and stats are made only if asked for (no
    rule asks where there is no hand: `_under_hands` returns at once). ``found``: the labels
    and stats where made with the rest."""

    big: np.ndarray
    mask: np.ndarray
    core: np.ndarray
    foreign: np.ndarray
    found: tuple[np.ndarray, np.ndarray] | None = field(default=None, repr=False)

    @classmethod
    def of(cls, foreign: np.ndarray, dimmed: np.ndarray, ppu: int) -> Hands:
        area = BLOB_AREA * ppu * ppu
        if np.count_nonzero(foreign) < area:
            none = np.zeros(foreign.shape, bool)
            return cls(np.flatnonzero(none), none, none.copy(), foreign)
        labels, stats = _regions(foreign)
        is_big = stats[:, cv2.CC_STAT_AREA] >= area
        is_big[0] = False
        mask = np.take(is_big, labels)  # each pixel its region's flag (np.take: as indexing, faster)
        erode = np.ones((2 * PALETTE_ERODE + 1,) * 2, np.uint8)
        core = (cv2.erode(mask.astype(np.uint8), erode) > 0) & ~dimmed
        return cls(np.flatnonzero(is_big), mask, core, foreign, (labels, stats))

    @cached_property
    def _regions(self) -> tuple[np.ndarray, np.ndarray]:
        return self.found if self.found is not None else _regions(self.foreign)

    @property
    def labels(self) -> np.ndarray:
        return self._regions[0]

    @property
    def stats(self) -> np.ndarray:
        return self._regions[1]


def _regions(foreign: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The 8-connected regions of ``foreign``: their labels and stats."""
    _, labels, stats, _ = cv2.connectedComponentsWithStats(foreign.astype(np.uint8), connectivity=8)
    return labels, stats


def _near_hands(hands: np.ndarray, ppu: int) -> np.ndarray:
    """Within REACH of the ``hands`` (`Hands.mask`)."""
    if not hands.any():
        return np.zeros(hands.shape, bool)
    return cv2.distanceTransform((~hands).astype(np.uint8), cv2.DIST_L2, 3) <= REACH * ppu


def _grow_from_blobs(seeds: np.ndarray, allowed: np.ndarray, ppu: int) -> np.ndarray:
    """``seeds`` plus the ``allowed`` pixels connected to a large seed region (none where the
    seeds are fewer than a large region's pixels: most frames without a hand)."""
    if np.count_nonzero(seeds) < BLOB_AREA * ppu * ppu:
        return seeds
    count, labels = cv2.connectedComponents(allowed.astype(np.uint8), connectivity=8)
    if count <= 1:
        return seeds
    big_seed = np.bincount(masked(labels, seeds), minlength=count) >= BLOB_AREA * ppu * ppu
    big_seed[0] = False
    return seeds | np.take(big_seed, labels)  # a label's flag: np.take, as indexing, faster


def _settled(w: np.ndarray, before: np.ndarray) -> bool:
    """The light fit's weights did not change in a pass: the next pass would compute the
    same numbers from them (nothing else carries over), so the passes left can be skipped.
    A clean frame often settles after two of the PASSES; a hand's frame seldom does."""
    return np.array_equal(w, before)


def _shadowed(
    rest: np.ndarray,
    pred: np.ndarray,
    a: np.ndarray,
    b: np.ndarray,
    lamp: np.ndarray,
    washed: np.ndarray,
    levels: np.ndarray,
    saturated: np.ndarray,
    sigma: np.ndarray,
    usable: np.ndarray,
    classes: np.ndarray,
    line: np.ndarray,
    weak: np.ndarray | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Bare board dimmed by a shadow: the colour of the board times a grey factor (within
    SHADOW_RANGE of the local light), whether that factor varies smoothly from pixel to pixel
    (a shadow's does; a sleeve's jumps at every change of square colour), whether the
    shadow is deep (below DEEP_SHADOW), the log of the factor, and the shadow verified
    across the grid lines (`vision.board_shadow_verify`).

    ``weak``: the pixels that misfit the local light (beyond WEAK_SIGMAS), if `analyse` asks.
    Deep is then told only at its shade (dimmed, smooth and weak), the only pixels it asks
    about, and is False elsewhere; smoothness is as before there (at the dimmed weak pixels),
    and the verified shadow is made only where it decides one of them (most frames without a
    hand: `_verify_decides`): elsewhere it is None, smoothness the one without it, and the
    rules that read it make it themselves (`_verify`: the hands', in `analyse`)."""
    dim, ratio = _dimming(rest, pred, a, b)
    model = _board_levels(dim, pred, b + lamp)
    resid = _at_saturated(levels - model, saturated, SATURATED, model)
    fits = cmax(np.divide(np.abs(resid, out=resid), sigma, out=resid)) < SHADOW_SIGMAS  # (in its memory)
    log_dim = np.log(np.clip(dim, 1e-3, None)).astype(np.float32, copy=False)
    candidate = fits & (ratio > SHADOW_RANGE[0]) & (ratio < SHADOW_RANGE[1])
    own = usable & candidate
    # Smooth: like the pixels around it (a hand's "dimming" jumps with the square colour under
    # it), or like them leaving out the hand: the hand casting a shadow, beside it, does not
    # make the shadow rough (a hand's pixels do not fit as dimmed board). Only regions as big
    # as part of a hand are left out: a piece's black marker is small, and left out it would
    # make the white face beside it smooth, shade, and the piece's square look bare.
    plain = _deviation(log_dim, usable) < SHADOW_DEV
    hand = _big_regions(usable & ~own, line.shape[0] // SIZE)
    among_own = _deviation(log_dim, usable & ~hand) < SHADOW_DEV
    smooth = plain | among_own
    # Under strong lamp light (``washed``) the board's colours wash out, and a dark cloth, lit
    # by the lamp too, passes for a shadow of any square: there a shadow is not seen board.
    # A shadow that goes on across the grid lines with the same dimming, or the same ramp, is
    # light's (no hand of the board's colour does that): seen board, smooth along its
    # penumbra's ramp even beside the hand that casts it, and not too deep to trust.
    deep_px = ratio < DEEP_SHADOW
    verified: np.ndarray | None = None
    if weak is None or _verify_decides(own, ratio, washed, weak, smooth, deep_px):
        verified = _verify(own, ratio, washed, log_dim, line)
        smooth |= verified
    # A deep shadow over one square looks like a dark sleeve; but a shadow dims dark and
    # light squares alike, where a sleeve of one colour dims them by factors as different as
    # the squares are: where both classes show nearby, equally dimmed, the dimming is light's
    # (``across``). That decides a deep pixel, unless washed out or verified.
    asked = None if weak is None else candidate & smooth & weak
    told = deep_px & ~washed if verified is None else deep_px & ~washed & ~verified
    if asked is not None:
        told &= asked
        if not told.any():
            return candidate, smooth, washed & asked, log_dim, verified
    # Smoothness among the shadow's own pixels links only where both classes agree (below).
    linking = own & ~plain & among_own
    across, known = _dimmed_alike(own, classes, log_dim, None if asked is None else told | linking)
    # The whole of a shadow is light's where part of it is: a shadow is one smooth field of
    # dimming, linked across the grid lines (which are not judged) where it goes on unchanged.
    # Smoothness among the shadow's own pixels links only where both classes agree: a hand a
    # shade darker than one colour of square, beside its own shadow, joins it along a smooth
    # ramp of "own" pixels, and would be made light's (its deep dimming trusted; tune 25 g4).
    shadowish = own & (plain | (among_own & across))
    count, labels = cv2.connectedComponents(
        _bridged(shadowish, log_dim, line).astype(np.uint8), connectivity=8
    )
    lit = np.zeros(count, bool)
    # The patches with a pixel ``across``: repeats and all (np.unique's flags, without its sort).
    lit[masked(labels, across & shadowish if known is None else across & shadowish & known)] = True
    if known is not None:
        # A patch with no pixel told ``across`` yet, and shadowish pixels where it was not
        # told: tell it everywhere (seldom: the crops lie around the deep pixels it holds).
        open_ = np.zeros(count, bool)
        open_[masked(labels, told)] = True
        open_ &= ~lit
        beyond = np.zeros(count, bool)
        beyond[masked(labels, shadowish & ~known)] = True
        if (open_ & beyond)[1:].any():
            across, known = _dimmed_alike(own, classes, log_dim, None)
            shadowish = own & (plain | (among_own & across))
            lit[masked(labels, across & shadowish)] = True
    lit[0] = False
    across |= np.take(lit, labels)  # each pixel its patch's flag (np.take: as indexing, faster)
    if verified is not None:
        across |= verified
    deep = (deep_px & ~across) | washed
    return candidate, smooth, deep if asked is None else deep & asked, log_dim, verified


def _dimming(
    rest: np.ndarray, pred: np.ndarray, a: np.ndarray, b: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The grey factor that dims the board's predicted colour ``pred`` to the view less the
    added light ``b`` (a least-squares fit over the channels), and that factor against the
    unshadowed light ``a`` (a window half in shadow has a lowered ``a``)."""
    dim = csum((rest - as_channels(b)) * pred) / np.maximum(csum(pred * pred), 1e-9)
    return dim, dim / np.maximum(a, 1.0)


def _verify(
    own: np.ndarray, ratio: np.ndarray, washed: np.ndarray, log_dim: np.ndarray, line: np.ndarray
) -> np.ndarray:
    """The shadow verified across the grid lines (`vision.board_shadow_verify`) among the
    ``own`` pixels (dimmed board), of those dimmed by VERIFY_DIM or more and not washed out."""
    dimmed = own & (ratio < VERIFY_DIM) & ~washed
    return verified_shadow(own, dimmed, log_dim, line, line.shape[0] // SIZE, LINE_PX)


def _verify_decides(
    own: np.ndarray,
    ratio: np.ndarray,
    washed: np.ndarray,
    weak: np.ndarray,
    smooth: np.ndarray,
    deep: np.ndarray,
) -> bool:
    """Could the verified shadow (`_verify`: some of the ``own`` pixels dimmed by VERIFY_DIM,
    not ``washed``) change `_shadowed`'s answer at the pixels `analyse` asks about (dimmed and
    ``weak``), given the smoothness without it? Only if one of those pixels it may hold is
    not smooth yet (it would make it so), or is ``deep`` (below DEEP_SHADOW), smooth and not
    washed out (it would make it light's). Elsewhere it adds smoothness where none is asked
    about, and a deep pixel it holds is not asked about (tests/test_board_speed_27a.py)."""
    mine = own & weak & ~washed
    return bool((mine & (ratio < VERIFY_DIM) & ~smooth).any() or (mine & deep & smooth).any())


def _dimmed_alike(
    own: np.ndarray, classes: np.ndarray, log_dim: np.ndarray, at: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray | None]:
    """Where both classes of square show nearby (a CROSS_SIGMA blur of the ``own`` pixels of
    each holds CROSS_WEIGHT or more) with the same mean dimming (within SHADOW_DEV): the
    dimming there is light's. With ``at``, told only around those pixels, in the regions of
    `vision.board_fast.crops_around` (the same numbers there as over the whole view: each
    pixel's arithmetic is its own), and returned with the mask of those regions; elsewhere
    False."""
    near = []
    for c in (0, 1):
        mc = (own & (classes == c)).astype(np.float32)
        near.append((mc, log_dim * mc))
    if at is None:
        return _alike(
            [
                (cv2.GaussianBlur(m, (0, 0), CROSS_SIGMA), cv2.GaussianBlur(v, (0, 0), CROSS_SIGMA))
                for m, v in near
            ]
        ), None
    across = np.zeros(own.shape, bool)
    known = np.zeros(own.shape, bool)
    for region, crop in crops_around(at, CROSS_REACH):
        inside = shifted(region, crop)
        across[region] = _alike(
            [
                (
                    cv2.GaussianBlur(np.ascontiguousarray(m[crop]), (0, 0), CROSS_SIGMA)[inside],
                    cv2.GaussianBlur(np.ascontiguousarray(v[crop]), (0, 0), CROSS_SIGMA)[inside],
                )
                for m, v in near
            ]
        )
        known[region] = True
    return across, known


def _alike(blurred: list[tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
    """`_dimmed_alike` from each class's blurred weight and weighted dimming."""
    (g0, v0), (g1, v1) = blurred
    l0, l1 = v0 / np.maximum(g0, 1e-6), v1 / np.maximum(g1, 1e-6)
    return (g0 > CROSS_WEIGHT) & (g1 > CROSS_WEIGHT) & (np.abs(l0 - l1) < SHADOW_DEV)


def _big_regions(mask: np.ndarray, ppu: int) -> np.ndarray:
    """The connected regions of ``mask`` at least HAND_PART big (part of a hand may be one)."""
    _, labels, areas = components(mask.astype(np.uint8))
    big = areas >= HAND_PART * ppu * ppu
    big[0] = False
    return np.take(big, labels)  # each pixel its region's flag (np.take: as indexing, faster)


def _deviation(values: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """How far each pixel's value is from the mean of the ``mask`` pixels around it."""
    m = mask.astype(np.float32)
    den = cv2.GaussianBlur(m, (0, 0), SHADOW_SMOOTH)
    # ``np.abs(values - blur(values * m) / np.maximum(den, 1e-6))``, in the blur's memory.
    out = cv2.GaussianBlur(values * m, (0, 0), SHADOW_SMOOTH)
    out /= np.maximum(den, 1e-6, out=den)
    return np.abs(np.subtract(values, out, out=out), out=out)


def _bridged(shadowish: np.ndarray, log_dim: np.ndarray, line: np.ndarray) -> np.ndarray:
    """``shadowish`` plus the grid-line pixels between two shadowish pixels facing each other
    across a line with the same dimming: one shadow goes on across a line, a hand's apparent
    dimming jumps there with the colour of the square.

    Where no ``shadowish`` pixel is on a line (judged pixels: `analyse`'s), a pair links line
    pixels only from a row (column) that is off the lines, with the row ``gap`` on off them
    too and a line between (`_pair_rows`: the last judged row before each line): those rows
    alone are compared, with the same numbers (tests/test_board_speed_24s.py keeps the form
    that compares every row)."""
    link = shadowish.copy()
    gap = 2 * LINE_PX + 1  # from the last judged pixel before a line to the first after it
    off_lines = not (shadowish & line).any()
    for axis in (0, 1):
        sh, ld, li, lk = (
            (shadowish, log_dim, line, link) if axis == 0 else (shadowish.T, log_dim.T, line.T, link.T)
        )
        n = sh.shape[0]
        a = _pair_rows(line, gap, axis == 1) if off_lines else np.arange(n - gap)
        if not len(a):
            continue
        # Rows evenly spaced (every row, or a grid's rows before its lines) are taken as
        # slices, views of the same rows in the same order: no copies to gather and scatter.
        step = int(a[1] - a[0]) if len(a) > 1 else 1
        if step > 0 and (len(a) == 1 or bool((np.diff(a) == step).all())):
            first, last = int(a[0]), int(a[-1])

            def rows(k: int, first: int = first, last: int = last, step: int = step) -> slice | np.ndarray:
                return slice(first + k, last + k + 1, step)
        else:

            def rows(k: int, a: np.ndarray = a) -> slice | np.ndarray:
                return a + k

        pair = sh[rows(0)] & sh[rows(gap)] & (np.abs(ld[rows(0)] - ld[rows(gap)]) < SHADOW_DEV)
        for k in range(1, gap):
            lk[rows(k)] |= pair & li[rows(k)]  # lk is link or its transposed view
    return link


def _pair_rows(line: np.ndarray, gap: int, transposed: bool = False) -> np.ndarray:
    """The rows ``y`` of a grid-line mask (its columns, ``transposed``) with a pixel off the
    lines in row ``y`` and row ``y + gap`` and on a line in a row between: where a pair of
    pixels off the lines can link line pixels (`_bridged`). Remembered per mask (the view's
    lines are the same every frame), keyed by the mask as it is laid out (packing the bits of
    a transposed view would take a copy of it, some 0.1 ms)."""
    return _pair_rows_of(line.shape, np.packbits(line).tobytes(), gap, transposed)


@lru_cache(maxsize=8)  # a few views' masks, each both ways round; safe across threads
def _pair_rows_of(shape: tuple[int, ...], bits: bytes, gap: int, transposed: bool) -> np.ndarray:
    line = _unpacked(shape, bits)
    if transposed:
        line = line.T
    n = line.shape[0]
    ends = ~line[: n - gap] & ~line[gap:]
    between = np.zeros_like(ends)
    for k in range(1, gap):
        between |= line[k : n - gap + k]
    return np.flatnonzero((ends & between).any(axis=1))


def _under_hands(
    foreign: np.ndarray,
    levels: np.ndarray,
    judged: np.ndarray,
    ppu: int,
    dimmed: np.ndarray,
    washed: np.ndarray,
    one_colour: np.ndarray | None = None,
    log_dim: np.ndarray | None = None,
    verified: np.ndarray | None = None,
    lit: np.ndarray | None = None,
    hands: Hands | None = None,
    parts_out: list[np.ndarray] | None = None,
    sticker: np.ndarray | None = None,
) -> np.ndarray:
    """Pixels that may be under a hand although they look bare (see the module docstring).

    A hand's palette leaves out its pixels that look like dimmed board: its shadow's edge
    often joins it, and would make the bare board around it look like the hand. The patches
    of ``one_colour`` (dimmed, over one colour of square only; ``log_dim`` their dimming)
    that may be a hand part rather than its shadow are the hand's too. The gaps a palm spans
    do not reach a ``verified`` shadow (`vision.board_shadow_verify`) more than
    VERIFY_MARGIN px from the hand. ``hands``: `Hands.of` ``foreign`` and ``dimmed``, if made.
    ``parts_out``, if given, receives the pixels hidden as a hand part or washed out (not by
    colour), for `vision.board_hand_step` to leave their patches alone. ``sticker``: pixels of a
    piece's sticker (`vision.board_piece_ink.sticker_faces`), left out of the palettes only."""
    if hands is None:
        hands = Hands.of(foreign, dimmed, ppu)
    if not len(hands.big):  # (before asking for the labels: `Hands` makes them only then)
        return np.zeros(foreign.shape, bool)
    labels, stats, big, blobs = hands.labels, hands.stats, hands.big, hands.mask
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * round(CLOSE_RADIUS * ppu) + 1,) * 2)
    # Into a square where no hand shows, a hand seen next door goes on only as a solid hand
    # would: its outline carried on across the grid line (vision.board_hands). Where some of
    # the hand shows in the square itself, its shading may fade into the square's colour
    # anywhere: no bound there. This bounds both the gaps a palm spans and the hand's colours.
    closed = _closing(blobs, disc) & ~foreign
    # The palettes: colours each hand shows in its core, give or take one bin per channel.
    # Each pixel is compared with the palette of the hand nearest to it.
    dist, nearest = cv2.distanceTransformWithLabels(
        (~blobs).astype(np.uint8), cv2.DIST_L2, 3, labelType=cv2.DIST_LABEL_CCOMP
    )
    same = _in_palettes(levels, labels, stats, big, hands.core, nearest, round(REACH * ppu) + 2, sticker)
    # The palette is the whole hand's; next to where it shows, a hand is no brighter than it
    # shows there (vision.board_near_colour). Not judged: pixels under a lamp's light, which
    # brightens them, and the hand's blurred outline, a mix of hand and board (its rings are
    # unmixed by vision.board_rim).
    # Judged once for the palette's pixels and the gaps a palm spans alike (each pixel's
    # verdict is its own); the gaps left after the bounds below drop theirs too.
    core = hands.core
    untold = dist <= RIM_RINGS
    if lit is not None:
        untold = untold | lit
    judged_bright = (same | closed) & ~untold
    # The view's 3 × 3 mean, whose hues both the brightness bound and the gaps' hue rule read.
    smooth = mean3(levels) if judged_bright.any() or closed.any() else None
    unlike = judged_bright & ~near_hand_colour(levels, core, judged_bright, ppu, smooth)
    same &= ~unlike
    same |= washed
    # A hand part of a dimmed board colour (a thumb a shade darker than the light squares)
    # fits as a shadow, not as foreign; where it may be the hand, the hand shows in that
    # square as much as where it is foreign, and those pixels are the hand's.
    parts = np.zeros_like(blobs)
    if one_colour is not None and log_dim is not None:
        parts = dimmed_hand_parts(
            one_colour, labels, big, log_dim, judged & ~foreign, 2 * LINE_PX + 1, closed, blobs
        )
    # The hand's colours reach REACH from where it shows: foreign, or such a part.
    if parts.any():
        dist = np.minimum(dist, cv2.distanceTransform((~parts).astype(np.uint8), cv2.DIST_L2, 3))
    same &= dist <= REACH * ppu
    same &= judged & ~foreign
    own = _squares_with(blobs | parts, ppu)
    # Glare that washes out the board's colours hides a hand's outline as well as its colour:
    # washed pixels joined to a hand may be the hand, and bound nothing in its stead.
    unseen = _grown(blobs | parts, washed & judged & ~foreign, ppu)
    bound = reach_across_lines(blobs | closed | parts | unseen, ppu, LINE_PX, ~own) | _spread(own, ppu)
    closed &= bound
    if verified is not None:
        # A palm does not span a verified shadow; its colours may still reach over one (a
        # hand of the shadowed board's colour beside its own shadow is not told from it).
        margin = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * VERIFY_MARGIN + 1,) * 2)
        closed &= ~verified | (cv2.dilate(foreign.astype(np.uint8), margin) > 0)
    if lit is not None:
        # A hollow whose board shows a hue no hand has is not under a hand (vision.board_gaps).
        # The hands' regions and core as found (`Hands`: the same erosion of the same pixels,
        # less the same dimmed ones), for the gaps' hue rule not to find them again.
        regions = HandRegions(labels, stats, big, core) if PALETTE_ERODE == CORE_ERODE else None
        closed = spanned_gaps(closed, blobs, levels, lit, dimmed, parts, smooth, regions) & ~unlike
    same &= ~closed
    same &= bound
    if parts_out is not None:
        parts_out.append(parts | unseen)  # hidden as a hand part or washed out, not by colour
    return closed | _grown(blobs | parts, same, ppu) | parts


def _in_palettes(
    levels: np.ndarray,
    labels: np.ndarray,
    stats: np.ndarray,
    big: np.ndarray,
    core: np.ndarray,
    nearest: np.ndarray,
    reach: int,
    sticker: np.ndarray | None = None,
) -> np.ndarray:
    """The pixels whose colour is in the palette of the hand nearest to them, within
    ``reach`` px of that hand's box: `Hands` ``labels``, ``stats``, ``big`` and ``core``;
    ``nearest``: the label of the nearest hand pixel's component (``cv2.DIST_LABEL_CCOMP``);
    ``sticker``: a piece's sticker under the fingers, whose white paper and black ink are not
    the hand's colours. A palette holds the colours of the hand's core, shaded (SHADES: the
    same skin a little brighter or darker is still the hand), in bins of PALETTE_BIN levels
    with PALETTE_MIN pixels or more, and the bins next to them (`_widen`).

    All hands at once: their colours counted in one `np.bincount` (a hand's bins offset by
    its place in ``big``), and each pixel looks its colour up in the palette of the hand it
    is nearest to, if within that hand's box. The same pixels as taking the hands one at a
    time, each in its own box (tests/test_board_speed_22.py keeps that form): a pixel is
    nearest to one component of one hand, and a hand's core is the core's pixels in its
    label (`Hands.core`: a pixel whose PALETTE_ERODE neighbourhood is all hand is all of one
    hand)."""
    nb = PALETTE_BINS
    h, w = labels.shape
    # Each hand's index in ``big`` per label (-1: not a hand).
    index = np.full(len(stats), -1, np.intp)
    index[big] = np.arange(len(big))
    own = core if sticker is None else core & ~sticker
    ys, xs = pixels_of(own)
    hand = index[labels[ys, xs]]
    keep = hand >= 0
    seen, hand = levels[ys[keep], xs[keep]], hand[keep]
    shades = np.concatenate([seen * f for f in SHADES])
    # The bins with PALETTE_MIN pixels or more, counted among the bins some hand shows
    # (`_hand_bins`): a `bincount` over every hand's 32,768 bins (some 4 MB to zero on a hand
    # frame) and `np.unique`'s sort of the few thousand colours seen cost more (the same bins,
    # in order).
    bins, counts = _hand_bins(np.tile(hand, len(SHADES)), colour_bins(shades), nb**3)
    palettes = _widen_bins(bins[counts >= PALETTE_MIN], len(big) * nb**3, nb).reshape(len(big), nb**3)
    # The component of ``nearest`` each hand is: the one at its first pixel (row-major; in
    # its top row, the first of its pixels), as `near[blob][0]` in the hand's box. A hand's
    # other components, if the labelling of ``nearest`` splits one, are no hand's.
    x, y, bw, bh = (stats[big, i] for i in range(4))
    first_x = np.argmax(labels[y] == big[:, None], axis=1)
    component = np.full(int(nearest.max()) + 1, -1, np.int32)
    component[nearest[y, first_x]] = np.arange(len(big))
    k = component[nearest]
    # Within that hand's box, widened by ``reach``.
    x0, x1 = np.maximum(0, x - reach), np.minimum(w, x + bw + reach)
    y0, y1 = np.maximum(0, y - reach), np.minimum(h, y + bh + reach)
    inside = np.zeros((h, w), bool)
    for j in range(len(big)):
        box = slice(y0[j], y1[j]), slice(x0[j], x1[j])
        inside[box] |= k[box] == j
    at = np.flatnonzero(inside)
    out = np.zeros((h, w), bool)
    # The pixels' colours gathered by `np.take` of whole rows: the copy an index array makes, faster.
    seen_at = np.take(levels.reshape(h * w, -1), at, axis=0)
    out.ravel()[at] = palettes.ravel()[k.ravel()[at] * nb**3 + colour_bins(seen_at)]
    return out


def _hand_bins(hand: np.ndarray, bins: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(hand * size + bins, return_counts=True)`` for whole numbers ``hand`` ≥ 0
    and ``bins`` in ``[0, size)``: the bins any hand shows numbered in order first (a table of
    ``size``), then each hand's counted in a table of hands × those bins. The same codes in
    the same order and their counts, without a sort (tests/test_board_speed_24c.py)."""
    if not len(bins):
        return np.zeros(0, np.result_type(hand, bins, size)), np.zeros(0, np.intp)
    present, rank, _ = small_unique(bins, size)
    n = len(present)
    counts = np.bincount(hand * n + rank, minlength=(int(hand.max()) + 1) * n)
    found = np.flatnonzero(counts)
    return (found // n) * size + present[found % n], counts[found]


def _closing(mask: np.ndarray, kernel: np.ndarray) -> np.ndarray:
    """``cv2.morphologyEx(mask, MORPH_CLOSE, kernel) > 0`` (a symmetric kernel), computed in
    the box around ``mask`` only, widened by twice the kernel's reach and one: the dilation
    reaches one radius beyond the mask, so the box's own edge (never eroded from outside,
    as the view's) lies beyond anything the erosion could keep. Exact, and cheaper while the
    hands cover a corner of the board. A kernel of centred rows (OpenCV's ellipse) is
    applied as its rectangles (`_by_rectangles`), the same pixels in under half the time."""
    r = max(kernel.shape) // 2
    if not mask.any():
        return np.zeros(mask.shape, bool)
    around = box_around(mask, 2 * r + 1)
    out = np.zeros(mask.shape, bool)
    box = mask[around].astype(np.uint8)
    rects = _rectangles(kernel)
    if rects is None:
        out[around] = cv2.morphologyEx(box, cv2.MORPH_CLOSE, kernel) > 0
    else:
        grown = _by_rectangles(box, rects, cv2.dilate, np.bitwise_or)
        out[around] = _by_rectangles(grown, rects, cv2.erode, np.bitwise_and) > 0
    return out


def _rectangles(kernel: np.ndarray) -> list[tuple[int, int]] | None:
    """A kernel of odd size whose every row is one run centred on the middle column, the runs
    no wider away from the middle row, symmetric up and down (``cv2.MORPH_ELLIPSE``'s), as
    the centred rectangles it is the union of: (half-width, half-height) pairs, widest first
    (each as tall as the farthest row at least that wide). None for any other kernel.
    Remembered per kernel (a hand frame asks for the same disc each time; working it out
    took 0.1 ms)."""
    rects = _rectangles_of(kernel.shape, (kernel != 0).tobytes())
    return None if rects is None else list(rects)


@lru_cache(maxsize=8)  # the few kernels the reader closes by; safe across threads
def _rectangles_of(shape: tuple[int, ...], bits: bytes) -> tuple[tuple[int, int], ...] | None:
    kernel = np.frombuffer(bits, bool).reshape(shape)
    kh, kw = kernel.shape
    if kh % 2 == 0 or kw % 2 == 0:
        return None
    half = (kernel != 0).sum(axis=1) // 2
    r = kh // 2
    rects: dict[int, int] = {}
    for dy in range(-r, r + 1):
        w = int(half[dy + r])
        rects[w] = max(rects.get(w, 0), abs(dy))
    out = sorted(rects.items(), reverse=True)
    if any(h1 >= h2 for (_, h1), (_, h2) in itertools.pairwise(out)):
        return None  # a narrower row nearer the middle than a wider one
    again = np.zeros(kernel.shape, bool)
    for w, h in out:
        again[r - h : r + h + 1, kw // 2 - w : kw // 2 + w + 1] = True
    return tuple(out) if np.array_equal(again, kernel != 0) else None


def _by_rectangles(
    image: np.ndarray,
    rects: list[tuple[int, int]],
    op: Callable[[np.ndarray, np.ndarray], np.ndarray],
    join: Callable[[np.ndarray, np.ndarray], np.ndarray],
) -> np.ndarray:
    """``op`` (`cv2.dilate` with ``join`` OR, or `cv2.erode` with AND) of a uint8 mask by the
    union of the centred rectangles ``rects`` (`_rectangles`, widest first), built up from
    thin strokes: with rectangles (w₁, h₁), (w₂, h₂), … growing taller as they narrow, the
    dilation by their union is H(w₂) of [H(w₁ − w₂) V(h₁) ∪ V(h₂) …], where H(w) and V(h)
    dilate along a row and a column by ± w and ± h px, and V(h₂) = V(h₂ − h₁) V(h₁): some
    twenty strokes of a few pixels each, where the kernel's own dilation compares every pixel
    with every one of the kernel's. Exact (a dilation by a union is the union of the
    dilations, and a stroke of a + b px is two of a and b, also at the image's border, where
    OpenCV's default border neither dilates nor erodes); an erosion likewise, by AND."""

    def row(k: int) -> np.ndarray:
        return np.ones((1, 2 * k + 1), np.uint8)

    def column(k: int) -> np.ndarray:
        return np.ones((2 * k + 1, 1), np.uint8)

    (w0, h0), *rest = rects
    tall = op(image, column(h0)) if h0 else image  # V(h) of the image, h growing
    union = tall
    for w, h in rest:
        if h > h0:
            tall = op(tall, column(h - h0))
        union = join(op(union, row(w0 - w)), tall)
        w0, h0 = w, h
    return op(union, row(w0)) if w0 else union


def _one_colour_shade(
    shade: np.ndarray, log_dim: np.ndarray, line: np.ndarray, classes: np.ndarray
) -> np.ndarray:
    """The dimmed patches (``shade``) over squares of one colour only (the other colour
    under less than LONE_SHADE of a patch): a shadow dims dark and light squares alike and
    goes on across a grid line unchanged (`_bridged`), while a hand part of a dimmed board
    colour (a thumb a shade darker than the light squares) looks dimmed only over that colour
    (over the other it is foreign)."""
    count, lab = cv2.connectedComponents(_bridged(shade, log_dim, line).astype(np.uint8), connectivity=8)
    if count <= 1:
        return np.zeros(shade.shape, bool)
    sel = shade & ~line
    per = [np.bincount(masked(lab, sel & (classes == c)), minlength=count) for c in (0, 1)]
    total = np.maximum(per[0] + per[1], 1)
    one = np.minimum(per[0], per[1]) < LONE_SHADE * total
    one[0] = False
    return np.take(one, lab) & shade  # each pixel its patch's flag (np.take: as indexing, faster)


def _grown(blobs: np.ndarray, allowed: np.ndarray, ppu: int) -> np.ndarray:
    """The ``allowed`` pixels connected to ``blobs`` through allowed pixels, within REACH;
    grown from the hands across the grid lines (a disc: a corner contact does not count)."""
    out = np.zeros(allowed.shape, bool)
    rows, cols = np.flatnonzero(allowed.any(axis=1)), np.flatnonzero(allowed.any(axis=0))
    if not len(rows):
        return out
    # Nothing grows outside the box of the allowed pixels: the steps are taken in it alone
    # (a dilation there reads nothing beyond the box that the view's would: zeros), the
    # same pixels after the same number of steps.
    box = slice(int(rows[0]), int(rows[-1]) + 1), slice(int(cols[0]), int(cols[-1]) + 1)
    jump = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (4 * LINE_PX + 3,) * 2)
    may = allowed[box].astype(np.uint8)
    # The jump's dilation in the box, from the blobs within the jump's reach of it (the box
    # widened by its radius, as far as the view goes: the view's own border is the same).
    j = 2 * LINE_PX + 1
    h, w = allowed.shape
    y0, x0 = max(0, box[0].start - j), max(0, box[1].start - j)
    around = slice(y0, min(h, box[0].stop + j)), slice(x0, min(w, box[1].stop + j))
    inner = (
        slice(box[0].start - y0, box[0].stop - y0),
        slice(box[1].start - x0, box[1].stop - x0),
    )
    grown = cv2.dilate(blobs[around].astype(np.uint8), jump)[inner] & may
    step = np.ones((3, 3), np.uint8)
    # A step only adds pixels (the 3 × 3 square holds its centre, and ``grown`` lies in
    # ``may``): it changed nothing when the count stayed (np.array_equal's answer).
    count = cv2.countNonZero(grown)
    for _ in range(round(REACH * ppu)):
        nxt = cv2.dilate(grown, step) & may
        grew = cv2.countNonZero(nxt)
        if grew == count:
            break
        grown, count = nxt, grew
    out[box] = grown > 0
    return out


def _squares_with(mask: np.ndarray, ppu: int) -> np.ndarray:
    """The squares (size × size, top-view order) whose inside holds some of ``mask``, more
    than a thin line of it: the outline of a hand next door passing a square's corner,
    blurred, makes a line of misfit pixels one or two wide, which says nothing of a hand's
    shading in the square."""
    body = cv2.erode(mask.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
    return square_insides(body, ppu, LINE_PX).sum(axis=(1, 3)) >= OWN_PIXELS


def _spread(squares: np.ndarray, ppu: int) -> np.ndarray:
    """A per-square mask → per pixel."""
    return squares.repeat(ppu, axis=0).repeat(ppu, axis=1)  # np.kron with a block of ones


def colour_bins(levels: np.ndarray) -> np.ndarray:
    """The palette bin of each colour (0–255 levels, last axis B, G, R) as one index."""
    # ``floor(level / 8)`` clipped to the bins: a float floor division is 50 times slower
    # than this product (exact: a power of two), clipped, then truncated (the floor of a
    # non-negative number; a negative level is clipped to 0 either way).
    q = np.clip(levels * (1 / PALETTE_BIN), 0, PALETTE_BINS - 1).astype(np.int32)
    return (q[..., 0] * PALETTE_BINS + q[..., 1]) * PALETTE_BINS + q[..., 2]


def _widen(palette: np.ndarray) -> np.ndarray:
    """A colour palette (bins × bins × bins) and the bins next to them, one channel at a
    time (no wrap-around from the darkest bins to the brightest): a dilation by the six
    neighbours in colour space. A hand's palette holds a few hundred of the 32,768 bins:
    each of them marks itself and its neighbours, by flat index (cheaper than dilating the
    whole cube, the same bins)."""
    nb = palette.shape[-1]  # (bins × bins × bins), or hands × that
    return _widen_bins(np.flatnonzero(palette), palette.size, nb).reshape(palette.shape)


def _widen_bins(at: np.ndarray, size: int, nb: int) -> np.ndarray:
    """`_widen` of the palette (flat, ``size`` bins, ``nb`` a channel) whose bins are ``at``."""
    out = np.zeros(size, bool)
    out[at] = True
    for stride in (1, nb, nb * nb):
        bin_ = at // stride % nb  # the bin along this channel
        out[at[bin_ > 0] - stride] = True
        out[at[bin_ < nb - 1] + stride] = True
    return out


def free_fraction(good: np.ndarray, radius_px: float) -> np.ndarray:
    """For each pixel, the share of the disc of ``radius_px`` around it that cannot hide a
    piece: a piece centred there would have to be covered everywhere it is not seen."""
    r = max(1, round(radius_px))
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1,) * 2).astype(np.float32)
    disc /= disc.sum()
    return cv2.filter2D(good.astype(np.float32), -1, disc, borderType=cv2.BORDER_CONSTANT)


__all__ = [
    "GLARE_ROUNDS",
    "Lamp",
    "Surface",
    "View",
    "analyse",
    "colour_bins",
    "free_fraction",
    "judge_spots",
    "lamp_light",
    "predict",
    "spot_map",
]
