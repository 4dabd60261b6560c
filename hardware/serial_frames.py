"""The RP2040 link's lines, host side: a fast, bounded parser for frames and the host's commands.

The grammar is in docs/protocol.md. This parser is what reads bytes from outside, so it is
written to survive anything: memory stays bounded by ``MAX_LINE`` whatever arrives, every
line that is not a valid frame comes out as a `BadFrame` with a reason (counted, logged by
`BadFrameLog` without flooding the journal), and nothing raises.

>>> parser = FrameParser()
>>> parser.feed(b"garbage\\n1A2B3C4D 7 E 3 1 1234567 *D453\\n1A2B")
[BadFrame(reason='no " *CRC" at the end', line=b'garbage'), Frame(boot='1A2B3C4D', seq=7, kind='E', args=('3', '1', '1234567'))]
>>> parser.feed(b"3C4D 8 PONG 5 1234600 *8791\\n")
[Frame(boot='1A2B3C4D', seq=8, kind='PONG', args=('5', '1234600'))]
"""

from __future__ import annotations

import binascii
import logging
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field

PROTOCOL_VERSION = 1
MAX_LINE = 119  # bytes of a frame before its LF (a CR before the LF is allowed on top)
SEQ_MASK = 0xFFFFFFFF
KEPT_BYTES = 80  # of a bad line, kept for the log

# Arguments of each device message: u = unsigned decimal (no leading zeros), b = 0 or 1,
# x = uppercase hex mask, v = version token, w = lowercase word, * = any further tokens.
SCHEMAS: dict[str, str] = {
    "HELLO": "uvux",
    "E": "ubu",
    "ARMED": "uux",
    "PONG": "uu",
    "LOST": "uu",
    "STAT": "uuuu",
    "ERR": "w*",
}
_UINT = re.compile(rb"0|[1-9][0-9]{0,19}")
_PATTERNS: dict[str, re.Pattern[str]] = {
    "u": re.compile(r"0|[1-9][0-9]{0,19}"),
    "b": re.compile(r"[01]"),
    "x": re.compile(r"[0-9A-F]{1,8}"),
    "v": re.compile(r"[0-9A-Za-z.+-]{1,16}"),
    "w": re.compile(r"[a-z]{1,16}"),
}
_BOOT = re.compile(rb"[0-9A-F]{8}")
_CRC = re.compile(rb"[0-9A-F]{4}")
U64_MAX = (1 << 64) - 1


@dataclass(frozen=True, slots=True)
class Frame:
    """One valid frame from the firmware; `args` are validated against the message's schema."""

    boot: str  # 8 uppercase hex digits, new at every boot of the Pico
    seq: int  # 32-bit sequence number, +1 per frame, wrapping
    kind: str  # HELLO, E, ARMED, PONG, LOST, STAT, ERR
    args: tuple[str, ...]

    def int_arg(self, index: int, base: int = 10) -> int:
        return int(self.args[index], base)


@dataclass(frozen=True, slots=True)
class BadFrame:
    """A line that is not a valid frame: noise, a corrupted frame, a REPL traceback..."""

    reason: str
    line: bytes  # its first KEPT_BYTES bytes


def crc16(data: bytes) -> int:
    """CRC-16/CCITT-FALSE, as in firmware/crc16.py (binascii's C implementation, same result)."""
    return binascii.crc_hqx(data, 0xFFFF)


def encode_command(body: str) -> bytes:
    """A host → firmware command line: ``encode_command("PING 5") == b"PING 5 *ABCD\\n"``."""
    text = body.encode("ascii")
    return text + f" *{crc16(text):04X}\n".encode()


def seq_diff(a: int, b: int) -> int:
    """``a - b`` in 32-bit serial-number arithmetic: positive when `a` comes after `b`."""
    d = (a - b) & SEQ_MASK
    return d - (1 << 32) if d >= 1 << 31 else d


