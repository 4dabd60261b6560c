"""The leading-edge debouncer: examples, then properties over random edge sequences."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hardware.debounce import Debouncer, DebounceSettings, Phase, Transition

GLITCH = 1_000_000
QUIET = 30_000_000
SETTINGS = DebounceSettings(GLITCH, QUIET)
FAR = 10**12  # a time long after any sequence below: every decision is due


def run(
    edges: list[tuple[bool, int]], *, polls: Sequence[int] = (), end: int | None = FAR
) -> list[Transition]:
    """Feed `edges` (level, t) with `polls` interleaved by time; poll at `end`."""
    d = Debouncer(SETTINGS)
    out: list[Transition] = []
    events = sorted(
        [(t, 0, level) for level, t in edges] + [(t, 1, None) for t in polls], key=lambda e: e[:2]
    )
    for t, kind, level in events:
        out += d.poll(t) if kind else d.feed(bool(level), t)
    if end is not None:
        out += d.poll(end)
    return out


def test_a_clean_press_is_stamped_at_its_edge_once_it_holds_for_the_glitch_time() -> None:
    d = Debouncer(SETTINGS)
    assert d.feed(True, 5_000) == []
    assert d.poll(5_000 + GLITCH - 1) == []  # not yet held long enough
    assert d.pending_since == 5_000
    assert d.poll(5_000 + GLITCH) == [Transition(True, 5_000)]
    assert d.down and d.pending_since is None


def test_the_next_edge_after_the_glitch_time_confirms_without_a_poll() -> None:
    d = Debouncer(SETTINGS)
    d.feed(True, 0)
    assert d.feed(False, 2 * GLITCH) == [Transition(True, 0)]  # held 2 ms, then released
    assert d.phase is Phase.RELEASING


def test_a_noise_spike_shorter_than_the_glitch_time_is_dropped_and_counted() -> None:
    d = Debouncer(SETTINGS)
    d.feed(True, 0)
    d.feed(False, 40_000)  # a 40 µs spike
    assert d.poll(FAR) == []
    assert d.glitches == 1 and not d.down and d.phase is Phase.IDLE


def test_a_bounce_storm_of_1000_edges_in_10_ms_is_one_press_stamped_at_its_first_edge() -> None:
    edges = [(i % 2 == 0, 1_000 + i * 10_000) for i in range(1001)]  # 1001 edges over 10 ms, ends down
    assert edges[-1] == (True, 10_001_000)
    d = Debouncer(SETTINGS)
    out: list[Transition] = []
    for level, t in edges:
        out += d.feed(level, t)
    assert out == []  # still bouncing: undecided, nothing reported yet
    assert d.pending_since == 1_000
    assert d.poll(10_001_000 + GLITCH) == [Transition(True, 1_000)]


def test_a_release_is_reported_once_quiet_and_only_then_can_the_seat_press_again() -> None:
    d = Debouncer(SETTINGS)
    d.feed(True, 0)
    d.poll(GLITCH)
    d.feed(False, 100_000_000)
    d.feed(True, 100_020_000)  # release bounce
    d.feed(False, 100_040_000)
    assert d.poll(100_040_000 + QUIET - 1) == []
    assert d.down  # still locked
    assert d.poll(100_040_000 + QUIET) == [Transition(False, 100_000_000)]
    d.feed(True, 200_000_000)
    assert d.poll(FAR) == [Transition(True, 200_000_000)]


def test_pressing_again_within_the_quiet_time_is_the_same_press() -> None:
    out = run([(True, 0), (False, 50_000_000), (True, 60_000_000)])  # re-pressed after 10 ms
    assert out == [Transition(True, 0)]


def test_a_button_down_at_start_is_locked_until_released_and_quiet() -> None:
    d = Debouncer(SETTINGS, active=True, t_ns=0)
    assert d.down
    assert d.feed(False, 5_000_000) == []
    assert d.poll(5_000_000 + QUIET) == [Transition(False, 5_000_000)]


def test_an_edge_stamped_before_a_decided_time_is_clamped_and_counted() -> None:
    d = Debouncer(SETTINGS)
    d.feed(True, 10_000)
    d.feed(False, 5_000)  # earlier than a time already decided: clamped to 10 µs
    assert d.late == 1
    assert d.poll(FAR) == []  # a zero-length spike


def test_repeating_the_same_level_changes_nothing() -> None:
    assert run([(True, 0), (True, 500_000), (True, 900_000)]) == [Transition(True, 0)]


@pytest.mark.parametrize(
    ("glitch", "quiet"),
    [(0, QUIET), (-1, QUIET), (GLITCH, GLITCH - 1), (GLITCH, 2_000_000_000), (60_000_000, 10**9)],
)
def test_unreasonable_settings_are_refused(glitch: int, quiet: int) -> None:
    with pytest.raises(ValueError, match="time"):
        DebounceSettings(glitch, quiet)


def test_settings_from_milliseconds() -> None:
    assert DebounceSettings.from_ms(0.5, 20) == DebounceSettings(500_000, 20_000_000)


# --- properties -------------------------------------------------------------------------------

gaps = st.integers(min_value=1, max_value=60_000_000)
levels = st.booleans()
signals = st.lists(st.tuples(levels, gaps), min_size=1, max_size=60)


def edges_of(signal: list[tuple[bool, int]]) -> list[tuple[bool, int]]:
    """(level, gap) pairs → (level, absolute time) edges, starting at t = 1 s."""
    t, out = 1_000_000_000, []
    for level, gap in signal:
        t += gap
        out.append((level, t))
    return out


@given(signals)
def test_presses_and_releases_alternate_starting_with_a_press(signal: list[tuple[bool, int]]) -> None:
    out = run(edges_of(signal))
    assert [tr.pressed for tr in out] == [i % 2 == 0 for i in range(len(out))]


@given(signals)
def test_every_stamp_is_the_time_of_an_edge_into_that_level(signal: list[tuple[bool, int]]) -> None:
    edges = edges_of(signal)
    changes, level = set(), False
    for lv, t in edges:
        if lv != level:
            changes.add((lv, t))
            level = lv
    for tr in run(edges):
        assert (tr.pressed, tr.t_ns) in changes


@given(signals, st.lists(st.integers(min_value=0, max_value=10**9), max_size=30))
def test_the_outcome_does_not_depend_on_when_the_caller_polls(signal, poll_offsets) -> None:
    edges = edges_of(signal)
    polls = [1_000_000_000 + p for p in poll_offsets]
    assert run(edges, polls=polls) == run(edges)


@given(signals)
def test_after_a_release_the_seat_stays_locked_for_the_quiet_time(signal) -> None:
    out = run(edges_of(signal))
    for release, press in zip(out[1::2], out[2::2], strict=False):
        assert press.t_ns >= release.t_ns + QUIET


@given(signals)
def test_once_everything_is_decided_the_seat_is_down_exactly_when_the_line_is(signal) -> None:
    edges = edges_of(signal)
    d = Debouncer(SETTINGS)
    for level, t in edges:
        d.feed(level, t)
    d.poll(FAR)
    assert d.down == edges[-1][0]


@given(
    st.lists(st.tuples(st.integers(1, GLITCH - 1), st.integers(GLITCH, 50_000_000)), min_size=1, max_size=30)
)
def test_spikes_shorter_than_the_glitch_time_never_press(spikes: list[tuple[int, int]]) -> None:
    t, edges = 0, []
    for width, gap in spikes:
        edges += [(True, t), (False, t + width)]
        t += width + gap
    assert run(edges) == []


@given(st.lists(st.integers(1, GLITCH - 1), min_size=0, max_size=200).map(lambda g: g[: len(g) // 2 * 2]))
def test_any_bounce_storm_that_ends_down_is_one_press_at_its_first_edge(storm_gaps: list[int]) -> None:
    t, edges = 7_000, [(True, 7_000)]
    for i, gap in enumerate(storm_gaps):  # an even number of flips: the line ends down
        t += gap
        edges.append((i % 2 == 1, t))
    assert edges[-1][0] is True
    assert run(edges) == [Transition(True, 7_000)]
