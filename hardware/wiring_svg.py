"""The wiring diagram of a pin map, drawn as an SVG string (a pure function of the pin map).

The 40-pin header as seen from above with the board's USB/Ethernet ports pointing down
(pin 1, square pad, at the top left), every pin in use labelled with what goes there in its
seat's colour, and the three small circuits every seat repeats. The display's setup page
shows it; ``docs/wiring.svg`` is this function applied to the example pin map:

    python -m hardware.wiring_svg > docs/wiring.svg            # the example map
    python -m hardware.wiring_svg /etc/referee/pinmap.toml      # your own

>>> from hardware.pinmap import PinMap
>>> svg = wiring_svg(PinMap.example())
>>> svg.startswith("<svg") and "seat 8 button" in svg
True
"""

from __future__ import annotations

import sys
from html import escape

from hardware.pin_factory import CLOCK_OF_FACTORY
from hardware.pinmap import BUS_PINS, HEADER, ID_EEPROM_PINS, PinMap
from hardware.seats import SEAT_COLOURS
from hardware.timing import TIE_WINDOW_NS, format_ns

WIDTH = 980
ROW = 26
TOP = 96
LEFT_PIN_X = 470  # odd pins
RIGHT_PIN_X = 510  # even pins
SUPPLY_COLOURS = {"GND": "#222", "3V3": "#e08a00", "5V": "#c0392b"}
PAPER, INK, MUTED = "#fbfbf8", "#1d1d1d", "#9a9a9a"
FONT = 'font-family="DejaVu Sans, Verdana, sans-serif"'


def wiring_svg(pinmap: PinMap) -> str:
    """The pin map's wiring diagram as a standalone SVG document."""
    uses = _uses_by_gpio(pinmap)
    height = TOP + 20 * ROW + 250
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" '
        f'height="{height}" role="img" aria-label="GPIO wiring of the table referee" {FONT}>',
        f'<rect width="{WIDTH}" height="{height}" fill="{PAPER}"/>',
        f'<text x="24" y="36" font-size="22" font-weight="bold" fill="{INK}">Table referee: GPIO wiring</text>',
        f'<text x="24" y="62" font-size="13" fill="{INK}">{escape(_subtitle(pinmap))}</text>',
        f'<text x="{LEFT_PIN_X - 20}" y="{TOP - 18}" font-size="12" fill="{MUTED}" text-anchor="end">'
        "header J8 from above, USB ports pointing down: pin 1 (square) top left</text>",
        f'<rect x="{LEFT_PIN_X - 16}" y="{TOP - 14}" width="{RIGHT_PIN_X - LEFT_PIN_X + 32}" '
        f'height="{20 * ROW + 2}" rx="4" fill="#2b2b2b"/>',
    ]
    for board, what in HEADER.items():
        parts.append(_pin(board, what, uses))
    parts.append(_circuits(TOP + 20 * ROW + 20, pinmap))
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _subtitle(pinmap: PinMap) -> str:
    seats = len(pinmap.seats)
    extra = []
    if pinmap.buzzer is not None:
        extra.append("a passive piezo" if pinmap.buzzer_tonal else "an active buzzer")
    if pinmap.caller is not None:
        extra.append("a caller button")
    tail = f", {' and '.join(extra)}" if extra else ""
    return (
        f"{seats} seat{'s' if seats != 1 else ''}{tail}; pin factory {pinmap.factory}; from {pinmap.source}"
    )


def _uses_by_gpio(pinmap: PinMap) -> dict[int, tuple[str, str]]:
    """GPIO → (label, colour)."""
    out: dict[int, tuple[str, str]] = {}
    for s in pinmap.seats:
        colour = SEAT_COLOURS[(s.seat - 1) % len(SEAT_COLOURS)]
        name = f"seat {s.seat}" + (f" ({s.label})" if s.label else "")
        colour = _darker(colour)  # the light seat colours (yellow, cyan) are unreadable on paper
        out[s.button] = (f"{name} button", colour)
        if s.led is not None:
            out[s.led] = (f"{name} LED", colour)
    if pinmap.buzzer is not None:
        out[pinmap.buzzer] = ("buzzer", INK)
    if pinmap.caller is not None:
        out[pinmap.caller] = ("caller button", INK)
    return out


def _darker(hex_colour: str, keep: float = 0.72) -> str:
    """`hex_colour` mixed towards black, for text on light paper."""
    r, g, b = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return f"#{round(r * keep):02x}{round(g * keep):02x}{round(b * keep):02x}"


