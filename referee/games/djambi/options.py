"""The rule options: one per row of the ambiguity register (djambi.md §1.11).

Every option defaults to the register's recommended reading. `Options` is a frozen value
carried by every position, so a position string with its options is self-contained (the
board reader and perft need nothing else). Only options that differ from the defaults are
written in the position string: ``own_kill=non_chief,master_moves=true``.

>>> Options().encircle, Options.parse("own_kill=non_chief").own_kill
('group', 'non_chief')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace
from typing import Any

from referee.games.base import OptionSpec

# name, default, choices, documentation (register row first).
_SPECS: tuple[tuple[str, Any, tuple[Any, ...], str], ...] = (
    (
        "setup",
        "mirror",
        ("mirror", "rotational"),
        "A1. Starting layout: mirror (assassins face assassins, reporters face reporters, as in the "
        "[RB] figure) or rotational (each assassin faces the next camp's reporter, as in [CH]).",
    ),
    (
        "own_kill",
        "none",
        ("none", "non_chief", "all"),
        "A2. Pieces a player may kill among those he controls (own and satellites): none; any but "
        "his chief (BGA); all (killing his own chief eliminates him).",
    ),
    (
        "reporter_kill",
        "optional",
        ("optional", "mandatory"),
        "A3. Whether a reporter that ends its move next to a victim may decline to kill.",
    ),
    (
        "reporter_victims",
        "one",
        ("one", "all"),
        "A4. One chosen victim, or every orthogonally adjacent living piece, own ones included "
        "(the [CV] reading, [CH] 'Fox News').",
    ),
    (
        "maze_order",
        "exit_then_place",
        ("exit_then_place", "place_then_exit"),
        "A5/A6. Inside a maze action: leave the maze, then place the piece ([RB] §3.2.2), or place "
        "first and leave after ([CH]); placing first blocks the exit's path with the placed piece.",
    ),
    (
        "master_moves",
        False,
        (False, True),
        "A8. The exit from the maze may act on a second chief: the assassin kills him (corpse into "
        "the maze), the diplomat installs him in the maze ([BGA], [CH] variant 'extended').",
    ),
    (
        "chief_to_maze",
        True,
        (True, False),
        "A9. A diplomat may place a manipulated chief in the empty maze; that chief's party takes "
        "power at once.",
    ),
    (
        "chief_back_to_maze",
        False,
        (False, True),
        "A10. A diplomat that evicts the ruler may put him straight back in the maze ([MA] quirk).",
    ),
    (
        "diplomat_satellites",
        False,
        (False, True),
        "A11. The diplomat may manipulate its player's satellites ([CH] 'vassal', [ASG]).",
    ),
    (
        "encircle",
        "group",
        ("group", "literal8", "throne_access", "flood"),
        "A12. Encirclement geometry: group = flood through the player's own living pieces, an empty "
        "square or a living enemy next to the group saves; literal8 = all 8 neighbours are corpses "
        "or the edge; throne_access = corpses cut every path to the maze ([CH] default); flood = "
        "flood through living pieces of any side, no empty square reachable ([CH] strict/loose).",
    ),
    (
        "necromobile_saves",
        "controlled",
        ("controlled", "own", "none"),
        "A13. Which necromobile keeps an encircled chief alive: any the player controls "
        "(satellites too), only his own camp's, or none.",
    ),
    (
        "encircled_chief",
        "corpse",
        ("corpse", "inactive"),
        "A14. An encircled chief becomes a corpse where he stands, or stays as an inactive living "
        "piece that never moves again ([CH]).",
    ),
    (
        "neutral",
        "immune",
        ("immune", "killable"),
        "A15. Pieces of an encircled player, waiting for a ruler: immune obstacles, or pieces "
        "anyone may kill or manipulate ([JF]).",
    ),
    (
        "two_party_power",
        "double",
        ("double", "none"),
        "A16. With two players left the ruler plays twice in a row after his opponent ([RB], [BGA]), "
        "or power brings no extra turn ([JF]).",
    ),
    (
        "militant_kills_ruler",
        False,
        (False, True),
        "A17. A militant may enter the maze to kill the ruler and leave again ([SdH] house rule; "
        "[RB] forbids it).",
    ),
    (
        "no_move",
        "skip",
        ("skip", "eliminate"),
        "A18. A player with no legal move is skipped, or eliminated (his chief dies where he stands, [JF]).",
    ),
    (
        "draws",
        "agreement",
        ("agreement", "none"),
        "A19. A draw by unanimous agreement of the surviving players, or no draws.",
    ),
)

OPTION_SPECS: tuple[OptionSpec, ...] = tuple(OptionSpec(n, d, c, doc) for n, d, c, doc in _SPECS)


@dataclass(frozen=True, slots=True)
class Options:
    setup: str = "mirror"
    own_kill: str = "none"
    reporter_kill: str = "optional"
    reporter_victims: str = "one"
    maze_order: str = "exit_then_place"
    master_moves: bool = False
    chief_to_maze: bool = True
    chief_back_to_maze: bool = False
    diplomat_satellites: bool = False
    encircle: str = "group"
    necromobile_saves: str = "controlled"
    encircled_chief: str = "corpse"
    neutral: str = "immune"
    two_party_power: str = "double"
    militant_kills_ruler: bool = False
    no_move: str = "skip"
    draws: str = "agreement"

    @classmethod
    def from_mapping(cls, given: Mapping[str, Any]) -> Options:
        """Options from a JSON header; raises ValueError naming the bad option and the choices."""
        known = {spec.name: spec for spec in OPTION_SPECS}
        for name, value in given.items():
            spec = known.get(name)
            if spec is None:
                raise ValueError(f"unknown Djambi option {name!r}; known options: {', '.join(known)}")
            if value not in spec.choices or type(value) is not type(spec.default):
                choices = ", ".join(_text(c) for c in spec.choices)
                raise ValueError(f"option {name!r} cannot be {value!r}; choose one of {choices}")
        return replace(cls(), **dict(given))

    @classmethod
    def parse(cls, text: str) -> Options:
        """The options field of a position string: ``name=value,...`` or ``-`` for defaults."""
        if text in ("", "-"):
            return cls()
        given: dict[str, Any] = {}
        for item in text.split(","):
            name, sep, raw = item.partition("=")
            if not sep:
                raise ValueError(f"option {item!r} needs a value: write name=value")
            default = getattr(cls(), name, None)
            if default is None:
                raise ValueError(f"unknown Djambi option {name!r}")
            if isinstance(default, bool):
                if raw not in ("true", "false"):
                    raise ValueError(f"option {name!r} is true or false, not {raw!r}")
                given[name] = raw == "true"
            else:
                given[name] = raw
        return cls.from_mapping(given)

    def changed(self) -> dict[str, Any]:
        """The options that differ from the defaults, in declaration order."""
        base = Options()
        return {
            f.name: getattr(self, f.name)
            for f in fields(self)
            if getattr(self, f.name) != getattr(base, f.name)
        }

    def text(self) -> str:
        """The options field: non-default options only, ``-`` when all are default."""
        changed = self.changed()
        return ",".join(f"{k}={_text(v)}" for k, v in changed.items()) or "-"


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
