"""The values of a Djam game: settings, dice, proposals, rounds and the state, all immutable.

The state is a plain value; the engine returns a new one for each event (``dataclasses.replace``).
Tokens are conserved: ``pool + centre + sum(tokens) == settings.total`` in every state, where the
pool is the centre of the table in the classic game and the set-aside supply in Unlimited
proposals, and the centre holds the round's tokens in Unlimited proposals (0 otherwise).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from referee.games.djam.letters import BLACK, COLOURS

CLASSIC, UNLIMITED, OPEN_THEMES = "classic", "unlimited", "open-themes"
VARIANTS = (CLASSIC, UNLIMITED, OPEN_THEMES)

Status = Literal["pending", "valid", "refused", "wrong"]


@dataclass(frozen=True)
class Settings:
    """The game's header, resolved: players in clockwise order and every option."""

    players: tuple[str, ...]
    variant: str
    total: int  # tokens in the game (option "pool")
    themes: tuple[str, ...]  # the six themes of the card in play
    card: int | None  # None when the header brought its own themes
    language: str  # Snowball stemmer language for the same-root rule
    silent: int  # classic: how many of the last speakers score nothing
    black_penalty: str  # "up-to-4" | "4-or-nothing"
    theme_ruling: str  # "scorekeeper" | "majority"
    close_themes: str  # open themes: "everyone" | "speaker"
    black_centre: str  # unlimited: "keep" | "add" (tokens left in the centre at a round's start)
    black_penalty_to: str  # unlimited: "supply" | "centre"
    press_window_s: int
    youngest: int  # seat index of the first roller
    root_prefix: int

    def seat(self, player: str) -> int:
        return self.players.index(player)


@dataclass(frozen=True)
class Dice:
    """One roll: the letter of each coloured die, the colour die, the numbered die (theme)."""

    letters: tuple[str, ...]  # uppercase, in COLOURS order
    colour: str  # one of COLOURS or BLACK
    theme: int | None  # 1–6; None in Open themes

    @property
    def by_colour(self) -> dict[str, str]:
        return dict(zip(COLOURS, self.letters, strict=True))

    @property
    def black(self) -> bool:
        return self.colour == BLACK

    @property
    def required(self) -> str | None:
        """The letter every word must begin with; None on the black face."""
        return None if self.black else self.by_colour[self.colour]


@dataclass(frozen=True)
class Proposal:
    """A word spoken in a round and what the referee made of it.

    `matches` pairs an index of `letters` with a die colour: the letters that scored, or on the
    black face the letters that made the word wrong. `tokens` is what the player took (positive)
    or gave back (negative).
    """

    player: str
    word: str  # as typed, NFC
    letters: str  # folded a–z
    positions: tuple[int, ...]  # index in `word` of each folded letter
    proper: bool
    theme: int | None
    status: Status = "pending"
    rule: str = ""
    reason: str = ""
    matches: tuple[tuple[int, str], ...] = ()
    score: int = 0
    tokens: int = 0
    needs: tuple[str, ...] = ()  # rulings awaited: "root", "theme"
    root_with: str | None = None  # the earlier word of a same-root question
    root_note: str = ""

    @property
    def highlighted(self) -> tuple[int, ...]:
        """Indices in `word` of the characters whose letters matched a die."""
        return tuple(sorted({self.positions[i] for i, _ in self.matches}))


@dataclass(frozen=True)
class RoundLog:
    """A finished round, kept for the display and the summary."""

    number: int
    roller: str
    dice: Dice | None
    proposals: tuple[Proposal, ...]
    ended_by: str  # the id of the rule that ended it
    note: str


@dataclass(frozen=True)
class DjamState:
    settings: Settings
    tokens: tuple[int, ...]
    pool: int
    centre: int = 0
    round_no: int = 1
    roller: int = 0
    dice: Dice | None = None
    queue: tuple[str, ...] = ()  # players who pressed and wait to speak, in order
    proposals: tuple[Proposal, ...] = ()
    past: tuple[RoundLog, ...] = ()
    finished: bool = False
    end_rule: str | None = None

    @property
    def variant(self) -> str:
        return self.settings.variant

    @property
    def phase(self) -> Literal["roll", "play", "over"]:
        if self.finished:
            return "over"
        return "roll" if self.dice is None else "play"

    @property
    def pending(self) -> Proposal | None:
        if self.proposals and self.proposals[-1].status == "pending":
            return self.proposals[-1]
        return None

    @property
    def roller_name(self) -> str:
        return self.settings.players[self.roller]

    def valid(self) -> tuple[Proposal, ...]:
        return tuple(p for p in self.proposals if p.status == "valid")

    def scored_players(self) -> tuple[str, ...]:
        done = {p.player for p in self.valid()}
        return tuple(p for p in self.settings.players if p in done)

    def closed_by_anyone(self) -> frozenset[int]:
        return frozenset(p.theme for p in self.valid() if p.theme is not None)

    def open_themes_for(self, player: str) -> tuple[int, ...]:
        """Open themes: the themes this player may still announce a word for."""
        if self.settings.close_themes == "everyone":
            closed = self.closed_by_anyone()
        else:
            closed = frozenset(p.theme for p in self.valid() if p.player == player and p.theme is not None)
        return tuple(t for t in range(1, len(self.settings.themes) + 1) if t not in closed)

    def eligible(self) -> tuple[str, ...]:
        """Players who may still speak in this round (pressed or not)."""
        if self.phase != "play":
            return ()
        players = self.settings.players
        if self.variant == CLASSIC and not (self.dice and self.dice.black):
            done = set(self.scored_players())
            return tuple(p for p in players if p not in done)
        if self.variant == OPEN_THEMES:
            return tuple(p for p in players if self.open_themes_for(p))
        return players

    def conserved(self) -> bool:
        return self.pool + self.centre + sum(self.tokens) == self.settings.total
