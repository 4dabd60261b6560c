"""The RP2040 button timer as a `ButtonSource`: pyserial, resends, reconnects, reboots.

    source = SerialButtonSource(None, on_notice=print)   # None: find the Pico by USB id
    source.start(on_edge)                                 # edges on the Pico's clock
    t_call = source.call()                                # the Pico makes the call; its time

What it guarantees (protocol: docs/protocol.md):

- **one clock**: edges and the call are stamped by the Pico (µs × 1000, clock
  ``"rp2040:<boot id>"``); the host's clock is only mapped to it, for ``now_ns`` and display;
- **nothing lost silently**: frames are delivered in sequence; a gap is requested again
  (RESEND) from the Pico's ring, duplicates are dropped, bad lines are counted and logged;
  frames the Pico can no longer resend raise a ``LinkNotice(kind="lost", void_contest=True)``;
- **reconnects** within ``reconnect_interval_s`` (0.25 s) of the port coming back;
- **reboots are loud**: a new boot id means a new clock and a lost call, so
  ``on_notice(LinkNotice(kind="reboot", void_contest=True, ...))`` fires: the daemon must void
  the contest in progress and say so (``notice.message`` is written for the table).

Callbacks (``on_edge``, ``on_notice``, ``on_caller``) run on the link's reader thread.
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import serial
from serial.tools import list_ports

from hardware.serial_clock import ClockMap
from hardware.serial_frames import (
    PROTOCOL_VERSION,
    BadFrame,
    BadFrameLog,
    Frame,
    FrameParser,
    encode_command,
)
from hardware.serial_sequence import SequenceTracker
from hardware.source import ButtonEdge, EdgeHandler, SourceHealth

log = logging.getLogger(__name__)

DEFAULT_PORT = "/dev/referee-pico"  # the udev rule's stable name (systemd/99-referee-pico.rules)
PICO_VID, PICO_PID = 0x2E8A, 0x0005  # MicroPython on an RP2040
DEFAULT_TIE_WINDOW_NS = 10_000  # 5× the worst ordering error of the sampling (docs/performance.md)
IMMEDIATE = frozenset({"PONG", "ARMED", "LOST", "ERR", "STAT"})  # acted on as they arrive
STAT_EVERY_PINGS = 20
CLOCK_ANSWER_WARN_S = 3.0  # a boot whose clock is still unknown this long is logged with counts
MAX_LOOP_NS = 1_000  # a slower sampling loop no longer separates presses 2 µs apart

NoticeKind = Literal["reboot", "lost", "overflow", "connected", "disconnected", "protocol"]


class SerialLinkError(RuntimeError):
    """The RP2040 cannot do what was asked now (not connected, not answering)."""


@dataclass(frozen=True)
class LinkNotice:
    """Something the daemon and the table must know about the link.

    ``void_contest`` is True when a contest in progress can no longer be judged fairly (the
    Pico rebooted, frames were lost, or its sample buffer overflowed): void it and show
    ``message``.
    """

    kind: NoticeKind
    message: str
    void_contest: bool
    clock: str


@dataclass(frozen=True)
class LinkStats:
    connected: bool
    port: str | None
    boot: str | None
    frames: int
    bad_frames: int
    duplicates: int
    resend_requests: int
    lost_frames: int
    reconnects: int
    reboots: int
    overflows: int
    rtt_ns: int | None  # the best round trip of the clock mapping
    clock_uncertainty_ns: int | None


def find_pico_port() -> str | None:
    """The udev name if present, else the first serial port with MicroPython's RP2040 USB id."""
    if os.path.exists(DEFAULT_PORT):
        return DEFAULT_PORT
    ports = [p for p in list_ports.comports() if p.vid == PICO_VID and p.pid == PICO_PID]
    if len(ports) > 1:
        log.warning(
            "several RP2040s found (%s); using %s", ", ".join(p.device for p in ports), ports[0].device
        )
    return ports[0].device if ports else None


