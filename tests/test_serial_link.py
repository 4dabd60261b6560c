"""End to end on a real pty: simulated firmware ↔ pyserial ↔ SerialButtonSource ↔ arbitration."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from hardware import serial_link
from hardware.pico_sim import PicoSimulator
from hardware.serial_link import LinkNotice, SerialButtonSource, SerialLinkError, find_pico_port
from hardware.source import ButtonEdge, ButtonSource
from referee.arbitration import Contest, Press, PressVerdict, arbitrate

FAST: dict[str, Any] = {"ping_interval_s": 0.05, "resend_timeout_s": 0.1, "reconnect_interval_s": 0.05}
SEATS = ("Anne", "Marc", "Zoé", "Ivo")


class Table:
    """What the daemon would hold: the edges and notices the source delivered."""

    def __init__(self) -> None:
        self.edges: list[ButtonEdge] = []
        self.notices: list[LinkNotice] = []
        self.changed = threading.Condition()

    def on_edge(self, edge: ButtonEdge) -> None:
        with self.changed:
            self.edges.append(edge)
            self.changed.notify_all()

    def on_notice(self, notice: LinkNotice) -> None:
        with self.changed:
            self.notices.append(notice)
            self.changed.notify_all()

    def wait(self, predicate: Callable[[], bool], timeout: float = 3.0) -> None:
        """Until `predicate` holds (checked at each delivery, and every 20 ms for other state)."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while not predicate():
                remaining = deadline - time.monotonic()
                assert remaining > 0, "timed out"
                self.changed.wait(min(remaining, 0.02))

    def presses(self, clock: str | None = None) -> list[ButtonEdge]:
        return [e for e in self.edges if e.pressed and (clock is None or e.clock == clock)]

    def verdict(self, source: SerialButtonSource, t_call: int) -> PressVerdict:
        contest = Contest(t_call, SEATS, source.tie_window_ns, clock=source.clock)
        presses = [Press(SEATS[e.seat - 1], e.t_ns) for e in self.presses(source.clock)]
        return arbitrate(contest, presses)


@pytest.fixture
def rig(tmp_path: Path) -> Iterator[Callable[..., tuple[PicoSimulator, SerialButtonSource, Table]]]:
    started: list[tuple[PicoSimulator, SerialButtonSource]] = []

    def make(sim_options: dict[str, Any] | None = None, **source_options: Any):
        sim = PicoSimulator(
            seats=4, link=tmp_path / "referee-pico", seed=len(started) + 7, **(sim_options or {})
        )
        sim.start()
        table = Table()
        source = SerialButtonSource(
            sim.path, seats=4, on_notice=table.on_notice, **{**FAST, **source_options}
        )
        source.start(table.on_edge)
        started.append((sim, source))
        assert source.wait_ready(3.0)
        return sim, source, table

    yield make
    for sim, source in started:
        source.stop()
        sim.stop()


def test_is_a_button_source(rig) -> None:
    _, source, _ = rig()
    as_protocol: ButtonSource = source  # checked statically (pyright); at run time:
    members = ("clock", "tie_window_ns", "seats", "start", "stop", "now_ns", "held", "call", "health")
    assert all(hasattr(as_protocol, name) for name in members)
    assert source.seats == (1, 2, 3, 4) and source.tie_window_ns == 10_000


def test_round_trip_contest_gives_the_right_verdict(rig) -> None:
    sim, source, table = rig()
    sim.on_each_call({2: 180_000, 1: 180_050, 3: 180_053})
    t_call = source.call()
    assert source.clock == f"rp2040:{sim.boot_id:08X}"
    assert t_call == sim.calls[-1] * 1000  # the call is stamped by the Pico, on its clock
    table.wait(lambda: len(table.presses()) == 3)
    verdict = table.verdict(source, t_call)
    assert verdict.ranking == (("Marc",), ("Anne", "Zoé"))  # Zoé 3 µs after Anne: a tie
    assert verdict.margins_ns == (50_000,)
    assert verdict.reaction_ns["Marc"] == 180_000_000
    assert verdict.clock == source.clock
    assert all(e.clock == source.clock for e in table.edges)


