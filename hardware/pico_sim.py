"""The RP2040 button timer without a Pico: the firmware's own logic behind a real pty.

`PicoSimulator` runs ``firmware.core.Firmware`` (the very code copied onto the Pico) in a
thread, serving a pseudo-terminal from ``os.openpty``, so the host link is exercised through
pyserial on a real tty. Around the firmware it models what the Pico's board layer does:

- the **sampling loop**: every input is read together every ``sample_period_ns`` (default
  250 ns, a viper loop's turn) at a random phase, and stamped with the 1 µs timer;
- the Pico's **clock**: µs since boot, with a programmable offset and drift against the host;
- **scripted presses** with programmable offsets, optionally bouncing, either at given times
  or relative to each call (``on_each_call({1: 250_000, 2: 250_004})``: seat 2 presses 4 µs
  after seat 1, 250 ms after every call);
- the **wire**: `WireFaults` drops, duplicates or corrupts chosen frames and injects garbage;
  ``unplug``/``replug`` close and reopen the pty (with a symlink, like the udev name, swapped
  atomically); ``reboot`` starts a new boot id.

>>> with PicoSimulator(seats=2, seed=1) as sim:     # doctest: +SKIP
...     print(sim.path)                              # connect pyserial or the referee here
/dev/pts/7
"""

from __future__ import annotations

import contextlib
import errno
import heapq
import itertools
import logging
import os
import random
import select
import threading
import time
import tty
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from firmware import config
from firmware.core import Firmware

log = logging.getLogger(__name__)

MAX_BACKLOG = 64 * 1024  # bytes waiting for a host that does not read; beyond, output is dropped


def bounce_changes(
    t0_ns: int, level: int, edges: int, span_ns: int, rng: random.Random
) -> list[tuple[int, int]]:
    """A contact closing (level 1) or opening as `edges` transitions within `span_ns` of `t0_ns`.

    The first transition is at `t0_ns`; the last leaves the input at `level`.

    >>> bounce_changes(1000, 1, 3, 50, random.Random(0))
    [(1000, 1), (1025, 0), (1049, 1)]
    """
    if edges <= 1 or span_ns <= 1:
        return [(t0_ns, level)]
    if edges % 2 == 0:
        edges += 1  # end on the new level
    offsets = sorted(rng.sample(range(1, span_ns), min(edges - 1, span_ns - 1)))
    return [(t0_ns, level)] + [(t0_ns + dt, level if k % 2 else 1 - level) for k, dt in enumerate(offsets)]


