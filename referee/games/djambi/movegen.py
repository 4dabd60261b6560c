"""Legal move generation: every piece's complete turns, follow-ups included (djambi.md §1.4–1.7).

A generated `Move` is a whole turn: a kill by a chief comes once per square the corpse may be
laid on, a diplomat's manipulation once per placement, a maze action once per exit (and
placement), a reporter's move once per victim (and once without, when the kill is optional).
Entering the occupied maze is therefore legal only when the whole sequence can be completed
(register row A7).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from referee.games.djambi.moves import Move
from referee.games.djambi.pieces import NEUTRAL, Kind, Party, Piece
from referee.games.djambi.squares import MAZE, ORTHOGONAL_NEIGHBOURS, RAYS, Square

if TYPE_CHECKING:
    from referee.games.djambi.board import Board

CHIEF, ASSASSIN, REPORTER, DIPLOMAT, NECROMOBILE, MILITANT = Kind


def can_kill(board: Board, mover: Party, victim: Piece) -> bool:
    """Whether `mover`'s pieces may kill the living `victim` (own pieces: register A2)."""
    assert victim.party is not None
    control = board.control[victim.party]
    if control == mover:
        own = board.options.own_kill
        return own == "all" or (own == "non_chief" and victim.kind != CHIEF)
    if control == NEUTRAL:
        return board.options.neutral == "killable"
    return True  # an enemy, or the hostage camp


def can_manipulate(board: Board, mover: Party, victim: Piece) -> bool:
    """Whether `mover`'s diplomat may move the living `victim` (never its own camp, §1.6)."""
    assert victim.party is not None
    if victim.party == mover:
        return False
    control = board.control[victim.party]
    if control == mover:
        return board.options.diplomat_satellites  # register A11
    if control == NEUTRAL:
        return board.options.neutral == "killable"  # register A15
    return True


def fox_news_victims(board: Board, origin: Square, target: Square) -> list[Square]:
    """Option reporter_victims=all: every adjacent living piece, own ones too, but no immune neutral."""
    squares = board.squares
    found = []
    for v in ORTHOGONAL_NEIGHBOURS[target]:
        piece = squares[v]
        if v == origin or piece is None or piece.party is None:
            continue
        if board.control[piece.party] == NEUTRAL and board.options.neutral == "immune":
            continue
        found.append(v)
    return found


def free_squares(board: Board) -> list[Square]:
    """Empty squares a corpse or a displaced piece may be laid on: all but the maze."""
    return [s for s, piece in enumerate(board.squares) if piece is None and s != MAZE]


def movable(board: Board, mover: Party) -> list[Square]:
    """The squares of the pieces `mover` may move now."""
    squares, control, eliminated = board.squares, board.control, board.eliminated
    return [
        s
        for s, piece in enumerate(squares)
        if piece is not None
        and piece.party is not None
        and control[piece.party] == mover
        and not (piece.kind == CHIEF and piece.party in eliminated)  # an inactive chief (A14)
    ]


def generate(board: Board) -> list[Move]:
    """All legal moves of the party to move (empty when the game is over)."""
    mover = board.turn
    out: list[Move] = []
    if mover is None:
        return out
    free = free_squares(board)
    for s in movable(board, mover):
        piece_moves(board, s, free, out)
    return out


def has_legal_move(board: Board) -> bool:
    mover = board.turn
    if mover is None:
        return False
    free = free_squares(board)
    out: list[Move] = []
    for s in movable(board, mover):
        piece_moves(board, s, free, out)
        if out:
            return True
    return False


