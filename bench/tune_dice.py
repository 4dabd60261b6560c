"""Choose the dice reader's doubt thresholds on the *val* split (never the held-out one).

    /work/venv/bin/python bench/tune_dice.py --frames 300

Reads val frames (fonts the glyph network was not trained on, tune lighting), keeps per die
what the reader measured, and prints how many readable dice would be silently wrong or
flagged for each candidate threshold on the glyph network's face probability, the colour
die's paint margin and the identity margin. The chosen values live in
``vision.dice_model.Thresholds``.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.bench_dice import BENCH_OPTIONS, recorded_model
from vision.dice_model import DiceModel, default_model
from vision.dice_read import read_dice
from vision.synth import render_scene, sample_scene


def collect(model: DiceModel, split: str, frames: int, seed0: int) -> list[dict[str, object]]:
    """One row per readable die: truth, read value, the measures behind its confidence."""
    loose = replace(
        model, thresholds=replace(model.thresholds, face_prob=0.0, face_margin=-1.0, face_mass=0.0)
    )
    rows: list[dict[str, object]] = []
    for i in range(frames):
        scene = sample_scene(model.dieset, split, seed0 + i, BENCH_OPTIONS)
        img, labels = render_scene(scene, model.dieset)
        diag: list[dict[str, object]] = []
        read = read_dice(img, loose, diagnostics=diag)
        per_die = {d["die"]: d for d in diag if "die" in d}
        for truth in labels.dice:
            if not (truth.on_tray and truth.visible and not truth.cocked and not truth.touching):
                continue
            got = read.die(truth.name)
            d = per_die.get(truth.name, {})
            rows.append(
                {
                    "seed": seed0 + i,
                    "font": scene.font,
                    "die": truth.name,
                    "kind": got.kind,
                    "truth": truth.value,
                    "value": got.value,
                    "flags": tuple(f for f in got.flags if f != "uncertain"),
                    "frame_flags": read.flags,
                    "hand_over_tray": labels.hand_over_tray,
                    "prob": d.get("prob"),
                    "margin": d.get("margin"),
                    "colour_margin": d.get("colour_margin"),
                    "identity_margin": d.get("identity_margin"),
                    "mass": d.get("mass"),
                    "excess": d.get("excess"),
                    "ring_spread": d.get("ring_spread"),
                    "cocked_truth": False,
                }
            )
    return rows


def sweep(rows: list[dict[str, object]], name: str) -> None:
    glyph = [r for r in rows if r["prob"] is not None and not r["flags"] and not r["frame_flags"]]
    n = len(rows)
    print(f"\n{name}: {n} readable dice; {len(glyph)} glyph dice without other flags")
    other = sum(1 for r in rows if r["flags"] or r["frame_flags"])
    print(f"  flagged for other reasons (touching/cocked/off/hand...): {other}")
    reasons = Counter(
        (tuple(r["flags"]), tuple(r["frame_flags"]), r["hand_over_tray"])  # type: ignore[arg-type]
        for r in rows
        if r["flags"] or r["frame_flags"]
    )
    for (flags, frame_flags, hand), count in reasons.most_common(8):
        print(f"    {count:4d} die flags {flags} frame flags {frame_flags} hand over tray (truth) {hand}")
    for t in (0.5, 0.8, 0.9, 0.95, 0.97, 0.98, 0.99, 0.995, 0.998):
        wrong = sum(1 for r in glyph if r["prob"] >= t and r["value"] != r["truth"])
        flagged = sum(1 for r in glyph if r["prob"] < t)
        print(
            f"  face_prob {t:6.3f}: silently wrong {wrong:4d}  flagged {flagged:4d} ({100 * flagged / n:.2f} %)"
        )
    wrong_rows = [r for r in glyph if r["value"] != r["truth"]]
    wrong_rows.sort(key=lambda r: -float(r["prob"]))  # type: ignore[arg-type]
    for r in wrong_rows[:15]:
        print(
            f"    {r['die']}: {r['truth']} read {r['value']} p={r['prob']:.4f} {r['font']} seed {r['seed']}"
        )
    colour = [r for r in rows if r["colour_margin"] is not None and not r["flags"]]
    for t in (6.0, 9.0, 12.0, 15.0):
        wrong = sum(1 for r in colour if r["colour_margin"] >= t and r["value"] != r["truth"])  # type: ignore[operator]
        flagged = sum(1 for r in colour if r["colour_margin"] < t)  # type: ignore[operator]
        print(f"  colour margin {t:5.1f}: wrong {wrong} flagged {flagged} of {len(colour)}")
    ident = [float(r["identity_margin"]) for r in rows if r["identity_margin"] is not None]  # type: ignore[arg-type]
    print(f"  identity margin percentiles 0.1/1/5 %: {np.percentile(ident, [0.1, 1, 5]).round(2)}")


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--frames", type=int, default=300)
    parser.add_argument("--seed", type=int, default=500_000)
    parser.add_argument("--split", default="val", choices=("val", "val-light", "val-lamps", "tune", "train"))
    args = parser.parse_args()
    base = default_model()
    sweep(collect(base, args.split, args.frames, args.seed), "A-Z on every letter die")
    sweep(
        collect(recorded_model(base), args.split, args.frames, args.seed + 1_000_000), "six recorded letters"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
