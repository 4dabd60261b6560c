"""Study the board reader's failures on the ``tune`` split (never on ``heldout``).

    python bench/tune_board.py [--start 0] [--count 200] [--cache /tmp/board_tune] [--show 40]
                               [--debug DIR]

Renders (once, cached as pickles in ``--cache``) the tune scenes ``start … start+count-1``,
reads each one, scores every square as `bench/bench_board.py` does, and lists what is not
correct: flagged decidable squares (``??`` where a person could tell), guesses and silent
errors, each with its context (the reader's note, how much of the square a hand covers, the
hand's hiding share ``hide``, glare, whether a hand is near). ``--debug DIR`` writes, for every
scene with a failure, the top view with the reader's pixel verdicts drawn on it.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cv2
import numpy as np

from vision.board_geometry import ALL_SQUARES, SIZE, square_index
from vision.board_reader import BoardImageError, read_board
from vision.board_synth import Shot

_spec = importlib.util.spec_from_file_location("bench_board", Path(__file__).with_name("bench_board.py"))
assert _spec is not None and _spec.loader is not None
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)
cached_scene = bench.cached_scene  # scenes rendered once, kept in --cache


def _near_hand(shot: Shot, sq: str) -> bool:
    """A hand covers some of this square or of one of its eight neighbours."""
    f, r = square_index(sq)
    for df in (-1, 0, 1):
        for dr in (-1, 0, 1):
            ff, rr = f + df, r + dr
            if 0 <= ff < SIZE and 0 <= rr < SIZE and shot.hidden[ALL_SQUARES[rr * SIZE + ff]] > 0:
                return True
    return False


def debug_picture(shot: Shot, out: Path, marks: list[str]) -> None:
    """The reader's top view with its pixel verdicts: foreign red, hidden blue, not good yellow."""
    from vision import board_squares as bs
    from vision.board_detect import detect_markers
    from vision.board_geometry import DEFAULT_GEOMETRY
    from vision.board_reader import _footprints, _place_pieces, locate, piece_reach
    from vision.markers import CORNER_BASE

    gray = cv2.cvtColor(shot.image, cv2.COLOR_BGR2GRAY)
    markers = detect_markers(gray)
    corners = [m for m in markers if m.id >= CORNER_BASE]
    pieces = [m for m in markers if m.id < CORNER_BASE]
    fit, _ = locate(gray, corners, pieces, DEFAULT_GEOMETRY)
    placed, _ = _place_pieces(pieces, fit)
    discs = _footprints(placed, DEFAULT_GEOMETRY)
    top = bs.top_view(shot.image, fit.H)
    taken = {p.square for p in placed}
    cands = [i for i, sq in enumerate(ALL_SQUARES) if sq not in taken]
    captured: dict[str, object] = {}
    real = bs.analyse

    def spy(*a, **k):  # keep the Surface the reader computes
        s = real(*a, **k)
        captured["s"] = s
        return s

    bs.analyse = spy
    try:
        bs.judge_squares(
            top, cands, discs, DEFAULT_GEOMETRY, piece_reach(placed, DEFAULT_GEOMETRY, fit.from_pieces)
        )
    finally:
        bs.analyse = real
    s = captured.get("s")
    big = cv2.resize(top, None, fx=4, fy=4, interpolation=cv2.INTER_NEAREST)
    over = big.copy()
    if s is not None:
        for mask, colour in ((~s.good, (0, 255, 255)), (s.hidden, (255, 0, 0)), (s.foreign, (0, 0, 255))):
            m = cv2.resize(mask.astype(np.uint8), None, fx=4, fy=4, interpolation=cv2.INTER_NEAREST) > 0
            over[m] = colour
    pic = cv2.addWeighted(big, 0.55, over, 0.45, 0)
    p = 4 * bs.PPU
    for sq in marks:
        f, r = square_index(sq)
        cv2.rectangle(
            pic, (f * p, (SIZE - 1 - r) * p), ((f + 1) * p - 1, (SIZE - r) * p - 1), (255, 0, 255), 2
        )
    out.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(out), np.concatenate([big, pic], axis=1))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--count", type=int, default=200)
    ap.add_argument("--split", default="tune", choices=["tune", "test"])
    ap.add_argument("--cache", type=Path, default=Path("/tmp/board_tune"))
    ap.add_argument("--show", type=int, default=40, help="failures listed")
    ap.add_argument("--debug", type=Path, help="write debug pictures of scenes with failures here")
    args = ap.parse_args()

    c: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    failures: list[str] = []
    kinds: Counter[str] = Counter()
    for i in range(args.start, args.start + args.count):
        shot = cached_scene(args.cache, args.split, i)
        try:
            read = read_board(shot.image)
        except BoardImageError:
            read = None
            c["no_board"] += 1
        wrong: list[str] = []
        bench.score(shot, read, c, reasons, wrong, i)
        marks = []
        for sq in ALL_SQUARES:
            truth = shot.truth[sq] or None
            s = read.square(sq) if read is not None else None
            unknown = s is None or s.state == "unknown"
            hidden = bench.is_hidden(shot, sq)
            res = bench.outcome(None if s is None else s.token, unknown, truth, hidden)
            if res == "correct":
                continue
            near = _near_hand(shot, sq)
            where = "on-hand" if shot.hidden[sq] > 0 else "near-hand" if near else "no-hand"
            note = "" if s is None else s.note
            kinds[f"{res} {'piece' if truth else 'empty'} {where}: {note.split(':')[0][:40]}"] += 1
            marks.append(sq)
            failures.append(
                f"scene {i:4d} {sq} {res:7s} truth {truth or '.':3s} read {(s.token if s else None) or '.':3s} "
                f"{where:9s} cover {shot.hidden[sq]:.2f} hide {shot.hide[sq]:.2f} "
                f"glare {len(shot.params.glare)} hands {len(shot.params.hands)} scheme {shot.params.scheme} "
                f"| {note}"
            )
        if marks and args.debug and read is not None:
            debug_picture(shot, args.debug / f"{args.split}-{i:05d}.png", marks)
    print(
        f"{args.count} {args.split} scenes from {args.start}: all {100 * c['correct'] / c['squares']:.2f} %, "
        f"decidable {100 * c['decidable_correct'] / max(1, c['decidable']):.2f} %, "
        f"clear {100 * c['clear_correct'] / max(1, c['clear']):.2f} %, "
        f"no hands {100 * c['nohand_correct'] / max(1, c['nohand_squares']):.2f} %, "
        f"wrong {c['wrong']}, guessed {c['guessed']}, flagged {c['decidable_flagged']}, no board {c['no_board']}"
    )
    print("\nby kind:")
    for k, n in kinds.most_common():
        print(f"  {n:5d}  {k}")
    print(f"\nfailures (first {args.show}):")
    for f in failures[: args.show]:
        print("  " + f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
