"""Is this tree's board reader faster than another's? Both read each frame in one process, paired.

    python bench/pair_board.py OTHER_TREE [--split tune] [--start 0] [--count 100] [--rounds 2]

Whole `bench_board.py` runs cannot resolve a millisecond on a shared machine: the same
reader's median moves by 5–9 ms from one run to the next. Here both readers are loaded in
one process (OTHER_TREE's ``vision`` as the baseline, this tree's as the new one) and each
frame is read as a camera-still frame (`BoardTracker(reuse=False)`, its homography cached by a
first read) in the order base, new, new, base (new, base, base, new on odd rounds), so the
machine's drift falls on both alike. Per frame each reader's median over its reads; printed:
median and p95 over frames of each, the paired difference new − base (median and mean) and
the median of the frames' ratios new ÷ base,
wall and process CPU time, for all frames, frames with a hand and without. Uses the renders
`bench/tune_board.py` caches when there.
"""

from __future__ import annotations

import argparse
import importlib
import pickle
import statistics
import sys
import time
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parents[1]
CACHE = Path("/tmp/board_tune")  # bench/tune_board.py's default cache


def load_reader(tree: Path) -> ModuleType:
    """`vision.board_reader` of ``tree``, imported afresh (its own ``vision`` package)."""
    for name in [n for n in sys.modules if n == "vision" or n.startswith("vision.")]:
        del sys.modules[name]
    sys.path.insert(0, str(tree))
    try:
        return importlib.import_module("vision.board_reader")
    finally:
        sys.path.remove(str(tree))


def _q(values: list[float]) -> tuple[float, float]:
    v = sorted(values)
    return statistics.median(v), v[min(len(v) - 1, round(0.95 * (len(v) - 1)))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("other", type=Path, help="the baseline tree (another checkout)")
    parser.add_argument("--split", default="tune", choices=["tune", "heldout"])
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    if not (args.other / "vision" / "board_reader.py").exists():
        parser.error(f"{args.other} holds no vision/board_reader.py")

    sys.path.insert(0, str(HERE))
    from vision.board_synth import scene  # the scenes are this tree's

    base, new = load_reader(args.other.resolve()), load_reader(HERE)
    frames = []  # (index, image, has a hand, base tracker, new tracker)
    for i in range(args.start, args.start + args.count):
        cached = CACHE / f"{args.split}-{i:05d}.pkl"
        shot = pickle.loads(cached.read_bytes()) if cached.exists() else scene(args.split, i)
        tb, tn = base.BoardTracker(reuse=False), new.BoardTracker(reuse=False)
        try:
            tb.read(shot.image)  # the homography is found once; later reads are camera-still
            tn.read(shot.image)
        except base.BoardImageError:
            continue
        frames.append((i, shot.image, any(v > 0 for v in shot.hidden.values()), tb, tn))

    wall: dict[str, dict[int, list[float]]] = {k: {f[0]: [] for f in frames} for k in "bn"}
    cpu: dict[str, dict[int, list[float]]] = {k: {f[0]: [] for f in frames} for k in "bn"}
    for r in range(args.rounds):
        for i, image, _, tb, tn in frames:
            order = "bnnb" if r % 2 == 0 else "nbbn"
            for key in order:
                tracker = tb if key == "b" else tn
                c0, t0 = time.process_time(), time.perf_counter()
                tracker.read(image)
                wall[key][i].append((time.perf_counter() - t0) * 1e3)
                cpu[key][i].append((time.process_time() - c0) * 1e3)

    hands = {f[0] for f in frames if f[2]}
    print(f"python bench/pair_board.py {args.other} --split {args.split} --start {args.start} "
          f"--count {args.count} --rounds {args.rounds}: {len(frames)} frames read")  # fmt: skip
    print(
        "| time | frames | base median / p95 | new median / p95 | new − base, median / mean | new ÷ base, median of the frames' |"
    )
    print("|---|---|---|---|---|---|")
    for name, table in (("wall", wall), ("CPU", cpu)):
        for label, keep in (("all", lambda i: True), ("with a hand", hands.__contains__),
                            ("without", lambda i: i not in hands)):  # fmt: skip
            ids = [i for i in table["b"] if keep(i)]
            if not ids:
                continue
            b = [statistics.median(table["b"][i]) for i in ids]
            n = [statistics.median(table["n"][i]) for i in ids]
            d = [y - x for x, y in zip(b, n, strict=True)]
            print(f"| {name} | {label} ({len(ids)}) | {_q(b)[0]:.1f} / {_q(b)[1]:.1f} ms | "
                  f"{_q(n)[0]:.1f} / {_q(n)[1]:.1f} ms | {statistics.median(d):+.2f} / "
                  f"{statistics.mean(d):+.2f} ms | × {statistics.median(y / x for x, y in zip(b, n, strict=True)):.3f} |")  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
