"""Write the small committed image sets: test frames with labels, and the demo camera folder.

    /work/venv/bin/python -m vision.synth.samples tests/data/dice referee/data/demo/dice

Everything is rendered from fixed seeds (tune fonts only, so the files can be remade on any
machine with fonts-dejavu-core, fonts-dejavu-extra and fonts-liberation); nothing is hand-picked.
"""

from __future__ import annotations

import json
import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from vision.dieset import default_dieset
from vision.synth.render import FrameLabels, render_scene
from vision.synth.scene import HandSpec, SceneOptions, sample_scene

JPEG_QUALITY = 82

# name → (seed, options): one frame per situation the reader must handle.
TEST_FRAMES = {
    "markers": (11, SceneOptions(p_markers=1.0, p_hand_edge=0.0, p_glare=0.0)),
    "plain": (12, SceneOptions(p_markers=0.0, p_hand_edge=0.0, p_glare=0.0)),
    "hand-edge": (13, SceneOptions(p_markers=1.0, p_hand_edge=1.0)),
    "cocked": (14, SceneOptions(p_markers=1.0, p_cocked=1.0, p_hand_edge=0.0)),
    "touching": (15, SceneOptions(p_markers=0.0, p_touching=1.0, p_hand_edge=0.0)),
    "off-tray": (16, SceneOptions(p_markers=1.0, p_off_tray=1.0, p_hand_edge=0.0)),
}


def labels_json(labels: FrameLabels) -> dict[str, object]:
    return {
        "markers": labels.markers,
        "hand": labels.hand,
        "dice": [
            {
                "name": d.name,
                "value": d.value,
                "centre": [round(c, 1) for c in d.centre],
                "on_tray": d.on_tray,
                "cocked": d.cocked,
                "touching": d.touching,
                "visible": d.visible,
            }
            for d in labels.dice
        ],
    }


def write_test_frames(folder: Path) -> None:
    ds = default_dieset()
    folder.mkdir(parents=True, exist_ok=True)
    all_labels = {}
    for name, (seed, opts) in TEST_FRAMES.items():
        img, labels = render_scene(sample_scene(ds, "tune", seed, opts), ds)
        cv2.imwrite(str(folder / f"{name}.jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
        all_labels[name] = labels_json(labels)
    # A hand reaching over the tray: the reader must not trust that frame.
    scene = sample_scene(ds, "tune", 17, SceneOptions(p_markers=1.0, p_hand_edge=0.0))
    scene = replace(scene, hand=HandSpec("bottom", 0.5, 0.45, 0.0, (224, 172, 138)))
    img, labels = render_scene(scene, ds)
    cv2.imwrite(str(folder / "hand-over.jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    all_labels["hand-over"] = labels_json(labels)
    (folder / "labels.json").write_text(json.dumps(all_labels, indent=1) + "\n")


def write_demo(folder: Path) -> None:
    """Two rolls as a camera would see them: dice tumbling, then settled for a few frames."""
    ds = default_dieset()
    folder.mkdir(parents=True, exist_ok=True)
    opts = SceneOptions(p_markers=1.0, p_hand_edge=0.0, p_glare=0.0)
    rng = np.random.default_rng(2024)
    rendered: list[tuple[np.ndarray, FrameLabels]] = []
    for seed in (21, 22):
        base = sample_scene(ds, "tune", seed, opts)
        # Tumbling: the same tray with the dice elsewhere and a hand pulling back.
        for k in range(2):
            moving = sample_scene(ds, "tune", seed * 100 + k, opts)
            moving = replace(
                moving,
                camera=base.camera,
                tray_colour=base.tray_colour,
                table_colour=base.table_colour,
                hand=HandSpec("bottom", 0.3 + 0.3 * k, 0.25 - 0.1 * k, 10.0, (224, 172, 138)),
            )
            rendered.append(render_scene(moving, ds))
        # Settled: the final picture three times, each with its own sensor noise.
        still, lab = render_scene(base, ds)
        for _ in range(3):
            noisy = np.clip(still + rng.normal(0, 2.0, still.shape), 0, 255).astype(np.uint8)
            rendered.append((noisy, lab))
    labels = []
    for i, (img, lab) in enumerate(rendered):
        cv2.imwrite(str(folder / f"frame-{i:02d}.jpg"), img, [cv2.IMWRITE_JPEG_QUALITY, 78])
        labels.append({"frame": f"frame-{i:02d}.jpg", **labels_json(lab)})
    (folder / "labels.json").write_text(json.dumps(labels, indent=1) + "\n")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print("usage: python -m vision.synth.samples TEST_DIR DEMO_DIR", file=sys.stderr)
        raise SystemExit(2)
    write_test_frames(Path(sys.argv[1]))
    write_demo(Path(sys.argv[2]))
