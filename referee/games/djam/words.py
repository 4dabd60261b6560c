"""Judging a spoken word: letters, initial, same root, theme, then tokens and the round's end.

The checks run in a fixed order and the first that fails decides (its rule is named):

1. a word already spoken in the round is refused (``djam.repeat``);
2. black face: a word holding a letter of the dice is wrong and costs tokens (``djam.black.wrong``);
   otherwise the word must begin with the drawn die's letter (``djam.initial``);
3. a common noun sharing its root with a word already spoken is refused (``djam.root``);
   a near miss waits for the scorekeeper's ruling; proper nouns are exempt (``djam.proper``);
4. the theme: the scorekeeper's ruling given with the word, or the table's vote (``djam.theme``).

A valid word then scores (``djam.score`` / ``djam.black.win``) and may end the round or the game.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from referee.games.base import EventError, Rule, RuleViolation, Step, Verdict
from referee.games.djam import parse
from referee.games.djam.letters import WordError, common_letters, fold_word, letters_on_dice
from referee.games.djam.model import CLASSIC, OPEN_THEMES, UNLIMITED, DjamState, Proposal
from referee.games.djam.play import (
    Verdicts,
    close_round,
    exhausted,
    finish,
    require_play,
    require_settled,
    tokens,
)
from referee.games.djam.roots import compare_roots
from referee.games.djam.rules import (
    BLACK_WIN,
    BLACK_WRONG,
    END,
    INITIAL,
    LAST_SILENT,
    ONE_WORD,
    OPEN_BLACK,
    OPEN_CLOSE,
    OPEN_ROUND_END,
    PROPER,
    REPEAT,
    ROOT,
    ROUND_END,
    SCORE,
    THEME,
    UNLIMITED_BLACK,
    UNLIMITED_ROUND_END,
)

BLACK_TOKENS = 4  # "They may then take four tokens"; "the player returns 4 points"
NOUNS = ("auto", "proper", "common")
ROOT_RULINGS = ("auto", "same", "different")


def _shown(p: Proposal) -> str:
    return f"{p.player}: {p.word!r}"


def _letters_of(p: Proposal) -> str:
    return " ".join(p.letters[i].upper() for i, _ in p.matches)


def _store(state: DjamState, p: Proposal) -> DjamState:
    """Put the proposal in the round: replace the pending one, or add it."""
    if state.pending is not None:
        return replace(state, proposals=(*state.proposals[:-1], p))
    return replace(state, proposals=(*state.proposals, p))


def _evidence(state: DjamState, p: Proposal, **more: Any) -> dict[str, Any]:
    assert state.dice is not None
    facts: dict[str, Any] = {
        "player": p.player,
        "word": p.word,
        "letters": p.letters,
        "noun": "proper" if p.proper else "common",
        "dice": state.dice.by_colour,
        "colour": state.dice.colour,
    }
    if p.theme is not None:
        facts["theme"] = {"number": p.theme, "name": state.settings.themes[p.theme - 1]}
    facts.update(more)
    return facts


def _refuse(
    state: DjamState, p: Proposal, rule: Rule, reason: str, before: Verdicts | None = None, **more: Any
) -> Step[DjamState]:
    """A spoken word that does not stand: no tokens; the player may press again."""
    p = replace(p, status="refused", rule=rule.id, reason=reason, needs=())
    verdict = Verdict(rule, f"{_shown(p)} refused: {reason}", _evidence(state, p, **more))
    return Step(_store(state, p), (*(before or ()), verdict))


def _wrong_black(state: DjamState, p: Proposal, faults: tuple[tuple[int, str], ...]) -> Step[DjamState]:
    """Black face, a word with a letter of the dice: the player gives tokens back."""
    s = state.settings
    seat = s.seat(p.player)
    has = state.tokens[seat]
    if s.black_penalty == "up-to-4":
        paid = min(BLACK_TOKENS, has)
    else:
        paid = BLACK_TOKENS if has >= BLACK_TOKENS else 0
    purse = list(state.tokens)
    purse[seat] -= paid
    to_centre = state.variant == UNLIMITED and s.black_penalty_to == "centre"
    state = replace(
        state,
        tokens=tuple(purse),
        pool=state.pool + (0 if to_centre else paid),
        centre=state.centre + (paid if to_centre else 0),
    )
    where = "the centre" if to_centre else ("the supply" if state.variant == UNLIMITED else "the pool")
    shown = ", ".join(sorted({p.letters[i].upper() for i, _ in faults}))
    reason = f"it holds {shown}, showing on the dice"
    p = replace(p, status="wrong", rule=BLACK_WRONG.id, reason=reason, matches=faults, tokens=-paid, needs=())
    summary = f"{_shown(p)} is wrong: {reason}; {p.player} returns {tokens(paid)} to {where}"
    evidence = _evidence(state, p, faults=[[i, c] for i, c in faults], returned=paid, had=has)
    return Step(_store(state, p), (Verdict(BLACK_WRONG, summary, evidence),))


def _accept(state: DjamState, p: Proposal, verdicts: Verdicts) -> Step[DjamState]:
    """A valid word: pay it, then end the round or the game if that is what it does."""
    assert state.dice is not None
    s = state.settings
    seat = s.seat(p.player)
    purse = list(state.tokens)
    if state.dice.black:
        rule = {UNLIMITED: UNLIMITED_BLACK, OPEN_THEMES: OPEN_BLACK}.get(state.variant, BLACK_WIN)
        paid = min(BLACK_TOKENS, state.pool)  # Unlimited: from the set-aside supply, not the round's
        purse[seat] += paid
        p = replace(
            p, status="valid", rule=rule.id, reason="no letter of the dice", score=BLACK_TOKENS, tokens=paid
        )
        state = _store(replace(state, tokens=tuple(purse), pool=state.pool - paid), p)
        short = "" if paid == BLACK_TOKENS else f" (only {paid} were left)"
        verdicts.append(
            Verdict(
                rule,
                f"{_shown(p)} has no letter of the dice: {p.player} wins the round and takes {tokens(paid)}{short}",
                _evidence(state, p, took=paid),
            )
        )
        if exhausted(state):
            state, more = finish(state, END, "no tokens are left")
            return Step(state, (*verdicts, *more))
        note = "the round ends: only the first valid word wins on the black face"
        if state.variant == UNLIMITED:
            note += f"; the {tokens(state.centre)} of the centre stay for the next round"
        state, more = close_round(state, rule, note, {"winner": p.player})
        return Step(state, (*verdicts, *more))

    matches = common_letters(p.letters, state.dice.by_colour, state.dice.colour)
    score = len(matches)
    source = state.centre if state.variant == UNLIMITED else state.pool
    paid = min(score, source)
    purse[seat] += paid
    if state.variant == UNLIMITED:
        state = replace(state, tokens=tuple(purse), centre=state.centre - paid)
    else:
        state = replace(state, tokens=tuple(purse), pool=state.pool - paid)
    p = replace(p, status="valid", rule=SCORE.id, reason="", matches=matches, score=score, tokens=paid)
    state = _store(state, p)
    where = "the centre" if state.variant == UNLIMITED else "the pool"
    short = "" if paid == score else f" (only {paid} left in {where})"
    summary = f"{_shown(p)} scores {score} ({_letters_of(p)}): {p.player} takes {tokens(paid)}{short}"
    verdicts.append(
        Verdict(
            SCORE, summary, _evidence(state, p, matches=[[i, c] for i, c in matches], score=score, took=paid)
        )
    )
    if exhausted(state):
        state, more = finish(state, END, "no tokens are left")
        return Step(state, (*verdicts, *more))
    return _after_valid(state, p, verdicts)


def _after_valid(state: DjamState, p: Proposal, verdicts: Verdicts) -> Step[DjamState]:
    """Does this valid word end the round?"""
    s = state.settings
    # The speaker may have been put back in the queue while their word awaited a ruling;
    # whoever can no longer speak this round leaves it.
    eligible = set(state.eligible())
    state = replace(state, queue=tuple(q for q in state.queue if q in eligible))
    if state.variant == CLASSIC:
        done = state.scored_players()
        rest = [q for q in s.players if q not in done]
        if len(done) < len(s.players) - s.silent:
            return Step(state, tuple(verdicts))
        if rest:
            verb = "scores" if len(rest) == 1 else "score"
            note = f"{' and '.join(rest)} {verb} nothing: the last {s.silent} to speak with {len(s.players)} players"
            state, more = close_round(state, LAST_SILENT, note, {"score_nothing": rest, "silent": s.silent})
        else:
            state, more = close_round(state, ROUND_END, "every player has made a proposal", {})
        return Step(state, (*verdicts, *more))
    if state.variant == UNLIMITED:
        if state.centre > 0:
            return Step(state, tuple(verdicts))
        state, more = close_round(state, UNLIMITED_ROUND_END, "the centre is empty", {})
        return Step(state, (*verdicts, *more))
    assert p.theme is not None
    scope = "everyone" if s.close_themes == "everyone" else p.player
    verdicts.append(
        Verdict(
            OPEN_CLOSE,
            f"theme {p.theme} ({s.themes[p.theme - 1]}) is closed for {scope}",
            {"theme": p.theme, "closed_for": scope},
        )
    )
    closed = state.closed_by_anyone()
    if len(closed) < len(s.themes):
        return Step(state, tuple(verdicts))
    state, more = close_round(state, OPEN_ROUND_END, "all six themes are closed", {})
    return Step(state, (*verdicts, *more))


def _check_turn(state: DjamState, who: str) -> None:
    if state.queue:
        if who != state.queue[0]:
            raise EventError(
                f"it is {state.queue[0]}'s turn to speak (waiting: {', '.join(state.queue)}); enter "
                f"{state.queue[0]}'s word, or correct the speaking order"
            )
    elif who not in state.eligible():
        if state.variant == CLASSIC:
            raise RuleViolation(f"{who} has already scored in this round and cannot speak again", ONE_WORD)
        raise RuleViolation(f"{who} has no open theme left in this round", OPEN_CLOSE)


def _theme_of(state: DjamState, who: str, event: Mapping[str, Any]) -> int | None:
    assert state.dice is not None
    s = state.settings
    if state.variant != OPEN_THEMES:
        theme = state.dice.theme
        assert theme is not None
        if event.get("theme") not in (None, "") and parse.whole(event, "theme", 1, 6) != theme:
            raise EventError(f"the theme of this round is {theme} ({s.themes[theme - 1]})")
        return theme
    allowed = state.open_themes_for(who)
    if event.get("theme") in (None, ""):
        raise EventError(f'Open themes: say which theme the word is for ("theme": one of {allowed})')
    theme = parse.whole(event, "theme", 1, len(s.themes))
    if theme not in allowed:
        raise EventError(
            f"theme {theme} ({s.themes[theme - 1]}) is closed for {who}; open: "
            + ", ".join(f"{t} {s.themes[t - 1]}" for t in allowed)
        )
    return theme


def _root_rule(
    state: DjamState, p: Proposal, ruling: str, verdicts: Verdicts
) -> tuple[Proposal, str | None, dict[str, Any]]:
    """The same-root rule: the proposal (maybe waiting for a ruling), a refusal reason or None."""
    s = state.settings
    if p.proper:
        conflicts = [
            q.word
            for q in state.proposals
            if compare_roots(p.word, q.word, s.language, s.root_prefix).kind != "different"
        ]
        if conflicts:
            shared = ", ".join(map(repr, conflicts))
            summary = f"{p.word!r} is a proper noun: sharing a root with {shared} is allowed"
            verdicts.append(Verdict(PROPER, summary, {"word": p.word, "earlier": conflicts}))
        return p, None, {}
    if ruling == "same":
        return p, "the scorekeeper rules it shares its root with a word already spoken", {}
    if ruling == "different":
        summary = f"the scorekeeper rules that {p.word!r} shares no root with an earlier word"
        verdicts.append(Verdict(ROOT, summary, {"word": p.word, "ruling": "different"}))
        return p, None, {}
    near = None
    for q in state.proposals:
        check = compare_roots(p.word, q.word, s.language, s.root_prefix)
        if check.kind == "same":
            reason = f"same root as {q.word!r} ({q.player}): {check.reason}"
            return p, reason, {"earlier": q.word, "stems": list(check.stems)}
        if check.kind == "near" and near is None:
            near = (q, check)
    if near is not None:
        q, check = near
        p = replace(p, needs=("root",), root_with=q.word, root_note=check.reason)
    return p, None, {}


def apply_word(state: DjamState, event: Mapping[str, Any]) -> Step[DjamState]:
    """A word as spoken, typed by the scorekeeper."""
    require_play(state, "entering a word")
    require_settled(state, "entering the next word")
    dice = state.dice
    assert dice is not None
    s = state.settings
    who = parse.player(s, event)
    _check_turn(state, who)
    try:
        folded = fold_word(event.get("word"))
    except WordError as exc:
        raise EventError(f"{who}'s word: {exc}") from None
    noun = parse.choice(event, "noun", NOUNS, "auto")
    first = next(c for c in folded.text if c.isalpha())
    proper = noun == "proper" or (noun == "auto" and first.isupper())
    theme = _theme_of(state, who, event)
    if s.theme_ruling == "majority" and event.get("fits") is not None:
        raise EventError('the table votes on the theme in this game: leave out "fits" and enter the vote')
    fits = parse.flag(event, "fits", True)
    ruling = parse.choice(event, "root", ROOT_RULINGS, "auto")
    state = replace(state, queue=tuple(q for q in state.queue if q != who))
    p = Proposal(who, folded.text, folded.letters, folded.positions, proper, theme)
    verdicts: Verdicts = []
    for q in state.proposals:
        if q.letters == p.letters:
            return _refuse(state, p, REPEAT, f"{q.player} already said {q.word!r} in this round")
    if dice.required is None:
        faults = letters_on_dice(p.letters, dice.by_colour)
        if faults:
            return _wrong_black(state, p, faults)
    elif p.letters[0] != dice.required.lower():
        return _refuse(
            state,
            p,
            INITIAL,
            f"it begins with {p.letters[0].upper()}, not {dice.required} (the {dice.colour} die)",
        )

    p, refusal, facts = _root_rule(state, p, ruling, verdicts)
    if refusal is not None:
        return _refuse(state, p, ROOT, refusal, **facts)
    if s.theme_ruling == "scorekeeper":
        if not fits:
            reason = f"the table rules it does not fit the theme {_theme_name(state, p)}"
            return _refuse(state, p, THEME, reason, verdicts)
    else:
        p = replace(p, needs=(*p.needs, "theme"))
    if p.needs:
        return _wait(state, p, verdicts)
    return _accept(state, p, verdicts)


def _theme_name(state: DjamState, p: Proposal) -> str:
    return "" if p.theme is None else repr(state.settings.themes[p.theme - 1])


def _wait(state: DjamState, p: Proposal, verdicts: Verdicts) -> Step[DjamState]:
    p = replace(p, status="pending")
    asks = []
    if "root" in p.needs:
        asks.append(f"the scorekeeper rules whether it shares its root with {p.root_with!r} ({p.root_note})")
        verdicts.append(
            Verdict(ROOT, f"{_shown(p)} waits: {asks[-1]}", _evidence(state, p, earlier=p.root_with))
        )
    if "theme" in p.needs:
        asks.append(f"the other players vote on the theme {_theme_name(state, p)}")
        verdicts.append(Verdict(THEME, f"{_shown(p)} waits: {asks[-1]}", _evidence(state, p)))
    return Step(_store(state, p), tuple(verdicts))


def apply_root_ruling(state: DjamState, event: Mapping[str, Any]) -> Step[DjamState]:
    """The scorekeeper rules on a flagged near miss: ``{"type": "root", "same": true}``."""
    p = state.pending
    if p is None or "root" not in p.needs:
        raise EventError("no same-root question is waiting for a ruling")
    if not isinstance(event.get("same"), bool):
        raise EventError('the ruling needs "same": true (same root: refused) or false (different roots)')
    if event["same"]:
        return _refuse(
            state,
            p,
            ROOT,
            f"the scorekeeper rules it shares its root with {p.root_with!r}",
            earlier=p.root_with,
        )
    p = replace(p, needs=tuple(n for n in p.needs if n != "root"))
    verdicts: Verdicts = [
        Verdict(
            ROOT,
            f"the scorekeeper rules {p.word!r} and {p.root_with!r} have different roots",
            {"word": p.word, "earlier": p.root_with, "flag": p.root_note},
        )
    ]
    state = _store(state, p)
    if p.needs:
        return Step(state, tuple(verdicts))
    return _accept(state, p, verdicts)


def apply_vote(state: DjamState, event: Mapping[str, Any]) -> Step[DjamState]:
    """The other players' vote on the theme: ``{"type": "vote", "for": 2, "against": 1}``."""
    p = state.pending
    if p is None or "theme" not in p.needs:
        raise EventError("no theme vote is open")
    voters = len(state.settings.players) - 1
    yes = parse.whole(event, "for", 0, voters)
    no = parse.whole(event, "against", 0, voters)
    if yes + no == 0 or yes + no > voters:
        raise EventError(
            f"the {voters} other player(s) vote: between 1 and {voters} votes in all, not {yes + no}"
        )
    tally = {"for": yes, "against": no, "voters": voters}
    if yes <= no:
        return _refuse(
            state,
            p,
            THEME,
            f"the table votes {yes}–{no}: no majority that it fits {_theme_name(state, p)}",
            vote=tally,
        )
    p = replace(p, needs=tuple(n for n in p.needs if n != "theme"))
    verdicts: Verdicts = [
        Verdict(THEME, f"the table votes {yes}–{no}: {p.word!r} fits {_theme_name(state, p)}", tally)
    ]
    state = _store(state, p)
    if p.needs:
        return Step(state, tuple(verdicts))
    return _accept(state, p, verdicts)
