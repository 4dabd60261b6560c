"""The ring of 16 desert cards: its layout, its geometry, and a deterministic random deal.

Cards are numbered 1 to 16 for people, clockwise, starting at the top-left corner of the
5 × 5 square; inside the engine a card is its index 0–15. A layout is a string of 16 letters
in that order: ``D`` plain desert, ``O`` oasis, ``S`` snake.

>>> parse_layout("DODSD DODSD DODSD O")
'DODSDDODSDDODSDO'
>>> oasis_beside_snake(parse_layout("DOSDD DOSDD DOSDD O"))
((2, 3), (7, 8), (12, 13))
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from referee.games.base import EventError

SIZE = 16
DESERT, OASIS, SNAKE = "D", "O", "S"
KIND_NAMES = {DESERT: "desert", OASIS: "oasis", SNAKE: "snake"}
# The published set: 9 plain desert (camel) cards, 4 oases, 3 snakes.
CARD_SET = {DESERT: 9, OASIS: 4, SNAKE: 3}
# Letters people may type for each kind (English and German initials).
_ALIASES = {"D": DESERT, "W": DESERT, "C": DESERT, "O": OASIS, "S": SNAKE}


def card_label(index: int) -> int:
    """The number people use for card `index` (1–16)."""
    return index % SIZE + 1


def ahead(a: int, b: int) -> int:
    """How many cards clockwise from card `a` to card `b` (0–15)."""
    return (b - a) % SIZE


def square_cell(index: int) -> tuple[int, int]:
    """(row, column) of card `index` in the 5 × 5 square, 0-based, clockwise from the top-left.

    >>> [square_cell(i) for i in (0, 4, 8, 12, 15)]
    [(0, 0), (0, 4), (4, 4), (4, 0), (1, 0)]
    """
    i = index % SIZE
    if i <= 4:
        return 0, i
    if i <= 8:
        return i - 4, 4
    if i <= 12:
        return 4, 12 - i
    return 16 - i, 0


def parse_layout(value: Any) -> str:
    """A layout from what the console sent: 16 letters (spaces and commas ignored) or a list."""
    if isinstance(value, str):
        letters = [ch for ch in value.upper() if not ch.isspace() and ch not in ",;-/|"]
    elif isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
        letters = [v.strip().upper()[:1] for v in value]
    else:
        raise EventError('"cards" must be the 16 cards as letters, e.g. "DDODSDDODSDDODSD"')
    unknown = sorted({ch for ch in letters if ch not in _ALIASES})
    if unknown:
        raise EventError(
            f"unknown card letter(s) {', '.join(unknown)}: use D for plain desert, O for oasis, S for snake"
        )
    layout = "".join(_ALIASES[ch] for ch in letters)
    if len(layout) != SIZE:
        raise EventError(f"the ring has 16 cards, but {len(layout)} were entered")
    counts = Counter(layout)
    if any(counts[kind] != n for kind, n in CARD_SET.items()):
        raise EventError(
            "the game has 9 plain desert cards, 4 oases and 3 snakes; the entry has "
            f"{counts[DESERT]} desert, {counts[OASIS]} oases and {counts[SNAKE]} snakes"
        )
    return layout


def oasis_beside_snake(layout: Sequence[str]) -> tuple[tuple[int, int], ...]:
    """Pairs of neighbouring card numbers (1-based) where an oasis lies beside a snake."""
    pairs = []
    for i in range(SIZE):
        j = (i + 1) % SIZE
        if {layout[i], layout[j]} == {OASIS, SNAKE}:
            pairs.append((card_label(i), card_label(j)))
    return tuple(pairs)


_MASK = (1 << 64) - 1


class SplitMix64:
    """A tiny random generator whose sequence is fixed forever by its seed.

    Python's ``random`` may change between versions; a record must deal the same ring on any
    machine, so the deal uses this well-known generator instead.

    >>> SplitMix64(1).below(16), SplitMix64(1).below(16)
    (1, 1)
    """

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A number in 0..n-1 (modulo bias below 1e-17 for our small n)."""
        return self.next() % n


def deal_layout(seed: int) -> str:
    """A random ring from `seed`, re-dealt until no oasis lies beside a snake (as the rules advise).

    >>> deal_layout(7) == deal_layout(7)
    True
    >>> oasis_beside_snake(deal_layout(7))
    ()
    """
    rng = SplitMix64(seed)
    cards = [kind for kind, n in sorted(CARD_SET.items()) for _ in range(n)]
    while True:  # about one deal in six qualifies; the loop ends after a few rounds
        for i in range(SIZE - 1, 0, -1):  # Fisher–Yates
            j = rng.below(i + 1)
            cards[i], cards[j] = cards[j], cards[i]
        layout = "".join(cards)
        if not oasis_beside_snake(layout):
            return layout
