"""Camel race engine benchmark: a flip, the console's actions, the picture, a night's replay.

    /work/venv/bin/python bench/bench_camel.py [--races 200] [--runs 5]

Prints a Markdown table. Each figure is the median of `--runs` runs over the same random races
(seeded, so every run does the same work); the baseline, measured in the same run, is the
fastest-hand engine applying one contest verdict — the smallest engine step the referee makes.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from referee.games.base import GameHeader  # noqa: E402
from referee.games.camel import ENGINE  # noqa: E402
from referee.games.fastest import ENGINE as FASTEST  # noqa: E402
from referee.record import replay_file  # noqa: E402

NAMES = ("Anne", "Bea", "Carl", "Dora", "Emil")


def random_races(count: int) -> list[tuple[GameHeader, list[dict[str, Any]]]]:
    """`count` complete races as (header, events), played with legal random entries."""
    rng = random.Random(1992)
    games = []
    for i in range(count):
        header = GameHeader("camel", "standard", NAMES[: 2 + i % 4], {})
        state = ENGINE.new_game(header)
        events: list[dict[str, Any]] = [
            {"type": "deal", "seed": i},
            {"type": "start", "card": rng.randint(1, 16), "first": header.players[0]},
        ]
        for e in events:
            state = ENGINE.apply(state, e).state
        while state.phase in ("turn", "oasis"):
            flip = ENGINE.actions(state)[0]
            event = {
                "type": "flip",
                **flip.fixed,
                "tile": rng.choice(flip.fields[0].choices),
                "shows": rng.randint(1, 6),
            }
            state = ENGINE.apply(state, event).state
            events.append(event)
        games.append((header, events))
    return games


def timed(fn: Any, runs: int) -> float:
    samples = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser(description="Camel race engine benchmark")
    parser.add_argument("--races", type=int, default=200)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    games = random_races(args.races)
    flips = sum(len(events) - 2 for _, events in games)
    states = []
    for header, events in games:
        state = ENGINE.new_game(header)
        for e in events:
            state = ENGINE.apply(state, e).state
            states.append(state)

    def apply_all() -> None:
        for header, events in games:
            state = ENGINE.new_game(header)
            for e in events:
                state = ENGINE.apply(state, e).state

    contest = {
        "type": "contest",
        "ranking": [["Anne"], ["Bea"]],
        "margins_ns": [1_000_000],
        "tie_window_ns": 100_000,
    }
    fastest_state = FASTEST.new_game(GameHeader("fastest", "standard", ("Anne", "Bea"), {}))
    baseline_n = 20_000

    def baseline() -> None:
        for _ in range(baseline_n):
            FASTEST.apply(fastest_state, contest)

    sample = states[:: max(1, len(states) // 2000)]
    t_base = timed(baseline, args.runs) / baseline_n
    t_apply = timed(apply_all, args.runs) / sum(len(e) for _, e in games)
    t_actions = timed(lambda: [ENGINE.actions(s) for s in sample], args.runs) / len(sample)
    t_summary = timed(lambda: [ENGINE.summary(s) for s in sample], args.runs) / len(sample)
    t_svg = timed(lambda: [ENGINE.render_svg(s) for s in sample], args.runs) / len(sample)
    record = ROOT / "tests" / "records" / "camel-three-players.jsonl"
    t_replay = timed(lambda: replay_file(record), args.runs)
    svg_bytes = statistics.median(len(ENGINE.render_svg(s)) for s in sample)

    print(
        f"{args.races} random races, {flips} flips ({flips / args.races:.0f} a race); median of {args.runs} runs\n"
    )
    print("| step | time | × baseline |")
    print("|---|---|---|")
    print(f"| baseline: fastest-hand engine applies a contest | {t_base * 1e6:.1f} µs | 1.0 |")
    for name, t in (
        ("camel engine applies one event (flip, start, deal)", t_apply),
        ("actions(state): the console's form with legal tiles", t_actions),
        ("summary(state)", t_summary),
        (f"render_svg(state) (median {svg_bytes / 1024:.0f} KiB)", t_svg),
    ):
        print(f"| {name} | {t * 1e6:.1f} µs | {t / t_base:.1f} |")
    print(
        f"| replay of camel-three-players.jsonl (101 lines, 2 races) | {t_replay * 1e3:.1f} ms | {t_replay / t_base:.0f} |"
    )


if __name__ == "__main__":
    main()
