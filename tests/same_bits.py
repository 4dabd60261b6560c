"""Equal bit for bit: the check the exact speed-up tests (tests/test_board_speed_*.py) make."""

from __future__ import annotations

import numpy as np


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    """The same dtype, shape and bytes (NaNs of one payload equal, 0.0 and -0.0 not)."""
    a, b = np.ascontiguousarray(a), np.ascontiguousarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a.view(np.uint8), b.view(np.uint8))
