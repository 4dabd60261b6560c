"""Encirclement (djambi.md §1.9, register rows A12 and A13).

"If a Leader becomes completely immobilized, fully encircled by corpses either friend or foe
that prevent him from moving, and does not have a remaining Necromobile to rescue him … he
likewise perishes." Sources read "encircled" four ways; the option `encircle` picks one:

- ``group`` (default): flood from the chief through the pieces his player controls; he is
  free if the group touches an empty square or a living piece it could fight (an enemy, a
  hostage, a killable neutral). Corpses, the board edge and immune neutral pieces are walls.
- ``literal8``: all eight neighbours are corpses or the edge ([CV-AF]).
- ``throne_access``: corpses cut every path to the maze; living pieces are passable ([CH]).
- ``flood``: flood through living pieces of any side; free if an empty square is reachable
  ([CH] "strict"/"loose", which differ in the necromobile: option necromobile_saves).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.games.djambi.pieces import CORPSE, NEUTRAL, PIECES, Kind, Party
from referee.games.djambi.squares import MAZE, NEAR_MAZE, NEIGHBOURS, Square

if TYPE_CHECKING:
    from referee.games.djambi.board import Board


def chief_square(board: Board, party: Party) -> Square | None:
    chief = PIECES[party][Kind.CHIEF]
    for s, piece in enumerate(board.squares):
        if piece is chief:
            return s
    return None


def is_encircled(board: Board, party: Party) -> bool:
    """Whether `party`'s chief (playing, outside the maze) is encircled and not rescued."""
    start = chief_square(board, party)
    if start is None or start == MAZE:
        return False  # encirclement has no effect on a chief in the maze (§1.5)
    geometry = board.options.encircle
    if geometry == "group":
        walled = _group(board, party, start)
    elif geometry == "literal8":
        walled = all(board.squares[n] == CORPSE for n in NEIGHBOURS[start])
    elif geometry == "throne_access":
        walled = _cut_from_maze(board, start)
    else:
        walled = _flood(board, start)
    return walled and not _rescued(board, party)


def _group(board: Board, party: Party, start: Square) -> bool:
    squares, control = board.squares, board.control
    immune = board.options.neutral == "immune"
    seen = {start}
    stack = [start]
    while stack:
        for n in NEIGHBOURS[stack.pop()]:
            piece = squares[n]
            if piece is None:
                return False
            if piece.party is None or n in seen:
                continue
            owner = control[piece.party]
            if owner == party:
                seen.add(n)
                stack.append(n)
            elif not (owner == NEUTRAL and immune):
                return False  # a living piece he could fight breaks the ring
    return True


def _cut_from_maze(board: Board, start: Square) -> bool:
    squares = board.squares
    seen = {start}
    stack = [start]
    while stack:
        s = stack.pop()
        if s in NEAR_MAZE:
            return False
        for n in NEIGHBOURS[s]:
            piece = squares[n]
            if n not in seen and (piece is None or piece.party is not None):
                seen.add(n)
                stack.append(n)
    return True


def _flood(board: Board, start: Square) -> bool:
    squares = board.squares
    seen = {start}
    stack = [start]
    while stack:
        for n in NEIGHBOURS[stack.pop()]:
            piece = squares[n]
            if piece is None:
                return False
            if piece.party is not None and n not in seen:
                seen.add(n)
                stack.append(n)
    return True


def _rescued(board: Board, party: Party) -> bool:
    """Register A13: the necromobile that keeps an encircled chief alive."""
    rule = board.options.necromobile_saves
    if rule == "none":
        return False
    if rule == "own":
        return board.control[party] == party and PIECES[party][Kind.NECROMOBILE] in board.squares
    return any(
        piece is not None
        and piece.kind == Kind.NECROMOBILE
        and piece.party is not None
        and board.control[piece.party] == party
        for piece in board.squares
    )
