"""A game's picture is inlined in the display and console pages: its element ids must not take
the ids the pages' scripts look up (the camel race's "status" once hid the display's status)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from referee.games import engines
from referee.games.base import EventError, GameHeader

STATIC = Path(__file__).resolve().parents[1] / "referee" / "web" / "static"
NAMES = ("Anne", "Marc", "Zoé", "Louis", "Carl", "Dora", "Eve", "Fay")


def page_ids() -> set[str]:
    ids: set[str] = set()
    for html in STATIC.glob("*.html"):
        ids |= set(re.findall(r'\bid="([^"]+)"', html.read_text()))
    for script in STATIC.rglob("*.js"):  # ids made by scripts: $("x"), getElementById("x")
        ids |= set(re.findall(r'(?:\$|getElementById)\("([\w-]+)"\)', script.read_text()))
    return ids


@pytest.mark.parametrize("name", sorted(engines()))
def test_a_games_picture_takes_no_id_of_the_pages(name: str) -> None:
    engine = engines()[name]
    taken = page_ids()
    assert {"game-status", "scores", "picture", "call-big"} <= taken  # the pages were read
    for variant in engine.variants:
        state = None
        for n in range(engine.min_players, engine.max_players + 1):  # the first table it seats
            try:
                state = engine.new_game(GameHeader(name, variant, NAMES[:n], {}))
                break
            except EventError:
                continue
        assert state is not None, f"{name} {variant} starts with no number of players"
        svg = engine.render_svg(state)
        ids = set(re.findall(r'\bid="([^"]+)"', svg))
        assert not ids & taken, f"{name} {variant} picture reuses page ids {sorted(ids & taken)}"
