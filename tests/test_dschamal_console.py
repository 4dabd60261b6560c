"""What the console and the display get: headers and options, actions, summary, the SVG picture."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

import pytest
from test_dschamal_support import Table, position, press

from referee.fold import Fold
from referee.games import engine_for
from referee.games.base import EventError, GameHeader
from referee.games.dschamal.stones import SHAPES
from referee.games.dschamal.svg import glyph, render

SVG = "{http://www.w3.org/2000/svg}"


def test_the_engine_is_found_by_name_with_its_variants_and_options() -> None:
    engine = engine_for("dschamal")
    assert engine.variants == ("duel", "tower", "trio", "quartet")
    names = [o.name for o in engine.options]
    assert names[0] == "winning_stones" and engine.options[0].default == "out-of-bag"
    assert {
        "false_start",
        "slower_camel_call",
        "loser_only_winning",
        "duel_order",
        "simultaneous_seven",
    } <= set(names)
    assert {"tower_owned_elsewhere", "tower_two_stones", "trio_fastest_stone", "shape_names"} <= set(names)


@pytest.mark.parametrize(
    ("variant", "players", "options", "message"),
    [
        ("tower", 7, {}, "played by 3 to 6 players"),
        ("quartet", 7, {}, "played by 3 to 6 players"),
        ("duel", 3, {"winning_stones": "sometimes"}, "cannot be 'sometimes'"),
        ("duel", 3, {"shape_names": {"shape-13": "cone"}}, "unknown shape id"),
        ("duel", 3, {"shape_names": "cone"}, "must map shape ids"),
        ("duel", 3, {"colour": "red"}, "unknown option"),
    ],
)
def test_headers_the_game_cannot_start_are_refused(
    variant: str, players: int, options: dict, message: str
) -> None:
    with pytest.raises(EventError, match=message):
        Fold.start(GameHeader("dschamal", variant, tuple(f"P{i}" for i in range(players)), options))


def test_shape_names_are_configurable() -> None:
    table = position(
        "duel",
        {"Marc": ["shape-6/blue"], "Anne": ["egg/blue"], "Herman": [], "Carl": [], "Werner": []},
        next=("Marc", "Anne"),
        shape_names={"shape-6": "cone"},
    )
    table.duel("Marc", "shape-6/white")
    assert "already owns a cone and keeps the white cone" in table.summary["last"]
    assert table.summary["shape_names"]["shape-6"] == "cone"


def test_a_new_game_asks_for_the_starting_stones_then_the_first_player() -> None:
    table = Table("duel")
    engine = table.fold.engine
    actions = engine.actions(table.state)
    assert [a.type for a in actions] == ["start"] * 5
    assert actions[0].fixed == {"player": "Marc"}
    defaults = [a.fields[0].default[0] for a in actions]
    assert len(set(defaults)) == 5  # the suggestions do not collide
    for action in actions:
        table.send({"type": "start", **action.fixed, "stones": action.fields[0].default})
    [first] = engine.actions(table.state)
    assert first.type == "first" and first.fields[0].kind == "seat"
    assert "shortest fingers" in first.label
    assert engine.contest(table.state) is None


def test_the_contest_request_for_duels_and_trios() -> None:
    duel = position("duel", {"Marc": ["ball/blue"]}, next=("Marc", "Anne"))
    request = duel.request()
    assert request.to_json() == {
        "seats": ["Marc", "Anne"],
        "label": "Duel: Marc against Anne",
        "call": "Dschamál!",
        "needs": "first",
        "timeout_s": 20.0,
        "key": "",
        "call_delay": "random",
        "auto_arm": False,
    }
    trio = position("trio", {"Marc": ["ball/yellow"]}, next=("Werner", "Marc", "Anne"))
    assert trio.request().needs == "order"


def test_the_draw_form_lists_the_legal_stones_and_who_may_call() -> None:
    table = position("duel", {"Marc": ["ball/blue"], "Anne": ["egg/blue"]}, next=("Marc", "Anne"))
    table.send(press("Anne", "Marc"))
    draw, several = table.fold.engine.actions(table.state)
    assert draw.type == "draw" and draw.fixed == {"player": "Anne"}
    stone, calls = draw.fields
    assert len(stone.choices) == 46 + 2  # coloured stones in the bag, black, the camel
    assert "ball/blue" not in stone.choices
    assert calls.kind == "seats" and calls.choices == ("Marc", "Anne") and not calls.required
    assert several.type == "several"
    assert [f.name for f in several.fields] == ["coloured", "black", "camel"]
    assert several.fields[1].choices == tuple(range(11))


def test_the_summary_has_what_the_display_needs() -> None:
    table = position(
        "duel",
        {"Marc": ["ball/blue"], "Anne": ["egg/blue"]},
        next=("Anne", "Herman"),
        lord="Anne",
        winning={"Carl": ["disc/blue", "disc/yellow", "disc/white", "disc/brown"]},
    )
    summary = table.summary
    json.dumps(summary)
    assert summary["scores"] == {"Marc": 0, "Anne": 0, "Herman": 0, "Carl": 4, "Werner": 0}
    assert summary["winner"] is None and summary["finished"] is False
    assert summary["players"]["Carl"]["winning"] == ["disc/blue", "disc/yellow", "disc/white", "disc/brown"]
    assert summary["players"]["Marc"]["stones"] == ["ball/blue"]
    assert summary["bag"] == {"count": 59 - 6, "coloured": 42, "black": 10, "camel": True}
    assert summary["lord"] == "Anne" and summary["next"] == ["Anne", "Herman"]
    assert summary["awaiting"] == {
        "kind": "contest",
        "players": ["Anne", "Herman"],
        "text": summary["awaiting"]["text"],
    }


def test_the_summary_after_a_duel_names_whose_input_is_awaited() -> None:
    table = position(
        "duel", {"Marc": ["ball/blue"], "Anne": ["egg/blue", "egg/white"]}, next=("Marc", "Anne")
    )
    table.duel("Anne", "black")
    assert table.summary["awaiting"]["kind"] == "take"
    assert table.summary["awaiting"]["players"] == ["Marc"]


def test_every_shape_has_its_own_glyph() -> None:
    pictures = {glyph(shape, 0, 0, 10, "#fff") for shape in SHAPES}
    assert len(pictures) == len(SHAPES)
    for picture in pictures:
        ET.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">{picture}</svg>')


def test_the_picture_shows_stones_winning_stones_bag_lord_and_pairing() -> None:
    table = position(
        "duel",
        {"Marc": ["ball/blue", "narrow-roof/white"], "Anne": ["egg/blue"]},
        next=("Anne", "Herman"),
        lord="Anne",
        winning={"Carl": ["disc/blue", "disc/yellow", "disc/white", "disc/brown"]},
        shape_names={"shape-6": "cone"},
    )
    svg = render(table.state)
    root = ET.fromstring(svg)
    stones = [g.get("data-stone") or "" for g in root.iter(f"{SVG}g") if g.get("class") == "stone"]
    assert sorted(stones) == sorted(
        ["ball/blue", "narrow-roof/white", "egg/blue", "disc/blue", "disc/yellow", "disc/white", "disc/brown"]
    )
    text = " ".join("".join(t.itertext()) for t in root.iter(f"{SVG}text"))
    assert "bag: 52 stones" in text
    assert "lord of the stones: Anne" in text
    assert "next duel: Anne against Herman" in text
    titles = [t.text for t in root.iter(f"{SVG}title")]
    assert "white narrow roof" in titles and "winning stones" in titles
    assert render(table.state) == svg  # a pure function of the state


def test_the_tower_picture_stacks_the_towers_and_shows_black_stones() -> None:
    table = position(
        "tower",
        {"Marc": ["ball/blue", "disc/blue", "block/white"]},
        next=("Marc", "Anne"),
        players=("Marc", "Anne", "Herman"),
        black={"Anne": 2},
    )
    root = ET.fromstring(render(table.state))
    titles = [t.text for t in root.iter(f"{SVG}title")]
    assert titles.count("a black stone") == 2
    text = " ".join("".join(t.itertext()) for t in root.iter(f"{SVG}text"))
    assert "The Dschamál Tower" in text and "2 black" in text


def test_the_decision_stone_is_drawn_in_the_middle() -> None:
    table = position("duel", {}, next=("Marc", "Anne"))
    table.send({"type": "decision", "stone": "egg/white"})
    root = ET.fromstring(table.fold.engine.render_svg(table.state))
    text = " ".join("".join(t.itertext()) for t in root.iter(f"{SVG}text"))
    assert "decision stone:" in text
    assert "egg/white" in [g.get("data-stone") for g in root.iter(f"{SVG}g")]
