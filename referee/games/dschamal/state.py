"""The state of a Dschamál game (immutable) and `Table`, the mutable copy a step works on.

Where every stone is: in the bag, in front of a player (in the Tower: in the player's tower,
bottom first, or among his or her black stones), among a player's winning stones, as the
decision stone in the middle, or out of the game. A drawn stone stays "in the bag" in the state
until somebody receives it, so the material adds up to 59 after every event.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from referee.games.base import EventError, OptionSpec, Verdict, resolve_options
from referee.games.dschamal.stones import COLOURED, ShapeNames, ordered, shape_of

VARIANTS = ("duel", "tower", "trio", "quartet")

OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "winning_stones",
        "out-of-bag",
        ("out-of-bag", "in-front"),
        "When stones become winning stones: out-of-bag = as soon as all four stones of a shape have been "
        "fished out of the bag, each holder's stones of it (as in the Trio example); in-front = only when "
        "all four lie in front of one player.",
    ),
    OptionSpec(
        "false_start",
        "slower",
        ("slower", "repeat"),
        "A false start or a button held at the call: slower = that player counts as slower than every valid "
        "press; repeat = the contest is repeated.",
    ),
    OptionSpec(
        "slower_camel_call",
        "ignored",
        ("ignored", "forfeits"),
        'A wrong "I am the camel!" by the slower duellist alone: ignored = changes nothing; forfeits = he or '
        "she cannot win the duel.",
    ),
    OptionSpec(
        "loser_only_winning",
        "reach",
        ("reach", "nothing"),
        "A loser who must hand over a stone but holds only winning stones: reach = as if he or she held none "
        "(the winner may reach into the bag again); nothing = the winner receives nothing.",
    ),
    OptionSpec(
        "duel_order",
        "lord",
        ("lord", "in-turn"),
        "Duel and Tower with four or more players: lord = the order of the lord of the stones; in-turn = "
        "play in turn as with three players.",
    ),
    OptionSpec(
        "simultaneous_seven",
        "most",
        ("most", "shared"),
        "Two or more players reaching seven winning stones in the same contest: most = the most winning "
        "stones win (still level: shared); shared = they share the victory.",
    ),
    OptionSpec(
        "tower_owned_elsewhere",
        "give",
        ("give", "bag"),
        "Tower: the drawer does not own the drawn shape but another player does: give = the drawer gives it "
        "to a player of his or her choice; bag = it goes back into the bag.",
    ),
    OptionSpec(
        "tower_two_stones",
        "bag",
        ("bag", "opponent"),
        "Tower: the coloured stones drawn together by mistake: bag = back into the bag; opponent = the duel "
        "opponent builds them in.",
    ),
    OptionSpec(
        "trio_fastest_stone",
        "bag",
        ("bag", "winner"),
        "Trio: the fastest player's drawn coloured stone when the second fastest wins: bag = back into the "
        "bag; winner = the winner receives it too.",
    ),
    OptionSpec(
        "shape_names",
        {},
        (),
        'Names shown for the shape ids, e.g. {"shape-6": "cone"}; ids: ball, narrow-roof, egg, disc, block, '
        "shape-6 ... shape-12.",
    ),
)


@dataclass(frozen=True)
class Options:
    """The resolved rule options of one game (see `OPTION_SPECS`)."""

    winning_stones: str = "out-of-bag"
    false_start: str = "slower"
    slower_camel_call: str = "ignored"
    loser_only_winning: str = "reach"
    duel_order: str = "lord"
    simultaneous_seven: str = "most"
    tower_owned_elsewhere: str = "give"
    tower_two_stones: str = "bag"
    trio_fastest_stone: str = "bag"
    names: ShapeNames = field(default_factory=ShapeNames)

    @classmethod
    def from_header(cls, given: Mapping[str, Any]) -> Options:
        values = resolve_options(OPTION_SPECS, given)
        names = ShapeNames.from_option(values.pop("shape_names"))
        return cls(**values, names=names)


@dataclass(frozen=True)
class Task:
    """One input the rules wait for after a contest, from one player.

    kinds: ``draw`` (what `player` drew; role faster/slower/second), ``take`` (a stone of the
    taker's choice from `other`), ``reach`` (reaching into the bag again), ``give`` (Tower: to
    whom `player` gives `stone`), ``camel`` (Tower: the camel's black-stone move).
    """

    kind: str
    player: str
    role: str = ""
    other: str = ""
    stone: str = ""


@dataclass(frozen=True)
class Round:
    """The contest in progress: its seats, who was faster, what was drawn and called."""

    seats: tuple[str, ...]
    order: tuple[str, ...] = ()  # fastest first; the trio's last two may be unknown
    second_known: bool = True  # Trio: False when second and slowest cannot be told apart
    draws: tuple[tuple[str, Any], ...] = ()  # (player, Draw)
    calls: tuple[str, ...] = ()  # who called "I am the camel!"
    winner: str = ""
    loser: str = ""

    def draw_of(self, player: str) -> Any:
        return dict(self.draws).get(player)


@dataclass(frozen=True)
class Order:
    """Who duels next and why: the lord of the stones, the last loser, the current streak."""

    next: tuple[str, ...] = ()  # the seats of the next contest
    lord: str = ""
    last_loser: str = ""
    streak_owner: str = ""
    beaten: frozenset[str] = frozenset()
    sits_out: str = ""
    turn: str = ""  # in turn: whose turn it is; Trio: the middle seat


@dataclass(frozen=True)
class DschamalState:
    variant: str
    players: tuple[str, ...]
    options: Options
    bag: frozenset[str]  # coloured stones in the bag
    bag_black: int
    bag_camel: bool
    front: tuple[tuple[str, ...], ...]  # per seat; the Tower: the tower, foundation first
    winning: tuple[tuple[str, ...], ...]
    black: tuple[int, ...]  # the Tower: black stones in front of each player
    removed: tuple[str, ...] = ()  # out of the game: the Tower's eggs, the Quartet's camel
    decision: str = ""
    started: frozenset[str] = frozenset()
    order: Order = Order()
    round: Round | None = None
    tasks: tuple[Task, ...] = ()
    contests: int = 0  # contests decided (repeats not counted)
    finished: bool = False
    winners: tuple[str, ...] = ()
    end: str = ""
    last: str = ""  # the last outcome, for the display

    def seat(self, player: str) -> int:
        return self.players.index(player)

    def stones_of(self, player: str) -> tuple[str, ...]:
        return self.front[self.seat(player)]

    def winning_of(self, player: str) -> tuple[str, ...]:
        return self.winning[self.seat(player)]

    def black_of(self, player: str) -> int:
        return self.black[self.seat(player)]

    def left(self, player: str) -> str:
        """The left-hand neighbour: the next player clockwise in the seating order."""
        return self.players[(self.seat(player) + 1) % len(self.players)]

    def right(self, player: str) -> str:
        return self.players[(self.seat(player) - 1) % len(self.players)]

    def owners_of(self, shape: str) -> tuple[str, ...]:
        """Players with a stone of `shape` in front of them (winning stones included)."""
        return tuple(
            p
            for i, p in enumerate(self.players)
            if any(shape_of(s) == shape for s in (*self.front[i], *self.winning[i]))
        )

    def bag_count(self) -> int:
        return len(self.bag) + self.bag_black + int(self.bag_camel)


class Table:
    """A mutable working copy of a state: one step's moves, then `freeze()`.

    Every move checks the stone is where it is taken from, so a bug cannot create or lose a stone.
    """

    def __init__(self, state: DschamalState) -> None:
        self.base = state
        self.players = state.players
        self.options = state.options
        self.bag = set(state.bag)
        self.bag_black = state.bag_black
        self.bag_camel = state.bag_camel
        self.front = [list(s) for s in state.front]
        self.winning = [list(s) for s in state.winning]
        self.black = list(state.black)
        self.decision = state.decision
        self.changes: dict[str, Any] = {}
        self.verdicts: list[Verdict] = []

    # --- reading --------------------------------------------------------------------------
    def i(self, player: str) -> int:
        return self.players.index(player)

    def stones(self, player: str) -> list[str]:
        return self.front[self.i(player)]

    def owns(self, player: str, shape: str) -> bool:
        i = self.i(player)
        return any(shape_of(s) == shape for s in (*self.front[i], *self.winning[i]))

    def anyone_owns(self, shape: str) -> bool:
        return any(self.owns(p, shape) for p in self.players)

    # --- moves ----------------------------------------------------------------------------
    def from_bag(self, stone: str, to: str) -> None:
        """`to` receives a coloured stone from the bag (built on top in the Tower)."""
        if stone not in self.bag:
            raise EventError(f"the {stone} is not in the bag")
        self.bag.remove(stone)
        self.front[self.i(to)].append(stone)

    def to_bag(self, stone: str, owner: str) -> None:
        front = self.front[self.i(owner)]
        if stone not in front:
            raise EventError(f"{owner} has no {stone} that could go back into the bag")
        front.remove(stone)
        self.bag.add(stone)

    def hand(self, stone: str, giver: str, to: str) -> None:
        front = self.front[self.i(giver)]
        if stone not in front:
            raise EventError(f"{giver} has no {stone} to hand over")
        front.remove(stone)
        self.front[self.i(to)].append(stone)

    def black_from_bag(self, to: str) -> None:
        if self.bag_black <= 0:
            raise EventError("there is no black stone left in the bag")
        self.bag_black -= 1
        self.black[self.i(to)] += 1

    def black_hand(self, giver: str, to: str) -> None:
        if self.black[self.i(giver)] <= 0:
            raise EventError(f"{giver} has no black stone")
        self.black[self.i(giver)] -= 1
        self.black[self.i(to)] += 1

    def decision_from_bag(self, stone: str) -> None:
        if stone not in self.bag or self.decision:
            raise EventError(f"the {stone} cannot become the decision stone")
        self.bag.remove(stone)
        self.decision = stone

    def decision_to(self, player: str) -> None:
        self.front[self.i(player)].append(self.decision)
        self.decision = ""

    def make_winning(self, player: str, stones: list[str]) -> None:
        i = self.i(player)
        for s in stones:
            self.front[i].remove(s)
        self.winning[i].extend(stones)

    def set(self, **changes: Any) -> None:
        """Other fields of the new state (round, tasks, order, ...)."""
        self.changes.update(changes)

    def get(self, name: str) -> Any:
        return self.changes.get(name, getattr(self.base, name))

    def say(self, verdict: Verdict) -> None:
        self.verdicts.append(verdict)

    def freeze(self) -> DschamalState:
        tower = self.base.variant == "tower"
        return replace(
            self.base,
            bag=frozenset(self.bag),
            bag_black=self.bag_black,
            bag_camel=self.bag_camel,
            # a tower keeps its building order; stones in front are shown in the canonical order
            front=tuple(tuple(s) if tower else ordered(s) for s in self.front),
            winning=tuple(ordered(s) for s in self.winning),
            black=tuple(self.black),
            decision=self.decision,
            **self.changes,
        )


def initial_state(variant: str, players: tuple[str, ...], options: Options) -> DschamalState:
    """Everything in the bag, less what the variant takes out of the game."""
    removed: tuple[str, ...] = ()
    coloured = set(COLOURED)
    camel = True
    if variant == "tower":
        eggs = ordered(s for s in coloured if shape_of(s) == "egg")
        removed = eggs
        coloured -= set(eggs)
    if variant == "quartet":
        removed = ("camel",)
        camel = False
    n = len(players)
    return DschamalState(
        variant=variant,
        players=players,
        options=options,
        bag=frozenset(coloured),
        bag_black=10,
        bag_camel=camel,
        front=((),) * n,
        winning=((),) * n,
        black=(0,) * n,
        removed=removed,
    )
