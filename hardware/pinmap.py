"""The GPIO pin map: which header pin each seat button, seat LED, the buzzer and the caller use.

Read from TOML (example: ``referee/data/pinmap.example.toml``) and checked at start, so a
wiring mistake is a clear message before game night, not a dead button during it:

- every pin is a GPIO of the 40-pin header, named ``17``, ``"GPIO17"``, ``"BCM17"``,
  ``"BOARD11"`` or ``"J8:11"`` (the last two are physical header positions);
- no pin is used twice;
- pins of the I²C, SPI and UART buses are refused unless that bus is listed in
  ``allow_bus_pins`` (you switched it off), and GPIO0/1 (the HAT ID EEPROM) always are;
- 1 to 8 seats, numbered 1..8, each at most once;
- unknown keys are refused (a typo such as ``buton`` must not silently drop a seat).

>>> pm = PinMap.from_toml('[[seat]]\\nbutton = 17\\n[[seat]]\\nbutton = "BOARD13"\\nled = 22')
>>> [(s.seat, s.button, s.led) for s in pm.seats]
[(1, 17, None), (2, 27, 22)]
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from importlib import resources
from pathlib import Path
from typing import Any

from hardware.debounce import DebounceSettings

MAX_SEATS = 8
FACTORIES = ("lgpio", "rpigpio", "native", "mock")

# The 40-pin header (J8) of every Pi since the B+: physical position → GPIO number, or the
# supply it carries. Cross-checked against gpiozero's own board data in tests/test_pinmap.py.
HEADER: Mapping[int, int | str] = {
    1: "3V3", 2: "5V", 3: 2, 4: "5V", 5: 3, 6: "GND", 7: 4, 8: 14, 9: "GND", 10: 15,
    11: 17, 12: 18, 13: 27, 14: "GND", 15: 22, 16: 23, 17: "3V3", 18: 24, 19: 10, 20: "GND",
    21: 9, 22: 25, 23: 11, 24: 8, 25: "GND", 26: 7, 27: 0, 28: 1, 29: 5, 30: "GND",
    31: 6, 32: 12, 33: 13, 34: "GND", 35: 19, 36: 16, 37: 26, 38: 20, 39: "GND", 40: 21,
}  # fmt: skip
BOARD_OF_GPIO: Mapping[int, int] = {g: b for b, g in HEADER.items() if isinstance(g, int)}

# Pins that belong to a bus the Pi OS enables or that a HAT needs.
BUS_PINS: Mapping[str, frozenset[int]] = {
    "i2c": frozenset({2, 3}),  # I²C1 (SDA, SCL), with 1.8 kΩ pull-ups on the board
    "spi": frozenset({7, 8, 9, 10, 11}),  # SPI0 (CE1, CE0, MISO, MOSI, SCLK)
    "uart": frozenset({14, 15}),  # UART (TXD, RXD), the serial console
}
ID_EEPROM_PINS = frozenset({0, 1})  # I²C0 for the HAT ID EEPROM: never usable


class PinMapError(ValueError):
    """A pin map that cannot be used; the message says where and what to change."""


@dataclass(frozen=True)
class SeatPins:
    """One seat: its button and (optionally) its LED, as GPIO numbers."""

    seat: int
    button: int
    led: int | None = None
    label: str = ""


@dataclass(frozen=True)
class PinMap:
    """A checked pin map. Build it with `from_toml`, `load` or `example`."""

    seats: tuple[SeatPins, ...]
    factory: str = "lgpio"
    pull_up: bool = True  # buttons wired GPIO → switch → GND (the internal pull-up holds high)
    buzzer: int | None = None
    buzzer_tonal: bool = False  # a passive piezo driven by PWM tones (gpiozero TonalBuzzer)
    caller: int | None = None  # an optional button that arms a contest
    debounce: DebounceSettings = field(default_factory=DebounceSettings)
    tie_window_ns: int | None = None  # None: the default of the clock (referee.arbitration)
    settle_slack_ns: int = 1_000_000  # wait for edges still on their way from the kernel
    allow_bus_pins: frozenset[str] = frozenset()
    source: str = "<pin map>"

    def __post_init__(self) -> None:
        _check(self)

    @property
    def seat_numbers(self) -> tuple[int, ...]:
        return tuple(s.seat for s in self.seats)

    def seat(self, number: int) -> SeatPins:
        for s in self.seats:
            if s.seat == number:
                return s
        raise KeyError(f"seat {number} is not wired; wired seats: {self.seat_numbers}")

    def uses(self) -> list[tuple[int, str]]:
        """Every pin in use with what it does, in seat order: [(17, "seat 1 button"), ...]."""
        out: list[tuple[int, str]] = []
        for s in self.seats:
            out.append((s.button, f"seat {s.seat} button"))
            if s.led is not None:
                out.append((s.led, f"seat {s.seat} LED"))
        if self.buzzer is not None:
            out.append((self.buzzer, "buzzer"))
        if self.caller is not None:
            out.append((self.caller, "caller button"))
        return out

    @classmethod
    def from_toml(cls, text: str, source: str = "<pin map>") -> PinMap:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise PinMapError(f"{source}: not valid TOML: {exc}") from None
        return cls.from_mapping(data, source)

    @classmethod
    def load(cls, path: str | Path) -> PinMap:
        path = Path(path)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise PinMapError(f"cannot read the pin map {path}: {exc.strerror}") from None
        return cls.from_toml(text, str(path))

    @classmethod
    def example(cls, factory: str | None = None) -> PinMap:
        """The packaged example map (8 seats with LEDs and a buzzer), optionally on `factory`."""
        text = resources.files("referee").joinpath("data/pinmap.example.toml").read_text("utf-8")
        pm = cls.from_toml(text, "referee/data/pinmap.example.toml")
        if factory is not None:
            pm = replace(pm, factory=factory)
        return pm

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], source: str = "<pin map>") -> PinMap:
        """Read the TOML structure (see the example file); raises PinMapError."""
        where = source
        _known(data, {"factory", "pull_up", "allow_bus_pins", "timing", "seat", "buzzer", "caller"}, where)
        factory = data.get("factory", "lgpio")
        if factory not in FACTORIES:
            raise PinMapError(
                f"{where}: factory {factory!r} is unknown; choose one of {', '.join(FACTORIES)} "
                "(lgpio is the one with kernel edge timestamps)"
            )
        pull_up = _bool(data.get("pull_up", True), f"{where}: pull_up")
        buses = data.get("allow_bus_pins", [])
        if not isinstance(buses, list) or any(not isinstance(b, str) or b not in BUS_PINS for b in buses):
            raise PinMapError(
                f"{where}: allow_bus_pins must be a list of bus names among {', '.join(BUS_PINS)}, "
                f"not {buses!r}"
            )

        timing = data.get("timing", {})
        if not isinstance(timing, Mapping):
            raise PinMapError(f"{where}: [timing] must be a table")
        _known(timing, {"glitch_ms", "quiet_ms", "tie_window_us", "settle_slack_ms"}, f"{where} [timing]")
        glitch = _number(timing.get("glitch_ms", 1.0), f"{where} [timing] glitch_ms")
        quiet = _number(timing.get("quiet_ms", 30.0), f"{where} [timing] quiet_ms")
        try:
            debounce = DebounceSettings.from_ms(glitch, quiet)
        except ValueError as exc:
            raise PinMapError(f"{where} [timing]: {exc}") from None
        window_us = timing.get("tie_window_us")
        window_ns = None
        if window_us is not None:
            window_ns = round(_number(window_us, f"{where} [timing] tie_window_us") * 1000)
        slack_ms = _number(timing.get("settle_slack_ms", 1.0), f"{where} [timing] settle_slack_ms")

        raw_seats = data.get("seat", [])
        if not isinstance(raw_seats, list):
            raise PinMapError(f"{where}: seats are written as [[seat]] tables")
        seats = []
        for i, raw in enumerate(raw_seats, start=1):
            at = f"{where} [[seat]] #{i}"
            if not isinstance(raw, Mapping):
                raise PinMapError(f"{at}: must be a table with at least `button = <pin>`")
            _known(raw, {"seat", "button", "led", "label"}, at)
            if "button" not in raw:
                raise PinMapError(f"{at}: no `button = <pin>`; every seat needs its button pin")
            number = raw.get("seat", i)
            if not isinstance(number, int) or isinstance(number, bool):
                raise PinMapError(f"{at}: seat must be a whole number 1..{MAX_SEATS}, not {number!r}")
            led = raw.get("led")
            label = raw.get("label", "")
            if not isinstance(label, str):
                raise PinMapError(f"{at}: label must be text")
            seats.append(
                SeatPins(
                    seat=number,
                    button=parse_pin(raw["button"], f"{at} button"),
                    led=None if led is None else parse_pin(led, f"{at} led"),
                    label=label,
                )
            )

        buzzer, tonal = None, False
        if "buzzer" in data:
            raw = data["buzzer"]
            if not isinstance(raw, Mapping) or "pin" not in raw:
                raise PinMapError(f"{where}: [buzzer] needs `pin = <pin>`")
            _known(raw, {"pin", "tonal"}, f"{where} [buzzer]")
            buzzer = parse_pin(raw["pin"], f"{where} [buzzer] pin")
            tonal = _bool(raw.get("tonal", False), f"{where} [buzzer] tonal")
        caller = None
        if "caller" in data:
            raw = data["caller"]
            if not isinstance(raw, Mapping) or "button" not in raw:
                raise PinMapError(f"{where}: [caller] needs `button = <pin>`")
            _known(raw, {"button"}, f"{where} [caller]")
            caller = parse_pin(raw["button"], f"{where} [caller] button")

        return cls(
            seats=tuple(seats),
            factory=factory,
            pull_up=pull_up,
            buzzer=buzzer,
            buzzer_tonal=tonal,
            caller=caller,
            debounce=debounce,
            tie_window_ns=window_ns,
            settle_slack_ns=round(slack_ms * 1_000_000),
            allow_bus_pins=frozenset(buses),
            source=source,
        )


_PIN_NAME = re.compile(r"^(?:(GPIO|BCM)|(BOARD|J8:))(\d+)$", re.IGNORECASE)


def parse_pin(value: object, where: str = "pin") -> int:
    """A pin as a GPIO number, from 17, "GPIO17", "BCM17", "BOARD11" or "J8:11".

    >>> parse_pin("BOARD11"), parse_pin("gpio17"), parse_pin(17)
    (17, 17, 17)
    """
    accepted = 'write 17, "GPIO17", "BOARD11" or "J8:11"'
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise PinMapError(f"{where}: {value!r} is not a pin name; {accepted}")
    if isinstance(value, int):
        gpio = value
    else:
        m = _PIN_NAME.match(value.strip())
        if m is None:
            raise PinMapError(f"{where}: {value!r} is not a pin name; {accepted}")
        number = int(m.group(3))
        if m.group(1):
            gpio = number
        else:
            if number not in HEADER:
                raise PinMapError(f"{where}: the header has pins 1..40, not {number}")
            supply = HEADER[number]
            if not isinstance(supply, int):
                raise PinMapError(f"{where}: header pin {number} is {supply}, not a GPIO")
            gpio = supply
    if gpio not in BOARD_OF_GPIO:
        raise PinMapError(f"{where}: the 40-pin header has GPIO0..GPIO27, not GPIO{gpio}")
    return gpio


def _check(pm: PinMap) -> None:
    where = pm.source
    if not pm.seats:
        raise PinMapError(f"{where}: no seats; add a [[seat]] table with `button = <pin>` per seat")
    if len(pm.seats) > MAX_SEATS:
        raise PinMapError(f"{where}: {len(pm.seats)} seats; the referee handles at most {MAX_SEATS}")
    numbers = [s.seat for s in pm.seats]
    for n in numbers:
        if not 1 <= n <= MAX_SEATS:
            raise PinMapError(f"{where}: seat {n} is out of range; seats are numbered 1..{MAX_SEATS}")
        if numbers.count(n) > 1:
            raise PinMapError(f"{where}: seat {n} is listed twice; give each [[seat]] its own number")
    first_use: dict[int, str] = {}
    for gpio, use in pm.uses():
        if gpio in first_use:
            raise PinMapError(
                f"{where}: GPIO{gpio} (header pin {BOARD_OF_GPIO[gpio]}) is used twice: "
                f"{first_use[gpio]} and {use}; give each its own pin"
            )
        first_use[gpio] = use
        if gpio in ID_EEPROM_PINS:
            raise PinMapError(
                f"{where}: {use} on GPIO{gpio} (header pin {BOARD_OF_GPIO[gpio]}): GPIO0 and GPIO1 "
                "are reserved for the HAT ID EEPROM; choose another pin"
            )
        for bus, pins in BUS_PINS.items():
            if gpio in pins and bus not in pm.allow_bus_pins:
                raise PinMapError(
                    f"{where}: {use} on GPIO{gpio} (header pin {BOARD_OF_GPIO[gpio]}) is a pin of the "
                    f"{bus.upper()} bus; choose another pin, or switch {bus.upper()} off and add "
                    f'"{bus}" to allow_bus_pins'
                )
    if pm.factory not in FACTORIES:
        raise PinMapError(f"{where}: factory {pm.factory!r} is unknown; choose one of {', '.join(FACTORIES)}")
    if pm.tie_window_ns is not None and not 0 <= pm.tie_window_ns <= 1_000_000_000:
        raise PinMapError(f"{where}: the tie window must lie between 0 and 1 s")
    if not 0 <= pm.settle_slack_ns <= 100_000_000:
        raise PinMapError(f"{where}: settle_slack_ms must lie between 0 and 100 ms")


def _known(table: Mapping[str, Any], keys: set[str], where: str) -> None:
    unknown = sorted(set(table) - keys)
    if unknown:
        raise PinMapError(
            f"{where}: unknown key{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))}; "
            f"known keys: {', '.join(sorted(keys))}"
        )


def _bool(value: object, where: str) -> bool:
    if not isinstance(value, bool):
        raise PinMapError(f"{where} must be true or false, not {value!r}")
    return value


def _number(value: object, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        raise PinMapError(f"{where} must be a number, 0 or more, not {value!r}")
    return float(value)
