"""What the button timer does, with no hardware: snapshots and commands in, frames out.

The board layer (``firmware.board`` on a Pico, ``hardware.pico_sim`` on a PC) feeds it:

- ``feed_sample(t_us, mask)`` for every snapshot that differs from the previous one
  (bit 0 = caller's button, bit k = seat k, set = down), in time order;
- ``advance(t_us)`` when no snapshot changed up to `t_us`, so pending presses get confirmed;
- ``receive(data)`` with the bytes the host sent.

It answers through the callables it was given: ``write(line)`` for each frame,
``set_call(on)`` for the buzzer/lamp of the call, ``set_leds(mask)`` for the seat LEDs.

>>> lines = []
>>> fw = Firmware(0x1A2B3C4D, now_us=lambda: 5_000, write=lines.append)
>>> fw.boot()
>>> lines[0]
b'1A2B3C4D 1 HELLO 1 1.0.0 8 0 *16E3\\n'
"""

from firmware import config
from firmware.edges import EdgeDetector
from firmware.framing import (
    SEQ_MASK,
    CommandError,
    FrameRing,
    encode_frame,
    parse_command,
)

try:
    from typing import TYPE_CHECKING
except ImportError:  # MicroPython has no typing module
    TYPE_CHECKING = False  # pyright: ignore[reportConstantRedefinition]
if TYPE_CHECKING:
    from collections.abc import Callable


def _ignore(_value: int) -> None:
    return None


