"""Where things are on a Djambi board, in board units (1 unit = one square's side).

Board coordinates put the outer corner of a1 (Red's corner) at (0, 0); x grows along the files
a→i and y along the ranks 1→9, as seen from Red's seat, so square ``f r`` (0-based) covers
``[f, f+1] × [r, r+1]`` and the maze e5 is centred on (4.5, 4.5).

The four corner markers sit diagonally outside the grid's corners, upright as read from Red's
seat. Each is ``corner_side`` wide and its inner corner is ``corner_gap`` from the grid corner:
exactly where a sticker cut with a quiet border of one marker cell lands when its inner corner
touches the corner of the grid (see docs/board-reader.md).

>>> square_name(4, 4), square_index("e5"), square_center("a1")
('e5', (4, 4), (0.5, 0.5))
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np

from vision.markers import CORNER_SQUARES, corner_id

FILES = "abcdefghi"
SIZE = 9
MAZE = "e5"
_SQUARE = re.compile(r"^([a-i])([1-9])$")

# Square classes of the board's printed pattern: checkerboard with a dark a1, and the maze.
DARK, LIGHT, MAZE_CLASS = 0, 1, 2


def square_name(file: int, rank: int) -> str:
    """``(0, 0)`` → ``a1``; file and rank are 0-based."""
    if not (0 <= file < SIZE and 0 <= rank < SIZE):
        raise ValueError(f"no square at file {file}, rank {rank}: both are 0–8")
    return f"{FILES[file]}{rank + 1}"


def square_index(name: str) -> tuple[int, int]:
    """``e5`` → ``(4, 4)`` (0-based file, rank)."""
    m = _SQUARE.match(name)
    if not m:
        raise ValueError(f"{name!r} is not a square: files a–i, ranks 1–9, like e5")
    return FILES.index(m.group(1)), int(m.group(2)) - 1


def square_center(name: str) -> tuple[float, float]:
    f, r = square_index(name)
    return f + 0.5, r + 0.5


ALL_SQUARES: tuple[str, ...] = tuple(square_name(f, r) for r in range(SIZE) for f in range(SIZE))


def default_classes() -> tuple[tuple[int, ...], ...]:
    """The printed pattern, indexed ``[rank][file]``: dark a1, alternating, the maze apart."""
    rows = []
    for r in range(SIZE):
        row = [DARK if (f + r) % 2 == 0 else LIGHT for f in range(SIZE)]
        if r == 4:
            row[4] = MAZE_CLASS
        rows.append(tuple(row))
    return tuple(rows)


@dataclass(frozen=True)
class BoardGeometry:
    """The physical layout the reader expects; everything in board units.

    ``class_offsets`` holds, for square classes too small to be measured from the frame
    itself (the maze is one square), their colour relative to the dark squares as natural-log
    ratios of linear R, G, B. The default describes the reference board of the synthetic scenes;
    ``vision.board_reader.calibrate`` measures it for a real board.
    """

    corner_side: float = 0.7
    corner_gap: float = 0.1
    piece_marker_ratio: float = 0.55  # marker side ÷ piece (sticker) diameter
    classes: tuple[tuple[int, ...], ...] = field(default_factory=default_classes)
    class_offsets: Mapping[int, tuple[float, float, float]] = field(
        default_factory=lambda: {MAZE_CLASS: (-0.45, 0.15, 0.55)}
    )

    def corner_marker_points(self) -> dict[int, np.ndarray]:
        """Corner marker id → its 4 corners in board units, in ArUco order (TL, TR, BR, BL as printed)."""
        s, g = self.corner_side, self.corner_gap
        # Lower-left corner of each marker square, diagonally outside its grid corner.
        origins = {
            "a1": (-g - s, -g - s),
            "i1": (SIZE + g, -g - s),
            "i9": (SIZE + g, SIZE + g),
            "a9": (-g - s, SIZE + g),
        }
        out = {}
        for sq in CORNER_SQUARES:
            x0, y0 = origins[sq]
            # Printed upright for Red: the marker's top edge points to rank 9 (+y).
            out[corner_id(sq)] = np.array(
                [[x0, y0 + s], [x0 + s, y0 + s], [x0 + s, y0], [x0, y0]], dtype=np.float64
            )
        return out

    def class_of(self, name: str) -> int:
        f, r = square_index(name)
        return self.classes[r][f]

    def to_json(self) -> dict[str, object]:
        return {
            "corner_side": self.corner_side,
            "corner_gap": self.corner_gap,
            "piece_marker_ratio": self.piece_marker_ratio,
            "classes": [list(row) for row in self.classes],
            "class_offsets": {str(k): list(v) for k, v in self.class_offsets.items()},
        }

    @classmethod
    def from_json(cls, data: Mapping[str, object]) -> BoardGeometry:
        """Inverse of ``to_json``; raises ValueError with what is wrong."""
        try:
            classes = tuple(tuple(int(c) for c in row) for row in data.get("classes", default_classes()))  # type: ignore[union-attr]
            offsets_raw = data.get("class_offsets", {})
            offsets = {int(k): tuple(float(x) for x in v) for k, v in offsets_raw.items()}  # type: ignore[union-attr]
            geometry = cls(
                corner_side=float(data.get("corner_side", 0.7)),  # type: ignore[arg-type]
                corner_gap=float(data.get("corner_gap", 0.1)),  # type: ignore[arg-type]
                piece_marker_ratio=float(data.get("piece_marker_ratio", 0.55)),  # type: ignore[arg-type]
                classes=classes,
                class_offsets=offsets,  # type: ignore[arg-type]
            )
        except (TypeError, ValueError, AttributeError) as exc:
            raise ValueError(f"not a board geometry: {exc}") from exc
        if len(geometry.classes) != SIZE or any(len(row) != SIZE for row in geometry.classes):
            raise ValueError("a board geometry's classes must be 9 rows of 9 numbers")
        if any(len(v) != 3 for v in geometry.class_offsets.values()):
            raise ValueError("each class offset is three numbers (log R, G, B ratios)")
        return geometry


DEFAULT_GEOMETRY = BoardGeometry()
