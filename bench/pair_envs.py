"""Is the board reader faster in one Python environment than in another (say, two OpenCV
releases)? The same tree, two interpreters, frames read in turns.

    python bench/pair_envs.py OTHER_PYTHON [--split tune] [--start 0] [--count 100] [--rounds 2]

`bench/pair_board.py` pairs two trees in one process; two builds of OpenCV cannot share a
process. Here each interpreter runs a worker (this tree's ``vision`` first on its path) that
waits for a frame number, reads that frame as a camera-still frame (`BoardTracker(reuse=False)`,
its homography cached by a first read) and answers with the read's wall and CPU time. One
worker reads at a time, in the order base, new, new, base (new, base, base, new on odd rounds),
so the machine's drift falls on both alike. ``OTHER_PYTHON`` is the baseline; the interpreter
running this script is the new one. Per frame each side's median over its reads; printed:
median and p95 over frames of each side, the paired difference new − base (median and mean),
the median of the frames' ratios new ÷ base, for all frames, frames with a hand and without.
Uses the renders `bench/tune_board.py` caches (rendered here if missing).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
CACHE = Path("/tmp/board_tune")

_spec = importlib.util.spec_from_file_location("bench_board", Path(__file__).with_name("bench_board.py"))
assert _spec is not None and _spec.loader is not None
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)

# The worker: one line in (split, frame), one JSON line out (wall and CPU seconds, a hand or not).
WORKER = r"""
import importlib.util, json, sys, time
sys.path.insert(0, sys.argv[1])
import cv2
from pathlib import Path
spec = importlib.util.spec_from_file_location("bench_board", Path(sys.argv[1]) / "bench" / "bench_board.py")
bench = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench)
from vision.board_reader import BoardTracker
print(json.dumps({"opencv": cv2.__version__}), flush=True)
last = None  # (split, frame), its render and a tracker whose homography it fixed
for line in sys.stdin:
    split, i = line.split()
    if last is None or last[0] != (split, i):
        shot = bench.cached_scene(Path(sys.argv[2]), split, int(i))
        tracker = BoardTracker(reuse=False)
        tracker.read(shot.image)
        last = ((split, i), shot, tracker)
    _, shot, tracker = last
    w0, c0 = time.perf_counter(), time.process_time()
    tracker.read(shot.image)
    w1, c1 = time.perf_counter(), time.process_time()
    print(json.dumps({"wall": w1 - w0, "cpu": c1 - c0, "hand": bool(shot.params.hands)}), flush=True)
"""


class Worker:
    def __init__(self, python: str) -> None:
        self.proc = subprocess.Popen(
            [python, "-c", WORKER, str(HERE), str(CACHE)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.opencv = json.loads(self._line())["opencv"]

    def _line(self) -> str:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"a worker stopped (exit status {self.proc.wait()})")
        return line

    def read(self, split: str, i: int) -> dict:
        assert self.proc.stdin is not None
        self.proc.stdin.write(f"{split} {i}\n")
        self.proc.stdin.flush()
        return json.loads(self._line())

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("other_python", help="the baseline interpreter")
    ap.add_argument("--split", default="tune")
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()

    base, new = Worker(args.other_python), Worker(sys.executable)
    times: dict[str, dict[int, list[float]]] = {"base": {}, "new": {}}
    hand: dict[int, bool] = {}
    frames = range(args.start, args.start + args.count)
    for r in range(args.rounds):
        for i in frames:
            order = ("base", "new", "new", "base") if r % 2 == 0 else ("new", "base", "base", "new")
            for side in order:
                got = (base if side == "base" else new).read(args.split, i)
                times[side].setdefault(i, []).append(got["wall"] * 1000)
                hand[i] = got["hand"]
    base.close()
    new.close()

    print(
        f"python bench/pair_envs.py {args.other_python} --split {args.split} --start {args.start} "
        f"--count {args.count} --rounds {args.rounds}: base OpenCV {base.opencv}, new OpenCV {new.opencv}"
    )
    print(
        "| frames | base median / p95 | new median / p95 | new − base, median / mean | new ÷ base, median |"
    )
    print("|---|---|---|---|---|")
    groups = {"all": list(frames), "with a hand": [i for i in frames if hand[i]]}
    groups["without a hand"] = [i for i in frames if not hand[i]]
    for name, group in groups.items():
        if not group:
            continue
        b = [statistics.median(times["base"][i]) for i in group]
        n = [statistics.median(times["new"][i]) for i in group]
        d = [y - x for x, y in zip(b, n, strict=True)]
        q = [y / x for x, y in zip(b, n, strict=True)]
        (b_med, b_p95), (n_med, n_p95) = bench._quantiles(b), bench._quantiles(n)
        print(
            f"| {name} ({len(group)}) | {b_med:.1f} / {b_p95:.1f} ms "
            f"| {n_med:.1f} / {n_p95:.1f} ms "
            f"| {statistics.median(d):+.2f} / {statistics.mean(d):+.2f} ms | × {statistics.median(q):.3f} |"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
