"""What the console offers, the contest wanted, the summary and the picture."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET

from referee.fold import Fold
from referee.games.base import choice_value
from referee.games.djam import ENGINE
from referee.games.djam.options import OPTIONS
from tests.test_djam_support import contest, dice, new_game, play, word


def _types(game: Fold) -> list[str]:
    return [a.type for a in game.engine.actions(game.state)]


def test_engine_is_found_by_name() -> None:
    from referee.games import engine_for

    assert engine_for("djam") is ENGINE
    assert ENGINE.variants == ("classic", "unlimited", "open-themes")
    assert {o.name for o in OPTIONS} >= {"pool", "last_silent", "black_penalty", "close_themes", "language"}
    assert all(o.doc for o in OPTIONS)


def test_actions_follow_the_round() -> None:
    game = new_game()
    assert _types(game) == ["dice", "end_game"]
    dice_action = game.engine.actions(game.state)[0]
    fields = {f.name: f for f in dice_action.fields}
    assert set(fields) == {"green", "white", "yellow", "red", "blue", "colour", "theme"}
    assert fields["colour"].choices[-1] == "black" and [choice_value(c) for c in fields["theme"].choices] == [
        1,
        2,
        3,
        4,
        5,
        6,
    ]
    assert fields["theme"].choices[0] == {"value": 1, "label": "1: Personnalités"}
    assert "Personnalités" in dice_action.help
    assert game.engine.contest(game.state) is None  # no contest before the dice

    play(game, dice())
    assert _types(game) == ["word", "order", "end_round", "dice", "end_game"]
    free = game.engine.actions(game.state)[0]
    assert {f.name for f in free.fields} >= {"player", "word", "noun", "fits", "root"}

    play(game, contest("Bob", "Ann"))
    bob = game.engine.actions(game.state)[0]
    assert bob.fixed == {"player": "Bob"} and "begin with B" in bob.help
    assert "pass" in _types(game)
    play(game, word("Bob", "Bono"))
    assert "dice" not in _types(game)  # dice are fixed once a word is judged
    json.dumps([a.to_json() for a in game.engine.actions(game.state)])


def test_actions_for_rulings_and_votes() -> None:
    game = new_game(theme_ruling="majority")
    play(
        game,
        dice(colour="white", white="C", theme=3),
        word("Ann", "chat"),
        {"type": "vote", "for": 3, "against": 0},
    )
    play(game, word("Bob", "chaton"))
    offered = game.engine.actions(game.state)
    types = [a.type for a in offered]
    assert types[:3] == ["root", "root", "vote"] and "word" not in types and "end_round" not in types
    assert {a.fixed["same"] for a in offered if a.type == "root"} == {True, False}
    vote = next(a for a in offered if a.type == "vote")
    assert [f.choices for f in vote.fields] == [(0, 1, 2, 3), (0, 1, 2, 3)]
    word_fields = {f.name for f in new_game(theme_ruling="majority").engine.actions(game.state)[0].fields}
    assert "fits" not in word_fields


def test_open_themes_word_offers_only_open_themes() -> None:
    game = new_game("open-themes")
    assert "theme" not in {f.name for f in game.engine.actions(game.state)[0].fields}
    play(game, dice(theme=None), contest("Ann", "Bob"), word("Ann", "Bono", theme=1))
    action = game.engine.actions(game.state)[0]
    theme = next(f for f in action.fields if f.name == "theme")
    assert theme.choices == (2, 3, 4, 5, 6)


def test_contest_request() -> None:
    game = new_game(press_window_s=15)
    play(game, dice(colour="black"))
    request = game.engine.contest(game.state)
    assert request is not None
    assert request.seats == ("Ann", "Bob", "Cat", "Dan") and request.timeout_s == 15.0
    assert "no letter of the dice" in request.label


def test_summary_fields() -> None:
    game = new_game()
    play(game, dice(blue="O"), contest("Ann", "Bob"), word("Ann", "Bono"))
    s = game.summary()
    assert s["required_letter"] == "B"
    assert s["theme"] == {"number": 1, "name": "Personnalités"}
    assert s["dice"] == {"green": "B", "white": "O", "yellow": "R", "red": "V", "blue": "O", "colour": "green",
                         "theme": 1, "required": "B"}  # fmt: skip
    p = s["proposals"][0]
    assert (p["score"], p["scored"], p["status"]) == (3, [0, 1, 3], "valid")
    assert [m["die"] for m in p["matches"]] == ["green", "white", "blue"]
    assert s["speaking_order"] == {"spoken": ["Ann"], "waiting": ["Bob"]}
    assert s["pool"] == 87 and s["centre"] == 0 and s["total"] == 90
    assert s["last_silent"] == 1 and s["winner"] is None
    json.dumps(s)


def test_svg_shows_dice_required_letter_and_highlights() -> None:
    game = new_game()
    play(game, dice(blue="O"), contest("Ann", "Bob"), word("Ann", "Bono"), word("Bob", "Obama"))
    svg = game.engine.render_svg(game.state)
    root = ET.fromstring(svg)
    ns = "{http://www.w3.org/2000/svg}"
    texts = ["".join(t.itertext()) for t in root.iter(f"{ns}text")]
    assert "B" in texts and "Bono" in texts and "Obama" in texts
    required = [t for t in root.iter(f"{ns}text") if t.get("class") == "required"]
    assert required and required[0].text == "B" and int(required[0].get("font-size", "0")) >= 100
    hits = [t.text for t in root.iter(f"{ns}tspan") if t.get("class") == "hit"]
    assert hits == ["B", "o", "o"]  # Bono's scoring letters; Obama was refused
    assert "pool 87" in svg and "Theme 1: Personnalités" in svg


def test_svg_between_rounds_black_and_end() -> None:
    game = new_game(pool=6)
    play(game, dice(colour="black"), word("Ann", "Chuck"))
    svg = game.engine.render_svg(game.state)
    assert "waiting for the dice" in svg and "no letter of the dice" in svg
    assert "Round 1 was: " in svg  # the last round in view is labelled as the last one
    play(game, dice(), word("Bob", "Brejnev"))
    svg = game.engine.render_svg(game.state)
    assert "Game over" in svg and "Ann wins" in svg
    ET.fromstring(svg)
    unlimited = new_game("unlimited")
    assert "centre 8 · set aside 82" in unlimited.engine.render_svg(unlimited.state)
    open_game = new_game("open-themes")
    assert "Open themes" in open_game.engine.render_svg(open_game.state)


def test_escaping_in_the_picture() -> None:
    game = new_game(players=("<Ann>", "Bob & Co"))
    play(game, dice(), word("<Ann>", "Bono"))
    ET.fromstring(game.engine.render_svg(game.state))
