"""The pin map: the example loads, every wiring mistake is a clear error before game night."""

from __future__ import annotations

from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory
from hypothesis import given
from hypothesis import strategies as st

from hardware.debounce import DebounceSettings
from hardware.pinmap import BOARD_OF_GPIO, HEADER, MAX_SEATS, PinMap, PinMapError, parse_pin


def seats_toml(*buttons: object) -> str:
    return "".join(f"[[seat]]\nbutton = {b!r}\n".replace("'", '"') for b in buttons)


def test_the_example_has_eight_seats_with_leds_and_a_buzzer_on_free_pins() -> None:
    pm = PinMap.example()
    assert pm.seat_numbers == tuple(range(1, 9))
    assert all(s.led is not None for s in pm.seats)
    assert pm.buzzer == 18 and pm.caller is None and pm.factory == "lgpio"
    assert pm.debounce == DebounceSettings(1_000_000, 30_000_000)
    assert len({gpio for gpio, _ in pm.uses()}) == 17


def test_the_example_can_be_opened_on_the_mock_factory() -> None:
    assert PinMap.example("mock").factory == "mock"


def test_the_header_table_agrees_with_gpiozero_board_data() -> None:
    header = MockFactory().board_info.headers["J8"]
    for number, pin in header.pins.items():
        expected = HEADER[number]
        assert pin.name == (f"GPIO{expected}" if isinstance(expected, int) else expected)


@pytest.mark.parametrize(
    ("name", "gpio"),
    [(17, 17), ("GPIO17", 17), ("gpio17", 17), ("BCM4", 4), ("BOARD11", 17), ("J8:40", 21), (" GPIO5 ", 5)],
)
def test_pin_names(name: object, gpio: int) -> None:
    assert parse_pin(name) == gpio


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("GPIO99", "GPIO0..GPIO27"),
        (28, "GPIO0..GPIO27"),
        ("PIN7", "not a pin name"),
        ("BOARD1", "3V3, not a GPIO"),
        ("BOARD6", "GND, not a GPIO"),
        ("BOARD41", "pins 1..40"),
        (True, "not a pin name"),
        (17.0, "not a pin name"),
        ("", "not a pin name"),
    ],
)
def test_unknown_pin_names_are_clear_errors(name: object, message: str) -> None:
    with pytest.raises(PinMapError, match=message):
        parse_pin(name, "seat 1 button")


def test_a_pin_used_twice_names_both_uses() -> None:
    text = "[[seat]]\nbutton = 17\nled = 23\n[[seat]]\nbutton = 27\nled = 23\n"
    with pytest.raises(
        PinMapError, match=r"GPIO23 \(header pin 16\) is used twice: seat 1 LED and seat 2 LED"
    ):
        PinMap.from_toml(text)


def test_a_button_on_the_buzzer_pin_is_refused() -> None:
    with pytest.raises(PinMapError, match="seat 1 button and buzzer"):
        PinMap.from_toml(seats_toml(18) + "[buzzer]\npin = 'BOARD12'\n")


@pytest.mark.parametrize(
    ("pin", "bus"), [(2, "I2C"), (3, "I2C"), (10, "SPI"), (8, "SPI"), (14, "UART"), (15, "UART")]
)
def test_bus_pins_are_refused_with_the_way_out(pin: int, bus: str) -> None:
    with pytest.raises(
        PinMapError, match=rf"{bus} bus; choose another pin, or switch {bus} off .*allow_bus_pins"
    ):
        PinMap.from_toml(seats_toml(pin))


def test_a_bus_switched_off_frees_its_pins() -> None:
    pm = PinMap.from_toml('allow_bus_pins = ["uart"]\n' + seats_toml(4) + "[caller]\nbutton = 14\n")
    assert pm.caller == 14