class Firmware:
    """The firmware's behaviour; see the module docstring and docs/protocol.md."""

    def __init__(
        self,
        boot_id: int,
        now_us: "Callable[[], int]",
        write: "Callable[[bytes], object]",
        set_call: "Callable[[int], None]" = _ignore,
        set_leds: "Callable[[int], None]" = _ignore,
        seats: int = config.SEATS,
        press_confirm_us: int = config.PRESS_CONFIRM_US,
        release_confirm_us: int = config.RELEASE_CONFIRM_US,
        ring_frames: int = config.RING_FRAMES,
        call_pulse_us: int = config.CALL_PULSE_US,
        tie_window_us: int = config.TIE_WINDOW_US,
        first_seq: int = 1,
        initial_mask: int = 0,
    ) -> None:
        self.boot_id = boot_id & 0xFFFFFFFF
        self.now_us = now_us
        self.write = write
        self.set_call = set_call
        self.set_leds = set_leds
        self.seats = seats
        self.detector = EdgeDetector(seats + 1, press_confirm_us, release_confirm_us, initial_mask)
        self.ring = FrameRing(ring_frames)
        self.seq = first_seq & SEQ_MASK  # the sequence number of the next frame
        self.call_pulse_us = call_pulse_us
        self.tie_window_us = tie_window_us
        self.samples = 0
        self.overflows = 0
        self.reported_overflows = 0
        self.loop_ns = 0  # the sampling loop's period, measured by the board (0: unknown)
        self.call_off_at = -1
        self.last_arm = -1  # token of the latest ARM obeyed
        self.last_armed_seq = -1
        self.last_armed_body = ""
        self.lamp_call_t = -1  # the call the winner lamp is judging, -1: lamp idle
        self.lamp_presses: list[tuple[int, int]] = []  # (t_us, seat) of presses after the call
        self.inbox = bytearray()
        self.discarding = False  # inside an over-long command line, dropping until LF
        self._edges: list[tuple[int, int, int]] = []

    # -- output -------------------------------------------------------------------------------

    def send(self, body: str) -> None:
        """Send one frame with the next sequence number and keep it for resends."""
        line = encode_frame(self.boot_id, self.seq, body)
        self.ring.put(self.seq, line)
        self.seq = (self.seq + 1) & SEQ_MASK
        self.write(line)

    def boot(self) -> None:
        """Announce this boot (the first frame of every boot is HELLO)."""
        self.send(self._hello())

    def held_mask(self) -> int:
        """Seats whose press is confirmed and not yet released (bit 0 = seat 1)."""
        return self.detector.stable >> 1

    def _hello(self) -> str:
        return f"HELLO {config.PROTOCOL_VERSION} {config.FIRMWARE_VERSION} {self.seats} {self.held_mask():X}"

    # -- inputs -------------------------------------------------------------------------------

    def feed_sample(self, t_us: int, mask: int) -> None:
        """A snapshot of every input, read at `t_us` (µs since boot)."""
        self.samples += 1
        edges = self._edges
        self.detector.feed(t_us, mask, edges)
        if edges:
            self._emit(edges)

    def advance(self, t_us: int) -> None:
        """Nothing changed up to `t_us`: confirm what is due, end the call pulse, report overflows."""
        detector = self.detector
        if detector.pending and t_us >= detector.next_deadline:
            edges = self._edges
            detector.advance(t_us, edges)
            if edges:
                self._emit(edges)
        if self.call_off_at >= 0 and t_us >= self.call_off_at:
            self.call_off_at = -1
            self.set_call(0)
        if self.overflows != self.reported_overflows:
            self.reported_overflows = self.overflows
            self.send(f"ERR overflow {self.overflows}")

    def note_overflow(self, count: int) -> None:
        """The board's snapshot buffer was full `count` times in all: stamps may be late."""
        self.overflows = count

    def _emit(self, edges: list[tuple[int, int, int]]) -> None:
        for seat, level, t in edges:
            self.send(f"E {seat} {level} {t}")
            if level and seat and self.lamp_call_t >= 0 and t >= self.lamp_call_t:
                self._light_winner(t, seat)
        del edges[:]

    def _light_winner(self, t: int, seat: int) -> None:
        """Instant feedback: light the seat(s) within the tie window of the earliest press."""
        self.lamp_presses.append((t, seat))
        first = min(p[0] for p in self.lamp_presses)
        mask = 0
        for pt, s in self.lamp_presses:
            if pt - first < self.tie_window_us:
                mask |= 1 << (s - 1)
        self.set_leds(mask)

    # -- commands -----------------------------------------------------------------------------

    def receive(self, data: bytes) -> None:
        """Bytes from the host; each complete line is obeyed or answered with ERR."""
        for byte in data:
            if byte == 10:  # LF
                if self.discarding:
                    self.discarding = False
                    self.send("ERR toolong")
                elif self.inbox:
                    line = bytes(self.inbox)
                    self.inbox = bytearray()
                    self._command(line)
            elif not self.discarding:
                self.inbox.append(byte)
                if len(self.inbox) >= 64:
                    self.inbox = bytearray()
                    self.discarding = True

    def _command(self, line: bytes) -> None:
        if line == b"\r":
            return
        try:
            kind, args = parse_command(line)
        except CommandError as exc:
            self.send("ERR " + exc.code + (" " + exc.detail if exc.detail else ""))
            return
        if kind == "PING":
            self.send(f"PONG {args[0]} {self.now_us()}")
        elif kind == "ARM":
            self._arm(args[0])
        elif kind == "RESEND":
            self._resend(args[0], args[1])
        elif kind == "HELLO":
            self.send(self._hello())
        elif kind == "LED":
            self.lamp_call_t = -1  # the host's verdict overrides the lamp
            self.set_leds(args[0] & ((1 << self.seats) - 1))
        elif kind == "STAT":
            glitches = self.detector.glitches
            self.send(f"STAT {self.samples} {glitches} {self.overflows} {self.loop_ns}")

    def _arm(self, token: int) -> None:
        """Make the call now; a repeated ARM (the host retrying) repeats the answer, not the call."""
        if token == self.last_arm:
            line = self.ring.get(self.last_armed_seq)
            if line is not None:
                self.write(line)
            else:
                self.send(self.last_armed_body)
            return
        t = self.now_us()
        self.set_call(1)
        self.call_off_at = t + self.call_pulse_us
        self.lamp_call_t = t
        self.lamp_presses = []
        self.set_leds(0)
        self.last_arm = token
        self.last_armed_seq = self.seq
        self.last_armed_body = f"ARMED {token} {t} {self.held_mask():X}"
        self.send(self.last_armed_body)

    def _resend(self, first: int, last: int) -> None:
        """Send again the frames first..last still in the ring; LOST for those that are not."""
        newest = (self.seq - 1) & SEQ_MASK
        if (newest - last) & SEQ_MASK >= 0x80000000 or (last - first) & SEQ_MASK >= 0x80000000:
            self.send("ERR range")
            return
        count = ((last - first) & SEQ_MASK) + 1
        lost_from = -1
        lost_to = -1
        if count > self.ring.size:  # older than anything the ring can still hold
            lost_from = first
            first = (last - self.ring.size + 1) & SEQ_MASK
            lost_to = (first - 1) & SEQ_MASK
            count = self.ring.size
        losses: list[tuple[int, int]] = []
        for k in range(count):
            seq = (first + k) & SEQ_MASK
            line = self.ring.get(seq)
            if line is not None:
                if lost_from >= 0:
                    losses.append((lost_from, lost_to))
                    lost_from = -1
                self.write(line)
            elif lost_from < 0:
                lost_from = lost_to = seq
            else:
                lost_to = seq
        if lost_from >= 0:
            losses.append((lost_from, lost_to))
        for a, b in losses:
            self.send(f"LOST {a} {b}")
