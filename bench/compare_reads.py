"""Do two versions of the board reader read the tune scenes the same?

    python bench/compare_reads.py OTHER_TREE [--start 0] [--count 200] [--what squares|regions|both] [--still]

For a speed-up that must not change a read, or a change meant to touch only part of it.
OTHER_TREE is another checkout of the project (e.g. ``git archive REV | tar -x -C /tmp/base``).
Each tree reads the tune scenes ``start … start+count−1`` in its own process (its own
``vision`` first on the path; the renders `bench/tune_board.py` cached are used when there),
and the reads are compared square by square: state, token, confidence (to 6
places), note, and the frame's notes (``squares``, the default), the foreign regions
(``regions``), or both. With ``--still`` each scene is also read a second time as a
camera-still frame (a `BoardTracker` without reuse, its homography from the first read, as
`bench/pair_board.py` times it), and that read is compared too. Prints the
scenes that differ and a summary line; exit status 1 if any differ.
"""

from __future__ import annotations

import argparse
import os
import pickle
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
CACHE = Path("/tmp/board_tune")  # bench/tune_board.py's default cache


def dump(start: int, count: int, what: str, out: Path, still: bool = False) -> None:
    """Read the scenes with the ``vision`` on ``sys.path`` and pickle what is compared."""
    from vision.board_geometry import ALL_SQUARES
    from vision.board_reader import BoardImageError, BoardTracker, read_board
    from vision.board_synth import scene

    def compared(r: object) -> tuple[object, ...]:
        squares = [
            (sq, s.state, s.token, round(s.confidence, 6), s.note)
            for sq in ALL_SQUARES
            for s in [r.square(sq)]  # type: ignore[attr-defined]
        ]
        regions = [repr(g) for g in r.regions]  # type: ignore[attr-defined]
        if what == "squares":
            return (squares, r.notes)  # type: ignore[attr-defined]
        if what == "regions":
            return (regions,)
        return (squares, r.notes, regions)  # type: ignore[attr-defined]

    reads: list[object] = []
    for i in range(start, start + count):
        # The renders `bench/tune_board.py` caches, if there (the same scenes, faster).
        cached = CACHE / f"tune-{i:05d}.pkl"
        shot = pickle.loads(cached.read_bytes()) if cached.exists() else scene("tune", i)
        try:
            r = read_board(shot.image)
        except BoardImageError as e:
            reads.append((i, str(e)))
            continue
        if not still:
            reads.append((i, *compared(r)))
            continue
        tracker = BoardTracker(reuse=False)
        try:
            tracker.read(shot.image)  # the same work as read_board: the homography for the next
            again = compared(tracker.read(shot.image))
        except BoardImageError as e:
            again = (str(e),)
        reads.append((i, *compared(r), "still", *again))
    out.write_bytes(pickle.dumps(reads))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("other", type=Path, nargs="?", help="the other tree")
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--what", choices=["squares", "regions", "both"], default="squares")
    ap.add_argument("--still", action="store_true", help="compare the camera-still reads too")
    ap.add_argument("--dump", type=Path, help=argparse.SUPPRESS)  # the child's own mode
    args = ap.parse_args()
    if args.dump:
        dump(args.start, args.count, args.what, args.dump, args.still)
        return 0
    if args.other is None:
        ap.error("the other tree is needed")
    with tempfile.TemporaryDirectory() as tmp:
        outs = []
        procs = []
        for k, root in enumerate((HERE, args.other.resolve())):
            out = Path(tmp) / f"{k}.pkl"
            cmd = [sys.executable, str(Path(__file__).resolve()), "--dump", str(out)]
            cmd += ["--start", str(args.start), "--count", str(args.count)]
            cmd += ["--what", args.what] + (["--still"] if args.still else [])
            procs.append(subprocess.Popen(cmd, cwd=root, env={**os.environ, "PYTHONPATH": str(root)}))
            outs.append(out)
        if any(p.wait() for p in procs):
            print("a reader failed", file=sys.stderr)
            return 2
        here, there = (pickle.loads(o.read_bytes()) for o in outs)
    differ = [a[0] for a, b in zip(here, there, strict=True) if a != b]
    for i in differ:
        print(f"tune {i}: reads differ")
    print(
        f"{len(here) - len(differ)} of {len(here)} tune scenes from {args.start} read the same "
        f"({args.what}{', stateless and camera still' if args.still else ''})"
    )
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
