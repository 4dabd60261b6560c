"""Elliptic glare spots (a round reflection seen at an angle); and markers: the second look at
candidates the detector gave up on (small, blurred piece markers), and quads around a marker
read as another.

Excess maps are drawn directly in the top view's pixels (9 × PPU square), in linear light.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tests.scene_cache import scene
from vision import board_detect
from vision.board_detect import detect_markers
from vision.board_geometry import SIZE, square_index
from vision.board_glare import MAX_ASPECT, Spot, fit_spots, spot_map
from vision.board_squares import PPU

N = SIZE * PPU
ALL = np.ones((N, N), bool)


def _ellipse(u: float, v: float, long: float, short: float, angle: float, amp: float) -> np.ndarray:
    """A spot of lamp light ``long`` × ``short`` squares wide (sigmas), its long axis at ``angle``."""
    return spot_map(
        [Spot(u * PPU, v * PPU, float(np.sqrt(long * short)) * PPU, amp, long / short, angle)], (N, N)
    )


def test_spot_map_of_an_ellipse_is_longer_along_its_axis() -> None:
    lamp = _ellipse(4.5, 4.5, 1.2, 0.9, 0.0, 0.3)
    c = round(4.5 * PPU)
    along, across = lamp[c, c + PPU], lamp[c + PPU, c]  # one square along u, and along v
    assert along == pytest.approx(0.3 * np.exp(-1 / (2 * 1.2**2)), rel=0.02)
    assert across == pytest.approx(0.3 * np.exp(-1 / (2 * 0.9**2)), rel=0.02)


def test_a_tilted_reflection_is_fitted_as_an_ellipse_when_asked() -> None:
    excess = _ellipse(4.0, 5.0, 1.25, 1.0, 0.6, 0.35)
    # Round, it leaves ridges of light along its long axis (fitted as faint companions).
    round_spots = fit_spots(excess, ALL, PPU)
    ovals = fit_spots(excess, ALL, PPU, elliptic=True)
    assert all(s.aspect == 1.0 for s in round_spots)
    oval = ovals[0]
    assert 1.1 < oval.aspect < 1.3  # the companions found first keep some of its light
    assert np.cos(2 * (oval.angle - 0.6)) > 0.95  # the long axis's direction (either way)
    misfit_round = np.abs(excess - spot_map(round_spots, (N, N))).max()
    misfit_oval = np.abs(excess - spot_map(ovals, (N, N))).max()
    assert misfit_oval < 0.6 * misfit_round


def test_a_much_longer_patch_of_light_stays_a_round_spot() -> None:
    # Twice as long as wide: no reflection of a round lamp, the ellipse is not taken.
    excess = _ellipse(4.0, 5.0, 1.6, 0.8, 0.0, 0.35)
    assert MAX_ASPECT < 1.6 / 0.8
    assert all(s.aspect == 1.0 for s in fit_spots(excess, ALL, PPU, elliptic=True))


def test_a_round_reflection_stays_round() -> None:
    excess = _ellipse(4.0, 5.0, 1.0, 1.0, 0.0, 0.35)
    (spot,) = fit_spots(excess, ALL, PPU, elliptic=True)
    assert spot.aspect == 1.0  # an ellipse that does not fit clearly better is not kept


@pytest.mark.parametrize(("index", "square", "marker"), [(380, "d3", 57), (763, "d7", 30)])
def test_a_small_blurred_marker_is_read_at_the_second_look(
    index: int, square: str, marker: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Tune scenes with blur 1.3 px and markers of ~34 px (under 5 px a cell): the detector's
    # 4 px-a-cell warp reads a thin white cell black, too many bits to correct.
    shot = scene("tune", index)
    gray = cv2.cvtColor(shot.image, cv2.COLOR_BGR2GRAY)
    H = np.array(shot.params.board_to_image)
    f, r = square_index(square)
    centre = cv2.perspectiveTransform(np.array([[[f + 0.5, r + 0.5]]]), H)[0, 0]

    def at_square(found: list[board_detect.Marker]) -> list[int]:
        return [m.id for m in found if np.linalg.norm(m.center - centre) < 20]

    assert at_square(detect_markers(gray)) == [marker]
    ids = [m.id for m in detect_markers(gray)]
    assert len(ids) == len(set(ids))  # nothing read twice
    monkeypatch.setattr(board_detect, "SECOND_LOOK_MIN_PIECES", 10**6)
    assert at_square(detect_markers(gray)) == []  # the first look alone misses it


def _quad(cx: float, cy: float, side: float) -> np.ndarray:
    h = side / 2
    return np.array([[cx - h, cy - h], [cx + h, cy - h], [cx + h, cy + h], [cx - h, cy + h]])


def test_a_quad_around_a_smaller_marker_is_not_a_marker() -> None:
    # Nothing shows through a sticker: a "marker" holding another one's centre is the dark
    # edge of the square around it, read as a code by chance.
    inner = board_detect.Marker(58, _quad(720, 690, 38), 0.95)
    around = board_detect.Marker(45, _quad(725, 692, 92), 0.82)
    beside = board_detect.Marker(12, _quad(820, 690, 37), 0.9)
    assert board_detect._not_around_others([around, inner, beside]) == [inner, beside]


def test_a_square_read_as_a_marker_around_a_piece_is_dropped() -> None:
    # Tune scene 2257: the square around the corpse on a3 decoded as id 45, 2.5 times the
    # size of a piece marker, and the square was unknown ("a marker of implausible size").
    shot = scene("tune", 2257)
    found = detect_markers(cv2.cvtColor(shot.image, cv2.COLOR_BGR2GRAY))
    ids = [m.id for m in found]
    assert 58 in ids and 45 not in ids
