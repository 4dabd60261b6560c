"""The 30 number tiles inside the ring: where they lie, what the console enters, what the referee saw.

The tiles lie in 5 rows of 6 (the rulebook's "6 x 5 grid"); rows are numbered 1–5 from the
top and columns 1–6 from the left, so the console says "tile (2, 5) shows 4". Inside the
engine a tile is its index 0–29.

Two kinds of tiles are supported (option ``tiles``):

- ``two-sided``: each tile has a number 1–6 on both sides and is flipped in place, so the
  number that was up goes under (the published game, by its reviews);
- ``cards``: face-down cards, turned up, read and laid face-down again (the translation).

The referee keeps what it saw, to point out an entry that contradicts an earlier one; it never
shows a hidden side on the display.

>>> tile_label(parse_tile("(2, 5)"))
(2, 5)
>>> parse_tile([5, 6]), parse_tile("1,1")
(29, 0)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from referee.games.base import EventError

ROWS, COLUMNS = 5, 6
TILE_COUNT = ROWS * COLUMNS
LOWEST, HIGHEST = 1, 6
TWO_SIDED, CARDS = "two-sided", "cards"
NUMBERS = tuple(range(LOWEST, HIGHEST + 1))

_PAIR = re.compile(r"^\s*[\(\[]?\s*(\d+)\s*[,;\s]\s*(\d+)\s*[\)\]]?\s*$")


def tile_label(tile: int) -> tuple[int, int]:
    """(row, column), 1-based, of tile index `tile`."""
    row, column = divmod(tile, COLUMNS)
    return row + 1, column + 1


def tile_name(tile: int) -> str:
    row, column = tile_label(tile)
    return f"({row}, {column})"


def _whole(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value.strip())
    return None


def parse_tile(value: Any) -> int:
    """A tile index from ``[row, column]``, ``"row,column"`` or ``"(row, column)"``."""
    row: int | None = None
    column: int | None = None
    if isinstance(value, list | tuple) and len(value) == 2:
        row, column = _whole(value[0]), _whole(value[1])
    elif isinstance(value, str) and (match := _PAIR.match(value)):
        row, column = int(match[1]), int(match[2])
    if row is None or column is None:
        raise EventError('"tile" must be the tile\'s row and column, e.g. [2, 5] or "2,5"')
    if not (1 <= row <= ROWS and 1 <= column <= COLUMNS):
        raise EventError(
            f"there is no tile ({row}, {column}): rows go from 1 to {ROWS} (top to bottom), "
            f"columns from 1 to {COLUMNS} (left to right)"
        )
    return (row - 1) * COLUMNS + (column - 1)


def parse_number(value: Any, what: str) -> int:
    """A tile number 1–6 from an int or a digit string."""
    number = _whole(value)
    if number is None or not LOWEST <= number <= HIGHEST:
        raise EventError(f'"{what}" must be the number on the tile, {LOWEST} to {HIGHEST}, not {value!r}')
    return number


@dataclass(frozen=True)
class TileMemory:
    """What the referee has seen of every tile: the side up (or the card's number) and the side under.

    For ``cards`` only ``up`` is used: the number the card showed when last turned.
    """

    kind: str
    up: tuple[int | None, ...] = (None,) * TILE_COUNT
    down: tuple[int | None, ...] = (None,) * TILE_COUNT

    def flip(self, tile: int, shows: int, under: int | None) -> tuple[TileMemory, tuple[str, ...]]:
        """The memory after tile `tile` is turned to show `shows` (with `under` beneath, if entered),
        and the contradictions with what was seen before, in words."""
        name = tile_name(tile)
        clashes: list[str] = []
        up, down = list(self.up), list(self.down)
        if self.kind == CARDS:
            if up[tile] is not None and up[tile] != shows:
                clashes.append(f"card {name} showed {up[tile]} when it was turned before, and {shows} now")
            up[tile] = shows
            return replace(self, up=tuple(up)), tuple(clashes)
        # Two-sided: flipping puts the old underside up and the old top side under.
        if down[tile] is not None and down[tile] != shows:
            clashes.append(f"tile {name} had {down[tile]} underneath, but shows {shows} after turning")
        if under is not None and up[tile] is not None and up[tile] != under:
            clashes.append(
                f"tile {name} showed {up[tile]} before turning, but {under} was entered as underneath"
            )
        down[tile] = under if under is not None else up[tile]
        up[tile] = shows
        return replace(self, up=tuple(up), down=tuple(down)), tuple(clashes)

    def visible(self) -> tuple[int | None, ...]:
        """What everyone at the table can see: two-sided tiles show their top side, cards nothing."""
        return self.up if self.kind == TWO_SIDED else (None,) * TILE_COUNT
