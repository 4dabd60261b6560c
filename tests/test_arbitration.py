"""The arbitration core: order, margins, ties, false starts, held buttons, timeouts."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.arbitration import Contest, Press, PressVerdict, Release, arbitrate, format_ns

MS = 1_000_000
US = 1_000
SEATS = ("Anne", "Marc", "Herman", "Carl")


def contest(**kw) -> Contest:
    return Contest(arm_t_ns=kw.pop("arm", 0), seats=kw.pop("seats", SEATS), **kw)


def test_orders_presses_and_measures_margins_between_first_presses() -> None:
    v = arbitrate(contest(), [Press("Marc", 400 * MS), Press("Anne", 363 * MS), Press("Carl", 900 * MS)])
    assert v.ranking == (("Anne",), ("Marc",), ("Carl",))
    assert v.margins_ns == (37 * MS, 500 * MS)
    assert v.no_press == ("Herman",)
    assert v.rule == "timing.first-press"
    assert v.summary() == "Anne first, by 37.0 ms over Marc (tie window 100 µs)"


def test_presses_inside_the_tie_window_tie_and_the_window_is_reported() -> None:
    v = arbitrate(
        contest(tie_window_ns=100 * US), [Press("Marc", 500 * MS + 99 * US), Press("Anne", 500 * MS)]
    )
    assert v.ranking == (("Anne", "Marc"),)
    assert v.winners == ("Anne", "Marc")
    assert v.rule == "timing.tie"
    assert v.to_json()["tie_window_ns"] == 100 * US
    # Exactly the window apart is not "closer than" the window.
    v = arbitrate(
        contest(tie_window_ns=100 * US), [Press("Marc", 500 * MS + 100 * US), Press("Anne", 500 * MS)]
    )
    assert v.ranking == (("Anne",), ("Marc",))


def test_equal_times_tie_even_with_a_zero_window() -> None:
    v = arbitrate(contest(tie_window_ns=0), [Press("Marc", 200 * MS), Press("Anne", 200 * MS)])
    assert v.ranking == (("Anne", "Marc"),)


def test_ties_chain_when_each_neighbour_is_inside_the_window() -> None:
    presses = [
        Press("Anne", 300 * MS),
        Press("Marc", 300 * MS + 60 * US),
        Press("Herman", 300 * MS + 120 * US),
    ]
    v = arbitrate(contest(tie_window_ns=100 * US), presses)
    assert v.ranking == (("Anne", "Marc", "Herman"),)


def test_false_starts_before_the_call_or_faster_than_a_human_are_not_ranked() -> None:
    presses = [
        Press("Anne", -5 * MS),
        Press("Anne", 300 * MS),
        Press("Marc", 50 * MS),
        Press("Herman", 250 * MS),
    ]
    v = arbitrate(contest(), presses, [Release("Anne", -1 * MS)])
    assert v.false_starts == ("Anne", "Marc")
    assert v.ranking == (("Herman",),)
    assert v.no_press == ("Carl",)
    whys = {(i["seat"], i["why"]) for i in v.ignored}
    assert ("Anne", "false start: before the call") in whys
    assert ("Marc", "false start: faster than a human can react to the call") in whys


def test_a_button_held_at_arm_cannot_win() -> None:
    # Carl's button went down before the call and never came up: held at arm.
    v = arbitrate(contest(), [Press("Carl", -2000 * MS), Press("Anne", 400 * MS)])
    assert v.held_at_arm == ("Carl",)
    assert v.ranking == (("Anne",),)
    # A source may also report held seats directly.
    v = arbitrate(
        contest(held_at_arm=frozenset({"Anne"})), [Press("Anne", 200 * MS), Press("Marc", 300 * MS)]
    )
    assert v.ranking == (("Marc",),)
    assert v.held_at_arm == ("Anne",)


def test_a_released_button_before_the_call_is_a_false_start_not_held() -> None:
    v = arbitrate(
        contest(), [Press("Carl", -900 * MS), Press("Carl", 400 * MS)], [Release("Carl", -800 * MS)]
    )
    assert v.held_at_arm == ()
    assert v.false_starts == ("Carl",)
    assert v.ranking == ()


def test_second_press_of_a_seat_is_ignored_and_late_presses_do_not_count() -> None:
    presses = [Press("Anne", 300 * MS), Press("Anne", 310 * MS), Press("Marc", 2500 * MS)]
    v = arbitrate(contest(timeout_ns=2000 * MS), presses)
    assert v.ranking == (("Anne",),)
    assert v.no_press == ("Marc", "Herman", "Carl")
    assert {i["why"] for i in v.ignored} == {"second press of the seat", "after the timeout"}


def test_presses_from_unknown_seats_are_ignored() -> None:
    v = arbitrate(contest(seats=("Anne",)), [Press("Zoe", 300 * MS), Press("Anne", 400 * MS)])
    assert v.ranking == (("Anne",),)
    assert v.ignored[0]["why"] == "not a seat of this contest"


def test_invalid_contests_are_refused() -> None:
    with pytest.raises(ValueError):
        Contest(0, ("Anne", "Anne"))
    with pytest.raises(ValueError):
        Contest(0, ("Anne",), tie_window_ns=-1)


def test_verdict_json_round_trip_and_malformed_verdicts() -> None:
    v = arbitrate(contest(), [Press("Marc", 400 * MS), Press("Anne", 363 * MS)])
    assert PressVerdict.from_json(v.to_json()) == v
    for bad in ({}, {"ranking": [[]]}, {"ranking": [["A"], ["B"]], "margins_ns": []},
                {"ranking": [["A"], ["A"]], "margins_ns": [1]}, {"ranking": "AB"}):  # fmt: skip
        with pytest.raises(ValueError):
            PressVerdict.from_json(bad)


def test_format_ns() -> None:
    assert [format_ns(n) for n in (5, 85 * US, 37_200_000, 2_500_000_000)] == [
        "5 ns",
        "85 µs",
        "37.2 ms",
        "2.50 s",
    ]


presses_strategy = st.lists(
    st.tuples(st.sampled_from(SEATS), st.integers(min_value=-200 * MS, max_value=3000 * MS)), max_size=12
)


@given(presses_strategy, st.integers(min_value=0, max_value=5 * MS), st.randoms())
def test_properties_of_every_verdict(raw, window, rnd: random.Random) -> None:
    presses = [Press(s, t) for s, t in raw]
    c = contest(tie_window_ns=window)
    v = arbitrate(c, presses)
    shuffled = presses[:]
    rnd.shuffle(shuffled)
    assert arbitrate(c, shuffled) == v, "input order must not matter"
    ranked = [s for entry in v.ranking for s in entry]
    assert len(ranked) == len(set(ranked))
    assert not set(ranked) & (set(v.false_starts) | set(v.held_at_arm))
    assert set(ranked) | set(v.false_starts) | set(v.held_at_arm) | set(v.no_press) == set(SEATS)
    assert not set(v.no_press) & (set(ranked) | set(v.false_starts))
    for seat in ranked:
        assert v.reaction_ns[seat] >= c.min_reaction_ns
    for entry in v.ranking:  # inside an entry every neighbour is within the window
        times = [v.reaction_ns[s] for s in entry]
        assert all(b - a == 0 or b - a < window for a, b in itertools.pairwise(times))
    for i, margin in enumerate(v.margins_ns):  # between entries: strictly later, at least the window
        last = max(v.reaction_ns[s] for s in v.ranking[i])
        first_next = min(v.reaction_ns[s] for s in v.ranking[i + 1])
        assert first_next - last >= max(window, 1)
        assert margin == first_next - min(v.reaction_ns[s] for s in v.ranking[i])