def piece_moves(board: Board, origin: Square, free: list[Square], out: list[Move]) -> None:
    """Append the legal moves of the piece on `origin` (which the mover controls) to `out`."""
    squares = board.squares
    piece = squares[origin]
    assert piece is not None and piece.kind is not None
    mover = board.turn
    assert mover is not None
    kind = piece.kind
    reach = 2 if kind == MILITANT else 8
    free_here = free if origin == MAZE else [*free, origin]  # the vacated square is free (§1.7)
    for ray in RAYS[origin]:
        for t in ray[:reach]:
            occupant = squares[t]
            if occupant is None:
                if t == MAZE:
                    if kind == CHIEF:
                        out.append(Move(origin, t))
                    continue  # the others cross the empty maze without stopping (§1.5)
                if kind == REPORTER:
                    _reporter_moves(board, mover, origin, t, out)
                else:
                    out.append(Move(origin, t))
                continue
            if t == MAZE:
                _maze_actions(board, mover, origin, piece, occupant, free, out)
            elif occupant.party is None:
                if kind == NECROMOBILE:
                    out.extend(Move(origin, t, place=p) for p in free_here)
            elif kind in (CHIEF, MILITANT):
                if can_kill(board, mover, occupant):
                    out.extend(Move(origin, t, place=p) for p in free_here)
            elif kind == ASSASSIN:
                if can_kill(board, mover, occupant):
                    out.append(Move(origin, t))
            elif kind == DIPLOMAT and can_manipulate(board, mover, occupant):
                out.extend(Move(origin, t, place=p) for p in free_here)
                if occupant.kind == CHIEF and squares[MAZE] is None and board.options.chief_to_maze:
                    out.append(Move(origin, t, place=MAZE))  # register A9: power at once
            break  # nothing passes an occupied square


def _reporter_moves(board: Board, mover: Party, origin: Square, t: Square, out: list[Move]) -> None:
    options = board.options
    if options.reporter_victims == "all":
        out.append(Move(origin, t))
        return
    squares = board.squares
    victims = []
    for v in ORTHOGONAL_NEIGHBOURS[t]:
        piece = squares[v]
        if v != origin and piece is not None and piece.party is not None and can_kill(board, mover, piece):
            victims.append(v)
    if not victims or options.reporter_kill == "optional":
        out.append(Move(origin, t))
    out.extend(Move(origin, t, victim=v) for v in victims)


def _maze_actions(
    board: Board,
    mover: Party,
    origin: Square,
    piece: Piece,
    occupant: Piece,
    free: list[Square],
    out: list[Move],
) -> None:
    """Acting on the maze's occupant: a chief takes the seat; others enter, act and leave (§1.5)."""
    kind = piece.kind
    assert kind is not None
    options = board.options
    if occupant.party is None:
        if kind != NECROMOBILE:
            return
    elif kind == CHIEF:
        if can_kill(board, mover, occupant):
            out.extend(Move(origin, MAZE, place=p) for p in [*free, origin])
        return
    elif kind == ASSASSIN or (kind == MILITANT and options.militant_kills_ruler):
        if not can_kill(board, mover, occupant):
            return
    elif kind == DIPLOMAT:
        if not can_manipulate(board, mover, occupant):
            return
    else:
        return
    limit = 2 if kind == MILITANT else 8
    master = options.master_moves and (kind in (ASSASSIN, DIPLOMAT))
    if options.maze_order == "exit_then_place":
        for e, second in _exits(board, mover, origin, None, limit, master, kind):
            if kind == ASSASSIN:
                if e != origin:  # the departure square waits for the corpse (register A6)
                    out.append(Move(origin, MAZE, exit=e))
                continue
            places = [p for p in free if p != e]
            if e != origin:
                places.append(origin)
            if kind == DIPLOMAT and options.chief_back_to_maze and second is None:
                places.append(MAZE)  # register A10
            out.extend(Move(origin, MAZE, exit=e, place=p) for p in places)
    elif kind == ASSASSIN:
        for e, _ in _exits(board, mover, origin, origin, limit, master, kind):
            out.append(Move(origin, MAZE, exit=e))
    else:
        for p in [*free, origin]:
            for e, _ in _exits(board, mover, origin, p, limit, master, kind):
                out.append(Move(origin, MAZE, exit=e, place=p))


def _exits(
    board: Board, mover: Party, origin: Square, blocked: Square | None, limit: int, master: bool, kind: Kind
) -> list[tuple[Square, Piece | None]]:
    """Exit squares from the maze, with the second chief a master move acts on (or None).

    The actor has left `origin` (empty unless it is `blocked`, where a piece was placed first).
    """
    squares = board.squares
    found: list[tuple[Square, Piece | None]] = []
    for ray in RAYS[MAZE]:
        for t in ray[:limit]:
            if t == blocked:
                break
            occupant = None if t == origin else squares[t]
            if occupant is None:
                found.append((t, None))
                continue
            if master and occupant.kind == CHIEF and occupant.party is not None:
                allowed = can_kill if kind == ASSASSIN else can_manipulate
                if allowed(board, mover, occupant):
                    found.append((t, occupant))
            break
    return found
