"""Who was first: presses on one clock → an honest verdict.

Pure functions, no I/O. Times are integer nanoseconds on the clock of one input path (the
kernel's CLOCK_MONOTONIC for the Pi's GPIO, the RP2040's counter for the firmware path);
a verdict never mixes clocks.

The rules of timing, each cited by its id in every verdict:

- ``timing.first-press``: a seat's first press after the call counts; later presses of the
  same seat are ignored (listed as evidence).
- ``timing.tie``: presses closer than the tie window are tied (exactly equal times always are).
  Ties chain: if A–B and B–C are each inside the window, A, B and C form one tied entry, since
  the referee cannot order A against B nor B against C. The window is shown on every verdict.
- ``timing.false-start``: a press before the call, or sooner after it than a human can react
  (default 100 ms), is a false start; that seat is not ranked.
- ``timing.held-at-arm``: a button held down when the contest is armed cannot win; not ranked.
- ``timing.no-press``: a seat that never pressed before the contest's timeout.

Margins are measured between the first presses of consecutive entries.

>>> v = arbitrate(Contest(arm_t_ns=0, seats=("Anne", "Marc")),
...               [Press("Marc", 400_000_000), Press("Anne", 350_000_000)])
>>> v.ranking, v.margins_ns
((('Anne',), ('Marc',)), (50000000,))
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from hardware.timing import TIE_WINDOW_NS, format_ns

__all__ = ["TIE_WINDOW_NS", "Contest", "Press", "PressVerdict", "Release", "arbitrate", "format_ns"]

DEFAULT_TIE_WINDOW_NS = TIE_WINDOW_NS["lgpio"]
DEFAULT_MIN_REACTION_NS = 100_000_000  # faster than any human answer to the call


@dataclass(frozen=True, order=True)
class Press:
    seat: str
    t_ns: int


@dataclass(frozen=True, order=True)
class Release:
    seat: str
    t_ns: int


@dataclass(frozen=True)
class Contest:
    """One contest: the call at `arm_t_ns` on clock `clock`, for `seats`."""

    arm_t_ns: int
    seats: tuple[str, ...]
    tie_window_ns: int = DEFAULT_TIE_WINDOW_NS
    min_reaction_ns: int = DEFAULT_MIN_REACTION_NS
    timeout_ns: int | None = None  # presses later than the call + timeout do not count
    clock: str = "lgpio"
    held_at_arm: frozenset[str] = frozenset()  # seats a source reported held at arm time

    def __post_init__(self) -> None:
        if self.tie_window_ns < 0 or self.min_reaction_ns < 0:
            raise ValueError("the tie window and the minimum reaction time cannot be negative")
        if self.timeout_ns is not None and self.timeout_ns <= 0:
            raise ValueError("the timeout must be positive")
        if len(set(self.seats)) != len(self.seats):
            raise ValueError("a seat is listed twice in the contest")


@dataclass(frozen=True)
class PressVerdict:
    """The outcome of one contest, with everything a disputing player may ask to see."""

    ranking: tuple[tuple[str, ...], ...]
    margins_ns: tuple[int, ...]
    tie_window_ns: int
    false_starts: tuple[str, ...]
    held_at_arm: tuple[str, ...]
    no_press: tuple[str, ...]
    arm_t_ns: int
    clock: str
    reaction_ns: Mapping[str, int] = field(default_factory=dict)  # first counted press − call
    ignored: tuple[Mapping[str, Any], ...] = ()  # presses that did not count, and why

    @property
    def winners(self) -> tuple[str, ...]:
        """The first entry: one seat, or several tied. Empty when nobody pressed validly."""
        return self.ranking[0] if self.ranking else ()

    @property
    def rule(self) -> str:
        if not self.ranking:
            return "timing.no-press"
        return "timing.tie" if len(self.ranking[0]) > 1 else "timing.first-press"

    def summary(self) -> str:
        window = format_ns(self.tie_window_ns)
        if not self.ranking:
            return f"no valid press (tie window {window})"
        first = self.ranking[0]
        leader = first[0]
        if len(first) > 1:
            return f"tie between {' and '.join(first)} (within the tie window of {window})"
        if len(self.ranking) == 1:
            return f"{leader} first, nobody else pressed (tie window {window})"
        return (
            f"{leader} first, by {format_ns(self.margins_ns[0])} over "
            f"{' and '.join(self.ranking[1])} (tie window {window})"
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "ranking": [list(entry) for entry in self.ranking],
            "margins_ns": list(self.margins_ns),
            "tie_window_ns": self.tie_window_ns,
            "false_starts": list(self.false_starts),
            "held_at_arm": list(self.held_at_arm),
            "no_press": list(self.no_press),
            "arm_t_ns": self.arm_t_ns,
            "clock": self.clock,
            "reaction_ns": dict(self.reaction_ns),
            "ignored": [dict(i) for i in self.ignored],
            "rule": self.rule,
            "summary": self.summary(),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PressVerdict:
        """Read a verdict back (from a journal or a record); raises ValueError when malformed."""
        try:
            ranking = tuple(tuple(str(s) for s in entry) for entry in data["ranking"])
            margins = tuple(int(m) for m in data.get("margins_ns", ()))
            verdict = cls(
                ranking=ranking,
                margins_ns=margins,
                tie_window_ns=int(data.get("tie_window_ns", DEFAULT_TIE_WINDOW_NS)),
                false_starts=tuple(str(s) for s in data.get("false_starts", ())),
                held_at_arm=tuple(str(s) for s in data.get("held_at_arm", ())),
                no_press=tuple(str(s) for s in data.get("no_press", ())),
                arm_t_ns=int(data.get("arm_t_ns", 0)),
                clock=str(data.get("clock", "unknown")),
                reaction_ns={str(k): int(v) for k, v in dict(data.get("reaction_ns", {})).items()},
                ignored=tuple(dict(i) for i in data.get("ignored", ())),
            )
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise ValueError(f"not a contest verdict: {exc}") from None
        if any(not entry for entry in ranking):
            raise ValueError("not a contest verdict: an empty ranking entry")
        if len(margins) != max(len(ranking) - 1, 0):
            raise ValueError("not a contest verdict: one margin is needed between each two entries")
        seen = [s for entry in ranking for s in entry]
        if len(set(seen)) != len(seen):
            raise ValueError("not a contest verdict: a seat is ranked twice")
        return verdict


def arbitrate(contest: Contest, presses: Iterable[Press], releases: Iterable[Release] = ()) -> PressVerdict:
    """Rank the presses of one contest. Input order does not matter; ties sort by seat order."""
    seat_order = {seat: i for i, seat in enumerate(contest.seats)}
    press_list = sorted(presses, key=lambda p: (p.t_ns, seat_order.get(p.seat, len(seat_order))))
    release_list = sorted(releases, key=lambda r: r.t_ns)
    ignored: list[dict[str, Any]] = []

    held = set(contest.held_at_arm) | _held_at(contest.arm_t_ns, press_list, release_list)
    deadline = None if contest.timeout_ns is None else contest.arm_t_ns + contest.timeout_ns
    earliest_valid = contest.arm_t_ns + contest.min_reaction_ns

    false_starts: set[str] = set()
    first: dict[str, int] = {}
    for press in press_list:
        rel = press.t_ns - contest.arm_t_ns
        if press.seat not in seat_order:
            ignored.append({"seat": press.seat, "t_ns": press.t_ns, "why": "not a seat of this contest"})
        elif press.t_ns < earliest_valid and press.seat not in first:
            false_starts.add(press.seat)
            why = "before the call" if rel < 0 else "faster than a human can react to the call"
            ignored.append({"seat": press.seat, "t_ns": press.t_ns, "why": f"false start: {why}"})
        elif press.seat in false_starts or press.seat in held:
            why = "held down at arm" if press.seat in held else "already false-started"
            ignored.append({"seat": press.seat, "t_ns": press.t_ns, "why": why})
        elif deadline is not None and press.t_ns > deadline:
            ignored.append({"seat": press.seat, "t_ns": press.t_ns, "why": "after the timeout"})
        elif press.seat in first:
            ignored.append({"seat": press.seat, "t_ns": press.t_ns, "why": "second press of the seat"})
        else:
            first[press.seat] = press.t_ns

    excluded = false_starts | held
    counted = sorted(
        ((t, seat) for seat, t in first.items() if seat not in excluded),
        key=lambda ts: (ts[0], seat_order[ts[1]]),
    )
    entries: list[list[tuple[int, str]]] = []
    for t, seat in counted:
        if entries and _tied(t - entries[-1][-1][0], contest.tie_window_ns):
            entries[-1].append((t, seat))
        else:
            entries.append([(t, seat)])

    ranking = tuple(tuple(seat for _, seat in entry) for entry in entries)
    margins = tuple(entries[i + 1][0][0] - entries[i][0][0] for i in range(len(entries) - 1))
    in_seat_order = sorted(seat_order, key=seat_order.__getitem__)
    return PressVerdict(
        ranking=ranking,
        margins_ns=margins,
        tie_window_ns=contest.tie_window_ns,
        false_starts=tuple(s for s in in_seat_order if s in false_starts),
        held_at_arm=tuple(s for s in in_seat_order if s in held),
        no_press=tuple(s for s in in_seat_order if s not in first and s not in excluded),
        arm_t_ns=contest.arm_t_ns,
        clock=contest.clock,
        reaction_ns={seat: t - contest.arm_t_ns for t, seat in counted},
        ignored=tuple(ignored),
    )


def _tied(gap_ns: int, window_ns: int) -> bool:
    return gap_ns == 0 or gap_ns < window_ns


def _held_at(arm_t_ns: int, presses: list[Press], releases: list[Release]) -> set[str]:
    """Seats whose last edge before the arm time was a press."""
    last: dict[str, tuple[int, bool]] = {}
    for t, seat, down in sorted(
        [(p.t_ns, p.seat, True) for p in presses] + [(r.t_ns, r.seat, False) for r in releases]
    ):
        if t < arm_t_ns:
            last[seat] = (t, down)
    return {seat for seat, (_, down) in last.items() if down}
