"""Winning stones and the end at seven (Duel and Trio).

Two readings (option ``winning_stones``):

- ``out-of-bag`` (default): "The collected stones become winning stones as soon as all four
  stones of the same shape have been fished out of the bag." Every holder's stones of that
  shape turn into winning stones, as in the Trio example where Carl and Anne share the discs.
- ``in-front``: "As soon as all four stones of one shape lie in front of one player, these
  stones become winning stones."

Stones are checked when a contest has been carried out completely (every stone received).
"""

from __future__ import annotations

from referee.games.base import Verdict
from referee.games.dschamal import rules
from referee.games.dschamal.state import Table
from referee.games.dschamal.stones import SHAPES, shape_of

TARGET = 7


def convert(t: Table) -> None:
    """Turn the stones that became winning stones into winning stones, with a verdict for each shape."""
    names = t.options.names
    out_of_bag = t.options.winning_stones == "out-of-bag"
    in_bag = {shape_of(s) for s in t.bag}
    if t.decision:
        in_bag.add(shape_of(t.decision))
    by_shape: dict[str, dict[str, list[str]]] = {}
    for p in t.players:
        for s in t.stones(p):
            by_shape.setdefault(shape_of(s), {}).setdefault(p, []).append(s)
    for shape in SHAPES:
        holders = by_shape.get(shape)
        if not holders or (out_of_bag and shape in in_bag):
            continue
        if not out_of_bag:
            holders = {p: stones for p, stones in holders.items() if len(stones) == 4}
            if not holders:
                continue
        for p, stones in holders.items():
            t.make_winning(p, stones)
        who = " and ".join(f"{p} ({len(s)})" for p, s in holders.items())
        t.say(
            Verdict(
                rules.WINNING_OUT_OF_BAG if out_of_bag else rules.WINNING_IN_FRONT,
                f"all four {names.shape(shape)} stones are out of the bag: winning stones for {who}"
                if out_of_bag
                else f"all four {names.shape(shape)} stones lie in front of {who}: winning stones",
                {"shape": shape, "holders": holders},
            )
        )


def seven(t: Table) -> tuple[str, ...]:
    """The players who won by reaching seven winning stones (empty while nobody has)."""
    counts = {p: len(t.winning[t.i(p)]) for p in t.players}
    reached = [p for p, n in counts.items() if n >= TARGET]
    if not reached:
        return ()
    if len(reached) == 1:
        t.say(Verdict(rules.SEVEN, f"{reached[0]} has {counts[reached[0]]} winning stones and wins", counts))
        return (reached[0],)
    if t.options.simultaneous_seven == "most":
        top = max(counts[p] for p in reached)
        reached = [p for p in reached if counts[p] == top]
    names = " and ".join(reached)
    verb = "wins" if len(reached) == 1 else "share the victory"
    t.say(Verdict(rules.SEVEN_AT_ONCE, f"seven winning stones reached at once: {names} {verb}", counts))
    return tuple(reached)


def most_winning(t: Table) -> tuple[str, ...]:
    counts = {p: len(t.winning[t.i(p)]) for p in t.players}
    top = max(counts.values())
    return tuple(p for p, n in counts.items() if n == top)
