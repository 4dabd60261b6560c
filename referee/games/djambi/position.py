"""A Djambi position and its text form, in the spirit of chess's FEN.

    <placement> <turn> <cursor> <ruler> <control> <eliminated> [<options>]

- placement: ranks 9 down to 1 separated by ``/``, files a→i, digits for runs of empty
  squares, two-character piece tokens (``rC``, ``bM``, ... and ``xx`` for a corpse);
- turn: the party to move (``r b y g``), ``-`` once the game is over;
- cursor: the party whose regular slot of the cycle R→B→Y→G was played last (djambi.md §1.8;
  the ruler's extra turns do not move it);
- ruler: the party whose chief holds the maze, ``-`` for none (derived from the board and
  checked when reading);
- control: one character per camp in the order r b y g: the party that moves that camp's
  living pieces, ``.`` for nobody (an encircled camp waiting for a ruler, §1.9) and ``h`` for
  the hostage camp of a three-player game (§1.10);
- eliminated: the letters of the eliminated camps, ``-`` for none;
- options: the non-default rule options (see options.py), omitted when all are default.

>>> Position.initial().fen()
'gCgAgM3yMyAyC/gRgDgM3yMyDyR/gMgMgN3yNyMyM/9/9/9/rMrMrN3bNbMbM/rRrDrM3bMbDbR/rCrArM3bMbAbC r r - rbyg -'
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from referee.games.djambi.options import Options
from referee.games.djambi.pieces import (
    CORPSE,
    HOSTAGE,
    NEUTRAL,
    PIECES,
    STARTING_COUNT,
    TOTAL_PIECES,
    Kind,
    Party,
    Piece,
)
from referee.games.djambi.squares import MAZE, SIZE, SQUARE_NAMES, Square, square


class PositionError(ValueError):
    """A position string that cannot be read or describes an impossible position."""


# Red's camp as (kind, file, rank) from its corner a1 (djambi.md §1.3, the [RB] figure).
_RED_CAMP: tuple[tuple[Kind, int, int], ...] = (
    (Kind.CHIEF, 0, 0),
    (Kind.ASSASSIN, 1, 0),
    (Kind.REPORTER, 0, 1),
    (Kind.DIPLOMAT, 1, 1),
    (Kind.NECROMOBILE, 2, 2),
    (Kind.MILITANT, 2, 0),
    (Kind.MILITANT, 2, 1),
    (Kind.MILITANT, 0, 2),
    (Kind.MILITANT, 1, 2),
)
_LAST = SIZE - 1


def _camp_square(party: Party, f: int, r: int, setup: str) -> Square:
    if setup == "rotational":
        # Each next camp is the previous one turned a quarter counterclockwise ([CH]).
        for _ in range(party):
            f, r = _LAST - r, f
        return square(f, r)
    # Mirror ([RB]): Blue mirrors Red across the vertical axis, Green across the horizontal one.
    if party in (Party.BLUE, Party.YELLOW):
        f = _LAST - f
    if party in (Party.YELLOW, Party.GREEN):
        r = _LAST - r
    return square(f, r)


def _control_char(value: int) -> str:
    if value == NEUTRAL:
        return "."
    if value == HOSTAGE:
        return "h"
    return Party(value).letter


def _control_value(char: str) -> int:
    if char == ".":
        return NEUTRAL
    if char == "h":
        return HOSTAGE
    return int(Party.from_letter(char))


def camp_is_playing(control: Sequence[int], eliminated: Collection[Party], party: Party) -> bool:
    """A camp still in the game: not eliminated and not a hostage."""
    return party not in eliminated and control[party] != HOSTAGE


def camp_in_power(
    squares: Sequence[Piece | None], control: Sequence[int], eliminated: Collection[Party]
) -> Party | None:
    """The party in power: a playing camp's chief in the maze (djambi.md §1.5)."""
    piece = squares[MAZE]
    if piece is not None and piece.kind == Kind.CHIEF and piece.party is not None:
        return piece.party if camp_is_playing(control, eliminated, piece.party) else None
    return None


