"""Foreign regions: what lies over the board that is neither bare board nor a read piece.

The reader's pixel analysis (`vision.board_surface`) sorts every pixel of the top view into
bare board, *foreign* (not board) and *hidden* (bare-looking, but perhaps under a hand). This
module groups those pixels into regions and says what each one probably is, so the referee
can tell "a hand is over the board, wait" from "a square cannot be read":

- ``hand``: 1.5 squares' area or more over two squares or more, reaching the edge of the
  board or of the picture (a hand comes with an arm, and the arm comes from the table's
  edge), or 3 squares' area anywhere;
- ``held piece``: over a square where a marker of implausible size was seen (a piece held
  above the board, in a hand too small to be seen as one);
- ``glare``: mostly where the reader's lamp model puts strong reflected light;
- ``piece``: about one piece's footprint, compact (a piece whose marker cannot be read, a
  fallen piece), even on an edge square;
- ``other``: anything else (a sleeve's cuff, a die, a misfit the reader could not explain).

Each region lists the squares it touches (``squares``) and those it covers a good part of
(``core``, what it may hide; its rim flickers from frame to frame, its core does not), its
area in squares (1.0 is one square), and whether it reaches the board's edge and the
picture's edge.

>>> Region("hand", ("a1", "b1"), 1.4, True, False).to_json()["kind"]
'hand'
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Literal

import cv2
import numpy as np

from vision.board_fast import box_of, components, masked, median
from vision.board_geometry import ALL_SQUARES, SIZE, square_index
from vision.board_squares import BoardLight
from vision.board_surface import Surface

RegionKind = Literal["hand", "held piece", "glare", "piece", "other"]

MIN_AREA = 0.06  # squares: smaller specks are the misfits of a noisy frame, not things
JOIN_PX = 7  # px of the top view: grid lines (4 px, never judged) do not split a region
TOUCH = 0.06  # share of a square a region must cover to be said to touch it
CORE = 0.25  # ... and to be one of the squares it covers (its rim flickers from frame to frame)
EDGE_PX = 5  # px from the view's border (the border's own grid line is 2 px): the board's edge
HAND_AREA = 1.5  # squares: at the edge, this much is a hand with its arm (a piece is 0.5–0.8;
# with the glare or noise beside it up to 1.4; the smallest hands of the benchmark 1.7–1.8)
HAND_CORE = 2  # ... covering two squares or more (a palm, and its wrist or fingers)
BIG_AREA = 3.0  # squares: this much anywhere is something large over the board (glare rims: < 3)
GLARE_SHARE = 0.6  # share of a region under strong modelled lamp light that makes it glare
LAMP_STRONG = 0.3  # lamp light above this share of the board's own brightness is strong
SATURATED_LIN = 0.96  # linear level: a pixel this bright may be clipped
SEEN = 0.7  # share of the printed contrast kept where the board shows through (light added)
HIDDEN = 0.4  # ... and lost where something lies over it
REFLECTION_GREY = 0.6  # share of a region lit grey over the board that makes it lamp light ...
REFLECTION_KEPT = 0.5  # ... if it keeps this share of the printed contrast
SEEN_AREA = 1.0  # squares: this much of a region showing the board ...
HIDDEN_AREA = 1.0  # ... and less than this hiding it: the board seen through light, not a hand
WHOLE_KEPT = 0.7  # share of the printed contrast a whole region keeps when the board shows through


@dataclass(frozen=True)
class Region:
    """One foreign region of a frame (see the module docstring)."""

    kind: RegionKind
    squares: tuple[str, ...]  # touched (TOUCH of the square or more), in ALL_SQUARES order
    area: float  # in squares
    board_edge: bool  # reaches the edge of the board
    frame_edge: bool  # reaches the edge of the picture
    core: tuple[str, ...] = ()  # covered (CORE or more; at least the most covered square)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "squares": list(self.squares),
            "area": round(self.area, 2),
            "board_edge": self.board_edge,
            "frame_edge": self.frame_edge,
            "core": list(self.core),
        }


def _square_cover(component: np.ndarray, ppu: int) -> np.ndarray:
    """Share of every square (ALL_SQUARES order) a top-view mask covers."""
    blocks = component.reshape(SIZE, ppu, SIZE, ppu).mean(axis=(1, 3))  # [row from rank 9][file]
    return blocks[::-1].reshape(-1)


def classify(
    area: float,
    board_edge: bool,
    frame_edge: bool,
    lit_share: float,
    held: bool,
    compact: bool,
    core: int = HAND_CORE,
) -> RegionKind:
    """What a region probably is, from its measures (see the module docstring).

    >>> classify(1.8, True, False, 0.0, False, False)
    'hand'
    >>> classify(0.4, False, False, 0.0, False, True)
    'piece'
    """
    if area < HAND_AREA and not frame_edge:
        # Up to one piece's footprint, even on an edge square: a piece whose marker cannot be
        # read, or one with a speck of noise beside it (a palm with its arm is larger).
        if held:
            return "held piece"
        if lit_share >= GLARE_SHARE:
            return "glare"
        return "piece" if compact else "other"
    if (area >= HAND_AREA and core >= HAND_CORE and (board_edge or frame_edge)) or area >= BIG_AREA:
        # A glare spot washing out the board's edge is big and at the edge as well: what the
        # lamp model explains is the lamp's, unless it is too big for one spot's rim.
        if lit_share >= GLARE_SHARE and area < BIG_AREA:
            return "glare"
        return "hand"
    if held:
        return "held piece"
    if lit_share >= GLARE_SHARE:
        return "glare"
    return "other"


@dataclass(frozen=True)
class Light:
    """What a region's pixels show against bare board: the linear top view and bare board's
    predicted linear colour there (`vision.board_squares.BoardLight.predicted`, where known)."""

    lin: np.ndarray
    pred: np.ndarray
    known: np.ndarray

    @cached_property
    def cut(self) -> float:
        """The linear level between dark and light squares: the median of bare board's
        predicted brightness (about half the board is of each class). Worked out when first
        asked (a region that may be a hand): most frames have none."""
        # Channel by channel (numpy sums a short last axis slowly; the same sums, bit for bit).
        brightness = self.pred[..., 0] + self.pred[..., 1] + self.pred[..., 2]
        return float(median(brightness[self.known])) / 3 if self.known.any() else 0.0


def light_of(lin: np.ndarray, pred: np.ndarray, known: np.ndarray) -> Light:
    """`Light` of the linear top view ``lin``, bare board's predicted colour ``pred`` and where
    it is ``known`` (its `Light.cut` between the classes worked out when asked)."""
    return Light(lin, pred, known)


def _contrast_kept(lin: np.ndarray, pred: np.ndarray, dark: np.ndarray, bright: np.ndarray) -> float | None:
    """Light squares minus dark ones as seen, over the same as predicted (None: too few)."""
    # Counted by count_nonzero and gathered by `masked` (np.compress): the sums' integers and
    # boolean indexing's values in its order, without numpy's slower paths (a tile's crops).
    if np.count_nonzero(dark) < 10 or np.count_nonzero(bright) < 10:
        return None
    printed = float(median(masked(pred, bright)) - median(masked(pred, dark)))
    if printed <= 0.02:
        return None
    return float(median(masked(lin, bright)) - median(masked(lin, dark))) / printed


def board_seen_through(own: np.ndarray, light: Light, ppu: int) -> tuple[float, float, float]:
    """How much of a region shows the board's printed pattern, and how much hides it.

    Lamp light, or a lighting misfit, only adds to or scales what the board shows: the
    printed contrast (light squares minus dark ones, in linear light) is still there. A hand
    or a sleeve paints dark and light squares in its own colour, and the contrast is gone.
    The region's unclipped pixels are cut into tiles of 2 × 2 squares (each holds both
    classes); in every tile with enough pixels of both, the contrast kept is measured against
    bare board's predicted contrast. Returns the areas (in squares) of the region in tiles
    that keep it (``SEEN`` or more) and that lose it (under ``HIDDEN``), and the contrast kept
    over the whole region (0 when it cannot be measured).
    """
    tile = 2 * ppu
    rows, cols = np.flatnonzero(own.any(axis=1)), np.flatnonzero(own.any(axis=0))
    if not len(rows):
        return 0.0, 0.0, 0.0
    # Only the tiles the region lies in (cheap: most regions are a few squares).
    y0, x0 = rows[0] // tile * tile, cols[0] // tile * tile
    window = (slice(y0, rows[-1] // tile * tile + tile), slice(x0, cols[-1] // tile * tile + tile))
    own, rgb, prgb = own[window], light.lin[window], light.pred[window]
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]  # channel by channel: faster than axis=2
    lin, pred = (r + g + b) / 3, (prgb[..., 0] + prgb[..., 1] + prgb[..., 2]) / 3
    usable = own & light.known[window] & (np.maximum(np.maximum(r, g), b) < SATURATED_LIN)
    if not usable.any():
        return 0.0, 0.0, 0.0
    dark_all, bright_all = usable & (pred < light.cut), usable & (pred >= light.cut)
    whole = _contrast_kept(lin, pred, dark_all, bright_all)
    seen = hidden = 0.0
    for y in range(0, own.shape[0], tile):
        for x in range(0, own.shape[1], tile):
            part = (slice(y, y + tile), slice(x, x + tile))
            kept = _contrast_kept(lin[part], pred[part], dark_all[part], bright_all[part])
            if kept is None:
                continue
            area = int(np.count_nonzero(own[part])) / (ppu * ppu)  # float(own[part].sum()) / …
            if kept >= SEEN:
                seen += area
            elif kept < HIDDEN:
                hidden += area
    return seen, hidden, whole or 0.0


def shows_board(seen: float, hidden: float) -> bool:
    """Whether a big region at the edge is the board seen through a lighting misfit, not a
    hand, from `board_seen_through`'s areas: at least a square's area keeps the printed
    contrast and under a square's area (and under half what keeps it) loses it. The smallest
    hands of the tune scenes hide 1.9 squares' area.

    >>> shows_board(4.0, 0.0), shows_board(1.0, 1.5), shows_board(0.0, 0.0)
    (True, False, False)
    """
    return seen >= SEEN_AREA and hidden < min(HIDDEN_AREA, seen / 2)


def kept_whole(whole: float, hidden: float) -> bool:
    """A region too ragged for its tiles to say (each holds too little of one class) that
    keeps most of the printed contrast as a whole (``whole``, of `board_seen_through`)
    and loses it nowhere over a square's area. Hands of the tune scenes keep at most 0.62."""
    return whole >= WHOLE_KEPT and hidden < HIDDEN_AREA


