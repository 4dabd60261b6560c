"""Move inference: which legal Djambi move explains what the board camera now sees?

Like an electronic chess board (DGT, LiveChess2FEN), the referee does not trust each square on
its own: it knows the last confirmed position, lists its legal moves (hundreds to a few
thousand, every follow-up included: corpse and piece placements, maze exits, the reporter's
victim) and asks which one leads to the placement the camera read. Unknown squares (a hand, a
washed-out sticker) are wildcards; a square read with low confidence costs only its confidence
when it disagrees. Four answers:

- `Explained(move, evidence)`: exactly one legal move fits every square the camera is sure of;
- `Ambiguous(candidates)`: several fit (the squares that would tell them apart are unknown or
  doubtful): ask the table;
- `Unexplained(changes, ...)`: the board changed and no legal move fits. When the read is
  confident that is the referee's finding: an illegal move (with the rule the closest reading
  breaks, from `referee.board_findings`), not a read error;
- `NoChange`: every square the camera can see is as it was.

Pure: values in, values out. The engine (`referee.games.djambi`) checks legality; vision's
`BoardRead` is only read, as a value.

>>> from referee.games.djambi import Board
>>> board = Board()
>>> seen = Observation.from_placement(
...     "gCgAgM3yMyAyC/gRgDgM3yMyDyR/gMgMgN3yNyMyM/9/9/4rM4/rMrMrN3bNbMbM/rRrD4bMbDbR/rCrArM3bMbAbC")
>>> result = infer(board, seen)
>>> type(result).__name__, str(result.move), result.evidence["said"]
('Explained', 'c2-e4', "Red's militant c2–e4")
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from referee.games.djambi.board import Board, Outcome
from referee.games.djambi.describe import describe_move
from referee.games.djambi.movegen import fox_news_victims
from referee.games.djambi.moves import Move
from referee.games.djambi.pieces import CORPSE, Kind, Piece
from referee.games.djambi.position import Position, placement_from_squares
from referee.games.djambi.squares import MAZE, SQUARE_NAMES, Square

if TYPE_CHECKING:
    from referee.board_findings import Finding
    from vision.board_read import BoardRead

UNKNOWN = "??"
SOFT = 0.5  # a disagreeing square read with less confidence than this only makes a move doubtful
TOP = 6  # closest candidates kept for asking and for findings
EXACT_LIMIT = 24  # fitting candidates checked square by square with the engine's own push

CHIEF, ASSASSIN, REPORTER, DIPLOMAT, NECROMOBILE, MILITANT = Kind


class _Unknown:
    """The sentinel for a square the camera could not decide (compared by identity)."""

    def __repr__(self) -> str:
        return UNKNOWN


_UNK = _Unknown()
Cell = Piece | None | _Unknown


# -- what the camera saw ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Observation:
    """The camera's read in the engine's square order (a1 = 0, b1 = 1, …, i9 = 80).

    ``tokens[i]`` is a piece token (``rC``, ``xx``), None for an empty square or ``"??"``;
    ``confidence[i]`` is 0–1 (0 when unknown); ``notes[i]`` is the reader's reason, if any.
    ``regions`` are what the reader saw over the board besides pieces, as (kind, the squares
    it covers: its ``core``) pairs (`vision.board_regions`: ``hand``, ``held piece``, ``glare``, ``piece``, ``other``);
    None when the observation does not come from the reader (a typed placement).
    """

    tokens: tuple[str | None, ...]
    confidence: tuple[float, ...]
    notes: tuple[str, ...] = ()
    regions: tuple[tuple[str, tuple[int, ...]], ...] | None = None

    def __post_init__(self) -> None:
        if len(self.tokens) != 81 or len(self.confidence) != 81:
            raise ValueError("an observation has one token and one confidence for each of the 81 squares")
        if not self.notes:
            object.__setattr__(self, "notes", ("",) * 81)

    @classmethod
    def from_read(cls, read: BoardRead) -> Observation:
        """From the board reader's `BoardRead` (its squares are in the same order)."""
        return cls(
            tuple(s.token for s in read.squares),
            tuple(float(s.confidence) for s in read.squares),
            tuple(s.note for s in read.squares),
            tuple((r.kind, tuple(SQUARE_NAMES.index(sq) for sq in r.core)) for r in read.regions),
        )

    @classmethod
    def from_placement(cls, text: str, confidence: float = 0.95) -> Observation:
        """From a placement string in which ``??`` marks unknown squares (tests, tools)."""
        from vision.board_read import parse_placement

        grid = parse_placement(text)
        tokens = tuple(grid.get(name) for name in SQUARE_NAMES)
        return cls(tokens, tuple(0.0 if t == UNKNOWN else confidence for t in tokens))

    @classmethod
    def from_grid(cls, grid: Mapping[str, str | None], confidence: float = 0.95) -> Observation:
        tokens = tuple(grid.get(name) for name in SQUARE_NAMES)
        return cls(tokens, tuple(0.0 if t == UNKNOWN else confidence for t in tokens))

    @property
    def unknown(self) -> tuple[int, ...]:
        return tuple(i for i, t in enumerate(self.tokens) if t == UNKNOWN)

    def cells(self) -> list[Cell]:
        return [_UNK if t == UNKNOWN else (None if t is None else Piece.from_token(t)) for t in self.tokens]

    def signature(self) -> tuple[str | None, ...]:
        """What must stay the same for two reads to count as the same read."""
        return self.tokens

    def placement(self) -> str:
        from vision.board_read import format_placement

        return format_placement({SQUARE_NAMES[i]: t for i, t in enumerate(self.tokens) if t is not None})


