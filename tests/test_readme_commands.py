"""The README's `referee` command block names only commands and options the CLI has.

The README is the front door: an option spelled there that the parser refuses is the first
thing a new user types and the first error they see.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from referee.cli import build_parser

README = Path(__file__).resolve().parents[1] / "README.md"


def _command_block() -> list[str]:
    text = README.read_text(encoding="utf-8")
    start = text.index("## The `referee` command")
    block = text[start:].split("```text", 1)[1].split("```", 1)[0]
    return block.splitlines()


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:  # argparse keeps the sub-commands nowhere public
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    raise AssertionError("the referee parser has no sub-commands")


def _documented() -> dict[str, set[str]]:
    """Sub-command → the options the README shows for it (continuation lines included)."""
    found: dict[str, set[str]] = {}
    command = None
    for line in _command_block():
        head = re.match(r"referee ([a-z-]+)", line)
        if head:
            command = head.group(1)
            found.setdefault(command, set())
        elif not line.startswith(" "):
            command = None
        if command is not None:
            code = line.split("#", 1)[0]  # comments describe, they are not options
            found[command] |= set(re.findall(r"--[a-z][a-z-]*", code))
    return found


def test_the_readme_lists_commands():
    documented = _documented()
    assert {"serve", "read-board", "read-dice", "markers"} <= set(documented)
    assert "--board-camera" in documented["serve"]


def test_every_command_and_option_in_the_readme_is_the_clis():
    commands = _subparsers(build_parser())
    for command, options in _documented().items():
        assert command in commands, f"README names `referee {command}`, which the CLI lacks"
        known = {s for a in commands[command]._actions for s in a.option_strings}
        missing = options - known
        assert not missing, f"README's `referee {command}` shows {sorted(missing)}, unknown to the CLI"
