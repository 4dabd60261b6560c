"""A hand part of a dimmed board colour beside its own deeper shadow (board14g, measured,
not kept).

A hand a shade darker than one colour of square fits there as the board dimmed and passes
for a shadow. Where it lies beside its own shadow, the two meet at a step in the dimming
much larger than a shadow's penumbra makes over a pixel: the hand's outline is sharp, a
shadow's edge is soft. So the dimmed patches cut apart at such steps (``JUMP`` between side
neighbours), touching a hand, with ``EDGE_PIXELS`` or more pixels beside a dimming
``DEEPER`` log units deeper within 2 px, are taken for the hand.
"""

from __future__ import annotations

import cv2
import numpy as np

JUMP = 0.2  # log units between side neighbours: a step no penumbra makes over a pixel
DEEPER = 0.55  # log units: the shadow beside the part is this much deeper
EDGE_PIXELS = 5
TOUCH = 3  # px: the part touches the hand (foreign or hidden pixels)


def _jumps(mask: np.ndarray, log_dim: np.ndarray, jump: float) -> np.ndarray:
    """The pixels of ``mask`` whose dimming jumps by more than ``jump`` to a side neighbour in it."""
    out = np.zeros(mask.shape, bool)
    for axis in (0, 1):
        n = mask.shape[axis]
        a = (slice(0, n - 1), slice(None)) if axis == 0 else (slice(None), slice(0, n - 1))
        b = (slice(1, n), slice(None)) if axis == 0 else (slice(None), slice(1, n))
        step = mask[a] & mask[b] & (np.abs(log_dim[a] - log_dim[b]) > jump)
        out[a] |= step
        out[b] |= step
    return out


def bands_beside_shadows(shade: np.ndarray, log_dim: np.ndarray, hand: np.ndarray) -> np.ndarray:
    """The pixels of ``shade`` (dimmed board, seen as bare) that may be a hand part beside
    its own deeper shadow; ``hand`` the pixels of a hand (foreign or hidden)."""
    if not shade.any() or not hand.any():
        return np.zeros(shade.shape, bool)
    core = shade & ~_jumps(shade, log_dim, JUMP)
    count, lab = cv2.connectedComponents(core.astype(np.uint8), connectivity=4)
    if count <= 1:
        return np.zeros(shade.shape, bool)
    values = np.where(shade, log_dim, np.float32(9)).astype(np.float32)
    deepest = cv2.erode(values, np.ones((5, 5), np.uint8))  # the deepest dimming within 2 px
    edge = core & (deepest < log_dim - DEEPER)
    near = cv2.distanceTransform((~hand).astype(np.uint8), cv2.DIST_L2, 3) <= TOUCH
    sel = (np.bincount(lab[edge], minlength=count) >= EDGE_PIXELS) & (
        np.bincount(lab[core & near], minlength=count) > 0
    )
    sel[0] = False
    return sel[lab]
