"""The mutable board: push a move, pop it back, list the legal moves (like python-chess).

    >>> board = Board()
    >>> len(board.legal_moves())
    30
    >>> outcome = board.push(Move.parse("c2-e4"))
    >>> board.turn, board.pop()
    (<Party.BLUE: 1>, Move(origin=11, target=31, exit=None, place=None, victim=None))

`push` assumes a legal move (check with `is_legal` or `why_illegal` first) and carries out
everything that follows from it: kills and placements, elimination and satellites, the
encirclement check for every chief, the ruler taking neutral pieces, the game's end and the
turn order with skips. What happened is returned as an `Outcome` for the referee's verdicts.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from referee.games.djambi import encircle, movegen
from referee.games.djambi.moves import Move
from referee.games.djambi.options import Options
from referee.games.djambi.pieces import CORPSE, NEUTRAL, Kind, Party, Piece
from referee.games.djambi.position import Position, camp_in_power, camp_is_playing
from referee.games.djambi.squares import MAZE, Square
from referee.games.djambi.turns import next_turn


@dataclass
class Outcome:
    """What one move did, in order, for verdicts and the display."""

    mover: Party
    piece: Piece
    ruler_before: Party | None
    ruler_after: Party | None = None
    kills: list[tuple[Piece, Square, Square]] = field(default_factory=list)  # victim, died on, corpse on
    displaced: list[tuple[Piece, Square, Square]] = field(default_factory=list)  # piece or corpse, from, to
    eliminated: list[tuple[Party, str, Party | None]] = field(default_factory=list)  # camp, cause, by
    handovers: list[tuple[Party, int]] = field(default_factory=list)  # camp, new control (eliminations)
    claimed: list[tuple[Party, Party]] = field(default_factory=list)  # neutral camp, ruler taking it
    skipped: list[Party] = field(default_factory=list)
    blocked: bool = False  # nobody can move any more


_Snapshot = tuple[list[Piece | None], list[int], set[Party], Party | None, Party]


class Board:
    """A position you can change: `push`, `pop`, `legal_moves`, `perft`."""

    def __init__(self, position: Position | str | None = None) -> None:
        if position is None:
            position = Position.initial()
        elif isinstance(position, str):
            position = Position.parse(position)
        self.squares: list[Piece | None] = list(position.squares)
        self.turn: Party | None = position.turn
        self.cursor: Party = position.cursor
        self.control: list[int] = list(position.control)
        self.eliminated: set[Party] = set(position.eliminated)
        self.options: Options = position.options
        self._stack: list[tuple[Move, _Snapshot, Outcome]] = []

    # -- facts ---------------------------------------------------------------------------

    def position(self) -> Position:
        return Position(
            tuple(self.squares),
            self.turn,
            self.cursor,
            tuple(self.control),
            frozenset(self.eliminated),
            self.options,
        )

    def fen(self) -> str:
        return self.position().fen()

    def is_playing(self, party: Party) -> bool:
        return camp_is_playing(self.control, self.eliminated, party)

    def playing(self) -> tuple[Party, ...]:
        return tuple(p for p in Party if self.is_playing(p))

    def ruler(self) -> Party | None:
        return camp_in_power(self.squares, self.control, self.eliminated)

    def winner(self) -> Party | None:
        playing = self.playing()
        return playing[0] if self.turn is None and len(playing) == 1 else None

    def legal_moves(self) -> list[Move]:
        return movegen.generate(self)

    def has_legal_move(self) -> bool:
        return movegen.has_legal_move(self)

    def is_legal(self, move: Move) -> bool:
        from referee.games.djambi.validate import why_illegal

        return why_illegal(self, move) is None

    def copy(self) -> Board:
        """The same position, without the move stack."""
        return Board(self.position())

    @property
    def move_stack(self) -> list[Move]:
        return [m for m, _, _ in self._stack]

    # -- changing the board --------------------------------------------------------------

    def push(self, move: Move) -> Outcome:
        """Play a legal move for the party to move and everything that follows from it."""
        mover = self.turn
        piece = self.squares[move.origin]
        assert mover is not None and piece is not None, "push() needs a legal move"
        snapshot = (self.squares.copy(), self.control.copy(), set(self.eliminated), self.turn, self.cursor)
        outcome = Outcome(mover, piece, self.ruler())
        self._carry_out(move, mover, piece, outcome)
        self._settle(outcome)
        self._advance(mover, outcome)
        outcome.ruler_after = self.ruler()
        self._stack.append((move, snapshot, outcome))
        return outcome

    def pop(self) -> Move:
        move, (squares, control, eliminated, turn, cursor), _ = self._stack.pop()
        self.squares, self.control, self.eliminated, self.turn, self.cursor = (
            squares,
            control,
            eliminated,
            turn,
            cursor,
        )
        return move

    def _carry_out(self, move: Move, mover: Party, actor: Piece, outcome: Outcome) -> None:
        squares = self.squares
        s, t = move.origin, move.target
        target = squares[t]
        squares[s] = None
        if target is None:
            squares[t] = actor
            if actor.kind == Kind.REPORTER:
                if self.options.reporter_victims == "all":
                    victims = movegen.fox_news_victims(self, s, t)
                else:
                    victims = [] if move.victim is None else [move.victim]
                for v in victims:
                    self._kill(mover, v, v, outcome)
            return
        if t == MAZE and actor.kind != Kind.CHIEF:
            # Enter, act, leave, place: the order (option maze_order) changes what is legal,
            # not where everything ends up.
            assert move.exit is not None
            second = squares[move.exit]  # a master move's second chief (register A8)
            squares[MAZE] = None
            squares[move.exit] = actor
            if actor.kind == Kind.ASSASSIN:
                self._lay(mover, target, MAZE, s, outcome)
            elif target.party is None:
                assert move.place is not None
                squares[move.place] = CORPSE
                outcome.displaced.append((CORPSE, MAZE, move.place))
            elif actor.kind == Kind.DIPLOMAT:
                assert move.place is not None
                squares[move.place] = target
                outcome.displaced.append((target, MAZE, move.place))
            else:  # a militant under the militant_kills_ruler house rule
                assert move.place is not None
                self._lay(mover, target, MAZE, move.place, outcome)
            if second is not None:
                if actor.kind == Kind.ASSASSIN:
                    self._lay(mover, second, move.exit, MAZE, outcome)
                else:
                    squares[MAZE] = second
                    outcome.displaced.append((second, move.exit, MAZE))
            return
        squares[t] = actor
        if target.party is None:  # the necromobile relocates a corpse
            assert move.place is not None
            squares[move.place] = CORPSE
            outcome.displaced.append((CORPSE, t, move.place))
        elif actor.kind == Kind.DIPLOMAT:
            assert move.place is not None
            squares[move.place] = target
            outcome.displaced.append((target, t, move.place))
        elif actor.kind == Kind.ASSASSIN:
            self._lay(mover, target, t, s, outcome)
        else:
            assert move.place is not None
            self._lay(mover, target, t, move.place, outcome)

    def _kill(self, mover: Party, where: Square, corpse_at: Square, outcome: Outcome) -> None:
        victim = self.squares[where]
        assert victim is not None
        self.squares[where] = None
        self._lay(mover, victim, where, corpse_at, outcome)

    def _lay(self, mover: Party, victim: Piece, died_on: Square, corpse_at: Square, outcome: Outcome) -> None:
        """The victim dies; its corpse lies on `corpse_at`; a playing chief's camp is out (§1.9)."""
        self.squares[corpse_at] = CORPSE
        outcome.kills.append((victim, died_on, corpse_at))
        if victim.kind == Kind.CHIEF and victim.party is not None and self.is_playing(victim.party):
            cause = "killed" if victim.party != mover else "suicide"
            self._eliminate(victim.party, cause, mover if victim.party != mover else None, outcome)

    def _eliminate(self, party: Party, cause: str, heir: Party | None, outcome: Outcome) -> None:
        """`party` is out; what it controlled goes to `heir`, or waits as neutral pieces."""
        self.eliminated.add(party)
        outcome.eliminated.append((party, cause, heir))
        new = NEUTRAL if heir is None else int(heir)
        for camp in Party:
            if self.control[camp] == party:
                self.control[camp] = new
                outcome.handovers.append((camp, new))

    def _settle(self, outcome: Outcome) -> None:
        """After a move: the ruler claims neutral pieces, chiefs are checked for encirclement."""
        self._hand_neutrals_to_ruler(outcome)
        while True:
            walled = [p for p in self.playing() if encircle.is_encircled(self, p)]
            if not walled:
                break
            for party in walled:
                if self.options.encircled_chief == "corpse":
                    where = encircle.chief_square(self, party)
                    assert where is not None
                    self.squares[where] = CORPSE
                self._eliminate(party, "encircled", None, outcome)
        self._hand_neutrals_to_ruler(outcome)

    def _hand_neutrals_to_ruler(self, outcome: Outcome) -> None:
        ruler = self.ruler()
        if ruler is None:
            return
        for camp in Party:
            if self.control[camp] == NEUTRAL:
                self.control[camp] = int(ruler)
                outcome.claimed.append((camp, ruler))

    def _advance(self, mover: Party, outcome: Outcome) -> None:
        """Pass the turn (§1.8), skipping (or eliminating) players with no legal move (A18)."""
        for _ in range(2 * len(Party) + 2):
            playing = self.playing()
            if len(playing) <= 1:
                self.turn = None
                return
            self.turn, self.cursor = next_turn(
                mover, self.cursor, self.ruler(), playing, self.options.two_party_power
            )
            if movegen.has_legal_move(self):
                return
            stuck = self.turn
            outcome.skipped.append(stuck)
            if self.options.no_move == "eliminate":
                where = encircle.chief_square(self, stuck)
                if where is not None:
                    self.squares[where] = CORPSE
                self._eliminate(stuck, "no_move", None, outcome)
                self._settle(outcome)
            mover = stuck
        self.turn = None
        outcome.blocked = True

    # -- counting ------------------------------------------------------------------------

    def perft(self, depth: int) -> int:
        """The number of move sequences of `depth` plies (each whole turn counts once)."""
        if depth == 0:
            return 1
        moves = self.legal_moves()
        if depth == 1:
            return len(moves)
        total = 0
        for move in moves:
            self.push(move)
            total += self.perft(depth - 1)
            self.pop()
        return total
