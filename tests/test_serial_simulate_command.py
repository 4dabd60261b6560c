"""``referee simulate-firmware`` as a person runs it: a process, a printed tty, a contest over it."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest

from hardware.serial_link import SerialButtonSource
from referee.arbitration import Contest, Press, arbitrate
from referee.commands.simulate_firmware import parse_offsets

ROOT = Path(__file__).resolve().parent.parent


def test_a_whole_contest_against_the_command(tmp_path: Path) -> None:
    link = tmp_path / "referee-pico"
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "referee",
            "simulate-firmware",
            "--seats",
            "3",
            "--link",
            str(link),
            "--press",
            "3=160000,1=160025",
            "--bounce",
            "9",
            "--bounce-us",
            "2000",
            "--duration",
            "20",
        ],
        cwd=ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert proc.stdout is not None and proc.stdin is not None
        first = proc.stdout.readline()
        assert f"on {link}" in first, first
        presses: list[Press] = []
        got_both = threading.Event()

        def on_edge(edge) -> None:
            if edge.pressed:
                presses.append(Press(f"seat {edge.seat}", edge.t_ns))
                if len(presses) == 2:
                    got_both.set()

        source = SerialButtonSource(str(link), seats=3, ping_interval_s=0.05)
        source.start(on_edge)
        try:
            assert source.wait_ready(5.0)
            t_call = source.call()
            assert got_both.wait(5.0)
            verdict = arbitrate(
                Contest(t_call, ("seat 1", "seat 2", "seat 3"), source.tie_window_ns, clock=source.clock),
                presses,
            )
        finally:
            source.stop()
        assert verdict.ranking == (("seat 3",), ("seat 1",)) and verdict.margins_ns == (25_000,)
        assert verdict.no_press == ("seat 2",)
        proc.stdin.write("q\n")
        proc.stdin.flush()
        assert proc.wait(timeout=5) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_press_offsets_are_read_with_helpful_errors() -> None:
    assert parse_offsets("1=250000, 2=250004.5", 8) == {1: 250000.0, 2: 250004.5}
    with pytest.raises(ValueError, match="SEAT=MICROSECONDS"):
        parse_offsets("1:250000", 8)
    with pytest.raises(ValueError, match="seats are 1 to 2"):
        parse_offsets("3=1", 2)
