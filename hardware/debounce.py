"""Leading-edge debounce: a pure state machine per button, stamped at the first edge.

A library or kernel debounce reports a press once the line has settled, so its timestamp is
late by the bounce. Here the *first* edge of a press is its timestamp; the state machine only
decides afterwards whether that edge was a press or noise:

- **idle → arming**: the line goes active at ``t0``; ``t0`` is the candidate stamp.
- **arming → down**: the line has stayed active for the glitch time since its last edge
  (contact bounce shorter than the glitch time keeps it arming, never moves the stamp). The
  press is emitted, stamped ``t0``.
- **arming → idle**: the line has stayed inactive for the glitch time: a noise spike, dropped.
- **down → releasing**: the line goes inactive at ``tr``; the seat stays locked.
- **releasing → idle**: the line has stayed inactive for the quiet time. The release is
  emitted, stamped ``tr``; only now can a new press start.
- **releasing → down**: the line is active again for the glitch time (release bounce or a
  player pressing again within the quiet time): still the same press, nothing emitted.

Time only moves when the caller says so: ``feed(active, t_ns)`` at each edge and
``poll(now_ns)`` from a timer. A decision whose deadline has passed is taken at the next
``feed`` or ``poll``, whichever comes first, so the result does not depend on how often the
caller polls; tests give explicit times and are deterministic.

>>> d = Debouncer(DebounceSettings(glitch_ns=1_000, quiet_ns=30_000))
>>> d.feed(True, 100), d.feed(False, 103), d.feed(True, 105)   # a press that bounces
([], [], [])
>>> d.poll(1_105)                                               # held 1 µs since the bounce
[Transition(pressed=True, t_ns=100)]
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

DEFAULT_GLITCH_NS = 1_000_000  # a press must hold 1 ms: noise spikes are far shorter
DEFAULT_QUIET_NS = 30_000_000  # released and quiet for 30 ms before a seat can press again


@dataclass(frozen=True)
class DebounceSettings:
    """How long a press must hold (glitch) and how long a release must stay quiet.

    >>> DebounceSettings.from_ms(glitch_ms=2, quiet_ms=50).glitch_ns
    2000000
    """

    glitch_ns: int = DEFAULT_GLITCH_NS
    quiet_ns: int = DEFAULT_QUIET_NS

    def __post_init__(self) -> None:
        if not isinstance(self.glitch_ns, int) or not isinstance(self.quiet_ns, int):
            raise TypeError("debounce times are whole nanoseconds")
        if not 0 < self.glitch_ns <= 50_000_000:
            raise ValueError(
                f"the glitch time must be between 1 ns and 50 ms, not {self.glitch_ns} ns; "
                "1 ms rejects noise without delaying a real press"
            )
        if not self.glitch_ns <= self.quiet_ns <= 1_000_000_000:
            raise ValueError(
                f"the quiet time must lie between the glitch time and 1 s, not {self.quiet_ns} ns"
            )

    @classmethod
    def from_ms(cls, glitch_ms: float = 1.0, quiet_ms: float = 30.0) -> DebounceSettings:
        return cls(round(glitch_ms * 1_000_000), round(quiet_ms * 1_000_000))


@dataclass(frozen=True)
class Transition:
    """A confirmed press (pressed=True) or release, stamped at its first edge."""

    pressed: bool
    t_ns: int


class Phase(enum.Enum):
    IDLE = "idle"  # released and quiet: the next active edge is a candidate press
    ARMING = "arming"  # a candidate press, not yet confirmed
    DOWN = "down"  # a confirmed press; locked
    RELEASING = "releasing"  # line inactive after a press, waiting for the quiet time


class Debouncer:
    """One button's leading-edge debounce. Not thread-safe: the caller holds a lock."""

    def __init__(self, settings: DebounceSettings | None = None, *, active: bool = False, t_ns: int = 0):
        """Start at time `t_ns` with the line at `active`.

        A line already active at start is taken as a press in progress (a stuck or held
        button): it is down, locked, and emits nothing until it is released and quiet.
        """
        self.settings = settings or DebounceSettings()
        self.phase = Phase.DOWN if active else Phase.IDLE
        self.level = active
        self.last_edge_ns = t_ns  # time of the latest level change (or the start)
        self.now_ns = t_ns  # the latest time the machine has been told about
        self.stamp_ns: int | None = None  # first edge of the press/release being decided
        self.glitches = 0  # noise spikes rejected (health figure)
        self.late = 0  # edges stamped before a time already decided (clamped to it)

    @property
    def down(self) -> bool:
        """True while a confirmed press has not been released and quiet."""
        return self.phase in (Phase.DOWN, Phase.RELEASING)

    @property
    def pending_since(self) -> int | None:
        """The stamp of a candidate press not yet confirmed or rejected, else None."""
        return self.stamp_ns if self.phase is Phase.ARMING else None

    def deadline(self) -> int | None:
        """When the current decision falls due if no edge comes first; None if nothing waits."""
        if self.phase is Phase.ARMING:
            return self.last_edge_ns + self.settings.glitch_ns
        if self.phase is Phase.RELEASING:
            hold = self.settings.glitch_ns if self.level else self.settings.quiet_ns
            return self.last_edge_ns + hold
        return None

    def feed(self, active: bool, t_ns: int) -> list[Transition]:
        """The line is `active` from `t_ns` on. Returns the transitions this confirms."""
        if t_ns < self.now_ns:
            # One line's edges come in order, but the caller may already have decided up to a
            # later time (an edge delivered very late). Clamp it so a decision taken stays
            # taken, and count it: the caller should wait longer before deciding.
            self.late += 1
            t_ns = self.now_ns
        out = self.poll(t_ns)
        if active == self.level:
            return out  # no change of level (a missed edge, or a watchdog report)
        self.level = active
        self.last_edge_ns = t_ns
        if self.phase is Phase.IDLE and active:
            self.phase, self.stamp_ns = Phase.ARMING, t_ns
        elif self.phase is Phase.DOWN and not active:
            self.phase, self.stamp_ns = Phase.RELEASING, t_ns
        return out

    def poll(self, now_ns: int) -> list[Transition]:
        """Take every decision due by `now_ns`. Returns the transitions it confirms."""
        if now_ns > self.now_ns:
            self.now_ns = now_ns
        out: list[Transition] = []
        due = self.deadline()
        if due is None or due > self.now_ns:
            return out
        if self.phase is Phase.ARMING:
            assert self.stamp_ns is not None
            if self.level:
                self.phase = Phase.DOWN
                out.append(Transition(True, self.stamp_ns))
            else:
                self.phase, self.stamp_ns = Phase.IDLE, None
                self.glitches += 1
        elif self.phase is Phase.RELEASING:
            assert self.stamp_ns is not None
            if self.level:
                self.phase, self.stamp_ns = Phase.DOWN, None
            else:
                self.phase = Phase.IDLE
                out.append(Transition(False, self.stamp_ns))
                self.stamp_ns = None
        return out
