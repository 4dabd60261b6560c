"""The event handlers: each reads one event type, checks it against what the game waits for, and
makes its moves on a `Table`. A refused event raises with a sentence for the scorekeeper.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from referee.games.base import EventError, RuleViolation, Verdict
from referee.games.dschamal import console, duel, order, quartet, rules, tower, trio
from referee.games.dschamal.contest import Reading, read_judged, read_verdict
from referee.games.dschamal.outcome import Outcome, execute, reach_choices, takeable
from referee.games.dschamal.state import DschamalState, Round, Table, Task
from referee.games.dschamal.stones import BLACK, CAMEL, NOTHING, Draw, coloured_stone

SETUP_RULE = {"duel": rules.SETUP_DUEL, "trio": rules.SETUP_TRIO, "quartet": rules.SETUP_QUARTET}
FIRST_RULE = {
    "duel": rules.FIRST_DUEL,
    "tower": rules.FIRST_DUEL,
    "trio": rules.FIRST_TRIO,
    "quartet": rules.FIRST_QUARTET,
}

Handler = Callable[[Table, DschamalState, Mapping[str, Any]], None]


# --- reading event fields -------------------------------------------------------------------------
def _player(state: DschamalState, event: Mapping[str, Any], key: str = "player") -> str:
    value = event.get(key)
    if value not in state.players:
        raise EventError(f'"{key}" must be one of the players ({", ".join(state.players)}), not {value!r}')
    return str(value)


def _expect(state: DschamalState, *kinds: str) -> console.Awaiting:
    wait = console.awaiting(state)
    if wait.kind not in kinds:
        raise RuleViolation(f"not now: the referee is waiting for {wait.text}")
    return wait


def _task_for(state: DschamalState, event: Mapping[str, Any], kind: str) -> Task:
    wait = _expect(state, kind)
    assert wait.task is not None
    player = _player(state, event)
    if player != wait.task.player:
        raise RuleViolation(f"not {player}: the referee is waiting for {wait.text}")
    return wait.task


# --- setting up -------------------------------------------------------------------------------
def _on_start(t: Table, state: DschamalState, event: Mapping[str, Any]) -> None:
    wait = _expect(state, "start")
    player = _player(state, event)
    if player not in wait.players:
        raise RuleViolation(f"{player}'s starting stones are already in front of him or her")
    stones = event.get("stones")
    if isinstance(stones, str) or not isinstance(stones, list):
        raise EventError('"stones" must be a list of stones, like ["ball/blue"]')
    count = console.START_COUNT[state.variant]
    colour = console.START_COLOUR[state.variant]
    legal = console.start_choices(state)
    rule = SETUP_RULE[state.variant]
    if len(stones) != count or len(set(stones)) != count:
        raise RuleViolation(
            f"{player} places {count} different {colour} stone{'s' if count > 1 else ''}", rule
        )
    for s in stones:
        coloured_stone(s)
        if s not in legal:
            raise RuleViolation(f"the {s} cannot be a starting stone: choose from {', '.join(legal)}", rule)
        t.from_bag(s, player)
    t.set(started=state.started | {player})
    names = ", ".join(state.options.names.stone(s) for s in stones)
    t.say(
        Verdict(
            rule, f"{player} places the {names} in front of him or her", {"player": player, "stones": stones}
        )
    )


def _on_first(t: Table, state: DschamalState, event: Mapping[str, Any]) -> None:
    _expect(state, "first")
    player = _player(state, event)
    first = order.first_order(state, player)
    t.set(order=first)
    seats = ", ".join(first.next)
    t.say(
        Verdict(
            FIRST_RULE[state.variant],
            f"{player} opens: the first contest is {seats}",
            {"next": list(first.next)},
        )
    )


def _on_decision(t: Table, state: DschamalState, event: Mapping[str, Any]) -> None:
    _expect(state, "decision")
    stone = coloured_stone(event.get("stone"))
    legal = console.decision_choices(state)
    if stone not in legal:
        raise RuleViolation(
            f"the decision stone must be in the bag and of a shape no player owns if one is left: "
            f"{', '.join(legal)}",
            rules.DECISION_STONE,
        )
    t.decision_from_bag(stone)
    summary = f"the {state.options.names.stone(stone)} is the decision stone"
    t.say(Verdict(rules.DECISION_STONE, summary, {"stone": stone, "seats": list(state.order.next)}))
    t.set(last=summary)


# --- contests -----------------------------------------------------------------------------------
def _on_contest(t: Table, state: DschamalState, event: Mapping[str, Any]) -> None:
    wait = _expect(state, "contest")
    _begin(t, wait.players, read_verdict(event, wait.players, state.options.false_start))


def _on_judged(t: Table, state: DschamalState, event: Mapping[str, Any]) -> None:
    wait = _expect(state, "contest")
    _begin(t, wait.players, read_judged(event, wait.players))


def _begin(t: Table, seats: tuple[str, ...], reading: Reading) -> None:
    rule = reading.rule
    if t.base.variant == "tower" and rule is rules.FASTEST:
        rule = rules.TOWER_WINNER  # the first to take a stone out of the bag wins the duel
    evidence = dict(reading.evidence or {})
    if not reading.repeat:
        evidence["slower_stones"] = rules.SLOWER_BACK.text
    t.say(Verdict(rule, reading.summary, evidence))
    t.set(last=reading.summary)
    if reading.repeat:
        return
    rnd = Round(seats, reading.order, reading.second_known)
    t.set(round=rnd, tasks=(Task("draw", reading.order[0], role="faster"),))


# --- draws ----------------------------------------------------------------------------------------
def _on_draw(t: Table, state: DschamalState, event: Mapping[str, Any]) -> None:
    task = _task_for(state, event, "draw")
    value = event.get("stone")
    choices = console.draw_choices(state, task)
    if value not in choices:
        if isinstance(value, str) and value in (BLACK, CAMEL, NOTHING):
            raise RuleViolation(
                f"{task.player} cannot have drawn {value}: it is not in the bag or not possible now"
            )
        coloured_stone(value)
        raise RuleViolation(f"{task.player} cannot have drawn the {value}: {_where(state, str(value))}")
    calls = _calls(state, task, event)
    _drew(t, state, task, Draw.single(str(value)), calls, None)


def _on_several(t: Table, state: DschamalState, event: Mapping[str, Any]) -> None:
    task = _task_for(state, event, "draw")
    if not console.several_allowed(state, task):
        raise RuleViolation(f"enter the single stone {task.player} held")
    coloured_in_bag, black_in_bag, camel_in_bag = console.drawable(state, task)
    stones = event.get("coloured", [])
    black = event.get("black", 0)
    camel = event.get("camel", False)
    if not isinstance(stones, list) or len(set(map(str, stones))) != len(stones):
        raise EventError('"coloured" must be a list of different coloured stones')
    if not isinstance(black, int) or isinstance(black, bool) or black < 0:
        raise EventError('"black" must be a whole number of black stones')
    if not isinstance(camel, bool):
        raise EventError('"camel" must be true or false')
    for s in stones:
        coloured_stone(s)
        if s not in coloured_in_bag:
            raise RuleViolation(f"{task.player} cannot have drawn the {s}: {_where(state, s)}")
    if black > black_in_bag:
        raise RuleViolation(f"only {black_in_bag} black stones can be in {task.player}'s hand")
    if camel and not camel_in_bag:
        raise RuleViolation("the camel is not in the bag")
    draw = Draw(tuple(stones), black, camel)
    if draw.count < 2:
        raise RuleViolation(
            '"several" is for two or more stones drawn at once; enter a single stone with "draw"'
        )
    top = event.get("top")
    if top is not None and not isinstance(top, str):
        raise EventError('"top" must be the stone on top of the tower')
    if state.variant != "tower" and top is not None:
        raise EventError('"top" is only entered in the Tower')
    _drew(t, state, task, draw, (), top)


def _where(state: DschamalState, stone: str) -> str:
    """Where a stone that is not in the bag is, for an error message."""
    for p in state.players:
        if stone in state.stones_of(p):
            return f"it is not in the bag, it lies in front of {p}"
        if stone in state.winning_of(p):
            return f"it is not in the bag, it is one of {p}'s winning stones"
    if stone == state.decision:
        return "it is not in the bag, it is the decision stone"
    if stone in state.removed:
        return "it is out of the game in this variant"
    return "it is already in another player's hand"


def _calls(state: DschamalState, task: Task, event: Mapping[str, Any]) -> tuple[str, ...]:
    calls = event.get("camel_calls", [])
    if not isinstance(calls, list):
        raise EventError('"camel_calls" must be a list of the players who called "I am the camel!"')
    allowed = console.call_choices(state, task)
    for p in calls:
        if p not in allowed:
            who = ", ".join(allowed) if allowed else "nobody (not asked with this stone)"
            raise RuleViolation(f'{p!r} cannot be entered as calling "I am the camel!" here; possible: {who}')
    return tuple(p for p in allowed if p in calls)


_DRAW_RULE = {
    ("duel", "slower"): rules.WRONG_CALL,  # the slower hand is only opened to judge a camel call
    ("trio", "second"): rules.TRIO_SECOND,
    ("quartet", "slower"): rules.QUARTET_SLOWER,
}


def _drew(
    t: Table, state: DschamalState, task: Task, draw: Draw, calls: tuple[str, ...], top: str | None
) -> None:
    rnd = state.round
    assert rnd is not None
    rnd = replace(rnd, draws=(*rnd.draws, (task.player, draw)), calls=(*rnd.calls, *calls))
    t.set(round=rnd, tasks=state.tasks[1:])
    names = state.options.names
    t.say(
        Verdict(
            _DRAW_RULE.get((state.variant, task.role), rules.DRAWN),
            f"{task.player} drew {names.draw(draw)}"
            + (f' ({", ".join(calls)} called "I am the camel!")' if calls else ""),
            {"player": task.player, "role": task.role, "drawn": draw.to_json(), "camel_calls": list(calls)},
        )
    )
    if state.variant == "tower":
        tower.faster_drew(t, rnd, top)
    elif state.variant == "quartet":
        (quartet.faster_drew if task.role == "faster" else quartet.slower_drew)(t, rnd)
    else:
        result = (duel.decide if state.variant == "duel" else trio.decide)(t, rnd)
        if isinstance(result, Outcome):
            execute(t, result)
        elif isinstance(result, duel.Repeat):
            t.say(Verdict(result.rule, result.summary, result.evidence))
            t.set(last=result.summary, round=None, tasks=())
        else:
            who = rnd.order[1]
            t.set(tasks=(Task("draw", who, role="slower" if state.variant == "duel" else "second"),))


# --- choices ----------------------------------------------------------------------------------------
def _on_take(t: Table, state: DschamalState, event: Mapping[str, Any]) -> None:
    task = _task_for(state, event, "take")
    if event.get("from", task.other) != task.other:
        raise RuleViolation(f"{task.player} takes from {task.other} now")
    stone = coloured_stone(event.get("stone"))
    legal = takeable(t, task.other)
    if stone not in legal:
        why = (
            "a winning stone, which is safe"
            if stone in state.winning_of(task.other)
            else "not in front of " + task.other
        )
        raise RuleViolation(
            f"the {stone} is {why}; choose from {', '.join(legal)}", rules.RECEIVED_NOT_WINNING
        )
    t.hand(stone, task.other, task.player)
    summary = f"{task.player} takes the {state.options.names.stone(stone)} from {task.other}"
    t.say(
        Verdict(
            rules.RECEIVED_NOT_WINNING, summary, {"taker": task.player, "from": task.other, "stone": stone}
        )
    )
    t.set(last=summary, tasks=state.tasks[1:])


def _on_reach(t: Table, state: DschamalState, event: Mapping[str, Any]) -> None:
    task = _task_for(state, event, "reach")
    value = event.get("stone")
    if value == console.NONE_CHOICE:
        summary = f"{task.player} found no stone of a shape nobody owns; it goes back into the bag"
    else:
        stone = coloured_stone(value)
        legal = reach_choices(t)
        if stone not in legal:
            raise RuleViolation(
                f"the {stone} is not a stone of a shape nobody owns that is in the bag; it goes back (enter 'none')",
                rules.REACH_AGAIN,
            )
        t.from_bag(stone, task.player)
        summary = f"{task.player} reached again and keeps the {state.options.names.stone(stone)}"
    t.say(Verdict(rules.REACH_AGAIN, summary, {"player": task.player, "stone": value}))
    t.set(last=summary, tasks=state.tasks[1:])


def _on_give(t: Table, state: DschamalState, event: Mapping[str, Any]) -> None:
    task = _task_for(state, event, "give")
    if event.get("stone", task.stone) != task.stone:
        raise RuleViolation(f"{task.player} gives the {task.stone} now")
    tower.give(t, task, _player(state, event, "to"))
    t.set(tasks=state.tasks[1:])


def _on_camel(t: Table, state: DschamalState, event: Mapping[str, Any]) -> None:
    task = _task_for(state, event, "camel")
    move = event.get("move")
    if not isinstance(move, str):
        raise EventError('"move" must be give:<player>, take:<player> or none')
    tower.camel(t, task, move)
    t.set(tasks=state.tasks[1:])


def _on_collapse(t: Table, state: DschamalState, event: Mapping[str, Any]) -> None:
    if state.variant != "tower":
        raise RuleViolation("only towers collapse: this is not the Tower")
    player = _player(state, event)
    fallen = event.get("fallen")
    if not isinstance(fallen, list) or not all(isinstance(s, str) for s in fallen):
        raise EventError('"fallen" must be the list of stones that fell off the foundation')
    tower.collapse(t, player, fallen)


HANDLERS: dict[str, Handler] = {
    "start": _on_start,
    "first": _on_first,
    "decision": _on_decision,
    "contest": _on_contest,
    "judged": _on_judged,
    "draw": _on_draw,
    "several": _on_several,
    "take": _on_take,
    "reach": _on_reach,
    "give": _on_give,
    "camel": _on_camel,
    "collapse": _on_collapse,
}
