"""The camel race (Kameltreiber AG, Heinz Meister 1992): a pure rules engine.

Modules: ``ring`` (the 16 cards, the deal), ``tiles`` (the 30 number tiles, what was seen),
``race`` (movement, the marker stone, elimination), ``state`` (options and the night's state),
``engine`` (events → verdicts), ``report`` (summary and console actions), ``svg`` (the picture),
``rules`` (every rule quoted). Rules and readings: docs/games/camel.md.
"""

from referee.games.camel.engine import ENGINE, CamelEngine

__all__ = ["ENGINE", "CamelEngine"]
