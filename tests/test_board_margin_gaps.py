"""The gaps a palm spans, judged by hue (vision.board_gaps): a hollow of a hand's outline
whose board shows a hue no hand has is seen board; a gap of the hand's own hue stays unknown."""

from __future__ import annotations

import numpy as np

from tests.scene_cache import scene
from tests.test_board_surface import DARK, _board, _box_of, _judge, _to_image
from vision.board_gaps import hands_hues, hue_bins, spanned_gaps
from vision.board_geometry import ALL_SQUARES
from vision.board_reader import read_board
from vision.board_squares import PPU

GLOVE = np.array([0.45, 0.12, 0.05])  # linear B, G, R: a blue glove, a hue the wood board lacks


def _two_fingers(lin: np.ndarray, colour: np.ndarray, square: str) -> None:
    """A palm over the square above ``square`` and two fingers down its sides, a 12 px
    hollow of bare board between them."""
    rows, cols = _box_of(square)
    lin[rows.start - PPU + 2 : rows.start + 2, cols.start - 6 : cols.stop + 6] = colour  # palm
    lin[rows.start : rows.stop - 2, cols.start + 2 : cols.start + 6] = colour  # fingers
    lin[rows.start : rows.stop - 2, cols.stop - 6 : cols.stop - 2] = colour


def test_a_hollow_of_another_hue_between_two_fingers_is_seen_board() -> None:
    # Without the hue test the gap between the fingers is closed as "a palm may span it"
    # and the square under the hollow is unknown, though a piece there would show.
    rng = np.random.default_rng(5)
    lin = _board(rng)
    _two_fingers(lin, GLOVE, "g4")
    verdicts = _judge(_to_image(lin, rng))
    assert verdicts["g5"] == "unknown"  # under the palm
    assert verdicts["g4"] == "empty"


def test_a_gap_of_the_hands_own_hue_stays_unknown() -> None:
    # The same hand in the dark squares' hue (brighter, same channel ratios): over a dark
    # square it could go on unseen, so the gap between its fingers may be under it.
    rng = np.random.default_rng(5)
    lin = _board(rng)
    _two_fingers(lin, 1.5 * DARK, "c5")
    verdicts = _judge(_to_image(lin, rng))
    assert verdicts["c5"] == "unknown"


def test_hue_is_what_a_scale_leaves_alone() -> None:
    skin = np.array([[[90.0, 130.0, 190.0]]])
    assert hue_bins(skin) == hue_bins(0.6 * skin)  # a shadow over the skin: same hue
    assert hue_bins(skin) != hue_bins(np.array([[[130.0, 130.0, 130.0]]]))  # grey is not skin


def test_a_few_stray_pixels_do_not_give_a_hand_their_hue() -> None:
    levels = np.zeros((40, 40, 3), np.float32)
    levels[:] = (60, 120, 200)
    hand = np.zeros((40, 40), bool)
    hand[5:35, 5:35] = True
    levels[20, 20] = (128, 128, 128)  # one grey pixel in the hand's core (a sticker's face)
    none = np.zeros_like(hand)
    palette = hands_hues(levels, hand, none, none)
    assert palette[hue_bins(np.array([[60.0, 120.0, 200.0]]))].all()
    assert not palette[hue_bins(np.array([[128.0, 128.0, 128.0]]))].any()
    # A gap of grey board beside that hand is released; one under a lamp's light is not.
    gap = np.zeros_like(hand)
    gap[37:40, 10:30] = True
    levels[36:40] = 128
    lit = np.zeros_like(hand)
    assert not spanned_gaps(gap, hand, levels, lit, none, none).any()
    assert (spanned_gaps(gap, hand, levels, ~lit, none, none) == gap).all()


def test_beside_the_fingers_of_a_rendered_hand() -> None:
    # Tune scene 79: a hand's fingers beside b3 and b5, of a hue the board lacks; the hollows
    # of its outline were closed as "a palm may span them", and both squares, where a hand
    # could hide under 0.4 of a piece, were unknown. Squares where it could hide half a
    # piece or more stay unknown.
    shot = scene("tune", 79)
    read = read_board(shot.image)
    for sq in ("b3", "b5"):
        assert shot.hide[sq] < 0.45 and not shot.truth[sq]
        assert read.square(sq).state == "empty", (sq, read.square(sq).note)
    hidden = [sq for sq in ALL_SQUARES if not shot.truth[sq] and shot.hide[sq] >= 0.5]
    assert hidden and all(read.square(sq).state == "unknown" for sq in hidden)
