"""Where a camera-still board read spends its time: the reader's main steps, timed per frame,
for frames without a hand, with a hand, and the fastest and slowest of those; then what the
glare search's candidate spots become on the frames with a hand.

    python bench/board_steps.py [--split tune] [--start 0] [--count 100] [--repeats 3]
                                [--fastest 20] [--slowest 10]

Each frame is read once to fix its homography, then ``--repeats`` times as a camera-still
frame (`BoardTracker(reuse=False)`); each step's time on a frame is its median over those
reads, and a group's figure the median over its frames. The steps are timed by wrappers put
in place of the functions in every ``vision`` module that holds them, so a step's time
includes the steps it calls, and the wrappers' own cost (a few microseconds a call).
Printed beside each step: its share of the group's median read (the read as the baseline,
measured in the same run). The scenes come from `bench/tune_board.py`'s render cache
(`cached_scene`).

A glare candidate is *by a hand* when more than a tenth of its disc (one width round where
the search starts it) is foreign in the frame's own read; its sort is *peak* (the search's
highest remaining excess), *flank* (a faint bump tried at the board's edge) or *companion* (a
faint bump beside a kept spot).
"""

from __future__ import annotations

import argparse
import collections
import functools
import importlib.util
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(HERE))
CACHE = Path("/tmp/board_tune")  # bench/tune_board.py's default cache

# (module, function): the steps of a camera-still read, outermost first.
STEPS = (
    ("vision.board_surface", "analyse"),
    ("vision.board_surface", "_under_hands"),
    ("vision.board_surface", "_shadowed"),
    ("vision.board_squares", "board_light"),
    ("vision.board_glare", "fit_spots"),
    ("vision.board_detect", "detect_markers"),
    ("vision.board_rim", "board_rim"),
    ("vision.board_hand_field", "unlike_hand"),
    ("vision.board_regions", "regions_of"),
)


