"""Which factor of the empty-square measurement turns a decidable square into a flag?

    python bench/study_free.py collect --start 0 --count 400 --out /tmp/b12p/free.pkl
    python bench/study_free.py table --data /tmp/b12p/free.pkl

A square without a marker is empty when the minimum, over the centre box, of
``free_fraction(good | rim, radius)`` reaches FREE_ENOUGH (`vision.board_squares`). The truth
(`Shot.hide`, `vision.board_synth._hiding`) uses the exact hand mask, the true piece radius and
the true ``max_offset``. ``collect`` reads the tune scenes once, keeping per scene the reader's
pixel mask, its piece reach and the true hand mask drawn into the same top view; ``table``
recomputes every judged square's worst free share with one factor at a time swapped for the
truth, and counts the flags each swap clears and the guesses and silent errors it creates.
Study only: uses the truth, never part of the reader.
"""

from __future__ import annotations

import argparse
import pickle
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cv2
import numpy as np

from bench.tune_board import bench, cached_scene
from vision import board_reader as br
from vision import board_squares as bs
from vision.board_geometry import ALL_SQUARES, DEFAULT_GEOMETRY, SIZE, square_index
from vision.board_synth import _hand_mask

PPU = bs.PPU


def _true_hand_top(shot, ppu: int) -> np.ndarray:
    """The exact hand mask (the truth's, > 0.5) in a top view of ``ppu`` pixels per square."""
    p = shot.params
    w, h = p.image_size
    H = p.homography()
    hand = np.zeros((h, w), np.float32)
    for hd in p.hands:
        hand = np.maximum(hand, _hand_mask(p, hd, H).astype(np.float32) / 255)
    T = np.array([[1 / ppu, 0, 0], [0, -1 / ppu, SIZE], [0, 0, 1]])
    top = cv2.warpPerspective(hand, np.linalg.inv(H @ T), (SIZE * ppu, SIZE * ppu))
    return top > 0.5


def collect(start: int, count: int, out: Path, cache: Path, hands_only: bool) -> None:
    """Read the scenes with spies on the reader, keep what ``table`` needs."""
    rows = []
    cap: dict = {}
    real_ff, real_judge, real_top = bs.free_fraction, br.judge_squares, br.top_view
    real_analyse = bs.analyse

    def analyse(*a, **k):
        s = real_analyse(*a, **k)
        cap["surface"] = s
        return s

    def ff(mask, radius_px):
        cap["mask"] = mask.copy()
        return real_ff(mask, radius_px)

    def judge(top, candidates, discs, geometry, reach, look=None):
        cap["reach"], cap["cands"], cap["discs"] = reach, list(candidates), list(discs)
        v = real_judge(top, candidates, discs, geometry, reach, look)
        cap["verdicts"] = v
        return v

    def topv(image, H):
        cap["H"] = H.copy()
        return real_top(image, H)

    bs.free_fraction, br.judge_squares, br.top_view = ff, judge, topv
    bs.analyse = analyse
    try:
        for i in range(start, start + count):
            shot = cached_scene(cache, "tune", i)
            if hands_only and not shot.params.hands:
                continue
            cap.clear()
            try:
                read = br.read_board(shot.image)
            except br.BoardImageError:
                continue
            if "mask" not in cap:
                continue
            rows.append(
                dict(
                    i=i,
                    mask=np.packbits(cap["mask"]),
                    foreign=np.packbits(cap["surface"].foreign),
                    hidden_px=np.packbits(cap["surface"].hidden),
                    hand=np.packbits(_true_hand_top(shot, PPU)),
                    reach=cap["reach"],
                    cands=cap["cands"],
                    discs=cap["discs"],
                    seen={k: v.seen for k, v in cap["verdicts"].items()},
                    empty={k: v.empty for k, v in cap["verdicts"].items()},
                    final={sq: (read.square(sq).state, read.square(sq).note) for sq in ALL_SQUARES},
                    truth=dict(shot.truth),
                    hide=dict(shot.hide),
                    hidden={sq: bench.is_hidden(shot, sq) for sq in ALL_SQUARES},
                    radius=shot.params.piece_diameter / 2,
                    offset=shot.params.max_offset,
                    H=cap["H"],
                    Htrue=shot.params.homography(),
                )
            )
    finally:
        bs.free_fraction, br.judge_squares, br.top_view = real_ff, real_judge, real_top
        bs.analyse = real_analyse
    out.write_bytes(pickle.dumps(rows))
    print(f"{len(rows)} scenes kept in {out}")


def _unpack(a: np.ndarray) -> np.ndarray:
    n = SIZE * PPU
    return np.unpackbits(a)[: n * n].reshape(n, n).astype(bool)


def _disc_free(mask: np.ndarray, radius_px: float, border: int = cv2.BORDER_CONSTANT) -> np.ndarray:
    if border == cv2.BORDER_CONSTANT:
        return bs.free_fraction(mask, radius_px)
    r = max(1, round(radius_px))
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1,) * 2).astype(np.float32)
    return cv2.filter2D(mask.astype(np.float32), -1, disc / disc.sum(), borderType=border)


