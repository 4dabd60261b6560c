"""The host's frame parser: valid frames, every kind of bad line, and a fuzz of 10^6 bytes."""

from __future__ import annotations

import logging
import random

from hypothesis import given
from hypothesis import strategies as st

from firmware.framing import encode_frame
from hardware.serial_frames import (
    MAX_LINE,
    BadFrame,
    BadFrameLog,
    Frame,
    FrameParser,
    encode_command,
    parse_line,
    seq_diff,
)

EDGE = encode_frame(0x1A2B3C4D, 7, "E 3 1 1234567")


def test_frame_and_command_examples() -> None:
    assert EDGE == b"1A2B3C4D 7 E 3 1 1234567 *D453\n"
    assert encode_command("PING 42") == b"PING 42 *815C\n"


def test_a_frame_split_anywhere_parses_the_same() -> None:
    for cut in range(len(EDGE)):
        parser = FrameParser()
        out = parser.feed(EDGE[:cut]) + parser.feed(EDGE[cut:])
        assert out == [Frame("1A2B3C4D", 7, "E", ("3", "1", "1234567"))]


def test_corrupted_crc_is_a_bad_frame() -> None:
    damaged = EDGE.replace(b"1234567", b"1234568")
    parser = FrameParser()
    (bad,) = parser.feed(damaged)
    assert isinstance(bad, BadFrame) and "CRC mismatch" in bad.reason
    assert (parser.frames, parser.bad) == (0, 1)


def test_garbage_between_frames_is_counted_and_frames_survive() -> None:
    parser = FrameParser()
    out = parser.feed(b"\x00\xff\xfe junk\n" + EDGE + b"Traceback (most recent call last):\n\r\n\n" + EDGE)
    assert [type(x).__name__ for x in out] == ["BadFrame", "Frame", "BadFrame", "Frame"]
    assert (parser.frames, parser.bad) == (2, 2)  # empty lines are nothing


def test_garbage_glued_to_a_frame_spoils_only_that_frame() -> None:
    parser = FrameParser()
    out = parser.feed(b"noise" + EDGE + EDGE)
    assert isinstance(out[0], BadFrame) and out[1] == parse_line(EDGE[:-1])


def test_a_crlf_line_end_is_accepted() -> None:
    assert parse_line(EDGE[:-1] + b"\r") == parse_line(EDGE[:-1])


def test_overlong_line_counts_once_and_memory_stays_bounded() -> None:
    parser = FrameParser()
    out = []
    for _ in range(1000):
        out += parser.feed(b"A" * 1000)
        assert parser.buffered <= MAX_LINE + 1
    out += parser.feed(b"tail\n" + EDGE)
    assert len([x for x in out if isinstance(x, BadFrame)]) == 1
    assert out[-1] == parse_line(EDGE[:-1])


def test_schema_violations_are_bad_frames() -> None:
    cases = {
        "E 3 2 10": "bad arguments",  # level must be 0 or 1
        "E 3 1": "bad arguments",
        "E 03 1 10": "bad arguments",  # no leading zeros
        "ARMED 1 2 zz": "bad arguments",
        "WHAT 1": "unknown message type",
        "ERR": "bad arguments",
    }
    for body, reason in cases.items():
        bad = parse_line(encode_frame(1, 1, body)[:-1])
        assert isinstance(bad, BadFrame) and reason in bad.reason, body
    assert isinstance(parse_line(b"1a2b3c4d 1 HELLO 1 1.0 8 0 *0000"), BadFrame)


@given(
    st.lists(st.tuples(st.integers(0, 8), st.integers(0, 1), st.integers(0, 2**64 - 1)), max_size=20),
    st.lists(st.binary(max_size=50).map(lambda b: b.replace(b"\n", b"")), max_size=20),
    st.integers(1, 64),
)
def test_frames_interleaved_with_garbage_lines_all_come_through(edges, junk, chunk) -> None:
    stream = b""
    for i, (seat, level, t) in enumerate(edges):
        if i < len(junk):
            stream += junk[i] + b"\n"
        stream += encode_frame(0xCAFE, i, f"E {seat} {level} {t}")
    parser = FrameParser()
    out = []
    for k in range(0, len(stream), chunk):
        out += parser.feed(stream[k : k + chunk])
    frames = [x for x in out if isinstance(x, Frame)]
    assert [(f.seq, f.args) for f in frames] == [
        (i, (str(s), str(lv), str(t))) for i, (s, lv, t) in enumerate(edges)
    ]
    assert parser.bad == len([j for j in junk[: len(edges)] if j not in (b"", b"\r")])


def test_fuzz_a_million_random_bytes(caplog) -> None:
    """No crash, bounded memory, every non-empty line counted as good or bad, every bad one logged."""
    rng = random.Random(20240611)
    data = rng.randbytes(1_000_000)
    # Sprinkle valid frames and CR/LF-dense stretches so every code path runs.
    pieces, pos = [], 0
    while pos < len(data):
        step = rng.randrange(1, 5000)
        pieces.append(data[pos : pos + step])
        if rng.random() < 0.3:
            pieces.append(b"\n" + encode_frame(rng.getrandbits(32), rng.getrandbits(32), f"PONG 1 {pos}"))
        if rng.random() < 0.2:
            pieces.append(bytes(rng.choice(b"\r\n *0A") for _ in range(200)))
        pos += step
    stream = b"".join(pieces)
    parser = FrameParser()
    logger = logging.getLogger("test.fuzz")
    bad_log = BadFrameLog(logger, burst=5, period_s=3600.0)
    out_frames = out_bad = 0
    pos = 0
    with caplog.at_level(logging.WARNING, logger="test.fuzz"):
        while pos < len(stream):
            size = rng.randrange(1, 8192)
            for item in parser.feed(stream[pos : pos + size]):
                if isinstance(item, Frame):
                    out_frames += 1
                else:
                    out_bad += 1
                    bad_log.record(item)
            assert parser.buffered <= MAX_LINE + 1
            pos += size
        bad_log.flush()
    *lines, tail = stream.split(b"\n")
    non_empty = [ln for ln in lines if ln not in (b"", b"\r")]
    unfinished_but_too_long = len(tail) > MAX_LINE + 1  # counted as soon as it is known bad
    assert out_frames + out_bad == len(non_empty) + unfinished_but_too_long == parser.frames + parser.bad
    assert out_frames >= 1 and out_bad > 1000
    assert bad_log.logged + bad_log.suppressed == bad_log.recorded == out_bad
    assert bad_log.logged == 5 and f"{bad_log.suppressed} more bad frames" in caplog.text


def test_bad_frame_log_logs_a_burst_per_period() -> None:
    now = [0.0]
    log = BadFrameLog(logging.getLogger("test.burst"), burst=2, period_s=10.0, clock=lambda: now[0])
    for _ in range(5):
        log.record(BadFrame("x", b""))
    now[0] = 11.0
    log.record(BadFrame("x", b""))
    assert (log.logged, log.suppressed, log.recorded) == (3, 3, 6)


def test_serial_number_arithmetic_wraps() -> None:
    assert seq_diff(0, 0xFFFFFFFF) == 1
    assert seq_diff(0xFFFFFFFF, 0) == -1
    assert seq_diff(5, 3) == 2
