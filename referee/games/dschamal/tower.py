"""The Dschamál Tower: keep or give the drawn stone, the camel's black stone, collapses, points.

A player's stones in front are his or her tower, foundation first; black stones lie beside it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from referee.games.base import EventError, RuleViolation, Verdict
from referee.games.dschamal import rules
from referee.games.dschamal.state import Round, Table, Task
from referee.games.dschamal.stones import BLACK, Draw, shape_of

TOWER_TARGET = 7
BLACK_LIMIT = 10


def _owners(t: Table, stone: str) -> list[str]:
    if stone == BLACK:
        return [p for p in t.players if t.black[t.i(p)] > 0]
    shape = shape_of(stone)
    return [p for p in t.players if any(shape_of(s) == shape for s in t.stones(p))]


def faster_drew(t: Table, rnd: Round, top: str | None) -> None:
    """The faster (first) player's draw decides; queues a give or camel choice where one is due."""
    faster, slower = rnd.order[0], rnd.order[1]
    draw: Draw = rnd.draw_of(faster)
    names = t.options.names
    evidence: dict[str, Any] = {"first": faster, "opponent": slower, "drawn": draw.to_json()}
    if draw.several:
        _several(t, rnd, faster, slower, draw, top, evidence)
        return
    t.set(round=replace(rnd, winner=faster, loser=slower))
    if draw.is_camel:
        evidence["blacks"] = {p: t.black[t.i(p)] for p in t.players}
        t.set(tasks=(Task("camel", faster),))
        _say(
            t,
            rules.TOWER_CAMEL,
            f"{faster} drew the camel: {faster} may give or take a black stone",
            evidence,
        )
        return
    stone = BLACK if draw.is_black else draw.coloured[0]
    what = names.stone(stone)
    owners = _owners(t, stone)
    evidence["owners"] = owners
    if not owners:
        if stone == BLACK:
            t.black_from_bag(faster)
            _say(
                t,
                rules.TOWER_KEEP,
                f"{faster} wins and keeps {what}: nobody owns a black stone yet",
                evidence,
            )
        else:
            t.from_bag(stone, faster)
            _say(
                t,
                rules.TOWER_KEEP,
                f"{faster} wins and builds the {what} into his or her tower: nobody owns a "
                f"{names.shape(shape_of(stone))} yet",
                {**evidence, "build": rules.TOWER_BUILD.text},
            )
        return
    if faster in owners:
        t.set(tasks=(Task("give", faster, stone=stone),))
        _say(
            t,
            rules.TOWER_GIVE,
            f"{faster} wins and owns one already: {faster} gives {what} to a player",
            evidence,
        )
        return
    if t.options.tower_owned_elsewhere == "give":
        t.set(tasks=(Task("give", faster, stone=stone),))
        _say(
            t,
            rules.TOWER_ELSEWHERE,
            f"{faster} wins; {', '.join(owners)} owns that shape, {faster} does not: {faster} gives {what} to a player",
            evidence,
        )
        return
    _say(
        t,
        rules.TOWER_ELSEWHERE,
        f"{faster} wins; {', '.join(owners)} owns that shape, {faster} does not: {what} goes back into the bag",
        evidence,
    )


def _several(
    t: Table, rnd: Round, faster: str, slower: str, draw: Draw, top: str | None, evidence: dict[str, Any]
) -> None:
    names = t.options.names
    tower = t.stones(faster)
    if tower:
        if top is None:
            raise EventError(f'say which stone is on top of {faster}\'s tower ("top")')
        if top not in tower:
            raise RuleViolation(f"the {top} is not in {faster}'s tower", rules.TOWER_SEVERAL)
        t.to_bag(top, faster)
        evidence["top_stone_back"] = top
    elif top:
        raise RuleViolation(f"{faster} has no tower yet, so no top stone goes back", rules.TOWER_SEVERAL)
    t.set(round=replace(rnd, winner=slower, loser=faster))
    lost = f"; the {names.stone(top)} from the top of the tower goes back" if top else ""
    if draw.coloured and t.options.tower_two_stones == "opponent":
        for s in draw.coloured:
            t.from_bag(s, slower)
        rest = f"{slower} builds {', '.join(names.stone(s) for s in draw.coloured)} into his or her tower"
    else:
        rest = "every drawn stone goes back into the bag"
    _say(
        t,
        rules.TOWER_SEVERAL,
        f"{faster} drew {names.draw(draw)} at once and loses{lost}; {rest}; {slower} becomes lord of the stones",
        {**evidence, "coloured_stones": rules.TOWER_SEVERAL_COLOURED.text},
    )


