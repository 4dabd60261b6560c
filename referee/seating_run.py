"""Seating by pressing, in the daemon: button edges and the clock drive `referee.seating`.

While a seating runs, no contest is armed (``ContestRunner.hold``) and every button edge that
no contest claims comes here. When every player has a button, `finish` creates the game with
the players in the order shown and the header's ``"seats"`` map.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Mapping
from typing import Any

from hardware.source import ButtonEdge, ButtonSource
from referee import seating
from referee.contests import ContestRunner
from referee.fold import Fold
from referee.games.base import EventError, GameHeader
from referee.seating import Seating, SeatingError
from referee.session import InputRefused, LoadedGame, Session

log = logging.getLogger(__name__)
HOLD_REASON = "players are claiming their seats; finish or cancel the seating first"


def wiring_hint(source: ButtonSource, button: int) -> str:
    """Where seat `button`'s wires go, for a button that never answered (docs/wiring.md)."""
    pinmap = getattr(source, "pinmap", None)
    if pinmap is not None:
        from hardware.pinmap import BOARD_OF_GPIO

        try:
            gpio = pinmap.seat(button).button
        except KeyError:
            return f"button {button} is not in the pin map"
        board = BOARD_OF_GPIO.get(gpio)
        where = f"GPIO{gpio} (header pin {board})" if board else f"GPIO{gpio}"
        return (
            f"button {button}: {where} → switch → any GND pin. Nothing arrived from it: check its GND "
            f"wire first, then that its plug sits on pin {board or gpio} (docs/wiring.md)"
        )
    return (
        f"button {button}: nothing arrived from it; check its cable at the button box "
        "and that the box is connected (docs/wiring.md)"
    )


class SeatingRunner:
    """At most one seating at a time. All methods run on the event loop's thread."""

    def __init__(
        self,
        session: Session,
        contests: ContestRunner,
        source: ButtonSource,
        now_ns: Callable[[], int] = time.monotonic_ns,
    ) -> None:
        self.session = session
        self.contests = contests
        self.source = source
        self.now_ns = now_ns
        self.state: Seating | None = None
        self.game: dict[str, Any] = {}  # the header of the game to create, without players
        self.title = ""
        self.held: tuple[int, ...] = ()
        self._timer: asyncio.TimerHandle | None = None
        contests.idle_edge_hooks.append(self.on_edge)

    # -- requests from the console ---------------------------------------------------------------

    def start(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """Start seating the players of a new game: ``{"game", "variant", "players", "options"}``."""
        if self.state is not None:
            raise InputRefused("a seating is already running; finish or cancel it first", status=409)
        if self.session.journal_error:
            raise InputRefused(f"the journal cannot be written: {self.session.journal_error}", status=503)
        try:
            header = GameHeader.from_json(body)
            fold = Fold.start(header)  # refuses an unknown game, variant or player count now
        except EventError as exc:
            raise InputRefused(str(exc)) from None
        timeout_s = body.get("timeout_s", 20)
        if isinstance(timeout_s, bool) or not isinstance(timeout_s, int | float) or not 3 <= timeout_s <= 300:
            raise InputRefused("timeout_s must be a number of seconds from 3 to 300")
        try:
            state = seating.start(header.players, self.source.seats, self.now_ns(), int(timeout_s * 1e9))
        except SeatingError as exc:
            raise InputRefused(str(exc)) from None
        if self.contests.running is not None:
            self.contests.cancel("a new game is being seated")
        self.contests.hold = HOLD_REASON
        self.game = {k: v for k, v in fold.header.to_json().items() if k != "players"}
        self.title = fold.engine.title
        self.held = tuple(sorted(self.source.held()))
        self._set(state)
        log.info("seating started for %s: %s", self.title, ", ".join(header.players))
        return self.view()["seating"]

    def command(self, body: Mapping[str, Any]) -> dict[str, Any]:
        """``{"do": "move", "name", "to"}``, ``{"do": "order", "players"}``, ``{"do": "sort"}``,
        ``{"do": "retry", "name"}``."""
        state = self._require()
        what = body.get("do")
        try:
            if what == "move":
                to = body.get("to")
                if isinstance(to, bool) or not isinstance(to, int):
                    raise SeatingError('"to" must be a position (0 is first)')
                state = seating.move(state, str(body.get("name")), to)
            elif what == "order":
                players = body.get("players")
                if not isinstance(players, list):
                    raise SeatingError('"players" must list every player in the new order')
                state = seating.reorder(state, [str(p) for p in players])
            elif what == "sort":
                state = seating.sort_by_button(state)
            elif what == "retry":
                state = seating.retry(state, str(body.get("name")), self.now_ns())
            else:
                raise SeatingError("unknown seating step; use move, order, sort or retry")
        except SeatingError as exc:
            raise InputRefused(str(exc)) from None
        self._set(state)
        return self.view()["seating"]

    def cancel(self) -> None:
        self._require()
        self._end()
        log.info("seating cancelled")
        self.session.changed()

    def finish(self) -> LoadedGame:
        """Create the game with the players in the order shown and the buttons they pressed."""
        state = self._require()
        try:
            seats = seating.header_seats(state)
        except SeatingError as exc:
            raise InputRefused(str(exc), status=409) from None
        header = {**self.game, "players": list(state.players), "seats": dict(seats)}
        self.contests.hold = None  # before creating: the new game may arm its first contest at once
        try:
            game = self.session.create_game(header)
        except InputRefused:
            self.contests.hold = HOLD_REASON
            raise
        self._end()
        self.session.changed()
        return game

    # -- inputs from the buttons and the clock ---------------------------------------------------

    def on_edge(self, edge: ButtonEdge) -> None:
        if self.state is None or not edge.pressed:
            return
        self.held = tuple(b for b in self.held if b != edge.seat)
        self._set(seating.press(self.state, edge.seat, self.now_ns()))

    def _tick(self) -> None:
        self._timer = None
        if self.state is not None:
            self._set(seating.tick(self.state, self.now_ns()))

    # -- helpers ---------------------------------------------------------------------------------

    def _require(self) -> Seating:
        if self.state is None:
            raise InputRefused("no seating is running; start one from the new-game form", status=409)
        return self.state

    def _set(self, state: Seating) -> None:
        self.state = state
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        deadline = state.deadline_ns()
        if deadline is not None:
            loop = asyncio.get_running_loop()
            delay = max(0.0, (deadline - self.now_ns()) / 1e9)
            self._timer = loop.call_later(delay + 0.01, self._tick)
        self.session.changed()

    def _end(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self._timer = None
        self.state = None
        self.game = {}
        self.contests.hold = None

    def view(self) -> dict[str, Any]:
        state = self.state
        if state is None:
            return {"seating": None}
        seats = state.seats()
        hints = [wiring_hint(self.source, b) for b in state.free_buttons] if state.silent else []
        return {
            "seating": {
                "game": self.game.get("game"),
                "title": self.title,
                "variant": self.game.get("variant"),
                "players": [
                    {
                        "name": p,
                        "button": seats.get(p),
                        "asked": p == state.asking,
                        "silent": p in state.silent,
                    }
                    for p in state.players
                ],
                "asking": state.asking,
                "prompt": state.prompt,
                "note": state.note,
                "timeout_s": state.timeout_ns / 1e9,
                "done": state.done,
                "free_buttons": list(state.free_buttons),
                "silent": list(state.silent),
                "hints": hints,
                "held": [
                    f"button {b} is held down: a stuck button, or its wire touches GND (docs/wiring.md)"
                    for b in self.held
                ],
            }
        }
