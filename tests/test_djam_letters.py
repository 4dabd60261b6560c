"""Folding typed words into the dice's letters, and the letters a word shares with the dice."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.games.djam.letters import (
    COLOURS,
    WordError,
    common_letters,
    fold_die_letter,
    fold_word,
    letters_on_dice,
)


@pytest.mark.parametrize(
    ("typed", "letters"),
    [
        ("Buñuel", "bunuel"),
        ("éléphant", "elephant"),
        ("ÉLÉPHANT", "elephant"),
        ("Françoise", "francoise"),
        ("Lætitia", "laetitia"),
        ("Œdipe", "oedipe"),
        ("Straße", "strasse"),
        ("STRAẞE", "strasse"),
        ("Ærø", "aero"),
        ("Łódź", "lodz"),
        ("Þór", "thor"),
        ("Saint-Étienne", "saintetienne"),
        ("L’Oréal", "loreal"),
        ("De Gaulle", "degaulle"),
        ("  Bono  ", "bono"),
        ("Nguyễn", "nguyen"),  # two accents on one letter (Vietnamese)
        ("e\u0301le\u0301phant", "elephant"),  # typed with combining accents: composed first
        ("n\u0303", "n"),
        ("Ｂｏｎｏ", "bono"),  # full-width letters
    ],
)
def test_fold_word(typed: str, letters: str) -> None:
    assert fold_word(typed).letters == letters


def test_positions_point_into_the_typed_word() -> None:
    w = fold_word("Lætitia")
    assert w.letters == "laetitia"
    assert w.positions[:4] == (0, 1, 1, 2)  # æ gives a and e at the same place
    assert fold_word("Saint-Étienne").positions[5] == 6  # the É after the hyphen
    assert fold_word("Jean\u00a0\u00a0Gabin").text == "Jean Gabin"  # no-break spaces tidied


@pytest.mark.parametrize(
    ("typed", "named"),
    [
        ("Bo\u200bno", "U+200B ZERO WIDTH SPACE"),
        ("Bono\u2060", "U+2060 WORD JOINER"),
        ("\ufeffBono", "U+FEFF ZERO WIDTH NO-BREAK SPACE"),
        ("Bo\u00adno", "U+00AD SOFT HYPHEN"),
        ("Bono\ufe0f", "U+FE0F VARIATION SELECTOR-16"),
        ("Bo\u034fno", "U+034F COMBINING GRAPHEME JOINER"),
        ("Bono😀", "U+1F600 GRINNING FACE"),
        ("B❤️no", "U+2764 HEAVY BLACK HEART"),
        ("Louis 14", "'1' (U+0031 DIGIT ONE)"),
        ("Louis XIV²", "U+00B2 SUPERSCRIPT TWO"),
        ("\u0301Bono", "U+0301 COMBINING ACUTE ACCENT"),
        ("- \u0301", "U+0301 COMBINING ACUTE ACCENT"),
        ("B\u0301\u0302\u0303ono", "more than 2 accents"),
        ("Bo\u20ddno", "U+20DD COMBINING ENCLOSING CIRCLE"),
        ("Москва", "CYRILLIC CAPITAL LETTER EM"),
        ("Ⓑono", "CIRCLED LATIN CAPITAL LETTER B"),
        ("Bono!", "'!' (U+0021 EXCLAMATION MARK)"),
        ("Bo\tno", "U+0009"),
        ("", "no letters"),
        ("   ", "no letters"),
        ("- ' .", "no letters"),
        ("B" * 65, "at most 64"),
    ],
)
def test_odd_unicode_is_refused_naming_the_problem(typed: str, named: str) -> None:
    with pytest.raises(WordError) as caught:
        fold_word(typed)
    assert named in str(caught.value)


def test_not_text_is_refused() -> None:
    with pytest.raises(WordError, match="must be text"):
        fold_word(42)


def test_die_letters() -> None:
    assert fold_die_letter("b", "green") == "B"
    assert fold_die_letter(" É ", "white") == "E"
    for bad in ("", "AB", "1", "Æ", None, "😀"):
        with pytest.raises(WordError, match=r"one letter|must show a letter"):
            fold_die_letter(bad, "red")


ROLL = {"green": "B", "white": "O", "yellow": "R", "red": "V", "blue": "A"}


def test_bono_with_one_o_scores_b_and_o() -> None:
    assert common_letters("bono", ROLL, "green") == ((0, "green"), (1, "white"))


def test_bono_with_two_o_dice_scores_three() -> None:
    roll = {**ROLL, "blue": "O"}
    assert len(common_letters("bono", roll, "green")) == 3
    assert len(common_letters("bon", roll, "green")) == 2  # one O in the word: one O die counts


def test_the_required_die_counts_for_the_initial() -> None:
    roll = {"green": "O", "white": "B", "yellow": "O", "red": "V", "blue": "A"}
    pairs = common_letters("oslo", roll, "yellow")
    assert pairs[0] == (0, "yellow")  # the drawn die takes the initial O
    assert len(pairs) == 2


def test_black_faults_list_every_letter_showing() -> None:
    assert letters_on_dice("bob", ROLL) == ((0, "green"), (1, "white"), (2, "green"))
    assert letters_on_dice("chut", ROLL) == ()


letters_strategy = st.text(alphabet="abcdeo", min_size=1, max_size=12)
dice_strategy = st.tuples(*[st.sampled_from("ABCDEO")] * 5).map(lambda t: dict(zip(COLOURS, t, strict=True)))


@given(letters_strategy, dice_strategy, st.sampled_from((*COLOURS, None)))
def test_score_is_the_multiset_intersection(letters: str, roll: dict[str, str], colour: str | None) -> None:
    pairs = common_letters(letters, roll, colour)
    expected = Counter(letters) & Counter(v.lower() for v in roll.values())
    assert len(pairs) == sum(expected.values())
    assert len({i for i, _ in pairs}) == len(pairs)  # each letter of the word once
    assert len({c for _, c in pairs}) == len(pairs)  # each die once
    assert all(roll[c].lower() == letters[i] for i, c in pairs)


@given(st.text(max_size=20))
def test_fold_word_either_reads_letters_or_explains(typed: str) -> None:
    try:
        w = fold_word(typed)
    except WordError as exc:
        assert str(exc)
    else:
        assert w.letters and all("a" <= c <= "z" for c in w.letters)
        assert len(w.positions) == len(w.letters)
        assert all(0 <= p < len(w.text) for p in w.positions)
        assert fold_word(w.text) == w  # reading the tidied word again changes nothing
