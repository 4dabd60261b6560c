"""Following a Djambi game through the board camera: wait for a still, clear board, then infer.

`BoardFollower.feed(observation, position, camera)` takes every read of the camera with the
game's confirmed position and answers with one step:

- `Waiting(reason)`: the camera moved, the board is changing, a hand is over the board, or a
  question is already asked;
- `Settled`: the board shows the confirmed position (clears any question or flag);
- `Commit(move)`: exactly one legal move explains a stable read with no hand over the board,
  and every square it changes is seen in the latest frame; the caller submits it and calls
  `committed` on success;
- `Ask(result)`: several moves fit, or the one that fits changes squares the camera cannot see,
  for ``patience`` more frames: the scorekeeper picks;
- `Flag(result)`: no legal move explains a stable read (an illegal move, a misplaced corpse, a
  move out of turn): the display shows it and the console asks.

**Stable** means ``stable_frames`` frames in a row from a still camera that agree on every
square they can see: a square seen as a piece in one frame and empty in another starts the
count again, while a square that flickers between a read and "unknown" (the edge of a glare
spot) does not. The frames are merged (each square as last seen) before inference, and a move
is only committed when the squares it changes are seen in the latest frame itself.

**A hand** is a region the reader reports as a hand or a held piece (`vision.board_regions`:
something over the board, big and reaching the board's or the picture's edge), a touching
group of ``hand_group`` or more unknown squares reaching the edge of the board (an arm), a
group of ``big_group`` or more anywhere, or a piece held above the board. Squares that stay
unknown frame after frame (glare, a washed-out sticker), and squares some region covers
frame after frame (a lamp's reflection the reader cannot explain), are learnt as *blind*: a
hand region whose hidden squares (its unknown ones, or all if none is unknown) are all blind
is not a hand. The follower never commits or flags while it sees a hand, nor until
``stable_frames`` frames in a row have shown none, whatever inference says; if a "hand" stays
perfectly still for ``1 + 2 × patience`` stable frames while the one move that fits is in
plain view, it asks (glare not learnt yet is more likely than a hand that still). Whatever
else holds a fitting move back (a "hand" that comes and goes, a changed square that keeps
dropping out of the latest frame), after ``1 + 3 × patience`` stable frames in which a move
fitted the board it asks, once per position. Likewise a confident change that no legal move
explains is flagged after ``1 + 3 × patience`` stable frames with the same answer even while
a "hand" stays in view, as long as the "hand" covers none of the changed squares (if it
covers one, the follower keeps waiting: the hand may be in the middle of a move).

A question or a flag comes once per position and answer; the camera keeps it until the board
changes. When the position changes by another input (the scorekeeper typed a move, or undid
the camera's), the answer in view at that moment is not acted on again until the board
changes, so an undone move is not recorded a second time from the same board.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from dataclasses import dataclass, field
from typing import Any

from referee.board_inference import (
    UNKNOWN,
    Ambiguous,
    Explained,
    Inference,
    NoChange,
    Observation,
    Unexplained,
    infer,
)
from referee.games.djambi.moves import Move
from referee.games.djambi.position import Position
from referee.games.djambi.squares import SIZE, SQUARE_NAMES

TRUSTED_CAMERA = frozenset({"fitted", "still"})


@dataclass(frozen=True)
class FollowerSettings:
    stable_frames: int = 3  # frames in a row that agree before anything is decided
    patience: int = 4  # further stable frames with the same answer before asking or flagging
    # An arm reaching in from the table's edge makes this many touching unknown squares (not
    # blind) at least; anything this big anywhere is something large over the board. (A glare
    # spot's flickering rim makes up to 3 at the edge; a hand with its arm 6 or more, rarely 3.)
    hand_group: int = 4
    big_group: int = 6
    blind_rate: float = 0.03  # how fast a square that stays unknown is learnt as blind (per frame):
    # at 4 frames a second, about four seconds unknown in a row (a resting hand is rarely that still)
    blind_level: float = 0.4  # share of recent frames unknown that makes a square blind


@dataclass(frozen=True)
class Waiting:
    reason: str


@dataclass(frozen=True)
class Settled:
    result: NoChange


@dataclass(frozen=True)
class Commit:
    move: Move
    result: Explained


@dataclass(frozen=True)
class Ask:
    """The scorekeeper must say which move was played (``candidates``), and why."""

    result: Ambiguous | Explained
    reason: str

    @property
    def candidates(self) -> tuple[Any, ...]:
        if isinstance(self.result, Explained):
            return (self.result.candidate,)
        return self.result.candidates


@dataclass(frozen=True)
class Flag:
    result: Unexplained


FollowerStep = Waiting | Settled | Commit | Ask | Flag


def hand_over_board(
    seen: Observation, group: int = 4, blind: Iterable[int] = (), big: int = 6
) -> tuple[str, ...]:
    """The unknown squares that look like a hand: a touching group of ``group`` or more that
    are not ``blind`` and reach the edge of the board (a hand comes with an arm, and the arm
    comes from the table's edge), a group of ``big`` or more anywhere, or a piece held above
    the board (the reader's note). Empty when there is no sign of a hand.

    The reader reports squares, not hands, so the follower judges from the shape of the unknown
    area: an unreadable sticker is one square, a glare spot a small blob inside the board.

    >>> arm = Observation.from_placement("9/9/9/9/9/9/9/????7/????7")   # a1, b1, a2, b2
    >>> hand_over_board(arm)
    ('a1', 'b1', 'a2', 'b2')
    >>> hand_over_board(Observation.from_placement("9/9/9/3????????2/9/9/9/9/9"))  # d6–g6: glare
    ()
    """
    unknown = set(seen.unknown) - set(blind) - _glare_only(seen)
    hand: set[int] = {i for i in seen.unknown if "held above" in seen.notes[i]}
    todo = set(unknown)
    while todo:
        start = todo.pop()
        blob, stack = {start}, [start]
        while stack:
            i = stack.pop()
            f, r = i % SIZE, i // SIZE
            for df in (-1, 0, 1):
                for dr in (-1, 0, 1):
                    j = (r + dr) * SIZE + (f + df)
                    if 0 <= f + df < SIZE and 0 <= r + dr < SIZE and j in todo:
                        todo.discard(j)
                        blob.add(j)
                        stack.append(j)
        edge = any(i % SIZE in (0, SIZE - 1) or i // SIZE in (0, SIZE - 1) for i in blob)
        if (len(blob) >= group and edge) or len(blob) >= big:
            hand |= blob
    return tuple(SQUARE_NAMES[i] for i in sorted(hand))


HAND_KINDS = frozenset({"hand", "held piece"})


def _glare_only(seen: Observation) -> set[int]:
    """Squares the reader covers with a region it calls glare (a reflection that keeps the
    board's printed contrast) and with no hand region: their being unknown is the lamp's
    doing, so they do not make a hand out of unknown squares. A hand beside the glare keeps
    its own squares, and its region still counts through `hand_regions`."""
    regions = seen.regions or ()
    glare = {i for kind, core in regions if kind == "glare" for i in core}
    return glare - {i for kind, core in regions if kind in HAND_KINDS for i in core}


def hand_regions(seen: Observation, blind: Iterable[int] = ()) -> tuple[str, ...]:
    """The squares of the reader's hand regions (kinds in `HAND_KINDS`) that are not all
    ``blind``: a lamp's reflection the follower has learnt is not a hand. Of a region that
    leaves squares unknown only those count (what it hides; a reflection grown over a piece
    the reader still reads is still the reflection), of one that leaves none all its squares
    do (a small hand between pieces). Empty when the reader reports none (or did not say: an
    observation built from a placement).

    >>> seen = Observation.from_placement("9/9/9/9/9/9/9/9/9")
    >>> hand_regions(Observation(seen.tokens, seen.confidence, regions=(("hand", (0, 1)),)))
    ('a1', 'b1')
    >>> hand_regions(Observation(seen.tokens, seen.confidence, regions=(("hand", (0, 1)),)), {0, 1})
    ()
    """
    blind = set(blind)
    squares: set[int] = set()
    unknown = set(seen.unknown)
    for kind, covered in seen.regions or ():
        hidden = (set(covered) & unknown) or set(covered)
        if kind in HAND_KINDS and not hidden <= blind:
            squares.update(covered)
    return tuple(SQUARE_NAMES[i] for i in sorted(squares))


def _decayed(rates: list[float], now: set[int], a: float) -> list[float]:
    """Each square's share of recent frames in which it was in ``now`` (an exponential
    average with weight ``a`` for this frame)."""
    return [(1 - a) * u + (a if i in now else 0.0) for i, u in enumerate(rates)]


def merge(window: list[Observation]) -> Observation | None:
    """The frames as one read (each square as last seen), or None if two frames disagree on a
    square both could see."""
    tokens: list[str | None] = [UNKNOWN] * 81
    conf = [0.0] * 81
    notes = list(window[-1].notes)
    for obs in window:
        for i, t in enumerate(obs.tokens):
            if t == UNKNOWN:
                continue
            if tokens[i] != UNKNOWN and tokens[i] != t:
                return None
            tokens[i], conf[i] = t, obs.confidence[i]
    return Observation(tuple(tokens), tuple(conf), tuple(notes), window[-1].regions)


def outcome(result: Inference) -> Hashable:
    """What an answer says, to tell whether two frames give the same answer."""
    if isinstance(result, NoChange):
        return ("none",)
    if isinstance(result, Explained):
        return ("explained", str(result.move), result.unseen)
    if isinstance(result, Ambiguous):
        return ("ambiguous", tuple(sorted(str(c.move) for c in result.candidates)))
    return ("unexplained", tuple((c.square, c.seen) for c in result.changes))


@dataclass
class BoardFollower:
    """Small and stateful: the recent frames, what is blind, what was already said, a cache."""

    settings: FollowerSettings = field(default_factory=FollowerSettings)
    _window: list[Observation] = field(default_factory=list)
    _fen: str | None = None
    _expected: str | None = None  # the position our own commit leads to
    _blocked: Hashable = None  # an answer not to act on (in view when another input changed the game)
    _block_pending: bool = False
    _said: Hashable = None  # the (position, answer) last asked or flagged
    _committed: Hashable = None  # the (position, answer) last committed
    _answer: Hashable = None
    _same: int = 0  # stable frames in a row with the same answer
    _clear: int = 0  # frames in a row without a hand
    _fitting: int = 0  # stable frames a move has fitted the board in this position, whatever else changed
    _unknown_rate: list[float] = field(default_factory=lambda: [0.0] * 81)
    _region_rate: list[float] = field(default_factory=lambda: [0.0] * 81)  # under a region
    _cache: dict[tuple[str, Hashable], Inference] = field(default_factory=dict)
    last: Inference | None = None  # the latest inference, for the display

    def reset(self) -> None:
        self._window.clear()
        self._answer, self._same = None, 0

    @property
    def blind(self) -> frozenset[int]:
        """Squares that stayed unknown in most recent frames: glare, an unreadable sticker."""
        level = self.settings.blind_level
        return frozenset(i for i, u in enumerate(self._unknown_rate) if u >= level)

    @property
    def region_blind(self) -> frozenset[int]:
        """Squares a reported region covered in most recent frames: what stays that long is a
        lamp's reflection or a stain, not a hand (a hand moves, and leaves)."""
        level = self.settings.blind_level
        return frozenset(i for i, u in enumerate(self._region_rate) if u >= level)

    def committed(self, position: Position | str) -> None:
        """The caller recorded the follower's move (or a move the scorekeeper chose for it)."""
        self._expected = position.fen() if isinstance(position, Position) else position

    def _learn(self, seen: Observation) -> None:
        a = self.settings.blind_rate
        self._unknown_rate = _decayed(self._unknown_rate, set(seen.unknown), a)
        # Any region, whatever the reader calls it: a reflection is sometimes a "hand" and
        # sometimes "other" from one frame to the next, and must be learnt all the same.
        covered = {i for _, squares in seen.regions or () for i in squares}
        self._region_rate = _decayed(self._region_rate, covered, a)

    def feed(self, seen: Observation, position: Position, camera: str = "still") -> FollowerStep:
        fen = position.fen()
        if fen != self._fen:
            if self._fen is not None and fen != self._expected:
                self._block_pending = True  # changed by another input: the board in view is stale
            self._fen, self._expected, self._said, self._committed = fen, None, None, None
            self._answer, self._same, self._fitting = None, 0, 0
            self._cache.clear()
        if position.turn is None:
            return Waiting("the game is over")
        if camera not in TRUSTED_CAMERA:
            self.reset()
            return Waiting(
                "the camera moved: waiting for it to be still"
                if camera == "moved"
                else "the board's corner markers are hidden"
            )
        self._learn(seen)
        s = self.settings
        blind = self.blind
        hand = hand_over_board(seen, s.hand_group, blind, s.big_group)
        hand = tuple(sorted({*hand, *hand_regions(seen, blind | self.region_blind)}, key=SQUARE_NAMES.index))
        self._clear = 0 if hand else self._clear + 1
        self._window = [*self._window, seen][-s.stable_frames :]
        merged = merge(self._window)
        if merged is None:
            self._window = [seen]
            merged = seen
        if len(self._window) < s.stable_frames:
            self._answer, self._same = None, 0
            self._block_pending = False
            return Waiting("the board is changing")
        key_read = (fen, merged.signature())
        result = self._cache.get(key_read)
        if result is None:
            result = infer(position, merged)
            if len(self._cache) > 64:
                self._cache.clear()
            self._cache[key_read] = result
        self.last = result
        answer = outcome(result)
        if answer == self._answer:
            self._same += 1
        else:
            self._answer, self._same = answer, 1
        if self._block_pending:
            # The answer in view when the game changed by another input is not acted on; if the
            # board was not still then, there is nothing to hold back.
            self._blocked, self._block_pending = answer, False
        if isinstance(result, NoChange):
            self._blocked = self._said = self._committed = None  # the board is back: say anything again
            self._fitting = 0
            return Settled(result)
        if answer == self._blocked:
            return Waiting("the game was changed at the console: waiting for the board to change")
        self._blocked = None
        key = (fen, answer)
        step = self._decide(result, key, seen, hand)
        self._fitting = self._fitting + 1 if isinstance(result, Explained | Ambiguous) else 0
        if (
            isinstance(step, Waiting)
            and isinstance(result, Explained | Ambiguous)
            and self._fitting >= 1 + 3 * s.patience
            and self._said is None
            and self._committed is None
        ):
            # A move has fitted the board for seconds, but a "hand" that comes and goes, or a
            # changed square that keeps dropping out of the latest frame, has held it back
            # all along: ask, once in this position, rather than wait for ever.
            self._said = key
            return Ask(result, "the board has shown a move for seconds but the camera could not confirm it")
        return step

    def _decide(
        self,
        result: Explained | Ambiguous | Unexplained,
        key: Hashable,
        seen: Observation,
        hand: tuple[str, ...],
    ) -> FollowerStep:
        """What to do with a stable read that changed the board (see the module docstring)."""
        s = self.settings
        if hand or self._clear < s.stable_frames:
            if (
                hand
                and isinstance(result, Explained)
                and not result.unseen
                and self._same >= 1 + 2 * s.patience
                and self._said != key
            ):
                # A "hand" that has not moved for seconds while the move is in plain view is
                # more likely glare the follower has not learnt yet: ask, never commit.
                self._said = key
                covered = ", ".join(hand[:6]) + (" …" if len(hand) > 6 else "")
                return Ask(result, f"something covers {covered} (a hand?): is this the move?")
            if (
                isinstance(result, Unexplained)
                and result.confident
                and self._same >= 1 + 3 * s.patience
                and self._said != key
                and not {c.name for c in result.changes} & set(hand)
            ):
                # A confident change no legal move explains, in plain view and still for
                # seconds, beside a "hand" that never leaves (a reflection not learnt yet):
                # the referee's finding is not held back by what lies elsewhere.
                self._said = key
                return Flag(result)
            return Waiting("a hand is over the board" if hand else "a hand was just over the board")
        if isinstance(result, Explained) and not result.unseen:
            if self._committed == key:
                return Waiting("waiting for the scorekeeper")
            if all(seen.tokens[x] != UNKNOWN for x in result.candidate.changed):
                self._committed = key  # once: the position changes when it is recorded
                return Commit(result.move, result)
            return Waiting("looking again at the squares the move changed")
        if self._said == key:
            return Waiting("waiting for the scorekeeper")
        if self._same < 1 + s.patience:
            return Waiting("looking again before asking")
        self._said = key
        if isinstance(result, Unexplained):
            return Flag(result)
        if isinstance(result, Explained):
            unseen = ", ".join(SQUARE_NAMES[x] for x in result.unseen)
            return Ask(result, f"the camera cannot see {unseen}: is this the move?")
        return Ask(result, result.reason)


__all__ = [
    "Ask",
    "BoardFollower",
    "Commit",
    "Flag",
    "FollowerSettings",
    "FollowerStep",
    "Settled",
    "Waiting",
    "hand_over_board",
    "hand_regions",
    "merge",
]
