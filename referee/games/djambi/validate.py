"""Is this move legal, and if not, which rule does it break, in words a player understands.

`why_illegal` checks one move directly against the position: no move list is built, so it
answers in microseconds (the board reader asks it for every candidate move). It walks the
move as a player would explain it: whose piece, which line, what stands in the way, what the
piece may do to what it meets, the exit from the maze, the placement, the reporter's victim.
It must agree with `movegen.generate` on every move; the property tests hold it to that.

>>> from referee.games.djambi.board import Board
>>> print(why_illegal(Board(), Move.parse("a1-a5")).message)
the way from a1 to a5 is blocked by Red's reporter on a2: no piece jumps over another
"""

from __future__ import annotations

from dataclasses import dataclass

from referee.games.base import Rule
from referee.games.djambi import rules
from referee.games.djambi.board import Board
from referee.games.djambi.movegen import can_kill, can_manipulate
from referee.games.djambi.moves import Move
from referee.games.djambi.pieces import CORPSE, HOSTAGE, NEUTRAL, Kind, Party, Piece
from referee.games.djambi.squares import MAZE, ORTHOGONAL_NEIGHBOURS, Square, between, line, square_name

CHIEF, ASSASSIN, REPORTER, DIPLOMAT, NECROMOBILE, MILITANT = Kind


@dataclass(frozen=True)
class Refusal:
    """Why a move is illegal: the rule and a sentence for the table."""

    rule: Rule
    message: str


class _Illegal(Exception):
    def __init__(self, rule: Rule, message: str) -> None:
        super().__init__(message)
        self.refusal = Refusal(rule, message)


def _n(sq: Square) -> str:
    return square_name(sq)


def _what(piece: Piece | None) -> str:
    return "nothing" if piece is None else piece.title


def why_illegal(board: Board, move: Move) -> Refusal | None:
    """None if `move` is legal for the party to move, else the rule it breaks."""
    try:
        _check(board, move)
    except _Illegal as exc:
        return exc.refusal
    return None


def _check(board: Board, move: Move) -> None:
    mover = board.turn
    if mover is None:
        raise _Illegal(rules.GAME_OVER, "the game is over: no more moves")
    squares = board.squares
    s, t = move.origin, move.target
    actor = squares[s]
    if actor is None:
        raise _Illegal(rules.TURN, f"there is no piece on {_n(s)}")
    if actor.party is None or actor.kind is None:
        raise _Illegal(rules.CORPSES, f"the piece on {_n(s)} is dead: a dead piece never moves by itself")
    control = board.control[actor.party]
    if control == HOSTAGE:
        raise _Illegal(rules.HOSTAGE, f"{actor.title} on {_n(s)} is a hostage: hostage pieces never act")
    if control == NEUTRAL:
        raise _Illegal(
            rules.NEUTRAL,
            f"{actor.title} on {_n(s)} belongs to an encircled camp: nobody moves it until a chief rules the maze",
        )
    if control != mover:
        raise _Illegal(
            rules.TURN, f"{actor.title} on {_n(s)} is not {mover.title}'s to move: it is {mover.title}'s turn"
        )
    kind = actor.kind
    if kind == CHIEF and actor.party in board.eliminated:
        raise _Illegal(
            rules.ENCIRCLEMENT, f"{actor.title} was encircled: he stays where he is and never moves again"
        )
    if s == t:
        raise _Illegal(
            rules.QUEEN_MOVE, "a piece must move: the origin and the destination are the same square"
        )
    found = line(s, t)
    if found is None:
        raise _Illegal(
            rules.QUEEN_MOVE, f"{_n(s)} to {_n(t)} is not a straight line: pieces move like a chess queen"
        )
    if kind == MILITANT and found[1] > 2:
        raise _Illegal(rules.MILITANT, "the militant moves only 1 or 2 squares")
    for x in between(s, t):
        if squares[x] is not None:
            raise _Illegal(
                rules.NO_JUMP,
                f"the way from {_n(s)} to {_n(t)} is blocked by {_what(squares[x])} on {_n(x)}: "
                "no piece jumps over another",
            )
    target = squares[t]
    if target is None:
        _check_empty_destination(board, mover, move, kind)
    elif t == MAZE:
        _check_maze_action(board, mover, move, actor, target)
    else:
        _check_action(board, mover, move, actor, target)