class SerialButtonSource:
    """Buttons sampled by the RP2040 firmware, over USB serial (see the module docstring)."""

    def __init__(
        self,
        port: str | None = None,
        *,
        seats: int = 8,
        tie_window_ns: int = DEFAULT_TIE_WINDOW_NS,
        on_notice: Callable[[LinkNotice], None] | None = None,
        on_caller: Callable[[int], None] | None = None,
        ping_interval_s: float = 0.5,
        reconnect_interval_s: float = 0.25,
        resend_timeout_s: float = 0.2,
        resend_attempts: int = 5,
        call_timeout_s: float = 1.0,
        silence_timeout_s: float = 2.0,
    ) -> None:
        if not 1 <= seats <= 8:
            raise ValueError("the firmware drives 1 to 8 seats")
        self.port = port
        self.seats = tuple(range(1, seats + 1))
        self.tie_window_ns = tie_window_ns
        self.on_notice = on_notice
        self.on_caller = on_caller
        self.ping_interval_s = ping_interval_s
        self.reconnect_interval_s = reconnect_interval_s
        self.resend_timeout_s = resend_timeout_s
        self.resend_attempts = resend_attempts
        self.call_timeout_s = call_timeout_s
        self.silence_timeout_s = silence_timeout_s

        self._on_edge: EdgeHandler | None = None
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._lock = threading.RLock()  # guards the state below
        self._armed = threading.Condition(self._lock)
        self._write_lock = threading.Lock()
        self._serial: serial.Serial | None = None
        self._open_port: str | None = None
        self._status = "not started"
        self._heard = False  # a frame arrived since the port was (re)opened: the boot is known
        self._tracker: SequenceTracker | None = None
        self._boot: str | None = None
        self._clock = ClockMap()
        self._held: set[int] = set()
        self._tokens = itertools.count(1)
        self._pings: dict[int, int] = {}  # token → host ns sent
        self._armed_replies: dict[int, tuple[str, int, int]] = {}  # token → (boot, t_us, held mask)
        self.held_at_call: frozenset[int] = frozenset()  # seats down at the latest call, per the Pico
        self._gap: tuple[int, int] | None = None
        self._gap_requested_at = 0.0
        self._gap_attempts = 0
        self._parser = FrameParser()
        self._bad_log = BadFrameLog(log)
        self._counts = {"resend_requests": 0, "reconnects": 0, "reboots": 0, "overflows": 0}
        self._retired = {"duplicates": 0, "lost": 0}  # counts of the trackers of earlier boots
        self._connections = 0
        self._firmware: tuple[int, str, int] | None = None  # (protocol, version, seats)
        self._firmware_stat: tuple[int, int, int, int] | None = None
        self._pings_sent = 0
        # Since the current boot was first heard: why the clock is still unknown, if it is.
        self._boot_heard_at = 0.0
        self._boot_counts = {"pings": 0, "frames": 0, "repeats": 0, "answers": 0, "stray_answers": 0}
        self._slow_answer_logged = False

    @classmethod
    def from_spec(cls, spec: str, **options: Any) -> SerialButtonSource:
        """The source named on the command line: ``serial`` (find the Pico) or ``serial:PORT``.

        >>> SerialButtonSource.from_spec("serial:/dev/ttyACM0").port
        '/dev/ttyACM0'
        """
        kind, _, port = spec.partition(":")
        if kind != "serial":
            raise ValueError(f"{spec!r} is not a serial button source; write serial or serial:PORT")
        return cls(port or None, **options)

    # -- ButtonSource -------------------------------------------------------------------------

    @property
    def clock(self) -> str:
        with self._lock:
            return f"rp2040:{self._boot or 'unknown'}"

    def start(self, on_edge: EdgeHandler) -> None:
        if self._thread is not None:
            raise RuntimeError("the serial link is already started")
        self._on_edge = on_edge
        self._stop.clear()
        self._thread = threading.Thread(target=self._run, name="rp2040-link", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
            self._thread = None
        self._close()

    def now_ns(self) -> int:
        with self._lock:
            if not self._clock.ready:
                raise SerialLinkError(
                    "the RP2040's clock is not known yet: it has not answered a ping (is it plugged in?)"
                )
            return self._clock.to_pico(time.monotonic_ns())

    def held(self) -> frozenset[int]:
        with self._lock:
            return frozenset(self._held)

    def call(self) -> int:
        """The Pico makes the call (ARM → ARMED); returns the call's time on the Pico's clock."""
        token = next(self._tokens)
        deadline = time.monotonic() + self.call_timeout_s
        while True:
            self._send(f"ARM {token}")  # a repeated ARM is answered, never obeyed twice
            with self._armed:  # not held while writing: the reader thread must keep reading
                self._armed.wait_for(
                    lambda: token in self._armed_replies,
                    timeout=min(0.15, max(deadline - time.monotonic(), 0)),
                )
                reply = self._armed_replies.pop(token, None)
                if reply is not None:
                    _, t_us, held = reply
                    self.held_at_call = frozenset(s for s in self.seats if held >> (s - 1) & 1)
                    return t_us * 1000
            if time.monotonic() >= deadline:
                raise SerialLinkError(
                    f"the RP2040 did not confirm the call within {self.call_timeout_s:g} s; "
                    "check its USB cable, then arm again"
                )

    def health(self) -> SourceHealth:
        with self._lock:
            port = self._open_port or self.port or DEFAULT_PORT
            name = f"RP2040 on {port}"
            if self._serial is None:
                return SourceHealth(name, False, self._status, True)
            if not self._ready_locked():
                return SourceHealth(name, False, self._waiting_detail_locked(), True)
            stats = self._stats_locked()
            detail = (
                f"link up, boot {self._boot}, clock ±{self._clock.uncertainty_ns // 1000} µs; "
                f"{stats.resend_requests} resends, {stats.bad_frames} bad frames, "
                f"{stats.lost_frames} lost"
            )
            return SourceHealth(name, True, detail, True)

    # -- extras -------------------------------------------------------------------------------

    def wait_ready(self, timeout: float) -> bool:
        """Block until connected with a clock mapping (True), or `timeout` seconds (False)."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                if self._ready_locked():
                    return True
            time.sleep(0.01)
        return False

    def stats(self) -> LinkStats:
        with self._lock:
            return self._stats_locked()

    def round_trips_ns(self) -> list[int]:
        """The recent ping round trips of this boot's clock mapping (for benchmarks and logs)."""
        with self._lock:
            return [s.rtt_ns for s in self._clock.samples]

    def to_host_ns(self, pico_ns: int) -> int:
        """A time on the Pico's clock on the host's monotonic clock (display and logs only)."""
        with self._lock:
            try:
                return self._clock.to_host(pico_ns)
            except LookupError:
                raise SerialLinkError("the RP2040's clock is not mapped yet") from None

    def set_leds(self, seats: frozenset[int]) -> None:
        """Light the LEDs of `seats` (the verdict), overriding the Pico's own winner lamp."""
        mask = sum(1 << (s - 1) for s in seats if s in self.seats)
        self._send(f"LED {mask}")

    def request_stats(self) -> None:
        """Ask the firmware for its counters (answered asynchronously; see `firmware_stats`)."""
        self._send("STAT")

    @property
    def firmware_stats(self) -> tuple[int, int, int, int] | None:
        """The latest STAT: (samples, glitches, overflows, sampling loop period in ns)."""
        with self._lock:
            return self._firmware_stat

    # -- the reader thread --------------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            port = self.port or find_pico_port()
            if port is None:
                self._set_status("no RP2040 found (USB 2E8A:0005); plug it in")
            else:
                try:
                    ser = serial.Serial(port, 115200, timeout=0.02, write_timeout=0.5, exclusive=True)
                except (OSError, ValueError, serial.SerialException) as exc:
                    self._set_status(f"cannot open {port} ({exc}); retrying")
                else:
                    try:
                        self._serve(ser, port)
                    except Exception:  # a bug here must not leave the table without buttons
                        log.exception("RP2040 link failed on %s; reconnecting", port)
                        self._close()
            self._stop.wait(self.reconnect_interval_s)

    def _serve(self, ser: serial.Serial, port: str) -> None:
        with self._lock:
            self._serial, self._open_port = ser, port
            self._parser.reset()
            self._heard = False
            self._connections += 1
            if self._connections > 1:
                self._counts["reconnects"] += 1
            self._status = "connected"
        log.info("RP2040 link open on %s", port)
        if self._connections > 1:
            self._notify("connected", f"the RP2040 on {port} is back", void=False)
        self._send_quietly("HELLO")
        next_ping = 0.0
        last_rx = time.monotonic()
        try:
            while not self._stop.is_set():
                data = ser.read(ser.in_waiting or 1)
                now = time.monotonic()
                if data:
                    last_rx = now
                    self._on_bytes(data, time.monotonic_ns())
                if now >= next_ping:
                    next_ping = now + self.ping_interval_s
                    self._ping()
                self._check_gap(now)
                self._check_clock_answered(now)
                if now - last_rx > self.silence_timeout_s:
                    log.warning("RP2040 silent for %.1f s on %s; reopening", now - last_rx, port)
                    break
        except (OSError, serial.SerialException) as exc:
            log.warning("RP2040 link on %s lost: %s", port, exc)
        finally:
            self._close()
            if not self._stop.is_set():
                self._set_status(f"link lost on {port}, reconnecting")
                self._notify(
                    "disconnected", f"the RP2040 on {port} is disconnected; reconnecting", void=False
                )

    def _close(self) -> None:
        with self._lock:
            ser, self._serial = self._serial, None
        if ser is not None:
            with contextlib.suppress(OSError, serial.SerialException):
                ser.close()

    def _on_bytes(self, data: bytes, received_ns: int) -> None:
        for item in self._parser.feed(data):
            if isinstance(item, BadFrame):
                self._bad_log.record(item)
            else:
                self._on_frame(item, received_ns)
        self._bad_log.flush()

    def _on_frame(self, frame: Frame, received_ns: int) -> None:
        new_boot, old_boot = False, None
        with self._lock:
            if self._tracker is None or frame.boot != self._tracker.boot:
                new_boot, old_boot = True, self._new_boot(frame)
            assert self._tracker is not None
            is_new, in_order = self._tracker.offer(frame)
            self._heard = True
            self._boot_counts["frames"] += 1
            self._boot_counts["repeats"] += not is_new
        if new_boot:
            if frame.kind != "HELLO":
                self._send_quietly("HELLO")  # the new boot's held seats and firmware version
            self._ping()  # a clock mapping for the new clock
        if old_boot is not None:
            self._notify(
                "reboot",
                f"The button timer restarted (boot {old_boot} → {frame.boot}): the contest in progress "
                "is void, since its call and presses were stamped by a clock that no longer exists. "
                "Arm again.",
                void=True,
                clock=f"rp2040:{old_boot}",
            )
        if is_new and frame.kind in IMMEDIATE:
            self._immediate(frame, received_ns)
        for item in in_order:
            self._in_order(item)

    def _new_boot(self, frame: Frame) -> str | None:
        """Start following a new boot (lock held); returns the previous boot id, if any."""
        old = self._boot
        self._boot = frame.boot
        if self._tracker is not None:
            self._retired["duplicates"] += self._tracker.duplicates
            self._retired["lost"] += self._tracker.lost
        self._tracker = SequenceTracker(frame.boot, frame.seq)
        self._clock.reset()
        self._held.clear()
        self._pings.clear()
        self._gap = None
        self._boot_heard_at = time.monotonic()
        self._boot_counts = dict.fromkeys(self._boot_counts, 0)
        self._slow_answer_logged = False
        if old is None:
            log.info("RP2040 boot %s", frame.boot)
        else:
            self._counts["reboots"] += 1
        return old

    def _immediate(self, frame: Frame, received_ns: int) -> None:
        kind = frame.kind
        if kind == "PONG":
            with self._lock:
                sent = self._pings.pop(frame.int_arg(0), None)
                if sent is not None:
                    self._clock.add(sent, received_ns, frame.int_arg(1) * 1000)
                    self._boot_counts["answers"] += 1
                else:  # a ping of the previous boot, or one pruned as unanswered
                    self._boot_counts["stray_answers"] += 1
                    log.debug("PONG %s matches no ping sent to boot %s", frame.args[0], frame.boot)
        elif kind == "ARMED":
            with self._armed:
                self._armed_replies[frame.int_arg(0)] = (frame.boot, frame.int_arg(1), frame.int_arg(2, 16))
                self._armed.notify_all()
        elif kind == "LOST":
            first, last = frame.int_arg(0), frame.int_arg(1)
            with self._lock:
                assert self._tracker is not None
                before = self._tracker.lost
                in_order = self._tracker.skip(first, last)
                lost = self._tracker.lost - before
            for item in in_order:
                self._in_order(item)
            if lost:
                self._notify(
                    "lost",
                    f"{lost} message(s) from the button timer were lost and cannot be sent again "
                    "(a press may be missing): the contest in progress is void.",
                    void=True,
                )
        elif kind == "ERR":
            code = frame.args[0]
            log.warning("RP2040 reports an error: %s", " ".join(frame.args))
            if code == "overflow":
                with self._lock:
                    self._counts["overflows"] += 1
                self._notify(
                    "overflow",
                    "The button timer's sample buffer overflowed (a storm of bouncing buttons?): "
                    "some stamps may be late, so the contest in progress is void.",
                    void=True,
                )
        elif kind == "STAT":
            samples, glitches, overflows, loop_ns = (frame.int_arg(i) for i in range(4))
            with self._lock:
                first_slow = loop_ns > MAX_LOOP_NS and (self._firmware_stat or (0, 0, 0, 0))[3] <= MAX_LOOP_NS
                self._firmware_stat = (samples, glitches, overflows, loop_ns)
            if first_slow:
                log.warning(
                    "the RP2040 samples the buttons every %d ns, slower than 1 µs: presses under "
                    "%d µs apart may tie; check the firmware build (firmware/README.md, section 6)",
                    loop_ns,
                    2 * loop_ns // 1000 + 1,
                )

    def _in_order(self, frame: Frame) -> None:
        if frame.kind == "E":
            seat, down, t_us = frame.int_arg(0), frame.args[1] == "1", frame.int_arg(2)
            clock = f"rp2040:{frame.boot}"
            if seat == 0:
                if down and self.on_caller is not None:
                    self._safely(self.on_caller, t_us * 1000)
                return
            if seat not in self.seats:
                log.warning("RP2040 reports seat %d, but only seats %s are configured", seat, self.seats)
                return
            with self._lock:
                (self._held.add if down else self._held.discard)(seat)
            if self._on_edge is not None:
                self._safely(self._on_edge, ButtonEdge(seat, down, t_us * 1000, clock))
        elif frame.kind == "HELLO":
            protocol, version, seats = frame.int_arg(0), frame.args[1], frame.int_arg(2)
            held = frame.int_arg(3, 16)
            with self._lock:
                self._firmware = (protocol, version, seats)
                self._held = {s for s in self.seats if held >> (s - 1) & 1}
            log.info(
                "RP2040 firmware %s (protocol %d, %d seats), boot %s", version, protocol, seats, frame.boot
            )
            if protocol != PROTOCOL_VERSION:
                self._notify(
                    "protocol",
                    f"the button timer speaks protocol {protocol}, this referee {PROTOCOL_VERSION}: "
                    "copy the firmware of this version onto the Pico (firmware/README.md)",
                    void=True,
                )
            elif seats < len(self.seats):
                log.warning("the firmware drives %d seats, %d are configured", seats, len(self.seats))

    # -- timers and commands ------------------------------------------------------------------

    def _ping(self) -> None:
        token = next(self._tokens)
        self._pings_sent += 1
        if self._pings_sent % STAT_EVERY_PINGS == 2:  # soon after connecting, then every ~10 s
            self._send_quietly("STAT")
        with self._lock:
            if len(self._pings) >= 8:  # unanswered pings: keep only the recent ones
                for old in sorted(self._pings)[:-7]:
                    del self._pings[old]
            self._pings[token] = time.monotonic_ns()
            self._boot_counts["pings"] += 1
        self._send_quietly(f"PING {token}")

    def _check_gap(self, now: float) -> None:
        with self._lock:
            if self._tracker is None:
                return
            gap = self._tracker.gap()
            if gap is None:
                self._gap, self._gap_attempts = None, 0
                return
            if gap == self._gap and now - self._gap_requested_at < self.resend_timeout_s:
                return
            if gap != self._gap:
                self._gap, self._gap_attempts = gap, 0
            if self._gap_attempts >= self.resend_attempts:
                before = self._tracker.lost
                in_order = self._tracker.give_up()
                lost = self._tracker.lost - before
                self._gap = None
            else:
                self._gap_attempts += 1
                self._gap_requested_at = now
                self._counts["resend_requests"] += 1
                in_order, lost = [], 0
        if lost:
            log.warning("RP2040 frames %d-%d never came back; giving up on them", *gap)
            for item in in_order:
                self._in_order(item)
            self._notify(
                "lost",
                f"{lost} message(s) from the button timer never arrived despite "
                f"{self.resend_attempts} requests (a press may be missing): the contest in progress is void.",
                void=True,
            )
        else:
            log.info("RP2040 frames %d-%d missing; asking for them again", *gap)
            self._send_quietly(f"RESEND {gap[0]} {gap[1]}")

    def _check_clock_answered(self, now: float) -> None:
        """Say once per boot, in the log, why its clock is still unknown after a few seconds."""
        with self._lock:
            if self._slow_answer_logged or self._tracker is None or self._clock.ready:
                return
            if now - self._boot_heard_at < CLOCK_ANSWER_WARN_S:
                return
            self._slow_answer_logged = True
            detail = self._waiting_detail_locked()
        log.warning("RP2040: no clock after %.0f s: %s", CLOCK_ANSWER_WARN_S, detail)

    def _send(self, body: str) -> None:
        line = encode_command(body)
        with self._write_lock:
            ser = self._serial
            if ser is None:
                raise SerialLinkError(f"the RP2040 is not connected ({self._status})")
            try:
                ser.write(line)
            except (OSError, serial.SerialException) as exc:
                raise SerialLinkError(f"cannot write to the RP2040: {exc}") from exc

    def _send_quietly(self, body: str) -> None:
        try:
            self._send(body)
        except SerialLinkError as exc:
            log.debug("not sent (%s): %s", body, exc)

    # -- helpers ------------------------------------------------------------------------------

    def _set_status(self, status: str) -> None:
        with self._lock:
            if self._connections and "reconnecting" not in status:
                status = f"link lost, reconnecting: {status}"
            if status != self._status:
                log.info("RP2040 link: %s", status)
            self._status = status

    def _notify(self, kind: NoticeKind, message: str, *, void: bool, clock: str | None = None) -> None:
        notice = LinkNotice(kind, message, void, clock or self.clock)
        (log.warning if void else log.info)("%s", message)
        if self.on_notice is not None:
            self._safely(self.on_notice, notice)

    @staticmethod
    def _safely(callback: Callable[[Any], object], value: object) -> None:
        try:
            callback(value)
        except Exception:  # a consumer's bug must not kill the reader thread
            log.exception("callback failed on %r", value)

    def _waiting_detail_locked(self) -> str:
        """Connected but no clock yet: what came back so far, for the display and the log."""
        if self._tracker is None:
            return "connected, waiting for the button timer to answer"
        c = self._boot_counts
        return (
            f"connected, waiting for the button timer to answer: boot {self._boot}, "
            f"{c['pings']} pings sent, {c['frames']} messages back "
            f"({c['answers']} answers, {c['stray_answers']} to older pings, "
            f"{c['repeats']} repeats of earlier messages)"
        )

    def _ready_locked(self) -> bool:
        """Connected, heard from since, and the clock mapped (for the boot heard)."""
        return self._serial is not None and self._heard and self._clock.ready

    def _stats_locked(self) -> LinkStats:
        tracker = self._tracker
        ready = self._clock.ready
        return LinkStats(
            connected=self._serial is not None,
            port=self._open_port,
            boot=self._boot,
            frames=self._parser.frames,
            bad_frames=self._parser.bad,
            duplicates=self._retired["duplicates"] + (tracker.duplicates if tracker else 0),
            resend_requests=self._counts["resend_requests"],
            lost_frames=self._retired["lost"] + (tracker.lost if tracker else 0),
            reconnects=self._counts["reconnects"],
            reboots=self._counts["reboots"],
            overflows=self._counts["overflows"],
            rtt_ns=min(s.rtt_ns for s in self._clock.samples) if ready else None,
            clock_uncertainty_ns=self._clock.uncertainty_ns if ready else None,
        )