def give(t: Table, task: Task, to: str) -> None:
    names = t.options.names
    if to not in t.players or to == task.player:
        raise RuleViolation(
            f"{task.player} gives the stone to a fellow player: one of "
            f"{', '.join(p for p in t.players if p != task.player)}",
            rules.TOWER_GIVE,
        )
    if task.stone == BLACK:
        t.black_from_bag(to)
        _say(t, rules.TOWER_BLACK_FRONT, f"{task.player} gives a black stone to {to}", {"to": to})
    else:
        t.from_bag(task.stone, to)
        _say(
            t,
            rules.TOWER_BUILD,
            f"{task.player} gives the {names.stone(task.stone)} to {to}, who builds it into his or her tower",
            {"to": to, "stone": task.stone},
        )


def camel_choices(players: Sequence[str], black: Sequence[int], me: str) -> list[str]:
    """The camel's moves: give one of my black stones to a fellow player, take one, or neither."""
    count = dict(zip(players, black, strict=True))
    moves = []
    if count[me] > 0:
        moves += [f"give:{p}" for p in players if p != me]
    moves += [f"take:{p}" for p in players if p != me and count[p] > 0]
    return [*moves, "none"]


def camel(t: Table, task: Task, move: str) -> None:
    legal = camel_choices(t.players, t.black, task.player)
    if move not in legal:
        raise RuleViolation(
            f"{task.player}'s camel move must be one of {', '.join(legal)}, not {move!r}", rules.TOWER_CAMEL
        )
    me = task.player
    if move == "none":
        _say(t, rules.TOWER_CAMEL, f"{me} neither gives nor takes a black stone; the camel goes back", {})
        return
    verb, other = move.split(":", 1)
    if verb == "give":
        t.black_hand(me, other)
        _say(t, rules.TOWER_CAMEL, f"{me} gives a black stone to {other}; the camel goes back", {"to": other})
    else:
        t.black_hand(other, me)
        _say(
            t,
            rules.TOWER_CAMEL,
            f"{me} takes a black stone from {other}; the camel goes back",
            {"from": other},
        )


def collapse(t: Table, player: str, fallen: Sequence[str]) -> None:
    tower = t.stones(player)
    if not tower:
        raise RuleViolation(f"{player} has no tower that could collapse", rules.TOWER_COLLAPSE)
    if not fallen:
        raise EventError('say which stones fell ("fallen"); a tower rebuilt as it stood needs no entry')
    if len(set(fallen)) != len(fallen):
        raise EventError("a fallen stone is listed twice")
    for s in fallen:
        if s not in tower:
            raise RuleViolation(f"the {s} is not in {player}'s tower", rules.TOWER_COLLAPSE)
        if s == tower[0]:
            raise RuleViolation(
                f"the {s} is {player}'s foundation, which remains standing", rules.TOWER_COLLAPSE
            )
    for s in fallen:
        t.to_bag(s, player)
    names = t.options.names
    _say(
        t,
        rules.TOWER_COLLAPSE,
        f"{player}'s tower collapsed: {', '.join(names.stone(s) for s in fallen)} go back into the bag",
        {"player": player, "fallen": list(fallen), "standing": list(t.stones(player))},
    )


def ended(players: Sequence[str], towers: Sequence[Sequence[str]], black: Sequence[int]) -> str:
    """Why the Tower game is over now, or ''."""
    full = [p for p, tower in zip(players, towers, strict=True) if len(tower) >= TOWER_TARGET]
    if full:
        return f"{' and '.join(full)} built seven stones into the tower"
    if sum(black) >= BLACK_LIMIT:
        return "ten black stones lie on the table"
    return ""


def victory_points(
    players: Sequence[str], towers: Sequence[Sequence[str]], black: Sequence[int]
) -> dict[str, dict[str, int]]:
    """Each player's points: tower stones, the black-stone bonus or malus, and the total.

    Only players with at least one black stone can have the most or the second most of them.

    >>> victory_points(["Marc", "Werner", "Herman", "Anne"], [[""] * 7, [""] * 6, [""] * 5, [""] * 4],
    ...                [1, 2, 3, 3])["Herman"]
    {'tower': 5, 'black': 2, 'total': 7}
    """
    blacks = dict(zip(players, black, strict=True))
    levels = sorted({b for b in blacks.values() if b > 0}, reverse=True)
    most = [p for p, b in blacks.items() if levels and b == levels[0]]
    second = [p for p, b in blacks.items() if len(levels) > 1 and b == levels[1]] if len(most) == 1 else []
    result = {}
    for p, tower in zip(players, towers, strict=True):
        if p in most:
            black_points = 3 if len(most) == 1 else 2
        elif p in second:
            black_points = 1
        else:
            black_points = -blacks[p]
        result[p] = {"tower": len(tower), "black": black_points, "total": len(tower) + black_points}
    return result


def _say(t: Table, rule: Any, summary: str, evidence: dict[str, Any]) -> None:
    t.say(Verdict(rule, summary, evidence))
    t.set(last=summary)