def _exact_free(mask: np.ndarray, radius_px: float, border: int = cv2.BORDER_CONSTANT) -> np.ndarray:
    """The free share with an anti-aliased disc of the exact radius (pixel-area weights)."""
    k = 8
    r = int(np.ceil(radius_px)) + 1
    n = (2 * r + 1) * k
    c = (np.arange(n) + 0.5) / k - (r + 0.5)
    inside = (c[None, :] ** 2 + c[:, None] ** 2 <= radius_px**2).astype(np.float32)
    disc = inside.reshape(2 * r + 1, k, 2 * r + 1, k).mean(axis=(1, 3))
    return cv2.filter2D(mask.astype(np.float32), -1, disc / disc.sum(), borderType=border)


def _worst(free: np.ndarray, i: int, box_px: float, centre: str = "pixel") -> float:
    """The minimum of ``free`` over the centre box of square ``i`` (as judge_squares does,
    or with the box centred exactly on the square's centre)."""
    f, r = square_index(ALL_SQUARES[i])
    if centre == "pixel":
        b = round(box_px)
        cu, cv = f * PPU + PPU // 2, (SIZE - 1 - r) * PPU + PPU // 2
        return float(free[cv - b : cv + b + 1, cu - b : cu + b + 1].min())
    # top_view samples board x = u / PPU at pixel u: the square's centre is pixel (f + ½)·PPU
    c0u, c0v = (f + 0.5) * PPU, (SIZE - 1 - r + 0.5) * PPU
    us = np.arange(int(np.floor(c0u - box_px)), int(np.ceil(c0u + box_px)) + 1)
    vs = np.arange(int(np.floor(c0v - box_px)), int(np.ceil(c0v + box_px)) + 1)
    us = us[np.abs(us - c0u) <= box_px + 1e-9]
    vs = vs[np.abs(vs - c0v) <= box_px + 1e-9]
    return float(free[np.ix_(vs, us)].min())


