"""Seat buttons on the Pi's own GPIO: a `ButtonSource` stamped by the kernel.

Each seat is a gpiozero input device on the pin factory of the pin map. The timestamp of an edge
is the ``ticks`` that the *pin* passes to its change callback, which on the lgpio factory is
the kernel's interrupt timestamp (CLOCK_MONOTONIC). ``Button.when_pressed`` carries no
timestamp and library or kernel debounce stamps late, so neither is used: each seat has a
leading-edge `Debouncer` (hardware/debounce.py) that keeps the first edge's stamp.

Decisions that wait on time (a press holding for the glitch time, a release going quiet) are
taken at the next edge of that seat or by a small confirmer thread, one settle slack (default
1 ms) after they fall due, so that an edge the kernel stamped earlier but delivered later is
never judged after the fact. With ``auto_confirm=False`` nothing happens between edges until
`poll` is called, so tests with explicit ticks are exact.

>>> from hardware.pinmap import PinMap
>>> src = GpioButtonSource(PinMap.example("mock"), auto_confirm=False, now_ns=lambda: 0)
>>> edges = []; src.start(edges.append)
>>> src.drive(3, True, ticks=0.010); src.drive(3, False, ticks=0.0101); src.drive(3, True, ticks=0.0102)
>>> src.poll(13_200_000); edges  # held 1 ms after the last bounce, plus 1 ms of slack
[ButtonEdge(seat=3, pressed=True, t_ns=10000000, clock='mock')]
>>> src.stop()
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from gpiozero import DigitalInputDevice, Factory

from hardware.debounce import Debouncer, Transition
from hardware.feedback import Feedback
from hardware.pin_factory import OpenedFactory, StampedMockPin, open_factory
from hardware.pinmap import PinMap
from hardware.source import ButtonEdge, EdgeHandler, SourceHealth
from hardware.timing import TIE_WINDOW_NS

log = logging.getLogger(__name__)

LevelHandler = Callable[[int, float, bool], None]


class SeatButton(DigitalInputDevice):
    """A seat's button: a gpiozero input that also reports each level change with its ticks.

    Built on DigitalInputDevice rather than Button: Button's hold-time thread wakes ten times
    a second per seat for a feature the referee does not use.
    """

    def __init__(
        self, pin: int, *, seat: int, on_level: LevelHandler, pull_up: bool, pin_factory: Factory
    ) -> None:
        self.seat = seat
        self._on_level = on_level
        # bounce_time=None: any library or kernel debounce would stamp after the bounce
        super().__init__(pin, pull_up=pull_up, bounce_time=None, pin_factory=pin_factory)

    @property
    def is_pressed(self) -> bool:
        return bool(self.is_active)

    def _pin_changed(self, ticks: float, state: Any) -> None:
        # lgpio reports level 2 for a watchdog timeout: no edge, nothing to stamp
        if state not in (0, 1):
            return
        self._on_level(self.seat, ticks, bool(self._state_to_value(state)))
        super()._pin_changed(ticks, state)


class _Waiter:
    __slots__ = ("callback", "t_ns")

    def __init__(self, t_ns: int, callback: Callable[[], None]) -> None:
        self.t_ns = t_ns
        self.callback = callback


class GpioButtonSource:
    """Seat buttons, seat LEDs, buzzer and caller button of one pin map (a `ButtonSource`).

    Opening the source claims the pins; `start` begins reporting edges; `stop` releases
    everything. ``now_ns`` is the source's clock (CLOCK_MONOTONIC, which the kernel's stamps
    and gpiozero's mock ticks both count on); tests may pass their own.
    """

    def __init__(
        self,
        pinmap: PinMap,
        *,
        opened: OpenedFactory | None = None,
        auto_confirm: bool = True,
        now_ns: Callable[[], int] = time.monotonic_ns,
        on_caller: Callable[[], None] | None = None,
    ) -> None:
        self.pinmap = pinmap
        self._owns_factory = opened is None
        self._opened = opened or open_factory(pinmap.factory)
        self.clock: str = self._opened.clock
        default_window = TIE_WINDOW_NS[self.clock]
        self.tie_window_ns: int = default_window if pinmap.tie_window_ns is None else pinmap.tie_window_ns
        self.seats: tuple[int, ...] = pinmap.seat_numbers
        self.when_caller_pressed = on_caller
        self._now = now_ns
        self._auto_confirm = auto_confirm
        self._lock = threading.RLock()
        self._wake = threading.Condition(self._lock)
        self._on_edge: EdgeHandler | None = None
        self._waiters: list[_Waiter] = []
        self._thread: threading.Thread | None = None
        self._state = "open"  # open → started → stopped
        self._buttons: dict[int, SeatButton] = {}
        self._debouncers: dict[int, Debouncer] = {}
        self._caller: DigitalInputDevice | None = None
        self.feedback: Feedback | None = None
        factory = self._opened.factory
        try:
            for s in pinmap.seats:
                button = SeatButton(
                    s.button,
                    seat=s.seat,
                    on_level=self._on_level,
                    pull_up=pinmap.pull_up,
                    pin_factory=factory,
                )
                self._buttons[s.seat] = button
                # A button already down when the source opens is locked until released and quiet.
                self._debouncers[s.seat] = Debouncer(pinmap.debounce, active=button.is_pressed, t_ns=now_ns())
            leds = {s.seat: s.led for s in pinmap.seats if s.led is not None}
            self.feedback = Feedback(factory, leds, pinmap.buzzer, tonal=pinmap.buzzer_tonal)
            if pinmap.caller is not None:
                # The caller only arms a contest; its timing is not judged, so gpiozero's own
                # debounce is fine here.
                self._caller = DigitalInputDevice(
                    pinmap.caller, pull_up=pinmap.pull_up, bounce_time=0.05, pin_factory=factory
                )
                self._caller.when_activated = self._caller_pressed
        except Exception:
            self._close_devices()
            raise
        if not self._opened.fit_for_close_calls and self.clock == "callback":
            log.warning(
                "GPIO buttons on %s: %s; tie window %d µs",
                self._opened.name,
                self._opened.detail,
                self.tie_window_ns // 1000,
            )

    # --- the ButtonSource protocol ----------------------------------------------------------

    def start(self, on_edge: EdgeHandler) -> None:
        """Report confirmed edges to `on_edge` (called from the pin or confirmer thread)."""
        with self._lock:
            if self._state != "open":
                raise RuntimeError(f"this GPIO source is {self._state}; open a new one to start again")
            self._on_edge = on_edge
            self._state = "started"
            if self._auto_confirm:
                self._thread = threading.Thread(target=self._confirm_loop, name="gpio-confirm", daemon=True)
                self._thread.start()

    def stop(self) -> None:
        """Stop reporting and release the pins, LEDs and buzzer (and the factory if ours)."""
        with self._lock:
            if self._state == "stopped":
                return
            self._state = "stopped"
            self._on_edge = None
            self._waiters.clear()
            self._wake.notify_all()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=2)
        self._close_devices()

    def now_ns(self) -> int:
        return self._now()

    def held(self) -> frozenset[int]:
        """Seats whose button is down now (a confirmed press not yet released and quiet)."""
        with self._lock:
            self._poll_locked(self._now())
            return frozenset(seat for seat, d in self._debouncers.items() if d.down)

    def call(self) -> int:
        """The referee's call: the buzzer sounds, the seat LEDs flash; returns its time.

        The time is read just after the buzzer is switched on, so it is when the sound
        starts, on the same clock as the edges.
        """
        if self.feedback is not None:
            self.feedback.show_call()
        return self._now()

    def health(self) -> SourceHealth:
        with self._lock:
            glitches = sum(d.glitches for d in self._debouncers.values())
            late = sum(d.late for d in self._debouncers.values())
            state = self._state
        detail = self._opened.detail
        if glitches:
            detail += f"; {glitches} noise spike{'s' if glitches != 1 else ''} rejected"
        if late:
            detail += f"; {late} edge(s) arrived after the settle slack (raise settle_slack_ms)"
        return SourceHealth(
            name=f"GPIO ({self._opened.name})",
            ok=state == "started",
            detail=detail if state == "started" else f"{state}: {detail}",
            fit_for_close_calls=self._opened.fit_for_close_calls,
        )

    # --- beyond the protocol ----------------------------------------------------------------

    @property
    def factory_name(self) -> str:
        return self._opened.name

    def poll(self, now_ns: int | None = None) -> None:
        """Take every decision due by `now_ns` (default: now); the confirmer thread does this."""
        with self._lock:
            self._poll_locked(self._now() if now_ns is None else now_ns)

    def pending(self) -> dict[int, int]:
        """Seats with a candidate press not yet confirmed or rejected → its first-edge stamp."""
        with self._lock:
            return {
                seat: d.pending_since for seat, d in self._debouncers.items() if d.pending_since is not None
            }

    def when_settled(self, t_ns: int, callback: Callable[[], None]) -> None:
        """Call `callback` once every edge stamped before `t_ns` is known and decided.

        That is when ``now ≥ t_ns + settle slack`` (edges stamped before `t_ns` have reached
        us) and no seat has an undecided candidate stamped before `t_ns`. A contest that
        needs only the winner asks for ``first press + tie window``: then no one can still
        turn out to have pressed first or tied. Called from the confirmer thread (or `poll`),
        or at once if already settled.
        """
        with self._lock:
            waiter = _Waiter(t_ns, callback)
            if self._settled(waiter, self._now()):
                ready = True
            else:
                ready = False
                self._waiters.append(waiter)
                self._wake.notify_all()
        if ready:
            callback()

    def drive(self, seat: int, pressed: bool, ticks: float | None = None) -> None:
        """Press or release seat `seat`'s virtual button (mock pin factory only).

        `ticks` is the edge time in seconds on the source's clock (time.monotonic() if None).
        """
        if not self._opened.is_mock:
            raise RuntimeError(
                f"drive() presses virtual buttons and needs the mock pin factory; this source runs "
                f"on {self._opened.name}, where only a real button can press"
            )
        if self._state == "stopped":
            raise RuntimeError("this GPIO source is stopped; open a new one to press its buttons")
        button = self._buttons.get(seat)
        if button is None:
            raise KeyError(f"seat {seat} is not wired; wired seats: {self.seats}")
        pin: Any = button.pin
        high = (not pressed) if self.pinmap.pull_up else pressed
        if ticks is not None:
            if not isinstance(pin, StampedMockPin):
                raise RuntimeError("explicit ticks need a MockFactory(pin_class=StampedMockPin)")
            (pin.drive_high if high else pin.drive_low)(ticks=ticks)
        else:
            (pin.drive_high if high else pin.drive_low)()

    def raw_pressed(self, seat: int) -> bool:
        """The line of `seat` as it is this instant, without debounce (for a wiring check)."""
        return bool(self._buttons[seat].is_pressed)

    def __enter__(self) -> GpioButtonSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # --- inside -----------------------------------------------------------------------------

    def _on_level(self, seat: int, ticks: float, active: bool) -> None:
        t_ns = round(ticks * 1_000_000_000)  # ticks are seconds; lgpio's were ns ÷ 1e9
        with self._lock:
            debouncer = self._debouncers.get(seat)
            if debouncer is None:
                return  # a change reported while the source is being built
            self._emit(seat, debouncer.feed(active, t_ns))
            self._wake.notify_all()

    def _poll_locked(self, now_ns: int) -> None:
        # Decide as of `now - slack`: an edge stamped before that has reached us by now, so
        # no decision is taken that a late edge would contradict.
        as_of = now_ns - self.pinmap.settle_slack_ns
        for seat, debouncer in self._debouncers.items():
            self._emit(seat, debouncer.poll(as_of))
        if self._waiters:
            ready = [w for w in self._waiters if self._settled(w, now_ns)]
            if ready:
                self._waiters = [w for w in self._waiters if w not in ready]
                for w in ready:
                    w.callback()

    def _settled(self, waiter: _Waiter, now_ns: int) -> bool:
        if now_ns < waiter.t_ns + self.pinmap.settle_slack_ns:
            return False
        return all(
            d.pending_since is None or d.pending_since >= waiter.t_ns for d in self._debouncers.values()
        )

    def _emit(self, seat: int, transitions: list[Transition]) -> None:
        handler = self._on_edge
        if handler is None:
            return
        for tr in transitions:
            handler(ButtonEdge(seat=seat, pressed=tr.pressed, t_ns=tr.t_ns, clock=self.clock))

    def _next_deadline(self, now_ns: int) -> int | None:
        slack = self.pinmap.settle_slack_ns
        due = [d + slack for d in (deb.deadline() for deb in self._debouncers.values()) if d is not None]
        # A waiter past its slack is waiting on a candidate press, whose deadline is above.
        due += [w.t_ns + slack for w in self._waiters if w.t_ns + slack > now_ns]
        return min(due) if due else None

    def _confirm_loop(self) -> None:
        with self._lock:
            while self._state == "started":
                now = self._now()
                due = self._next_deadline(now)
                if due is not None and due <= now:
                    try:
                        self._poll_locked(now)
                    except Exception:  # a handler's bug must not stop the confirmations
                        log.exception("GPIO edge handler failed")
                    continue
                timeout = None if due is None else (due - now) / 1e9
                self._wake.wait(timeout)

    def _caller_pressed(self) -> None:
        handler = self.when_caller_pressed
        if handler is not None:
            handler()

    def _close_devices(self) -> None:
        if self.feedback is not None:
            self.feedback.close()
            self.feedback = None
        for button in self._buttons.values():
            button.close()
        if self._caller is not None:
            self._caller.close()
            self._caller = None
        with self._lock:
            self._buttons.clear()
            self._debouncers.clear()
        if self._owns_factory:
            self._opened.close()
