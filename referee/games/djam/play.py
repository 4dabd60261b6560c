"""The round around the words: dice, speaking order, the end of a round and of the game.

Each function takes a state and an event and returns a `Step`; none mutates its input. Input
that cannot be read raises EventError before anything changes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from referee.arbitration import PressVerdict
from referee.games.base import EventError, Rule, Step, Verdict
from referee.games.djam import parse
from referee.games.djam.model import OPEN_THEMES, UNLIMITED, DjamState, RoundLog
from referee.games.djam.rules import (
    END,
    END_BY_TABLE,
    ORDER,
    ROLL,
    ROLLER,
    TABLE_ENDS_ROUND,
    UNLIMITED_BLACK,
    UNLIMITED_CENTRE,
)

Verdicts = list[Verdict]
TOKENS_PER_PLAYER = 2  # Unlimited: "take 2 tokens per player and place them in the centre"


def tokens(n: int) -> str:
    """ "1 token", "3 tokens"."""
    return f"{n} token{'s' * (n != 1)}"


def scores(state: DjamState) -> dict[str, int]:
    return dict(zip(state.settings.players, state.tokens, strict=True))


def winners(state: DjamState) -> tuple[str, ...]:
    """The players with the most tokens (several when tied)."""
    best = max(state.tokens)
    return tuple(p for p, t in zip(state.settings.players, state.tokens, strict=True) if t == best)


def exhausted(state: DjamState) -> bool:
    """No token left to win: the pool (and in Unlimited, the round's centre too) is empty."""
    if state.variant == UNLIMITED:
        return state.pool == 0 and state.centre == 0
    return state.pool == 0


def finish(state: DjamState, rule: Rule, why: str) -> tuple[DjamState, Verdicts]:
    state = replace(state, finished=True, end_rule=rule.id, queue=())
    best = winners(state)
    who = best[0] if len(best) == 1 else " and ".join(best)
    verb = "wins" if len(best) == 1 else "tie for the win"
    summary = f"{why}: the game is over. {who} {verb} with {tokens(max(state.tokens))}"
    return state, [Verdict(rule, summary, {"scores": scores(state), "winner": list(best)})]


def fill_centre(state: DjamState) -> tuple[DjamState, Verdicts]:
    """Unlimited proposals: the round's tokens go from the supply to the centre."""
    if state.variant != UNLIMITED:
        return state, []
    if state.centre > 0 and state.settings.black_centre == "keep":
        note = f"the centre keeps its {tokens(state.centre)} for round {state.round_no}; none are added"
        return state, [Verdict(UNLIMITED_BLACK, note, {"centre": state.centre, "supply": state.pool})]
    wanted = TOKENS_PER_PLAYER * len(state.settings.players)
    moved = min(wanted, state.pool)
    state = replace(state, pool=state.pool - moved, centre=state.centre + moved)
    if state.centre == 0:
        return finish(state, END, "no tokens are left in the supply")
    short = f" (only {moved} were left)" if moved < wanted else ""
    note = f"{tokens(moved)} go to the centre for round {state.round_no}{short}"
    return state, [
        Verdict(UNLIMITED_CENTRE, note, {"moved": moved, "centre": state.centre, "supply": state.pool})
    ]


def close_round(
    state: DjamState, rule: Rule, note: str, evidence: Mapping[str, Any]
) -> tuple[DjamState, Verdicts]:
    """End the round: keep it in the log, pass the dice clockwise, prepare the next round."""
    log = RoundLog(state.round_no, state.roller_name, state.dice, state.proposals, rule.id, note)
    n = len(state.settings.players)
    state = replace(
        state,
        past=(*state.past, log),
        round_no=state.round_no + 1,
        roller=(state.roller + 1) % n,
        dice=None,
        queue=(),
        proposals=(),
    )
    verdicts = [Verdict(rule, note, dict(evidence))]
    state, more = fill_centre(state)
    verdicts += more
    if not state.finished:
        verdicts.append(
            Verdict(
                ROLLER,
                f"round {state.round_no}: {state.roller_name} rolls the dice",
                {"roller": state.roller_name},
            )
        )
    return state, verdicts


def require_play(state: DjamState, doing: str) -> None:
    if state.finished:
        raise EventError(f"the game is over; {doing} is no longer possible (undo to reopen it)")
    if state.dice is None:
        raise EventError(
            f"round {state.round_no} has no dice yet: enter the dice ({state.roller_name} rolls) before {doing}"
        )


def require_settled(state: DjamState, doing: str) -> None:
    pending = state.pending
    if pending is not None:
        needs = " and ".join(
            {"root": "the same-root question", "theme": "the theme vote"}[n] for n in pending.needs
        )
        raise EventError(
            f"{pending.player}'s word {pending.word!r} waits for {needs}; settle it before {doing}"
        )


def apply_dice(state: DjamState, event: Mapping[str, Any]) -> Step[DjamState]:
    if state.finished:
        raise EventError("the game is over; no more dice")
    if state.proposals:
        raise EventError(
            "words have already been judged with these dice; undo them before correcting the dice"
        )
    dice = parse.dice(state.settings, event)
    corrected = state.dice is not None
    state = replace(state, dice=dice)
    letters = " ".join(f"{c} {letter}" for c, letter in dice.by_colour.items())
    if dice.black:
        task = f"black face: words must contain none of {', '.join(dice.letters)}"
    else:
        task = f"{dice.colour} die: words begin with {dice.required}"
    theme = "" if dice.theme is None else f"theme {dice.theme} {state.settings.themes[dice.theme - 1]}; "
    summary = f"{'dice corrected' if corrected else f'round {state.round_no}'}: {theme}{letters}; {task}"
    evidence = {
        "round": state.round_no,
        "roller": state.roller_name,
        "letters": dice.by_colour,
        "colour": dice.colour,
        "theme": dice.theme,
        "source": event.get("source", "typed"),
    }
    return Step(state, (Verdict(ROLL, summary, evidence),))


def apply_contest(state: DjamState, event: Mapping[str, Any]) -> Step[DjamState]:
    """The buttons' verdict: the ranking appends to the players waiting to speak."""
    try:
        verdict = PressVerdict.from_json(event)
    except ValueError as exc:
        raise EventError(str(exc)) from None
    players = state.settings.players
    ranked = [s for entry in verdict.ranking for s in entry]
    unknown = sorted({*ranked, *verdict.false_starts} - set(players))
    if unknown:
        raise EventError(f"unknown player(s) in the contest: {', '.join(unknown)}")
    evidence: dict[str, Any] = {"contest": verdict.to_json()}
    if state.phase != "play":
        return Step(state, (Verdict(ORDER, "presses outside a round's play are ignored", evidence),))
    eligible = set(state.eligible())
    queue = list(state.queue)
    ignored: list[str] = []
    ties: list[list[str]] = []
    for entry in verdict.ranking:
        seated = sorted(entry, key=players.index)  # a tie is placed in seat order
        if len(entry) > 1:
            ties.append(seated)
        for seat in seated:
            if seat in queue:
                ignored.append(f"{seat} is already waiting")
            elif seat not in eligible:
                ignored.append(f"{seat} cannot speak again in this round")
            else:
                queue.append(seat)
    summary = f"speaking order: {', '.join(queue) or 'nobody yet'}"
    if ties:
        tied = "; ".join(" and ".join(t) for t in ties)
        summary += (
            f" ({tied} tied within the tie window: placed in seat order, the scorekeeper may correct it)"
        )
    if verdict.false_starts:
        summary += f"; false start: {', '.join(verdict.false_starts)} (press again)"
    evidence.update({"queue": queue, "ties": ties, "ignored": ignored})
    return Step(replace(state, queue=tuple(queue)), (Verdict(ORDER, summary, evidence),))


def apply_order(state: DjamState, event: Mapping[str, Any]) -> Step[DjamState]:
    """The scorekeeper's correction: the players waiting to speak, in order."""
    require_play(state, "setting the speaking order")
    names = parse.name_list(state.settings, event, "order")
    eligible = state.eligible()
    for name in names:
        if name not in eligible:
            raise EventError(f"{name} cannot speak again in this round; leave them out of the order")
    summary = f"the scorekeeper sets the speaking order: {', '.join(names) or 'nobody waiting'}"
    evidence = {"before": list(state.queue), "after": list(names)}
    return Step(replace(state, queue=names), (Verdict(ORDER, summary, evidence),))


def apply_pass(state: DjamState, event: Mapping[str, Any]) -> Step[DjamState]:
    """A player who pressed has no word after all; they leave the queue and may press again."""
    require_play(state, "a pass")
    who = parse.player(state.settings, event)
    if who not in state.queue:
        raise EventError(f"{who} is not waiting to speak ({', '.join(state.queue) or 'nobody is'})")
    queue = tuple(p for p in state.queue if p != who)
    summary = f"{who} passes and may press again; waiting: {', '.join(queue) or 'nobody'}"
    return Step(replace(state, queue=queue), (Verdict(ORDER, summary, {"player": who}),))


def apply_end_round(state: DjamState, event: Mapping[str, Any]) -> Step[DjamState]:
    """The table gives up on the round (nobody else finds a word)."""
    require_play(state, "ending the round")
    require_settled(state, "ending the round")
    evidence: dict[str, Any] = {"round": state.round_no}
    if state.variant == UNLIMITED:
        note = f"the table ends the round; the {tokens(state.centre)} in the centre stay for the next round"
    elif state.variant == OPEN_THEMES:
        still = [state.settings.themes[t - 1] for t in range(1, 7) if t not in state.closed_by_anyone()]
        note = f"the table ends the round; themes left open: {', '.join(still) or 'none'}"
        evidence["open"] = still
    else:
        rest = list(state.eligible())
        note = f"the table ends the round; {', '.join(rest) or 'nobody'} score nothing"
        evidence["score_nothing"] = rest
    state, verdicts = close_round(state, TABLE_ENDS_ROUND, note, evidence)
    return Step(state, tuple(verdicts))


def apply_end_game(state: DjamState, event: Mapping[str, Any]) -> Step[DjamState]:
    if state.finished:
        raise EventError("the game is already over")
    require_settled(state, "stopping the game")
    state, verdicts = finish(state, END_BY_TABLE, "the table stops the game")
    return Step(state, tuple(verdicts))
