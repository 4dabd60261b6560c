"""The arguments a reader's function is called with on real frames: the speed tests check a
rewrite against its plain form on those (the frames' own arguments, not drawn ones)."""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from types import ModuleType
from typing import Any

Call = tuple[tuple[Any, ...], dict[str, Any]]


def recorded_calls(
    module: ModuleType, name: str, run: Callable[[], object], copied: bool = False
) -> list[Call]:
    """Run ``run()`` with ``module.name`` recording each call's arguments (deep copies with
    ``copied``, for arguments the caller changes in place afterwards), then put it back."""
    calls: list[Call] = []
    original = getattr(module, name)

    def record(*a: Any, **k: Any) -> Any:
        calls.append(copy.deepcopy((a, k)) if copied else (a, k))
        return original(*a, **k)

    setattr(module, name, record)
    try:
        run()
    finally:
        setattr(module, name, original)
    return calls


def analyse_calls(tune_scenes: Iterable[int]) -> list[Call]:
    """`board_surface.analyse`'s arguments on the given tune scenes, as `judge_squares` makes
    them in a stateless read."""
    import vision.board_squares as board_squares
    from tests.scene_cache import scene
    from vision.board_reader import read_board

    def read_all() -> None:
        for index in tune_scenes:
            read_board(scene("tune", index).image)

    return recorded_calls(board_squares, "analyse", read_all)


def calls_within_analyse(name: str, surfaces: list[Call]) -> list[tuple[Any, ...]]:
    """The positional arguments ``board_surface.<name>`` is given while `analyse` reads the
    recorded ``surfaces`` (`analyse_calls`) again."""
    import vision.board_surface as board_surface

    def analyse_all() -> None:
        for a, k in surfaces:
            board_surface.analyse(*a, **k)

    return [a for a, _ in recorded_calls(board_surface, name, analyse_all)]
