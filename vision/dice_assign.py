"""Which region is which die: an exact minimum-cost assignment, and how clear it was.

Every region gets a cost as every die (see dice_read); a region may also be "not a die" (a
glint, a token) and a die may be left without a region (missing). With seven dice the exact
answer is cheap: dynamic programming over the 128 subsets of dice.

>>> import numpy as np
>>> total, who = assign(np.array([[0.5, 9.0], [8.0, 0.2]]))
>>> who
[0, 1]
"""

from __future__ import annotations

import functools

import numpy as np

NO_MATCH = 30.0  # cost of a die that cannot be this region at all
NULL_BLOB = 14.0  # cost of calling a region "not a die" (a glint, a token, a crumb)
MISSING_DIE = 40.0  # cost of leaving a die without a region


@functools.cache
def _tables(n_dice: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For every subset of dice (a bit mask): how many dice it holds, and per die d the subset
    without d (or 0 where d is not in it) with a mask of where d is in it."""
    full = 1 << n_dice
    masks = np.arange(full)
    popcount = np.array([bin(m).count("1") for m in range(full)])
    bits = 1 << np.arange(n_dice)
    has = (masks[:, None] & bits[None, :]) != 0  # (full, n_dice)
    without = np.where(has, masks[:, None] ^ bits[None, :], 0)
    return popcount, without, has


def assign(cost: np.ndarray) -> tuple[float, list[int]]:
    """Minimum total cost of regions (rows) to dice (columns) or to nothing (-1).

    Returns the total (including MISSING_DIE per unassigned die) and, per region, its die.
    Dynamic programming over subsets of dice, one vectorised step per region.
    """
    n_blobs, n_dice = cost.shape
    if n_blobs == 0:
        return MISSING_DIE * n_dice, []
    popcount, without, has = _tables(n_dice)
    best = np.full(len(popcount), np.inf)
    best[0] = 0.0
    choices = []
    for i in range(n_blobs):
        # Region i takes die d (coming from the subset without d) or is "not a die".
        cand = np.where(has, best[without] + cost[i][None, :], np.inf)
        d = np.argmin(cand, axis=1)
        via_die = cand[np.arange(len(best)), d]
        skip = best + NULL_BLOB
        take = via_die < skip
        choices.append(np.where(take, d, -1))
        best = np.where(take, via_die, skip)
    totals = best + MISSING_DIE * (n_dice - popcount)
    mask = int(np.argmin(totals))
    total = float(totals[mask])
    out = [-1] * n_blobs
    for i in range(n_blobs - 1, -1, -1):
        d = int(choices[i][mask])
        out[i] = d
        if d >= 0:
            mask &= ~(1 << d)
    return total, out


def identity_margin(cost: np.ndarray, total: float, region: int, die: int) -> float:
    """How much worse the best assignment is in which `region` is *not* `die`."""
    alt = cost.copy()
    alt[region, die] = NO_MATCH * 4
    alt_total, _ = assign(alt)
    return alt_total - total
