"""What the scorekeeper may enter now (`actions`) and the button contest wanted (`contest`).

Every action carries its legal choices, so a generic form-based console can play every variant:
dice as seven menus, each word with the speaker fixed by the buttons, rulings as buttons.
"""

from __future__ import annotations

from string import ascii_uppercase

from referee.games.base import Action, ContestRequest, Field, choice
from referee.games.djam.letters import BLACK, COLOURS
from referee.games.djam.model import OPEN_THEMES, DjamState

CALL = "Djam!"


def _dice_action(state: DjamState, corrected: bool) -> Action:
    s = state.settings
    fields = [Field(c, f"{c} die", "choice", tuple(ascii_uppercase)) for c in COLOURS]
    fields.append(Field("colour", "colour die", "choice", (*COLOURS, BLACK)))
    if s.variant != OPEN_THEMES:
        numbered = tuple(choice(i, f"{i}: {t}") for i, t in enumerate(s.themes, start=1))
        fields.append(Field("theme", "numbered die (theme)", "choice", numbered))
    themes = "; ".join(f"{i} {t}" for i, t in enumerate(s.themes, start=1))
    label = "Correct the dice" if corrected else f"Dice of round {state.round_no} ({state.roller_name} rolls)"
    return Action("dice", label, tuple(fields), {"source": "typed"}, f"Themes: {themes}")


def _word_action(state: DjamState) -> Action | None:
    s = state.settings
    assert state.dice is not None
    fields: list[Field] = []
    fixed: dict[str, str] = {}
    if state.queue:
        speaker = state.queue[0]
        fixed["player"] = speaker
        label = f"{speaker}'s word"
        themes = state.open_themes_for(speaker)
    else:
        eligible = state.eligible()
        if not eligible:
            return None
        fields.append(Field("player", "speaker", "choice", eligible))
        label = "A word (nobody has pressed: choose the speaker)"
        themes = tuple(sorted({t for p in eligible for t in state.open_themes_for(p)}))
    fields.append(Field("word", "word as spoken", "text"))
    fields.append(
        Field("noun", "noun", "choice", ("auto", "proper", "common"), required=False, default="auto")
    )
    if s.variant == OPEN_THEMES:
        fields.append(Field("theme", "theme", "choice", themes))
    if s.theme_ruling == "scorekeeper":
        fields.append(Field("fits", "fits the theme", "bool", required=False, default=True))
    fields.append(
        Field(
            "root",
            "same-root ruling",
            "choice",
            ("auto", "same", "different"),
            required=False,
            default="auto",
        )
    )
    if state.dice.black:
        task = f"black face: the word must hold none of {', '.join(state.dice.letters)}"
    else:
        task = f"the word must begin with {state.dice.required}"
    help_text = (
        f"{task}. For people, type the family name or the name they are known by. noun auto: a capital "
        "initial means a proper noun. root: leave auto unless the scorekeeper overrules the referee."
    )
    return Action("word", label, tuple(fields), fixed, help_text)


def _ruling_actions(state: DjamState) -> list[Action]:
    p = state.pending
    assert p is not None
    actions = []
    if "root" in p.needs:
        shown = f"{p.word!r} and {p.root_with!r}"
        help_text = f"Flagged: {p.root_note}"
        actions.append(Action("root", f"Same root: refuse {p.word!r}", (), {"same": True}, help_text))
        actions.append(Action("root", f"Different roots: {shown} both stand", (), {"same": False}, help_text))
    if "theme" in p.needs:
        voters = len(state.settings.players) - 1
        counts = tuple(range(voters + 1))
        fields = (
            Field("for", "votes: fits", "int", counts),
            Field("against", "votes: does not fit", "int", counts),
        )
        actions.append(Action("vote", f"Vote on {p.word!r}", fields, {}, f"the {voters} other players vote"))
    return actions


def actions(state: DjamState) -> list[Action]:
    if state.finished:
        return []
    if state.dice is None:
        return [_dice_action(state, False), Action("end_game", "Stop the game here")]
    result: list[Action] = []
    if state.pending is not None:
        result += _ruling_actions(state)
    else:
        word = _word_action(state)
        if word is not None:
            result.append(word)
    if state.queue:
        result.append(
            Action(
                "pass",
                "A player who pressed has no word",
                (Field("player", "player", "choice", state.queue),),
            )
        )
    eligible = state.eligible()
    if eligible:
        result.append(
            Action(
                "order",
                "Correct the speaking order",
                (
                    Field(
                        "order",
                        "players waiting, in speaking order",
                        "seats",
                        eligible,
                        default=list(state.queue),
                    ),
                ),
                help="List the players waiting to speak, first speaker first; leave out anyone not waiting.",
            )
        )
    if state.pending is None:
        result.append(Action("end_round", "End the round (nobody else finds a word)"))
        if not state.proposals:
            result.append(_dice_action(state, True))
        result.append(Action("end_game", "Stop the game here"))
    return result


def contest(state: DjamState) -> ContestRequest | None:
    """Press when you have a word: the order of the presses is the order of speaking."""
    if state.phase != "play" or state.dice is None:
        return None
    seats = tuple(p for p in state.eligible() if p not in state.queue)
    if not seats:
        return None
    hint = "no letter of the dice" if state.dice.black else f"a word starting with {state.dice.required}"
    label = f"Round {state.round_no}: press when you have {hint}"
    # The dice are the call (no random delay) and the daemon arms by itself; the key ties every
    # verdict to this round, so a late one can never land in the next.
    return ContestRequest(
        seats,
        label,
        CALL,
        "each",
        float(state.settings.press_window_s),
        key=f"round {state.round_no}",
        call_delay="none",
        auto_arm=True,
    )