# -- answers ----------------------------------------------------------------------------------------


def _token(cell: Cell) -> str | None:
    if cell is _UNK:
        return UNKNOWN
    return None if cell is None else cell.token  # type: ignore[union-attr]


@dataclass(frozen=True)
class Change:
    """One square the camera sees differently from the confirmed position."""

    square: Square
    before: str | None  # token, None = empty
    seen: str | None
    confidence: float

    @property
    def name(self) -> str:
        return SQUARE_NAMES[self.square]

    def words(self) -> str:
        """``"c1: Red's militant → empty"``"""

        def what(tok: str | None) -> str:
            return "empty" if tok is None else Piece.from_token(tok).title

        return f"{self.name}: {what(self.before)} → {what(self.seen)}"

    def to_json(self) -> dict[str, Any]:
        return {
            "square": self.name,
            "before": self.before,
            "seen": self.seen,
            "confidence": round(self.confidence, 3),
            "text": self.words(),
        }


@dataclass(frozen=True)
class Candidate:
    """A legal move and how well the placement it leads to fits the read."""

    move: Move
    said: str  # the move in words, read on the board before it
    cost: float  # sum of the confidences of the squares that contradict it
    mismatched: tuple[Square, ...]  # squares the camera sees otherwise
    unseen: tuple[Square, ...]  # squares the move changes that the camera could not see
    changed: tuple[Square, ...]  # every square the move changes (its consequences included)
    exact: bool = False  # scored on the engine's own result (encirclement and all), not the fast model
    after: str = ""  # the placement it leads to (exact candidates)

    @property
    def fits(self) -> bool:
        return not self.mismatched

    @property
    def doubtful(self) -> bool:
        """Contradicted only by squares read with little confidence."""
        return bool(self.mismatched) and self.cost < SOFT

    def to_json(self) -> dict[str, Any]:
        return {
            "move": str(self.move),
            "said": self.said,
            "cost": round(self.cost, 3),
            "mismatched": [SQUARE_NAMES[s] for s in self.mismatched],
            "unseen": [SQUARE_NAMES[s] for s in self.unseen],
        }


@dataclass(frozen=True)
class NoChange:
    """Every square the camera can see is as the confirmed position has it."""

    unknown: tuple[Square, ...] = ()
    stats: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {"kind": "no-change", "unknown": [SQUARE_NAMES[s] for s in self.unknown], **self.stats}


