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