def _no_extra(move: Move, exit_: bool = True, place: bool = True, victim: bool = True) -> None:
    if exit_ and move.exit is not None:
        raise _Illegal(
            rules.MAZE_ACTION,
            "an exit square (>) is written only when a piece enters the occupied maze to act",
        )
    if place and move.place is not None:
        raise _Illegal(rules.PLACEMENT, "this move puts nothing down: write no placement (@)")
    if victim and move.victim is not None:
        raise _Illegal(
            rules.REPORTER_KILL, "only the reporter, ending its move on an empty square, names a victim (+)"
        )


def _check_empty_destination(board: Board, mover: Party, move: Move, kind: Kind) -> None:
    t = move.target
    if t == MAZE and kind != CHIEF:
        raise _Illegal(
            rules.MAZE_STOP, f"only a chief may stop in the maze; the {kind.title} may only cross it"
        )
    if kind != REPORTER:
        _no_extra(move)
        return
    _no_extra(move, victim=False)
    if board.options.reporter_victims == "all":
        if move.victim is not None:
            raise _Illegal(
                rules.REPORTER_KILL,
                "with reporter_victims=all the reporter kills every adjacent piece by itself: write no victim",
            )
        return
    squares = board.squares
    victims = []
    for x in ORTHOGONAL_NEIGHBOURS[t]:
        piece = squares[x]
        if (
            x != move.origin
            and piece is not None
            and piece.party is not None
            and can_kill(board, mover, piece)
        ):
            victims.append(x)
    v = move.victim
    if v is None:
        if victims and board.options.reporter_kill == "mandatory":
            names = ", ".join(_n(x) for x in victims)
            raise _Illegal(
                rules.REPORTER_KILL,
                f"the reporter must kill (option reporter_kill=mandatory): choose +{names}",
            )
        return
    if v not in ORTHOGONAL_NEIGHBOURS[t] or v == move.origin:
        raise _Illegal(
            rules.REPORTER_KILL,
            f"the reporter kills only on one of the four squares sharing a side with {_n(t)}, not {_n(v)}",
        )
    victim = squares[v]
    if victim is None:
        raise _Illegal(rules.REPORTER_KILL, f"there is nobody on {_n(v)} for the reporter to kill")
    if victim.party is None:
        raise _Illegal(rules.CORPSES, f"the piece on {_n(v)} is already dead")
    _check_kill(board, mover, victim, v)


def _check_kill(board: Board, mover: Party, victim: Piece, where: Square) -> None:
    assert victim.party is not None
    if can_kill(board, mover, victim):
        return
    if board.control[victim.party] == NEUTRAL:
        raise _Illegal(
            rules.NEUTRAL,
            f"{victim.title} on {_n(where)} belongs to an encircled camp: its pieces are neutral and nobody "
            "may kill them until a chief rules the maze",
        )
    if victim.kind == CHIEF and victim.party == mover:
        raise _Illegal(rules.OWN_KILL, "no player may kill his own chief")
    raise _Illegal(
        rules.OWN_KILL,
        f"{victim.title} on {_n(where)} is one of your own pieces: you may not kill it "
        f"(option own_kill={board.options.own_kill})",
    )


def _check_manipulation(board: Board, mover: Party, victim: Piece, where: Square) -> None:
    assert victim.party is not None
    if can_manipulate(board, mover, victim):
        return
    if victim.party == mover:
        raise _Illegal(rules.DIPLOMAT, "the diplomat may not manipulate the pieces of its own camp")
    if board.control[victim.party] == NEUTRAL:
        raise _Illegal(
            rules.NEUTRAL,
            f"{victim.title} on {_n(where)} belongs to an encircled camp: its pieces are neutral and nobody "
            "may move them until a chief rules the maze",
        )
    raise _Illegal(
        rules.DIPLOMAT,
        f"{victim.title} on {_n(where)} is your satellite: the diplomat may not manipulate it "
        "(option diplomat_satellites=false)",
    )


