"""The referee's running state: the journal, the games folded from it, and who is told of changes.

Order of an input, always: check it against the rules (pure) → append it to the journal (synced)
→ change the in-memory state → tell the subscribers. An input that fails the check is refused
and logged; one that cannot be journalled is refused and the journal is reported broken; in both
cases the state is untouched.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from referee.fold import Fold
from referee.games import engines
from referee.games.base import EventError, GameHeader, Step
from referee.journal import Journal, JournalError, StoredGame
from referee.nights import Nights

log = logging.getLogger(__name__)


@dataclass
class LoadedGame:
    id: int
    header_json: dict[str, Any]  # the stored header: the game header plus the seat map
    fold: Fold
    broken: str | None = None  # why replay stopped, if the journal holds an event the rules refuse

    @property
    def seats(self) -> dict[str, int]:
        """Player name → seat (button) number; by default the players in order on seats 1, 2, …"""
        given = self.header_json.get("seats") or {}
        return {p: int(given.get(p, i + 1)) for i, p in enumerate(self.fold.header.players)}


class InputRefused(Exception):
    """An input the referee will not take; `status` is the HTTP status that fits."""

    def __init__(self, message: str, status: int = 400, rule: Mapping[str, Any] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.rule = rule


@dataclass
class Session:
    journal: Journal
    games: dict[int, LoadedGame] = field(default_factory=dict)
    current_id: int | None = None
    journal_error: str | None = None
    listeners: list[Callable[[], None]] = field(default_factory=list)

    @classmethod
    def open(cls, journal: Journal) -> Session:
        """Rebuild every game by replaying its events."""
        session = cls(journal)
        for stored in journal.games():
            session.games[stored.id] = session._replay(stored)
        current = journal.setting("current_game")
        if current in session.games:
            session.current_id = current
        elif session.games:
            session.current_id = max(session.games)
        return session

    def _replay(self, stored: StoredGame) -> LoadedGame:
        fold = Fold.start(GameHeader.from_json(stored.header))
        game = LoadedGame(stored.id, stored.header, fold)
        for event in self.journal.events(stored.id):
            try:
                fold.apply(event.payload)
            except EventError as exc:
                # Cannot happen for events this code accepted; a hand-edited journal could do it.
                game.broken = f"event {event.seq} no longer replays: {exc}"
                log.error("game %d: %s", stored.id, game.broken)
                break
        return game

    # -- changes -------------------------------------------------------------------------------

    def changed(self) -> None:
        for listener in list(self.listeners):
            try:
                listener()
            except Exception:  # a broken display must not stop the referee
                log.exception("a state listener failed")

    def _journal_failed(self, exc: JournalError) -> InputRefused:
        self.journal_error = str(exc)
        self.changed()
        return InputRefused(
            f"the journal cannot be written, so the referee refuses inputs until it is fixed: {exc}",
            status=503,
        )

    def create_game(self, header_json: Mapping[str, Any], night_id: int | None = None) -> LoadedGame:
        try:
            header = GameHeader.from_json(header_json)
            fold = Fold.start(header)
        except EventError as exc:
            raise InputRefused(str(exc)) from None
        stored = dict(fold.header.to_json())
        seats = header_json.get("seats")
        if seats is not None:
            stored["seats"] = _check_seats(seats, fold.header.players)
        try:
            if night_id is None:  # a new game joins the open night (one is opened if none is)
                night_id = Nights(self.journal).ensure_open()
            game_id = self.journal.create_game(stored, night_id)
            self.journal.set_setting("current_game", game_id)
        except JournalError as exc:
            raise self._journal_failed(exc) from None
        self.journal_error = None
        game = LoadedGame(game_id, stored, fold)
        self.games[game_id] = game
        self.current_id = game_id
        log.info("game %d created: %s", game_id, stored)
        self.changed()
        return game

    def select(self, game_id: int) -> None:
        if game_id not in self.games:
            raise InputRefused(f"there is no game {game_id}", status=404)
        try:
            self.journal.set_setting("current_game", game_id)
        except JournalError as exc:
            raise self._journal_failed(exc) from None
        self.current_id = game_id
        self.changed()

    def game(self, game_id: int | None = None) -> LoadedGame:
        gid = self.current_id if game_id is None else game_id
        if gid is None or gid not in self.games:
            raise InputRefused("no game is running; create one at the console", status=409)
        return self.games[gid]

    def submit(self, event: Mapping[str, Any], game_id: int | None = None) -> Step[Any]:
        """Check, journal, then apply one event; raises InputRefused with a message for people."""
        game = self.game(game_id)
        if game.broken:
            raise InputRefused(f"game {game.id} cannot take inputs: {game.broken}", status=409)
        try:
            step = game.fold.check(event)
        except EventError as exc:
            rule = getattr(exc, "rule", None)
            log.warning("game %d refused %s: %s", game.id, dict(event), exc)
            raise InputRefused(str(exc), rule=rule.to_json() if rule else None) from None
        try:
            self.journal.append(game.id, event)
        except JournalError as exc:
            raise self._journal_failed(exc) from None
        self.journal_error = None
        game.fold.commit(event, step)
        self.changed()
        return step

    def known_games(self) -> list[dict[str, Any]]:
        return [
            {"game": e.game, "title": e.title, "variants": list(e.variants),
             "options": [o.to_json() for o in e.options],
             "min_players": e.min_players, "max_players": e.max_players}
            for e in sorted(engines().values(), key=lambda e: e.title)
        ]  # fmt: skip


def _check_seats(seats: Any, players: tuple[str, ...]) -> dict[str, int]:
    if not isinstance(seats, Mapping):
        raise InputRefused('"seats" must map each player to a seat number')
    result: dict[str, int] = {}
    for name, number in seats.items():
        if name not in players:
            raise InputRefused(f"seat given for {name!r}, who is not a player of this game")
        if not isinstance(number, int) or isinstance(number, bool) or not 1 <= number <= 8:
            raise InputRefused(f"{name}'s seat must be a button number from 1 to 8")
        result[name] = number
    missing = [p for p in players if p not in result]
    if missing:
        raise InputRefused(f"give every player a seat; missing: {', '.join(missing)}")
    if len(set(result.values())) != len(result):
        raise InputRefused("two players cannot share one seat button")
    return result
