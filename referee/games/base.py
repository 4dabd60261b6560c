"""The contract every game engine keeps.

An engine is pure: it takes values and returns values. It never touches hardware, images,
the journal or the web. The session folds the journal's events through it:

    state = engine.new_game(header)
    for event in events:
        step = engine.apply(state, event)   # raises EventError / RuleViolation
        state = step.state                  # the old state is never mutated

Every decision an engine makes comes out as a `Verdict` naming the `Rule` that decided it
(with the rulebook passage) and the evidence. The console asks for what the engine says it
needs next (`actions`), and the button contests the engine wants are described by
`ContestRequest`; the arbitration result comes back as a ``{"type": "contest", ...}`` event.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, Protocol, TypeVar

JSON = dict[str, Any]


@dataclass(frozen=True)
class Rule:
    """A rule of a rulebook, cited where it decides something.

    >>> Rule("dschamal.duel.faster-owns", "dschamal.txt, The Result of the Duel, case 1",
    ...      "He or she owns the drawn shape himself or herself.").id
    'dschamal.duel.faster-owns'
    """

    id: str
    source: str  # file and section, e.g. "dschamal.txt, The Result of the Duel"
    text: str  # the sentence(s) of the rulebook that decide, quoted

    def to_json(self) -> JSON:
        return {"id": self.id, "source": self.source, "text": self.text}


@dataclass(frozen=True)
class Verdict:
    """One decision of the referee: what happened, the rule that decided it, the evidence."""

    rule: Rule
    summary: str  # a sentence for the table: "Marc wins: he already owns a ball"
    evidence: Mapping[str, Any] = field(default_factory=dict)  # JSON-able facts

    def to_json(self) -> JSON:
        return {"rule": self.rule.to_json(), "summary": self.summary, "evidence": dict(self.evidence)}


class EventError(ValueError):
    """An event the engine cannot read: wrong shape, unknown type, unknown player."""


class RuleViolation(EventError):
    """A well-formed event the rules forbid. The message is written for a player."""

    def __init__(self, message: str, rule: Rule | None = None) -> None:
        super().__init__(message)
        self.rule = rule

    def to_json(self) -> JSON:
        return {"error": str(self), "rule": self.rule.to_json() if self.rule else None}


@dataclass(frozen=True)
class GameHeader:
    """The first line of a game record: which game, which players (in clockwise seating order)."""

    game: str
    variant: str
    players: tuple[str, ...]
    options: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> JSON:
        return {
            "game": self.game,
            "variant": self.variant,
            "players": list(self.players),
            "options": dict(self.options),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> GameHeader:
        if not isinstance(data, Mapping):
            raise EventError("the header must be a JSON object")
        game, variant, players = data.get("game"), data.get("variant", ""), data.get("players")
        options = data.get("options", {})
        if not isinstance(game, str) or not game:
            raise EventError('the header needs "game": a game name')
        if not isinstance(variant, str):
            raise EventError('"variant" must be a string')
        if not isinstance(players, list) or not all(isinstance(p, str) and p for p in players):
            raise EventError('"players" must be a list of player names')
        if len(set(players)) != len(players):
            raise EventError("two players have the same name; names must be unique")
        if not isinstance(options, Mapping):
            raise EventError('"options" must be a JSON object')
        return cls(game, variant, tuple(players), dict(options))


# "seed": a whole number the console proposes at random (a deal follows from it, so replays agree).
FieldKind = Literal["choice", "choices", "text", "int", "bool", "seat", "seats", "seed"]


@dataclass(frozen=True)
class Field:
    """One input of a console action. `choices` lists the legal values where they are known.

    A choice is a plain JSON value, or ``choice(value, label)`` to show people a label. The
    ``seats`` kind is an ordered selection: the console keeps the order players are picked in.
    """

    name: str
    label: str
    kind: FieldKind
    choices: tuple[Any, ...] = ()
    required: bool = True
    default: Any = None

    def to_json(self) -> JSON:
        return {
            "name": self.name,
            "label": self.label,
            "kind": self.kind,
            "choices": list(self.choices),
            "required": self.required,
            "default": self.default,
        }


def choice(value: Any, label: str) -> dict[str, Any]:
    """A choice shown as `label` whose value is `value` (e.g. a theme number shown by its name)."""
    return {"value": value, "label": label}


def choice_value(offered: Any) -> Any:
    """The value a console posts for one of a field's `choices` (labelled or plain)."""
    if isinstance(offered, dict) and "value" in offered:
        return offered["value"]
    return offered


