"""Equal bit for bit: the check the exact speed-up tests (tests/test_board_speed_*.py) make."""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np


def same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    """The same dtype, shape and bytes (NaNs of one payload equal, 0.0 and -0.0 not)."""
    a, b = np.ascontiguousarray(a), np.ascontiguousarray(b)
    return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a.view(np.uint8), b.view(np.uint8))


def same_values(a: Any, b: Any) -> bool:
    """Equal bit for bit, through what a reader's function returns: arrays (`same_bits` but
    for a NaN's bytes, which ``tobytes`` compares as they are), floats by their float64 bytes,
    and tuples, lists, dicts and dataclasses of them, field by field."""
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        a, b = np.asarray(a), np.asarray(b)
        return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()
    if isinstance(a, float) or isinstance(b, float):
        return type(a) is type(b) and np.float64(a).tobytes() == np.float64(b).tobytes()
    if isinstance(a, (tuple, list)):
        return (
            type(a) is type(b)
            and len(a) == len(b)
            and all(same_values(x, y) for x, y in zip(a, b, strict=True))
        )
    if isinstance(a, dict):
        return isinstance(b, dict) and a.keys() == b.keys() and all(same_values(a[k], b[k]) for k in a)
    if dataclasses.is_dataclass(a) and not isinstance(a, type):
        return type(a) is type(b) and all(
            same_values(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(a)
        )
    return a == b
