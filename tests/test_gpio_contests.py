"""Contests on the GPIO path: mock pins with explicit ticks → GpioButtonSource → arbitrate → verdict."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.arbitration import TIE_WINDOW_NS
from tests.gpio_table import MS, US, Table

CALL = 2_000 * MS  # the referee's call, 2 s into each test


@pytest.fixture
def table() -> Iterator[Table]:
    t = Table()
    yield t
    t.close()


@pytest.mark.parametrize(
    ("gap_ns", "tied"),
    [
        (0, True),
        (1, True),
        (1 * US, True),
        (99_999, True),  # just inside the 100 µs lgpio window
        (100 * US, False),  # the window itself separates
        (101 * US, False),
        (1 * MS, False),
        (37 * MS, False),
        (900 * MS, False),
    ],
)
def test_two_presses_are_ordered_at_any_separation_outside_the_window(
    table: Table, gap_ns: int, tied: bool
) -> None:
    table.call(CALL)
    table.press(5, CALL + 300 * MS)
    table.press(2, CALL + 300 * MS + gap_ns)
    table.settle(CALL + 2_000 * MS)
    v = table.verdict(CALL)
    assert v.tie_window_ns == 100 * US
    if tied:
        assert set(v.winners) == {"2", "5"} and v.rule == "timing.tie"
    else:
        assert v.ranking == (("5",), ("2",)) and v.margins_ns == (gap_ns,)
        assert v.reaction_ns["5"] == 300 * MS


def test_edges_delivered_out_of_order_across_pins_rank_by_their_stamps(table: Table) -> None:
    table.call(CALL)
    table.press(1, CALL + 250 * MS)  # the kernel delivered seat 1's edge first …
    table.press(7, CALL + 249 * MS)  # … though seat 7 pressed 1 ms earlier
    table.settle(CALL + 500 * MS)
    assert table.verdict(CALL).ranking == (("7",), ("1",))


@given(
    seats=st.permutations(range(1, 9)).map(lambda p: p[:3]),
    offsets=st.lists(st.integers(0, 5 * MS), min_size=3, max_size=3),
)
def test_any_presses_rank_as_their_first_edges_say(seats: list[int], offsets: list[int]) -> None:
    table = Table()
    try:
        base = CALL + 150 * MS
        table.call(CALL)
        for seat, off in zip(seats, offsets, strict=True):
            table.press(seat, base + off)
        table.settle(base + 100 * MS)
        v = table.verdict(CALL)
        stamps = {str(seat): base + off for seat, off in zip(seats, offsets, strict=True)}
        assert {s for entry in v.ranking for s in entry} == set(stamps)
        for earlier, later in zip(v.ranking, v.ranking[1:], strict=False):
            assert min(stamps[s] for s in later) - max(stamps[s] for s in earlier) >= 0
            assert stamps[later[0]] - stamps[earlier[0]] >= table.source.tie_window_ns
    finally:
        table.close()


def test_presses_inside_the_window_chain_into_one_tie(table: Table) -> None:
    table.call(CALL)
    t = CALL + 400 * MS
    table.press(3, t)
    table.press(1, t + 60 * US)
    table.press(8, t + 120 * US)  # 120 µs after seat 3 but only 60 µs after seat 1
    table.press(4, t + 400 * US)
    table.settle(t + 100 * MS)
    v = table.verdict(CALL)
    assert v.ranking == (("3", "1", "8"), ("4",))  # a tie lists its seats in press order
    assert "within the tie window of 100 µs" in v.summary()


def test_the_callback_paths_window_is_wider_and_says_so() -> None:
    table = Table(clock="callback")
    try:
        table.call(CALL)
        table.press(2, CALL + 300 * MS)
        table.press(6, CALL + 301 * MS)  # 1 ms apart: a tie when stamps are callback times
        table.settle(CALL + 400 * MS)
        v = table.verdict(CALL)
        assert set(v.winners) == {"2", "6"} and v.tie_window_ns == TIE_WINDOW_NS["callback"] == 2 * MS
        assert v.clock == "callback"
        health = table.source.health()
        assert (
            not health.fit_for_close_calls and "NOT fit for close calls" not in health.detail
        )  # mock detail
    finally:
        table.close()


def test_a_noise_spike_shorter_than_the_glitch_time_does_not_press(table: Table) -> None:
    table.call(CALL)
    table.press(4, CALL + 200 * MS)
    table.release(4, CALL + 200 * MS + 50 * US)  # 50 µs of interference on seat 4's cable
    table.press(6, CALL + 350 * MS)
    table.settle(CALL + 500 * MS)
    assert table.presses() == [(6, CALL + 350 * MS)]
    assert table.verdict(CALL).winners == ("6",)
    assert "1 noise spike rejected" in table.source.health().detail


def test_a_bounce_storm_is_one_press_stamped_at_its_first_edge_and_wins(table: Table) -> None:
    table.call(CALL)
    t0 = CALL + 300 * MS
    # 1000 edges within 10 ms on seat 1 (the contact settles closed), and a clean press on
    # seat 2 2 ms after the storm began; delivered in time order as the confirmer runs.
    events = [(t0 + i * 10 * US, 1, i % 2 == 0) for i in range(1000)] + [(t0 + 10 * MS, 1, True)]
    events.append((t0 + 2 * MS, 2, True))
    for t, seat, down in sorted(events):
        table.settle(t)
        (table.press if down else table.release)(seat, t)
    table.settle(t0 + 50 * MS)
    assert table.presses() == [(2, t0 + 2 * MS), (1, t0)]  # seat 2 is confirmed first …
    v = table.verdict(CALL)
    assert v.ranking == (("1",), ("2",)) and v.margins_ns == (2 * MS,)  # … but seat 1 was first


def test_release_and_rearm(table: Table) -> None:
    table.call(CALL)
    table.press(3, CALL + 300 * MS)
    table.settle(CALL + 302 * MS)  # held 1 ms, plus 1 ms of settle slack
    assert table.source.held() == {3}
    table.release(3, CALL + 500 * MS)
    table.press(3, CALL + 510 * MS)  # back down within the quiet time: the same press
    table.release(3, CALL + 520 * MS)
    table.settle(CALL + 550 * MS)
    assert table.source.held() == {3}  # quiet for 30 ms, but the 1 ms settle slack is not over
    table.settle(CALL + 551 * MS)
    assert table.source.held() == frozenset()
    # the re-press held 10 ms (more than the glitch time), so the release is the last one
    assert [(e.pressed, e.t_ns) for e in table.edges] == [(True, CALL + 300 * MS), (False, CALL + 520 * MS)]

    second_call = CALL + 3_000 * MS
    assert table.arm(second_call - 2_000 * MS) == frozenset()
    table.edges.clear()
    table.call(second_call)
    table.press(3, second_call + 280 * MS)
    table.settle(second_call + 400 * MS)
    assert table.verdict(second_call).winners == ("3",)


def test_false_starts_before_the_call_and_faster_than_a_human(table: Table) -> None:
    arm = 1_000 * MS
    assert table.arm(arm) == frozenset()
    table.tap(2, arm + 500 * MS)  # jumped the call
    table.call(CALL)
    table.press(5, CALL + 40 * MS)  # 40 ms after the call: anticipation, not reaction
    table.press(7, CALL + 220 * MS)
    table.press(2, CALL + 230 * MS)  # the false starter presses again: still out
    table.settle(CALL + 400 * MS)
    v = table.verdict(CALL)
    assert v.false_starts == ("2", "5")
    assert v.ranking == (("7",),)
    assert any(i["why"] == "false start: before the call" for i in v.ignored)


def test_a_stuck_button_held_at_arm_cannot_win(table: Table) -> None:
    table.press(8, 100 * MS)  # jammed down long before the contest
    held = table.arm(1_000 * MS)
    assert held == {8}
    table.call(CALL)
    table.release(8, CALL + 100 * MS)  # freed and slammed again: still cannot win
    table.press(8, CALL + 150 * MS)
    table.press(1, CALL + 260 * MS)
    table.settle(CALL + 400 * MS)
    v = table.verdict(CALL, held=held)
    assert v.held_at_arm == ("8",) and v.winners == ("1",)


def test_a_button_held_through_the_whole_contest_is_flagged_and_never_presses(table: Table) -> None:
    table.press(4, 10 * MS)
    held = table.arm(1_000 * MS)
    table.call(CALL)
    table.settle(CALL + 5_000 * MS)
    v = table.verdict(CALL, held=held)
    assert v.held_at_arm == ("4",) and v.winners == ()


def test_a_seat_pressing_twice_counts_its_first_press(table: Table) -> None:
    table.call(CALL)
    table.tap(6, CALL + 200 * MS, hold_ns=50 * MS)
    table.press(6, CALL + 400 * MS)  # released and quiet, then pressed again
    table.press(3, CALL + 300 * MS)
    table.settle(CALL + 600 * MS)
    assert [t for s, t in table.presses() if s == 6] == [CALL + 200 * MS, CALL + 400 * MS]
    v = table.verdict(CALL)
    assert v.ranking == (("6",), ("3",))
    assert {"seat": "6", "t_ns": CALL + 400 * MS, "why": "second press of the seat"} in v.ignored


def test_all_eight_seats_at_once_are_one_tie(table: Table) -> None:
    table.call(CALL)
    for seat in range(1, 9):
        table.press(seat, CALL + 333 * MS)
    table.settle(CALL + 400 * MS)
    v = table.verdict(CALL)
    assert v.winners == tuple(str(s) for s in range(1, 9))


def test_all_eight_seats_a_millisecond_apart_rank_in_order(table: Table) -> None:
    table.call(CALL)
    order = [5, 3, 8, 1, 7, 2, 6, 4]
    for k, seat in enumerate(reversed(order)):  # delivered last-presser first
        table.press(seat, CALL + 300 * MS + (7 - k) * MS)
    table.settle(CALL + 400 * MS)
    v = table.verdict(CALL)
    assert v.ranking == tuple((str(s),) for s in order)
    assert v.margins_ns == (MS,) * 7
