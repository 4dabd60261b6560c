"""The udev rule names the device the link looks for, by the USB id the link looks for."""

from __future__ import annotations

import re
from pathlib import Path

from hardware.serial_link import DEFAULT_PORT, PICO_PID, PICO_VID

RULE = Path(__file__).resolve().parent.parent / "systemd" / "99-referee-pico.rules"


def rule_keys() -> dict[str, str]:
    lines = [ln for ln in RULE.read_text().splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    assert len(lines) == 1
    pairs = re.findall(r'([A-Za-z_]+(?:\{[A-Za-z_]+\})?)\s*(==|\+=|=)\s*"([^"]*)"', lines[0])
    assert ", ".join(f'{k}{op}"{v}"' for k, op, v in pairs) == re.sub(r",\s+", ", ", lines[0].strip())
    return {f"{k}{op}": v for k, op, v in pairs}


def test_rule_matches_micropython_on_an_rp2040_and_names_it_for_the_link() -> None:
    keys = rule_keys()
    assert keys["SUBSYSTEM=="] == "tty"
    assert int(keys["ATTRS{idVendor}=="], 16) == PICO_VID
    assert int(keys["ATTRS{idProduct}=="], 16) == PICO_PID
    assert "/dev/" + keys["SYMLINK+="] == DEFAULT_PORT
    assert keys["GROUP="] == "dialout" and keys["MODE="] == "0660"
    assert keys["ENV{ID_MM_DEVICE_IGNORE}="] == "1"
