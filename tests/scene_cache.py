"""The synthetic scenes the tests read, each rendered once a test run.

A render takes 1–2 s on the CI machine and many test modules read the same tune scenes (tune 4
nine times, tune 2 and 15 seven), so the renders are kept, for this run only, in the folder
that `conftest.py` names in ``REFEREE_TEST_SCENES`` and shares with every xdist worker. Each
call unpickles a fresh copy: a test that draws on its image cannot change another test's.
`tests/test_board_synth.py` calls `vision.board_synth.scene` itself: it tests the renders.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from vision.board_synth import Shot

ENV = "REFEREE_TEST_SCENES"


def scene(split: str, index: int) -> Shot:
    """`vision.board_synth.scene`, through the run's render cache when there is one."""
    # Imported here: conftest imports this module for ENV in every run, board tests or not.
    from bench.bench_board import cached_scene
    from vision.board_synth import scene as render_scene

    folder = os.environ.get(ENV)
    if not folder:
        return render_scene(split, index)
    return cached_scene(Path(folder), split, index)