_NO_CORPSE_IN_MAZE = Refusal(rules.CORPSES, "no dead piece may be placed in the maze")
_ONLY_CHIEFS_IN_MAZE = Refusal(rules.DIPLOMAT, "only a chief may be placed in the maze")
_NO_CHIEF_TO_MAZE = Refusal(
    rules.DIPLOMAT, "a manipulated chief may not be placed in the maze (option chief_to_maze=false)"
)
_NOT_BACK_TO_MAZE = Refusal(
    rules.DIPLOMAT,
    "the evicted chief goes back on the field, not into the maze (option chief_back_to_maze=false)",
)


def _check_place(move: Move, allowed: set[Square], what: str, maze_refusal: Refusal | None) -> None:
    """The placement square of `what`: present, and one of `allowed`.

    `maze_refusal` is the reason given when the maze is asked for and is empty but forbidden.
    """
    p = move.place
    if p is None:
        raise _Illegal(rules.PLACEMENT, f"write where {what} is placed, with @ and a free square (e.g. @a5)")
    if p in allowed:
        return
    if p == MAZE and maze_refusal is not None:
        raise _Illegal(maze_refusal.rule, maze_refusal.message)
    raise _Illegal(rules.PLACEMENT, f"{what} cannot be placed on {_n(p)}: that square is not free")


def _check_action(board: Board, mover: Party, move: Move, actor: Piece, target: Piece) -> None:
    """An action on the piece on a field square (not the maze)."""
    kind = actor.kind
    assert kind is not None
    s, t = move.origin, move.target
    _no_extra(move, place=False)
    free = {x for x, piece in enumerate(board.squares) if piece is None and x != MAZE}
    if s != MAZE:
        free.add(s)
    if target.party is None:
        if kind != NECROMOBILE:
            raise _Illegal(
                rules.CORPSES, f"only the necromobile may move onto a dead piece; the {kind.title} cannot"
            )
        _check_place(move, free, "the dead piece", _NO_CORPSE_IN_MAZE)
        return
    if kind == REPORTER:
        raise _Illegal(
            rules.REPORTER_MOVE,
            "the reporter moves only to empty squares; it kills from its new square with +victim",
        )
    if kind == NECROMOBILE:
        raise _Illegal(rules.NECROMOBILE, "the necromobile acts only on dead pieces")
    if kind == DIPLOMAT:
        _check_manipulation(board, mover, target, t)
        allowed = set(free)
        maze_refusal: Refusal | None = _ONLY_CHIEFS_IN_MAZE
        if target.kind == CHIEF:
            maze_refusal = None if board.squares[MAZE] is not None else _NO_CHIEF_TO_MAZE
            if board.squares[MAZE] is None and board.options.chief_to_maze:
                allowed.add(MAZE)
        _check_place(move, allowed, f"the manipulated {Kind(target.kind).title}", maze_refusal)
        return
    _check_kill(board, mover, target, t)
    if kind == ASSASSIN:
        if move.place is not None:
            raise _Illegal(
                rules.ASSASSIN,
                f"the assassin's victim is laid on the assassin's departure square {_n(s)}: write no placement",
            )
        return
    _check_place(move, free, "the dead piece", _NO_CORPSE_IN_MAZE)


