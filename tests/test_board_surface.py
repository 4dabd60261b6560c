"""How the reader judges unmarked squares, on drawn top views and on rendered scenes: the noise
it measures, the piece it looks for, shadows, hands under strong glare.

A top view here is drawn directly (9 × PPU pixels square, rank 9 on top), with the board's
colours in linear light, so every test controls exactly what covers what.
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.scene_cache import scene
from vision.board_geometry import ALL_SQUARES, DEFAULT_GEOMETRY, SIZE, square_index
from vision.board_glare import fit_spots
from vision.board_reader import _Placed, piece_reach, read_board
from vision.board_squares import CENTRE_BOX, PIECE_RADIUS, PPU, PieceReach, judge_squares
from vision.board_surface import _noise, _widen

DARK = np.array([0.06, 0.15, 0.26])  # linear B, G, R of the wood scheme's squares
LIGHT = np.array([0.30, 0.58, 0.79])
MAZE = ALL_SQUARES.index("e5")


def _board(rng: np.random.Generator, light: np.ndarray | None = None) -> np.ndarray:
    """A bare top view in linear light (float, B G R); ``light`` multiplies it per pixel."""
    n = SIZE * PPU
    v, u = np.mgrid[0:n, 0:n]
    dark_sq = ((u // PPU) + (SIZE - 1 - v // PPU)) % 2 == 0
    lin = np.where(dark_sq[..., None], DARK, LIGHT) * (1 + 0.02 * rng.standard_normal((n, n, 1)))
    return lin * (1.0 if light is None else light[..., None])


def _to_image(lin: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    img = 255 * np.clip(lin, 0, 1) ** (1 / 2.2) + rng.normal(0, 1.5, lin.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


def _box_of(sq: str) -> tuple[slice, slice]:
    f, r = square_index(sq)
    return slice((SIZE - 1 - r) * PPU, (SIZE - r) * PPU), slice(f * PPU, (f + 1) * PPU)


DEFAULT_REACH = PieceReach()


def _judge(img: np.ndarray, reach: PieceReach = DEFAULT_REACH) -> dict[str, str]:
    """empty / unknown per square (the maze carries a piece: its colour needs calibration)."""
    candidates = [i for i in range(SIZE * SIZE) if i != MAZE]
    verdicts = judge_squares(img, candidates, [(4.5, 4.5, 0.45)], DEFAULT_GEOMETRY, reach)
    return {ALL_SQUARES[i]: ("empty" if v.empty else "unknown") for i, v in verdicts.items()}


# --- noise -------------------------------------------------------------------------------


def test_noise_is_measured_on_the_board_not_on_a_hand_filling_a_brightness_range() -> None:
    rng = np.random.default_rng(1)
    level = rng.uniform(40, 220, (120, 120)).astype(np.float32)
    resid = rng.normal(0, 3.0, level.shape).astype(np.float32)
    # A hand fills nearly all of the pixels between 100 and 160 levels: huge misfits there.
    hand = (level > 100) & (level < 160) & (rng.random(level.shape) < 0.9)
    resid[hand] = rng.choice([-60.0, 60.0], hand.sum())
    sigma = _noise(resid, level, np.ones(level.shape, bool))
    assert float(np.median(sigma)) < 4.5  # 3 levels of noise, give or take the fit


def test_two_hands_over_most_of_the_board_stay_unknown() -> None:
    # Tune scene 103: two dark hands; their misfit once passed for noise and the squares under
    # them for bare board.
    shot = scene("tune", 103)
    read = read_board(shot.image)
    for sq in ("f5", "g5", "f6"):
        assert shot.hide[sq] > 0.6
        assert read.square(sq).state == "unknown", sq


# --- the piece to look for ---------------------------------------------------------------


def _placed(offsets: list[tuple[float, float]], radius: float = 0.38) -> list[_Placed]:
    side = 2 * radius * DEFAULT_GEOMETRY.piece_marker_ratio
    out = []
    for k, (dx, dy) in enumerate(offsets):
        f, r = k % SIZE, k // SIZE
        out.append(_Placed(None, f + 0.5 + dx, r + 0.5 + dy, side, ALL_SQUARES[r * SIZE + f]))  # type: ignore[arg-type]
    return out


def test_piece_reach_is_measured_on_the_pieces_seen() -> None:
    rng = np.random.default_rng(2)
    careful = _placed([tuple(rng.uniform(-0.05, 0.05, 2)) for _ in range(20)])
    reach = piece_reach(careful, DEFAULT_GEOMETRY)
    assert reach.radius == pytest.approx(0.38, abs=0.005)
    largest = max(abs(v) for p in careful for v in (p.x % 1 - 0.5, p.y % 1 - 0.5))
    assert largest < reach.box < 0.09  # an upper bound of the spread, well inside the default
    sloppy = _placed([tuple(rng.uniform(-0.25, 0.25, 2)) for _ in range(20)])
    assert piece_reach(sloppy, DEFAULT_GEOMETRY).box > 0.25  # never less than what is seen


def test_piece_reach_keeps_the_defaults_without_enough_pieces() -> None:
    few = _placed([(0.01, 0.0)] * 4, radius=0.40)
    assert piece_reach(few, DEFAULT_GEOMETRY).box == CENTRE_BOX
    assert piece_reach(few, DEFAULT_GEOMETRY).radius <= PIECE_RADIUS
    many = _placed([(0.01, 0.0)] * 12)
    assert piece_reach(many, DEFAULT_GEOMETRY, from_pieces=True).box == CENTRE_BOX
    assert piece_reach([], DEFAULT_GEOMETRY) == PieceReach()


def test_a_square_partly_covered_is_empty_when_no_piece_could_hide_there() -> None:
    # A red block covers the left 40 % of e4. Pieces that may stand 0.17 off centre could be
    # more than half under it; pieces placed within 0.03 of their centres could not.
    rng = np.random.default_rng(3)
    lin = _board(rng)
    rows, _ = _box_of("e4")
    lin[rows.start - 12 : rows.stop + 12, 3 * PPU + 5 : 4 * PPU + round(0.4 * PPU)] = (0.02, 0.02, 0.5)
    img = _to_image(lin, rng)
    assert _judge(img, PieceReach(0.38, 0.17))["e4"] == "unknown"
    careful = _judge(img, PieceReach(0.38, 0.03))
    assert careful["e4"] == "empty"
    assert careful["d4"] == "unknown"  # the block itself


# --- shadows -----------------------------------------------------------------------------


def _band(width: float, depth: float) -> np.ndarray:
    """A soft diagonal shadow: the light falls to ``depth`` along the line u = v."""
    n = SIZE * PPU
    v, u = np.mgrid[0:n, 0:n].astype(np.float32)
    d = np.abs(u - v) / np.sqrt(2)
    core = np.clip((d - width / 2) / 6.0, 0, 1)  # a few pixels of soft edge
    return depth + (1 - depth) * core


def test_a_deep_shadow_over_both_colours_is_seen_board() -> None:
    rng = np.random.default_rng(4)
    img = _to_image(_board(rng, _band(1.3 * PPU, 0.25)), rng)
    verdicts = _judge(img)
    diagonal = ("a9", "b8", "c7", "d6", "f4", "g3", "h2", "i1")
    assert all(verdicts[sq] == "empty" for sq in diagonal), verdicts


def test_a_dark_cloth_over_one_square_is_not_a_shadow() -> None:
    # A cloth exactly the colour of the dark squares in a deep shadow, over d4 and a little
    # of its light neighbours: over d4 alone it looks like a shadow, over the others it does
    # not, and nothing dims them alike.
    rng = np.random.default_rng(5)
    lin = _board(rng)
    rows, cols = _box_of("d4")
    lin[rows.start - 4 : rows.stop + 4, cols.start - 4 : cols.stop + 4] = 0.25 * DARK
    verdicts = _judge(_to_image(lin, rng))
    assert verdicts["d4"] == "unknown"


def test_palette_widening_does_not_wrap_from_dark_to_bright() -> None:
    palette = np.zeros((32, 32, 32), bool)
    palette[0, 5, 5] = True
    wide = _widen(palette)
    assert wide[1, 5, 5] and wide[0, 4, 5] and wide[0, 5, 6]
    assert not wide[31, 5, 5]


# --- rendered scenes (tune split) --------------------------------------------------------


@pytest.mark.parametrize(("index", "square"), [(210, "a7"), (399, "e7"), (399, "d6")])
def test_hands_under_strong_glare_stay_unknown(index: int, square: str) -> None:
    # Under a lamp's reflection a sleeve or a palm washes out to the board's colours; these
    # squares were once read as bare (a7 and e7 hold a piece under the hand).
    shot = scene("tune", index)
    assert shot.hide[square] > 0.7
    assert read_board(shot.image).square(square).state == "unknown"


def test_a_pale_sleeve_is_not_shading_plus_lamp_light() -> None:
    # Tune scene 993: a pale grey sleeve over a3, under a glare spot fitted partly on the sleeve
    # itself, fitted the board as dimmed squares plus grey light far beyond the modelled lamp's;
    # a whole piece could lie under it, and a3 was read as empty.
    shot = scene("tune", 993)
    assert shot.hide["a3"] == 1.0
    assert read_board(shot.image).square("a3").state == "unknown"


def test_shadow_band_beside_a_sleeve_is_seen() -> None:
    # Tune scene 53: a sleeve's deep shadow lies along it over dark and light squares alike.
    shot = scene("tune", 53)
    read = read_board(shot.image)
    seen = [sq for sq in ("f5", "e6", "d7", "c8") if read.square(sq).state == "empty"]
    assert all(shot.hide[sq] < 0.2 for sq in ("f5", "e6", "d7", "c8"))
    assert len(seen) >= 3, seen


# --- glare -------------------------------------------------------------------------------


def test_no_glare_spot_is_centred_far_off_the_board() -> None:
    # A wide bump whose centre lies 2.5 squares right of the board: only its skirt shows,
    # which says little about where it is; it is left to the lighting field.
    n = SIZE * PPU
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    excess = 0.35 * np.exp(-((xx - n - 2.5 * PPU) ** 2 + (yy - 2 * PPU) ** 2) / (2 * (3.5 * PPU) ** 2))
    spots = fit_spots(excess, np.ones((n, n), bool), PPU)
    assert all(s.u <= n + 2 * PPU for s in spots), spots  # not at its true centre, 2.5 off
    # A spot on the board is still found.
    on_board = excess + 0.2 * np.exp(-((xx - 60) ** 2 + (yy - 90) ** 2) / (2 * 20.0**2))
    found = fit_spots(on_board, np.ones((n, n), bool), PPU)
    assert any(abs(s.u - 60) < 4 and abs(s.v - 90) < 4 for s in found), found


def test_a_narrow_spot_just_off_the_edge_is_found() -> None:
    # A lamp reflected just beyond the board's edge (1.8 squares out, one square wide) throws
    # its flank over the edge squares; that light is modelled, not left to look foreign.
    n = SIZE * PPU
    yy, xx = np.mgrid[0:n, 0:n].astype(np.float32)
    excess = 0.5 * np.exp(-((xx - 100) ** 2 + (yy - n - 1.8 * PPU) ** 2) / (2 * (1.0 * PPU) ** 2))
    found = fit_spots(excess, np.ones((n, n), bool), PPU)
    assert any(abs(s.u - 100) < 6 and abs(s.v - n - 1.8 * PPU) < 8 for s in found), found


def test_a_phantom_spot_off_the_board_does_not_blank_bare_squares() -> None:
    # Tune scene 461: a strong light gradient and a hand once made a wide spot off the board
    # that soaked up the lighting's misfit; a third of the board came out unknown.
    shot = scene("tune", 461)
    read = read_board(shot.image)
    clear = [sq for sq in ALL_SQUARES if shot.hidden[sq] == 0 and not shot.truth[sq]]
    assert sum(read.square(sq).state == "unknown" for sq in clear) <= 5


def test_a_glare_spot_must_show_its_light_on_both_colours(monkeypatch: pytest.MonkeyPatch) -> None:
    # A spot fitted to a grey sleeve also "keeps" the printed contrast of the bare squares
    # around the sleeve, where it adds no light at all; such a spot is dropped, a real one kept.
    from vision import board_surface
    from vision.board_glare import Spot, spot_map
    from vision.board_surface import View, lamp_light

    pred = _board(np.random.default_rng(5)).astype(np.float32)  # bare board's predicted colour
    n = SIZE * PPU
    spot = Spot(100.0, 110.0, 20.0, 0.2)
    monkeypatch.setattr(board_surface, "fit_spots", lambda *a, **k: [spot])
    view = View.of(DEFAULT_GEOMETRY, PPU)
    usable = ~view.line
    saturated = np.zeros((n, n), bool)
    lit = (pred + spot_map([spot], (n, n))[..., None]).astype(np.float32)
    assert lamp_light(lit, pred, usable, saturated, view) == ([spot], [])
    assert lamp_light(pred.copy(), pred, usable, saturated, view).kept == []
