"""A hand drawn on the reader's top view (`drawn_hand`), and the pixel verdicts the
hand-outline bounds get for it (`vision.board_hand_edges`, `vision.board_hand_curves`):
shared by their tests and the speed tests of rounds 24 and 25."""

from __future__ import annotations

import cv2
import numpy as np

from vision.board_geometry import DEFAULT_GEOMETRY, SIZE
from vision.board_surface import View

PPU = 24
N = SIZE * PPU


def verdicts(hand: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """foreign, seen, hidden and unseen pixels for a hand of class 0's colour: foreign over
    class 1, invisible over class 0, where every class-0 square it enters is hidden."""
    view = View.of(DEFAULT_GEOMETRY, PPU)
    judged = ~view.line
    foreign = hand & judged & (view.classes == 1)
    entered = (hand & judged & (view.classes == 0)).reshape(SIZE, PPU, SIZE, PPU).any(axis=(1, 3))
    hidden = np.kron(entered, np.ones((PPU, PPU), bool)) & judged & ~foreign
    seen = judged & ~foreign & ~hidden
    return foreign, seen, hidden, judged & (foreign | hidden)


def drawn_hand(rng: np.random.Generator, parts: int) -> np.ndarray:
    """A hand of ``parts`` discs and fingers (rotated bars) of random size and place."""
    hand = np.zeros((N, N), np.uint8)
    for _ in range(parts):
        cx, cy = (int(c) for c in rng.integers(-20, N + 20, 2))
        if rng.random() < 0.5:
            cv2.circle(hand, (cx, cy), int(rng.integers(8, 60)), 1, -1)
        else:
            axes = (int(rng.integers(4, 70)), int(rng.integers(3, 12)))
            cv2.ellipse(hand, (cx, cy), axes, float(rng.uniform(0, 180)), 0, 360, 1, -1)
    return hand > 0
