"""Carrying out a decided contest: who receives which stone, and the choices still to make.

An `Outcome` is what a rule decided, written as moves; `execute` makes the moves on a `Table`,
gives the verdict and queues the choices ("a stone of his or her choice") as tasks. `settle`
then works the queue: a choice with one legal answer is made for the player, a loser with
nothing to give turns the choice into reaching into the bag again.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from referee.games.base import Rule, Verdict
from referee.games.dschamal import rules
from referee.games.dschamal.state import Table, Task
from referee.games.dschamal.stones import ordered, shape_of
from referee.games.dschamal.tower import camel_choices


@dataclass
class Outcome:
    """The moves a rule decided, before they are made."""

    rule: Rule
    summary: str
    winner: str = ""
    loser: str = ""
    gets: list[tuple[str, str]] = field(default_factory=list)  # (player, stone from the bag)
    hands: list[tuple[str, str, str]] = field(default_factory=list)  # (giver, receiver, shape)
    decision_to: str = ""
    takes: list[tuple[str, str]] = field(default_factory=list)  # (taker, giver): a stone of choice
    evidence: dict[str, Any] = field(default_factory=dict)


def execute(t: Table, outcome: Outcome) -> None:
    """Make the moves of `outcome`, say its verdict, and queue the choices it leaves open."""
    received: list[str] = []
    for player, stone in outcome.gets:
        t.from_bag(stone, player)
        received.append(f"{player}: {stone}")
    for giver, to, shape in outcome.hands:
        # Colour never decides anything, so the giver hands over the first of that shape in
        # canonical order; the scorekeeper is not asked.
        stone = next(s for s in ordered(t.stones(giver)) if shape_of(s) == shape)
        t.hand(stone, giver, to)
        received.append(f"{to}: {stone} from {giver}")
    if outcome.decision_to:
        received.append(f"{outcome.decision_to}: {t.decision} (the decision stone)")
        t.decision_to(outcome.decision_to)
    tasks = list(t.get("tasks"))
    tasks.extend(Task("take", taker, other=giver) for taker, giver in outcome.takes)
    t.set(tasks=tuple(tasks))
    rnd = t.get("round")
    if rnd is not None and outcome.winner:
        t.set(round=replace(rnd, winner=outcome.winner, loser=outcome.loser))
    evidence = {**outcome.evidence, "received": received}
    if outcome.takes:
        evidence["choices_to_make"] = [f"{a} takes a stone of choice from {b}" for a, b in outcome.takes]
    t.say(Verdict(outcome.rule, outcome.summary, evidence))
    t.set(last=outcome.summary)


def takeable(t: Table, giver: str) -> list[str]:
    """The stones a winner may choose from `giver`: never winning stones."""
    return list(ordered(t.stones(giver)))


def reach_choices(t: Table) -> list[str]:
    """Coloured stones in the bag of a shape that no player owns yet."""
    return list(ordered(s for s in t.bag if not t.anyone_owns(shape_of(s))))


def settle(t: Table) -> None:
    """Work the head of the task queue while the rules leave nobody a real choice."""
    while True:
        tasks: tuple[Task, ...] = t.get("tasks")
        if not tasks:
            return
        head, rest = tasks[0], tasks[1:]
        if head.kind == "take":
            choices = takeable(t, head.other)
            if len(choices) == 1:
                t.hand(choices[0], head.other, head.player)
                t.say(
                    Verdict(
                        rules.ONE_CHOICE,
                        f"{head.player} takes {head.other}'s only stone that may be taken, the "
                        f"{t.options.names.stone(choices[0])}",
                        {"taker": head.player, "from": head.other, "stone": choices[0]},
                    )
                )
                t.set(tasks=rest)
                continue
            if not choices:
                only_winning = bool(t.winning[t.i(head.other)])
                if only_winning and t.options.loser_only_winning == "nothing":
                    t.say(
                        Verdict(
                            rules.ONLY_WINNING_NOTHING,
                            f"{head.other} holds only winning stones: {head.player} receives nothing",
                            {"from": head.other, "winning": list(t.winning[t.i(head.other)])},
                        )
                    )
                    t.set(tasks=rest)
                    continue
                t.set(tasks=(Task("reach", head.player, other=head.other), *rest))
                what = "only winning stones" if only_winning else "no playing stones"
                t.say(
                    Verdict(
                        rules.REACH_AGAIN,
                        f"{head.other} holds {what}: {head.player} may reach into the bag again for a "
                        "coloured stone of a shape nobody owns yet",
                        {"from": head.other, "winning": list(t.winning[t.i(head.other)])},
                    )
                )
                continue
        if head.kind == "camel" and camel_choices(t.players, t.black, head.player) == ["none"]:
            t.say(
                Verdict(
                    rules.TOWER_CAMEL,
                    f"nobody owns a black stone: {head.player}'s camel gives or takes nothing and goes back",
                    {"blacks": dict(zip(t.players, t.black, strict=True))},
                )
            )
            t.set(tasks=rest)
            continue
        if head.kind == "reach" and not reach_choices(t):
            t.say(
                Verdict(
                    rules.REACH_AGAIN,
                    f"{head.other} has no stone to give, and no stone of a shape nobody owns is left in the "
                    f"bag: {head.player} receives nothing",
                    {"from": head.other},
                )
            )
            t.set(tasks=rest)
            continue
        return
