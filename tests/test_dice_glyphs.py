"""The glyph network (run by OpenCV, no PyTorch): faces in four orientations, narrowing to a die."""

from __future__ import annotations

import string

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from vision.dice_faces import PATCH
from vision.dice_glyphs import (
    CROP,
    INPUT,
    N_CLASSES,
    NONE,
    PIPS0,
    class_index,
    classify,
    face_probabilities,
    rotated_class,
)
from vision.synth.render import glyph_mask, pip_mask

FONT = "LiberationSans-Bold.ttf"  # a training font: these are checks of the plumbing, not accuracy


def planes(ink: np.ndarray, dark_ink: bool = True) -> np.ndarray:
    """The network's input for a clean face: ink coverage and lightness against the body."""
    sl = slice(CROP, CROP + INPUT)
    cover = np.clip(ink[sl, sl], 0, 1).astype(np.float32)
    light = (-1.5 if dark_ink else 1.2) * cover
    return np.stack([cover, light])


@pytest.mark.parametrize("letter", list("AEFGJKMNPQRWZ"))
def test_letters_are_read_in_every_quarter_turn_with_the_turn_that_stands_them_up(letter):
    ink = glyph_mask(letter, FONT, 0.56, PATCH)
    batch = np.stack([planes(np.ascontiguousarray(np.rot90(ink, -k))) for k in range(4)])
    probs = classify(batch)
    for k in range(4):
        read = face_probabilities(probs[k], "letter", "letters", tuple(string.ascii_uppercase))
        assert read.best == letter and read.prob > 0.9, (k, read.best, read.prob)
        upright = np.rot90(np.rot90(ink, -k), read.turns)
        # The turn stands the glyph up (for N, Z or S half a turn does too: both are right).
        assert float(np.corrcoef(upright.ravel(), ink.ravel())[0, 1]) > 0.9, (k, read.turns)


@pytest.mark.parametrize("count", range(1, 7))
def test_pips_are_counted_and_never_taken_for_letters(count):
    probs = classify(planes(pip_mask(count, PATCH))[None])[0]
    theme = face_probabilities(probs, "theme", "pips", (1, 2, 3, 4, 5, 6))
    assert theme.best == count and theme.prob > 0.9
    letter = face_probabilities(probs, "letter", "letters", tuple(string.ascii_uppercase))
    assert letter.fit < 0.05  # a letter die does not fit a face of pips


def test_a_painted_square_is_no_glyph():
    square = np.zeros((PATCH, PATCH), np.float32)
    square[7:41, 7:41] = 1.0
    probs = classify(planes(square)[None])[0]
    assert int(np.argmax(probs)) == NONE


def test_a_die_that_cannot_show_the_face_has_it_doubted_not_forced():
    probs = classify(planes(glyph_mask("M", FONT, 0.56, PATCH))[None])[0]
    narrowed = face_probabilities(probs, "letter", "letters", tuple("ABCDEF"))
    assert narrowed.mass < 0.1  # the die's own faces explain almost nothing of an M


@given(st.integers(0, N_CLASSES - 1), st.integers(0, 3), st.integers(0, 3))
def test_turning_an_input_moves_its_class_consistently(index, k1, k2):
    once = rotated_class(rotated_class(index, k1), k2)
    assert once == rotated_class(index, (k1 + k2) % 4)
    assert rotated_class(index, 0) == index
    if index >= PIPS0:
        assert rotated_class(index, k1) == index  # pips and "none" have no orientation
    else:
        assert rotated_class(index, k1) // 4 == index // 4  # the face stays, only its turn moves


@given(st.sampled_from(string.ascii_uppercase), st.integers(0, 7))
def test_class_indices_are_distinct_per_face_and_turn(letter, turns):
    i = class_index("letter", "letters", letter, turns)
    assert 0 <= i < PIPS0 and i % 4 == turns % 4 and i // 4 == string.ascii_uppercase.index(letter)
