"""Running a fastest-hand contest in the daemon: arm, wait, call, collect presses, close, verdict.

The game says which seats contest (``engine.contest(state)``). Arming journals the contest and
the seats held down at that moment; after a random delay (hardware.call_schedule) the source
makes the call on its own clock; every confirmed edge of a contesting seat is journalled as
evidence as it arrives. The contest closes

- when every seat has pressed (or false-started, or was held down at arming);
- for ``needs="first"``: `decide_after_s` after the first valid press (the winner's LED lights
  as soon as nobody can still come within the tie window; the wait is for the margin);
- for ``needs="order"``: when every seat has pressed, or at the timeout;
- for ``needs="each"``: as soon as the newest press is settled; the daemon then re-arms at
  once for the seats the game still wants, keeping the same call (a chain), so each speaker is
  known within milliseconds;
- at the timeout, or when the game moves on (its contest key changes): then it is voided.

The presses are arbitrated (referee.arbitration) and the verdict goes to the game as a
``contest`` event carrying the request's key.
"""

from __future__ import annotations

import asyncio
import logging
import random
import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hardware.call_schedule import CallSchedule
from hardware.source import ButtonEdge, ButtonSource
from referee.arbitration import DEFAULT_MIN_REACTION_NS, Contest, Press, PressVerdict, Release, arbitrate
from referee.games.base import ContestRequest
from referee.session import InputRefused, Session

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ContestSettings:
    schedule: CallSchedule = field(default_factory=CallSchedule)  # the random wait before the call
    min_reaction_ns: int = DEFAULT_MIN_REACTION_NS
    tie_window_ns: int | None = None  # None: the input path's own default
    decide_after_s: float = 0.75  # how long after the first valid press a "first" contest stays open
    settle_s: float = 0.005  # beyond the tie window: edges still on their way (debounce, delivery)

    def __post_init__(self) -> None:
        if self.decide_after_s < 0 or self.min_reaction_ns < 0 or self.settle_s < 0:
            raise ValueError("contest timings cannot be negative")
        if self.tie_window_ns is not None and self.tie_window_ns < 0:
            raise ValueError("the tie window cannot be negative")


@dataclass
class _Running:
    game_id: int
    request: ContestRequest
    buttons: dict[int, str]  # button number → player
    held: frozenset[str]
    armed_at_ns: int
    call_t_ns: int | None = None
    presses: list[Press] = field(default_factory=list)
    releases: list[Release] = field(default_factory=list)
    handles: list[asyncio.TimerHandle] = field(default_factory=list)
    deciding: bool = False  # the close after the first valid press is scheduled
    lit: bool = False  # the winner's LED is on


