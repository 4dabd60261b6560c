"""A hand's lighting changes smoothly: beside where it shows, it is no brighter than it shows.

`vision.board_near_colour`: a bare-looking pixel of the hand's palette (or of a gap its palm may
span) stays "maybe under the hand" unless it is brighter than the hand's own pixels of its hue
nearby, by more than their spread (see the module doc).
"""

from __future__ import annotations

import numpy as np

from tests.scene_cache import scene
from vision.board_gaps import HUE_DARKEST, hue_bins
from vision.board_near_colour import near_hand_colour
from vision.board_reader import read_board

PPU = 24


def _view() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A 3 × 3-square view: a skin-coloured hand on the left third, bare-looking pixels beside."""
    n = 3 * PPU
    levels = np.empty((n, n, 3), np.float32)
    levels[:] = (110, 140, 190)  # B, G, R: skin
    core = np.zeros((n, n), bool)
    core[:, :PPU] = True
    cand = np.zeros((n, n), bool)
    cand[:, PPU + 6 :] = True
    return levels, core, cand


def test_as_bright_as_the_hand_beside_it_stays_hidden() -> None:
    levels, core, cand = _view()
    kept = near_hand_colour(levels, core, cand, PPU)
    assert kept[PPU, PPU + 10] and kept[PPU, 2 * PPU]


def test_far_brighter_in_the_hands_hue_is_not_the_hand() -> None:
    levels, core, cand = _view()
    levels[:, PPU + 6 :] *= 1.4  # the same hue, 40 % brighter: the hand is not shaded so nearby
    kept = near_hand_colour(levels, core, cand, PPU)
    assert not kept[PPU, PPU + 10]


def test_far_darker_may_be_the_hands_shaded_side() -> None:
    """A hand's shaded parts fit as the board dimmed and are left out of its core: darker than
    the hand nearby says nothing."""
    levels, core, cand = _view()
    levels[:, PPU + 6 :] *= 0.6
    kept = near_hand_colour(levels, core, cand, PPU)
    assert kept[PPU, PPU + 10]


def test_slightly_brighter_is_the_hands_own_shading() -> None:
    levels, core, cand = _view()
    levels[:, PPU + 6 :] *= 1.08
    kept = near_hand_colour(levels, core, cand, PPU)
    assert kept[PPU, PPU + 10]


def test_a_hue_the_hand_does_not_show_nearby_says_nothing() -> None:
    levels, core, cand = _view()
    levels[:, PPU + 6 :] = (190, 140, 110)  # another hue, far brighter in blue: no testimony
    kept = near_hand_colour(levels, core, cand, PPU)
    assert kept[PPU, PPU + 10]


def test_a_dark_pixel_has_no_hue_to_judge() -> None:
    levels, core, cand = _view()
    levels[:] *= 0.25  # the darkest channel under 40 levels, even 40 % brighter: its hue is noise
    levels[:, PPU + 6 :] *= 1.4
    kept = near_hand_colour(levels, core, cand, PPU)
    assert kept[PPU, PPU + 10]


def test_a_square_beside_a_sleeve_of_another_shade_is_read_empty() -> None:
    """Tune scene 4: a pale sleeve over f6/e5, whose palette (with ±20 % shading) held f5's
    light squares' colour; beside f5 the sleeve shows that hue a shade darker, so f5's bare
    pixels are not the sleeve, and f5 (5 % of a piece could hide there) reads empty."""
    shot = scene("tune", 4)
    assert shot.hide["f5"] < 0.1 and not shot.truth["f5"]
    read = read_board(shot.image)
    assert read.square("f5").state == "empty"
    # The squares under the sleeve stay unknown.
    assert all(read.square(sq).state == "unknown" for sq in ("e5", "f6", "f7"))


def test_a_hand_of_many_hues_is_judged_in_every_hue() -> None:
    """More candidate hues than OpenCV 5 blurs at once (128 channels) are judged in batches:
    in every hue, a pixel far brighter than the hand beside it is released."""
    n = 6 * PPU
    # Every row its own hue (log R/G, log B/G on a 12 × 12 grid), all of one brightness.
    r = np.arange(n)
    u, v = -0.5 + 0.09 * (r % 12), -0.5 + 0.09 * (r // 12)
    g = np.log(90.0) - (u + v) / 3
    row = np.exp(np.stack([g + v, g, g + u], axis=1)).astype(np.float32)  # B, G, R
    levels = np.repeat(row[:, None, :], n, axis=1)
    assert len(np.unique(hue_bins(row))) > 128
    core = np.zeros((n, n), bool)
    core[:, : n // 2] = True
    levels[:, n // 2 + 8 :] *= 1.6  # far brighter a little off the hand
    assert levels.max() < 255 and levels.min() > HUE_DARKEST
    cand = np.zeros((n, n), bool)
    cand[:, n // 2 :] = True
    kept = near_hand_colour(levels, core, cand, PPU)
    assert kept[:, n // 2 : n // 2 + 4].all()  # as bright as the hand: still hidden
    assert not kept[:, n // 2 + 12 : n // 2 + 20].any()  # far brighter, in every row: released
