"""What an unexplained board looks like: the illegal move played, and the rule it breaks.

When no legal move leads to what the camera sees, the referee reconstructs the move the
players made from the squares that changed (which piece left, where it landed, where a corpse
or a displaced piece appeared, a reporter's victim) and asks the engine's validator
(`why_illegal`) what is wrong with it. The findings, as the rules define them:

- ``illegal``: the move breaks a rule of its piece (a militant killing the chief in power, a
  piece jumping, a corpse in the maze when no legal move of that piece to that square exists);
- ``misplaced``: the piece's move is legal, but the corpse or displaced piece went where it may
  not (§1.7): one piece away from a legal placement, and the finding says which;
- ``forgotten-extra-turn``: a legal move by another player while the chief in power should
  have played his extra turn (§1.8); ``out-of-turn``: any other move out of turn;
- ``encircled``: a legal move after which a chief is encircled and dies (§1.9), but the chief
  still stands: turn him over.

Pure, like `referee.board_inference`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

from referee.games.base import Rule
from referee.games.djambi import rules
from referee.games.djambi.board import Board
from referee.games.djambi.describe import describe_move
from referee.games.djambi.moves import Move
from referee.games.djambi.pieces import CORPSE, Kind, Party
from referee.games.djambi.squares import MAZE, ORTHOGONAL_NEIGHBOURS, SQUARE_NAMES, Square
from referee.games.djambi.validate import Refusal, why_illegal

if TYPE_CHECKING:
    from referee.board_inference import Candidate, _Read

FindingKind = Literal["illegal", "misplaced", "forgotten-extra-turn", "out-of-turn", "encircled"]
_PLACEMENT_RULES = frozenset({rules.PLACEMENT.id, rules.CORPSES.id, rules.ASSASSIN.id, rules.DIPLOMAT.id})


@dataclass(frozen=True)
class Finding:
    """What the referee concludes from a board no legal move explains."""

    kind: FindingKind
    headline: str  # one line for the display: "Illegal move seen: …"
    move: str | None  # the move as the players made it, in the engine's notation
    rule: Rule | None
    message: str  # the rule's verdict in words
    legal: tuple[str, ...] = ()  # legal moves close to it (how to put it right)
    remedy: str = ""  # what the table can do about it

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "headline": self.headline,
            "move": self.move,
            "rule": self.rule.to_json() if self.rule else None,
            "message": self.message,
            "legal": list(self.legal),
            "remedy": self.remedy,
        }


def played_moves(board: Board, read: _Read) -> list[Move]:
    """Moves, legal or not, whose direct effect is exactly what changed on the board."""
    from referee.board_inference import _UNK, effect

    before, cells, diff = read.before, read.cells, read.diff
    origins = [d for d in diff if before[d] is not None and before[d].party is not None]  # type: ignore[union-attr]
    shown = [d for d in diff if cells[d] is not None and cells[d] is not _UNK]
    found: list[Move] = []
    seen: set[Move] = set()
    for s in origins:
        actor = before[s]
        places: list[Square | None] = [None, *shown]
        for t in (d for d in diff if d != s and cells[d] is actor):
            tries: list[Move] = [Move(s, t, place=p) for p in places]
            if actor is not None and actor.kind == Kind.REPORTER:
                tries += [
                    Move(s, t, victim=v) for v in ORTHOGONAL_NEIGHBOURS[t] if v in diff and cells[v] is CORPSE
                ]
            if before[MAZE] is not None and t != MAZE:  # entered the occupied maze, left to t
                tries += [Move(s, MAZE, exit=t, place=p) for p in places]
            for move in tries:
                if move in seen:
                    continue
                seen.add(move)
                changes = effect(board, move)
                if changes is not None and read.fast(changes)[0] == 0.0:
                    found.append(move)
    return found


def say(board: Board, move: Move) -> str:
    """The move in words, also for a piece that stayed in the occupied maze (never legal)."""
    actor, target = board.squares[move.origin], board.squares[move.target]
    if (
        move.target == MAZE
        and move.exit is None
        and actor is not None
        and actor.kind != Kind.CHIEF
        and target is not None
    ):
        s = SQUARE_NAMES[move.origin]
        if target.party is None:
            text = f"{actor.title} {s}–e5 moves onto the dead piece in the maze"
        else:
            verb = "moves" if actor.kind == Kind.DIPLOMAT else "kills"
            text = f"{actor.title} {s}–e5 {verb} {target.title} in the maze and stays there"
        if move.place is not None:
            text += f"; {'it' if actor.kind == Kind.DIPLOMAT else 'the corpse'} is placed on {SQUARE_NAMES[move.place]}"
        return text
    if actor is not None and actor.kind == Kind.ASSASSIN and move.place is not None and target is not None:
        # The assassin has no choice of square; say where the players put the corpse anyway.
        text = describe_move(board, Move(move.origin, move.target, move.exit))
        return text.rsplit(";", 1)[0] + f"; the corpse is put on {SQUARE_NAMES[move.place]}"
    return describe_move(board, move)


def _out_of_turn(board: Board, move: Move) -> Finding | None:
    """A move that would be legal if it were its player's turn."""
    actor = board.squares[move.origin]
    if actor is None or actor.party is None or board.turn is None:
        return None
    controller = board.control[actor.party]
    if controller < 0 or controller == board.turn:
        return None
    mover = Party(controller)
    theirs = board.copy()
    theirs.turn = mover
    if why_illegal(theirs, move) is not None:
        return None
    said = say(board, move)
    ruler = board.ruler()
    if ruler is not None and board.turn == ruler:
        message = (
            f"{ruler.title} rules the maze and plays after every other player's move: "
            f"it was {ruler.title}'s extra turn, not {mover.title}'s"
        )
        kind: FindingKind = "forgotten-extra-turn"
        headline = f"Forgotten extra turn: {said}, but {ruler.title} rules the maze and was to play"
    else:
        message = f"it is {board.turn.title}'s turn, not {mover.title}'s"
        kind = "out-of-turn"
        headline = f"Move out of turn: {said} — {message}"
    remedy = f"Take the move back; {board.turn.title} plays first."
    return Finding(kind, headline, str(move), rules.TURN_ORDER, message, (), remedy)