@dataclass(frozen=True)
class Action:
    """Something the scorekeeper may enter now: the event type to post, its inputs, fixed parts."""

    type: str
    label: str
    fields: tuple[Field, ...] = ()
    fixed: Mapping[str, Any] = field(default_factory=dict)
    help: str = ""

    def to_json(self) -> JSON:
        return {
            "type": self.type,
            "label": self.label,
            "fields": [f.to_json() for f in self.fields],
            "fixed": dict(self.fixed),
            "help": self.help,
        }


@dataclass(frozen=True)
class ContestRequest:
    """A fastest-hand contest the game wants now.

    `needs="first"` closes the contest once the winner is certain (Dschamál duels);
    `needs="order"` waits for every seat or the timeout, for a complete ranking (the Trio);
    `needs="each"` reports each new press as soon as it is settled, and the daemon re-arms for
    the seats still wanted (Djam's speaking order: players press whenever they have a word).
    `key` names the moment of the game the contest belongs to ("round 3"); the daemon copies it
    into the contest event and voids a running contest when the game's key changes, so a verdict
    never lands in the wrong round. `call_delay="none"` makes the call at arming (in Djam the
    dice are the call); `auto_arm` lets the daemon arm without waiting for the scorekeeper.
    A `timeout_s` of 0 means no timeout.
    """

    seats: tuple[str, ...]
    label: str  # "Duel: Marc against Anne"
    call: str = "Go!"  # shown and spoken at the call: "Dschamál!"
    needs: Literal["first", "order", "each"] = "first"
    timeout_s: float = 20.0
    key: str = ""
    call_delay: Literal["random", "none"] = "random"
    auto_arm: bool = False

    def to_json(self) -> JSON:
        return {
            "seats": list(self.seats),
            "label": self.label,
            "call": self.call,
            "needs": self.needs,
            "timeout_s": self.timeout_s,
            "key": self.key,
            "call_delay": self.call_delay,
            "auto_arm": self.auto_arm,
        }


S = TypeVar("S")


@dataclass(frozen=True)
class Step(Generic[S]):
    """What applying one event produced: the new state and the verdicts given on the way."""

    state: S
    verdicts: tuple[Verdict, ...] = ()


@dataclass(frozen=True)
class OptionSpec:
    """A documented rule option: where players differ, the default and the alternatives."""

    name: str
    default: Any
    choices: tuple[Any, ...]
    doc: str

    def to_json(self) -> JSON:
        return {"name": self.name, "default": self.default, "choices": list(self.choices), "doc": self.doc}


class GameEngine(Protocol[S]):
    """The shape of a game engine (see the module docstring)."""

    game: str  # the name in records: "dschamal"
    title: str  # for people: "Dschamál"
    variants: tuple[str, ...]  # the first is the default
    options: tuple[OptionSpec, ...]
    min_players: int
    max_players: int

    def new_game(self, header: GameHeader) -> S:
        """The state before any event; raises EventError for a header the game cannot start."""
        ...

    def apply(self, state: S, event: Mapping[str, Any]) -> Step[S]:
        """Apply one event without mutating `state`; raise EventError or RuleViolation."""
        ...

    def summary(self, state: S) -> JSON:
        """JSON for people and records: at least "scores", "winner", "finished". Optional for the
        display: "headline" (what the table waits for: "Zoé (Yellow) to move") and
        "scores_label" (what the scores count: "Tokens")."""
        ...

    def actions(self, state: S) -> Sequence[Action]:
        """What the scorekeeper may enter now, with the legal choices."""
        ...

    def contest(self, state: S) -> ContestRequest | None:
        """The button contest the game waits for now, if any."""
        ...

    def render_svg(self, state: S) -> str:
        """The state drawn as an SVG document (a pure function of state)."""
        ...


def resolve_options(specs: Sequence[OptionSpec], given: Mapping[str, Any]) -> dict[str, Any]:
    """Defaults overlaid with the given options; unknown names or values raise EventError."""
    known = {s.name: s for s in specs}
    for name, value in given.items():
        spec = known.get(name)
        if spec is None:
            raise EventError(f"unknown option {name!r}; known options: {', '.join(sorted(known)) or 'none'}")
        if spec.choices and value not in spec.choices:
            raise EventError(
                f"option {name!r} cannot be {value!r}; choose one of {', '.join(map(repr, spec.choices))}"
            )
    return {s.name: given.get(s.name, s.default) for s in specs}
