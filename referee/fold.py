"""A game's state as the fold of its events through its engine, with undo as an event.

The journal and records store every event; this module decides what each one means:

- engine events (``contest`` and each game's own vocabulary) go through ``engine.apply``;
- ``undo`` takes back the latest engine event not already taken back (undo is never a delete:
  the undone event stays in the journal and in records);
- timing evidence (``arm``, ``call``, ``press``, ``release``, ``void``) and ``note`` are kept
  for the record but do not change the game; the contest verdict that follows them does.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from referee.games import engine_for
from referee.games.base import EventError, GameEngine, GameHeader, Step, Verdict

EVIDENCE_TYPES = frozenset({"arm", "call", "press", "release", "void", "note"})


@dataclass
class _Applied:
    index: int  # position of the event in the game's event list
    event: Mapping[str, Any]
    before: Any  # the state before it, restored by undo
    verdicts: tuple[Verdict, ...]


@dataclass
class Fold:
    """The running fold of one game. ``check`` is pure; ``commit`` changes the fold."""

    engine: GameEngine[Any]
    header: GameHeader
    state: Any = None
    count: int = 0  # events folded so far, evidence included
    applied: list[_Applied] = field(default_factory=list)

    @classmethod
    def start(cls, header: GameHeader) -> Fold:
        engine = engine_for(header.game)
        if header.variant and header.variant not in engine.variants:
            raise EventError(
                f"{engine.title} has no variant {header.variant!r}; "
                f"choose one of {', '.join(engine.variants)}"
            )
        if not header.variant:
            header = GameHeader(header.game, engine.variants[0], header.players, header.options)
        n = len(header.players)
        if not engine.min_players <= n <= engine.max_players:
            raise EventError(
                f"{engine.title} is played by {engine.min_players} to {engine.max_players} players, not {n}"
            )
        return cls(engine=engine, header=header, state=engine.new_game(header))

    def check(self, event: Mapping[str, Any]) -> Step[Any]:
        """The step this event would make, without changing anything; raises if it is refused."""
        if not isinstance(event, Mapping) or not isinstance(event.get("type"), str):
            raise EventError('an event must be a JSON object with a "type"')
        kind = event["type"]
        if kind in EVIDENCE_TYPES:
            return Step(self.state)
        if kind == "undo":
            if not self.applied:
                raise EventError("there is nothing to undo")
            return Step(self.applied[-1].before)
        return self.engine.apply(self.state, event)

    def commit(self, event: Mapping[str, Any], step: Step[Any]) -> None:
        kind = event["type"]
        if kind == "undo":
            self.applied.pop()
        elif kind not in EVIDENCE_TYPES:
            self.applied.append(_Applied(self.count, event, self.state, step.verdicts))
        self.state = step.state
        self.count += 1

    def apply(self, event: Mapping[str, Any]) -> Step[Any]:
        step = self.check(event)
        self.commit(event, step)
        return step

    def verdicts(self) -> list[tuple[int, Verdict]]:
        """Every verdict standing (not undone), with the index of the event that gave it."""
        return [(a.index, v) for a in self.applied for v in a.verdicts]

    def last_event(self) -> Mapping[str, Any] | None:
        return self.applied[-1].event if self.applied else None

    def summary(self, latest: int | None = None) -> dict[str, Any]:
        """Header, the engine's summary and the standing verdicts (only the `latest` ones if given)."""
        result: dict[str, Any] = dict(self.header.to_json())
        result.update(self.engine.summary(self.state))
        verdicts = self.verdicts()
        shown = verdicts if latest is None else verdicts[-latest:] if latest else []
        result["verdicts"] = [{"event": i, **v.to_json()} for i, v in shown]
        result["verdicts_total"] = len(verdicts)
        result["events"] = self.count
        return result


def fold_events(header: GameHeader, events: Iterable[Mapping[str, Any]]) -> Fold:
    fold = Fold.start(header)
    for event in events:
        fold.apply(event)
    return fold
