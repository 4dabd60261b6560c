"""The result of a duel for Dschamál: the three ways the faster player wins, the five ways the
slower one wins, the camel calls, and the duel over a decision stone.

`decide` reads what the faster player drew (and, when a call makes it matter, what the slower
one held) and returns the `Outcome`, a repeat, or the need to see the slower player's stone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.games.base import Rule
from referee.games.dschamal import rules
from referee.games.dschamal.outcome import Outcome
from referee.games.dschamal.state import Round, Table
from referee.games.dschamal.stones import Draw, shape_of


@dataclass(frozen=True)
class Repeat:
    """The duel is repeated with every stone back in the bag."""

    summary: str
    evidence: dict[str, Any]
    rule: Rule = rules.BOTH_WRONG


NEED_SLOWER = "need the slower player's stone"


def decide(t: Table, rnd: Round) -> Outcome | Repeat | str:
    """The duel's result once the faster player's draw is known (see the module docstring)."""
    faster, slower = rnd.order[0], rnd.order[1]
    draw: Draw = rnd.draw_of(faster)
    slower_draw: Draw | None = rnd.draw_of(slower)
    evidence: dict[str, Any] = {
        "faster": faster,
        "slower": slower,
        "drawn": draw.to_json(),
        "camel_calls": list(rnd.calls),
    }
    if t.decision:
        evidence["decision_stone"] = t.decision
    if slower_draw is not None:
        evidence["slower_drew"] = slower_draw.to_json()
    if draw.black or draw.camel:
        evidence["black_stones"] = rules.BLACK_BACK.text
    if draw.several:
        return _several(t, faster, slower, draw, evidence)

    faster_wrong = faster in rnd.calls and not draw.is_camel
    slower_called = slower in rnd.calls
    if slower_called and not draw.is_camel and slower_draw is None:
        # Whether the slower player really held the camel matters only to find out that both
        # called wrongly, or (option forfeits) to take a win away from a wrong caller.
        if faster_wrong:
            return NEED_SLOWER
        if (
            t.options.slower_camel_call == "forfeits"
            and _base(t, faster, slower, draw, rnd, evidence).winner == slower
        ):
            return NEED_SLOWER
    slower_wrong = slower_called and (draw.is_camel or (slower_draw is not None and not slower_draw.is_camel))
    if faster_wrong and slower_wrong:
        return Repeat(
            f'{faster} and {slower} both called "I am the camel!" wrongly: the duel is repeated', evidence
        )
    outcome = _base(t, faster, slower, draw, rnd, evidence)
    if slower_wrong and outcome.winner == slower and t.options.slower_camel_call == "forfeits":
        return _forfeit(t, faster, slower, slower_draw, evidence)
    if slower_wrong:
        outcome.evidence["slower_call"] = rules.SLOWER_CALL_IGNORED.text
    return outcome


def _base(t: Table, faster: str, slower: str, draw: Draw, rnd: Round, evidence: dict[str, Any]) -> Outcome:
    names = t.options.names
    ev = dict(evidence)
    called = faster in rnd.calls
    if t.decision:
        return _decision(t, faster, slower, draw, called, ev)
    if called and not draw.is_camel:
        if draw.is_black:
            return Outcome(
                rules.WRONG_CALL,
                f'{faster} called "I am the camel!" but drew a black stone: {slower} wins and takes a stone '
                f"of his or her choice from {faster}",
                slower,
                faster,
                takes=[(slower, faster)],
                evidence=ev,
            )
        stone = draw.coloured[0]
        return Outcome(
            rules.WRONG_CALL,
            f'{faster} called "I am the camel!" but drew the {names.stone(stone)}: {slower} wins and receives it',
            slower,
            faster,
            gets=[(slower, stone)],
            evidence=ev,
        )
    if draw.is_camel:
        if called:
            return Outcome(
                rules.CAMEL_CALLED,
                f'{faster} drew the camel and called "I am the camel!": {faster} wins and takes a stone of '
                f"his or her choice from {slower}; the camel goes back into the bag",
                faster,
                slower,
                takes=[(faster, slower)],
                evidence=ev,
            )
        return Outcome(
            rules.CAMEL_UNCALLED,
            f'{faster} drew the camel without calling "I am the camel!": {slower} wins and takes a stone of '
            f"his or her choice from {faster}; the camel goes back into the bag",
            slower,
            faster,
            takes=[(slower, faster)],
            evidence=ev,
        )
    if draw.is_black:
        return Outcome(
            rules.BLACK_DRAWN,
            f"{faster} drew a black stone: {slower} wins and takes a stone of his or her choice from {faster}; "
            "the black stone goes back into the bag",
            slower,
            faster,
            takes=[(slower, faster)],
            evidence=ev,
        )
    stone = draw.coloured[0]
    shape = shape_of(stone)
    ev["owners"] = {p: t.owns(p, shape) for p in (faster, slower)}
    if t.owns(faster, shape):
        return Outcome(
            rules.FASTER_OWNS,
            f"{faster} wins: he or she already owns {names.a_shape(shape)} and keeps the {names.stone(stone)}",
            faster,
            slower,
            gets=[(faster, stone)],
            evidence=ev,
        )
    if t.owns(slower, shape):
        return Outcome(
            rules.OPPONENT_OWNS,
            f"{faster} wins: {slower} owns {names.a_shape(shape)}; {faster} receives the {names.stone(stone)} and "
            f"{names.a_shape(shape)} from {slower}",
            faster,
            slower,
            gets=[(faster, stone)],
            hands=[(slower, faster, shape)],
            evidence=ev,
        )
    return Outcome(
        rules.NOBODY_OWNS,
        f"neither {faster} nor {slower} owns {names.a_shape(shape)}: {slower} wins and receives the {names.stone(stone)}",
        slower,
        faster,
        gets=[(slower, stone)],
        evidence=ev,
    )


def _decision(t: Table, faster: str, slower: str, draw: Draw, called: bool, ev: dict[str, Any]) -> Outcome:
    names = t.options.names
    shape = shape_of(t.decision)
    decision = names.stone(t.decision)
    stone = draw.one_coloured
    if called and draw.is_camel:
        return Outcome(
            rules.DECISION_CAMEL,
            f'{faster} drew the camel and called "I am the camel!": {faster} wins the decision stone '
            f"({decision}); the camel goes back into the bag",
            faster,
            slower,
            decision_to=faster,
            evidence=ev,
        )
    if not called and stone is not None and shape_of(stone) == shape:
        return Outcome(
            rules.DECISION_SHAPE,
            f"{faster} drew the {names.stone(stone)}, the decision stone's shape: {faster} wins it and the "
            f"decision stone ({decision})",
            faster,
            slower,
            gets=[(faster, stone)],
            decision_to=faster,
            evidence=ev,
        )
    why = (
        'called "I am the camel!" wrongly'
        if called
        else f"drew {names.draw(draw)}, not {names.a_shape(shape)}"
    )
    return Outcome(
        rules.DECISION_LOST,
        f"{faster} {why}: {slower} wins the decision stone ({decision}); the drawn stone goes back into the bag",
        slower,
        faster,
        decision_to=slower,
        evidence=ev,
    )


def _several(t: Table, faster: str, slower: str, draw: Draw, ev: dict[str, Any]) -> Outcome:
    names = t.options.names
    if t.decision:
        # The decision duel's own sentence ("The drawn stone is put back into the bag") governs
        # every stone of a lost decision duel.
        return Outcome(
            rules.DECISION_LOST,
            f"{faster} drew {names.draw(draw)} at once and loses: {slower} wins the decision stone; the "
            "drawn stones go back into the bag",
            slower,
            faster,
            decision_to=slower,
            evidence={**ev, "also": rules.SEVERAL.text},
        )
    received = (
        f"receives {', '.join(names.stone(s) for s in draw.coloured)}"
        if draw.coloured
        else "receives nothing"
    )
    return Outcome(
        rules.SEVERAL,
        f"{faster} drew {names.draw(draw)} at once and loses: {slower} wins and {received}; black stones go back "
        "into the bag",
        slower,
        faster,
        gets=[(slower, s) for s in draw.coloured],
        evidence=ev,
    )


def _forfeit(t: Table, faster: str, slower: str, slower_draw: Draw | None, ev: dict[str, Any]) -> Outcome:
    names = t.options.names
    if t.decision:
        return Outcome(
            rules.SLOWER_CALL_FORFEITS,
            f'{slower} called "I am the camel!" wrongly and forfeits: {faster} wins the decision stone',
            faster,
            slower,
            decision_to=faster,
            evidence=ev,
        )
    stone = slower_draw.one_coloured if slower_draw is not None else None
    if stone is not None:
        return Outcome(
            rules.SLOWER_CALL_FORFEITS,
            f'{slower} called "I am the camel!" wrongly and forfeits: {faster} wins and receives '
            f"{slower}'s {names.stone(stone)}",
            faster,
            slower,
            gets=[(faster, stone)],
            evidence=ev,
        )
    return Outcome(
        rules.SLOWER_CALL_FORFEITS,
        f'{slower} called "I am the camel!" wrongly with a black stone and forfeits: {faster} wins and takes a '
        f"stone of his or her choice from {slower}",
        faster,
        slower,
        takes=[(faster, slower)],
        evidence=ev,
    )
