"""The wiring diagram and the `referee pinmap` command."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from hardware.pinmap import PinMap
from hardware.wiring_svg import wiring_svg
from referee.cli import main

ROOT = Path(__file__).resolve().parent.parent
SVG = "{http://www.w3.org/2000/svg}"


def texts(svg: str) -> list[str]:
    root = ET.fromstring(svg)
    return ["".join(t.itertext()) for t in root.iter(f"{SVG}text")]


def test_the_diagram_labels_every_pin_in_use_and_the_whole_header() -> None:
    svg = wiring_svg(PinMap.example())
    labels = texts(svg)
    assert "seat 1 button  GPIO4" in labels  # odd pin: label on the left
    assert "GPIO23  seat 1 LED" in labels  # even pin: label on the right
    assert "GPIO18  buzzer" in labels
    assert "GPIO14 (UART)" in labels and "GPIO2 (I2C)" in labels  # free bus pins shown as such
    assert [str(n) for n in range(1, 41)] == [t for t in labels if t.isdigit()]
    assert any("tie window of 100 µs" in t for t in labels)


def test_seat_labels_from_the_pin_map_are_escaped() -> None:
    pm = PinMap.from_toml("[[seat]]\nbutton = 4\nlabel = '<Anne & Marc>'\n[caller]\nbutton = 26\n")
    svg = wiring_svg(pm)
    assert "seat 1 (<Anne & Marc>) button  GPIO4" in texts(svg)
    assert "caller button  GPIO26" in texts(svg)


def test_the_diagram_shows_the_window_of_the_pin_factory() -> None:
    pm = PinMap.from_toml("factory = 'native'\n[[seat]]\nbutton = 4\n")
    assert any("tie window of 2.0 ms" in t for t in texts(wiring_svg(pm)))


def test_docs_wiring_svg_is_the_example_drawn_by_the_project() -> None:
    on_disk = (ROOT / "docs" / "wiring.svg").read_text(encoding="utf-8")
    assert on_disk == wiring_svg(PinMap.example()), (
        "regenerate: python -m hardware.wiring_svg > docs/wiring.svg"
    )


def test_the_pinmap_command_prints_the_wiring_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["pinmap"]) == 0
    out = capsys.readouterr().out
    assert "OK, 8 seat(s), pin factory lgpio" in out
    assert "tie window 100 µs" in out
    assert re.search(r"^seat 2 button +GPIO17 +11$", out, re.MULTILINE)


def test_the_pinmap_command_draws_and_refuses(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.toml"
    good.write_text("[[seat]]\nbutton = 'BOARD11'\nled = 24\n")
    assert main(["pinmap", str(good), "--svg", str(tmp_path / "w.svg")]) == 0
    assert "GPIO17" in (tmp_path / "w.svg").read_text()
    bad = tmp_path / "bad.toml"
    bad.write_text("[[seat]]\nbutton = 3\n")
    assert main(["pinmap", str(bad)]) == 1
    assert "I2C bus" in capsys.readouterr().err