@dataclass(frozen=True)
class Position:
    """An immutable snapshot: the board plus everything the next move depends on."""

    squares: tuple[Piece | None, ...]
    turn: Party | None
    cursor: Party
    control: tuple[int, ...]  # per camp: a Party value, NEUTRAL or HOSTAGE
    eliminated: frozenset[Party] = frozenset()
    options: Options = field(default_factory=Options)

    @classmethod
    def initial(cls, options: Options | None = None, hostage: Party | None = None) -> Position:
        """The starting position; with `hostage`, the three-player game of djambi.md §1.10."""
        options = options or Options()
        board: list[Piece | None] = [None] * (SIZE * SIZE)
        for party in Party:
            for kind, f, r in _RED_CAMP:
                board[_camp_square(party, f, r, options.setup)] = PIECES[party][kind]
        control = tuple(HOSTAGE if p == hostage else int(p) for p in Party)
        return cls(tuple(board), Party.RED, Party.RED, control, frozenset(), options)

    @classmethod
    def build(
        cls,
        pieces: Mapping[str, str],
        turn: str = "r",
        cursor: str | None = None,
        control: str = "rbyg",
        eliminated: str = "",
        options: Options | Mapping[str, object] | None = None,
    ) -> Position:
        """A position from square names to tokens and the other fields in their text form.

        >>> Position.build({"a1": "rC", "i1": "bC", "i9": "yC", "a9": "gC", "e5": "xx"}).fen()
        'gC7yC/9/9/9/4xx4/9/9/9/rC7bC r r - rbyg -'
        """
        if not isinstance(options, Options):
            options = Options.from_mapping(options or {})
        fields = [
            placement_from_grid(pieces),
            turn,
            cursor or (turn if turn != "-" else "r"),
            "-",
            control,
            eliminated or "-",
        ]
        try:
            position = cls(
                squares_from_placement(fields[0]),
                None if turn == "-" else Party.from_letter(turn),
                Party.from_letter(fields[2]),
                tuple(_control_value(c) for c in control),
                frozenset(Party.from_letter(c) for c in eliminated),
                options,
            )
        except ValueError as exc:
            raise PositionError(str(exc)) from None
        position.check()
        return position

    # -- derived facts (shared with Board) ------------------------------------------------

    def is_playing(self, party: Party) -> bool:
        return camp_is_playing(self.control, self.eliminated, party)

    def playing(self) -> tuple[Party, ...]:
        return tuple(p for p in Party if self.is_playing(p))

    def ruler(self) -> Party | None:
        return camp_in_power(self.squares, self.control, self.eliminated)

    # -- text ------------------------------------------------------------------------------

    def placement(self) -> str:
        return placement_from_squares(self.squares)

    def fen(self) -> str:
        ruler = self.ruler()
        parts = [
            self.placement(),
            self.turn.letter if self.turn is not None else "-",
            self.cursor.letter,
            ruler.letter if ruler is not None else "-",
            "".join(_control_char(c) for c in self.control),
            "".join(p.letter for p in sorted(self.eliminated)) or "-",
        ]
        options = self.options.text()
        if options != "-":
            parts.append(options)
        return " ".join(parts)

    __str__ = fen

    @classmethod
    def parse(cls, text: str) -> Position:
        """Read a position string; raises PositionError saying what is wrong."""
        parts = text.split() if isinstance(text, str) else []
        if len(parts) not in (6, 7):
            raise PositionError(
                "a Djambi position has 6 or 7 fields: placement, turn, cursor, ruler, control, "
                f"eliminated[, options]; got {len(parts)}"
            )
        try:
            squares = squares_from_placement(parts[0])
            turn = None if parts[1] == "-" else Party.from_letter(parts[1])
            cursor = Party.from_letter(parts[2])
            ruler = None if parts[3] == "-" else Party.from_letter(parts[3])
            if len(parts[4]) != 4:
                raise ValueError(f"the control field has one character per camp (r b y g), not {parts[4]!r}")
            control = tuple(_control_value(c) for c in parts[4])
            eliminated = frozenset() if parts[5] == "-" else frozenset(Party.from_letter(c) for c in parts[5])
            if parts[5] != "-" and len(eliminated) != len(parts[5]):
                raise ValueError(f"a camp is listed twice in the eliminated field {parts[5]!r}")
            options = Options.parse(parts[6]) if len(parts) == 7 else Options()
        except ValueError as exc:
            raise PositionError(str(exc)) from None
        position = cls(squares, turn, cursor, control, eliminated, options)
        position.check()
        if position.ruler() != ruler:
            found = position.ruler()
            raise PositionError(
                f"the ruler field says {parts[3]!r} but the board gives "
                f"{found.letter if found is not None else '-'} (the ruler is the playing chief in e5)"
            )
        return position

    def check(self) -> None:
        """Raise PositionError if the position could never arise in a game."""
        counts: dict[tuple[Party, Kind], int] = {}
        total = 0
        for sq, piece in enumerate(self.squares):
            if piece is None:
                continue
            total += 1
            if piece.party is None or piece.kind is None:
                continue
            counts[piece.party, piece.kind] = counts.get((piece.party, piece.kind), 0) + 1
            if sq == MAZE and piece.kind != Kind.CHIEF:
                raise PositionError(f"{piece.title} stands in the maze e5, where only a chief may stay")
        if total > TOTAL_PIECES:
            raise PositionError(f"the board holds {total} pieces; a game has {TOTAL_PIECES}")
        for (party, kind), n in counts.items():
            if n > STARTING_COUNT[kind]:
                raise PositionError(
                    f"{party.title} has {n} {kind.title}s; a camp starts with {STARTING_COUNT[kind]}"
                )
        for party in Party:
            control = self.control[party]
            has_chief = counts.get((party, Kind.CHIEF), 0) == 1
            if control == HOSTAGE:
                if party in self.eliminated:
                    raise PositionError(
                        f"the hostage camp {party.title} cannot be eliminated: it never played"
                    )
                continue
            if party not in self.eliminated:
                if control != party:
                    raise PositionError(f"{party.title} is still playing, so it controls its own pieces")
                if not has_chief:
                    raise PositionError(f"{party.title} is still playing but its chief is not on the board")
                continue
            if has_chief and self.options.encircled_chief != "inactive":
                raise PositionError(f"{party.title} is eliminated but its chief is alive")
            if control >= 0 and not self.is_playing(Party(control)):
                raise PositionError(
                    f"{party.title}'s pieces are controlled by {Party(control).title}, who is not playing"
                )
        if self.turn is not None and not self.is_playing(self.turn):
            raise PositionError(f"it cannot be {self.turn.title}'s turn: that camp is not playing")