class ContestRunner:
    """One contest at a time. All methods run on the event loop's thread."""

    def __init__(
        self,
        session: Session,
        source: ButtonSource,
        settings: ContestSettings | None = None,
        rng: random.Random | None = None,
    ) -> None:
        self.session = session
        self.source = source
        self.settings = settings or ContestSettings()
        self.rng = rng or random.SystemRandom()
        self.running: _Running | None = None
        self.last: dict[str, Any] | None = None  # the last verdict, for the display
        self.listeners: list[Callable[[str, dict[str, Any]], None]] = []  # (kind, data): call, verdict …
        self._loop: asyncio.AbstractEventLoop | None = None
        self._chain: tuple[int, str, int] | None = None  # (game, key, call time) of an "each" chain
        # Presses the source has reported whose edge the loop has not yet run, per button.
        self._in_flight: Counter[int] = Counter()
        self._in_flight_lock = threading.Lock()
        self._follow_scheduled = False
        self.notice: str | None = None  # the input device's last word to the table
        # Edges that no running contest takes (a seating by pressing listens to them).
        self.idle_edge_hooks: list[Callable[[ButtonEdge], None]] = []
        self.hold: str | None = None  # while set (seating a new game), no contest is armed: why

    # -- wiring ----------------------------------------------------------------------------------

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Start listening to the source and the game; edges may arrive on any thread."""
        self._loop = loop

        def on_edge(edge: ButtonEdge) -> None:
            if edge.pressed:
                with self._in_flight_lock:
                    self._in_flight[edge.seat] += 1
            loop.call_soon_threadsafe(self._deliver, edge)

        self.source.start(on_edge)
        # What a source may offer beyond edges: a caller button (GPIO) or caller input (RP2040)
        # arms the contest; the RP2040 link's notices (reboots, lost frames) void one.
        hooks = {
            "when_caller_pressed": lambda *_: loop.call_soon_threadsafe(self._arm_quietly),
            "on_caller": lambda *_: loop.call_soon_threadsafe(self._arm_quietly),
            "on_notice": lambda notice: loop.call_soon_threadsafe(self._link_notice, notice),
        }
        for name, hook in hooks.items():
            if hasattr(self.source, name):
                setattr(self.source, name, hook)
        self.session.listeners.append(self._game_changed)
        self._game_changed()

    @property
    def tie_window_ns(self) -> int:
        if self.settings.tie_window_ns is not None:
            return self.settings.tie_window_ns
        return self.source.tie_window_ns

    def _notify(self, kind: str, data: dict[str, Any]) -> None:
        for listener in list(self.listeners):
            try:
                listener(kind, data)
            except Exception:
                log.exception("a contest listener failed")
        self.session.changed()

    def _later(self, delay_s: float, fn: Callable[[], None]) -> None:
        assert self.running is not None and self._loop is not None
        self.running.handles.append(self._loop.call_later(delay_s, fn))

    def _feedback(self, method: str, *args: Any) -> None:
        feedback = getattr(self.source, "feedback", None)
        if feedback is None:
            return
        try:
            getattr(feedback, method)(*args)
        except Exception:  # a broken LED must not lose a verdict
            log.exception("seat feedback %s failed", method)

    # -- following the game ----------------------------------------------------------------------

    def _game_changed(self) -> None:
        """After any change: void a contest the game no longer wants; auto-arm one it wants."""
        if self._loop is None or self._follow_scheduled:
            return
        self._follow_scheduled = True
        self._loop.call_soon(self._follow_game)

    def _wanted(self) -> tuple[int, ContestRequest | None] | None:
        gid = self.session.current_id
        if gid is None or gid not in self.session.games:
            return None
        game = self.session.games[gid]
        if game.broken or self.session.journal_error:
            return gid, None
        return gid, game.fold.engine.contest(game.fold.state)

    def _follow_game(self) -> None:
        self._follow_scheduled = False
        wanted = self._wanted()
        running = self.running
        if running is not None:
            if wanted is None or wanted[0] != running.game_id:
                self.cancel("another game was selected")
            elif wanted[1] is None or wanted[1].key != running.request.key:
                # A contest the game armed by itself (Djam's "who speaks next") simply ends with
                # its round: journalled, but not shown or sounded as a voided contest.
                self.cancel("the game moved on before the contest closed", quiet=running.request.auto_arm)
        elif wanted is not None and wanted[1] is not None and wanted[1].auto_arm:
            self._arm_quietly()

    def _link_notice(self, notice: Any) -> None:
        """The input device says a contest in progress cannot be judged fairly: void it."""
        log.warning("input notice (%s): %s", notice.kind, notice.message)
        self.notice = notice.message
        if notice.void_contest and self.running is not None:
            self.cancel(notice.message)
        else:
            self.session.changed()

    def _arm_quietly(self) -> None:
        try:
            self.arm()
        except InputRefused as exc:
            log.info("contest not armed: %s", exc)

    # -- the contest -----------------------------------------------------------------------------

    def arm(self) -> dict[str, Any]:
        """Arm the contest the current game wants; the call follows after a random delay."""
        if self._loop is None:
            raise InputRefused("the button input is not running", status=503)
        if self.running is not None:
            raise InputRefused("a contest is already armed", status=409)
        if self.hold is not None:
            raise InputRefused(self.hold, status=409)
        game = self.session.game()
        request = game.fold.engine.contest(game.fold.state)
        if request is None:
            raise InputRefused(f"{game.fold.engine.title} is not waiting for a button contest now", 409)
        seat_of = game.seats
        buttons = {seat_of[name]: name for name in request.seats}
        held_buttons = self.source.held()
        chained = self._chain if self._chain and self._chain[:2] == (game.id, request.key) else None
        if chained:
            # A chain re-arms the moment a speaker is settled, so that no press falls between
            # two contests. A press the source has confirmed but whose edge has not reached
            # this loop yet was made during the chain: it is the next speaker's press, not a
            # button held down before the contest.
            with self._in_flight_lock:
                held_buttons = frozenset(b for b in held_buttons if self._in_flight[b] == 0)
        held = frozenset(name for number, name in buttons.items() if number in held_buttons)
        armed_at = self.source.now_ns()
        delay_ns = 0 if request.call_delay == "none" else self.settings.schedule.delay_ns(self.rng)
        self.session.submit(
            {
                "type": "arm",
                "label": request.label,
                "key": request.key,
                "seats": list(request.seats),
                "buttons": {name: number for number, name in buttons.items()},
                "held": sorted(held),
                "t_ns": armed_at,
                "clock": self.source.clock,
                "call_delay_ns": delay_ns,
            },
            game.id,
        )
        self.running = _Running(game.id, request, buttons, held, armed_at)
        self.notice = None  # the device's last word (a reboot, a reconnect) was for what came before
        if not chained:
            self._feedback("clear")
        if chained:
            # The same call goes on for the seats still wanted: no new beep, same clock origin.
            self._start(chained[2], beep=False)
        elif request.call_delay == "none":
            self._call()
        else:
            self._later(delay_ns / 1e9, self._call)
        log.info("contest armed: %s (call in %.2f s), held: %s", request.label, delay_ns / 1e9, sorted(held))
        self._notify("armed", {"label": request.label, "held": sorted(held)})
        return {"label": request.label, "seats": list(request.seats), "held": sorted(held)}

    def cancel(self, reason: str, quiet: bool = False) -> None:
        """Void the running contest (scorekeeper's cancel, a rebooted input device, the game moved on).
        ``quiet``: the void is journalled, but the last verdict stays on the display."""
        running = self.running
        if running is None:
            raise InputRefused("no contest is running", status=409)
        self._stop()
        self._chain = None
        try:
            self.session.submit({"type": "void", "reason": reason}, running.game_id)
        except InputRefused:
            log.exception("could not journal the void")
        if quiet:
            log.info("contest closed: %s", reason)
        else:
            log.warning("contest voided: %s", reason)
            self.last = {"void": reason, "label": running.request.label}
        self._notify("void", {"reason": reason, "quiet": quiet})

    def _stop(self) -> None:
        if self.running is not None:
            for handle in self.running.handles:
                handle.cancel()
        self.running = None

    def _call(self) -> None:
        if self.running is None:
            return
        try:
            t_ns = self.source.call()
        except Exception as exc:  # the button timer is unplugged or not answering
            log.exception("the call failed")
            self.cancel(f"the call could not be made: {exc}")
            return
        self._start(t_ns, beep=True)

    def _start(self, t_ns: int, beep: bool) -> None:
        running = self.running
        assert running is not None
        try:
            self.session.submit(
                {"type": "call", "t_ns": t_ns, "clock": self.source.clock, "chained": not beep},
                running.game_id,
            )
        except InputRefused as exc:
            self._stop()
            self.last = {"void": str(exc), "label": running.request.label}
            self._notify("void", {"reason": str(exc)})
            return
        running.call_t_ns = t_ns
        if beep:
            self._notify("call", {"call": running.request.call, "label": running.request.label})
        if running.request.timeout_s > 0:
            self._later(running.request.timeout_s, lambda: self._close("timeout"))
        self._check_close()

    def _deliver(self, edge: ButtonEdge) -> None:
        if edge.pressed:
            with self._in_flight_lock:
                self._in_flight[edge.seat] -= 1
        self.on_edge(edge)

    def on_edge(self, edge: ButtonEdge) -> None:
        running = self.running
        if running is None or edge.seat not in running.buttons:
            log.debug("edge outside a contest: %s", edge)
            for hook in list(self.idle_edge_hooks):
                try:
                    hook(edge)
                except Exception:
                    log.exception("an edge listener failed")
            self.session.changed()  # the displays show which buttons are down
            return
        if edge.clock != self.source.clock:
            log.error("edge on clock %s during a contest on %s; ignored", edge.clock, self.source.clock)
            return
        name = running.buttons[edge.seat]
        event = {
            "type": "press" if edge.pressed else "release",
            "seat": name,
            "button": edge.seat,
            "t_ns": edge.t_ns,
            "clock": edge.clock,
        }
        try:
            self.session.submit(event, running.game_id)
        except InputRefused as exc:
            self.cancel(f"a press could not be recorded: {exc}")
            return
        if edge.pressed:
            early = running.call_t_ns is None or edge.t_ns < running.call_t_ns + self.settings.min_reaction_ns
            if early and all(p.seat != name for p in running.presses):
                self._feedback("show_false_start", edge.seat)  # the seat blinks at once
            running.presses.append(Press(name, edge.t_ns))
        else:
            running.releases.append(Release(name, edge.t_ns))
        self._notify("edge", event)
        self._check_close()

    def _contest(self, running: _Running) -> Contest:
        timeout = running.request.timeout_s
        return Contest(
            arm_t_ns=running.call_t_ns if running.call_t_ns is not None else running.armed_at_ns,
            seats=running.request.seats,
            tie_window_ns=self.tie_window_ns,
            min_reaction_ns=self.settings.min_reaction_ns,
            timeout_ns=None if timeout <= 0 else int(timeout * 1e9),
            clock=self.source.clock,
            held_at_arm=running.held,
        )

    def provisional(self) -> PressVerdict | None:
        """The verdict if the contest closed now (for the live display)."""
        running = self.running
        if running is None or running.call_t_ns is None:
            return None
        return arbitrate(self._contest(running), running.presses, running.releases)

    def _check_close(self) -> None:
        running = self.running
        verdict = self.provisional()
        if running is None or verdict is None:
            return
        accounted = {s for entry in verdict.ranking for s in entry}
        accounted |= set(verdict.false_starts) | set(verdict.held_at_arm)
        if accounted >= set(running.request.seats):
            self._close("every seat has pressed")
            return
        if not verdict.ranking or running.deciding or running.request.needs == "order":
            return
        running.deciding = True
        # Nobody can still come within the tie window of the first press once this has passed.
        settle_s = self.tie_window_ns / 1e9 + self.settings.settle_s
        if running.request.needs == "each":
            self._later(settle_s, lambda: self._close("the next speaker is settled"))
        else:
            self._later(settle_s, self._light_leader)
            self._later(self.settings.decide_after_s, lambda: self._close("the first press is settled"))

    def _light_leader(self) -> None:
        running, verdict = self.running, self.provisional()
        if running is None or verdict is None or not verdict.winners:
            return
        button_of = {name: number for number, name in running.buttons.items()}
        self._feedback("show_verdict", [button_of[s] for s in verdict.winners], [])
        running.lit = True

    def _close(self, why: str) -> None:
        running = self.running
        verdict = self.provisional()
        if running is None or verdict is None:
            return
        self._stop()
        request = running.request
        payload = {
            "type": "contest",
            "label": request.label,
            "key": request.key,
            "closed": why,
            **verdict.to_json(),
        }
        if request.needs == "each" and running.call_t_ns is not None:
            self._chain = (running.game_id, request.key, running.call_t_ns)
        try:
            step = self.session.submit(payload, running.game_id)
        except InputRefused as exc:
            log.error("the game refused the contest verdict: %s", exc)
            self.last = {"verdict": verdict.to_json(), "error": str(exc), "label": request.label}
            self._notify("verdict", self.last)
            return
        self.last = {
            "label": request.label,
            "verdict": verdict.to_json(),
            "buttons": {name: number for number, name in running.buttons.items()},
            "game_verdicts": [v.to_json() for v in step.verdicts],
        }
        log.info("contest closed (%s): %s", why, verdict.summary())
        button_of = self.last["buttons"]
        self._feedback(
            "show_verdict",
            [button_of[s] for s in verdict.winners],
            [button_of[s] for s in verdict.false_starts],
        )
        self._notify("verdict", self.last)
        if request.needs == "each":
            self._continue_chain(running.game_id, request.key)

    def _continue_chain(self, game_id: int, key: str) -> None:
        """Re-arm at once for the seats still wanted, so no press falls between two contests."""
        wanted = self._wanted()
        if wanted is not None and wanted[0] == game_id and wanted[1] is not None and wanted[1].key == key:
            self._arm_quietly()
        else:
            self._chain = None

    def view(self) -> dict[str, Any]:
        running = self.running
        live: dict[str, Any] | None = None
        if running is not None:
            verdict = self.provisional()
            live = {
                "phase": "called" if running.call_t_ns is not None else "armed",
                "label": running.request.label,
                "call": running.request.call,
                "needs": running.request.needs,
                "seats": list(running.request.seats),
                "held": sorted(running.held),
                "provisional": verdict.to_json() if verdict else None,
            }
        return {
            "running": live,
            "last": self.last,
            "tie_window_ns": self.tie_window_ns,
            "notice": self.notice,
        }
