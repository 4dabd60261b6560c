"""What the referee waits for now, and the console's actions with their legal choices.

Every event type of the vocabulary (docs/games/dschamal.md) is offered here exactly when the
rules accept it, with the legal values listed in each field's ``choices``, so a generic
form-based console can play every variant to the end.
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.games.base import Action, Field
from referee.games.dschamal.contest import TIE_CHOICE
from referee.games.dschamal.state import DschamalState, Task
from referee.games.dschamal.stones import BLACK, CAMEL, NOTHING, colour_of, ordered, shape_of
from referee.games.dschamal.tower import camel_choices

START_COLOUR = {"duel": "blue", "trio": "yellow", "quartet": "blue"}
START_COUNT = {"duel": 1, "trio": 1, "quartet": 2}
NONE_CHOICE = "none"


@dataclass(frozen=True)
class Awaiting:
    """What the game waits for: kind, the player(s) concerned, and a sentence for the display."""

    kind: str  # start, first, decision, contest, draw, take, reach, give, camel, over
    players: tuple[str, ...]
    text: str
    task: Task | None = None

    def to_json(self) -> dict[str, object]:
        return {"kind": self.kind, "players": list(self.players), "text": self.text}


def needs_decision(state: DschamalState, seats: tuple[str, ...]) -> bool:
    """Duel and Trio: nobody in the contest has a stone that is not a winning stone."""
    return state.variant in ("duel", "trio") and not any(state.stones_of(p) for p in seats)


def awaiting(state: DschamalState) -> Awaiting:
    if state.finished:
        return Awaiting("over", state.winners, f"the game is over: {state.end}")
    if state.variant != "tower":
        missing = tuple(p for p in state.players if p not in state.started)
        if missing:
            colour = START_COLOUR[state.variant]
            return Awaiting("start", missing, f"starting {colour} stones of {', '.join(missing)}")
    if not state.order.next:
        return Awaiting("first", (), _first_question(state.variant))
    if state.tasks:
        task = state.tasks[0]
        return Awaiting(task.kind, (task.player,), _task_text(state, task), task)
    seats = state.order.next
    if needs_decision(state, seats) and not state.decision:
        return Awaiting("decision", seats, "a decision stone: take a coloured stone out of the bag")
    who = (
        f"three-way contest: {', '.join(seats)}"
        if len(seats) == 3
        else f"duel: {seats[0]} against {seats[1]}"
    )
    return Awaiting("contest", seats, f'{who} — call "Dschamál!"')


def _first_question(variant: str) -> str:
    if variant == "trio":
        return "who has the longest fingers? (fights the first three-way contest with both neighbours)"
    if variant == "quartet":
        return "whose turn is first? (duels his or her left-hand neighbour)"
    return "who has the shortest fingers? (puts the bag down for the first duel with the left-hand neighbour)"


def _task_text(state: DschamalState, task: Task) -> str:
    if task.kind == "draw":
        role = {"faster": "the faster player", "slower": "the slower player", "second": "the second fastest"}
        return f"what {task.player} ({role.get(task.role, task.role)}) drew"
    if task.kind == "take":
        return f"{task.player} takes a stone of his or her choice from {task.other}"
    if task.kind == "reach":
        return f"{task.player} reaches into the bag again for a coloured stone of a shape nobody owns"
    if task.kind == "give":
        return f"{task.player} gives the {state.options.names.stone(task.stone)} to a player of his or her choice"
    return f"{task.player}'s camel: give or take a black stone"


# --- what may be drawn -----------------------------------------------------------------------------
def drawable(state: DschamalState, task: Task) -> tuple[list[str], int, bool]:
    """Coloured stones, the number of black stones and whether the camel may be in `task.player`'s hand."""
    rnd = state.round
    taken = [d for p, d in (rnd.draws if rnd else ()) if p != task.player]
    out = {s for d in taken for s in d.coloured}
    coloured = list(ordered(s for s in state.bag if s not in out))
    black = state.bag_black - sum(d.black for d in taken)
    camel = state.bag_camel and not any(d.camel for d in taken)
    return coloured, black, camel


def draw_choices(state: DschamalState, task: Task) -> list[str]:
    coloured, black, camel = drawable(state, task)
    choices = [*coloured, *([BLACK] if black > 0 else []), *([CAMEL] if camel else [])]
    if state.variant == "quartet" and task.role == "slower":
        choices.append(NOTHING)
    return choices


def call_choices(state: DschamalState, task: Task) -> tuple[str, ...]:
    """Who may be entered as having called "I am the camel!" with this draw."""
    if state.round is None or task.kind != "draw":
        return ()
    if state.variant == "duel" and task.role == "faster":
        return state.round.seats
    if state.variant == "trio":
        return (task.player,)
    return ()


def several_allowed(state: DschamalState, task: Task) -> bool:
    """Drawing two or more at once can be entered for every hand the rules judge."""
    return task.kind == "draw" and not (state.variant == "duel" and task.role == "slower")


def decision_choices(state: DschamalState) -> list[str]:
    """Coloured stones in the bag, of a shape nobody owns where possible."""
    fresh = [s for s in state.bag if not state.owners_of(shape_of(s))]
    return list(ordered(fresh or state.bag))


def start_choices(state: DschamalState) -> list[str]:
    colour = START_COLOUR[state.variant]
    return list(ordered(s for s in state.bag if colour_of(s) == colour))


