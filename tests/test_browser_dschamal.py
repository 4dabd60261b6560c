"""Dschamál in the browser: every variant played to its end through the console, with the
duels settled by virtual buttons on the display (issue 5)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.conftest import RunningReferee
from tests.console_bot import ConsoleBot

pytestmark = pytest.mark.browser

PLAYERS = {"duel": ["Marc", "Anne", "Herman"], "tower": ["Marc", "Anne", "Herman"],
           "trio": ["Marc", "Anne", "Herman", "Carl"], "quartet": ["Marc", "Anne", "Herman"]}  # fmt: skip


def shape(stone: str) -> str:
    return stone.split("/")[0]


def smart_draw(game: dict[str, Any], action: dict[str, Any]) -> str:
    """What a lucky hand pulls out of the bag, so games end soon: a shape the drawer owns (he
    wins it), or in the Tower a shape nobody owns (he keeps it and his tower grows)."""
    drawer = action["fixed"]["player"]
    players = game["summary"]["players"]
    choices = [c for c in action["fields"][0]["choices"] if "/" in c]
    if game["variant"] == "tower":
        anyone = {shape(s) for p in players.values() for s in p["tower"]}
        return next((c for c in choices if shape(c) not in anyone), choices[0])
    owned = {shape(s) for s in players[drawer]["stones"]}
    return next((c for c in choices if shape(c) in owned), choices[0])


def play_to_the_end(bot: ConsoleBot, rng: random.Random, max_steps: int = 120) -> dict[str, Any]:
    for _ in range(max_steps):
        game = bot.game()
        if game["summary"]["finished"]:
            return game
        if game["contest"] is not None:
            seats = game["contest"]["seats"]
            # The lord (first seat) is usually faster; everyone presses, so the contest closes at once.
            order = seats if rng.random() < 0.7 else list(reversed(seats))
            bot.contest([(p, 0.03 * i) for i, p in enumerate(order)])
            continue
        actions = [a for a in game["actions"] if a["type"] not in ("judged", "several", "collapse")]
        action = actions[0]
        values: dict[str, Any] = {}
        if action["type"] == "draw":
            values["stone"] = smart_draw(game, action)
        nth = [a for a in game["actions"] if a["type"] == action["type"]].index(action)
        bot.submit(action["type"], values, nth=nth)
    raise AssertionError(f"the game did not end in {max_steps} steps: {bot.game()['summary']['awaiting']}")


@pytest.mark.parametrize("variant", ["duel", "tower", "trio", "quartet"])
def test_each_variant_plays_to_its_end_through_the_console(
    referee_daemon: RunningReferee, page: Any, variant: str
) -> None:
    bot = ConsoleBot(referee_daemon, page.context.new_page(), page)
    bot.open()
    bot.new_game("dschamal", PLAYERS[variant], variant)
    game = play_to_the_end(bot, random.Random(variant))
    summary = game["summary"]
    assert summary["finished"] and (summary["winner"] or summary["winners"])
    # Every verdict cites the rulebook; the contests were decided by the buttons.
    assert all(
        v["rule"]["source"].startswith(("dschamal.txt", "docs/games/dschamal.md")) for v in bot.verdicts()
    )
    assert any("ranking" in v["evidence"] and "reaction_ns" in v["evidence"] for v in bot.verdicts())
    # The display shows the end of the game and the players' stones.
    winner = summary["winner"] or summary["winners"][0]
    bot.display.wait_for_function(f"document.querySelector('#call-big').textContent.includes({winner!r})")
    assert "svg" in bot.display.inner_html("#picture")


def test_a_tie_repeats_the_duel_and_undo_takes_back_an_entry(
    referee_daemon: RunningReferee, page: Any
) -> None:
    bot = ConsoleBot(referee_daemon, page.context.new_page(), page)
    bot.open()
    bot.new_game("dschamal", ["Marc", "Anne", "Herman"], "duel")
    for action in bot.actions():
        if action["type"] == "start":
            bot.submit("start")
    bot.submit("first", {"player": "Marc"})
    for _ in range(5):  # both keys in the same instant: a tie within the 1 ms window, or nearly
        last = bot.contest([("Anne", 0.0), ("Marc", 0.0)])
        if len(last["verdict"]["ranking"][0]) < 2:
            break
        assert last["game_verdicts"][0]["rule"]["id"] == "dschamal.duel.tie"
        assert bot.game()["contest"]["seats"] == ["Marc", "Anne"], "a tie repeats the duel"
    fastest = last["verdict"]["ranking"][0][0]
    slower = "Marc" if fastest == "Anne" else "Anne"
    bot.submit("draw", {"stone": "shape-12/yellow"})  # nobody owns one: the slower player receives it
    assert "shape-12/yellow" in bot.game()["summary"]["players"][slower]["stones"]
    bot.display.wait_for_function("document.querySelector('#picture').innerHTML.length > 0")
    bot.console.click("#undo")
    bot._wait(
        lambda v: "shape-12/yellow" not in v["game"]["summary"]["players"][slower]["stones"], "the undo"
    )
    assert any(a["type"] == "draw" for a in bot.actions()), "after the undo the draw is asked again"
