"""A game's picture is inlined in the display and console pages: its element ids must not take
the ids the pages' scripts look up (the camel race's "status" once hid the display's status)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from referee.games import engines
from referee.games.base import GameHeader

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
        players = NAMES[: max(engine.min_players, 4 if name == "djambi" else 2)]
        if name == "djambi" and variant != engine.variants[0]:
            players = NAMES[:3]
        try:
            state = engine.new_game(GameHeader(name, variant, players, {}))
        except Exception as exc:  # a variant with other seat counts: its own tests cover it
            pytest.skip(f"{name} {variant}: {exc}")
        svg = engine.render_svg(state)
        ids = set(re.findall(r'\bid="([^"]+)"', svg))
        assert not ids & taken, f"{name} {variant} picture reuses page ids {sorted(ids & taken)}"
