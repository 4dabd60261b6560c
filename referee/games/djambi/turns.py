"""Who plays next (djambi.md §1.8), as a pure function.

A cursor walks the base cycle R→B→Y→G over the playing camps; the ruler's extra turns do
not move it. With no ruler the next playing camp after the cursor plays. With a ruler P:
if someone else just moved, P plays; if P just moved, the next playing camp after the
cursor that is not P plays, so P never plays twice in a row and P's own slot is absorbed.
With two camps left, P is not skipped: he plays twice in a row after his opponent
(option two_party_power=double, register A16), or power gives nothing (``none``).

>>> R, B, Y, G = Party
>>> next_turn(R, R, R, (R, B, Y, G), "double")   # Red just took the maze on its own turn
(<Party.BLUE: 1>, <Party.BLUE: 1>)
>>> next_turn(B, B, R, (R, B, Y, G), "double")   # after Blue, the ruler plays; the cursor stays
(<Party.RED: 0>, <Party.BLUE: 1>)
"""

from __future__ import annotations

from collections.abc import Sequence

from referee.games.djambi.pieces import Party


def next_turn(
    mover: Party, cursor: Party, ruler: Party | None, playing: Sequence[Party], two_party_power: str
) -> tuple[Party, Party]:
    """(the party to play next, the new cursor); `playing` needs at least two camps."""
    if ruler is not None and len(playing) == 2 and two_party_power == "none":
        ruler = None
    if ruler is not None and mover != ruler:
        return ruler, cursor
    skip = ruler if ruler is not None and len(playing) > 2 else None
    for step in range(1, len(Party) + 1):
        party = Party((cursor + step) % len(Party))
        if party in playing and party != skip:
            return party, party
    raise ValueError("no camp left to play")
