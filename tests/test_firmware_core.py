"""The firmware's behaviour (firmware.core) and framing, run under CPython as on the Pico."""

from __future__ import annotations

import binascii

from hypothesis import given
from hypothesis import strategies as st

from firmware.core import Firmware
from firmware.crc16 import crc16
from firmware.framing import FrameRing, encode_command, encode_frame, parse_command
from hardware.serial_frames import Frame, parse_line

BOOT = 0x1A2B3C4D


class Pico:
    """A Firmware with a settable clock, recording what it writes and drives."""

    def __init__(self, **options: int) -> None:
        self.now = 1_000_000
        self.lines: list[bytes] = []
        self.call: list[tuple[int, int]] = []
        self.leds: list[int] = []
        self.fw = Firmware(
            BOOT,
            now_us=lambda: self.now,
            write=self.lines.append,
            set_call=lambda on: self.call.append((self.now, on)),
            set_leds=self.leds.append,
            seats=4,
            **options,
        )

    def command(self, body: str) -> list[Frame]:
        start = len(self.lines)
        self.fw.receive(encode_command(body))
        return self.frames(start)

    def frames(self, start: int = 0) -> list[Frame]:
        out = []
        for line in self.lines[start:]:
            frame = parse_line(line[:-1])
            assert isinstance(frame, Frame), frame
            out.append(frame)
        return out

    def press(self, seat: int, t: int) -> None:
        self.fw.feed_sample(t, self.fw.detector.raw | 1 << seat)
        self.fw.advance(t + 1_000)


def test_crc_matches_the_catalogue_check_value_and_binascii() -> None:
    assert crc16(b"123456789") == 0x29B1
    assert crc16(b"") == 0xFFFF


@given(st.binary(max_size=200))
def test_firmware_crc_is_crc_ccitt_false(data: bytes) -> None:
    assert crc16(data) == binascii.crc_hqx(data, 0xFFFF)


def test_boot_sends_hello_as_frame_one() -> None:
    pico = Pico()
    pico.fw.boot()
    (hello,) = pico.frames()
    assert (hello.boot, hello.seq, hello.kind, hello.args) == (
        "1A2B3C4D",
        1,
        "HELLO",
        ("1", "1.0.0", "4", "0"),
    )


def test_every_frame_parses_on_the_host_and_sequence_numbers_count_up() -> None:
    pico = Pico()
    pico.fw.boot()
    pico.command("PING 9")
    pico.press(2, 1_000_100)
    assert [(f.seq, f.kind) for f in pico.frames()] == [(1, "HELLO"), (2, "PONG"), (3, "E")]
    assert pico.frames()[2].args == ("2", "1", "1000100")


def test_ping_answers_with_the_clock() -> None:
    pico = Pico()
    pico.now = 123_456_789_012
    (pong,) = pico.command("PING 77")
    assert pong.args == ("77", "123456789012")


def test_arm_makes_the_call_once_and_a_repeated_arm_repeats_the_answer() -> None:
    pico = Pico()
    pico.fw.feed_sample(999_000, 0b100)  # seat 2 held before the call
    pico.fw.advance(1_000_000)
    (armed,) = pico.command("ARM 5")
    assert armed.args == ("5", "1000000", "2")  # held mask: seat 2 = bit 1
    assert pico.call == [(1_000_000, 1)]
    pico.now += 50
    again = pico.command("ARM 5")
    assert again == [armed]  # the same frame, same sequence number: no second call
    assert pico.call == [(1_000_000, 1)]
    pico.fw.advance(1_000_000 + 299_999)
    assert len(pico.call) == 1
    pico.fw.advance(1_000_000 + 300_000)  # the call pulse ends
    assert [on for _, on in pico.call] == [1, 0]


def test_resend_repeats_frames_byte_for_byte() -> None:
    pico = Pico()
    pico.fw.boot()
    for token in range(5):
        pico.command(f"PING {token}")
    original = list(pico.lines)
    pico.command("RESEND 2 4")
    assert pico.lines[-3:] == original[1:4]


def test_resend_reports_frames_the_ring_no_longer_holds_as_lost() -> None:
    pico = Pico(ring_frames=4)
    pico.fw.boot()
    for token in range(9):
        pico.command(f"PING {token}")  # frames 1..10; the ring keeps 7..10
    frames = pico.command("RESEND 3 8")
    assert [f.seq for f in frames[:2]] == [7, 8]
    assert frames[-1].kind == "LOST" and frames[-1].args == ("3", "6")