def _pin(board: int, what: int | str, uses: dict[int, tuple[str, str]]) -> str:
    row, odd = (board - 1) // 2, board % 2 == 1
    x = LEFT_PIN_X if odd else RIGHT_PIN_X
    y = TOP + row * ROW
    anchor, tx = ("end", x - 26) if odd else ("start", x + 26)
    if isinstance(what, str):
        fill, label, colour, weight = SUPPLY_COLOURS[what], what, INK, "normal"
        if what == "GND":
            label = "GND"
    else:
        use = uses.get(what)
        bus = next((b.upper() for b, pins in BUS_PINS.items() if what in pins), None)
        if use is not None:
            fill, colour, weight = use[1], use[1], "bold"
            label = f"GPIO{what}  {use[0]}" if not odd else f"{use[0]}  GPIO{what}"
        else:
            fill, colour, weight = "#d9d9d9", MUTED, "normal"
            note = "ID EEPROM" if what in ID_EEPROM_PINS else bus
            label = f"GPIO{what}" + (f" ({note})" if note else "")
    shape = (
        f'<rect x="{x - 8}" y="{y - 8}" width="16" height="16" fill="{fill}" stroke="#fff" stroke-width="1.5"/>'
        if board == 1
        else f'<circle cx="{x}" cy="{y}" r="8" fill="{fill}" stroke="#fff" stroke-width="1.5"/>'
    )
    number_fill = INK if fill == "#d9d9d9" else "#fff"
    return (
        f"{shape}"
        f'<text x="{x}" y="{y + 3.5}" font-size="9" text-anchor="middle" fill="{number_fill}">{board}</text>'
        f'<text x="{tx}" y="{y + 4.5}" font-size="13" text-anchor="{anchor}" fill="{colour}" '
        f'font-weight="{weight}">{escape(label)}</text>'
    )


def _circuits(y: int, pinmap: PinMap) -> str:
    """Three small circuits: a seat button, a seat LED, the buzzer."""
    pull = (
        "internal pull-up; add 4.7 kΩ to 3V3 on cables over 2 m"
        if pinmap.pull_up
        else "pull-down: switch to 3V3, 10 kΩ to GND"
    )
    button_far = "GND" if pinmap.pull_up else "3V3"
    line = f'stroke="{INK}" stroke-width="2" fill="none"'
    parts = [
        f'<text x="24" y="{y + 4}" font-size="15" font-weight="bold" fill="{INK}">Every seat repeats:</text>',
        # the button: GPIO ── ○/○ ── GND
        f'<text x="24" y="{y + 44}" font-size="13" fill="{INK}">button</text>',
        f'<text x="110" y="{y + 44}" font-size="13" fill="{INK}">GPIO</text>',
        f'<path d="M150 {y + 40} H230 M270 {y + 40} H350" {line}/>',
        f'<circle cx="232" cy="{y + 40}" r="3" {line}/><circle cx="268" cy="{y + 40}" r="3" {line}/>',
        f'<path d="M232 {y + 36} L266 {y + 22}" {line}/>',
        f'<text x="358" y="{y + 44}" font-size="13" fill="{INK}">{button_far}</text>',
        _note(430, y + 36, "normally open arcade switch, stamped at its first contact;", f"{pull}."),
        # the LED: GPIO ── 330 Ω ── ▷| ── GND
        f'<text x="24" y="{y + 94}" font-size="13" fill="{INK}">LED</text>',
        f'<text x="110" y="{y + 94}" font-size="13" fill="{INK}">GPIO</text>',
        f'<path d="M150 {y + 90} H180 M220 {y + 90} H250 M272 {y + 90} H350" {line}/>',
        f'<rect x="180" y="{y + 83}" width="40" height="14" {line}/>',
        f'<text x="200" y="{y + 78}" font-size="11" text-anchor="middle" fill="{INK}">330 Ω</text>',
        f'<path d="M250 {y + 80} L250 {y + 100} L270 {y + 90} Z" fill="{INK}"/>',
        f'<path d="M271 {y + 80} V{y + 100}" {line}/>',
        f'<text x="358" y="{y + 94}" font-size="13" fill="{INK}">GND</text>',
        _note(430, y + 86, "long leg (anode) towards the GPIO;", "about 4 mA, well inside a pin's limit."),
    ]
    if pinmap.buzzer is not None:
        kind = "passive piezo, driven with PWM tones" if pinmap.buzzer_tonal else "active 3.3 V buzzer"
        parts += [
            f'<text x="24" y="{y + 144}" font-size="13" fill="{INK}">buzzer</text>',
            f'<text x="110" y="{y + 144}" font-size="13" fill="{INK}">GPIO</text>',
            f'<path d="M150 {y + 140} H230 M270 {y + 140} H350" {line}/>',
            f'<circle cx="250" cy="{y + 140}" r="18" {line}/>',
            f'<text x="250" y="{y + 145}" font-size="14" text-anchor="middle" fill="{INK}">♪</text>',
            f'<text x="358" y="{y + 144}" font-size="13" fill="{INK}">GND</text>',
            _note(
                430,
                y + 136,
                f"{kind}; drawing over 15 mA: switch it through",
                "an NPN transistor (2N2222, 1 kΩ to its base).",
            ),
        ]
    window = pinmap.tie_window_ns
    if window is None:
        window = TIE_WINDOW_NS[CLOCK_OF_FACTORY[pinmap.factory]]
    parts.append(
        _note(
            24,
            y + 190,
            "Run each button on a twisted pair with its own GND wire. The lower GPIO wins an exact coincidence",
            f"(the driver services a bank in pin order); the tie window of {format_ns(window)} covers it: "
            "see docs/timing.md.",
        )
    )
    return "\n".join(parts)


def _note(x: int, y: int, first: str, second: str) -> str:
    return (
        f'<text x="{x}" y="{y}" font-size="12" fill="{MUTED}">{escape(first)}'
        f'<tspan x="{x}" dy="16">{escape(second)}</tspan></text>'
    )


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    pinmap = PinMap.load(args[0]) if args else PinMap.example()
    sys.stdout.write(wiring_svg(pinmap))
    return 0


if __name__ == "__main__":
    sys.exit(main())
