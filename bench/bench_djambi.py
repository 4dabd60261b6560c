"""Djambi engine speed: legal moves per second, perft(3), validating one move.

    python bench/bench_djambi.py            # about half a minute
    python bench/bench_djambi.py --deep     # also perft(3) of the mid-game positions (minutes)

Prints the median of several runs and ratios against baselines measured in the same run:
validating one move against generating the whole legal move list of the same position (what
the validator saves the board reader), and reading a position string (what a caller pays if
it validates from strings instead of holding a Board).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from referee.games.djambi import Board, Move, Position, check_move, why_illegal
from tests.test_djambi_perft import M1, M2, M3, M4

POSITIONS = {"initial": Position.initial().fen(), "M1": M1, "M2": M2, "M3": M3, "M4": M4}


def median_time(fn: Callable[[], object], runs: int, inner: int = 1) -> float:
    """Median seconds per call of `fn` over `runs` runs of `inner` calls each."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        for _ in range(inner):
            fn()
        times.append((time.perf_counter() - start) / inner)
    return statistics.median(times)


def near_misses(board: Board, moves: list[Move]) -> list[Move]:
    """Illegal moves one change away from legal ones: what the board reader mostly tries."""
    out = []
    for m in moves[:: max(1, len(moves) // 40)]:
        out.append(Move(m.origin, (m.target + 9) % 81, m.exit, m.place, m.victim))
        out.append(Move(m.origin, m.target, m.exit, m.origin if m.place is None else None, m.victim))
    return [m for m in out if why_illegal(board, m) is not None]


def measure_position(name: str, fen: str, runs: int) -> str:
    """One table row: generation against validation of legal and illegal moves."""
    board = Board(fen)
    moves = board.legal_moves()
    gen = median_time(board.legal_moves, runs, inner=max(1, 20000 // (len(moves) + 50)))
    sample = moves[:: max(1, len(moves) // 200)]
    bad = near_misses(board, moves)
    legal_t = median_time(lambda: [why_illegal(board, m) for m in sample], runs, 20) / len(sample)
    bad_t = median_time(lambda: [why_illegal(board, m) for m in bad], runs, 20) / max(1, len(bad))
    text = str(sample[0])
    from_string = median_time(lambda: check_move(fen, text), runs, 200)
    return (
        f"| {name} | {len(moves)} | {gen * 1e6:.0f} | {len(moves) / gen:,.0f} | {legal_t * 1e6:.1f} "
        f"| {bad_t * 1e6:.1f} | {gen / legal_t:,.0f}× | {from_string * 1e6:.0f} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser(
        description="Djambi engine speed: legal moves per second, perft(3), validation."
    )
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--deep", action="store_true", help="perft(3) of the mid-game positions too")
    args = parser.parse_args()
    runs = args.runs

    print(f"Djambi engine, median of {runs} runs (python {sys.version.split()[0]})\n")
    print(
        "| position | legal moves | generation (µs) | moves/s | validate legal (µs) | validate illegal (µs) "
        "| generation ÷ validation | check_move from string (µs) |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, fen in POSITIONS.items():
        print(measure_position(name, fen, runs))

    print("\n| perft | depth | count | time (s) | leaf moves/s |")
    print("|---|---:|---:|---:|---:|")
    board = Board()
    for depth in (1, 2, 3):
        count = board.perft(depth)
        t = median_time(lambda d=depth: board.perft(d), runs if depth < 3 else max(3, runs // 2))
        print(f"| initial | {depth} | {count:,} | {t:.3f} | {count / t:,.0f} |")
    deep = ["M1", "M2", "M3", "M4"] if args.deep else ["M1"]
    for name in deep:
        board = Board(POSITIONS[name])
        start = time.perf_counter()
        count = board.perft(3)
        t = time.perf_counter() - start
        print(f"| {name} (one run) | 3 | {count:,} | {t:.1f} | {count / t:,.0f} |")


if __name__ == "__main__":
    main()
