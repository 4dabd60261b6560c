"""Choosing the button input path from one setting (``referee serve --buttons``).

- ``auto``: the Pi's GPIO when running on a Raspberry Pi, else gpiozero's MockFactory with
  virtual buttons (the demo on any laptop);
- ``mock``: gpiozero's MockFactory, whatever the machine;
- ``gpio``: the Pi's GPIO through gpiozero's default pin factory (lgpio);
- ``serial`` or ``serial:PORT``: the RP2040 button timer over USB serial (found by USB id
  when no port is given).

A pin map (TOML, see docs/wiring.md) may follow after a comma: ``gpio,/etc/referee/pins.toml``.
"""

from __future__ import annotations

from pathlib import Path

from hardware.source import ButtonSource


def on_raspberry_pi() -> bool:
    try:
        model = Path("/proc/device-tree/model").read_text(errors="replace")
    except OSError:
        return False
    return "Raspberry Pi" in model


def open_button_source(spec: str) -> ButtonSource:
    kind, _, rest = spec.partition(":")
    kind, _, pinmap = kind.partition(",")
    if kind == "auto":
        kind = "gpio" if on_raspberry_pi() else "mock"
    if kind in ("gpio", "mock"):
        from dataclasses import replace

        from hardware.gpio_buttons import GpioButtonSource
        from hardware.pinmap import PinMap

        pins = PinMap.load(pinmap) if pinmap else PinMap.example()
        if kind == "mock":
            pins = replace(pins, factory="mock")
        return GpioButtonSource(pins)
    if kind == "serial":
        from hardware.serial_link import SerialButtonSource

        return SerialButtonSource.from_spec(f"serial:{rest}" if rest else "serial")
    raise ValueError(f"unknown button input {spec!r}; use auto, mock, gpio or serial[:PORT]")
