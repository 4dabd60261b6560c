"""Glare at the board's edge: the flank of a spot centred off the board, a faint companion of a
strong spot (two overlapping reflections), and a spot over one colour of square only.

Excess maps are drawn directly in the top view's pixels (9 × PPU square), in linear light.
"""

from __future__ import annotations

import numpy as np
import pytest

from vision import board_surface
from vision.board_geometry import DEFAULT_GEOMETRY, SIZE
from vision.board_glare import MIN_AMPLITUDE, OUTSIDE, Spot, fit_spots, spot_map
from vision.board_squares import PPU
from vision.board_surface import View, lamp_light

N = SIZE * PPU
YY, XX = np.mgrid[0:N, 0:N].astype(np.float32)
ALL = np.ones((N, N), bool)


def _gauss(u: float, v: float, width: float, amp: float) -> np.ndarray:
    """A spot of lamp light; centre and width in squares, ``amp`` linear."""
    return amp * np.exp(-((XX - u * PPU) ** 2 + (YY - v * PPU) ** 2) / (2 * (width * PPU) ** 2))


def test_the_flank_of_a_spot_off_the_board_is_modelled() -> None:
    # Centred 1.5 squares left of the board: the board shows only its flank, which peaks at
    # the edge below the least amplitude a spot on the board must have.
    excess = _gauss(-1.5, 6.0, 0.9, 0.15)
    assert excess.max() < MIN_AMPLITUDE
    found = fit_spots(excess, ALL, PPU)
    assert any(abs(s.u + 1.5 * PPU) < 6 and abs(s.v - 6 * PPU) < 4 for s in found), found


def test_a_faint_bump_on_the_board_is_not_a_flank() -> None:
    # The same faint light centred on the board is noise or a misfit, not a spot's flank.
    assert fit_spots(_gauss(0.6, 6.0, 0.5, 0.03), ALL, PPU) == []


def test_a_faint_companion_beside_a_strong_spot_is_fitted() -> None:
    # Two overlapping reflections: a strong one and, 1.6 squares from it, one too faint to
    # be looked for alone; the strong one's fit leaves it over the edge squares.
    strong = _gauss(2.0, 7.4, 0.85, 0.65)
    companion = _gauss(0.4, 7.1, 0.55, 0.035)
    assert companion.max() < MIN_AMPLITUDE
    found = fit_spots(strong + companion, ALL, PPU)
    assert any(abs(s.u - 0.4 * PPU) < 6 and abs(s.v - 7.1 * PPU) < 6 for s in found), found
    # Far from any strong spot, the same faint bump is not a spot.
    alone = fit_spots(strong + _gauss(6.5, 3.0, 0.55, 0.035), ALL, PPU)
    assert not any(abs(s.u - 6.5 * PPU) < 12 and abs(s.v - 3.0 * PPU) < 12 for s in alone), alone


def _corner_case(monkeypatch: pytest.MonkeyPatch) -> tuple[np.ndarray, Spot, View]:
    """A bare board's predicted colours and a narrow spot over its corner square only."""
    rng = np.random.default_rng(7)
    v, u = np.mgrid[0:N, 0:N]
    dark_sq = ((u // PPU) + (SIZE - 1 - v // PPU)) % 2 == 0
    dark, light = np.array([0.06, 0.15, 0.26]), np.array([0.30, 0.58, 0.79])
    pred = np.where(dark_sq[..., None], dark, light) * (1 + 0.01 * rng.standard_normal((N, N, 1)))
    spot = Spot(N - 0.2 * PPU, N + 0.1 * PPU, 0.38 * PPU, 0.37)
    monkeypatch.setattr(board_surface, "fit_spots", lambda *a, **k: [spot])
    return pred.astype(np.float32), spot, View.of(DEFAULT_GEOMETRY, PPU)


def test_a_spot_over_one_colour_of_square_is_kept_when_it_fits(monkeypatch: pytest.MonkeyPatch) -> None:
    # A reflection over the corner square: no contrast under it to tell lamp light from a
    # cloth, but its light is a Gaussian bump to the noise, which a cloth is not.
    pred, spot, view = _corner_case(monkeypatch)
    lit = (pred + spot_map([spot], (N, N))[..., None]).astype(np.float32)
    none = np.zeros((N, N), bool)
    assert lamp_light(lit, pred, ~view.line, none, view).kept == [spot]


def test_a_flat_pale_cloth_over_the_corner_square_is_not_a_spot(monkeypatch: pytest.MonkeyPatch) -> None:
    # The same spot "fitted" to a flat grey excess over the corner square (a pale sleeve
    # reaching in) leaves misfits of a fifth of its light: dropped.
    pred, _spot, view = _corner_case(monkeypatch)
    cloth = np.zeros((N, N), np.float32)
    cloth[N - PPU :, N - PPU :] = 0.3
    lit = (pred + cloth[..., None]).astype(np.float32)
    none = np.zeros((N, N), bool)
    assert lamp_light(lit, pred, ~view.line, none, view).kept == []


def test_a_spot_over_one_colour_is_judged_on_the_board_left_beside_a_piece(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The same reflection with a decoded piece standing on the corner square: the piece's
    # footprint is not board for the spot to light, so its light fills the board it claims
    # (tune 1443, 1475: reflections over squares whose neighbours hold pieces were dropped).
    pred, spot, view = _corner_case(monkeypatch)
    lit = (pred + spot_map([spot], (N, N))[..., None]).astype(np.float32)
    none = np.zeros((N, N), bool)
    pieces = (XX - (N - 0.5 * PPU)) ** 2 + (YY - (N - 0.5 * PPU)) ** 2 < (0.4 * PPU) ** 2
    usable = ~view.line & ~pieces
    assert lamp_light(lit, pred, usable, none, view).kept == []  # the piece taken for board
    assert lamp_light(lit, pred, usable, none, view, pieces=pieces).kept == [spot]
    # A flat pale cloth beside the piece is still no spot.
    cloth = np.zeros((N, N), np.float32)
    cloth[N - PPU :, N - PPU :] = 0.3
    flat = (pred + cloth[..., None]).astype(np.float32)
    assert lamp_light(flat, pred, usable, none, view, pieces=pieces).kept == []


def test_a_bright_bump_centred_past_the_bound_is_held_there() -> None:
    # Tune 2122: two reflections 0.6 and 0.7 squares below the board's bottom edge, part of
    # their light taken up by the lighting field, fit as one bump centred 1.9 squares off,
    # 1.6 wide and 0.34 high: past OUTSIDE, and nothing was modelled (c1, d1 "covered").
    # Held at OUTSIDE, its height and width refitted, it models the light on the board.
    excess = _gauss(2.4, SIZE + 1.9, 1.6, 0.34)
    found = fit_spots(excess, ALL, PPU)
    assert len(found) == 1, found
    assert abs(found[0].v - (SIZE + OUTSIDE) * PPU) < 1, found
    # Over the bottom two ranks the spot leaves little of the light unmodelled.
    rows = slice(N - 2 * PPU, N)
    left = excess[rows] - spot_map(found, excess.shape)[rows]
    assert float(np.abs(left).mean()) < 0.1 * float(excess[rows].mean())


def test_a_faint_skirt_from_past_the_bound_is_not_a_spot() -> None:
    # Held at the bound, a spot must still reach the least amplitude of a flank.
    assert fit_spots(_gauss(4.5, SIZE + 3.0, 1.5, 0.04), ALL, PPU) == []
