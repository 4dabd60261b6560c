"""The examples in the docstrings of the firmware and serial-link modules are true."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "firmware.crc16",
    "firmware.edges",
    "firmware.framing",
    "firmware.core",
    "hardware.serial_frames",
    "hardware.serial_sequence",
    "hardware.serial_clock",
    "hardware.pico_sim",
    "hardware.serial_link",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
