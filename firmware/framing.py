"""Lines on the wire: device frames out, host commands in, and the ring kept for resends.

Device frame (docs/protocol.md): ``<boot> <seq> <TYPE> [<arg> ...] *<CRC>`` then LF, where
boot is 8 uppercase hex digits, seq a decimal 32-bit counter and CRC the 4 uppercase hex
digits of CRC-16/CCITT-FALSE over every byte before " *". A host command is the same
without boot and seq: ``<TYPE> [<arg> ...] *<CRC>``.

>>> encode_frame(0x1A2B3C4D, 7, "E 3 1 1234567")
b'1A2B3C4D 7 E 3 1 1234567 *D453\\n'
>>> parse_command(encode_command("PING 42")[:-1])
('PING', [42])
"""

from firmware.crc16 import crc16

MAX_FRAME = 120  # bytes of a device frame, LF included
MAX_COMMAND = 64  # bytes of a host command, LF included
SEQ_MASK = 0xFFFFFFFF

# Host commands and the number of unsigned decimal arguments each takes.
COMMAND_ARGS = {"HELLO": 0, "PING": 1, "ARM": 1, "RESEND": 2, "LED": 1, "STAT": 0}


class CommandError(Exception):
    """A host command that cannot be obeyed; `code` goes into the ERR reply."""

    def __init__(self, code: str, detail: str = "") -> None:
        super().__init__(code)
        self.code = code
        self.detail = detail


def encode_frame(boot_id: int, seq: int, body: str) -> bytes:
    """The frame carrying `body` (``TYPE arg ...``) as sequence number `seq` of boot `boot_id`."""
    text = f"{boot_id:08X} {seq} {body}".encode()
    return text + f" *{crc16(text):04X}\n".encode()


def encode_command(body: str) -> bytes:
    """A host command line (used by tests and by anyone driving the firmware by hand)."""
    text = body.encode()
    return text + f" *{crc16(text):04X}\n".encode()


def _uint(token: bytes, limit: int) -> int:
    if not token or len(token) > 10 or not token.isdigit():
        raise CommandError("syntax", "expected a number")
    value = int(token)
    if value > limit:
        raise CommandError("syntax", "number too large")
    return value


def parse_command(line: bytes) -> tuple[str, list[int]]:
    """``(TYPE, [args])`` of one host command line (LF removed); raises CommandError."""
    if len(line) >= MAX_COMMAND:
        raise CommandError("toolong")
    if line.endswith(b"\r"):
        line = line[:-1]
    if len(line) < 7 or line[-6:-4] != b" *":
        raise CommandError("syntax", "no checksum")
    body = line[:-6]
    given = line[-4:]
    for c in given:
        if not (48 <= c <= 57 or 65 <= c <= 70):  # 0-9 A-F
            raise CommandError("syntax", "bad checksum digits")
    if int(given.decode(), 16) != crc16(body):
        raise CommandError("crc")
    tokens = body.split(b" ")
    for c in body:
        if c < 32 or c > 126:
            raise CommandError("syntax", "not printable")
    kind = tokens[0].decode()
    if kind not in COMMAND_ARGS:
        raise CommandError("unknown", kind if kind.isalpha() and len(kind) <= 8 else "?")
    if len(tokens) - 1 != COMMAND_ARGS[kind]:
        raise CommandError("syntax", "wrong number of arguments")
    return kind, [_uint(t, SEQ_MASK) for t in tokens[1:]]


class FrameRing:
    """The last `size` frames sent, by sequence number, for resends."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.seqs = [-1] * size
        self.lines: list[bytes] = [b""] * size

    def put(self, seq: int, line: bytes) -> None:
        slot = seq % self.size
        self.seqs[slot] = seq
        self.lines[slot] = line

    def get(self, seq: int) -> bytes | None:
        """The frame sent as `seq`, or None if it was never sent or is overwritten."""
        slot = seq % self.size
        return self.lines[slot] if self.seqs[slot] == seq else None