def test_resend_of_the_future_is_refused() -> None:
    pico = Pico()
    pico.fw.boot()
    (err,) = pico.command("RESEND 5 9")
    assert err.kind == "ERR" and err.args == ("range",)


def test_bad_commands_get_an_error_and_change_nothing() -> None:
    pico = Pico()
    good = encode_command("ARM 1")
    damaged = good.replace(b"ARM 1", b"ARM 7")  # CRC no longer matches
    pico.fw.receive(damaged)
    pico.fw.receive(encode_command("FIRE 1"))
    pico.fw.receive(encode_command("PING"))
    pico.fw.receive(b"x" * 200 + b"\n")
    errors = [f.args for f in pico.frames()]
    assert errors == [
        ("crc",),
        ("unknown", "FIRE"),
        ("syntax", "wrong", "number", "of", "arguments"),
        ("toolong",),
    ]
    assert pico.call == []


def test_winner_lamp_lights_the_first_press_and_ties_within_10_us() -> None:
    pico = Pico()
    pico.command("ARM 1")
    pico.fw.feed_sample(1_200_000, 0b0100)  # seat 2
    pico.fw.feed_sample(1_200_008, 0b1100)  # seat 3, 8 µs later: within the tie window
    pico.fw.feed_sample(1_200_050, 0b11100)  # seat 4, 50 µs later
    pico.fw.advance(1_210_000)
    assert pico.leds[-1] == 0b0110  # seats 2 and 3 (bits 1 and 2)
    pico.command("LED 8")
    assert pico.leds[-1] == 8


def test_overflow_is_reported_once_per_change() -> None:
    pico = Pico()
    pico.fw.note_overflow(1)
    pico.fw.advance(pico.now)
    pico.fw.advance(pico.now + 10)
    assert [(f.kind, f.args) for f in pico.frames()] == [("ERR", ("overflow", "1"))]


def test_stat_reports_samples_glitches_overflows_and_loop_period() -> None:
    pico = Pico()
    pico.fw.feed_sample(10, 0b10)
    pico.fw.feed_sample(20, 0)
    pico.fw.advance(20_000)
    pico.fw.loop_ns = 180
    (stat,) = pico.command("STAT")
    assert stat.args == ("2", "1", "0", "180")


def test_sequence_numbers_wrap_at_32_bits() -> None:
    pico = Pico(first_seq=0xFFFFFFFE)
    pico.fw.boot()
    pico.command("PING 1")
    pico.command("PING 2")
    assert [f.seq for f in pico.frames()] == [0xFFFFFFFE, 0xFFFFFFFF, 0]


def test_ring_keeps_the_latest_frames_by_sequence() -> None:
    ring = FrameRing(3)
    for seq in range(10, 15):
        ring.put(seq, b"%d" % seq)
    assert [ring.get(s) for s in range(10, 15)] == [None, None, b"12", b"13", b"14"]


@given(st.binary(max_size=300))
def test_any_bytes_from_the_host_get_at_most_one_answer_per_line(data: bytes) -> None:
    pico = Pico()
    pico.fw.receive(data)
    assert len(pico.lines) <= data.count(b"\n")
    for frame in pico.frames():  # whatever came in, what goes out is well-formed
        assert frame.kind in {"ERR", "PONG", "ARMED", "HELLO", "STAT", "LOST"}


@given(st.sampled_from(["HELLO", "STAT", "PING 4294967295", "ARM 0", "RESEND 1 2", "LED 255"]))
def test_commands_encoded_by_the_host_parse_on_the_firmware(body: str) -> None:
    from hardware.serial_frames import encode_command as host_encode

    line = host_encode(body)
    assert line == encode_command(body)
    kind, args = parse_command(line[:-1])
    assert [kind, *map(str, args)] == body.split(" ")


@given(
    st.integers(0, 0xFFFFFFFF),
    st.integers(0, 0xFFFFFFFF),
    st.integers(0, 8),
    st.integers(0, 1),
    st.integers(0, 2**64 - 1),
)
def test_edge_frames_round_trip_through_the_host_parser(
    boot: int, seq: int, seat: int, level: int, t: int
) -> None:
    frame = parse_line(encode_frame(boot, seq, f"E {seat} {level} {t}")[:-1])
    assert frame == Frame(f"{boot:08X}", seq, "E", (str(seat), str(level), str(t)))