def _tune_board() -> Any:
    """bench/tune_board.py as a module: its `cached_scene` (renders kept in CACHE)."""
    spec = importlib.util.spec_from_file_location("tune_board", HERE / "bench" / "tune_board.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _patch(module_name: str, name: str, wrapper: Callable[[Callable[..., Any]], Callable[..., Any]]) -> None:
    """Put ``wrapper(f)`` in place of ``module.name`` wherever a ``vision`` module holds ``f``."""
    original = getattr(sys.modules[module_name], name)
    wrapped = wrapper(original)
    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("vision.") and getattr(module, name, None) is original:
            setattr(module, name, wrapped)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", default="tune", choices=["tune", "heldout"])
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--fastest", type=int, default=20, help="hand frames in the fastest group")
    parser.add_argument("--slowest", type=int, default=10, help="hand frames in the slowest group")
    args = parser.parse_args()

    import vision.board_glare as board_glare
    import vision.board_reader as board_reader

    tune_board = _tune_board()

    for module_name, _ in STEPS:
        __import__(module_name)
    spent: collections.Counter[str] = collections.Counter()

    def timed(f: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(f)
        def run(*a: Any, **k: Any) -> Any:
            t0 = time.perf_counter()
            try:
                return f(*a, **k)
            finally:
                spent[f.__name__] += time.perf_counter() - t0

        return run

    candidates: list[tuple[Any, bool, float]] = []  # (start spot, kept, least amplitude)
    surfaces: list[Any] = []

    def recording_refine(f: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(f)
        def run(
            rest: Any, m: Any, uu: Any, vv: Any, s: Any, p: float, least: float = board_glare.MIN_AMPLITUDE
        ) -> Any:
            out = f(rest, m, uu, vv, s, p, least)
            candidates.append((s, out is not None, least))
            return out

        return run

    def recording_analyse(f: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(f)
        def run(*a: Any, **k: Any) -> Any:
            out = f(*a, **k)
            surfaces.append(out)
            return out

        return run

    frames = []  # (index, image, has a hand, tracker)
    for i in range(args.start, args.start + args.count):
        shot = tune_board.cached_scene(CACHE, args.split, i)
        tracker = board_reader.BoardTracker(reuse=False)
        try:
            tracker.read(shot.image)  # the homography is found once; later reads are camera-still
        except board_reader.BoardImageError:
            continue
        frames.append((i, shot.image, any(v > 0 for v in shot.hidden.values()), tracker))

    for module_name, name in STEPS:
        _patch(module_name, name, timed)
    _patch("vision.board_glare", "_refine", recording_refine)
    _patch("vision.board_surface", "analyse", recording_analyse)

    steps = [name for _, name in STEPS]
    per_frame: dict[int, dict[str, float]] = {}
    fates: collections.Counter[tuple[str, str, bool]] = collections.Counter()
    for i, image, hand, tracker in frames:
        reads: dict[str, list[float]] = {name: [] for name in ["read", *steps]}
        for _ in range(args.repeats):
            spent.clear()
            candidates.clear()
            surfaces.clear()
            t0 = time.perf_counter()
            tracker.read(image)
            reads["read"].append((time.perf_counter() - t0) * 1e3)
            for name in steps:
                reads[name].append(spent[name] * 1e3)
        per_frame[i] = {name: statistics.median(v) for name, v in reads.items()}
        if hand and surfaces:  # the last read's candidates, against its own foreign pixels
            foreign = surfaces[-1].foreign
            n = foreign.shape[0]
            vv, uu = np.mgrid[0:n, 0:n]
            for s, kept, least in candidates:
                u, v = s.u * board_glare.SCALE, s.v * board_glare.SCALE
                radius = max(2.0, s.width * board_glare.SCALE)
                disc = (uu - u) ** 2 + (vv - v) ** 2 <= radius * radius
                by_hand = bool(disc.any() and foreign[disc].mean() > 0.1)
                if least < board_glare.MIN_AMPLITUDE:
                    sort = "companion"
                elif s.amplitude < board_glare.MIN_AMPLITUDE:
                    sort = "flank"
                else:
                    sort = "peak"
                fates["kept" if kept else "given up", sort, by_hand] += 1

    hands = sorted((per_frame[f[0]]["read"], f[0]) for f in frames if f[2])
    groups = {
        "without a hand": [f[0] for f in frames if not f[2]],
        "with a hand": [i for _, i in hands],
        f"with a hand, the fastest {args.fastest}": [i for _, i in hands[: args.fastest]],
        f"with a hand, the slowest {args.slowest}": [i for _, i in hands[-args.slowest :]]
        if args.slowest
        else [],
    }
    print(
        f"python bench/board_steps.py --split {args.split} --start {args.start} --count {args.count} "
        f"--repeats {args.repeats} --fastest {args.fastest} --slowest {args.slowest}: {len(frames)} frames"
    )
    print("median ms over the group's frames (share of the group's median read)")
    print("| frames | read | " + " | ".join(f"`{name}`" for name in steps) + " |")
    print("|---|---|" + "---|" * len(steps))
    for label, ids in groups.items():
        if not ids:
            continue
        read = statistics.median(per_frame[i]["read"] for i in ids)
        cells = []
        for name in steps:
            ms = statistics.median(per_frame[i][name] for i in ids)
            cells.append(f"{ms:.1f} ({ms / read:.0%})")
        print(f"| {label} ({len(ids)}) | {read:.1f} | " + " | ".join(cells) + " |")

    print()
    print("the glare search's candidate spots on the frames with a hand (`_refine` calls, the last read)")
    print("| sort | given up | of which by a hand | kept | of which by a hand |")
    print("|---|---|---|---|---|")
    for sort in ("peak", "flank", "companion", "all"):
        sorts = ("peak", "flank", "companion") if sort == "all" else (sort,)

        def count(fate: str, by_hand: bool | None, sorts: tuple[str, ...] = sorts) -> int:
            return sum(
                c for (f, s, h), c in fates.items() if f == fate and s in sorts and by_hand in (None, h)
            )

        print(
            f"| {sort} | {count('given up', None)} | {count('given up', True)} "
            f"| {count('kept', None)} | {count('kept', True)} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