def _check_maze_action(board: Board, mover: Party, move: Move, actor: Piece, ruler: Piece) -> None:
    """An action on the piece in the maze: a chief takes the seat, others enter, act and leave."""
    kind = actor.kind
    assert kind is not None
    s = move.origin
    options = board.options
    if kind == REPORTER:
        raise _Illegal(
            rules.REPORTER_MOVE,
            "the reporter never enters the maze: it kills the chief there from d5, f5, e4 or e6",
        )
    if ruler.party is None:
        if kind != NECROMOBILE:
            raise _Illegal(
                rules.CORPSES, "the maze holds a dead piece: only a necromobile may enter to remove it"
            )
    elif kind == NECROMOBILE:
        raise _Illegal(rules.NECROMOBILE, "the necromobile acts only on dead pieces")
    elif kind == MILITANT and not options.militant_kills_ruler:
        raise _Illegal(rules.MILITANT_RULER, "the militant may not kill the chief in power")
    elif kind == DIPLOMAT:
        _check_manipulation(board, mover, ruler, MAZE)
    else:
        _check_kill(board, mover, ruler, MAZE)
    if kind == CHIEF:
        _no_extra(move, place=False)
        free = {x for x, piece in enumerate(board.squares) if piece is None and x != MAZE} | {s}
        _check_place(move, free, "the dead chief", _NO_CORPSE_IN_MAZE)
        return
    if move.victim is not None:
        _no_extra(move, exit_=False, place=False)
    if move.exit is None:
        raise _Illegal(
            rules.MAZE_ACTION,
            f"after acting in the maze the {kind.title} must leave it at once: "
            f"add the exit square, e.g. {_n(s)}-e5>d6",
        )
    placing = kind != ASSASSIN
    if not placing and move.place is not None:
        raise _Illegal(
            rules.ASSASSIN,
            f"the assassin's victim is laid on the assassin's departure square {_n(s)}: write no placement",
        )
    what = "the evicted chief" if kind == DIPLOMAT else "the dead piece"
    maze_refusal = None if kind == DIPLOMAT else _NO_CORPSE_IN_MAZE
    overlay: dict[Square, Piece | None] = {s: None, MAZE: actor}
    empties = {x for x, piece in enumerate(board.squares) if piece is None and x != MAZE} | {s}
    if options.maze_order == "place_then_exit":
        if placing:
            _check_place(move, empties, what, maze_refusal)
            assert move.place is not None
            overlay[move.place] = ruler if kind == DIPLOMAT else CORPSE
        else:
            overlay[s] = CORPSE
        second = _check_exit(board, mover, move, actor, overlay)
        return
    second = _check_exit(board, mover, move, actor, overlay)
    if placing:
        assert move.exit is not None
        allowed = empties - {move.exit}
        back = kind == DIPLOMAT and second is None
        if back and options.chief_back_to_maze:
            allowed.add(MAZE)
        if back and maze_refusal is None and MAZE not in allowed:
            maze_refusal = _NOT_BACK_TO_MAZE
        _check_place(move, allowed, what, maze_refusal)


def _check_exit(
    board: Board, mover: Party, move: Move, actor: Piece, overlay: dict[Square, Piece | None]
) -> Piece | None:
    """Check the exit move from the maze; returns the second chief of a master move, if any."""
    e = move.exit
    assert e is not None
    kind = actor.kind
    squares = board.squares

    def at(x: Square) -> Piece | None:
        return overlay[x] if x in overlay else squares[x]

    found = line(MAZE, e)
    if found is None:
        raise _Illegal(rules.MAZE_ACTION, f"the exit from the maze to {_n(e)} is not a straight line")
    if kind == MILITANT and found[1] > 2:
        raise _Illegal(rules.MILITANT, "the militant moves only 1 or 2 squares, also when leaving the maze")
    for x in between(MAZE, e):
        if at(x) is not None:
            raise _Illegal(
                rules.NO_JUMP,
                f"the exit from the maze to {_n(e)} is blocked by {_what(at(x))} on {_n(x)}",
            )
    occupant = at(e)
    if occupant is None:
        if kind == ASSASSIN and e == move.origin:
            raise _Illegal(
                rules.ASSASSIN,
                f"the assassin may not leave the maze to {_n(e)}: its victim's corpse goes there",
            )
        return None
    master = board.options.master_moves and kind in (ASSASSIN, DIPLOMAT)
    if master and occupant.kind == CHIEF and occupant.party is not None and e not in overlay:
        if kind == ASSASSIN:
            _check_kill(board, mover, occupant, e)
        else:
            _check_manipulation(board, mover, occupant, e)
        return occupant
    raise _Illegal(
        rules.MAZE_ACTION,
        f"the exit from the maze may not kill or relocate any piece: {_n(e)} is taken by {_what(occupant)}",
    )
