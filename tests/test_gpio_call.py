"""The referee's own call: a random delay after arming (seeded), then the call on the edges' clock."""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hardware.call_schedule import CallSchedule
from tests.gpio_table import MS, Table


@pytest.fixture
def table() -> Iterator[Table]:
    t = Table()
    yield t
    t.close()


def test_the_default_delay_lies_between_1_5_and_4_seconds_and_is_reproducible() -> None:
    schedule = CallSchedule()
    draws = [schedule.delay_ns(random.Random(seed)) for seed in range(500)]
    assert all(1_500_000_000 <= d <= 4_000_000_000 for d in draws)
    assert draws == [schedule.delay_ns(random.Random(seed)) for seed in range(500)]
    assert len(set(draws)) == 500  # nanosecond resolution: no two seeds agree


def test_uniform_delays_spread_evenly() -> None:
    rng = random.Random(1)
    draws = [CallSchedule(1.5, 4.0).delay_ns(rng) / 1e9 for _ in range(4000)]
    assert statistics.mean(draws) == pytest.approx(2.75, abs=0.05)
    quarter = sum(d < 2.125 for d in draws) / len(draws)
    assert quarter == pytest.approx(0.25, abs=0.03)


def test_non_aging_delays_keep_the_hazard_nearly_flat() -> None:
    """Having waited tells little: P(call in the next 0.5 s | no call yet) barely rises."""
    lo, hi = 1.5, 6.0
    rng = random.Random(2)
    draws: dict[str, list[float]] = {}
    for shape in ("uniform", "non-aging"):
        draws[shape] = [CallSchedule(lo, hi, shape).delay_ns(rng) / 1e9 for _ in range(20_000)]
        assert all(lo <= d <= hi for d in draws[shape])

    def hazard(sample: list[float], start: float) -> float:
        alive = [d for d in sample if d >= start]
        return sum(d < start + 0.5 for d in alive) / len(alive)

    scale = (hi - lo) / 3

    def survival(t: float) -> float:  # of the exponential truncated to [lo, hi]
        return (math.exp(-(t - lo) / scale) - math.exp(-(hi - lo) / scale)) / (
            1 - math.exp(-(hi - lo) / scale)
        )

    for start in (1.5, 2.0, 2.5, 3.0):
        exact = 1 - survival(start + 0.5) / survival(start)
        assert hazard(draws["non-aging"], start) == pytest.approx(exact, abs=0.02)
    rise = {shape: hazard(draws[shape], 3.0) / hazard(draws[shape], 1.5) for shape in draws}
    assert rise["non-aging"] < 1.15 < 1.4 < rise["uniform"]


def test_a_fixed_delay_is_allowed() -> None:
    assert CallSchedule(2.0, 2.0).delay_ns(random.Random(0)) == 2_000_000_000


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"min_s": 4.0, "max_s": 1.5}, "min ≤ max"),
        ({"min_s": -0.1, "max_s": 1.0}, "0.0 s ≤ min"),
        ({"min_s": 1.0, "max_s": 60.0}, "≤ 30.0 s"),
        ({"min_s": float("nan")}, "number of seconds"),
        ({"min_s": True}, "number of seconds"),
        ({"max_s": "4"}, "number of seconds"),
        ({"shape": "gaussian"}, "uniform, non-aging"),
    ],
)
def test_unreasonable_schedules_are_refused(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        CallSchedule(**kwargs)  # type: ignore[arg-type]


def test_schedules_from_settings() -> None:
    assert CallSchedule.from_mapping({"min_s": 2, "max_s": 5}) == CallSchedule(2, 5)
    with pytest.raises(ValueError, match="unknown call delay setting"):
        CallSchedule.from_mapping({"min": 2})


def test_a_contest_with_the_random_delay_call(table: Table) -> None:
    """Arm, wait the drawn delay, call; a press during the wait is a false start."""
    arm = 10_000 * MS
    held = table.arm(arm)
    delay = CallSchedule().delay_ns(random.Random(2024))
    call_at = arm + delay
    table.tap(3, arm + delay // 2)  # seat 3 guesses the rhythm
    call = table.call(call_at)
    assert call == call_at  # the call is stamped on the edges' clock
    assert table.source.feedback is not None and table.source.feedback.sounding
    table.press(5, call + 240 * MS)
    table.press(1, call + 310 * MS)
    table.settle(call + 1_000 * MS)
    v = table.verdict(call, held=held)
    assert v.false_starts == ("3",)
    assert v.ranking == (("5",), ("1",)) and v.reaction_ns["5"] == 240 * MS
    assert v.arm_t_ns == call


@given(seed=st.integers(0, 2**32), early=st.floats(0.0, 0.999), late_ms=st.integers(100, 3000))
def test_any_press_during_the_wait_is_a_false_start_and_any_after_counts(
    seed: int, early: float, late_ms: int
) -> None:
    table = Table()
    try:
        arm = 1_000 * MS
        table.arm(arm)
        delay = CallSchedule().delay_ns(random.Random(seed))
        table.tap(2, arm + int(delay * early), hold_ns=MS * 2)
        call = table.call(arm + delay)
        table.press(7, call + late_ms * MS)
        table.settle(call + (late_ms + 100) * MS)
        v = table.verdict(call)
        assert v.false_starts == ("2",) and v.winners == ("7",)
    finally:
        table.close()
