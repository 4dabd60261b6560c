"""``referee simulate-firmware``: a simulated RP2040 button timer on a pty, for demos and tests.

Runs the firmware's own logic (firmware/core.py) behind a pseudo-terminal and prints the tty
to connect to; presses come from a script relative to each call, from random "players", or
from the keyboard (a seat number and Enter).
"""

from __future__ import annotations

import argparse
import random
import select
import sys
import time

from hardware.pico_sim import PicoSimulator

NAME = "simulate-firmware"
HELP = "run the RP2040 button-timer firmware on a simulated Pico behind a pty and print its path"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--seats", type=int, default=8, help="seats wired (1-8, default 8)")
    parser.add_argument(
        "--link", help="also make this symlink to the pty, like the udev name (e.g. /tmp/referee-pico)"
    )
    parser.add_argument(
        "--press",
        metavar="SEAT=US,...",
        help="after every call, these seats press this many µs after it (e.g. 1=250000,2=250004)",
    )
    parser.add_argument(
        "--auto", action="store_true", help="after every call, every seat presses at a human reaction time"
    )
    parser.add_argument("--bounce", type=int, default=1, help="transitions per press (contact bounce)")
    parser.add_argument("--bounce-us", type=float, default=3000.0, help="how long a bounce lasts")
    parser.add_argument("--drift-ppm", type=float, default=0.0, help="the Pico's crystal error")
    parser.add_argument("--noise", type=float, default=0.0, help="chance that a frame is damaged on the wire")
    parser.add_argument("--seed", type=int, default=None, help="random seed (boot ids, phases, reactions)")
    parser.add_argument("--duration", type=float, default=None, help="stop after this many seconds")


def parse_offsets(text: str, seats: int) -> dict[int, float]:
    """``"1=250000,2=250004.5"`` → ``{1: 250000.0, 2: 250004.5}``; raises ValueError with a hint."""
    offsets: dict[int, float] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        seat, sep, us = part.partition("=")
        if not sep:
            raise ValueError(f"{part!r}: write SEAT=MICROSECONDS, e.g. 2=250004")
        number = int(seat)
        if not 1 <= number <= seats:
            raise ValueError(f"{part!r}: seats are 1 to {seats}")
        offsets[number] = float(us)
    return offsets


def run(args: argparse.Namespace) -> int:
    if not 1 <= args.seats <= 8:
        print("referee simulate-firmware: --seats must be 1 to 8", file=sys.stderr)
        return 2
    try:
        offsets = parse_offsets(args.press, args.seats) if args.press else None
    except ValueError as exc:
        print(f"referee simulate-firmware: --press {exc}", file=sys.stderr)
        return 2
    rng = random.Random(args.seed)
    sim = PicoSimulator(args.seats, link=args.link, drift_ppm=args.drift_ppm, seed=args.seed)
    bounce = {"bounce_edges": args.bounce, "bounce_us": args.bounce_us}
    if offsets:
        sim.on_each_call(offsets, **bounce)
    elif args.auto:
        seats = range(1, args.seats + 1)
        sim.on_each_call(lambda: {s: max(rng.gauss(350_000, 80_000), 120_000) for s in seats}, **bounce)
    for kind in ("drop", "corrupt", "duplicate"):
        sim.faults.noise[kind] = args.noise / 3
    sim.start()
    print(f"Simulated RP2040 button timer on {sim.path} (boot {sim.boot_id:08X}, {args.seats} seats)")
    print(f"Connect the referee: referee serve --buttons serial:{sim.path}")
    print("Type a seat number and Enter to press it; r reboots the Pico, u unplugs it for 1 s, q quits.")
    sys.stdout.flush()
    calls_seen = 0
    deadline = None if args.duration is None else time.monotonic() + args.duration
    try:
        while deadline is None or time.monotonic() < deadline:
            if len(sim.calls) > calls_seen:
                calls_seen = len(sim.calls)
                print(f"call at {sim.calls[-1] / 1e6:.6f} s on the Pico's clock", flush=True)
            command = _read_line(0.1)
            if command is None:
                continue
            if command == "q":
                break
            if command == "r":
                sim.reboot()
                calls_seen = 0
                print(f"rebooted: boot {sim.boot_id:08X}", flush=True)
            elif command == "u":
                sim.unplug(power_loss=False)
                time.sleep(1.0)
                sim.replug()
                print("unplugged for 1 s and plugged back", flush=True)
            elif command.isdigit() and 1 <= int(command) <= args.seats:
                sim.press(int(command), **bounce)
            elif command:
                print(f"unknown input {command!r}: a seat number (1-{args.seats}), r, u or q", flush=True)
    except KeyboardInterrupt:
        pass
    finally:
        sim.stop()
    return 0


def _read_line(timeout: float) -> str | None:
    """A line typed on stdin within `timeout` seconds, or None (also when stdin is closed)."""
    try:
        ready, _, _ = select.select([sys.stdin], [], [], timeout)
    except (OSError, ValueError):
        time.sleep(timeout)
        return None
    if not ready:
        return None
    line = sys.stdin.readline()
    if line == "":  # EOF: no keyboard (run in the background); keep serving
        time.sleep(timeout)
        return None
    return line.strip().lower()
