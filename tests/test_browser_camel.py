"""The camel race in the browser: a race played to its end through the console, the ring drawn
on the display with the camels and the marker stone (issue 7)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from referee.games.camel.ring import deal_layout
from tests.conftest import RunningReferee
from tests.console_bot import ConsoleBot

pytestmark = pytest.mark.browser


def test_a_race_is_played_to_its_end_through_the_console(referee_daemon: RunningReferee, page: Any) -> None:
    rng = random.Random(1992)
    bot = ConsoleBot(referee_daemon, page.context.new_page(), page)
    bot.open()
    bot.new_game("camel", ["Anne", "Marc", "Herman"])
    proposed = bot.console.locator("form[data-action='deal'] input[name='seed']").input_value()
    assert proposed.isdigit(), "the console proposes a seed"
    # A fixed seed, not the proposed one: the ring decides how long the race runs, and with
    # these throws 0.7 % of rings (21 of seeds 0-2999) need over 200 turns. Seed 2024: 28 turns.
    bot.submit("deal", {"seed": 2024})
    layout = bot.game()["summary"]["layout"]
    assert sorted(layout) == sorted("D" * 9 + "O" * 4 + "S" * 3) and layout == deal_layout(2024)
    bot.submit("start", {"card": 5, "first": "Marc"})
    assert bot.game()["summary"]["turn"]["player"] == "Marc"
    bot.display.wait_for_selector("#picture svg #marker")

    for _ in range(200):
        summary = bot.game()["summary"]
        if summary["race_winner"]:
            break
        flip = next((a for a in bot.actions() if a["type"] == "flip"), None)
        if flip is None:  # e.g. a camel resting on an oasis may end its turn
            bot.submit(bot.actions()[0]["type"])
            continue
        tile = rng.choice(flip["fields"][0]["choices"])
        bot.submit("flip", {"tile": tile["label"], "shows": rng.randint(1, 6)})
    summary = bot.game()["summary"]
    winner = summary["race_winner"]
    assert winner, "the race must end"
    assert len(summary["eliminated"]) == 2 and winner not in summary["eliminated"]
    assert summary["scores"][winner] == 1
    eliminations = [v for v in bot.verdicts() if "elimin" in v["rule"]["id"]]
    assert eliminations and all(
        v["rule"]["source"].startswith(("camel-race.txt", "docs/")) for v in eliminations
    )
    # The display draws the ring: 16 cards, the winning camel and the marker stone.
    bot.display.wait_for_function(f"document.querySelector('#picture').textContent.includes({winner!r})")
    bot.submit("end")
    assert bot.game()["summary"]["finished"] and bot.game()["summary"]["winner"] == winner
