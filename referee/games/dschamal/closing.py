"""Closing a contest once everything is received: winning stones, the end of the game, the next pairing."""

from __future__ import annotations

from referee.games.base import Verdict
from referee.games.dschamal import console, order, quartet, rules, tower, winning
from referee.games.dschamal.outcome import settle
from referee.games.dschamal.state import Round, Table


def advance(t: Table) -> None:
    """Make the choices nobody has to make; when the contest is carried out, close it."""
    settle(t)
    rnd: Round | None = t.get("round")
    if t.get("tasks") or rnd is None:
        return
    state = t.base
    t.set(round=None, contests=state.contests + 1)
    variant = state.variant
    if variant in ("duel", "trio"):
        winning.convert(t)
        winners = winning.seven(t)
        if winners:
            _finish(t, winners, f"{' and '.join(winners)} gathered seven winning stones")
            return
    elif variant == "tower":
        why = tower.ended(t.players, t.front, t.black)
        if why:
            points = tower.victory_points(t.players, t.front, t.black)
            top = max(p["total"] for p in points.values())
            winners = tuple(p for p in t.players if points[p]["total"] == top)
            t.say(
                Verdict(
                    rules.TOWER_END,
                    f"the game ends: {why}",
                    {"towers": [len(x) for x in t.front], "black": t.black},
                )
            )
            t.say(
                Verdict(rules.TOWER_POINTS, f"{' and '.join(winners)} wins with {top} victory points", points)
            )
            _finish(t, winners, why)
            return
    else:
        holders = quartet.quartet_holders(t)
        if holders:
            t.say(
                Verdict(
                    rules.QUARTET_END,
                    f"{holders[0]} has a quartet and wins",
                    {"stones": t.stones(holders[0])},
                )
            )
            _finish(t, tuple(holders), f"{holders[0]} collected a quartet")
            return
    if variant == "trio":
        new_order, verdict = order.after_trio(state)
    elif variant == "quartet":
        new_order, verdict = order.after_turn(state)
    else:
        new_order, verdict = order.after_duel(state, rnd.winner, rnd.loser)
    t.say(verdict)
    t.set(order=new_order)
    if variant in ("duel", "trio") and console.needs_decision(t.freeze(), new_order.next) and not t.bag:
        winners = winning.most_winning(t)
        t.say(
            Verdict(
                rules.STALLED,
                f"no coloured stone is left for a decision stone: {' and '.join(winners)} win",
                {},
            )
        )
        _finish(t, winners, "no coloured stone was left in the bag for a decision stone")


def _finish(t: Table, winners: tuple[str, ...], why: str) -> None:
    t.set(finished=True, winners=winners, end=why)