@dataclass(frozen=True)
class Explained:
    """One legal move, and only one, fits the read."""

    move: Move
    evidence: Mapping[str, Any]
    candidate: Candidate

    @property
    def unseen(self) -> tuple[Square, ...]:
        """Squares the move changes that the camera could not see (the follower waits for them)."""
        return self.candidate.unseen

    def to_json(self) -> dict[str, Any]:
        return {"kind": "explained", "move": str(self.move), **self.evidence}


@dataclass(frozen=True)
class Ambiguous:
    """Several legal moves fit (or the best fits only doubtfully): the table must say which."""

    candidates: tuple[Candidate, ...]
    reason: str
    changes: tuple[Change, ...] = ()
    stats: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "ambiguous",
            "reason": self.reason,
            "candidates": [c.to_json() for c in self.candidates],
            "changes": [c.to_json() for c in self.changes],
            **self.stats,
        }


@dataclass(frozen=True)
class Unexplained:
    """The board changed and no legal move leads to what the camera sees.

    ``confident`` when every changed square was read with confidence: then it is the referee's
    finding (an illegal move), not a doubt about the read. ``findings`` say what it looks like
    (the illegal move and the rule it breaks, a move out of turn, a misplaced corpse).
    """

    changes: tuple[Change, ...]
    closest: tuple[Candidate, ...]
    confident: bool
    findings: tuple[Finding, ...] = ()
    stats: Mapping[str, Any] = field(default_factory=dict)

    @property
    def headline(self) -> str:
        if self.findings:
            return self.findings[0].headline
        return "The board changed, and no legal move leads there: " + "; ".join(
            c.words() for c in self.changes
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": "unexplained",
            "headline": self.headline,
            "confident": self.confident,
            "changes": [c.to_json() for c in self.changes],
            "closest": [c.to_json() for c in self.closest],
            "findings": [f.to_json() for f in self.findings],
            **self.stats,
        }


Inference = Explained | Ambiguous | Unexplained | NoChange


# -- what a move does to the board ------------------------------------------------------------------


def effect(board: Board, move: Move) -> dict[Square, Piece | None] | None:
    """The squares `move` changes and what they hold afterwards, as its piece carries it out.

    Works for any move, legal or not (the findings use it on illegal ones): the actor leaves its
    square, lands on the target (or passes through the maze to its exit), and what it acted on
    is put where the move says (assassin: on the departure square, or where a placement says
    the players put it; reporter: stays as a corpse where it stood). The engine's consequences of a legal move (encirclement, eliminations) are
    not included: `Board.push` adds them. None when the move cannot be carried out at all.

    >>> from referee.games.djambi import Board
    >>> {SQUARE_NAMES[s]: p and p.token for s, p in effect(Board(), Move.parse("c2-e4")).items()}
    {'c2': None, 'e4': 'rM'}
    """
    squares = board.squares
    s, t = move.origin, move.target
    actor = squares[s]
    if actor is None or actor.kind is None or s == t:
        return None
    kind = actor.kind
    target = squares[t]
    out: dict[Square, Piece | None] = {s: None}
    if target is None:
        if move.place is not None or move.exit is not None or (move.victim is not None and kind != REPORTER):
            return None  # nothing to place, no maze to leave: not a move anyone can make
        out[t] = actor
        if kind == REPORTER:
            if board.options.reporter_victims == "all":
                victims = fox_news_victims(board, s, t)
            else:
                victims = [] if move.victim is None else [move.victim]
            for v in victims:
                victim = squares[v]
                if victim is None or victim.party is None or v in out:
                    return None
                out[v] = CORPSE
        return out
    if move.victim is not None or (move.exit is not None and (t != MAZE or kind == CHIEF)):
        return None  # a victim only for a reporter on an empty square, an exit only from the maze
    if t == MAZE and kind != CHIEF and move.exit is not None:
        # Enter the occupied maze, act, leave. (Without an exit the piece stays in the maze,
        # as players do when they forget it must leave: carried out like any other action.)
        e = move.exit
        second = squares[e] if e != s else None
        out[MAZE] = None
        out[e] = actor
        if kind == ASSASSIN and move.place is None:
            if e == s:
                return None
            out[s] = CORPSE
        else:
            if move.place is None:
                return None
            out[move.place] = target if kind == DIPLOMAT and target.party is not None else CORPSE
        if second is not None:  # a master move (register A8) acts on a second chief at the exit
            out[MAZE] = CORPSE if kind == ASSASSIN else second
        return out
    out[t] = actor
    if kind == ASSASSIN and move.place is None:  # with a place: players who put the corpse elsewhere
        out[s] = CORPSE
        return out
    if move.place is None:
        return None
    out[move.place] = target if kind == DIPLOMAT and target.party is not None else CORPSE
    return out


