"""A picture of what the board reader saw: the grid, each square's verdict, the markers."""

from __future__ import annotations

import cv2
import numpy as np

from vision.board_geometry import SIZE, square_index
from vision.board_read import BoardRead

COLOURS = {"empty": (0, 200, 0), "living": (255, 160, 0), "corpse": (160, 160, 160), "unknown": (0, 0, 255)}
REGION_COLOURS = {"hand": (255, 0, 255), "held piece": (255, 0, 255)}


def debug_image(image: np.ndarray, read: BoardRead) -> np.ndarray:
    """``image`` with the fitted grid drawn over it, each square outlined in the colour of its
    state (green empty, orange living, grey corpse, red unknown) and labelled with its token;
    the squares of each foreign region crossed, magenta for a hand or a held piece."""
    out = image.copy() if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    H = np.array(read.homography)

    def to_img(pts: np.ndarray) -> np.ndarray:
        return cv2.perspectiveTransform(pts.reshape(-1, 1, 2).astype(np.float64), H).reshape(-1, 2)

    scale = max(1, round(out.shape[1] / 1000))
    for s in read.squares:
        f, r = square_index(s.square)
        inset = 0.08
        quad = np.array(
            [
                [f + inset, r + inset],
                [f + 1 - inset, r + inset],
                [f + 1 - inset, r + 1 - inset],
                [f + inset, r + 1 - inset],
            ]
        )
        pts = np.round(to_img(quad)).astype(np.int32)
        colour = COLOURS[s.state]
        cv2.polylines(out, [pts], True, colour, 2 * scale if s.state == "unknown" else scale, cv2.LINE_AA)
        label = s.token or ""
        if label:
            c = to_img(np.array([[f + 0.5, r + 0.2]]))[0]
            cv2.putText(
                out,
                label,
                (round(c[0]) - 10 * scale, round(c[1])),
                cv2.FONT_HERSHEY_SIMPLEX,
                0.5 * scale,
                colour,
                scale,
                cv2.LINE_AA,
            )
    # The foreign regions: their squares crossed in magenta (a hand, a held piece) or grey
    # (glare, an unread piece, other), the kind written on the first square.
    for region in read.regions:
        colour = REGION_COLOURS.get(region.kind, (128, 128, 128))
        for sq in region.squares:
            f, r = square_index(sq)
            for a, b in (([f + 0.2, r + 0.2], [f + 0.8, r + 0.8]), ([f + 0.2, r + 0.8], [f + 0.8, r + 0.2])):
                p, q = np.round(to_img(np.array([a, b]))).astype(np.int32)
                cv2.line(out, (int(p[0]), int(p[1])), (int(q[0]), int(q[1])), colour, scale, cv2.LINE_AA)
        f, r = square_index(region.squares[0])
        c = to_img(np.array([[f + 0.1, r + 0.5]]))[0]
        cv2.putText(
            out,
            region.kind,
            (round(c[0]), round(c[1])),
            cv2.FONT_HERSHEY_SIMPLEX,
            0.5 * scale,
            colour,
            scale,
            cv2.LINE_AA,
        )
    edge = np.round(to_img(np.array([[0, 0], [SIZE, 0], [SIZE, SIZE], [0, SIZE]]))).astype(np.int32)
    cv2.polylines(out, [edge], True, (255, 255, 255), scale, cv2.LINE_AA)
    a1 = to_img(np.array([[0.5, -0.35]]))[0]
    cv2.putText(
        out,
        "a1",
        (round(a1[0]), round(a1[1])),
        cv2.FONT_HERSHEY_SIMPLEX,
        0.7 * scale,
        (255, 255, 255),
        scale,
        cv2.LINE_AA,
    )
    return out
