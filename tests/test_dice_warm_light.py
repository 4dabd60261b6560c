"""Ink coverage under a strongly coloured lamp: a noisy colour channel must not bury the glyph.

Under a 2000-2500 K lamp the camera's blue channel is weak, so after white balance a blue or
green die's b* scatters by 20-30 units while its lightness stays clean. The glyph network's
ink-coverage plane then weights each channel by how much of it is signal (the rim's noise).
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.dice_colour import reference_labs
from vision.dice_faces import NOISE_FLOOR, PATCH, ink_coverage
from vision.dice_glyphs import GlyphRead, classify, face_probabilities, glyph_input
from vision.dice_measure import INNER, RING, Face, RawFace, measure
from vision.dice_read import SECOND_OPINION_NOISE, FaceRead, _second_opinions
from vision.dieset import default_dieset
from vision.synth.render import glyph_mask

FONT = "LiberationSans-Bold.ttf"
BLUE = np.array([37.4, 18.4, -54.9], np.float32)  # the die set's blue body, Lab
WHITE_INK = np.array([94.5, -0.7, 1.9], np.float32)
LETTERS = tuple("ABCDEFGHIJKLMNOPQRSTUVWXYZ")


def blue_face(letter: str, b_noise: float, seed: int = 0) -> np.ndarray:
    """A white letter on a blue body (Lab), with Gaussian noise on b* only (a warm lamp)."""
    rng = np.random.default_rng(seed)
    ink = glyph_mask(letter, FONT, 0.56, PATCH)[..., None]
    lab = BLUE * (1 - ink) + WHITE_INK * ink
    lab = lab + rng.normal(0, 1.0, lab.shape).astype(np.float32)
    lab[..., 2] += rng.normal(0, b_noise, lab.shape[:2]).astype(np.float32)
    return lab.astype(np.float32)


def rim_noise(lab: np.ndarray) -> np.ndarray:
    ring = lab[RING]
    return 1.4826 * np.median(np.abs(ring - np.median(ring, axis=0)), axis=0)


@settings(max_examples=30, deadline=None)
@given(st.floats(0.0, NOISE_FLOOR), st.floats(0.0, NOISE_FLOOR), st.floats(0.0, NOISE_FLOOR))
def test_a_clean_face_reads_exactly_as_without_noise_weights(sl, sa, sb):
    lab = blue_face("R", 2.0)
    plain = ink_coverage(lab, BLUE, WHITE_INK)
    weighted = ink_coverage(lab, BLUE, WHITE_INK, np.array([sl, sa, sb]))
    assert np.array_equal(plain, weighted)  # the network's training faces are unchanged


def test_a_noisy_channel_counts_less_and_the_body_stays_body():
    lab = blue_face("R", 25.0)
    noise = rim_noise(lab)
    assert 18.0 < noise[2] < 32.0 and noise[0] < 3.0  # the rim shows which channel is noisy
    near_ink = cv2.dilate((glyph_mask("R", FONT, 0.56, PATCH) > 0.02).astype(np.uint8), np.ones((3, 3)))
    body = (near_ink == 0) & INNER
    plain = ink_coverage(lab, BLUE, WHITE_INK)[body]
    weighted = ink_coverage(lab, BLUE, WHITE_INK, noise)[body]
    # Unweighted, body pixels scatter towards the ink (speckle the network took for strokes).
    assert np.mean(plain > 0.3) > 0.05
    assert np.mean(weighted > 0.3) < 0.005
    ink = glyph_mask("R", FONT, 0.56, PATCH) > 0.9
    assert np.median(ink_coverage(lab, BLUE, WHITE_INK, noise)[ink]) > 0.9  # ink stays ink


def test_the_network_reads_a_letter_under_a_warm_lamp_with_the_weights():
    lab = blue_face("P", 28.0, seed=3)
    probs = classify(np.stack([glyph_input(lab, BLUE, WHITE_INK, rim_noise(lab))]))[0]
    read = face_probabilities(probs, "letter", "letters", LETTERS)
    assert read.best == "P" and read.prob > 0.9


def test_measure_reports_the_rims_noise_per_channel():
    lab = blue_face("A", 20.0, seed=5)
    face = measured_face(lab)
    assert face.noise[2] > 12.0 and face.noise[0] < 4.0
    assert np.allclose(face.body, BLUE, atol=6.0)


def measured_face(lab: np.ndarray) -> Face:
    """The reader's Face for a Lab patch seen under a white reference of 1."""
    rgb = cv2.cvtColor(lab.reshape(-1, 1, 3), cv2.COLOR_Lab2RGB).reshape(lab.shape)
    raw = RawFace(None, None, None, (rgb[..., ::-1] * 255).astype(np.float32), np.zeros(3), 1.0)  # type: ignore[arg-type]
    return measure(raw, np.array([255.0, 255.0, 255.0]))


def claimed(value: str, prob: float = 0.99) -> GlyphRead:
    return GlyphRead(value, prob, "Z", 0.001, 0.0, 1.0, 1.0, 0, {value: prob})


@pytest.mark.parametrize(
    ("b_noise", "claim", "doubted"),
    [
        (20.0, "E", True),  # noisy colour planes, and lightness shows another letter: ask
        (20.0, "C", False),  # lightness agrees: the read stands
        (0.0, "E", False),  # clean colour planes: no second read at all
    ],
)
def test_a_noisy_face_is_read_again_from_lightness_and_a_disagreement_is_doubted(b_noise, claim, doubted):
    ds = default_dieset()
    labs = reference_labs(ds.colours)
    j = next(k for k, d in enumerate(ds.dice) if d.name == "blue")
    face = measured_face(blue_face("C", b_noise, seed=7))
    assert (face.noise[1:].max() > SECOND_OPINION_NOISE) == (b_noise > 0)
    reads: dict[tuple[int, int], FaceRead] = {(0, j): claimed(claim)}
    _second_opinions([face], [j], reads, ds.dice, labs)
    read = reads[0, j]
    assert isinstance(read, GlyphRead) and read.best == claim  # never changed, only doubted
    assert (read.margin <= 0.0) == doubted