def _axis(c0: float, box_px: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Sample points of one axis for the exact minimum of a bilinear field over
    [c0 - box, c0 + box]: both ends and every pixel centre between; as (k, k + 1, t)."""
    lo, hi = c0 - box_px, c0 + box_px
    nodes = np.arange(np.ceil(lo - 0.5), np.floor(hi - 0.5) + 1) + 0.5
    xs = np.concatenate([[lo], nodes, [hi]])
    k = np.floor(xs - 0.5).astype(int)
    return k, k + 1, (xs - 0.5 - k).astype(np.float32)


def worst_bilinear(free: np.ndarray, i: int, box_px: float) -> float:
    """The minimum over the square's centre box (exactly centred, sub-pixel ends) of the
    free map interpolated bilinearly between pixel centres."""
    f, r = square_index(ALL_SQUARES[i])
    # _axis puts pixel k's centre at k + ½; top_view's pixel k samples board x = k / PPU
    ku0, ku1, tu = _axis((f + 0.5) * PPU + 0.5, box_px)
    kv0, kv1, tv = _axis((SIZE - 1 - r + 0.5) * PPU + 0.5, box_px)
    rows = free[kv0] * (1 - tv)[:, None] + free[kv1] * tv[:, None]
    vals = rows[:, ku0] * (1 - tu) + rows[:, ku1] * tu
    return float(vals.min())


def _box_from(discs: list, slack: float) -> float:
    """`piece_reach`'s box recomputed from the pieces seen with another measurement slack."""
    off = [abs(v - np.floor(v) - 0.5) for d in discs for v in d[:2]]
    largest = max(off)
    bound = largest / br.OFFSET_CONFIDENCE ** (1 / len(off)) + slack
    return min(bound, max(bs.CENTRE_BOX, largest + slack))


# Each variant: (name, what is swapped). Masks: "m" the reader's good | rim, "t" the true
# not-hand mask, others the reader's with one kind of its not-good pixels beyond the true
# hand counted good. Box: "r" the reader's, "t" the true max_offset, a number: the slack.
VARIANTS = (
    ("reader", "m", "r", "r", "round"),
    ("box = true max_offset", "m", "r", "t", "round"),
    ("radius = true", "m", "t", "r", "round"),
    ("box slack 0.010 (was 0.015)", "m", "r", 0.01, "round"),
    ("box slack 0.005", "m", "r", 0.005, "round"),
    ("box slack 0", "m", "r", 0.0, "round"),
    ("box exact (sub-pixel ends)", "m", "r", "r", "bilinear"),
    ("disc anti-aliased, exact radius", "exact", "r", "r", "round"),
    ("border replicate", "rep", "r", "r", "round"),
    ("mask = true (not hand)", "t", "r", "r", "round"),
    ("  reader-hidden px beyond hand good", "hd", "r", "r", "round"),
    ("  reader-foreign px beyond hand good", "fg", "r", "r", "round"),
    ("  grid-line px beyond hand good", "line", "r", "r", "round"),
    ("  other px beyond hand good", "oth", "r", "r", "round"),
    ("mask, box, radius = true", "t", "t", "t", "round"),
)


def _frees(row: dict) -> dict:
    """The free maps of every mask variant at the reader's and the true radius."""
    mask, hand = _unpack(row["mask"]), _unpack(row["hand"])
    fg, hd = _unpack(row["foreign"]), _unpack(row["hidden_px"])
    grid = bs.View.of(DEFAULT_GEOMETRY, PPU).line
    out_bad = ~mask & ~hand  # not seen by the reader, and not under the hand
    masks = {
        "m": mask,
        "t": ~hand,
        "hd": mask | (out_bad & hd & ~fg & ~grid),
        "fg": mask | (out_bad & fg & ~grid),
        "line": mask | (out_bad & grid),
        "oth": mask | (out_bad & ~hd & ~fg & ~grid),
    }
    frees = {}
    for rk, rad in (("r", row["reach"].radius * PPU), ("t", row["radius"] * PPU)):
        for k, m in masks.items():
            frees[k, rk] = _disc_free(m, rad)
    rr = row["reach"].radius * PPU
    frees["rep", "r"] = _disc_free(mask, rr, cv2.BORDER_REPLICATE)
    frees["exact", "r"] = _exact_free(mask, rr)
    return frees


def table(data: list[Path], line: float) -> None:
    """Flags left, flags cleared, guesses and pieces read empty for every variant."""
    counts = {v[0]: [0, 0, 0] for v in VARIANTS}  # flags, guesses, pieces read empty
    seen_flag: list[float] = []
    seen_hidden: list[float] = []
    scenes = 0
    for path in data:
        for row in pickle.loads(path.read_bytes()):
            scenes += 1
            frees = _frees(row)
            for i in row["cands"]:
                sq = ALL_SQUARES[i]
                _, note = row["final"][sq]
                if note in (br.UNREAD_PIECE, br.UNREAD_MARKER):
                    continue  # unknown whatever the free share: a piece's evidence
                truth, hidden = row["truth"][sq], row["hidden"][sq]
                for name, mk, rk, bk, how in VARIANTS:
                    if bk == "r":
                        box = row["reach"].box
                    elif bk == "t":
                        box = row["offset"]
                    elif len(row["discs"]) >= br.MIN_PIECES_MEASURED:
                        box = _box_from(row["discs"], bk)
                    else:
                        box = row["reach"].box
                    free = frees[mk, rk]
                    w = (
                        worst_bilinear(free, i, box * PPU)
                        if how == "bilinear"
                        else _worst(free, i, box * PPU)
                    )
                    c = counts[name]
                    if w < line:
                        c[0] += not hidden and not truth
                    elif truth:
                        c[2] += 1
                    elif hidden:
                        c[1] += 1
                if not truth:
                    (seen_hidden if hidden else seen_flag).append(row["seen"][i])
    ref = counts["reader"]
    print(f"{scenes} scenes with hands; judged empty squares, FREE_ENOUGH {line}")
    print(f"{'variant':40s} {'flags':>6s} {'cleared':>8s} {'guesses':>8s} {'+':>4s} {'pieces':>7s}")
    for name, *_ in VARIANTS:
        f, g, p = counts[name]
        print(f"{name:40s} {f:6d} {ref[0] - f:8d} {g:8d} {g - ref[1]:+4d} {p:7d}")
    print("(pieces read empty are not counted where the mask is the truth's: it has no pieces)")
    print("\nthe reader's worst free share: flagged (decidable) / hidden empty squares")
    edges = [0, 0.1, 0.2, 0.3, 0.4, 0.45, 0.48, 0.5]
    hf = np.histogram([v for v in seen_flag if v < line], edges)[0]
    hg = np.histogram([v for v in seen_hidden if v < line], edges)[0]
    for a, b, x, y in zip(edges[:-1], edges[1:], hf, hg, strict=True):
        print(f"  {a:.2f}–{b:.2f}: flags {x:4d}  hidden {y:4d}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--start", type=int, default=0)
    c.add_argument("--count", type=int, default=400)
    c.add_argument("--out", type=Path, default=Path("/tmp/b12p/free.pkl"))
    c.add_argument("--cache", type=Path, default=Path("/tmp/board_tune"))
    c.add_argument("--all", action="store_true", help="also scenes without hands")
    t = sub.add_parser("table")
    t.add_argument("--data", type=Path, nargs="+", default=[Path("/tmp/b12p/free.pkl")])
    t.add_argument("--line", type=float, default=bs.FREE_ENOUGH)
    a = ap.parse_args()
    if a.cmd == "collect":
        collect(a.start, a.count, a.out, a.cache, not a.all)
    else:
        table(a.data, a.line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
