"""The material of Dschamál: 48 coloured stones (12 shapes × 4 colours), 10 black decoys, the camel.

A coloured stone is named ``"<shape>/<colour>"``; the black decoys are all alike and are named
``"black"``; the camel is ``"camel"``. Shape ids are stable record data; the names shown to
people come from `ShapeNames` and may be changed per game (option ``shape_names``).

>>> stone("ball", "blue"), shape_of("narrow-roof/white"), colour_of("egg/yellow")
('ball/blue', 'narrow-roof', 'yellow')
>>> len(COLOURED), TOTAL_STONES
(48, 59)
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from referee.games.base import EventError

# The five shapes the rulebook names, then neutral ids for the seven it does not name.
SHAPES: tuple[str, ...] = (
    "ball",
    "narrow-roof",
    "egg",
    "disc",
    "block",
    *(f"shape-{i}" for i in range(6, 13)),
)
COLOURS: tuple[str, ...] = ("blue", "yellow", "white", "brown")
BLACK = "black"
CAMEL = "camel"
NOTHING = "nothing"  # a drawer who came out empty-handed (Quartet: the slower may not have drawn)
BLACK_DECOYS = 10
COLOURED: tuple[str, ...] = tuple(f"{s}/{c}" for s in SHAPES for c in COLOURS)
TOTAL_STONES = len(COLOURED) + BLACK_DECOYS + 1  # 59: the rulebook's 48 coloured and 11 black

_RANK = {s: i for i, s in enumerate(COLOURED)}
_SHAPE = {s: s.split("/", 1)[0] for s in COLOURED}  # shape_of is hot in the rules: a lookup
DEFAULT_NAMES: Mapping[str, str] = {
    **{s: s.replace("-", " ") for s in SHAPES[:5]},
    **{s: f"shape {s.split('-')[1]}" for s in SHAPES[5:]},
}


def stone(shape: str, colour: str) -> str:
    return f"{shape}/{colour}"


def shape_of(stone_id: str) -> str:
    shape = _SHAPE.get(stone_id)
    return shape if shape is not None else stone_id.split("/", 1)[0]


def colour_of(stone_id: str) -> str:
    return stone_id.split("/", 1)[1]


def is_coloured(stone_id: str) -> bool:
    return stone_id in _RANK


def ordered(stones: Iterable[str]) -> tuple[str, ...]:
    """Coloured stones in the canonical order: by shape, then blue, yellow, white, brown."""
    return tuple(sorted(stones, key=_RANK.__getitem__))


def coloured_stone(value: object, what: str = "stone") -> str:
    """Read a coloured stone id from an event; raise EventError with the expected form."""
    if not isinstance(value, str) or value not in _RANK:
        raise EventError(
            f"{what} must be a coloured stone written shape/colour, like 'ball/blue' "
            f"(shapes: {', '.join(SHAPES)}; colours: {', '.join(COLOURS)}), not {value!r}"
        )
    return value


@dataclass(frozen=True)
class Draw:
    """What one hand brought out of the bag: coloured stones, black decoys, maybe the camel."""

    coloured: tuple[str, ...] = ()
    black: int = 0
    camel: bool = False

    @property
    def count(self) -> int:
        return len(self.coloured) + self.black + int(self.camel)

    @property
    def several(self) -> bool:
        return self.count >= 2

    @property
    def one_coloured(self) -> str | None:
        """The stone when exactly one coloured stone was drawn, else None."""
        return self.coloured[0] if self.count == 1 and self.coloured else None

    @property
    def is_camel(self) -> bool:
        return self.count == 1 and self.camel

    @property
    def is_black(self) -> bool:
        return self.count == 1 and self.black == 1

    @classmethod
    def single(cls, stone_id: str) -> Draw:
        if stone_id == CAMEL:
            return cls(camel=True)
        if stone_id == BLACK:
            return cls(black=1)
        if stone_id == NOTHING:
            return cls()
        return cls(coloured=(stone_id,))

    def to_json(self) -> list[str]:
        return [*self.coloured, *([BLACK] * self.black), *([CAMEL] if self.camel else [])]


@dataclass(frozen=True)
class ShapeNames:
    """The names people see for the shape ids (configurable: option ``shape_names``)."""

    names: tuple[tuple[str, str], ...] = tuple(DEFAULT_NAMES.items())

    @classmethod
    def from_option(cls, value: object) -> ShapeNames:
        if not isinstance(value, Mapping):
            raise EventError('option \'shape_names\' must map shape ids to names, like {"shape-6": "cone"}')
        names = dict(DEFAULT_NAMES)
        for key, name in value.items():
            if key not in names:
                raise EventError(f"option 'shape_names': unknown shape id {key!r}; ids: {', '.join(SHAPES)}")
            if not isinstance(name, str) or not name.strip():
                raise EventError(f"option 'shape_names': the name of {key!r} must be a non-empty string")
            names[key] = name.strip()
        return cls(tuple(names.items()))

    def shape(self, shape_id: str) -> str:
        return dict(self.names).get(shape_id, shape_id)

    def a_shape(self, shape_id: str) -> str:
        """'a ball', 'an egg'."""
        name = self.shape(shape_id)
        return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"

    def stone(self, stone_id: str) -> str:
        """'blue ball', 'a black stone', 'the camel', for sentences."""
        if stone_id == CAMEL:
            return "the camel"
        if stone_id == BLACK:
            return "a black stone"
        if stone_id == NOTHING:
            return "nothing"
        return f"{colour_of(stone_id)} {self.shape(shape_of(stone_id))}"

    def draw(self, draw: Draw) -> str:
        parts = [self.stone(s) for s in draw.coloured]
        if draw.black:
            parts.append("a black stone" if draw.black == 1 else f"{draw.black} black stones")
        if draw.camel:
            parts.append("the camel")
        return " and ".join(parts) if parts else "nothing"
