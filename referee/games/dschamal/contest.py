"""Who was faster: a button verdict (or the table's own judgement) read for a Dschamál contest.

The buttons rank the presses (`referee.arbitration`); this module turns that ranking into the
places the rules need, and decides when the contest is repeated:

- a tie for the fastest place repeats the contest (``dschamal.duel.tie``);
- nobody ranked (no press, only false starts) repeats it (``dschamal.contest.no-press``);
- a false start or a button held at the call is not ranked and counts as slower than every
  valid press (``dschamal.contest.false-start``), or repeats the contest with option
  ``false_start = repeat``;
- for the Trio, a tie between the second and the slowest is carried along: it only matters
  (and then repeats the contest) when the fastest fulfils neither condition.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.arbitration import PressVerdict, format_ns
from referee.games.base import EventError, Rule
from referee.games.dschamal import rules

TIE_CHOICE = "tie"


@dataclass(frozen=True)
class Reading:
    """The places of one contest, or why it is repeated."""

    repeat: bool
    rule: Rule
    summary: str
    order: tuple[str, ...] = ()  # fastest first
    second_known: bool = True
    evidence: Mapping[str, Any] | None = None


def read_verdict(event: Mapping[str, Any], seats: tuple[str, ...], false_start: str) -> Reading:
    """Read a ``contest`` event (a PressVerdict as JSON) for a contest between `seats`."""
    try:
        verdict = PressVerdict.from_json(event)
    except ValueError as exc:
        raise EventError(str(exc)) from None
    ranked = [s for entry in verdict.ranking for s in entry]
    strangers = [s for s in ranked if s not in seats]
    if strangers:
        raise EventError(
            f"the contest verdict ranks {', '.join(strangers)}, who is not in this contest "
            f"({', '.join(seats)}); was it meant for another contest?"
        )
    evidence = verdict.to_json()
    fouls = [s for s in seats if s in verdict.false_starts or s in verdict.held_at_arm]
    if fouls and false_start == "repeat":
        return Reading(
            True, rules.FALSE_START, f"false start by {' and '.join(fouls)}: repeated", evidence=evidence
        )
    if not verdict.ranking:
        return Reading(True, rules.NO_PRESS, "nobody placed a hand validly: repeated", evidence=evidence)
    if len(verdict.ranking[0]) > 1:
        tied = " and ".join(verdict.ranking[0])
        return Reading(True, rules.TIE, f"{tied} were equally fast: repeated", evidence=evidence)
    fastest = next(iter(verdict.ranking[0]))  # a single seat: ties were repeated above
    entries = [list(e) for e in verdict.ranking[1:]]
    unranked = [s for s in seats if s not in ranked]
    if unranked:
        entries.append(unranked)  # false starts, held buttons and no-shows are slower than any press
    order = (fastest, *(s for e in entries for s in e))
    second_known = not entries or len(entries[0]) == 1
    margin = f" by {format_ns(verdict.margins_ns[0])}" if verdict.margins_ns else ""
    rule = rules.FALSE_START if fouls else rules.FASTEST
    note = f" ({' and '.join(fouls)}: false start)" if fouls else ""
    return Reading(False, rule, f"{fastest} was faster{margin}{note}", order, second_known, evidence)


def read_judged(event: Mapping[str, Any], seats: tuple[str, ...]) -> Reading:
    """Read a ``judged`` event: the other players decide who was fastest (and, in a Trio, second)."""
    fastest = event.get("fastest")
    if fastest == TIE_CHOICE:
        return Reading(True, rules.TIE, "the table judged a tie: repeated", evidence=dict(event))
    if fastest not in seats:
        raise EventError(f'"fastest" must be one of {", ".join(seats)} or "tie", not {fastest!r}')
    rest = [s for s in seats if s != fastest]
    second_known = True
    if len(seats) == 3:
        second = event.get("second", TIE_CHOICE)
        if second == TIE_CHOICE:
            second_known = False
        elif second in rest:
            rest.sort(key=lambda s: s != second)
        else:
            raise EventError(f'"second" must be one of {", ".join(rest)} or "tie", not {second!r}')
    elif "second" in event:
        raise EventError('"second" is only judged in a Trio')
    return Reading(
        False, rules.JUDGED, f"the table judged {fastest} faster", (fastest, *rest), second_known, dict(event)
    )