def test_presses_4_us_apart_tie_and_40_us_apart_do_not(rig) -> None:
    sim, source, table = rig()
    sim.on_each_call({1: 200_000, 2: 200_004})
    t_call = source.call()
    table.wait(lambda: len(table.presses()) == 2)
    assert table.verdict(source, t_call).ranking == (("Anne", "Marc"),)
    table.wait(lambda: sum(not e.pressed for e in table.edges) == 2)  # released
    sim.on_each_call({1: 200_040, 2: 200_000})
    table.edges.clear()
    t_call = source.call()
    table.wait(lambda: len(table.presses()) == 2)
    verdict = table.verdict(source, t_call)
    assert verdict.ranking == (("Marc",), ("Anne",)) and verdict.margins_ns == (40_000,)


def test_the_call_reports_the_seats_held_at_that_instant(rig) -> None:
    sim, source, table = rig()
    sim.press(2, hold_us=300_000)
    table.wait(lambda: len(table.presses()) == 1)
    source.call()
    assert source.held_at_call == frozenset({2})


def test_from_spec_reads_the_command_line_form() -> None:
    assert SerialButtonSource.from_spec("serial").port is None
    assert SerialButtonSource.from_spec("serial:/dev/referee-pico", seats=4).seats == (1, 2, 3, 4)
    with pytest.raises(ValueError, match="serial:PORT"):
        SerialButtonSource.from_spec("gpio")


def test_held_and_now_follow_the_pico(rig) -> None:
    sim, source, table = rig({"drift_ppm": 40.0, "clock_offset_us": 987_654_321})
    sim.press(3, hold_us=400_000)
    table.wait(lambda: len(table.presses()) == 1)
    assert source.held() == frozenset({3})
    before = sim.now_us() * 1000
    now = source.now_ns()
    after = sim.now_us() * 1000 + 1000
    margin = source.stats().clock_uncertainty_ns + 1_000_000  # drift and scheduling on top
    assert before - margin <= now <= after + margin
    table.wait(lambda: len(table.edges) == 2)
    assert source.held() == frozenset()


def test_corrupted_crc_is_counted_then_resent(rig, caplog) -> None:
    sim, source, table = rig()
    sim.faults.corrupt("E", count=1)
    sim.on_each_call({1: 150_000, 2: 150_100})
    with caplog.at_level(logging.WARNING, logger="hardware.serial_link"):
        t_call = source.call()
        table.wait(lambda: len(table.presses()) == 2)
    assert table.verdict(source, t_call).ranking == (("Anne",), ("Marc",))
    stats = source.stats()
    assert stats.bad_frames == 1 and stats.resend_requests >= 1 and stats.lost_frames == 0
    assert "CRC mismatch" in caplog.text


def test_dropped_lines_are_asked_for_again(rig) -> None:
    sim, source, table = rig()
    sim.faults.drop("E", count=2)  # the first press and its release... and more frames after
    sim.on_each_call({1: 150_000, 2: 150_100}, hold_us=20_000)
    t_call = source.call()
    table.wait(lambda: len(table.edges) == 4)
    assert [(e.seat, e.pressed) for e in table.edges] == [(1, True), (2, True), (1, False), (2, False)]
    assert table.verdict(source, t_call).ranking == (("Anne",), ("Marc",))
    assert source.stats().resend_requests >= 1 and source.stats().lost_frames == 0


def test_a_lost_last_frame_is_found_by_the_next_ping(rig) -> None:
    sim, source, table = rig()
    sim.faults.drop("E", count=1)
    sim.press(4)  # its press is the last frame for a while: only a PONG reveals the gap
    table.wait(lambda: len(table.presses()) == 1)
    assert table.edges[0].seat == 4 and source.stats().resend_requests >= 1


def test_duplicated_lines_are_dropped(rig) -> None:
    sim, source, table = rig()
    sim.faults.duplicate("E", count=3)
    sim.on_each_call({1: 150_000, 2: 150_100}, hold_us=20_000)
    source.call()
    table.wait(lambda: len(table.edges) == 4)
    time.sleep(0.1)
    assert len(table.edges) == 4
    assert source.stats().duplicates == 3


