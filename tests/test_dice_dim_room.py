"""A plain tray in a dim room: parts of the table as dark as the tray must not join it.

Under two lamps over a dim room (the val-lamps tuning split), the table far from the lamps can
be as dark as the tray. Taken as tray, it made the found tray too big; the lit table inside it
then looked like a hand reaching over the tray, and every die of the roll was asked about.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from vision.dice_model import default_model
from vision.dice_read import _reaches_over_tray, _table_strip, read_dice
from vision.dice_result import HAND
from vision.dice_segment import rectify
from vision.dice_tray import ASPECT_MISFIT, TrayView, _aspect_misfit, find_tray
from vision.dieset import default_dieset
from vision.synth import SceneOptions, render_scene, sample_scene
from vision.synth.scene import TUNE_FONTS

MODEL = default_model()
OPTIONS = SceneOptions(p_markers=0.6, p_hand_edge=0.2, p_cocked=0.04, p_touching=0.06, p_off_tray=0.03)


def test_the_aspect_misfit_is_zero_for_the_trays_proportions_at_any_size_and_turn():
    tray = default_dieset().tray
    w, h = tray.width_mm, tray.height_mm
    for s, angle in ((1.0, 0.0), (3.1, 0.2), (2.2, -0.1)):
        c, si = np.cos(angle), np.sin(angle)
        quad = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64) * s @ np.array([[c, si], [-si, c]])
        assert _aspect_misfit(quad, tray) < 1e-9
    wide = np.array([[0, 0], [1.2 * w, 0], [1.2 * w, h], [0, h]], np.float64)
    assert _aspect_misfit(wide, tray) == pytest.approx(0.2)


@pytest.mark.parametrize("seed", [980004, 980010])  # a dark table beside the tray, no hand at all
def test_a_dim_table_beside_a_plain_tray_is_not_taken_for_tray_nor_for_a_hand(seed):
    scene = replace(sample_scene(MODEL.dieset, "val-lamps", seed, OPTIONS), font=TUNE_FONTS[0])
    assert not scene.markers and scene.hand is None
    img, labels = render_scene(scene, MODEL.dieset)
    tray = find_tray(img, MODEL.dieset.tray)
    assert tray.method == "plain" and _aspect_misfit(tray.quad, MODEL.dieset.tray) <= ASPECT_MISFIT
    read = read_dice(img, MODEL)
    assert HAND not in read.flags
    for truth in labels.dice:
        if truth.on_tray and truth.visible and not truth.cocked and not truth.touching:
            assert read.die(truth.name).value == truth.value


def _strip_view() -> tuple[object, object]:
    """A rectified view of the default tray (its geometry only: no dice)."""
    ds = default_dieset()
    w, h = ds.tray.width_mm, ds.tray.height_mm
    hom = np.array([[1.0, 0, 0], [0, 1.0, 0], [0, 0, 1.0]])
    quad = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
    tray = TrayView(hom, w, h, quad, 0, "plain")
    img = np.full((round(h) + 100, round(w) + 100, 3), 30, np.uint8)
    return rectify(img, tray), tray


def _box(x0: float, y0: float, x1: float, y1: float, rect) -> np.ndarray:  # type: ignore[no-untyped-def]
    """A rectangle given in tray millimetres, as a contour of rectified pixels."""
    pts = [rect.to_rect(x, y) for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]
    return np.round(np.array(pts)).astype(np.int32)


def test_a_thin_strip_along_the_trays_edge_is_table_not_a_hand():
    rect, tray = _strip_view()
    strip = _box(60, 225, 300, 240, rect)  # 15 mm × 240 mm along the bottom edge
    assert _table_strip(strip, rect, tray)
    assert not _reaches_over_tray((strip,), rect, tray)


@pytest.mark.parametrize(
    "box",
    [
        (-40, 100, 70, 125),  # a finger reaching 70 mm in from the left edge, across it
        (-30, 80, 60, 160),  # a hand: 80 mm wide
        (150, 100, 260, 125),  # a long thin thing in the middle of the tray (a pencil)
    ],
)
def test_fingers_hands_and_things_in_the_middle_still_reach_over_the_tray(box):
    rect, tray = _strip_view()
    contour = _box(*box, rect)
    assert not _table_strip(contour, rect, tray)
    assert _reaches_over_tray((contour,), rect, tray)