def placement_from_squares(squares: Iterable[Piece | None]) -> str:
    cells = list(squares)
    ranks = []
    for r in range(_LAST, -1, -1):
        text, empty = "", 0
        for f in range(SIZE):
            piece = cells[square(f, r)]
            if piece is None:
                empty += 1
                continue
            if empty:
                text += str(empty)
                empty = 0
            text += piece.token
        if empty:
            text += str(empty)
        ranks.append(text)
    return "/".join(ranks)


def squares_from_placement(text: str) -> tuple[Piece | None, ...]:
    """The 81 squares of a placement field; raises ValueError naming the bad rank."""
    ranks = text.split("/")
    if len(ranks) != SIZE:
        raise ValueError(f"the placement has {len(ranks)} ranks separated by '/'; it needs 9")
    board: list[Piece | None] = [None] * (SIZE * SIZE)
    for i, rank_text in enumerate(ranks):
        r = _LAST - i
        f, k = 0, 0
        while k < len(rank_text) and f < SIZE:
            c = rank_text[k]
            if c in "123456789":
                if k and rank_text[k - 1] in "123456789":
                    raise ValueError(
                        f"rank {r + 1} ({rank_text!r}): write a run of empty squares as one digit"
                    )
                f += int(c)
                k += 1
                continue
            try:
                board[square(f, r)] = Piece.from_token(rank_text[k : k + 2])
            except ValueError as exc:
                raise ValueError(f"rank {r + 1}: {exc}") from None
            f += 1
            k += 2
        if f != SIZE or k != len(rank_text):
            raise ValueError(f"rank {r + 1} ({rank_text!r}) does not describe exactly 9 squares")
    return tuple(board)


def placement_from_grid(grid: Mapping[str, str | None]) -> str:
    """The placement field from square names to tokens (None or absent = empty).

    The board reader's bridge to the notation; pure.

    >>> placement_from_grid({"a1": "rC", "e5": "xx"})
    '9/9/9/9/4xx4/9/9/9/rC8'
    """
    board: list[Piece | None] = [None] * (SIZE * SIZE)
    index = {name: i for i, name in enumerate(SQUARE_NAMES)}
    for name, token in grid.items():
        if name not in index:
            raise ValueError(f"{name!r} is not a square: use a file a–i and a rank 1–9, like e5")
        if token is not None:
            board[index[name]] = Piece.from_token(token)
    return placement_from_squares(board)


def grid_from_placement(text: str) -> dict[str, str | None]:
    """Every square name (a1 … i9) mapped to its token or None; raises ValueError.

    >>> grid_from_placement("9/9/9/9/4xx4/9/9/9/rC8")["e5"]
    'xx'
    """
    squares = squares_from_placement(text)
    return {SQUARE_NAMES[i]: (p.token if p is not None else None) for i, p in enumerate(squares)}


__all__ = [
    "CORPSE",
    "Position",
    "PositionError",
    "grid_from_placement",
    "placement_from_grid",
    "placement_from_squares",
    "squares_from_placement",
]
