"""What the board reader reports: one `SquareRead` per square, the placement string, problems.

The placement is the piece-placement field of the Djambi engine's position string: ranks 9
down to 1 separated by ``/``, files a→i, runs of empty squares as digits, each piece a
two-letter token (party ``r b y g`` + kind ``C A R D N M``), a corpse ``xx``; the reader alone
writes ``??`` for a square it cannot decide (hidden by a hand, unreadable marker).

>>> parse_placement("9/9/9/9/4rC4/9/9/9/9")["e5"]
'rC'
>>> format_placement({"a1": "xx", "i9": "??"})
'8??/9/9/9/9/9/9/9/xx8'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from vision.board_geometry import ALL_SQUARES, FILES, SIZE, square_name
from vision.markers import KIND_LETTERS, KINDS, PARTIES, PARTY_LETTERS

if TYPE_CHECKING:
    from vision.board_regions import Region

State = Literal["empty", "living", "corpse", "unknown"]
Camera = Literal["fitted", "still", "moved", "unverified"]
_TOKEN = re.compile(r"[rbyg][CARDNM]|xx|\?\?|[1-9]")


class PlacementError(ValueError):
    """A placement string that does not describe a 9×9 board."""


def token_state(token: str) -> State:
    if token == "xx":
        return "corpse"
    if token == "??":
        return "unknown"
    return "living"


def parse_placement(text: str) -> dict[str, str]:
    """Square → token for every occupied (or ``??``) square; raises PlacementError."""
    ranks = text.strip().split("/")
    if len(ranks) != SIZE:
        raise PlacementError(f"a placement has 9 ranks separated by '/', this one has {len(ranks)}")
    out: dict[str, str] = {}
    for i, rank_text in enumerate(ranks):
        rank = SIZE - 1 - i
        pos, file = 0, 0
        while pos < len(rank_text):
            m = _TOKEN.match(rank_text, pos)
            if not m:
                raise PlacementError(
                    f"rank {rank + 1}: cannot read {rank_text[pos:]!r}; pieces are like rC or gM, "
                    "corpses xx, unknown ??, empty runs 1–9"
                )
            tok = m.group(0)
            pos = m.end()
            if tok.isdigit():
                file += int(tok)
            else:
                if file < SIZE:
                    out[square_name(file, rank)] = tok
                file += 1
            if file > SIZE:
                raise PlacementError(f"rank {rank + 1} ({rank_text!r}) has more than 9 squares")
        if file != SIZE:
            raise PlacementError(f"rank {rank + 1} ({rank_text!r}) has {file} squares, not 9")
    return out


def format_placement(tokens: Mapping[str, str]) -> str:
    """Inverse of `parse_placement`: square → token (absent squares are empty)."""
    ranks = []
    for rank in range(SIZE - 1, -1, -1):
        parts: list[str] = []
        run = 0
        for file in range(SIZE):
            tok = tokens.get(f"{FILES[file]}{rank + 1}")
            if tok is None:
                run += 1
                continue
            if run:
                parts.append(str(run))
                run = 0
            parts.append(tok)
        if run:
            parts.append(str(run))
        ranks.append("".join(parts))
    return "/".join(ranks)


@dataclass(frozen=True)
class SquareRead:
    """One square: its state, the piece if living (party, kind), and how sure the reader is.

    ``confidence`` is in [0, 1]; an ``unknown`` square has 0 and a ``note`` saying why.
    A corpse keeps whose it was in ``was`` (the dead face names the piece), for people and
    for move inference; the engine's notation only says ``xx``.
    """

    square: str
    state: State
    confidence: float
    party: str | None = None
    kind: str | None = None
    piece: str | None = None  # "red militant 3" (living) or whose corpse it is
    marker_id: int | None = None
    note: str = ""

    @property
    def token(self) -> str | None:
        """The placement token, or None for an empty square."""
        if self.state == "empty":
            return None
        if self.state == "corpse":
            return "xx"
        if self.state == "unknown":
            return "??"
        assert self.party is not None and self.kind is not None
        return PARTY_LETTERS[PARTIES.index(self.party)] + KIND_LETTERS[KINDS.index(self.kind)]

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "square": self.square,
            "state": self.state,
            "party": self.party if self.state == "living" else None,
            "kind": self.kind if self.state == "living" else None,
            "confidence": round(self.confidence, 3),
        }
        if self.state == "corpse" and self.piece:
            out["was"] = self.piece
        elif self.piece:
            out["piece"] = self.piece
        if self.marker_id is not None:
            out["marker"] = self.marker_id
        if self.note:
            out["note"] = self.note
        return out


@dataclass(frozen=True)
class Problem:
    """Something impossible seen on the board (the read is still returned, flagged)."""

    kind: Literal["duplicate-piece", "two-pieces-one-square", "living-and-dead", "off-board"]
    squares: tuple[str, ...]
    message: str

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "squares": list(self.squares), "message": self.message}


@dataclass(frozen=True)
class BoardRead:
    """The reader's answer for one frame.

    ``camera`` says how the board was located: ``fitted`` (homography fitted on this frame),
    ``still`` (cached homography confirmed by the corner markers), ``moved`` (the camera moved
    since the last frame: refitted; wait for a still frame before trusting a change),
    ``unverified`` (no corner marker visible; the cached homography was used).

    ``regions`` are the foreign regions found over the board (`vision.board_regions`): each
    with its kind (``hand``, ``held piece``, ``glare``, ``piece``, ``other``), the squares it
    touches, its area in squares and whether it reaches the board's / the picture's edge.
    """

    squares: tuple[SquareRead, ...]
    camera: Camera
    corners_seen: tuple[str, ...]
    homography: tuple[tuple[float, ...], ...]  # board units → image pixels
    problems: tuple[Problem, ...] = ()
    notes: tuple[str, ...] = field(default=())
    # What lies over the board besides pieces (hands, held pieces, glare): see
    # `vision.board_regions.Region`; largest first. Empty when nothing is, or when the frame
    # had too little bare board to judge.
    regions: tuple[Region, ...] = ()

    def __post_init__(self) -> None:
        if tuple(s.square for s in self.squares) != ALL_SQUARES:
            raise ValueError("a BoardRead holds the 81 squares in order a1, b1, …, i9")

    def square(self, name: str) -> SquareRead:
        return self.squares[ALL_SQUARES.index(name)]

    @property
    def placement(self) -> str:
        return format_placement({s.square: t for s in self.squares if (t := s.token) is not None})

    @property
    def unknown(self) -> tuple[str, ...]:
        return tuple(s.square for s in self.squares if s.state == "unknown")

    @property
    def complete(self) -> bool:
        """True when every square is decided and nothing impossible was seen."""
        return not self.unknown and not self.problems

    def grid_text(self) -> str:
        """A readable 9×9 grid, rank 9 on top, as seen from Red's seat; ``.`` is empty."""
        lines = []
        for rank in range(SIZE - 1, -1, -1):
            cells = []
            for file in range(SIZE):
                tok = self.squares[rank * SIZE + file].token
                cells.append(tok if tok is not None else " .")
            lines.append(f"{rank + 1}  " + " ".join(cells))
        lines.append("   " + " ".join(f" {f}" for f in FILES))
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        return {
            "placement": self.placement,
            "camera": self.camera,
            "corners_seen": list(self.corners_seen),
            "complete": self.complete,
            "problems": [p.to_json() for p in self.problems],
            "notes": list(self.notes),
            "regions": [r.to_json() for r in self.regions],
            "squares": [s.to_json() for s in self.squares],
        }