# -- scoring ----------------------------------------------------------------------------------------


@dataclass
class _Read:
    """The observation against the confirmed position, prepared once per inference."""

    before: list[Piece | None]
    cells: list[Cell]
    conf: list[float]
    diff: list[Square]  # known squares that differ from the position
    excusable: frozenset[Square]  # living chief → corpse: maybe an encirclement (engine's consequence)

    @classmethod
    def of(cls, board: Board, seen: Observation) -> _Read:
        cells = seen.cells()
        before = list(board.squares)
        conf = [max(0.05, min(1.0, c)) for c in seen.confidence]
        diff = [i for i, c in enumerate(cells) if c is not _UNK and c is not before[i]]
        excusable = frozenset(
            i
            for i in diff
            if cells[i] is CORPSE and before[i] is not None and before[i].kind == CHIEF  # type: ignore[union-attr]
        )
        return cls(before, cells, conf, diff, excusable)

    def fast(self, changes: Mapping[Square, Piece | None]) -> tuple[float, list[Square], list[Square], bool]:
        """(cost, mismatched, unseen, leans on an excused square) for a move's direct changes."""
        cells, conf, before = self.cells, self.conf, self.before
        cost = 0.0
        mism: list[Square] = []
        unseen: list[Square] = []
        for x, new in changes.items():
            if new is before[x]:
                continue
            c = cells[x]
            if c is _UNK:
                unseen.append(x)
            elif c is not new:
                cost += conf[x]
                mism.append(x)
        excused = False
        for d in self.diff:
            if d not in changes:
                if d in self.excusable:
                    excused = True
                    continue
                cost += conf[d]
                mism.append(d)
        return cost, mism, unseen, excused

    def exact(self, after: Sequence[Piece | None]) -> tuple[float, list[Square], list[Square], list[Square]]:
        """(cost, mismatched, unseen, changed) of a complete placement."""
        cells, conf, before = self.cells, self.conf, self.before
        cost = 0.0
        mism, unseen, changed = [], [], []
        for x in range(81):
            new = after[x]
            c = cells[x]
            if new is not before[x]:
                changed.append(x)
                if c is _UNK:
                    unseen.append(x)
                    continue
            if c is not _UNK and c is not new:
                cost += conf[x]
                mism.append(x)
        return cost, mism, unseen, changed

    def changes(self) -> tuple[Change, ...]:
        return tuple(
            Change(d, _token(self.before[d]), _token(self.cells[d]), self.conf[d]) for d in self.diff
        )


def play(position: Position, move: Move) -> tuple[Board, Outcome]:
    """The engine's own result of a legal move (a fresh board, the position is not changed)."""
    board = Board(position)
    outcome = board.push(move)
    return board, outcome


def score_moves(
    board: Board, read: _Read, moves: Iterable[Move]
) -> list[tuple[float, int, Move, list[Square], list[Square], bool]]:
    """Fast scores of many moves, best first: (cost, -seen, move, mismatched, unseen, excused)."""
    scored = []
    for move in moves:
        changes = effect(board, move)
        if changes is None:
            continue
        cost, mism, unseen, excused = read.fast(changes)
        seen = sum(1 for x, p in changes.items() if p is not read.before[x]) - len(unseen)
        scored.append((cost, -seen, move, mism, unseen, excused))
    scored.sort(key=lambda s: (s[0], s[1], len(s[4])))
    return scored


