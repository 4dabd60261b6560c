"""The Dschamál Quartet for children: keep a stone of a shape you own; first quartet wins."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

from referee.games.base import Verdict
from referee.games.dschamal import rules
from referee.games.dschamal.state import Round, Table, Task
from referee.games.dschamal.stones import Draw, shape_of

QUARTET = 4


def _keep(t: Table, player: str, draw: Draw) -> str | None:
    """The drawn stone if `player` may keep it: exactly one coloured stone of a shape he or she owns."""
    stone = draw.one_coloured
    if stone is not None and any(shape_of(s) == shape_of(stone) for s in t.stones(player)):
        return stone
    return None


def faster_drew(t: Table, rnd: Round) -> None:
    faster, slower = rnd.order[0], rnd.order[1]
    draw: Draw = rnd.draw_of(faster)
    names = t.options.names
    evidence = {"faster": faster, "slower": slower, "drawn": draw.to_json()}
    stone = _keep(t, faster, draw)
    if stone is not None:
        t.from_bag(stone, faster)
        summary = f"{faster} owns {names.a_shape(shape_of(stone))} and keeps the {names.stone(stone)}"
        t.say(Verdict(rules.QUARTET_KEEP, summary, evidence))
        t.set(last=summary, round=replace(rnd, winner=faster, loser=slower))
        return
    summary = (
        f"{faster} drew {names.draw(draw)} and throws it back into the bag; now {slower}'s stone is checked"
    )
    t.say(Verdict(rules.QUARTET_BACK, summary, evidence))
    t.set(last=summary, tasks=(Task("draw", slower, role="slower"),))


def slower_drew(t: Table, rnd: Round) -> None:
    slower = rnd.order[1]
    draw: Draw = rnd.draw_of(slower)
    names = t.options.names
    stone = _keep(t, slower, draw)
    evidence = {"slower": slower, "drawn": draw.to_json()}
    if stone is not None:
        t.from_bag(stone, slower)
        summary = f"{slower} owns {names.a_shape(shape_of(stone))} and keeps the {names.stone(stone)}"
        t.set(round=replace(rnd, winner=slower, loser=rnd.order[0]))
    else:
        summary = f"{slower} drew {names.draw(draw)}, which he or she does not own: back into the bag"
    t.say(Verdict(rules.QUARTET_SLOWER, summary, evidence))
    t.set(last=summary)


def best_count(stones: Sequence[str]) -> int:
    """The most stones of one shape among `stones`: the Quartet's score."""
    return max(Counter(shape_of(s) for s in stones).values(), default=0)


def quartet_holders(t: Table) -> list[str]:
    return [p for p in t.players if best_count(t.stones(p)) >= QUARTET]
