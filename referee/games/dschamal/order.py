"""Who duels next: the lord of the stones, playing in turn, and the Trio's rotation.

Seats are listed clockwise; a player's left-hand neighbour is the next player clockwise (with
Marc, Anne, Herman, Carl, Werner this makes the rulebook's three worked sequences come out as
printed).

The lord of the stones (four or more players, option ``duel_order = lord``):

- the winner of a duel becomes (or stays) lord (``dschamal.order.lord``);
- whoever defeats the lord (or wins the first duel) duels his or her left-hand neighbour
  (``dschamal.order.beat-lord``); a lord who wins duels the loser's left-hand neighbour
  (``dschamal.order.lord-wins``);
- the loser never takes part in the next duel: whoever would meet him or her meets the next
  player clockwise instead (``dschamal.order.loser-skip``); the lord is skipped likewise, a
  player never duels himself or herself;
- a player whose unbroken run of wins has beaten every fellow player sits out the next duel;
  the left-hand neighbour becomes lord and duels his or her own left-hand neighbour
  (``dschamal.order.round``). Where this meets the loser-skip rule, the loser still sits out:
  if the new lord would be the previous loser, lordship passes on to the next player
  clockwise, and the new lord's opponent skips both the previous loser and the player who
  sits out. The run counts every win in a row, the one that made the player lord included.
"""

from __future__ import annotations

from collections.abc import Iterable

from referee.games.base import Verdict
from referee.games.dschamal import rules
from referee.games.dschamal.state import DschamalState, Order


def uses_lord(state: DschamalState) -> bool:
    """The lord's order holds in the Duel and the Tower from four players on (unless in turn)."""
    return (
        state.variant in ("duel", "tower") and len(state.players) >= 4 and state.options.duel_order == "lord"
    )


def _walk(state: DschamalState, start: str, skip: Iterable[str]) -> str:
    """The first player clockwise after `start` who is not skipped."""
    skipped = set(skip)
    player = state.left(start)
    for _ in state.players:
        if player not in skipped:
            return player
        player = state.left(player)
    raise AssertionError("every player is skipped")  # cannot happen with three or more players


def first_order(state: DschamalState, first: str) -> Order:
    """The first contest: `first` (shortest or longest fingers, or whose turn it is) opens."""
    if state.variant == "trio":
        return Order(next=(state.right(first), first, state.left(first)), turn=first)
    return Order(next=(first, state.left(first)), turn=first)


def after_trio(state: DschamalState) -> tuple[Order, Verdict]:
    """The middle seat moves one place clockwise (``dschamal.trio.next``)."""
    middle = state.left(state.order.turn)
    seats = (state.right(middle), middle, state.left(middle))
    order = Order(next=seats, turn=middle)
    return order, Verdict(
        rules.TRIO_NEXT, f"next three-way contest: {', '.join(seats)}", {"next": list(seats)}
    )


def after_turn(state: DschamalState) -> tuple[Order, Verdict]:
    """In turn: the turn passes to the left-hand neighbour, who duels his or her own."""
    turn = state.left(state.order.turn)
    order = Order(next=(turn, state.left(turn)), turn=turn)
    rule = rules.FIRST_QUARTET if state.variant == "quartet" else rules.IN_TURN
    return order, Verdict(
        rule, f"next duel in turn: {turn} against {state.left(turn)}", {"next": list(order.next)}
    )


def after_duel(state: DschamalState, winner: str, loser: str) -> tuple[Order, Verdict]:
    """The next pairing after `winner` beat `loser`."""
    if not uses_lord(state):
        return after_turn(state)
    old = state.order
    others = set(state.players) - {winner}
    beaten = (old.beaten if old.streak_owner == winner else frozenset()) | {loser}
    evidence = {
        "winner": winner,
        "loser": loser,
        "previous_lord": old.lord or None,
        "beaten_in_a_row": sorted(beaten, key=state.players.index),
    }
    if beaten >= others:
        lord = _walk(state, winner, {winner, loser})
        opponent = _walk(state, lord, {winner, loser, lord})
        order = Order(next=(lord, opponent), lord=lord, last_loser=loser, sits_out=winner)
        note = (
            "" if lord == state.left(winner) else f" ({state.left(winner)} lost the last duel and is skipped)"
        )
        summary = (
            f"{winner} has beaten every fellow player in a row and sits out the next duel; "
            f"{lord} becomes lord of the stones{note} and duels {opponent}"
        )
        return order, Verdict(
            rules.ROUND, summary, {**evidence, "next": [lord, opponent], "sits_out": winner}
        )
    if old.lord == winner:
        rule = rules.LORD_WINS
        natural = state.left(loser)
        opponent = _walk(state, loser, {winner, loser})
    else:
        rule = rules.LORD if not old.lord else rules.BEAT_LORD
        natural = state.left(winner)
        opponent = _walk(state, winner, {winner, loser})
    order = Order(next=(winner, opponent), lord=winner, last_loser=loser, streak_owner=winner, beaten=beaten)
    skip = f" ({natural} lost the last duel and is skipped)" if natural == loser else ""
    if skip:
        rule = rules.LOSER_SKIP
    summary = f"{winner} is lord of the stones and duels {opponent} next{skip}"
    return order, Verdict(rule, summary, {**evidence, "next": [winner, opponent]})
