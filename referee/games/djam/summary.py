"""The state as JSON for the display, the console and records."""

from __future__ import annotations

from typing import Any

from referee.games.djam.model import CLASSIC, OPEN_THEMES, Dice, DjamState, Proposal, RoundLog, Settings
from referee.games.djam.play import scores, winners


def dice_json(dice: Dice | None) -> dict[str, Any] | None:
    if dice is None:
        return None
    return {**dice.by_colour, "colour": dice.colour, "theme": dice.theme, "required": dice.required}


def proposal_json(p: Proposal, settings: Settings) -> dict[str, Any]:
    """One proposal; "scored" lists the indices (in "word") of the letters that scored, "faults"
    the letters that made a black-face word wrong."""
    matches = [{"index": p.positions[i], "letter": p.letters[i].upper(), "die": c} for i, c in p.matches]
    return {
        "player": p.player,
        "word": p.word,
        "letters": p.letters,
        "noun": "proper" if p.proper else "common",
        "theme": p.theme,
        "theme_name": None if p.theme is None else settings.themes[p.theme - 1],
        "status": p.status,
        "rule": p.rule,
        "reason": p.reason,
        "score": p.score,
        "tokens": p.tokens,
        "scored": list(p.highlighted) if p.status == "valid" else [],
        "faults": list(p.highlighted) if p.status == "wrong" else [],
        "matches": matches,
        "needs": list(p.needs),
        "root_with": p.root_with,
        "root_note": p.root_note,
    }


def round_json(log: RoundLog, settings: Settings) -> dict[str, Any]:
    return {
        "round": log.number,
        "roller": log.roller,
        "dice": dice_json(log.dice),
        "proposals": [proposal_json(p, settings) for p in log.proposals],
        "ended_by": log.ended_by,
        "note": log.note,
    }


def _headline(state: DjamState) -> str | None:
    """What the table waits for, in a few words for the display."""
    if state.finished:
        return None
    if state.phase == "roll":
        return f"{state.roller_name} rolls the dice"
    if state.pending is not None:
        return f"{state.pending.player}'s word “{state.pending.word}” awaits a ruling"
    if state.queue:
        return f"{state.queue[0]} speaks"
    return "Find a word — press your button"


def summary(state: DjamState) -> dict[str, Any]:
    s = state.settings
    best = list(winners(state))
    winner: str | list[str] | None = None
    if state.finished:
        winner = best[0] if len(best) == 1 else best
    dice = state.dice
    theme = None
    if dice is not None and dice.theme is not None:
        theme = {"number": dice.theme, "name": s.themes[dice.theme - 1]}
    result: dict[str, Any] = {
        "scores": scores(state),
        "scores_label": "Tokens",
        "winner": winner,
        "leaders": best,
        "finished": state.finished,
        "end_rule": state.end_rule,
        "variant": s.variant,
        "round": state.round_no,
        "roller": state.roller_name,
        "phase": state.phase,
        "headline": _headline(state),
        "pool": state.pool,
        "centre": state.centre,
        "total": s.total,
        "card": s.card,
        "themes": list(s.themes),
        "theme": theme,
        "required_letter": None if dice is None else dice.required,
        "dice": dice_json(dice),
        "proposals": [proposal_json(p, s) for p in state.proposals],
        "pending": None if state.pending is None else proposal_json(state.pending, s),
        "speaking_order": {
            "spoken": [p.player for p in state.proposals],
            "waiting": list(state.queue),
        },
        "may_speak": list(state.eligible()),
        "last_silent": s.silent if s.variant == CLASSIC else 0,
        "rounds": [round_json(log, s) for log in state.past],
    }
    if s.variant == OPEN_THEMES:
        closed: dict[int, list[str]] = {}
        for p in state.valid():
            if p.theme is not None:
                closed.setdefault(p.theme, []).append(p.player)
        result["closed_themes"] = {str(t): who for t, who in sorted(closed.items())}
        result["close_themes"] = s.close_themes
    return result
