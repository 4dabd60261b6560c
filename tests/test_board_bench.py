"""How the board benchmark scores a read (bench/bench_board.py): the rules behind its figures."""

from __future__ import annotations

import importlib.util
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

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


class _Square:
    def __init__(self, token: str | None) -> None:
        self.state = "unknown" if token == "??" else "read"
        self.token = None if token == "??" else token
        self.note = "a note"


class _Read:
    def __init__(self, tokens: dict[str, str | None]) -> None:
        self.tokens = tokens

    def square(self, sq: str) -> _Square:
        return _Square(self.tokens[sq])


def test_the_squares_read_are_scored_apart_from_the_unknown_ones() -> None:
    """Of the squares read (not ``??``), the share right: a guess and an error count wrong,
    a flag and a hidden square's ``??`` are not among them."""
    squares = ["a1", "a2", "a3", "a4", "a5", "a6"]
    truth = {"a1": "rC", "a2": "", "a3": "", "a4": "", "a5": "bM", "a6": "rC"}
    hide = {"a1": 0.0, "a2": 0.0, "a3": 0.0, "a4": 0.9, "a5": 0.0, "a6": 0.0}
    shot = SimpleNamespace(
        truth=truth,
        hide=hide,
        marker_cover={"a6": 0.5},
        hidden={sq: 1 if sq in ("a4", "a6") else 0 for sq in squares},
        marker_hidden={"a6": 0.5},
        params=SimpleNamespace(hands=[object()]),
    )
    # right, right (empty), flagged, guessed (empty under a hand), wrong, ?? on a hidden piece
    read = _Read({"a1": "rC", "a2": None, "a3": "??", "a4": None, "a5": "rM", "a6": "??"})
    c: Counter[str] = Counter()
    bench.score(shot, read, c, Counter(), [], 0)  # type: ignore[arg-type]
    assert (c["read"], c["read_correct"]) == (4, 2)
    assert (c["correct"], c["flagged"], c["guessed"], c["wrong"]) == (3, 1, 1, 1)


def test_the_still_times_are_also_given_for_frames_without_and_with_a_hand() -> None:
    times = [0.010, 0.050, 0.020, 0.080, 0.030]
    hands = [False, True, False, True, False]
    groups = bench._by_hand(times, hands)
    assert groups["without a hand"] == pytest.approx((20.0, 30.0, 3))
    assert groups["with a hand"] == pytest.approx((65.0, 80.0, 2))
    empty = bench._by_hand([0.010], [False])["with a hand"]  # no frame with a hand: no figure
    assert empty[2] == 0 and empty[0] != empty[0]


def test_a_cached_scene_is_rendered_once_and_read_back_the_same(tmp_path, monkeypatch) -> None:
    import numpy as np

    from vision.board_synth import scene

    rendered: list[tuple[str, int]] = []

    def render(split: str, i: int):
        rendered.append((split, i))
        return scene(split, i)

    monkeypatch.setattr(bench, "scene", render)
    first = bench.cached_scene(tmp_path, "tune", 7)
    again = bench.cached_scene(tmp_path, "tune", 7)
    assert rendered == [("tune", 7)]  # the second came from the file
    assert np.array_equal(first.image, again.image) and first.truth == again.truth
    assert [p.name for p in tmp_path.iterdir()] == ["tune-00007.pkl"]  # no part file left
