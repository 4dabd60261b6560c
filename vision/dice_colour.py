"""Colour: white balance against references, then classification in CIE Lab.

Lab separates lightness from hue, so an uneven light changes L but barely moves a and b, and
red does not wrap around as it does in HSV hue. Lightness still counts, with a lower weight,
because white, ivory and black differ mostly in L.

>>> lab = rgb_to_lab(np.array([1.0, 1.0, 1.0]))
>>> round(float(lab[0]))
100
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np

L_WEIGHT = 0.5  # lightness counts half as much as hue in colour distances


def rgb_to_lab(rgb: np.ndarray) -> np.ndarray:
    """RGB floats (0..1, any shape ending in 3) → Lab (L 0..100, a and b about ±100)."""
    arr = np.clip(np.asarray(rgb, np.float32), 0.0, 1.5)
    flat = arr.reshape(-1, 1, 3)
    return cv2.cvtColor(flat, cv2.COLOR_RGB2Lab).reshape(arr.shape)


def delta_e(lab1: np.ndarray, lab2: np.ndarray, l_weight: float = L_WEIGHT) -> np.ndarray:
    """Weighted Euclidean distance in Lab (last axis)."""
    d = np.asarray(lab1, np.float32) - np.asarray(lab2, np.float32)
    return np.sqrt((l_weight * d[..., 0]) ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2)


def reference_labs(colours: Mapping[str, Sequence[int]]) -> dict[str, np.ndarray]:
    """The die set's colours (sRGB 0-255) in Lab."""
    return {name: rgb_to_lab(np.asarray(rgb, np.float32) / 255.0) for name, rgb in colours.items()}


@dataclass(frozen=True)
class ColourGuess:
    """The nearest reference colour and how clear the choice was."""

    name: str
    distance: float
    runner_up: str
    runner_up_distance: float

    @property
    def margin(self) -> float:
        return self.runner_up_distance - self.distance


def classify(
    lab: np.ndarray, refs: Mapping[str, np.ndarray], among: Sequence[str] | None = None
) -> ColourGuess:
    """The reference nearest to `lab` (optionally only `among` some names)."""
    names = list(among) if among is not None else list(refs)
    dists = sorted((float(delta_e(lab, refs[n])), n) for n in names)
    if len(dists) == 1:
        return ColourGuess(dists[0][1], dists[0][0], dists[0][1], float("inf"))
    return ColourGuess(dists[0][1], dists[0][0], dists[1][1], dists[1][0])


@dataclass(frozen=True)
class Illumination:
    """What white and black look like across the tray, to undo light colour and unevenness.

    `white` holds a per-channel plane ``c0 + cx·x + cy·y`` (x, y in tray mm) fitted to the white
    references; `shape`, when set, scales it by the tray's measured relative brightness.
    """

    white: np.ndarray  # (3, 3): rows are BGR channels, columns c0, cx, cy
    black: np.ndarray  # BGR

    def white_at(self, x: float, y: float) -> np.ndarray:
        return self.white[:, 0] + self.white[:, 1] * x + self.white[:, 2] * y

    def normalise(self, bgr: np.ndarray, x: float, y: float, shape: float = 1.0) -> np.ndarray:
        """BGR pixel values (0..255) seen at (x, y) → white-balanced RGB floats (white = 1)."""
        white = self.white_at(x, y) * shape
        out = (np.asarray(bgr, np.float32) - self.black) / np.maximum(white - self.black, 1.0)
        return out[..., ::-1]

    @classmethod
    def from_references(
        cls,
        whites: Sequence[tuple[float, float, np.ndarray]],
        blacks: Sequence[tuple[float, float, np.ndarray]] = (),
    ) -> Illumination:
        """Fit white across the tray: a plane with three or more references, else a constant."""
        xy = np.array([[1.0, w[0], w[1]] for w in whites])
        vals = np.array([w[2] for w in whites], np.float64)
        if len(whites) >= 3:
            coef, *_ = np.linalg.lstsq(xy, vals, rcond=None)
            white = coef.T
        else:
            white = np.zeros((3, 3))
            white[:, 0] = vals.mean(axis=0)
        black = np.median(np.array([b[2] for b in blacks]), axis=0) if blacks else np.zeros(3)
        # A black reference can only darken so far; clamp so a bad sample cannot invert colours.
        black = np.minimum(black, 0.25 * white[:, 0])
        return cls(white.astype(np.float64), black.astype(np.float64))

    @classmethod
    def constant(
        cls, white_bgr: Sequence[float], black_bgr: Sequence[float] = (0.0, 0.0, 0.0)
    ) -> Illumination:
        white = np.zeros((3, 3))
        white[:, 0] = np.asarray(white_bgr, np.float64)
        return cls(white, np.asarray(black_bgr, np.float64))
