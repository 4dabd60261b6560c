"""Drawn inputs for `vision.board_line_seen.seen_lines`: a board's lines, dimmed by shadows,
hands of random colours over it, noise; the line pixels asked about and the reference ones.
The speed tests of rounds 24 and 25 check `seen_lines`' rewrites against their plain forms on
these."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

Clusters = Callable[[np.random.Generator, int], np.ndarray]


def drawn_clusters(rng: np.random.Generator, n: int) -> np.ndarray:
    """Up to six rectangles of 1-40 px in an n x n view."""
    clusters = np.zeros((n, n), bool)
    for _ in range(int(rng.integers(0, 7))):
        y, x = (int(v) for v in rng.integers(0, n, 2))
        clusters[y : y + int(rng.integers(1, 40)), x : x + int(rng.integers(1, 40))] = True
    return clusters


def lines_scene(
    rng: np.random.Generator,
    hands: int,
    shadows: int,
    noise: float,
    asked: float,
    reference_share: float,
    clusters: Clusters = drawn_clusters,
) -> tuple:
    """`seen_lines`' arguments: some of the line pixels asked about (in ``clusters`` and alone,
    ``asked`` a tenth of them), ``reference_share`` of the others taken as reference."""
    from vision.board_geometry import DEFAULT_GEOMETRY
    from vision.board_surface import LINE_PX, View, to_levels

    view = View.of(DEFAULT_GEOMETRY, 24)
    n = view.classes.shape[0]
    colours = rng.uniform(0.03, 0.8, (3, 3)).astype(np.float32)
    pred = colours[np.clip(view.classes, 0, 2)]
    lin = pred.copy()
    idx = np.arange(n) % 24
    for off, weight in ((0, 0.8), (1, 0.25), (23, 0.1)):
        lin[:, idx == off] = (1 - weight) * lin[:, idx == off] + weight * 0.02
        lin[idx == off, :] = (1 - weight) * lin[idx == off, :] + weight * 0.02
    for _ in range(shadows):
        y, x = (int(v) for v in rng.integers(0, n, 2))
        lin[y : y + int(rng.integers(10, 120)), x : x + int(rng.integers(10, 120))] *= rng.uniform(0.15, 1.0)
    foreign = np.zeros((n, n), bool)
    for _ in range(hands):
        y, x = (int(v) for v in rng.integers(0, n, 2))
        part = (slice(y, y + int(rng.integers(10, 90))), slice(x, x + int(rng.integers(10, 90))))
        lin[part] = rng.uniform(0.02, 0.6, 3).astype(np.float32)
        foreign[part] = True
    lin = (lin * rng.normal(1, noise, lin.shape)).astype(np.float32)
    levels = to_levels(lin)
    sigma = np.full(lin.shape, rng.uniform(1.0, 5.0), np.float32)
    light = (
        rng.uniform(0.9, 1.1, (n, n)).astype(np.float32),
        rng.normal(0, 0.003, (n, n)).astype(np.float32),
    )
    reference = view.line & ~foreign & (rng.random((n, n)) < reference_share)
    candidates = view.line & ~reference & (clusters(rng, n) | (rng.random((n, n)) < asked * 0.1))
    return lin, pred, light, levels, sigma, reference, candidates, foreign, view.classes, 24, LINE_PX
