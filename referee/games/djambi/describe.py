"""Moves and their consequences in words, for verdicts and the display.

>>> from referee.games.djambi.board import Board
>>> board = Board()
>>> describe_move(board, Move.parse("c2-e4"))
"Red's militant c2–e4"
"""

from __future__ import annotations

from referee.games.djambi.board import Board, Outcome
from referee.games.djambi.moves import Move
from referee.games.djambi.pieces import Kind
from referee.games.djambi.squares import MAZE, square_name


def _n(sq: int) -> str:
    return square_name(sq)


def describe_move(board: Board, move: Move, outcome: Outcome | None = None) -> str:
    """One sentence for the move, read on the board *before* it is played."""
    squares = board.squares
    actor = squares[move.origin]
    target = squares[move.target]
    if actor is None or actor.kind is None:
        return str(move)
    who = actor.title
    s, t = _n(move.origin), _n(move.target)
    if target is None:
        text = f"{who} {s}–{t}"
        if move.target == MAZE:
            text += ", into the maze"
        if outcome is not None and actor.kind == Kind.REPORTER and outcome.kills:
            victims = ", ".join(f"{v.title} on {_n(sq)}" for v, sq, _ in outcome.kills)
            text += f", and reports: kills {victims}"
        elif move.victim is not None:
            victim = squares[move.victim]
            text += f", and kills {victim.title if victim else '?'} on {_n(move.victim)}"
        return text
    if move.target == MAZE and actor.kind != Kind.CHIEF:
        exit_ = _n(move.exit) if move.exit is not None else "?"
        if target.party is None:
            act = "takes the dead piece out of the maze"
        elif actor.kind == Kind.DIPLOMAT:
            act = f"evicts {target.title} from the maze"
        else:
            act = f"kills {target.title} in the maze"
        text = f"{who} {s} enters the maze, {act}, leaves to {exit_}"
        second = squares[move.exit] if move.exit is not None else None
        if second is not None:
            verb = "killing" if actor.kind == Kind.ASSASSIN else "sending into the maze"
            text += f" {verb} {second.title}"
        if actor.kind == Kind.ASSASSIN:
            return text + f"; the corpse lies on {s}"
        placed = "the chief" if actor.kind == Kind.DIPLOMAT else "the corpse"
        return text + f"; {placed} is placed on {_n(move.place) if move.place is not None else '?'}"
    place = _n(move.place) if move.place is not None else "?"
    if target.party is None:
        return f"{who} {s}–{t} moves the dead piece to {place}"
    if actor.kind == Kind.DIPLOMAT:
        where = "into the maze" if move.place == MAZE else f"to {place}"
        return f"{who} {s}–{t} moves {target.title} {where}"
    if actor.kind == Kind.ASSASSIN:
        return f"{who} {s}–{t} kills {target.title}; the corpse lies on {s}"
    seat = ", taking the maze" if move.target == MAZE else ""
    return f"{who} {s}–{t} kills {target.title}{seat}; the corpse is placed on {place}"