def _exact_candidate(board: Board, read: _Read, move: Move) -> Candidate:
    after_board, outcome = play(board.position(), move)
    cost, mism, unseen, changed = read.exact(after_board.squares)
    return Candidate(
        move,
        describe_move(board, move, outcome),
        cost,
        tuple(mism),
        tuple(unseen),
        tuple(changed),
        exact=True,
        after=placement_from_squares(after_board.squares),
    )


# -- inference --------------------------------------------------------------------------------------


def infer(board: Board | Position, seen: Observation, *, findings: bool = True) -> Inference:
    """Which legal move of ``board`` (the last confirmed position) explains ``seen``?

    See the module docstring for the four answers. ``findings=False`` skips the search for what
    an unexplained change looks like (the illegal move and its rule), which costs more.
    """
    started = time.perf_counter()
    if isinstance(board, Position):
        board = Board(board)
    read = _Read.of(board, seen)
    stats: dict[str, Any] = {"unknown": len(seen.unknown)}
    if not read.diff:
        stats["ms"] = round(1000 * (time.perf_counter() - started), 2)
        return NoChange(seen.unknown, stats)
    moves = board.legal_moves()
    scored = score_moves(board, read, moves)
    stats["legal_moves"] = len(moves)
    # The engine's own result for every fitting move (and the closest few): encirclements and
    # eliminations are consequences the fast model leaves out.
    fitting = [s for s in scored if s[0] == 0.0]
    # The fitting moves, and the closest others: rivals read only doubtfully, or the nearest
    # legal moves for the findings when nothing fits.
    rest = scored[len(fitting) : len(fitting) + TOP]
    pool = fitting[:EXACT_LIMIT] + ([s for s in rest if s[0] < SOFT] if fitting else rest)
    exact = sorted(
        (_exact_candidate(board, read, s[2]) for s in pool),
        key=lambda c: (c.cost, len(c.unseen), -len(c.changed)),
    )
    fits = [c for c in exact if c.fits]
    if len(fitting) > EXACT_LIMIT:
        stats["fitting"] = len(fitting)

    def done() -> dict[str, Any]:
        stats["ms"] = round(1000 * (time.perf_counter() - started), 2)
        return stats

    if len(fits) == 1 and len(fitting) <= EXACT_LIMIT:
        best = fits[0]
        rivals = [c for c in exact[1:] if c.doubtful]
        if not rivals:
            evidence = {
                "said": best.said,
                "seen": [SQUARE_NAMES[s] for s in best.changed if s not in best.unseen],
                "unseen": [SQUARE_NAMES[s] for s in best.unseen],
                "after": best.after,
                **done(),
            }
            return Explained(best.move, evidence, best)
        return Ambiguous(
            (best, *rivals[: TOP - 1]),
            "another legal move is contradicted only by squares read with little confidence: "
            + ", ".join(SQUARE_NAMES[s] for c in rivals for s in c.mismatched),
            read.changes(),
            done(),
        )
    if fits:
        unseen = sorted({s for c in fits for s in c.unseen})
        reason = "several legal moves fit what the camera sees"
        if unseen:
            reason += "; the camera cannot see " + ", ".join(SQUARE_NAMES[s] for s in unseen)
        return Ambiguous(tuple(fits[:12]), reason, read.changes(), done())
    doubtful = [c for c in exact if c.doubtful]
    if doubtful:
        return Ambiguous(
            tuple(doubtful[:TOP]),
            "the closest legal move is contradicted only by squares read with little confidence: "
            + ", ".join(sorted({SQUARE_NAMES[s] for c in doubtful for s in c.mismatched})),
            read.changes(),
            done(),
        )
    changes = read.changes()
    confident = all(c.confidence >= SOFT for c in changes)
    found: tuple[Finding, ...] = ()
    if findings:
        from referee.board_findings import explain_unexplained

        found = tuple(explain_unexplained(board, read, exact))
    return Unexplained(changes, tuple(exact[:3]), confident, found, done())


__all__ = [
    "UNKNOWN",
    "Ambiguous",
    "Candidate",
    "Change",
    "Explained",
    "Inference",
    "NoChange",
    "Observation",
    "Unexplained",
    "effect",
    "infer",
    "play",
]
