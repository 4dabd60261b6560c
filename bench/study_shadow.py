"""Does the predicted shadow of a hand free flagged squares? (board13s: measured, not kept)

    python bench/study_shadow.py collect --start 0 --count 300 --out /tmp/b13s/shadow.pkl
    python bench/study_shadow.py table --data /tmp/b13s/shadow.pkl

``collect`` reads the tune scenes with hands, keeping per scene what the reader's
`vision.board_shadow_model.shadow_seen` is given (its hook in `vision.board_surface.analyse`
replaced by a spy that frees nothing), the reader's free-share mask and study_free's row, and
the truth drawn into the same top view: the hand mask and the generator's shadow factor.
``table`` recomputes every judged empty square's worst free share with the pixels a rule
frees counted seen, and prints the flags cleared, the squares guessed, the pieces read empty
and how many freed pixels lie under the true hand, for: the true shadow (ceilings), the rules
with the true offset, and the rules as the reader would run them (offset fitted on the frame),
with the fitted offset's error. Study only: uses the truth, never part of the reader.
"""

from __future__ import annotations

import argparse
import math
import pickle
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import cv2
import numpy as np

from bench import study_free as sf
from bench.tune_board import bench, cached_scene
from vision import board_reader as br
from vision import board_shadow_model as sm
from vision import board_squares as bs
from vision import board_surface as bsu
from vision.board_geometry import ALL_SQUARES, SIZE
from vision.board_surface import cmax, to_levels
from vision.board_synth import _hand_mask

PPU = bs.PPU
N = SIZE * PPU


def _true_shadow(shot) -> np.ndarray:
    """The generator's shadow factor (0–255 levels scale) in the top view."""
    p = shot.params
    w, h = p.image_size
    H = p.homography()
    f = np.ones((h, w), np.float32)
    for hd in p.hands:
        m = _hand_mask(p, hd, H).astype(np.float32) / 255
        f *= 1 - 0.45 * cv2.GaussianBlur(np.roll(m, (25, 18), axis=(0, 1)), (0, 0), 12)
    T = np.array([[1 / PPU, 0, 0], [0, -1 / PPU, SIZE], [0, 0, 1]])
    return cv2.warpPerspective(f, np.linalg.inv(H @ T), (N, N), borderValue=1.0)


def _true_offset(H: np.ndarray) -> np.ndarray:
    """The generator's shadow offset seen in the top view, at the board's centre."""
    T = np.array([[1 / PPU, 0, 0], [0, -1 / PPU, SIZE], [0, 0, 1]])
    M = np.linalg.inv(H @ T)
    c = H @ T @ np.array([N / 2, N / 2, 1.0])
    c = c[:2] / c[2]
    a, b = M @ np.array([*c, 1.0]), M @ np.array([c[0] + 18, c[1] + 25, 1.0])
    return b[:2] / b[2] - a[:2] / a[2]


def collect(start: int, count: int, out: Path, cache: Path) -> None:
    rows, cap = [], {}
    real_ff, real_judge, real_seen = bs.free_fraction, br.judge_squares, bsu.shadow_seen

    def ff(mask, radius_px):
        cap["mask"] = mask.copy()
        return real_ff(mask, radius_px)

    def judge(top, candidates, discs, geometry, reach, look=None):
        cap["reach"], cap["cands"] = reach, list(candidates)
        return real_judge(top, candidates, discs, geometry, reach, look)

    def seen(**kw):
        cap["kw"] = {k: v.astype(np.float16) if v.dtype.kind == "f" else v.copy() for k, v in kw.items()}
        return np.zeros(kw["judged"].shape, bool)

    bs.free_fraction, br.judge_squares, bsu.shadow_seen = ff, judge, seen
    try:
        for i in range(start, start + count):
            shot = cached_scene(cache, "tune", i)
            if not shot.params.hands:
                continue
            cap.clear()
            try:
                read = br.read_board(shot.image)
            except br.BoardImageError:
                continue
            if "mask" not in cap or "kw" not in cap:
                continue
            rows.append(
                dict(
                    i=i,
                    mask=np.packbits(cap["mask"]),
                    hand=np.packbits(sf._true_hand_top(shot, PPU)),
                    shadow=_true_shadow(shot).astype(np.float16),
                    offset=_true_offset(shot.params.homography()),
                    reach=cap["reach"],
                    cands=cap["cands"],
                    notes={sq: read.square(sq).note for sq in ALL_SQUARES},
                    truth=dict(shot.truth),
                    hidden={sq: bench.is_hidden(shot, sq) for sq in ALL_SQUARES},
                    kw=cap["kw"],
                )
            )
    finally:
        bs.free_fraction, br.judge_squares, bsu.shadow_seen = real_ff, real_judge, real_seen
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_bytes(pickle.dumps(rows))
    print(f"{len(rows)} scenes with hands kept in {out}")


def _kw(row: dict) -> dict:
    return {k: v.astype(np.float32) if v.dtype == np.float16 else v for k, v in row["kw"].items()}


def _dim(kw: dict) -> np.ndarray:
    return (kw["rest"] * kw["pred"]).sum(-1) / np.maximum((kw["pred"] * kw["pred"]).sum(-1), 1e-9)


def _candidates(kw: dict) -> np.ndarray:
    return kw["judged"] & ~kw["good"] & ~kw["foreign"]


def matches(kw: dict, att: np.ndarray, tau: float = 2.0) -> np.ndarray:
    """Pixels showing the board dimmed by the linear factor ``att`` (within ``tau`` sigmas),
    with their 3 × 3 neighbourhood."""
    model = to_levels(att[..., None] * kw["pred"] + kw["lamp"][..., None])
    ok = (cmax(np.abs(kw["levels"] - model) / kw["sigma"]) < tau) & _candidates(kw)
    rough = cv2.filter2D((~ok & _candidates(kw)).astype(np.float32), -1, np.ones((3, 3), np.float32))
    return ok & (rough < 0.5)


