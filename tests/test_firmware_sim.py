"""The simulator: the sampling model, bounce storms through the real firmware logic, the raw pty."""

from __future__ import annotations

import itertools
import random
import time

import serial

from firmware.core import Firmware
from firmware.framing import encode_command
from hardware.pico_sim import PicoSimulator, SamplerModel, bounce_changes
from hardware.serial_frames import Frame, FrameParser


def test_changes_between_two_reads_are_seen_in_the_same_read() -> None:
    sampler = SamplerModel(period_ns=250, phase_ns=100)
    sampler.change(1_000_120, 1, 1)  # read at 1_000_350
    sampler.change(1_000_300, 2, 1)  # same read
    sampler.change(1_000_360, 3, 1)  # next read, 1_000_600
    assert sampler.snapshots_until(2_000_000) == [(1000, 0b0110), (1000, 0b1110)]


def test_a_contact_between_two_reads_is_caught_by_the_edge_latch() -> None:
    sampler = SamplerModel(period_ns=1000, phase_ns=0)
    sampler.change(5_100, 1, 1)
    sampler.change(5_600, 1, 0)
    assert sampler.snapshots_until(10_000) == [(6, 0b10), (6, 0)]


def test_a_first_contact_shorter_than_a_read_still_stamps_the_press() -> None:
    lines: list[bytes] = []
    fw = Firmware(1, now_us=lambda: 0, write=lines.append, seats=2)
    sampler = SamplerModel(period_ns=250, phase_ns=0)
    for t, level in [(1_010, 1), (1_040, 0), (31_000, 1)]:  # a 30 ns touch, then the press
        sampler.change(t, 2, level)
    for t_us, mask in sampler.snapshots_until(5_000_000):
        fw.feed_sample(t_us, mask)
    fw.advance(5_000)
    (frame,) = [f for f in FrameParser().feed(b"".join(lines)) if isinstance(f, Frame)]
    assert frame.args == ("2", "1", "1")  # stamped at the read after the touch (1.25 µs → 1)


def test_without_the_latch_such_a_contact_is_invisible() -> None:
    sampler = SamplerModel(period_ns=1000, phase_ns=0, latch_presses=False)
    sampler.change(5_100, 1, 1)
    sampler.change(5_600, 1, 0)
    assert sampler.snapshots_until(10_000) == []


def test_nothing_is_stored_before_its_read_time() -> None:
    sampler = SamplerModel(period_ns=250, phase_ns=0)
    sampler.change(1_001, 1, 1)
    assert sampler.snapshots_until(1_249) == []
    assert sampler.snapshots_until(1_250) == [(1, 0b10)]


def test_bounce_train_starts_at_t0_and_ends_on_the_new_level() -> None:
    rng = random.Random(5)
    for edges in (1, 2, 7, 100):
        changes = bounce_changes(10_000, 1, edges, 5_000_000, rng)
        assert changes[0] == (10_000, 1) and changes[-1][1] == 1
        assert [t for t, _ in changes] == sorted({t for t, _ in changes})
        assert all(a[1] != b[1] for a, b in itertools.pairwise(changes))


def test_all_eight_seats_bouncing_at_once_lose_no_first_edge() -> None:
    """100 transitions per seat within 5 ms, every seat at once, through the firmware's logic."""
    rng = random.Random(8)
    lines: list[bytes] = []
    fw = Firmware(0xB0B, now_us=lambda: 0, write=lines.append, seats=8)
    sampler = SamplerModel(period_ns=250, phase_ns=rng.randrange(250))
    starts = {seat: 1_000_000_000 + rng.randrange(0, 40_000) for seat in range(1, 9)}
    for seat, t0 in starts.items():
        for t, level in bounce_changes(t0, 1, 100, 5_000_000, rng):
            sampler.change(t, seat, level)
    snapshots = sampler.snapshots_until(1_100_000_000)
    first_reads = {s: next(t for t, mask in snapshots if mask >> s & 1) for s in starts}
    for t_us, mask in snapshots:
        fw.feed_sample(t_us, mask)
    fw.advance(1_100_000)
    parser = FrameParser()
    frames = [f for f in parser.feed(b"".join(lines)) if isinstance(f, Frame)]
    presses = {int(f.args[0]): int(f.args[2]) for f in frames if f.kind == "E"}
    assert len(frames) == 8 and parser.bad == 0
    # Each stamp is the read right after the seat's first contact, in whole µs, even when
    # that contact was shorter than one read (the edge latch).
    assert presses == first_reads == {s: sampler.read_time(t0) // 1000 for s, t0 in starts.items()}


def test_raw_pyserial_on_the_pty_talks_to_the_firmware() -> None:
    with PicoSimulator(seats=2, seed=3) as sim:
        port = serial.Serial(sim.path, timeout=0.05)
        try:
            port.write(encode_command("HELLO"))
            parser, frames, deadline = FrameParser(), [], time.monotonic() + 3
            while not frames and time.monotonic() < deadline:
                frames += [f for f in parser.feed(port.read(200)) if isinstance(f, Frame)]
        finally:
            port.close()
    # Frame 1 (the boot's HELLO) went out before the port was opened; opening flushed it,
    # as nobody listening loses the Pico's output too. The answer is frame 2.
    assert [(f.seq, f.kind) for f in frames] == [(2, "HELLO")]
    assert frames[0].boot == f"{sim.boot_id:08X}" and parser.bad == 0
