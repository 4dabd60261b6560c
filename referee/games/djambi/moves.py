"""The move string: one piece's whole turn, every follow-up choice included.

    <from>-<to>[>exit][@place][+victim]

- ``c1-e1``: a piece moves from c1 to e1 (an empty square, or an action on the piece there).
- ``@place``: where the killed piece's corpse, the manipulated living piece or the relocated
  corpse is put (kills by a chief or militant, the diplomat, the necromobile).
- ``>exit``: the square a piece that entered the occupied maze to act leaves to
  (djambi.md §1.5); written before the placement whatever the maze order option.
- ``+victim``: the square of the reporter's victim; no ``+`` means the reporter kills nobody.

The string names squares only, so it reads without a board (like UCI in chess); what it
means (a kill, a manipulation) follows from the position. An ``x`` is accepted for ``-``.

>>> Move.parse("g1xe1@f2"), str(Move.parse("c3-e5>d6@a5"))
(Move(origin=6, target=4, exit=None, place=14, victim=None), 'c3-e5>d6@a5')
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from referee.games.djambi.squares import Square, parse_square, square_name

_SQ = r"([a-i][1-9])"
_MOVE = re.compile(rf"{_SQ}[-x]{_SQ}(?:>{_SQ})?(?:@{_SQ})?(?:\+{_SQ})?")


class MoveSyntaxError(ValueError):
    """A move string that cannot be read."""


@dataclass(frozen=True, slots=True)
class Move:
    origin: Square
    target: Square
    exit: Square | None = None
    place: Square | None = None
    victim: Square | None = None

    @classmethod
    def parse(cls, text: str) -> Move:
        match = _MOVE.fullmatch(text.strip()) if isinstance(text, str) else None
        if match is None:
            raise MoveSyntaxError(
                f"cannot read the move {text!r}: write from-to, then the exit (>d6), the placement "
                "(@a5) or the reporter's victim (+d5) when the move needs them, e.g. g1-e1@f2"
            )
        a, b, c, d, e = (parse_square(g) if g else None for g in match.groups())
        assert a is not None and b is not None
        return cls(a, b, c, d, e)

    def __str__(self) -> str:
        text = f"{square_name(self.origin)}-{square_name(self.target)}"
        if self.exit is not None:
            text += ">" + square_name(self.exit)
        if self.place is not None:
            text += "@" + square_name(self.place)
        if self.victim is not None:
            text += "+" + square_name(self.victim)
        return text