# --- the actions ------------------------------------------------------------------------------
def actions(state: DschamalState) -> list[Action]:
    wait = awaiting(state)
    result: list[Action] = []
    if wait.kind == "start":
        result = _start_actions(state, wait.players)
    elif wait.kind == "first":
        result = [
            Action(
                "first",
                wait.text.split("?")[0] + "?",
                (Field("player", "Player", "seat", state.players, default=state.players[0]),),
            )
        ]
    elif wait.kind == "decision":
        choices = tuple(decision_choices(state))
        result = [
            Action(
                "decision",
                "Decision stone taken out of the bag",
                (Field("stone", "Stone", "choice", choices, default=choices[0] if choices else None),),
                help="It must have a shape that no player owns yet, if one is left in the bag.",
            )
        ]
    elif wait.kind == "contest":
        result = [_judged_action(wait.players)]
    elif wait.task is not None:
        result = _task_actions(state, wait.task)
    if state.variant == "tower" and not state.finished:
        result += _collapse_actions(state)
    return result


def _start_actions(state: DschamalState, missing: tuple[str, ...]) -> list[Action]:
    choices = start_choices(state)
    count = START_COUNT[state.variant]
    colour = START_COLOUR[state.variant]
    result = []
    for k, player in enumerate(missing):
        suggestion = (
            choices[k * count : (k + 1) * count] if len(choices) >= (k + 1) * count else choices[:count]
        )
        result.append(
            Action(
                "start",
                f"{player}'s starting stone{'s' if count > 1 else ''}",
                (
                    Field(
                        "stones",
                        f"{count} {colour} stone{'s' if count > 1 else ''}",
                        "choices",
                        tuple(choices),
                        default=suggestion,
                    ),
                ),
                fixed={"player": player},
            )
        )
    return result


def _judged_action(seats: tuple[str, ...]) -> Action:
    fields = [Field("fastest", "Fastest", "choice", (*seats, TIE_CHOICE))]
    if len(seats) == 3:
        fields.append(Field("second", "Second fastest", "choice", (*seats, TIE_CHOICE), default=TIE_CHOICE))
    return Action(
        "judged",
        "The table decides who was fastest",
        tuple(fields),
        help="Only when the buttons cannot judge: the other players decide who was fastest.",
    )


def _task_actions(state: DschamalState, task: Task) -> list[Action]:
    fixed = {"player": task.player}
    if task.kind == "draw":
        return _draw_actions(state, task)
    if task.kind == "take":
        choices = tuple(ordered(state.stones_of(task.other)))
        return [
            Action(
                "take",
                f"{task.player} takes a stone of his or her choice from {task.other}",
                (Field("stone", "Stone", "choice", choices),),
                fixed={**fixed, "from": task.other},
            )
        ]
    if task.kind == "reach":
        fresh = [s for s in state.bag if not state.owners_of(shape_of(s))]
        choices = (*ordered(fresh), NONE_CHOICE)
        return [
            Action(
                "reach",
                f"{task.player} reaches into the bag again",
                (Field("stone", "Stone found", "choice", choices, default=NONE_CHOICE),),
                fixed=fixed,
                help="A coloured stone of a shape nobody owns is kept; anything else goes back (none).",
            )
        ]
    if task.kind == "give":
        others = tuple(p for p in state.players if p != task.player)
        return [
            Action(
                "give",
                f"{task.player} gives the {state.options.names.stone(task.stone)} to",
                (Field("to", "Player", "seat", others),),
                fixed={**fixed, "stone": task.stone},
            )
        ]
    moves = tuple(camel_choices(state.players, state.black, task.player))
    return [
        Action(
            "camel",
            f"{task.player}'s camel",
            (Field("move", "Move", "choice", moves, default=NONE_CHOICE),),
            fixed=fixed,
            help="give:<player> gives one of your black stones, take:<player> takes one of theirs.",
        )
    ]


def _draw_actions(state: DschamalState, task: Task) -> list[Action]:
    fixed = {"player": task.player}
    fields = [Field("stone", "Stone", "choice", tuple(draw_choices(state, task)))]
    calls = call_choices(state, task)
    if calls:
        fields.append(
            Field("camel_calls", 'Called "I am the camel!"', "seats", calls, required=False, default=[])
        )
    result = [Action("draw", f"What {task.player} drew", tuple(fields), fixed=fixed)]
    if several_allowed(state, task):
        coloured, black, camel = drawable(state, task)
        several = [
            Field("coloured", "Coloured stones", "choices", tuple(coloured), required=False, default=[]),
            Field("black", "Black stones", "int", tuple(range(black + 1)), required=False, default=0),
            Field(
                "camel",
                "The camel",
                "bool",
                (False, True) if camel else (False,),
                required=False,
                default=False,
            ),
        ]
        tower = state.stones_of(task.player) if state.variant == "tower" else ()
        if tower:
            several.append(
                Field("top", "Top stone of the tower (goes back)", "choice", tower, default=tower[-1])
            )
        result.append(
            Action(
                "several",
                f"{task.player} drew two or more stones at once",
                tuple(several),
                fixed=fixed,
            )
        )
    return result


def _collapse_actions(state: DschamalState) -> list[Action]:
    result = []
    for p in state.players:
        tower = state.stones_of(p)
        if len(tower) >= 2:
            result.append(
                Action(
                    "collapse",
                    f"{p}'s tower collapsed",
                    (Field("fallen", "Stones that fell off the foundation", "choices", tower[1:]),),
                    fixed={"player": p},
                    help="A tower knocked over by somebody else is rebuilt as it stood: enter nothing.",
                )
            )
    return result
