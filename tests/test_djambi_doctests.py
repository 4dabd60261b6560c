"""The worked examples in the Djambi package's docstrings are tests too."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "__init__",
    "squares",
    "pieces",
    "options",
    "moves",
    "position",
    "board",
    "turns",
    "describe",
    "validate",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module("referee.games.djambi" + ("" if name == "__init__" else f".{name}"))
    result = doctest.testmod(module)
    assert result.failed == 0 and result.attempted > 0