def test_garbage_between_frames_is_counted_and_lines_glued_to_it_are_resent(rig) -> None:
    sim, source, table = rig()
    sim.faults.garbage(b"\x00\xff\xfe noise\nTraceback (most recent call last):\n")
    sim.press(1, hold_us=30_000)
    table.wait(lambda: len(table.edges) == 2)
    assert source.stats().bad_frames == 2
    sim.faults.garbage(b"no newline here, glued to the next frame")
    sim.press(2, hold_us=30_000)
    table.wait(lambda: len(table.edges) == 4)
    assert source.stats().bad_frames == 3 and source.stats().lost_frames == 0


def test_pico_reboot_mid_contest_voids_it_with_a_clear_message(rig) -> None:
    sim, source, table = rig()
    old_clock = source.clock
    t_call = source.call()
    assert t_call
    sim.reboot()
    table.wait(lambda: any(n.kind == "reboot" for n in table.notices))
    (notice,) = [n for n in table.notices if n.kind == "reboot"]
    assert notice.void_contest and notice.clock == old_clock
    assert "restarted" in notice.message and "void" in notice.message
    assert source.clock == f"rp2040:{sim.boot_id:08X}" != old_clock
    assert source.stats().reboots == 1
    # A new contest on the new clock works at once.
    sim.on_each_call({3: 150_000})
    assert source.wait_ready(2.0)
    t_call = source.call()
    table.wait(lambda: len(table.presses(source.clock)) == 1)
    assert table.verdict(source, t_call).ranking == (("Zoé",),)


def test_unplug_and_replug_reconnects_within_2_s(rig) -> None:
    sim, source, table = rig()
    sim.unplug(power_loss=True)
    table.wait(lambda: any(n.kind == "disconnected" for n in table.notices))
    health = source.health()
    assert not health.ok and "reconnecting" in health.detail
    with pytest.raises(SerialLinkError, match="not connected"):
        source.call()
    time.sleep(0.3)
    replugged = time.monotonic()
    sim.replug()
    assert source.wait_ready(2.0)
    assert time.monotonic() - replugged < 2.0
    table.wait(lambda: any(n.kind == "reboot" for n in table.notices))  # USB powers the Pico
    assert source.wait_ready(2.0) and source.health().ok
    assert source.stats().reconnects == 1


def test_frames_sent_while_the_cable_was_out_are_recovered(rig) -> None:
    sim, source, table = rig()
    sim.unplug(power_loss=False)  # a flaky hub: the Pico keeps running and stamping
    time.sleep(0.1)
    sim.press(2, hold_us=20_000)
    time.sleep(0.2)
    assert table.edges == [] and sim.lines_dropped >= 2
    sim.replug()
    table.wait(lambda: len(table.edges) == 2)
    assert [(e.seat, e.pressed) for e in table.edges] == [(2, True), (2, False)]
    assert source.stats().lost_frames == 0 and not any(n.kind == "reboot" for n in table.notices)


def test_frames_gone_from_the_pico_ring_are_reported_lost(rig) -> None:
    sim, source, table = rig({"ring_frames": 4})
    sim.faults.drop(None, count=12)  # 12 frames in a row (pongs, mostly): more than the ring holds
    table.wait(lambda: any(n.kind == "lost" for n in table.notices))
    (notice,) = [n for n in table.notices if n.kind == "lost"][:1]
    assert notice.void_contest and "void" in notice.message
    assert source.stats().lost_frames >= 8


def test_a_lost_arm_is_retried_and_the_call_made_once(rig) -> None:
    sim, source, _ = rig()
    sim.faults.drop_command("ARM", count=1)
    sim.faults.drop("ARMED", count=1)
    t_call = source.call()
    assert len(sim.calls) == 1 and t_call == sim.calls[0] * 1000


def test_no_answer_to_the_call_is_an_error_a_person_can_act_on(rig) -> None:
    sim, source, _ = rig(call_timeout_s=0.3)
    sim.faults.drop_command("ARM", count=100)
    with pytest.raises(SerialLinkError, match="check its USB cable"):
        source.call()


