"""In-order, exactly-once delivery from a lossy, duplicating line with resends."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from hardware.serial_frames import SEQ_MASK, Frame
from hardware.serial_sequence import SequenceTracker


def frame(seq: int) -> Frame:
    return Frame("0000CAFE", seq & SEQ_MASK, "E", ("1", "1", str(seq)))


@given(
    st.integers(0, SEQ_MASK),
    st.integers(1, 60),
    st.lists(st.sampled_from(["ok", "ok", "ok", "drop", "dup"]), min_size=60, max_size=60),
    st.randoms(use_true_random=False),
)
def test_every_frame_is_delivered_once_in_order_after_resends(first, n, fates, rng) -> None:
    tracker = SequenceTracker("0000CAFE", first)
    delivered: list[int] = []
    for k in range(n):  # the first pass over the wire: some lost, some doubled
        copies = {"ok": 1, "drop": 0, "dup": 2}[fates[k]] if k else 1  # frame 1 opens the boot
        for _ in range(copies):
            delivered += [f.seq for f in tracker.offer(frame(first + k))[1]]
    # The tail: a later frame (a PONG) reveals frames lost at the end.
    delivered += [f.seq for f in tracker.offer(frame(first + n))[1]]
    rounds = 0
    while (gap := tracker.gap()) is not None:
        rounds += 1
        assert rounds < 200
        a, b = gap
        for k in range(((b - a) & SEQ_MASK) + 1):
            if rng.random() < 0.7:  # resends get lost too, sometimes
                delivered += [f.seq for f in tracker.offer(frame(a + k))[1]]
    assert delivered == [(first + k) & SEQ_MASK for k in range(n + 1)]
    assert tracker.lost == 0


def test_duplicates_and_old_frames_are_dropped_and_counted() -> None:
    t = SequenceTracker("B", 10)
    assert [f.seq for f in t.offer(frame(10))[1]] == [10]
    assert t.offer(frame(10)) == (False, [])
    assert t.offer(frame(9)) == (False, [])
    t.offer(frame(12))
    assert t.offer(frame(12)) == (False, [])
    assert t.duplicates == 3


def test_lost_range_is_skipped_and_held_frames_released() -> None:
    t = SequenceTracker("B", 1)
    t.offer(frame(1))
    t.offer(frame(5))
    t.offer(frame(6))
    assert t.gap() == (2, 4)
    assert [f.seq for f in t.skip(2, 4)] == [5, 6]
    assert (t.lost, t.gap(), t.expected) == (3, None, 7)


def test_lost_range_beyond_the_next_expected_frame_waits() -> None:
    t = SequenceTracker("B", 1)
    t.offer(frame(1))
    t.offer(frame(9))
    assert t.skip(5, 8) == []  # frames 2..4 may still come
    assert t.gap() == (2, 8)


def test_give_up_declares_the_gap_lost() -> None:
    t = SequenceTracker("B", 1)
    t.offer(frame(1))
    t.offer(frame(4))
    assert [f.seq for f in t.give_up()] == [4]
    assert t.lost == 2


def test_too_many_held_frames_gives_up_on_the_gap() -> None:
    t = SequenceTracker("B", 1, max_held=3)
    t.offer(frame(1))
    out = []
    for seq in range(3, 7):
        out += t.offer(frame(seq))[1]
    assert [f.seq for f in out] == [3, 4, 5, 6]
    assert t.lost == 1


def test_wraps_from_the_last_32_bit_number_to_zero() -> None:
    t = SequenceTracker("B", SEQ_MASK)
    assert [f.seq for f in t.offer(frame(SEQ_MASK))[1]] == [SEQ_MASK]
    assert [f.seq for f in t.offer(frame(1))[1]] == []
    assert t.gap() == (0, 0)
    assert [f.seq for f in t.offer(frame(0))[1]] == [0, 1]
