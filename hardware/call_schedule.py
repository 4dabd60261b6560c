"""When the referee makes the call: a random delay after the contest is armed.

A human caller has a rhythm that quick players learn; a random delay drawn by the referee
removes it, and the call is made on the same clock as the presses (docs/timing.md). The
contest runner of the daemon arms, waits ``schedule.delay_ns(rng)``, then calls
``source.call()``. The random generator is seeded and passed in so a game night can be
replayed and a test is deterministic.

Two shapes of delay:

- ``uniform`` (default): any time between ``min_s`` and ``max_s`` equally likely. Simple, but
  the longer nothing happens, the surer the call is imminent; a bold player can lean on that.
- ``non-aging``: an exponential delay (truncated to the range), so having waited tells a
  player little about when the call comes. For tables where anticipation is a problem.

>>> import random
>>> s = CallSchedule(1.5, 4.0)
>>> d = s.delay_ns(random.Random(7)); 1_500_000_000 <= d <= 4_000_000_000
True
>>> d == s.delay_ns(random.Random(7))
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

SHAPES = ("uniform", "non-aging")
# Players need a moment after the "armed" signal to settle their hands: at a table keep the
# minimum at 0.5 s or more (the default is 1.5 s). Shorter delays are for demos and tests.
MIN_DELAY_S = 0.0
MAX_DELAY_S = 30.0


@dataclass(frozen=True)
class CallSchedule:
    """The call's delay after arming: between `min_s` and `max_s` seconds, of shape `shape`."""

    min_s: float = 1.5
    max_s: float = 4.0
    shape: str = "uniform"

    def __post_init__(self) -> None:
        for name in ("min_s", "max_s"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or math.isnan(value):
                raise ValueError(f"the call delay's {name} must be a number of seconds, not {value!r}")
        if not MIN_DELAY_S <= self.min_s <= self.max_s <= MAX_DELAY_S:
            raise ValueError(
                f"the call delay must satisfy {MIN_DELAY_S} s ≤ min ≤ max ≤ {MAX_DELAY_S} s, "
                f"not {self.min_s}–{self.max_s} s"
            )
        if self.shape not in SHAPES:
            raise ValueError(f"the call delay's shape must be one of {', '.join(SHAPES)}, not {self.shape!r}")

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> CallSchedule:
        """From settings such as ``{"min_s": 1.5, "max_s": 4, "shape": "uniform"}``."""
        unknown = set(data) - {"min_s", "max_s", "shape"}
        if unknown:
            raise ValueError(
                f"unknown call delay setting(s) {', '.join(sorted(unknown))}; known: min_s, max_s, shape"
            )
        return cls(**dict(data))

    def delay_ns(self, rng: random.Random) -> int:
        """One delay in whole nanoseconds, drawn from `rng`."""
        lo, hi = round(self.min_s * 1e9), round(self.max_s * 1e9)
        if lo == hi:
            return lo
        if self.shape == "uniform":
            return rng.randrange(lo, hi + 1)
        # Truncated exponential on [lo, hi] by inverting its distribution function. The mean
        # wait beyond `lo` is a third of the range: the hazard is constant inside the range.
        scale = (hi - lo) / 3
        u = rng.random()
        span = 1 - math.exp(-(hi - lo) / scale)
        return lo + min(hi - lo, round(-scale * math.log(1 - u * span)))
