"""Seating by pressing, as a pure state machine: examples and properties."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee import seating
from referee.seating import SeatingError

S = 1_000_000_000


def test_each_player_in_turn_claims_the_button_they_press() -> None:
    s = seating.start(("Anne", "Marc", "Carl"), wired=range(1, 9), now_ns=0)
    assert s.prompt == "Anne, press your button"
    s = seating.press(s, 5, 1 * S)
    assert s.prompt == "Marc, press your button" and s.note == "Anne sits at button 5"
    s = seating.press(s, 5, 2 * S)  # Anne presses again: not Marc's
    assert s.asking == "Marc" and "already Anne's" in s.note
    s = seating.press(s, 2, 3 * S)
    s = seating.press(s, 7, 4 * S)
    assert s.done and s.asking is None and s.prompt == "Everyone has a seat"
    assert seating.header_seats(s) == {"Anne": 5, "Marc": 2, "Carl": 7}


def test_a_button_that_never_answers_is_reported_and_the_next_player_is_asked() -> None:
    s = seating.start(("Anne", "Marc"), wired=(1, 2, 3), now_ns=0, timeout_ns=10 * S)
    assert seating.tick(s, 9 * S) == s
    s = seating.tick(s, 10 * S)
    assert s.silent == ("Anne",) and s.asking == "Marc" and "no button answered for Anne" in s.note
    s = seating.press(s, 2, 11 * S)
    assert not s.done and s.asking is None and s.prompt == "Some buttons did not answer"
    with pytest.raises(SeatingError, match="Anne"):
        seating.header_seats(s)
    # The cable was fixed: ask Anne again.
    s = seating.retry(s, "Anne", 30 * S)
    assert s.asking == "Anne" and s.silent == ()
    s = seating.press(s, 3, 31 * S)
    assert s.done and s.seats() == {"Marc": 2, "Anne": 3}


def test_reordering_to_the_clockwise_seating() -> None:
    s = seating.start(("Anne", "Marc", "Carl"), wired=(1, 2, 3), now_ns=0)
    for button in (3, 1, 2):
        s = seating.press(s, button, 0)
    assert seating.sort_by_button(s).players == ("Marc", "Carl", "Anne")
    assert seating.move(s, "Carl", 0).players == ("Carl", "Anne", "Marc")
    assert seating.move(s, "Anne", 99).players == ("Marc", "Carl", "Anne")
    assert seating.reorder(s, ["Carl", "Marc", "Anne"]).players == ("Carl", "Marc", "Anne")
    with pytest.raises(SeatingError, match="every player"):
        seating.reorder(s, ["Carl", "Marc"])


def test_bad_starts_are_refused_with_a_reason() -> None:
    with pytest.raises(SeatingError, match="only 2 seat buttons"):
        seating.start(("A", "B", "C"), wired=(1, 2), now_ns=0)
    with pytest.raises(SeatingError, match="same name"):
        seating.start(("A", "A"), wired=(1, 2), now_ns=0)
    with pytest.raises(SeatingError, match="list the players"):
        seating.start((), wired=(1, 2), now_ns=0)


def test_unwired_buttons_and_presses_after_seating_change_nothing_but_the_note() -> None:
    s = seating.start(("Anne",), wired=(1, 2), now_ns=0)
    assert seating.press(s, 9, 0) == s
    s = seating.press(s, 1, 0)
    assert seating.press(s, 1, 0).note == "button 1 is Anne's"
    assert seating.press(s, 2, 0).seats() == {"Anne": 1}


NAMES = st.lists(st.text("abcdefgh", min_size=1, max_size=4), min_size=1, max_size=8, unique=True)
STEP = st.one_of(
    st.tuples(st.just("press"), st.integers(0, 10)),
    st.tuples(st.just("tick"), st.integers(0, 30)),
    st.tuples(st.just("retry"), st.integers(0, 7)),
    st.tuples(st.just("move"), st.integers(0, 7), st.integers(-1, 9)),
    st.tuples(st.just("sort")),
)


@given(NAMES, st.integers(0, 4), st.lists(STEP, max_size=40))
def test_any_sequence_keeps_the_seating_consistent(names: list[str], spare: int, steps: list[tuple]) -> None:
    wired = tuple(range(1, min(8, len(names) + spare) + 1))
    if len(wired) < len(names):
        return
    now = 0
    s = seating.start(names, wired, now, timeout_ns=10 * S)
    for step in steps:
        now += S
        kind = step[0]
        if kind == "press":
            before = s
            s = seating.press(s, step[1], now)
            if before.asking and step[1] in before.free_buttons:
                assert s.seats()[before.asking] == step[1]  # the player asked gets the button pressed
        elif kind == "tick":
            s = seating.tick(s, now + step[1] * S)
        elif kind == "retry":
            s = seating.retry(s, names[step[1] % len(names)], now)
        elif kind == "move":
            s = seating.move(s, names[step[1] % len(names)], step[2])
        else:
            s = seating.sort_by_button(s)
        seats = s.seats()
        assert sorted(s.players) == sorted(names)  # reordering never loses or adds a player
        assert len(set(seats.values())) == len(seats)  # one player per button
        assert set(seats.values()) <= set(wired) and set(seats) <= set(names)
        assert set(s.free_buttons) == set(wired) - set(seats.values())
        assert not set(s.silent) & set(seats)  # a seated player is not reported silent
        if s.asking is not None:
            assert s.asking not in seats and s.asking not in s.silent
        assert s.done == (len(seats) == len(names))
        if s.done:
            assert list(seating.header_seats(s)) == list(s.players)


@given(NAMES, st.randoms(use_true_random=False))
def test_pressing_distinct_buttons_in_turn_seats_everyone(names: list[str], rng) -> None:
    buttons = list(range(1, 9))
    rng.shuffle(buttons)
    s = seating.start(names, range(1, 9), 0)
    for i, _ in enumerate(names):
        s = seating.press(s, buttons[i], i)
    assert s.done
    assert seating.header_seats(s) == {n: buttons[i] for i, n in enumerate(names)}
