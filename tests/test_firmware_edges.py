"""The firmware's edge detector: leading-edge stamps, glitch confirmation, lockout until release."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from firmware.edges import EdgeDetector

PRESS_US, RELEASE_US = 1_000, 5_000


def run(
    snapshots: list[tuple[int, int]], inputs: int = 9, until: int | None = None
) -> tuple[list, EdgeDetector]:
    d = EdgeDetector(inputs, PRESS_US, RELEASE_US)
    out: list[tuple[int, int, int]] = []
    for t, mask in snapshots:
        d.feed(t, mask, out)
    d.advance(until if until is not None else (snapshots[-1][0] if snapshots else 0) + 100_000, out)
    return out, d


def test_clean_press_and_release_are_stamped_at_their_transitions() -> None:
    out, _ = run([(1_000, 0b10), (200_000, 0)])
    assert out == [(1, 1, 1_000), (1, 0, 200_000)]


def test_press_is_confirmed_only_after_the_confirmation_time() -> None:
    d = EdgeDetector(2, PRESS_US, RELEASE_US)
    out: list[tuple[int, int, int]] = []
    d.feed(10, 0b10, out)
    d.advance(10 + PRESS_US - 1, out)
    assert out == []
    d.advance(10 + PRESS_US, out)
    assert out == [(1, 1, 10)]


def test_bounce_keeps_the_first_transition_as_the_stamp() -> None:
    # closes at 100, bounces open/closed every 40 µs for 2 ms, then stays closed
    snaps = [(100 + 40 * k, 0b100 if k % 2 == 0 else 0) for k in range(51)]
    out, d = run(snaps)
    assert out == [(2, 1, 100)]
    assert d.glitches == 0


def test_a_short_spike_is_a_glitch_not_a_press() -> None:
    out, d = run([(500, 0b10), (520, 0)], until=20_000)
    assert out == []
    assert d.glitches == 1


def test_a_release_bounce_is_stamped_at_its_first_opening() -> None:
    snaps = [(0, 0b10), (100_000, 0), (100_030, 0b10), (100_070, 0), (100_090, 0b10), (100_200, 0)]
    out, _ = run(snaps)
    assert out == [(1, 1, 0), (1, 0, 100_000)]


def test_a_dropout_while_held_is_not_a_second_press() -> None:
    # held; opens for 300 µs (less than the release confirmation) and closes again: one press
    out, d = run([(0, 0b10), (50_000, 0), (50_300, 0b10)], until=60_000)
    assert out == [(1, 1, 0)]
    assert d.glitches == 1


def test_presses_in_the_same_read_get_the_same_stamp() -> None:
    out, _ = run([(7_000, 0b0110)])
    assert sorted(out) == [(1, 1, 7_000), (2, 1, 7_000)]


def test_held_at_boot_is_the_stable_level() -> None:
    d = EdgeDetector(3, PRESS_US, RELEASE_US, initial_mask=0b100)
    out: list[tuple[int, int, int]] = []
    d.feed(10, 0b100, out)
    d.advance(100_000, out)
    assert out == [] and d.stable == 0b100


# -- properties -----------------------------------------------------------------------------

runs = st.lists(st.integers(1, 900), min_size=0, max_size=30)  # bounce runs, all < 1 ms


@st.composite
def bouncy_press(draw: st.DrawFn) -> tuple[int, list[tuple[int, int]]]:
    """A press bouncing with runs shorter than both confirmation times, then held 2 ms."""
    t0 = draw(st.integers(0, 10_000))
    t, level, changes = t0, 1, [(t0, 1)]
    for gap in draw(runs):
        t += gap
        level ^= 1
        changes.append((t, level))
    if level == 0:
        t += draw(st.integers(1, 900))
        changes.append((t, 1))
    return t0, changes


@given(bouncy_press())
def test_any_bounce_shorter_than_the_windows_gives_one_press_at_the_first_edge(press) -> None:
    t0, changes = press
    out, _ = run([(t, level << 3) for t, level in changes])
    assert out == [(3, 1, t0)]


@given(bouncy_press(), st.lists(st.tuples(st.integers(0, 20_000), st.integers(0, 1)), max_size=60))
def test_another_seat_bouncing_never_changes_a_seats_edges(press, noise) -> None:
    """The point of sampling every seat in one read: seats are independent."""
    _, changes = press
    alone, _ = run([(t, level << 3) for t, level in changes])
    # Merge seat 3's changes with seat 5's noise into one stream of whole-mask snapshots.
    events = sorted([(t, 3, level) for t, level in changes] + [(t, 5, level) for t, level in noise])
    mask, snaps = 0, []
    for t, seat, level in events:
        mask = mask | (1 << seat) if level else mask & ~(1 << seat)
        if snaps and snaps[-1][0] == t:
            snaps[-1] = (t, mask)
        else:
            snaps.append((t, mask))
    mixed, _ = run(snaps)
    assert [e for e in mixed if e[0] == 3] == alone


@given(st.lists(st.tuples(st.integers(1, 3_000), st.integers(0, 0b1111)), max_size=80))
def test_edges_alternate_and_are_stamped_at_transitions(steps) -> None:
    t, snaps, transitions = 0, [], {i: set() for i in range(4)}
    prev = 0
    for dt, mask in steps:
        t += dt
        snaps.append((t, mask))
        for i in range(4):
            if (mask ^ prev) >> i & 1:
                transitions[i].add(t)
        prev = mask
    out, _ = run(snaps, inputs=4)
    for i in range(4):
        mine = [(level, stamp) for seat, level, stamp in out if seat == i]
        assert [level for level, _ in mine] == [1, 0] * (len(mine) // 2) + [1] * (len(mine) % 2)
        assert all(stamp in transitions[i] for _, stamp in mine)
        assert [s for _, s in mine] == sorted(s for _, s in mine)
