"""Following a Djambi game through the board camera: wait for a still, clear board, then infer.

`BoardFollower.feed(observation, position, camera)` takes every read of the camera with the
game's confirmed position and answers with one step:

- `Waiting(reason)`: the camera moved, the board is changing (the read is not the same over
  ``stable_frames`` frames in a row), a hand is over the board, or a question is already asked;
- `Settled`: the board shows the confirmed position (clears any question or flag);
- `Commit(move)`: exactly one legal move explains a stable read with no hand over the board and
  every square it changes seen; the caller submits it and calls `committed` on success;
- `Ask(result)`: several moves fit, or the one that fits changes squares the camera cannot see,
  for ``patience`` more frames: the scorekeeper picks;
- `Flag(result)`: no legal move explains a stable read (an illegal move, a misplaced corpse, a
  move out of turn): the display shows it and the console asks.

The follower never commits from a read with a hand over the board: a group of
``hand_group`` or more touching unknown squares (a palm and its arm), or a piece held above the
board, stops it, whatever inference says. A question or a flag comes once per read; the
camera keeps it until the board changes. When the position changes by another input (the
scorekeeper typed a move, or undid the camera's), the read in view at that moment is not
inferred again: the follower waits for the board to change, so an undone move is not
recorded again from the same board.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from typing import Any

from referee.board_inference import (
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
    stable_frames: int = 3  # the same read this many frames in a row before anything is decided
    patience: int = 4  # further identical frames before asking or flagging (a piece still in hand)
    hand_group: int = 3  # this many touching unknown squares are a hand or an arm


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


def hand_over_board(seen: Observation, group: int = 3) -> tuple[str, ...]:
    """The unknown squares that look like a hand: a touching group of ``group`` or more, or a
    piece held above the board (the reader's note). Empty when there is no sign of a hand.

    The reader has no "hand" flag of its own (issue 10 item 2 reports squares only), so the
    follower judges from the shape of the unknown area: an unreadable sticker or a glare spot
    is one or two squares; a palm with its arm is more.
    """
    unknown = set(seen.unknown)
    hand: set[int] = {i for i in unknown if "held above" in seen.notes[i]}
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
        if len(blob) >= group:
            hand |= blob
    return tuple(SQUARE_NAMES[i] for i in sorted(hand))


@dataclass
class BoardFollower:
    """Small and stateful: the run of identical reads, what was already said, a cache."""

    settings: FollowerSettings = field(default_factory=FollowerSettings)
    _sig: Hashable = None
    _run: int = 0
    _fen: str | None = None
    _expected: str | None = None  # the position our own commit leads to
    _blocked: Hashable = None  # a read not to infer from (in view when another input changed the game)
    _block_pending: bool = False
    _said: Hashable = None  # the (position, read) last asked or flagged
    _cache: dict[tuple[str, Hashable], Inference] = field(default_factory=dict)
    last: Inference | None = None  # the latest inference, for the display

    def reset(self) -> None:
        self._sig, self._run = None, 0

    def committed(self, position: Position | str) -> None:
        """The caller recorded the follower's move (or a move the scorekeeper chose for it)."""
        self._expected = position.fen() if isinstance(position, Position) else position

    def feed(self, seen: Observation, position: Position, camera: str = "still") -> FollowerStep:
        fen = position.fen()
        if fen != self._fen:
            if self._fen is not None and fen != self._expected:
                self._block_pending = True  # changed by the console: the board in view is stale
            self._fen, self._expected, self._said = fen, None, None
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
        sig = seen.signature()
        if sig == self._sig:
            self._run += 1
        else:
            self._sig, self._run = sig, 1
        s = self.settings
        if self._run < s.stable_frames:
            return Waiting("the board is changing")
        if self._block_pending:
            self._blocked, self._block_pending = sig, False
        key = (fen, sig)
        result = self._cache.get(key)
        if result is None:
            result = infer(position, seen)
            if len(self._cache) > 64:
                self._cache.clear()
            self._cache[key] = result
        self.last = result
        if isinstance(result, NoChange):
            self._blocked = None
            return Settled(result)
        if sig == self._blocked:
            return Waiting("the game was changed at the console: waiting for the board to change")
        self._blocked = None
        hand = hand_over_board(seen, s.hand_group)
        if hand:
            return Waiting("a hand is over the board")
        if isinstance(result, Explained) and not result.unseen:
            if self._said == key:
                return Waiting("waiting for the scorekeeper")
            self._said = key  # commit once per read: the position changes when it is recorded
            return Commit(result.move, result)
        if self._run < s.stable_frames + s.patience:
            return Waiting("looking again before asking")
        if self._said == key:
            return Waiting("waiting for the scorekeeper")
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
]
