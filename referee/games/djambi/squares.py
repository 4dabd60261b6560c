"""The 81 squares of the Djambi board and the lines through them.

Squares are integers 0–80: ``rank * 9 + file`` with files a–i left to right and ranks 1–9
bottom to top, so Red's corner a1 is 0 and the maze (the Labyrinth, djambi.md §1.1) is e5 = 40.
Every table here is computed once at import; move generation only indexes into them.

>>> parse_square("e5") == MAZE, square_name(0), square_name(80)
(True, 'a1', 'i9')
"""

from __future__ import annotations

Square = int

FILES = "abcdefghi"
RANKS = "123456789"
SIZE = 9
SQUARES: tuple[Square, ...] = tuple(range(SIZE * SIZE))
SQUARE_NAMES: tuple[str, ...] = tuple(f + r for r in RANKS for f in FILES)
_BY_NAME = {name: i for i, name in enumerate(SQUARE_NAMES)}


def square(file: int, rank: int) -> Square:
    """The square at 0-based `file` and `rank`."""
    return rank * SIZE + file


def file_of(sq: Square) -> int:
    return sq % SIZE


def rank_of(sq: Square) -> int:
    return sq // SIZE


MAZE: Square = square(4, 4)  # e5, the Labyrinth

# The eight directions as (file step, rank step); the first four are orthogonal (the
# reporter's "four squares that have a common side", djambi.md §1.1).
DIRECTIONS: tuple[tuple[int, int], ...] = (
    (0, 1),
    (1, 0),
    (0, -1),
    (-1, 0),
    (1, 1),
    (1, -1),
    (-1, -1),
    (-1, 1),
)


def parse_square(name: str) -> Square:
    """The square named `name` ("a1"–"i9"); raises ValueError with the accepted form."""
    try:
        return _BY_NAME[name]
    except (KeyError, TypeError):
        raise ValueError(f"{name!r} is not a square: use a file a–i and a rank 1–9, like e5") from None


def square_name(sq: Square) -> str:
    return SQUARE_NAMES[sq]


def _ray(sq: Square, df: int, dr: int) -> tuple[Square, ...]:
    f, r = file_of(sq), rank_of(sq)
    out = []
    while True:
        f, r = f + df, r + dr
        if not (0 <= f < SIZE and 0 <= r < SIZE):
            return tuple(out)
        out.append(square(f, r))


# RAYS[sq] holds, per direction, the squares met walking away from sq up to the edge.
RAYS: tuple[tuple[tuple[Square, ...], ...], ...] = tuple(
    tuple(_ray(sq, df, dr) for df, dr in DIRECTIONS) for sq in SQUARES
)
NEIGHBOURS: tuple[tuple[Square, ...], ...] = tuple(tuple(ray[0] for ray in RAYS[sq] if ray) for sq in SQUARES)
ORTHOGONAL_NEIGHBOURS: tuple[tuple[Square, ...], ...] = tuple(
    tuple(ray[0] for ray in RAYS[sq][:4] if ray) for sq in SQUARES
)
NEAR_MAZE: frozenset[Square] = frozenset((MAZE, *NEIGHBOURS[MAZE]))


def line(a: Square, b: Square) -> tuple[int, int] | None:
    """(direction index, distance) of the straight line from a to b, or None if not on one.

    >>> line(parse_square("a1"), parse_square("c3"))
    (4, 2)
    """
    df, dr = file_of(b) - file_of(a), rank_of(b) - rank_of(a)
    if (df, dr) == (0, 0) or not (df == 0 or dr == 0 or abs(df) == abs(dr)):
        return None
    step = ((df > 0) - (df < 0), (dr > 0) - (dr < 0))
    return DIRECTIONS.index(step), max(abs(df), abs(dr))


def between(a: Square, b: Square) -> tuple[Square, ...]:
    """The squares strictly between a and b on their line (empty if adjacent or not aligned)."""
    found = line(a, b)
    if found is None:
        return ()
    direction, distance = found
    return RAYS[a][direction][: distance - 1]