@pytest.mark.parametrize("pin", [0, 1, "BOARD27"])
def test_the_hat_eeprom_pins_are_always_refused(pin: object) -> None:
    with pytest.raises(PinMapError, match="HAT ID EEPROM"):
        PinMap.from_toml('allow_bus_pins = ["i2c", "spi", "uart"]\n' + seats_toml(pin))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[[seat]]\nbuton = 17\n", r"unknown key 'buton'; known keys: button, label, led, seat"),
        ("factory = 'lgpio'\npinfactory = 'mock'\n" + seats_toml(4), "unknown key 'pinfactory'"),
        (seats_toml(4) + "[timing]\nglitch = 1\n", r"\[timing\]: unknown key 'glitch'"),
        (seats_toml(4) + "[buzzer]\npin = 18\nvolume = 3\n", r"\[buzzer\]: unknown key 'volume'"),
        ("factory = 'pigpio'\n" + seats_toml(4), "factory 'pigpio' is unknown"),
        ("", "no seats"),
        ("[[seat]]\nled = 23\n", "no `button = <pin>`"),
        ("[[seat]]\nseat = 9\nbutton = 4\n", "seat 9 is out of range"),
        ("[[seat]]\nseat = 0\nbutton = 4\n", "seat 0 is out of range"),
        ("[[seat]]\nseat = 2\nbutton = 4\n[[seat]]\nseat = 2\nbutton = 5\n", "seat 2 is listed twice"),
        ("[[seat]]\nseat = '1'\nbutton = 4\n", "seat must be a whole number"),
        ("seat = 4\n", r"\[\[seat\]\] tables"),
        (seats_toml(4) + "[timing]\nglitch_ms = 0\n", "glitch time"),
        (seats_toml(4) + "[timing]\nglitch_ms = 5\nquiet_ms = 2\n", "quiet time"),
        (seats_toml(4) + "[timing]\nglitch_ms = 'fast'\n", "must be a number"),
        (seats_toml(4) + "[timing]\ntie_window_us = 2000000\n", "tie window"),
        ("pull_up = 'yes'\n" + seats_toml(4), "pull_up must be true or false"),
        ("allow_bus_pins = ['usb']\n" + seats_toml(4), "allow_bus_pins must be a list"),
        ("[buzzer]\ntonal = true\n" + seats_toml(4), r"\[buzzer\] needs `pin = <pin>`"),
        ("[caller]\n" + seats_toml(4), r"\[caller\] needs `button = <pin>`"),
        ("[[seat]\nbutton = 4\n", "not valid TOML"),
    ],
)
def test_mistakes_are_clear_errors(text: str, message: str) -> None:
    with pytest.raises(PinMapError, match=message):
        PinMap.from_toml(text, "table.toml")


def test_up_to_eight_seats() -> None:
    free = [4, 17, 27, 22, 5, 6, 13, 19, 26]
    assert len(PinMap.from_toml(seats_toml(*free[:MAX_SEATS])).seats) == MAX_SEATS
    with pytest.raises(PinMapError, match="9 seats; the referee handles at most 8"):
        PinMap.from_toml(seats_toml(*free))


def test_errors_name_the_file(tmp_path: Path) -> None:
    path = tmp_path / "pinmap.toml"
    path.write_text(seats_toml(2))
    with pytest.raises(PinMapError, match=str(path)):
        PinMap.load(path)
    with pytest.raises(PinMapError, match="cannot read the pin map"):
        PinMap.load(tmp_path / "missing.toml")


def test_timing_settings_are_read_in_their_units() -> None:
    pm = PinMap.from_toml(
        seats_toml(4) + "[timing]\nglitch_ms = 0.5\nquiet_ms = 40\ntie_window_us = 250\nsettle_slack_ms = 2\n"
    )
    assert pm.debounce == DebounceSettings(500_000, 40_000_000)
    assert (pm.tie_window_ns, pm.settle_slack_ns) == (250_000, 2_000_000)


def test_seats_may_be_numbered_freely_and_looked_up() -> None:
    pm = PinMap.from_toml("[[seat]]\nseat = 5\nbutton = 4\nlabel = 'Anne'\n[[seat]]\nseat = 2\nbutton = 17\n")
    assert pm.seat_numbers == (5, 2)
    assert pm.seat(5).label == "Anne"
    with pytest.raises(KeyError, match="seat 3 is not wired"):
        pm.seat(3)


@given(st.one_of(st.text(max_size=12), st.integers(-5, 50), st.floats(), st.none(), st.booleans()))
def test_parse_pin_gives_a_header_gpio_or_a_pin_map_error(value: object) -> None:
    try:
        gpio = parse_pin(value)
    except PinMapError:
        return
    assert gpio in BOARD_OF_GPIO


toml_values = st.recursive(
    st.one_of(st.integers(-3, 45), st.text(max_size=8), st.booleans(), st.floats(allow_nan=False)),
    lambda inner: st.lists(inner, max_size=3),
    max_leaves=5,
)
keys = st.sampled_from(["seat", "button", "led", "label", "pin", "tonal", "factory", "glitch_ms", "x"])
tables = st.dictionaries(keys, toml_values, max_size=4)


@given(
    st.dictionaries(
        st.sampled_from(["factory", "pull_up", "allow_bus_pins", "timing", "seat", "buzzer", "caller", "y"]),
        st.one_of(toml_values, tables, st.lists(tables, max_size=9)),
        max_size=5,
    )
)
def test_any_structure_is_a_pin_map_or_a_pin_map_error(data: dict[str, object]) -> None:
    try:
        pm = PinMap.from_mapping(data)
    except PinMapError:
        return
    assert 1 <= len(pm.seats) <= MAX_SEATS
