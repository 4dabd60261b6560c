"""What the console and the display get: complete actions, and the picture of the race."""

from __future__ import annotations

import doctest
import json
import random
from typing import Any
from xml.etree import ElementTree

import pytest
from test_camel_rules import THREE, at, flip, summary

from referee.fold import Fold
from referee.games.base import Action, EventError, GameHeader, choice_value
from referee.games.camel import ENGINE, ring, state, tiles
from referee.games.camel.state import CamelState

SVG = "{http://www.w3.org/2000/svg}"


def fill_form(action: Action, rng: random.Random, stringly: bool) -> dict[str, Any] | None:
    """What a generic form console posts for `action`, or None if it needs typing it cannot guess."""
    event: dict[str, Any] = {"type": action.type, **action.fixed}
    for field in action.fields:
        if field.choices:
            value = choice_value(rng.choice(field.choices))
            # A form may send a choice back as text: "2,5" for [2, 5], "4" for 4.
            if stringly and not isinstance(value, bool):
                value = ",".join(map(str, value)) if isinstance(value, list) else str(value)
            if field.required or rng.random() < 0.5:
                event[field.name] = value
        elif field.kind in ("int", "seed"):
            event[field.name] = rng.randint(0, 10**6)
        elif field.required:
            return None
    return event


@pytest.mark.parametrize(
    ("players", "stringly"), [(THREE, False), (("Anne", "Marc"), True), (tuple("ABCDE"), False)]
)
def test_a_form_console_plays_a_night_using_only_the_actions(
    players: tuple[str, ...], stringly: bool
) -> None:
    rng = random.Random(len(players))
    fold = Fold.start(GameHeader("camel", "standard", players, {"remember_under": True}))
    races = 0
    for _ in range(3000):
        actions = list(ENGINE.actions(fold.state))
        json.dumps([a.to_json() for a in actions])  # the console receives them as JSON
        if not actions:
            break
        wanted = (
            [a for a in actions if a.type != "end"] if races < 2 else [a for a in actions if a.type == "end"]
        )
        events = [e for a in wanted if (e := fill_form(a, rng, stringly)) is not None]
        fold.apply(rng.choice(events))  # never refused
        races = fold.state.races_won()
    s = fold.summary()
    assert s["finished"] and sum(s["scores"].values()) == 2


def test_the_flip_action_lists_exactly_the_tiles_that_may_be_turned() -> None:
    s = at(THREE, {"Anne": 3, "Bea": 6, "Carl": 8}, marker=3, turn="Bea")
    s = flip(s, 1, [1, 1]).state  # oasis
    s = flip(s, 5, [4, 6]).state  # oasis again: (1, 1) and (4, 6) are barred now
    listed = {tuple(choice_value(t)) for t in ENGINE.actions(s)[0].fields[0].choices}
    for row in range(1, 6):
        for column in range(1, 7):
            try:
                ENGINE.apply(s, {"type": "flip", "tile": [row, column], "shows": 1})
                accepted = True
            except EventError:
                accepted = False
            assert accepted == ((row, column) in listed)
    assert len(listed) == 28


def test_the_start_action_lists_every_card_and_player() -> None:
    s = ENGINE.new_game(GameHeader("camel", "standard", THREE, {}))
    s = ENGINE.apply(s, {"type": "deal", "seed": 4}).state
    (start, *_rest) = ENGINE.actions(s)
    assert start.type == "start"
    assert {f.name: f.choices for f in start.fields} == {"card": tuple(range(1, 17)), "first": THREE}


# --- the picture --------------------------------------------------------------------------------


def parse(s: CamelState) -> ElementTree.Element:
    return ElementTree.fromstring(ENGINE.render_svg(s))


def by_id(tree: ElementTree.Element) -> dict[str, ElementTree.Element]:
    return {e.get("id") or "": e for e in tree.iter() if e.get("id")}


def test_the_picture_before_a_race_shows_the_ring_and_waiting_camels() -> None:
    s = ENGINE.new_game(GameHeader("camel", "standard", THREE, {}))
    ids = by_id(parse(s))
    assert {f"card-{n}" for n in range(1, 17)} <= set(ids)
    assert ids["card-1"].get("data-kind") == "unknown"
    assert [ids[f"camel-{n}"].get("data-status") for n in range(3)] == ["waiting"] * 3
    assert "marker" not in ids


def test_the_picture_draws_the_ring_the_tiles_the_camels_and_the_stone() -> None:
    s = at(THREE, {"Anne": 3, "Bea": 6, "Carl": 16}, marker=3, turn="Carl")
    s = flip(s, 4, [2, 3]).state  # Carl overhauls Anne
    tree = parse(s)
    ids = by_id(tree)
    assert tree.get("data-phase") == "turn"
    assert [ids[f"card-{n}"].get("data-kind") for n in (1, 3, 5)] == ["oasis", "desert", "snake"]
    assert len([e for e in ids if e.startswith("tile-")]) == 30
    assert ids["tile-2-3"].get("data-last") == "true"
    assert [t.text for t in ids["tile-2-3"].iter(f"{SVG}text")] == ["4"]
    anne, bea, carl = (ids[f"camel-{n}"] for n in range(3))
    assert anne.get("data-status") == "out" and "out" in (anne.get("class") or "")
    assert bea.get("data-card") == "6" and carl.get("data-card") == "4"
    assert "translate(" in (carl.get("style") or "")  # moved by a CSS transform: the display can animate it
    assert ids["marker"].get("data-card") == "4"
    assert "transition" in (tree.find(f"{SVG}style").text or "")  # type: ignore[union-attr]
    assert ids["race-status"].text == "Bea to play"  # Anne is out


def test_the_picture_names_the_winner() -> None:
    s = at(THREE, {"Anne": 3, "Carl": 16}, marker=3, turn="Carl", out=["Bea"])
    s = flip(s, 3).state
    assert by_id(parse(s))["race-status"].text == "Carl wins race 1!"
    s = ENGINE.apply(s, {"type": "end"}).state
    assert by_id(parse(s))["race-status"].text == "Carl wins the night"


def test_names_are_escaped_in_the_picture() -> None:
    players = ("<Anne>", 'Bea "B"')
    s = ENGINE.new_game(GameHeader("camel", "standard", players, {}))
    ids = by_id(parse(s))
    assert ids["camel-0"].get("data-camel") == "<Anne> 1"
    assert ids["camel-2"].get("data-player") == 'Bea "B"'


def test_loose_tiles_show_only_the_last_number() -> None:
    s = at(THREE, {"Anne": 3, "Bea": 6, "Carl": 8}, marker=3, turn="Anne", options={"tile_grid": "loose"})
    s = ENGINE.apply(s, {"type": "flip", "shows": 1}).state
    ids = by_id(parse(s))
    assert not [e for e in ids if e.startswith("tile-")]
    assert ids["last-tile"].text == "last tile: 1"
    assert summary(s)["last_tile"] == {"tile": None, "shows": 1, "camel": "Anne"}


@pytest.mark.parametrize("module", [ring, state, tiles])
def test_the_docstring_examples_hold(module: Any) -> None:
    failures, tried = doctest.testmod(module)
    assert tried and not failures
