"""Regenerate the small committed test set: ``python tests/data/board/make.py`` from the repo root.

Scenes come from the ``test`` split (never used for tuning or for the benchmark). Each image
is saved as JPEG with its labels (truth tokens, hand coverage, how much a hand could hide on
each square) in a JSON file beside it.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2

from vision.board_synth import scene

HERE = Path(__file__).parent
# Picked for variety: a plain view, two hands over the board, a hand with glare.
INDICES = (1, 6, 7)


def main() -> None:
    for i in INDICES:
        shot = scene("test", i)
        name = f"test-{i:03d}"
        cv2.imwrite(str(HERE / f"{name}.jpg"), shot.image, [cv2.IMWRITE_JPEG_QUALITY, 90])
        labels = {
            "placement": shot.placement,
            "truth": shot.truth,
            "hidden": {k: round(v, 3) for k, v in shot.hidden.items()},
            "marker_hidden": {k: round(v, 3) for k, v in shot.marker_hidden.items()},
            "hide": {k: round(v, 3) for k, v in shot.hide.items()},
            "marker_cover": {k: round(v, 3) for k, v in shot.marker_cover.items()},
            "hands": len(shot.params.hands),
            "glare": len(shot.params.glare),
        }
        (HERE / f"{name}.json").write_text(json.dumps(labels, indent=1) + "\n")


if __name__ == "__main__":
    main()
