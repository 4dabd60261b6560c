"""Djam (William Attia, Asmodée 2010): word rounds scored by the referee.

Dice come from the camera reader or the console, the speaking order from the buttons, each word
from the scorekeeper. Rules and readings: docs/games/djam.md. Modules:

- ``letters``: Unicode and case folding, the letters a word shares with the dice;
- ``roots``: the same-root rule (Snowball stemmer + shared prefixes);
- ``themes``: theme cards, data in ``referee/data/djam/themes.toml``;
- ``model``, ``options``, ``parse``: values, settings, event fields;
- ``play`` (dice, order, rounds), ``words`` (judging a word), ``console``, ``summary``, ``svg``;
- ``engine``: the `ENGINE` the referee finds.
"""

from referee.games.djam.engine import ENGINE, DjamEngine

__all__ = ["ENGINE", "DjamEngine"]
