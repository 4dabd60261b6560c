"""When the lightness-only second read of a noisy letter puts the first read in doubt.

Under a strongly coloured lamp a letter die's colour planes are noisy, so its letter is read a
second time from lightness alone. That read is a witness, not a judge: it can only make the
die ask. It is heard when it all but rules the first letter out and either its lightness is
clean or it is sure; a hesitant read of a dim, noisy face no longer flags a right read.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.dice_glyphs import GlyphRead
from vision.dice_read import SECOND_OPINION_CLEAN_L, SECOND_OPINION_REJECTS, _disputes
from vision.dieset import FaceValue


def read(best: str | None, probs: dict[FaceValue, float]) -> GlyphRead:
    prob = probs.get(best, 0.0) if best is not None else 1.0 - sum(probs.values())
    return GlyphRead(best, prob, None, 0.0, 0.0, 1.0, 1.0, 0, probs)


FIRST = read("L", {"L": 0.99, "E": 0.01})


@pytest.mark.parametrize(
    ("second", "light_noise", "disputed"),
    [
        (read("E", {"E": 0.999, "L": 0.001}), 2.0, True),  # clean lightness shows another letter
        (read("E", {"E": 0.999, "L": 0.001}), 7.0, True),  # noisy, but sure of itself
        (read("E", {"E": 0.55, "M": 0.44, "L": 0.01}), 7.0, False),  # noisy and hesitant
        (read("E", {"E": 0.55, "M": 0.44, "L": 0.01}), 2.0, True),  # hesitant, but clean
        (read("E", {"E": 0.52, "L": 0.48}), 2.0, False),  # the first letter is not ruled out
        (read(None, {"L": 0.01, "E": 0.01}), 1.0, True),  # no letter at all in lightness
        (read("L", {"L": 0.97, "E": 0.03}), 1.0, False),  # agreement
    ],
)
def test_the_lightness_read_disputes_only_when_it_rules_the_letter_out_and_is_worth_hearing(
    second, light_noise, disputed
):
    assert _disputes(FIRST, second, light_noise) == disputed


@settings(max_examples=60, deadline=None)
@given(st.floats(0.0, 1.0), st.floats(0.0, 20.0))
def test_a_second_read_that_keeps_the_first_letter_in_play_never_disputes(p_first, light_noise):
    other = 1.0 - p_first
    second = read("E" if other > p_first else "L", {"L": p_first, "E": other})
    if p_first >= SECOND_OPINION_REJECTS:
        assert not _disputes(FIRST, second, light_noise)
    elif light_noise < SECOND_OPINION_CLEAN_L:
        assert _disputes(FIRST, second, light_noise)
