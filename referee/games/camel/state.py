"""The state of a night of camel races and the options that shape it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from referee.games.base import EventError, OptionSpec, resolve_options
from referee.games.camel.race import LAPPED, MARKER_CARD, Camel, Race
from referee.games.camel.tiles import CARDS, TILE_COUNT, TWO_SIDED, TileMemory

ROWS_GRID, LOOSE = "rows", "loose"
MAY, MUST = "may", "must"

OPTIONS = (
    OptionSpec(
        "tiles",
        TWO_SIDED,
        (TWO_SIDED, CARDS),
        "two-sided: tiles with a number on both sides, flipped in place (the published game); "
        "cards: face-down cards turned up and laid face-down again (the translation)",
    ),
    OptionSpec(
        "remember_under",
        False,
        (False, True),
        "two-sided tiles only: the console may also enter the number under a flipped tile, so the "
        "referee can point out a later entry that contradicts it (off: memory is the game)",
    ),
    OptionSpec(
        "elimination",
        LAPPED,
        (LAPPED, MARKER_CARD),
        "lapped: a move that reaches or passes the marker card eliminates every camel it reaches or "
        "passes from the marker card on; marker-card: only the camels on the marker card",
    ),
    OptionSpec(
        "oasis",
        MAY,
        (MAY, MUST),
        "may: a camel on an oasis may turn another tile or end its turn there (the rulebook's 'may'); "
        "must: it always turns another tile",
    ),
    OptionSpec(
        "races",
        0,
        (),
        "races in the night: 0 plays until the scorekeeper ends the night; N ends it after N races "
        "(a tie for most race wins is settled by deciding races)",
    ),
    OptionSpec(
        "tile_grid",
        ROWS_GRID,
        (ROWS_GRID, LOOSE),
        "rows: tiles in 5 rows of 6, entered by (row, column), the one-turn-between rule checked; "
        "loose: the harder variants (tiles mixed up or put back elsewhere), only the number is entered",
    ),
)


@dataclass(frozen=True)
class CamelOptions:
    tiles: str
    remember_under: bool
    elimination: str
    oasis: str
    races: int
    tile_grid: str

    @classmethod
    def from_header(cls, given: dict[str, Any]) -> CamelOptions:
        opts = resolve_options(OPTIONS, given)
        races = opts["races"]
        if not isinstance(races, int) or isinstance(races, bool) or races < 0:
            raise EventError("option 'races' must be a whole number of races, 0 (open night) or more")
        if opts["remember_under"] and (opts["tiles"] != TWO_SIDED or opts["tile_grid"] != ROWS_GRID):
            raise EventError(
                "option 'remember_under' needs two-sided tiles in rows: a card has no number under "
                "it, and loose tiles are not tracked"
            )
        return cls(**opts)


@dataclass(frozen=True)
class CamelState:
    """A night of races. ``races`` holds every race begun; the last may be running."""

    players: tuple[str, ...]
    options: CamelOptions
    camels: tuple[Camel, ...]
    tiles: TileMemory
    wins: tuple[int, ...]
    layout: str | None = None
    deal_seed: int | None = None  # the seed the ring was dealt from, if it was dealt
    races: tuple[Race, ...] = ()
    last_tile: tuple[int | None, int, int] | None = None  # (tile, number shown, camel) of the last turn
    finished: bool = False
    winner: str | None = None

    @property
    def race(self) -> Race | None:
        """The running race, or the last one played, or None before the first."""
        return self.races[-1] if self.races else None

    @property
    def running(self) -> Race | None:
        race = self.race
        return race if race is not None and not race.over else None

    @property
    def phase(self) -> str:
        """``layout``, ``start``, ``turn``, ``oasis`` or ``over``: what the referee waits for."""
        if self.finished:
            return "over"
        race = self.running
        if race is not None:
            return "oasis" if race.on_oasis else "turn"
        return "layout" if self.layout is None else "start"

    def races_won(self) -> int:
        return sum(1 for r in self.races if r.winner is not None)

    def leaders(self) -> tuple[str, ...]:
        """Players with the most race wins (everyone, before any race is won)."""
        top = max(self.wins)
        return tuple(p for p, w in zip(self.players, self.wins, strict=True) if w == top)


def make_camels(players: tuple[str, ...]) -> tuple[Camel, ...]:
    """One camel per player, or two each with two players ("Anne 1", "Anne 2")."""
    if len(players) == 2:
        return tuple(Camel(f"{p} {j}", p, 2 * i + j - 1) for i, p in enumerate(players) for j in (1, 2))
    return tuple(Camel(p, p, i) for i, p in enumerate(players))


def turn_order(players: tuple[str, ...], first: str) -> tuple[int, ...]:
    """Camel numbers in turn order for a race that `first` starts.

    >>> turn_order(("Anne", "Marc"), "Marc")  # Marc 1, Anne 1, Marc 2, Anne 2
    (2, 0, 3, 1)
    >>> turn_order(("Anne", "Bea", "Marc"), "Bea")
    (1, 2, 0)
    """
    i = players.index(first)
    if len(players) == 2:
        s, o = 2 * i, 2 * (1 - i)
        return (s, o, s + 1, o + 1)
    n = len(players)
    return tuple((i + k) % n for k in range(n))


def expected_first(state: CamelState) -> str | None:
    """Who must start the next race, or None for the first race (the youngest, entered)."""
    if not state.races:
        return None
    return state.races[-1].players_out[0]


def legal_tiles(state: CamelState) -> tuple[int, ...]:
    """Tiles the camel of this turn may turn now (all of them with loose tiles: not tracked)."""
    race = state.running
    if race is None:
        return ()
    barred = race.before | set(race.this)
    return tuple(t for t in range(TILE_COUNT) if t not in barred)
