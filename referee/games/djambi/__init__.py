"""Djambi (Machiavelli's chessboard): a complete rules engine with a text notation.

The shape follows python-chess: value types (`Party`, `Kind`, `Piece`, squares as ints,
`Move`), a `Position` with a FEN-like string, a `Board` you can push and pop, legal move
generation, perft, and an SVG picture. The rules are docs/shared djambi.md; every option of
its ambiguity register is an `Options` field (docs/games/djambi.md).

    >>> board = Board()
    >>> len(board.legal_moves()), board.perft(2)
    (30, 1205)
    >>> print(check_move(board.fen(), "a1-a3").message)
    the way from a1 to a3 is blocked by Red's reporter on a2: no piece jumps over another
"""

from __future__ import annotations

from referee.games.djambi.board import Board, Outcome
from referee.games.djambi.engine import DjambiEngine, DjambiState, legal_tree
from referee.games.djambi.moves import Move, MoveSyntaxError
from referee.games.djambi.options import OPTION_SPECS, Options
from referee.games.djambi.pieces import CORPSE, HOSTAGE, NEUTRAL, PIECES, Kind, Party, Piece
from referee.games.djambi.position import (
    Position,
    PositionError,
    grid_from_placement,
    placement_from_grid,
)
from referee.games.djambi.squares import MAZE, parse_square, square_name
from referee.games.djambi.validate import Refusal, why_illegal


def check_move(position: Position | str, move: Move | str) -> Refusal | None:
    """None if `move` is legal in `position`, else the rule it breaks (fast: no move list).

    Raises PositionError or MoveSyntaxError for strings that cannot be read.
    """
    board = Board(position)
    if isinstance(move, str):
        move = Move.parse(move)
    return why_illegal(board, move)


ENGINE = DjambiEngine()

__all__ = [
    "CORPSE",
    "ENGINE",
    "HOSTAGE",
    "MAZE",
    "NEUTRAL",
    "OPTION_SPECS",
    "PIECES",
    "Board",
    "DjambiState",
    "Kind",
    "Move",
    "MoveSyntaxError",
    "Options",
    "Outcome",
    "Party",
    "Piece",
    "Position",
    "PositionError",
    "Refusal",
    "check_move",
    "grid_from_placement",
    "legal_tree",
    "parse_square",
    "placement_from_grid",
    "square_name",
    "why_illegal",
]
