"""How the board benchmark scores a read (bench/bench_board.py): the rules behind its figures."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location(
    "bench_board", Path(__file__).resolve().parents[1] / "bench" / "bench_board.py"
)
assert _spec is not None and _spec.loader is not None
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)


@pytest.mark.parametrize(
    ("read", "unknown", "truth", "hidden", "expected"),
    [
        ("rC", False, "rC", False, "correct"),
        (None, False, None, False, "correct"),  # empty, read empty
        (None, True, None, False, "flagged"),  # ?? where the square can be seen
        (None, True, "rC", True, "correct"),  # ?? where a hand hides it: what the issue asks
        ("rC", False, "rC", True, "correct"),  # a piece read through a partly covered marker
        (None, False, None, True, "guessed"),  # "empty" where a piece could hide: a guess
        (None, False, "rC", True, "wrong"),
        ("bC", False, "rC", False, "wrong"),
        ("xx", False, None, False, "wrong"),
    ],
)
def test_outcome(read: str | None, unknown: bool, truth: str | None, hidden: bool, expected: str) -> None:
    assert bench.outcome(read, unknown, truth, hidden) == expected


def test_the_time_figures_are_a_median_and_a_nearest_rank_p95() -> None:
    # 1 … 100 in any order: the median between the middle two, p95 the 95th value.
    values = [float(v) for v in range(100, 0, -1)]
    assert bench._quantiles(values) == (50.5, 95.0)
    assert bench._ms([0.002, 0.001, 0.003]) == pytest.approx((2.0, 3.0))
    med, p95 = bench._quantiles([])  # no frame read (no board found): no figure, not a crash
    assert med != med and p95 != p95
