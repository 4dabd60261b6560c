"""Training faces for the glyph network, cut by the reader's own pipeline from rendered frames.

A frame holds a crowd of dice (four of each letter die, two theme and two colour dice), so one
render yields about twenty faces. Each face goes through exactly what `read_dice` does (tray,
rectification, segmentation, parallax, squaring up, white balance) and is matched to its
label, so the network learns from the very inputs it will see, including the reader's own
small errors in placing the face.

    python -m vision.synth.faces OUT.npz --split train --frames 1200 --seed 0

Only the *train* and *val* splits are meant for this; never the held-out one.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from vision.dice_colour import reference_labs
from vision.dice_glyphs import NONE, class_index, glyph_input
from vision.dice_measure import measure, raw_face, white_reference
from vision.dice_model import default_model
from vision.dice_segment import SCALE, estimate_parallax, find_blobs, rectify, split_touching, top_face
from vision.dice_tray import find_tray, marker_squares
from vision.dieset import DieSet, DieSpec, default_dieset
from vision.synth.render import render_scene
from vision.synth.scene import SceneOptions, sample_scene

OPTIONS = SceneOptions(p_markers=0.5, p_hand_edge=0.1, p_glare=0.3)


def crowded_dieset(base: DieSet, copies: int = 4) -> DieSet:
    """The same dice, several of each (names "green0", "green1", ...), for denser frames."""
    dice: list[DieSpec] = []
    for d in base.dice:
        n = copies if d.kind == "letter" else 2
        dice += [replace(d, name=f"{d.name}{k}") for k in range(n)]
    return replace(base, dice=tuple(dice))


def _base_name(name: str) -> str:
    return re.sub(r"\d+$", "", name)


def true_turns(face_corners: np.ndarray, label_quad: np.ndarray) -> int:
    """Quarter turns (np.rot90) that stand the label's texture upright in the face patch: the
    patch corner nearest the texture's top-left corner."""
    return int(np.argmin(np.linalg.norm(face_corners - label_quad[0], axis=1)))


def frame_faces(
    img: np.ndarray, labels, base: DieSet, rng: np.random.Generator
) -> list[tuple[np.ndarray, int, str]]:  # type: ignore[no-untyped-def]
    """(input, class, font-independent die kind) for every face the pipeline cuts and a label
    explains; plus "none" examples (a colour die's face read as ink on a body)."""
    model = default_model()
    labs = reference_labs(base.colours)
    gray = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY)
    tray = find_tray(img, base.tray, gray)
    squares = list(marker_squares(base.tray).values()) if tray.method == "markers" else None
    rect = rectify(img, tray, squares)
    die_px = base.die_size_mm * SCALE
    regions = find_blobs(rect, die_px)
    h, w = img.shape[:2]
    nadir_arr = cv2.perspectiveTransform(np.array([[[w / 2, h / 2]]], np.float64), rect.image_to_rect)[0, 0]
    nadir = (float(nadir_arr[0]), float(nadir_arr[1]))
    k = estimate_parallax(regions.blobs, die_px, nadir)
    blobs = [b for b in split_touching(regions.blobs, rect, die_px, k, nadir) if not b.merged]
    raws = [raw_face(img, rect, b, top_face(b, die_px * (1 + k), nadir)) for b in blobs]
    white = white_reference(rect, tray, raws, model)
    out: list[tuple[np.ndarray, int, str]] = []
    readable = [d for d in labels.dice if d.visible and d.on_tray and not d.cocked and not d.touching]
    for raw in raws:
        c = raw.corners_img.mean(axis=0)
        side = float(np.linalg.norm(raw.corners_img[1] - raw.corners_img[0]))
        near = [d for d in readable if np.hypot(*(np.array(d.centre) - c)) < 0.3 * side]
        if len(near) != 1:
            continue
        truth = near[0]
        die = base.die(_base_name(truth.name))
        face = measure(raw, white)
        if die.kind == "colour":
            for ink in ("black", "white"):
                out.append((glyph_input(face.lab, face.body, labs[ink], face.noise), NONE, "colour"))
            continue
        turns = true_turns(raw.corners_img, np.array(truth.quad))
        x = glyph_input(face.lab, face.body, labs[die.ink], face.noise)
        out.append((x, class_index(die.kind, die.style, truth.value, turns), die.kind))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("out", type=Path)
    parser.add_argument("--split", choices=("train", "val"), default="train")
    parser.add_argument("--frames", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    base = default_dieset()
    crowd = crowded_dieset(base)
    xs, ys, kinds, fonts = [], [], [], []
    rng = np.random.default_rng(args.seed)
    for i in range(args.frames):
        scene = sample_scene(crowd, args.split, args.seed + i, OPTIONS)
        img, labels = render_scene(scene, crowd)
        for x, y, kind in frame_faces(img, labels, base, rng):
            xs.append(x.astype(np.float16))
            ys.append(y)
            kinds.append(kind)
            fonts.append(scene.font)
        if (i + 1) % 50 == 0 or i + 1 == args.frames:
            print(f"{i + 1} frames, {len(ys)} faces", file=sys.stderr, flush=True)
            # Saved as it goes, so a long run can be used before it ends.
            np.savez(args.out, x=np.stack(xs), y=np.array(ys), kind=np.array(kinds), font=np.array(fonts))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
