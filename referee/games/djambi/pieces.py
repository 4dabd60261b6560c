"""Parties, kinds and pieces: the small value types of Djambi.

A living piece is a party and a kind; its token in the position string is the party letter
(lowercase) and the kind letter (uppercase), ``rC`` for Red's chief. A corpse has no colour
(djambi.md §1.4: dead pieces "belong to everyone") and its token is ``xx``. A living piece
keeps its party letter when another party controls it; control lives in the position.

>>> Piece.from_token("yN"), CORPSE.token
(Piece(party=<Party.YELLOW: 2>, kind=<Kind.NECROMOBILE: 4>), 'xx')
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum


class Party(IntEnum):
    """The four camps in turn order (djambi.md §1.2: Red starts, then Blue, Yellow, Green)."""

    RED = 0
    BLUE = 1
    YELLOW = 2
    GREEN = 3

    @property
    def letter(self) -> str:
        return "rbyg"[self]

    @property
    def title(self) -> str:
        return self.name.capitalize()

    @classmethod
    def from_letter(cls, letter: str) -> Party:
        index = "rbyg".find(letter)
        if index < 0 or len(letter) != 1:
            raise ValueError(f"{letter!r} is not a party: use r (red), b (blue), y (yellow) or g (green)")
        return cls(index)


class Kind(IntEnum):
    CHIEF = 0
    ASSASSIN = 1
    REPORTER = 2
    DIPLOMAT = 3
    NECROMOBILE = 4
    MILITANT = 5

    @property
    def letter(self) -> str:
        return "CARDNM"[self]

    @property
    def title(self) -> str:
        return self.name.lower()

    @classmethod
    def from_letter(cls, letter: str) -> Kind:
        index = "CARDNM".find(letter)
        if index < 0 or len(letter) != 1:
            raise ValueError(
                f"{letter!r} is not a kind: use C (chief), A (assassin), R (reporter), "
                "D (diplomat), N (necromobile) or M (militant)"
            )
        return cls(index)


# How many pieces of each kind a camp starts with (djambi.md §1.3): 9 per camp, 36 in all.
STARTING_COUNT: dict[Kind, int] = {
    Kind.CHIEF: 1,
    Kind.ASSASSIN: 1,
    Kind.REPORTER: 1,
    Kind.DIPLOMAT: 1,
    Kind.NECROMOBILE: 1,
    Kind.MILITANT: 4,
}
TOTAL_PIECES = 36

# Control of a camp's living pieces: a Party (int 0–3), or one of these.
NEUTRAL = -1  # a camp whose chief was encircled: nobody moves its pieces until a ruler takes them
HOSTAGE = -2  # the fourth camp of a three-player game (djambi.md §1.10): never moves


@dataclass(frozen=True, slots=True)
class Piece:
    """A piece on the board. Use the interned instances `PIECES[party][kind]` and `CORPSE`."""

    party: Party | None
    kind: Kind | None

    @property
    def is_corpse(self) -> bool:
        return self.party is None

    @property
    def token(self) -> str:
        if self.party is None or self.kind is None:
            return "xx"
        return self.party.letter + self.kind.letter

    @property
    def title(self) -> str:
        """For people: "Red's militant", "a corpse"."""
        if self.party is None or self.kind is None:
            return "a dead piece"
        return f"{self.party.title}'s {self.kind.title}"

    @classmethod
    def from_token(cls, token: str) -> Piece:
        if token == "xx":
            return CORPSE
        if len(token) != 2:
            raise ValueError(
                f"{token!r} is not a piece: use a party letter and a kind letter, like rC, or xx"
            )
        return PIECES[Party.from_letter(token[0])][Kind.from_letter(token[1])]


PIECES: tuple[tuple[Piece, ...], ...] = tuple(tuple(Piece(p, k) for k in Kind) for p in Party)
CORPSE = Piece(None, None)
