"""The region-to-die assignment is exactly the cheapest one (checked against brute force)."""

from __future__ import annotations

import itertools

import numpy as np
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from vision.dice_assign import MISSING_DIE, NULL_BLOB, assign, identity_margin


def brute_force(cost: np.ndarray) -> float:
    n_blobs, n_dice = cost.shape
    best = float("inf")
    # Each region picks a die or nothing (-1); no die twice.
    for choice in itertools.product(range(-1, n_dice), repeat=n_blobs):
        used = [c for c in choice if c >= 0]
        if len(used) != len(set(used)):
            continue
        total = sum(cost[i, c] if c >= 0 else NULL_BLOB for i, c in enumerate(choice))
        total += MISSING_DIE * (n_dice - len(used))
        best = min(best, total)
    return best


costs = st.integers(1, 4).flatmap(
    lambda rows: st.integers(1, 4).flatmap(
        lambda cols: arrays(np.float64, (rows, cols), elements=st.floats(0, 60, allow_nan=False))
    )
)


@given(costs)
def test_assignment_is_optimal_and_consistent(cost):
    total, who = assign(cost)
    assert abs(total - brute_force(cost)) < 1e-9
    used = [d for d in who if d >= 0]
    assert len(used) == len(set(used))
    recomputed = sum(cost[i, d] if d >= 0 else NULL_BLOB for i, d in enumerate(who))
    assert abs(recomputed + MISSING_DIE * (cost.shape[1] - len(used)) - total) < 1e-9
    for i, d in enumerate(who):
        if d >= 0:
            assert identity_margin(cost, total, i, d) >= -1e-9


def test_no_regions_means_every_die_missing():
    total, who = assign(np.zeros((0, 7)))
    assert who == [] and total == 7 * MISSING_DIE
