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
def _popcount(full: int) -> np.ndarray:
    return np.array([bin(m).count("1") for m in range(full)])


def assign(cost: np.ndarray) -> tuple[float, list[int]]:
    """Minimum total cost of regions (rows) to dice (columns) or to nothing (-1).

    Returns the total (including MISSING_DIE per unassigned die) and, per region, its die.
    """
    n_blobs, n_dice = cost.shape
    if n_blobs == 0:
        return MISSING_DIE * n_dice, []
    full = 1 << n_dice
    masks = np.arange(full)
    best = np.full(full, np.inf)
    best[0] = 0.0
    choices = []
    for i in range(n_blobs):
        nxt = best + NULL_BLOB
        choice = np.full(full, -1, np.int64)
        for d in range(n_dice):
            bit = 1 << d
            without = masks[(masks & bit) == 0]
            cand = best[without] + cost[i, d]
            better = cand < nxt[without | bit]
            nxt[(without | bit)[better]] = cand[better]
            choice[(without | bit)[better]] = d
        best = nxt
        choices.append(choice)
    totals = best + MISSING_DIE * (n_dice - _popcount(full))
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