def _legal_alternatives(board: Board, move: Move, legal: Sequence[Move]) -> tuple[str, ...]:
    same = [m for m in legal if (m.origin, m.target, m.exit) == (move.origin, move.target, move.exit)]
    if not same and move.exit is not None:
        same = [m for m in legal if (m.origin, m.target) == (move.origin, move.target)]
    return tuple(str(m) for m in same[:6])


def _judge(board: Board, move: Move, refusal: Refusal, legal: Sequence[Move]) -> Finding:
    said = say(board, move)
    if refusal.rule.id == rules.TURN.id:
        late = _out_of_turn(board, move)
        if late is not None:
            return late
    alternatives = _legal_alternatives(board, move, legal)
    headline = f"Illegal move seen: {said} — {refusal.message}"
    if alternatives and refusal.rule.id in _PLACEMENT_RULES:
        what = "displaced piece" if board.squares[move.origin].kind == Kind.DIPLOMAT else "corpse"  # type: ignore[union-attr]
        remedy = (
            f"One piece away from a legal move: the {what} is misplaced. "
            f"Legal: {', '.join(alternatives[:3])}{' …' if len(alternatives) > 3 else ''}"
        )
        return Finding("misplaced", headline, str(move), refusal.rule, refusal.message, alternatives, remedy)
    remedy = "Take the move back on the board, then play a legal move."
    return Finding("illegal", headline, str(move), refusal.rule, refusal.message, alternatives, remedy)


def _encircled(board: Board, read: _Read, closest: Iterable[Candidate]) -> Finding | None:
    """A legal move whose only disagreement is a chief the engine says died encircled."""
    for cand in closest:
        if not cand.mismatched or not cand.exact:
            continue
        chiefs = [
            x
            for x in cand.mismatched
            if read.before[x] is not None
            and read.before[x].kind == Kind.CHIEF  # type: ignore[union-attr]
            and read.cells[x] is read.before[x]
            and x in cand.changed
        ]
        if chiefs and len(chiefs) == len(cand.mismatched):
            where = ", ".join(SQUARE_NAMES[x] for x in chiefs)
            who = " and ".join(f"{read.before[x].title}" for x in chiefs)  # type: ignore[union-attr]
            message = f"after {cand.said}, {who} on {where} is encircled and dies: turn him over"
            return Finding(
                "encircled",
                f"Encircled chief still standing: {message}",
                str(cand.move),
                rules.ENCIRCLEMENT,
                message,
                (str(cand.move),),
                "Turn the encircled chief over (he is a corpse now); the camera then records the move.",
            )
    return None


def explain_unexplained(board: Board, read: _Read, closest: Sequence[Candidate]) -> list[Finding]:
    """The findings for a board no legal move explains, most telling first."""
    out: list[Finding] = []
    encircled = _encircled(board, read, closest)
    if encircled is not None:
        out.append(encircled)
    legal = board.legal_moves()
    order = {"forgotten-extra-turn": 0, "out-of-turn": 1, "misplaced": 2, "illegal": 3}
    judged: list[Finding] = []
    for move in played_moves(board, read):
        refusal = why_illegal(board, move)
        if refusal is None:
            continue  # legal, but the engine's consequences differ: the encircled case above
        judged.append(_judge(board, move, refusal, legal))
    judged.sort(key=lambda f: order[f.kind])
    seen: set[str] = set()
    for finding in judged:
        if finding.headline not in seen:
            seen.add(finding.headline)
            out.append(finding)
    return out[:4]


__all__ = ["Finding", "explain_unexplained", "played_moves", "say"]
