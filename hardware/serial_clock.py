"""Mapping the RP2040's clock to the host's, from ping/pong round trips.

Ordering never needs this: the Pico stamps every seat and the call on its own clock. The
mapping serves ``now_ns()`` (contest timeouts), display and logs.

Model (after Klipper's clocksync, written afresh): each round trip gives a sample
``(host midpoint, pico time, round-trip time)``; the Pico's answer was read somewhere inside
the round trip, so the midpoint is off by at most half of it. The mapping anchors on the
sample with the smallest round trip among the recent ones, and takes the rate (host ns per
pico ns, crystal error ≤ a few tens of ppm) from a least-squares line through the recent
samples whose round trip is close to that minimum. An old sample's doubt grows with its age,
so a slightly slower but recent round trip replaces an old anchor.

>>> m = ClockMap()
>>> m.add(sent_ns=1_000_000, received_ns=1_000_200, pico_ns=5_000_000)
>>> m.to_host(5_000_000), m.to_pico(1_000_100), m.uncertainty_ns
(1000100, 5000000, 100)
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

MAX_RATE_ERROR = 200e-6  # clamp the fitted rate: crystals are within ±50 ppm
MIN_SPAN_NS = 500_000_000  # fit a rate only over at least 0.5 s of samples...
SPAN_PER_RTT = 50_000  # ...and over 50 000 round trips, so timing noise adds under 10 ppm
AGEING_UNFITTED = 100e-6  # a sample's doubt grows with age: by the worst drift while unfitted,
AGEING_FITTED = 10e-6  # and by the fit's residual error once a rate is fitted


@dataclass(frozen=True, slots=True)
class ClockSample:
    host_ns: int  # midpoint of the round trip on the host's monotonic clock
    pico_ns: int
    rtt_ns: int


class ClockMap:
    """Host monotonic ns ↔ pico ns, refined by every ping/pong; see the module docstring."""

    def __init__(self, window: int = 64) -> None:
        self.samples: deque[ClockSample] = deque(maxlen=window)
        self._anchor: ClockSample | None = None
        self.rate = 1.0  # host ns per pico ns

    @property
    def ready(self) -> bool:
        return self._anchor is not None

    def reset(self) -> None:
        """Forget everything (the Pico rebooted: its clock restarted)."""
        self.samples.clear()
        self._anchor = None
        self.rate = 1.0

    def add(self, sent_ns: int, received_ns: int, pico_ns: int) -> None:
        rtt = max(received_ns - sent_ns, 0)
        self.samples.append(ClockSample(sent_ns + rtt // 2, pico_ns, rtt))
        self._refit()

    def to_host(self, pico_ns: int) -> int:
        anchor = self._require()
        return anchor.host_ns + round((pico_ns - anchor.pico_ns) * self.rate)

    def to_pico(self, host_ns: int) -> int:
        anchor = self._require()
        return anchor.pico_ns + round((host_ns - anchor.host_ns) / self.rate)

    @property
    def uncertainty_ns(self) -> int:
        """Half the round trip of the anchor sample: the mapping's error bound at the anchor."""
        return self._require().rtt_ns // 2

    def _require(self) -> ClockSample:
        if self._anchor is None:
            raise LookupError("no clock sample yet: the RP2040 has not answered a ping")
        return self._anchor

    def _refit(self) -> None:
        best = min(s.rtt_ns for s in self.samples)
        good = [s for s in self.samples if s.rtt_ns <= 2 * best + 20_000]
        span = good[-1].pico_ns - good[0].pico_ns
        fitted = len(good) >= 3 and span >= max(MIN_SPAN_NS, SPAN_PER_RTT * best)
        self.rate = _fit_rate(good) if fitted else 1.0
        # The anchor: a small round trip, but not an old one (the rate's error grows with age).
        ageing = AGEING_FITTED if fitted else AGEING_UNFITTED
        newest = self.samples[-1].host_ns
        self._anchor = min(reversed(self.samples), key=lambda s: s.rtt_ns / 2 + (newest - s.host_ns) * ageing)


def _fit_rate(samples: list[ClockSample]) -> float:
    p0, h0 = samples[0].pico_ns, samples[0].host_ns
    xs = [s.pico_ns - p0 for s in samples]
    ys = [s.host_ns - h0 for s in samples]
    n = len(xs)
    mx, my = sum(xs) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in xs)
    if sxx == 0:
        return 1.0
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sxx
    return min(max(slope, 1 - MAX_RATE_ERROR), 1 + MAX_RATE_ERROR)