def probes(kw: dict, d: tuple[float, float], spread=(1.0,), turns=(0.0,)) -> np.ndarray:
    """Candidates whose shadow's place (the probes around offset ``d``) is seen, unshadowed."""
    clear = kw["good"] & (_dim(kw) > sm.LIT) & ~kw["foreign"]
    length, base = math.hypot(*d), math.atan2(d[1], d[0])
    blocked = np.zeros(clear.shape, bool)
    seen = np.zeros(clear.shape, np.int32)
    n = 0
    for t in turns:
        for f in spread:
            sx, sy = round(f * length * math.cos(base + t)), round(f * length * math.sin(base + t))
            c = sm._shifted(clear, -sx, -sy)
            blocked |= ~c & ~sm._shifted(kw["line"], -sx, -sy)
            seen += c
            n += 1
    return ~blocked & (seen * 2 >= n) & _candidates(kw)


def _fitted(kw: dict):
    unseen = kw["judged"] & ~kw["good"] | kw["foreign"]
    return sm.fit_shadow(_dim(kw), kw["good"], unseen, kw["foreign"])


RULES: dict[str, Callable[[dict, dict], np.ndarray]] = {
    "ceiling: every unseen px in the true shadow (< 0.9) beyond the hand": lambda r, kw: (
        kw["judged"] & ~kw["good"] & ~sf._unpack(r["hand"]) & (r["shadow"].astype(np.float32) < 0.9)
    ),
    "match the true shadow field (2 sigmas)": lambda r, kw: (
        matches(kw, r["shadow"].astype(np.float32) ** 2.2) & (r["shadow"].astype(np.float32) < 0.97)
    ),
    "probe at the true offset": lambda r, kw: probes(kw, tuple(r["offset"])),
    "probe at the true offset, 0.8-1.2, +-0.2 rad": lambda r, kw: probes(
        kw, tuple(r["offset"]), sm.SPREAD, sm.TURNS
    ),
    "reader: fitted probe (module)": lambda r, kw: _module(kw, "probe"),
    "reader: fitted match (module)": lambda r, kw: _module(kw, "match"),
}


def _module(kw: dict, rule: str) -> np.ndarray:
    sm.RULES = [rule]
    return sm.shadow_seen(**kw)


def table(data: list[Path]) -> None:
    rows = [r for p in data for r in pickle.loads(p.read_bytes())]
    counts = {k: [0, 0, 0, 0, 0] for k in RULES}  # cleared, guesses, pieces, freed px, under hand
    flags = 0
    errs = []
    for row in rows:
        kw = _kw(row)
        mask, hand = sf._unpack(row["mask"]), sf._unpack(row["hand"])
        rad, box = row["reach"].radius * PPU, row["reach"].box * PPU
        f1 = sf._disc_free(mask, rad)
        fit = _fitted(kw)
        if fit is not None:
            errs.append((math.hypot(fit.dx - row["offset"][0], fit.dy - row["offset"][1]), fit.explained))
        judged = [
            i for i in row["cands"] if row["notes"][ALL_SQUARES[i]] not in (br.UNREAD_PIECE, br.UNREAD_MARKER)
        ]
        for i in judged:
            sq = ALL_SQUARES[i]
            flags += sf._worst(f1, i, box) < 0.5 and not row["truth"][sq] and not row["hidden"][sq]
        for name, rule in RULES.items():
            freed = rule(row, kw) & ~mask
            c = counts[name]
            c[3] += int(freed.sum())
            c[4] += int((freed & hand).sum())
            f2 = sf._disc_free(mask | freed, rad)
            for i in judged:
                sq = ALL_SQUARES[i]
                if sf._worst(f1, i, box) < 0.5 <= sf._worst(f2, i, box):
                    if row["truth"][sq]:
                        c[2] += 1
                    elif row["hidden"][sq]:
                        c[1] += 1
                    else:
                        c[0] += 1
    print(f"{len(rows)} scenes with hands, {flags} flagged empty squares")
    print(f"{'rule':68s} {'cleared':>7s} {'guess':>5s} {'piece':>5s} {'freed px':>8s} {'on hand':>7s}")
    for name, (c, g, p, n, h) in counts.items():
        print(f"{name:68s} {c:7d} {g:5d} {p:5d} {n:8d} {h:7d}")
    e = np.array(errs)
    if len(e):
        good = e[:, 1] >= sm.MIN_EXPLAINED
        print(
            f"fitted offset: {len(e)} fits, error median {np.median(e[:, 0]):.1f} px; "
            f"explaining >= {sm.MIN_EXPLAINED}: {good.sum()}, median {np.median(e[good, 0]):.1f} px, "
            f"under 2 px {np.mean(e[good, 0] < 2):.2f}"
        )


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--start", type=int, default=0)
    c.add_argument("--count", type=int, default=300)
    c.add_argument("--out", type=Path, default=Path("/tmp/b13s/shadow.pkl"))
    c.add_argument("--cache", type=Path, default=Path("/tmp/board_tune"))
    t = sub.add_parser("table")
    t.add_argument("--data", type=Path, nargs="+", default=[Path("/tmp/b13s/shadow.pkl")])
    a = ap.parse_args()
    if a.cmd == "collect":
        collect(a.start, a.count, a.out, a.cache)
    else:
        table(a.data)
    return 0


if __name__ == "__main__":
    sys.exit(main())
