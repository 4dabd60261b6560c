"""The Dschamál Trio: three players draw; conditions A and B decide, fastest first.

`decide` is called once the fastest player's draw is known and again after the second
fastest's; it returns the `Outcome`, a repeat, or the need to see the second fastest's stone.
"""

from __future__ import annotations

from typing import Any

from referee.games.dschamal import rules
from referee.games.dschamal.duel import Repeat
from referee.games.dschamal.outcome import Outcome
from referee.games.dschamal.state import Round, Table
from referee.games.dschamal.stones import Draw, shape_of

NEED_SECOND = "need the second fastest player's stone"


def _condition(t: Table, rnd: Round, player: str) -> tuple[str, str]:
    """Which condition `player`'s draw fulfils: ("A", shape), ("B", ""), or ("", why not)."""
    draw: Draw = rnd.draw_of(player)
    names = t.options.names
    if draw.is_camel:
        if player in rnd.calls:
            return "B", ""
        return "", 'drew the camel without calling "I am the camel!"'
    stone = draw.one_coloured
    if stone is None:
        return "", f"drew {names.draw(draw)}"
    shape = shape_of(stone)
    if any(t.owns(p, shape) for p in rnd.seats):
        return "A", shape
    return "", f"drew the {names.stone(stone)}, a shape no participant owns"


def decide(t: Table, rnd: Round) -> Outcome | Repeat | str:
    fastest = rnd.order[0]
    second = rnd.order[1] if rnd.second_known else ""
    slowest = rnd.order[2] if rnd.second_known else ""
    f_draw: Draw = rnd.draw_of(fastest)
    evidence: dict[str, Any] = {
        "fastest": fastest,
        "second": second or None,
        "slowest": slowest or None,
        "drawn": {p: d.to_json() for p, d in rnd.draws},
        "camel_calls": list(rnd.calls),
    }
    if f_draw.several:
        evidence["several"] = rules.TRIO_SEVERAL.text
    if t.decision:
        return _decision(t, rnd, fastest, second, slowest, evidence)
    cond, why = _condition(t, rnd, fastest)
    if cond:
        return _win(t, rnd, fastest, cond, evidence, first=True)
    if not rnd.second_known:
        return Repeat(
            f"{fastest} {why}, and the second and slowest places cannot be told apart: the contest is repeated",
            evidence,
            rules.TRIO_TIE_SECOND,
        )
    s_draw: Draw | None = rnd.draw_of(second)
    if s_draw is None:
        return NEED_SECOND
    cond2, why2 = _condition(t, rnd, second)
    if cond2:
        return _win(t, rnd, second, cond2, {**evidence, "fastest_failed": why}, first=False)
    names = t.options.names
    stones = [*f_draw.coloured, *s_draw.coloured]
    got = ", ".join(names.stone(s) for s in stones) or "nothing (no coloured stone was drawn)"
    return Outcome(
        rules.TRIO_SLOWEST,
        f"{fastest} {why} and {second} {why2}: {slowest} wins and receives {got}",
        slowest,
        gets=[(slowest, s) for s in stones],
        evidence=evidence,
    )


def _win(t: Table, rnd: Round, winner: str, cond: str, evidence: dict[str, Any], first: bool) -> Outcome:
    names = t.options.names
    others = [p for p in rnd.seats if p != winner]
    extra: list[tuple[str, str]] = []
    note = ""
    if not first:
        fastest = rnd.order[0]
        f_coloured = rnd.draw_of(fastest).coloured
        if f_coloured and t.options.trio_fastest_stone == "winner":
            extra = [(winner, s) for s in f_coloured]
            note = f"; {winner} also receives {fastest}'s drawn stone"
        elif f_coloured:
            note = f"; {fastest}'s drawn stone goes back into the bag"
        evidence["fastest_stone"] = rules.TRIO_FASTEST_STONE.text
    if cond == "B":
        evidence["condition"] = rules.TRIO_COND_B.text
        return Outcome(
            rules.TRIO_CAMEL,
            f'{winner} drew the camel and called "I am the camel!": {winner} wins and takes a stone of his or '
            f"her choice from {' and '.join(others)}{note}",
            winner,
            gets=extra,
            takes=[(winner, p) for p in others],
            evidence=evidence,
        )
    stone = rnd.draw_of(winner).coloured[0]
    shape = shape_of(stone)
    owners = [p for p in others if t.owns(p, shape)]
    evidence["owners"] = owners
    from_whom = f" and {names.a_shape(shape)} from {' and '.join(owners)}" if owners else ""
    rule = rules.TRIO_RECEIVES if first else rules.TRIO_SECOND
    return Outcome(
        rule,
        f"{winner} drew the {names.stone(stone)}, a shape a participant owns (condition A): {winner} wins and "
        f"receives it{from_whom}{note}",
        winner,
        gets=[(winner, stone), *extra],
        hands=[(p, winner, shape) for p in owners],
        evidence={**evidence, "condition": rules.TRIO_COND_A.text},
    )


def _decision(
    t: Table, rnd: Round, fastest: str, second: str, slowest: str, evidence: dict[str, Any]
) -> Outcome | Repeat:
    names = t.options.names
    draw: Draw = rnd.draw_of(fastest)
    shape = shape_of(t.decision)
    decision = names.stone(t.decision)
    evidence["decision_stone"] = t.decision
    stone = draw.one_coloured
    if draw.is_camel and fastest in rnd.calls:
        return Outcome(
            rules.DECISION_CAMEL,
            f'{fastest} drew the camel and called "I am the camel!": {fastest} wins the decision stone ({decision})',
            fastest,
            decision_to=fastest,
            evidence=evidence,
        )
    if stone is not None and shape_of(stone) == shape:
        return Outcome(
            rules.DECISION_SHAPE,
            f"{fastest} drew the {names.stone(stone)}: {fastest} wins it and the decision stone ({decision})",
            fastest,
            gets=[(fastest, stone)],
            decision_to=fastest,
            evidence=evidence,
        )
    if not second:
        return Repeat(
            f"{fastest} did not win the decision stone, and the second and slowest places cannot be told apart: "
            "the contest is repeated",
            evidence,
            rules.TRIO_TIE_SECOND,
        )
    got = ", ".join(names.stone(s) for s in draw.coloured)
    rest = f"; {slowest} receives {got}" if got else ""
    return Outcome(
        rules.TRIO_NO_OWNER,
        f"{fastest} drew {names.draw(draw)}: {second} receives the decision stone ({decision}){rest}",
        second,
        gets=[(slowest, s) for s in draw.coloured],
        decision_to=second,
        evidence=evidence,
    )
