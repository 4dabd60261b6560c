"""Drawn views for the glare fit's speed tests (rounds 23 and 25): Gaussian bumps with noise,
as `vision.board_glare` sees the lamp-coloured excess."""

from __future__ import annotations

import numpy as np


def glare_bumps(rng: np.random.Generator, h: int, w: int, count: int, oval: bool = False) -> np.ndarray:
    """An h x w view of ``count`` bumps centred anywhere up to 10 px off it, 1-15 px wide,
    0.01-0.5 high, round or (``oval``) up to 1.6 times longer one way, on noise of 0.01."""
    vv, uu = np.mgrid[0:h, 0:w].astype(np.float32)
    out = rng.normal(0, 0.01, (h, w)).astype(np.float32)
    for _ in range(count):
        cu, cv = rng.uniform(-10, w + 10), rng.uniform(-10, h + 10)
        wd, amp = rng.uniform(1, 15), rng.uniform(0.01, 0.5)
        if oval:
            aspect = rng.uniform(1, 1.6)
            du, dv = uu - cu, vv - cv
            out += (amp * np.exp(-(du * du / aspect + dv * dv * aspect) / (2 * wd * wd))).astype(np.float32)
        else:
            out += (amp * np.exp(-((uu - cu) ** 2 + (vv - cv) ** 2) / (2 * wd * wd))).astype(np.float32)
    return out
