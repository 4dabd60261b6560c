"""A hand drawn on the reader's top view, as the pixel verdicts the hand-outline bounds get
(`vision.board_hand_edges`, `vision.board_hand_curves`): shared by their tests."""

from __future__ import annotations

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
