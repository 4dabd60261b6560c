"""The dice under harsh lamps: reflections on pips and paint, colour casts, a dark colour face.

The rendered cases are frames of the *val-lamps* split (tuning lamps that no held-out frame
has: see vision/synth/scene.py) where the reader used to ask about a die it had read right.
Their letter dice are drawn in a tune font, so no val font is needed; the theme and colour
dice do not depend on the font.
"""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.dice_faces import PATCH, pip_count
from vision.dice_model import default_model
from vision.dice_read import read_dice
from vision.synth import SceneOptions, render_scene, sample_scene
from vision.synth.render import pip_mask
from vision.synth.scene import TUNE_FONTS

MODEL = default_model()
# The benchmark's awkward-case rates, so a seed's scene is the one the tuning run saw.
OPTIONS = SceneOptions(p_markers=0.6, p_hand_edge=0.2, p_cocked=0.04, p_touching=0.06, p_off_tray=0.03)
HELDOUT_TEMPS = ((2800.0, 4000.0), (7000.0, 9000.0))


def _pips(count: int) -> np.ndarray:
    return pip_mask(count, PATCH).astype(np.float32)


def _one_pip(ink: np.ndarray) -> np.ndarray:
    """A mask of one pip of `ink` (the first one found)."""
    n, labels = cv2.connectedComponents((ink > 0.5).astype(np.uint8))
    assert n > 1
    return labels == 1


@pytest.mark.parametrize("count", [2, 3, 4, 5, 6])
def test_full_pips_are_counted(count):
    assert pip_count(_pips(count)) == count


@pytest.mark.parametrize("count", [2, 3, 4, 5, 6])
def test_a_pip_paled_by_a_lamps_reflection_still_counts(count):
    ink = _pips(count)
    pip = _one_pip(ink)
    ink[pip] *= 0.3  # glare over the whole pip: round, pale, still darker than the body
    assert pip_count(ink) == count


def test_a_pip_half_under_a_reflection_cannot_be_counted():
    ink = _pips(4)
    pip = _one_pip(ink)
    _, xs = np.nonzero(pip)
    half = pip & (np.arange(PATCH)[None, :] > xs.mean() - 1)
    ink[half] = 0.0  # the reflection hides half of the pip ...
    ink[pip & ~half] *= 0.35  # ... and pales the rest: a crescent, no pip shape
    assert pip_count(ink) is None  # no count rather than a wrong one (3)


def test_a_shaded_strip_along_the_faces_edge_is_no_pip():
    ink = _pips(3)
    ink[4:7, 6:42] = 0.4  # a sliver of the die's side or the tray inside the squared-up face
    assert pip_count(ink) == 3


def _frame(seed: int) -> tuple[np.ndarray, object]:
    scene = replace(sample_scene(MODEL.dieset, "val-lamps", seed, OPTIONS), font=TUNE_FONTS[0])
    return render_scene(scene, MODEL.dieset)


@pytest.mark.parametrize(
    ("seed", "die"),
    [
        (910103, "theme"),  # six pips, one paled by glare, under two lamps (2200 K and 2500 K)
        (910145, "theme"),  # five pips, glare on one, green-magenta cast
        (930219, "colour"),  # blue paint half under a reflection, tungsten 2260 K, plain tray
        (950053, "colour"),  # black paint as dark as the tray, the ivory rim broken by shade
    ],
)
def test_dice_under_harsh_lamps_are_read_right_without_doubt(seed, die):
    img, labels = _frame(seed)
    read = read_dice(img, MODEL).die(die)
    assert read.value == labels.value(die)  # type: ignore[attr-defined]
    assert read.certain, read.flags


def test_the_tuning_lamps_never_use_the_held_out_lighting():
    for seed in range(60):
        scene = sample_scene(MODEL.dieset, "val-lamps", 800_000 + seed)
        temps = [scene.temperature_k, *(lamp[3] for lamp in scene.lamps)]
        assert all(not lo <= t <= hi for t in temps for lo, hi in HELDOUT_TEMPS)
        assert scene.light_kind in ("lamps", "gradient")  # never the held-out spot lamp
        assert len(scene.lamps) == 2 and 0.05 <= abs(scene.lamp_tint) <= 0.25


def test_the_other_splits_scenes_are_unchanged_by_the_new_lamps():
    for split in ("tune", "val", "heldout"):
        scene = sample_scene(MODEL.dieset, split, 3)
        assert scene.lamps == () and scene.lamp_tint == 0.0
        assert scene.light_kind != "lamps"
