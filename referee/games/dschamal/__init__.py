"""Dschamál (Zoch, 2005): the Duel, the Tower, the Trio and the Quartet for children.

Rules: /work/shared/rules/dschamal.txt; the event vocabulary, options and every reading of an
ambiguous passage: docs/games/dschamal.md.
"""

from __future__ import annotations

from referee.games.dschamal.engine import DschamalEngine

ENGINE = DschamalEngine()

__all__ = ["ENGINE", "DschamalEngine"]
