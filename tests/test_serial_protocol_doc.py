"""docs/protocol.md stays true: its examples and CRC test vectors are checked byte for byte."""

from __future__ import annotations

import re
from pathlib import Path

from firmware.crc16 import crc16
from firmware.framing import CommandError, parse_command
from hardware.serial_frames import Frame, parse_line

DOC = (Path(__file__).resolve().parent.parent / "docs" / "protocol.md").read_text(encoding="utf-8")


def example_lines() -> list[tuple[str, bytes]]:
    blocks = re.findall(r"```protocol-example\n(.*?)```", DOC, flags=re.S)
    assert len(blocks) == 2
    return [(line[0], line[2:].encode()) for block in blocks for line in block.splitlines()]


def test_every_example_frame_is_valid_and_every_command_parses_or_is_refused_for_its_crc() -> None:
    lines = example_lines()
    assert len(lines) > 20
    for i, (direction, line) in enumerate(lines):
        if direction == "<":
            assert isinstance(parse_line(line), Frame), line
        else:
            assert direction == ">"
            try:
                parse_command(line)
            except CommandError as exc:
                assert exc.code == "crc"
                reply = parse_line(lines[i + 1][1])
                assert isinstance(reply, Frame) and reply.kind == "ERR" and reply.args == ("crc",)


def test_crc_test_vectors_of_the_doc() -> None:
    vectors = re.findall(r'`"([^"`]*)"` → `([0-9A-F]{4})`', DOC)
    assert len(vectors) == 4
    for text, crc in vectors:
        assert f"{crc16(text.encode()):04X}" == crc, text