def test_firmware_counters_are_fetched_and_a_slow_sampling_loop_is_flagged(rig, caplog) -> None:
    with caplog.at_level(logging.WARNING, logger="hardware.serial_link"):
        _, source, table = rig({"sample_period_ns": 1500})
        table.wait(lambda: source.firmware_stats is not None)
    assert source.firmware_stats is not None and source.firmware_stats[3] == 1500
    assert "slower than 1 µs" in caplog.text


def test_a_noisy_line_still_gives_every_verdict(rig) -> None:
    """Random drops, corruptions, duplicates and garbage on 30 % of the frames, 8 contests."""
    sim, source, table = rig(call_timeout_s=3.0, resend_attempts=10)
    for kind in ("drop", "corrupt", "duplicate", "garbage"):
        sim.faults.noise[kind] = 0.075
    for k in range(8):
        gap_us = 20 + 7 * k
        sim.on_each_call({1: 120_000 + gap_us, 2: 120_000}, hold_us=15_000)
        table.edges.clear()
        t_call = source.call()
        table.wait(lambda: len(table.presses(source.clock)) == 2, timeout=5.0)
        verdict = table.verdict(source, t_call)
        assert verdict.ranking == (("Marc",), ("Anne",)) and verdict.margins_ns == (gap_us * 1000,)
        table.wait(lambda: sum(not e.pressed for e in table.edges) == 2, timeout=5.0)
    stats = source.stats()
    assert stats.lost_frames == 0 and stats.resend_requests > 0 and stats.bad_frames > 0
    assert not any(n.void_contest for n in table.notices)


def test_auto_detect_by_usb_id(monkeypatch) -> None:
    class Port:
        def __init__(self, device: str, vid: int | None, pid: int | None) -> None:
            self.device, self.vid, self.pid = device, vid, pid

    monkeypatch.setattr(serial_link.os.path, "exists", lambda path: False)
    monkeypatch.setattr(
        serial_link.list_ports,
        "comports",
        lambda: [Port("/dev/ttyUSB0", 0x0403, 0x6001), Port("/dev/ttyACM1", 0x2E8A, 0x0005)],
    )
    assert find_pico_port() == "/dev/ttyACM1"
    monkeypatch.setattr(serial_link.list_ports, "comports", lambda: [])
    assert find_pico_port() is None


def test_missing_device_is_reported_in_health() -> None:
    source = SerialButtonSource("/nonexistent/referee-pico", **FAST)
    source.start(lambda edge: None)
    try:
        time.sleep(0.2)
        health = source.health()
        assert not health.ok and "cannot open /nonexistent/referee-pico" in health.detail
        with pytest.raises(SerialLinkError, match="not known yet"):
            source.now_ns()
    finally:
        source.stop()


def test_a_clock_that_never_comes_says_what_did_come(tmp_path: Path, monkeypatch, caplog) -> None:
    """Pings unanswered: the display's detail and the log count what came back instead."""
    monkeypatch.setattr(serial_link, "CLOCK_ANSWER_WARN_S", 0.3)
    with PicoSimulator(seats=2, link=tmp_path / "pico", seed=3) as sim:
        sim.faults.drop("PONG", count=12)  # with FAST's 50 ms pings: 0.6 s without a clock
        source = SerialButtonSource(sim.path, seats=2, **FAST)
        with caplog.at_level(logging.WARNING, logger="hardware.serial_link"):
            source.start(lambda edge: None)
            try:
                deadline = time.monotonic() + 3
                while "pings sent" not in source.health().detail and time.monotonic() < deadline:
                    time.sleep(0.01)
                waiting = source.health()
                assert not waiting.ok
                assert f"boot {sim.boot_id:08X}" in waiting.detail and "0 answers" in waiting.detail
                assert source.wait_ready(3.0), "the clock is mapped once the Pico answers"
                assert source.health().ok
            finally:
                source.stop()
    (warning,) = [r.getMessage() for r in caplog.records if "no clock after" in r.getMessage()]
    assert "0 answers" in warning and "pings sent" in warning
