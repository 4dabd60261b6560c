"""``referee pinmap [FILE]``: check a GPIO pin map, print its wiring table, draw its diagram."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from hardware.pin_factory import CLOCK_OF_FACTORY
from hardware.pinmap import BOARD_OF_GPIO, PinMap, PinMapError
from hardware.wiring_svg import wiring_svg
from referee.arbitration import TIE_WINDOW_NS, format_ns

NAME = "pinmap"
HELP = "check a GPIO pin map (TOML) and print its wiring table; --svg draws the wiring diagram"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "file", type=Path, nargs="?", default=None, help="the pin map (default: the packaged example)"
    )
    parser.add_argument("--svg", type=Path, default=None, help="write the wiring diagram here (- for stdout)")


def run(args: argparse.Namespace) -> int:
    try:
        pinmap = PinMap.example() if args.file is None else PinMap.load(args.file)
    except PinMapError as exc:
        print(f"referee pinmap: {exc}", file=sys.stderr)
        return 1
    if args.svg is not None:
        svg = wiring_svg(pinmap)
        if str(args.svg) == "-":
            sys.stdout.write(svg)
            return 0
        args.svg.write_text(svg, encoding="utf-8")
    print(wiring_table(pinmap))
    return 0


def wiring_table(pinmap: PinMap) -> str:
    """The pin map as a plain-text table a person can wire from."""
    window = pinmap.tie_window_ns
    if window is None:
        window = TIE_WINDOW_NS[CLOCK_OF_FACTORY[pinmap.factory]]
    lines = [
        f"{pinmap.source}: OK, {len(pinmap.seats)} seat(s), pin factory {pinmap.factory}",
        f"glitch {format_ns(pinmap.debounce.glitch_ns)}, quiet {format_ns(pinmap.debounce.quiet_ns)}, "
        f"tie window {format_ns(window)}",
        "",
        f"{'what':<22} {'GPIO':>6} {'header pin':>11}",
    ]
    for gpio, use in pinmap.uses():
        lines.append(f"{use:<22} {'GPIO' + str(gpio):>6} {BOARD_OF_GPIO[gpio]:>11}")
    far = "GND" if pinmap.pull_up else "3V3"
    lines += ["", f"buttons: GPIO → switch → {far}; LEDs: GPIO → 330 Ω → LED → GND"]
    return "\n".join(lines)