def grey_brighter(own: np.ndarray, light: Light) -> float:
    """The share of a region brighter than bare board would be, in every channel alike (the
    lamp's light added, not a colour of its own)."""
    px = own & light.known
    if not px.any():
        return 0.0
    ex = light.lin[px] - light.pred[px]
    mean = ex.mean(axis=1)
    off = np.sqrt(((ex - mean[:, None]) ** 2).sum(axis=1))
    return float(((mean > 0.01) & (off < 0.43 * mean + 0.01)).mean())


def is_reflection(grey: float, whole: float) -> bool:
    """Lamp light the lamp model does not explain: most of the region is lit grey over the
    board (``grey``, from `grey_brighter`) and the printed contrast is still half there
    (``whole``); a white sleeve is grey and bright too, but paints the squares one colour.
    Hands of the tune scenes and the benchmark's dev games: at most 0.41 lit grey.

    >>> is_reflection(0.8, 0.7), is_reflection(0.8, 0.1), is_reflection(0.3, 1.0)
    (True, False, False)
    """
    return grey >= REFLECTION_GREY and whole >= REFLECTION_KEPT


def find_regions(
    foreign: np.ndarray,
    hidden: np.ndarray,
    outside: np.ndarray,
    lamp_share: np.ndarray | Callable[[], np.ndarray],
    held: Iterable[str] = (),
    light: Light | None = None,
) -> tuple[Region, ...]:
    """The foreign regions of a top view (``SIZE × ppu`` pixels square, rank 9 at the top).

    ``foreign`` and ``hidden`` are the pixel verdicts of `vision.board_surface.analyse`,
    ``outside`` the pixels not in the picture, ``lamp_share`` the modelled lamp light as a
    share of bare board's own brightness (or a function making it, called when a region
    first asks: most frames without a hand have none), ``held`` the squares where a marker
    of implausible size was seen. Largest region first.
    """
    n = foreign.shape[0]
    ppu = n // SIZE
    mask = (foreign | hidden) & ~outside
    if not mask.any():
        return ()
    kernel = np.ones((JOIN_PX, JOIN_PX), np.uint8)
    joined = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_CLOSE, kernel) > 0
    joined &= ~outside
    count, labels, _ = components(joined.astype(np.uint8))
    border = np.zeros((n, n), bool)
    border[:EDGE_PX], border[-EDGE_PX:], border[:, :EDGE_PX], border[:, -EDGE_PX:] = True, True, True, True
    # (Nothing is near the picture's edge when the whole board is in the picture: no dilation.)
    near_outside = (
        cv2.dilate(outside.astype(np.uint8), np.ones((2 * EDGE_PX + 1,) * 2, np.uint8)) > 0
        if outside.any()
        else outside
    )
    lit: np.ndarray | None = None
    held_set = set(held)
    out: list[Region] = []
    # Each region's own pixels counted at once (the specks below MIN_AREA need nothing more).
    owned = np.bincount(labels[mask], minlength=count)
    for k in range(1, count):
        area = float(owned[k]) / (ppu * ppu)
        if area < MIN_AREA:
            continue
        component = labels == k
        own = component & mask  # the pixels themselves, not the gaps closed between them
        cover = _square_cover(component, ppu)
        most = {int(np.argmax(cover))}
        squares = tuple(ALL_SQUARES[i] for i in sorted(set(np.flatnonzero(cover >= TOUCH)) | most))
        core = tuple(ALL_SQUARES[i] for i in sorted(set(np.flatnonzero(cover >= CORE)) | most))
        board_edge = bool((component & border).any())
        frame_edge = bool((component & near_outside).any())
        _, _, w, h = box_of(component)
        # Compact: fills its bounding box like a disc does (π/4) and is no longer than wide.
        compact = max(w, h) <= 1.4 * ppu and max(w, h) <= 2 * min(w, h)
        if lit is None:
            lit = (lamp_share() if callable(lamp_share) else lamp_share) > LAMP_STRONG
        lit_share = float(lit[own].mean())
        held_here = bool(held_set & set(squares))
        kind = classify(area, board_edge, frame_edge, lit_share, held_here, compact, len(core))
        if light is not None and kind == "hand":
            showing, hiding, whole = board_seen_through(own, light, ppu)
            board_shows = shows_board(showing, hiding) or kept_whole(whole, hiding)
            if whole >= REFLECTION_KEPT or board_shows:  # else a hand: no need to look further
                grey = grey_brighter(own, light)
                if is_reflection(grey, whole):
                    kind = "glare"  # the lamp's light, in a shape its model does not explain
                elif board_shows:
                    # The printed pattern shows through: the lighting model misfits here;
                    # nothing is laid over the board.
                    kind = "glare" if grey >= REFLECTION_GREY else "other"
        out.append(Region(kind, squares, area, board_edge, frame_edge, core))
    return tuple(sorted(out, key=lambda r: -r.area))