class SamplerModel:
    """The board's sampling loop: reads all inputs every `period_ns` from `phase_ns` on.

    Feed it the true level changes (`change`, on the Pico's clock in ns, in any order before
    they are sampled); `snapshots_until` returns what the loop would have stored: one
    ``(t_us, mask)`` per read whose levels differ from the previous stored read. Changes
    that fall between the same two reads are seen together, as by the real loop.

    With `latch_presses` (the firmware's behaviour, from the RP2040's edge latches), an input
    pressed and released again between two reads is still seen: as a press at the next read,
    then the levels as read.
    """

    def __init__(
        self, period_ns: int, phase_ns: int, initial_mask: int = 0, latch_presses: bool = True
    ) -> None:
        if period_ns < 1:
            raise ValueError("the sampling period must be at least 1 ns")
        self.period_ns = period_ns
        self.phase_ns = phase_ns % period_ns
        self.latch_presses = latch_presses
        self.levels = initial_mask  # the true levels after every change applied so far
        self.stored = initial_mask  # the levels of the last stored snapshot
        self._pending: list[tuple[int, int, int, int]] = []  # (t_ns, order, input, level)
        self._order = itertools.count()

    def change(self, t_ns: int, index: int, level: int) -> None:
        heapq.heappush(self._pending, (t_ns, next(self._order), index, level))

    def read_time(self, t_ns: int) -> int:
        """The first read at or after `t_ns`."""
        k = -((self.phase_ns - t_ns) // self.period_ns)  # ceil((t - phase) / period)
        return self.phase_ns + k * self.period_ns

    def next_read_ns(self) -> int | None:
        """When the next pending change will be read, or None."""
        return self.read_time(self._pending[0][0]) if self._pending else None

    def snapshots_until(self, now_ns: int) -> list[tuple[int, int]]:
        out: list[tuple[int, int]] = []
        pending = self._pending
        while pending:
            read = self.read_time(pending[0][0])
            if read > now_ns:
                break
            fell = 0  # inputs pressed at some instant since the previous read (the edge latch)
            while pending and pending[0][0] <= read:
                _, _, index, level = heapq.heappop(pending)
                bit = 1 << index
                self.levels = self.levels | bit if level else self.levels & ~bit
                fell |= bit if level else 0
            missed = fell & ~self.levels if self.latch_presses else 0
            if missed and self.levels | missed != self.stored:
                self.stored = self.levels | missed
                out.append((read // 1000, self.stored))
            if self.levels != self.stored:
                self.stored = self.levels
                out.append((read // 1000, self.levels))
        return out


@dataclass
class _Fault:
    action: str  # "drop", "duplicate", "corrupt"
    kind: str | None  # the frame type it applies to; None: any
    skip: int  # matching frames to let through first
    count: int  # matching frames to damage


class WireFaults:
    """Damage scripted onto the firmware's output (and the host's commands) on the wire."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng
        self._out: list[_Fault] = []
        self._in: list[_Fault] = []
        self._garbage = bytearray()
        self.noise = {"drop": 0.0, "corrupt": 0.0, "duplicate": 0.0, "garbage": 0.0}
        self.damaged = 0

    def drop(self, kind: str | None = None, count: int = 1, skip: int = 0) -> None:
        """Lose the next `count` frames of type `kind` (after letting `skip` through)."""
        self._out.append(_Fault("drop", kind, skip, count))

    def duplicate(self, kind: str | None = None, count: int = 1, skip: int = 0) -> None:
        self._out.append(_Fault("duplicate", kind, skip, count))

    def corrupt(self, kind: str | None = None, count: int = 1, skip: int = 0) -> None:
        """Flip a character of the next frames of type `kind`: their CRC no longer matches."""
        self._out.append(_Fault("corrupt", kind, skip, count))

    def garbage(self, data: bytes) -> None:
        """Bytes written before the next frame (noise, a REPL banner, a half line...)."""
        self._garbage += data

    def drop_command(self, kind: str | None = None, count: int = 1) -> None:
        """Lose the next `count` host commands of type `kind` on their way to the firmware."""
        self._in.append(_Fault("drop", kind, 0, count))

    def clear(self) -> None:
        """The wire is mended: scripted damage not yet done is called off."""
        self._out.clear()
        self._in.clear()

    def outgoing(self, line: bytes) -> bytes:
        """What reaches the host when the firmware writes `line`."""
        data = bytes(self._garbage)
        self._garbage.clear()
        parts = line.split(b" ", 3)
        action = self._take(self._out, parts[2].decode() if len(parts) > 2 else "")
        if action is None:
            action = self._random_action()
        if action is not None:
            self.damaged += 1
        if action == "drop":
            return data
        if action == "duplicate":
            return data + line + line
        if action == "corrupt":
            i = self._rng.randrange(len(line) - 7)  # never the LF: the line stays one line
            return data + line[:i] + bytes([line[i] ^ 0x01]) + line[i + 1 :]
        if action == "garbage":
            return data + bytes(self._rng.randrange(256) for _ in range(self._rng.randrange(1, 40))) + line
        return data + line

    def incoming(self, line: bytes) -> bool:
        """Whether the host's command `line` reaches the firmware."""
        return self._take(self._in, line.split(b" ", 1)[0].decode(errors="replace")) != "drop"

    def _take(self, faults: list[_Fault], kind: str) -> str | None:
        for fault in faults:
            if fault.kind is None or fault.kind == kind:
                if fault.skip:
                    fault.skip -= 1
                    return None
                fault.count -= 1
                if fault.count <= 0:
                    faults.remove(fault)
                return fault.action
        return None

    def _random_action(self) -> str | None:
        x = self._rng.random()
        for action, p in self.noise.items():
            if x < p:
                return action
            x -= p
        return None


class PicoSimulator:
    """A simulated RP2040 button timer on a pty; see the module docstring."""

    def __init__(
        self,
        seats: int = config.SEATS,
        *,
        link: str | Path | None = None,
        clock_offset_us: int = 3_000_000,
        drift_ppm: float = 0.0,
        sample_period_ns: int = 250,
        seed: int | None = None,
        press_confirm_us: int = config.PRESS_CONFIRM_US,
        release_confirm_us: int = config.RELEASE_CONFIRM_US,
        ring_frames: int = config.RING_FRAMES,
    ) -> None:
        self.seats = seats
        self.link = Path(link) if link is not None else None
        self.drift_ppm = drift_ppm
        self.sample_period_ns = sample_period_ns
        self.rng = random.Random(seed)
        self.faults = WireFaults(self.rng)
        self._confirm_us = (press_confirm_us, release_confirm_us)
        self._ring_frames = ring_frames
        self._lock = threading.RLock()
        self._thread: threading.Thread | None = None
        self._running = False
        self._master: int | None = None
        self._slave: int | None = None
        self._tty: str | None = None
        self._backlog = bytearray()
        self._order = itertools.count()
        self._schedule: list[tuple[int, int, int, int]] = []  # (host ns, order, input, level)
        self._levels = 0  # true levels of every input now
        self._call_script: (
            tuple[Mapping[int, float] | Callable[[], Mapping[int, float]], int, int, int] | None
        ) = None
        self.calls: list[int] = []  # µs of every call made, on the current boot's clock
        self.lines_written = 0
        self.lines_dropped = 0  # written while unplugged, or to a host that never read
        self.boots: list[int] = []
        self._power_loss = False
        self._inbox = b""
        self._boot(clock_offset_us)

    # -- lifecycle ----------------------------------------------------------------------------

    @property
    def path(self) -> str:
        """The tty to open: the symlink if one was asked for, else the pty's own name."""
        if self.link is not None:
            return str(self.link)
        if self._tty is None:
            raise RuntimeError("the simulator is not plugged in")
        return self._tty

    def start(self) -> PicoSimulator:
        with self._lock:
            self._plug()
            self._running = True
            self.firmware.boot()
            self._flush()
        self._thread = threading.Thread(target=self._loop, name="pico-sim", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._running = False
        if self._thread is not None:
            self._thread.join(timeout=2.0)
            self._thread = None
        with self._lock:
            self._unplug_fds()

    def __enter__(self) -> PicoSimulator:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def unplug(self, power_loss: bool = False) -> None:
        """Pull the cable: the pty closes (the host's reads fail). With `power_loss` the Pico
        reboots when plugged back (USB powers it); without, it keeps running and its frames
        sent meanwhile are lost on the wire, to be asked for again."""
        with self._lock:
            self._unplug_fds()
            self._power_loss = power_loss

    def replug(self) -> None:
        with self._lock:
            if self._master is not None:
                return
            if self._power_loss:
                self._power_loss = False
                self._boot(500_000)  # the clock restarts: ~0.5 s of boot before main.py runs
                self._plug()
                self.firmware.boot()
            else:
                self._plug()
            self._flush()

    def reboot(self) -> None:
        """Reset the Pico (power glitch, watchdog, soft reset): new boot id, clock from zero."""
        with self._lock:
            self._boot(500_000)
            self.firmware.boot()
            self._flush()

    # -- the Pico's clock ---------------------------------------------------------------------

    def now_us(self) -> int:
        with self._lock:
            return self._pico_ns(time.monotonic_ns()) // 1000

    def _pico_ns(self, host_ns: int) -> int:
        elapsed = host_ns - self._origin_ns
        return self._offset_ns + elapsed + int(elapsed * self.drift_ppm / 1e6)

    def _host_ns(self, pico_ns: int) -> int:
        return self._origin_ns + round((pico_ns - self._offset_ns) / (1 + self.drift_ppm / 1e6))

    # -- scripted inputs ----------------------------------------------------------------------

    def set_level(self, index: int, level: int, at_us: float | None = None) -> None:
        """Input `index` (0 caller, k seat k) goes to `level` at `at_us` on the Pico's clock (now if None)."""
        with self._lock:
            host = time.monotonic_ns() if at_us is None else self._host_ns(round(at_us * 1000))
            heapq.heappush(self._schedule, (host, next(self._order), index, level))

    def press(
        self,
        seat: int,
        at_us: float | None = None,
        *,
        hold_us: float = 150_000,
        bounce_edges: int = 1,
        bounce_us: float = 0,
    ) -> None:
        """Seat `seat` presses at `at_us` (Pico clock; now if None), holds, and releases."""
        with self._lock:
            start = time.monotonic_ns() if at_us is None else self._host_ns(round(at_us * 1000))
            self._schedule_press(seat, start, round(hold_us * 1000), bounce_edges, round(bounce_us * 1000))

    def on_each_call(
        self,
        offsets_us: Mapping[int, float] | Callable[[], Mapping[int, float]],
        *,
        hold_us: float = 150_000,
        bounce_edges: int = 1,
        bounce_us: float = 0,
    ) -> None:
        """After every call from now on, seat k presses `offsets_us[k]` µs after the call.

        `offsets_us` may be a function, asked at each call (random reaction times for demos).
        """
        with self._lock:
            self._call_script = (offsets_us, round(hold_us * 1000), bounce_edges, round(bounce_us * 1000))

    def _schedule_press(self, seat: int, start_ns: int, hold_ns: int, edges: int, span_ns: int) -> None:
        if not 0 <= seat <= self.seats:
            raise ValueError(f"no seat {seat}: the simulator has seats 1..{self.seats} (0 is the caller)")
        for t, level in bounce_changes(start_ns, 1, edges, span_ns, self.rng):
            heapq.heappush(self._schedule, (t, next(self._order), seat, level))
        for t, level in bounce_changes(start_ns + hold_ns, 0, edges, span_ns, self.rng):
            heapq.heappush(self._schedule, (t, next(self._order), seat, level))

    # -- the firmware's world -----------------------------------------------------------------

    @property
    def boot_id(self) -> int:
        return self.firmware.boot_id

    def _boot(self, offset_us: int) -> None:
        """A new boot: new id, clock from `offset_us`, a fresh firmware and sampling loop."""
        self._origin_ns = time.monotonic_ns()
        self._offset_ns = offset_us * 1000
        self._now = offset_us
        boot_id = self.rng.getrandbits(32) or 1
        self.boots.append(boot_id)
        self.calls = []
        self.firmware = Firmware(
            boot_id,
            now_us=lambda: self._now,
            write=self._write,
            set_call=self._on_call_output,
            initial_mask=self._levels,
            seats=self.seats,
            press_confirm_us=self._confirm_us[0],
            release_confirm_us=self._confirm_us[1],
            ring_frames=self._ring_frames,
        )
        self.firmware.loop_ns = self.sample_period_ns  # what the board would measure
        phase = self.rng.randrange(self.sample_period_ns)
        self.sampler = SamplerModel(self.sample_period_ns, phase, self._levels)

    def _on_call_output(self, on: int) -> None:
        if not on:
            return
        self.calls.append(self._now)
        if self._call_script is not None:
            script, hold_ns, edges, span_ns = self._call_script
            offsets = script() if callable(script) else script
            call_ns = self._now * 1000
            for seat, offset_us in offsets.items():
                start = self._host_ns(call_ns + round(offset_us * 1000))
                self._schedule_press(seat, start, hold_ns, edges, span_ns)

    def _write(self, line: bytes) -> None:
        self.lines_written += 1
        if self._master is None:
            self.lines_dropped += 1  # USB CDC drops output while no host is attached
            return
        self._backlog += self.faults.outgoing(line)

    def _step(self, host_ns: int) -> None:
        """Everything the Pico did up to `host_ns`: inputs sampled, edges confirmed, commands obeyed."""
        pico_ns = self._pico_ns(host_ns)
        self._now = pico_ns // 1000
        schedule = self._schedule
        while schedule and schedule[0][0] <= host_ns:
            t, _, index, level = heapq.heappop(schedule)
            self.sampler.change(self._pico_ns(t), index, level)
            bit = 1 << index
            self._levels = self._levels | bit if level else self._levels & ~bit
        for t_us, mask in self.sampler.snapshots_until(pico_ns):
            self.firmware.feed_sample(t_us, mask)
        self.firmware.advance(self._now)
        if self._master is not None:
            try:
                data = os.read(self._master, 4096)
            except BlockingIOError:
                data = b""
            except OSError as exc:
                if exc.errno != errno.EIO:  # EIO: no host has the port open
                    raise
                data = b""
            if data:
                self._receive(data)
        self._flush()

    def _receive(self, data: bytes) -> None:
        """Host bytes → firmware, line by line, through the command faults."""
        self._inbox += data
        *lines, self._inbox = self._inbox.split(b"\n")
        for line in lines:
            if self.faults.incoming(line):
                self.firmware.receive(line + b"\n")

    def _flush(self) -> None:
        if self._master is None or not self._backlog:
            return
        try:
            written = os.write(self._master, self._backlog)
        except BlockingIOError:
            written = 0
        except OSError:
            written = len(self._backlog)  # the host side is gone: what was in flight is lost
        del self._backlog[:written]
        if len(self._backlog) > MAX_BACKLOG:
            self.lines_dropped += self._backlog.count(b"\n")
            self._backlog.clear()

    def _next_wake_s(self, host_ns: int) -> float:
        """Seconds until the next thing to do (a scheduled change, a read, a confirmation)."""
        candidates = [host_ns + 5_000_000]  # idle: look again in 5 ms
        if self._schedule:
            candidates.append(self._schedule[0][0])
        read = self.sampler.next_read_ns()
        if read is not None:
            candidates.append(self._host_ns(read))
        deadline = self.firmware.detector.next_deadline
        if deadline >= 0:
            candidates.append(self._host_ns(deadline * 1000))
        if self.firmware.call_off_at >= 0:
            candidates.append(self._host_ns(self.firmware.call_off_at * 1000))
        return max(min(candidates) - host_ns, 0) / 1e9

    def _loop(self) -> None:
        while self._running:
            with self._lock:
                now = time.monotonic_ns()
                self._step(now)
                timeout = self._next_wake_s(now)
                fd = self._master
            if timeout <= 0:
                continue
            try:
                select.select([fd] if fd is not None else [], [], [], timeout)
            except (OSError, ValueError):
                time.sleep(min(timeout, 0.001))  # the fd was closed under us by unplug()

    # -- the pty ------------------------------------------------------------------------------

    def _plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no line editing: bytes pass as they are
        os.set_blocking(master, False)
        self._master, self._slave, self._tty = master, slave, os.ttyname(slave)
        self._backlog.clear()
        if self.link is not None:
            tmp = self.link.with_name(self.link.name + ".tmp")
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()
            tmp.symlink_to(self._tty)
            tmp.replace(self.link)  # atomic: a reader sees the old or the new pty, never none
        log.info("simulated RP2040 on %s (boot %08X)", self.path, self.firmware.boot_id)

    def _unplug_fds(self) -> None:
        if self.link is not None:
            with contextlib.suppress(FileNotFoundError):
                self.link.unlink()
        for fd in (self._master, self._slave):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._master = self._slave = None
        self._tty = None