def parse_line(line: bytes) -> Frame | BadFrame:
    """One line without its LF → a Frame, or a BadFrame saying why not."""
    if line.endswith(b"\r"):
        line = line[:-1]
    if len(line) > MAX_LINE:
        return BadFrame(f"longer than {MAX_LINE} bytes", line[:KEPT_BYTES])
    if len(line) < 8 or line[-6:-4] != b" *":
        return BadFrame('no " *CRC" at the end', line[:KEPT_BYTES])
    body, given = line[:-6], line[-4:]
    if not _CRC.fullmatch(given):
        return BadFrame("the CRC is not 4 uppercase hex digits", line[:KEPT_BYTES])
    if int(given, 16) != crc16(body):
        return BadFrame("CRC mismatch (corrupted line)", line[:KEPT_BYTES])
    try:
        text = body.decode("ascii")
    except UnicodeDecodeError:
        return BadFrame("not ASCII", line[:KEPT_BYTES])
    if not text.isprintable():
        return BadFrame("control characters in the line", line[:KEPT_BYTES])
    parts = text.split(" ")
    if len(parts) < 3:
        return BadFrame("fewer than 3 fields (boot, seq, type)", line[:KEPT_BYTES])
    boot, seq, kind, *args = parts
    if not _BOOT.fullmatch(boot.encode()):
        return BadFrame("the boot id is not 8 uppercase hex digits", line[:KEPT_BYTES])
    if not _UINT.fullmatch(seq.encode()) or int(seq) > SEQ_MASK:
        return BadFrame("the sequence number is not a 32-bit decimal", line[:KEPT_BYTES])
    schema = SCHEMAS.get(kind)
    if schema is None:
        return BadFrame(f"unknown message type {kind[:16]!r} (a newer firmware?)", line[:KEPT_BYTES])
    if not _args_fit(schema, args):
        return BadFrame(f"bad arguments for {kind}", line[:KEPT_BYTES])
    return Frame(boot, int(seq), kind, tuple(args))


def _args_fit(schema: str, args: list[str]) -> bool:
    rest = schema.endswith("*")
    fixed = schema.rstrip("*")
    if len(args) < len(fixed) or (not rest and len(args) > len(fixed)):
        return False
    for kind, arg in zip(fixed, args, strict=False):
        if not _PATTERNS[kind].fullmatch(arg):
            return False
        if kind == "u" and int(arg) > U64_MAX:
            return False
    return True


@dataclass
class FrameParser:
    """Bytes in any chunks → frames and bad frames; memory never exceeds one line.

    An empty line is nothing; any other line that is not a valid frame is one BadFrame
    (an over-long line counts once, however long it runs).
    """

    frames: int = 0
    bad: int = 0
    _partial: bytearray = field(default_factory=bytearray)
    _skipping: bool = False  # inside an over-long line: drop until its LF

    def feed(self, data: bytes) -> list[Frame | BadFrame]:
        out: list[Frame | BadFrame] = []
        start, end = 0, len(data)
        limit = MAX_LINE + 1  # CR allowed
        while start < end:
            nl = data.find(b"\n", start)
            if nl < 0:
                if not self._skipping:
                    if len(self._partial) + end - start > limit:
                        head = bytes(self._partial) + data[start : start + KEPT_BYTES]
                        self._partial.clear()
                        self._skipping = True
                        out.append(self._count(BadFrame(f"longer than {MAX_LINE} bytes", head[:KEPT_BYTES])))
                    else:
                        self._partial += data[start:]
                break
            if self._skipping:
                self._skipping = False  # the over-long line ends here; it was counted once
            else:
                if self._partial:
                    self._partial += data[start:nl]
                    line = bytes(self._partial)
                    self._partial.clear()
                else:
                    line = data[start:nl]
                if line and line != b"\r":
                    out.append(self._count(parse_line(line)))
            start = nl + 1
        return out

    def reset(self) -> None:
        """Forget a partial line (after a reconnect: its start belonged to another session)."""
        self._partial.clear()
        self._skipping = False

    @property
    def buffered(self) -> int:
        """Bytes held waiting for a LF (never more than MAX_LINE + 1)."""
        return len(self._partial)

    def _count(self, item: Frame | BadFrame) -> Frame | BadFrame:
        if isinstance(item, Frame):
            self.frames += 1
        else:
            self.bad += 1
        return item


@dataclass
class BadFrameLog:
    """Logs bad frames without flooding: the first `burst` of each `period_s`, then a count.

    Every bad frame is either logged on its own line or counted in a "suppressed" summary,
    so ``logged + suppressed == recorded`` at any time after `flush`.
    """

    logger: logging.Logger
    burst: int = 5
    period_s: float = 10.0
    clock: Callable[[], float] = time.monotonic
    recorded: int = 0
    logged: int = 0
    suppressed: int = 0
    _window_start: float = float("-inf")
    _in_window: int = 0
    _pending: int = 0  # suppressed but not yet reported in a summary

    def record(self, bad: BadFrame) -> None:
        self.recorded += 1
        now = self.clock()
        if now - self._window_start >= self.period_s:
            self.flush()
            self._window_start, self._in_window = now, 0
        if self._in_window < self.burst:
            self._in_window += 1
            self.logged += 1
            self.logger.warning("bad frame from the RP2040 (%s): %r", bad.reason, bad.line)
        else:
            self.suppressed += 1
            self._pending += 1

    def flush(self) -> None:
        if self._pending:
            self.logger.warning(
                "%d more bad frames from the RP2040 not shown (noise on the line? see the counters)",
                self._pending,
            )
            self._pending = 0