def regions_of(
    surface: Surface, light: BoardLight, held: Iterable[str] = (), lin: np.ndarray | None = None
) -> tuple[Region, ...]:
    """The regions of a frame from the reader's pixel verdicts and its light (see
    `find_regions`); a held marker no region covers is a region of its own."""

    def lamp_share() -> np.ndarray:
        pred = light.predicted
        own = np.maximum((pred[..., 0] + pred[..., 1] + pred[..., 2]) / 3, 1e-4)  # .sum(axis=2), faster
        return light.lamp / own

    shown = None if lin is None else light_of(lin, light.predicted, light.known)
    hidden = surface.hidden if surface.reach is None else surface.reach
    found = find_regions(surface.foreign, hidden, surface.outside, lamp_share, held, shown)
    covered = {sq for r in found for sq in r.core}
    return found + tuple(held_region(sq) for sq in sorted(set(held) - covered, key=ALL_SQUARES.index))


@dataclass
class RegionFinder:
    """Collects a frame's regions for the reader: pass ``look`` to
    `vision.board_squares.judge_squares`, then read ``found`` (the held markers alone when
    the squares were never judged)."""

    held: list[str]
    found: tuple[Region, ...] = ()

    def __post_init__(self) -> None:
        self.found = tuple(held_region(sq) for sq in self.held)

    def look(self, surface: Surface, light: BoardLight, lin: np.ndarray | None = None) -> None:
        self.found = regions_of(surface, light, self.held, lin)


def held_region(square: str) -> Region:
    """A held piece seen only by its marker (the pixel analysis never judged that square)."""
    f, r = square_index(square)
    edge = f in (0, SIZE - 1) or r in (0, SIZE - 1)
    return Region("held piece", (square,), 0.0, edge, False, (square,))


__all__ = ["Region", "RegionFinder", "RegionKind", "classify", "find_regions", "held_region", "regions_of"]
