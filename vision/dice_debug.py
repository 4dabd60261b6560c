"""Draw what the dice reader found on the frame (``referee read-dice --debug OUT.png``)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.dice_result import DiceRead

_COLOURS = {  # BGR outline per die name; unknown names are grey
    "green": (60, 200, 60),
    "white": (250, 250, 250),
    "yellow": (0, 220, 255),
    "red": (40, 40, 230),
    "blue": (230, 120, 30),
    "colour": (230, 60, 230),
    "theme": (200, 200, 120),
}


def draw_read(image: np.ndarray, read: DiceRead) -> np.ndarray:
    """A copy of `image` with each die's top face outlined and labelled; doubts in red."""
    out = image.copy()
    for d in read.dice:
        if not d.corners:
            continue
        pts = np.round(np.array(d.corners)).astype(np.int32)
        colour = _COLOURS.get(d.die, (160, 160, 160))
        cv2.polylines(out, [pts], True, colour, 2, cv2.LINE_AA)
        cv2.line(out, tuple(pts[0]), tuple(pts[1]), (0, 0, 255) if d.flags else colour, 3, cv2.LINE_AA)
        label = f"{d.die}:{d.value} {d.confidence:.2f}"
        if d.flags:
            label += " " + ",".join(d.flags)
        x, y = int(pts[:, 0].min()), int(pts[:, 1].min()) - 6
        for thickness, c in ((4, (0, 0, 0)), (1, (0, 0, 255) if d.flags else (255, 255, 255))):
            cv2.putText(out, label, (x, max(y, 12)), cv2.FONT_HERSHEY_SIMPLEX, 0.5, c, thickness, cv2.LINE_AA)
    summary = f"letters {read.letters}  colour {read.colour}  theme {read.theme}  conf {read.confidence:.2f}"
    lines = [summary] + [f"doubt: {d}" for d in read.doubts]
    for i, line in enumerate(lines):
        y = 22 + 20 * i
        cv2.putText(out, line, (8, y), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (0, 0, 0), 4, cv2.LINE_AA)
        cv2.putText(out, line, (8, y), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (255, 255, 255), 1, cv2.LINE_AA)
    return out
