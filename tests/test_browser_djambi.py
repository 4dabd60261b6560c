"""Djambi in the browser: openings with kills, a maze seizure and a reporter's kill played by
clicking piece, destination and follow-ups on the console's board (issue 8)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import RunningReferee
from tests.console_bot import ConsoleBot

pytestmark = pytest.mark.browser
RECORDS = Path(__file__).parent / "records"
MOVE = re.compile(r"^([a-i][1-9])-([a-i][1-9])(?:>([a-i][1-9]))?(?:@([a-i][1-9]))?(?:\+([a-i][1-9]))?$")


def moves_of(record: str) -> list[str]:
    lines = (RECORDS / record).read_text().splitlines()[1:]
    return [json.loads(line)["move"] for line in lines if json.loads(line)["type"] == "move"]


def click_move(bot: ConsoleBot, move: str) -> None:
    """Click the move on the board as a player would: piece, destination, then each follow-up."""
    game = bot.game()
    plies = game["summary"]["plies"]
    origin, target, exit_, place, victim = MOVE.fullmatch(move).groups()  # type: ignore[union-attr]
    dest = game["summary"]["legal"]["pieces"][origin]["to"][target]
    page = bot.console
    page.wait_for_selector(f"#board[data-plies='{plies}']", state="attached")  # the page is up to date
    page.click(f"#picture #sq-{origin}", force=True)
    page.click(f"#picture #sq-{target}", force=True)
    for step in dest["steps"]:
        square = {"exit": exit_, "place": place, "victim": victim}[step]
        if square is not None:
            page.click(f"#picture #sq-{square}", force=True)
        elif not page.is_visible("#djambi-none"):
            continue  # every remaining move agrees: nothing to choose
        else:
            page.click("#djambi-none")
    bot._wait(lambda v: v["game"]["summary"]["plies"] == plies + 1, f"the move {move}")
    assert bot.game()["summary"]["last_move"] == move, "the clicks make exactly the recorded move"


@pytest.mark.parametrize(
    "record", ["djambi-opening-kills.jsonl", "djambi-maze-seizure.jsonl", "djambi-reporter-kill.jsonl"]
)
def test_records_are_played_by_clicking_the_board(
    referee_daemon: RunningReferee, page: Any, record: str
) -> None:
    bot = ConsoleBot(referee_daemon, page.context.new_page(), page)
    bot.open()
    bot.new_game("djambi", ["Anne", "Marc", "Zoé", "Louis"], "four")
    for move in moves_of(record):
        click_move(bot, move)
    expected = json.loads(
        __import__("subprocess").run(
            [__import__("sys").executable, "-m", "referee", "replay", str(RECORDS / record)],
            capture_output=True, text=True, check=False, timeout=60,
        ).stdout
    )  # fmt: skip
    summary = bot.game()["summary"]
    # Moves only (the reporter record also has a draw offer): compare the board and its kills.
    assert summary["position"].split()[0] == expected["position"].split()[0]
    kills = [v for v in bot.verdicts() if " kills " in v["summary"]]
    if record == "djambi-maze-seizure.jsonl":
        assert summary["ruler"] is not None, "a chief sits in the maze and rules"
        bot.display.wait_for_function(
            "document.querySelector('#picture [data-square=e5][data-piece]') !== null"
        )
    else:
        assert kills, "the record has kills"
        bot.display.wait_for_function("document.querySelectorAll('#picture .corpse').length > 0")
    if record == "djambi-reporter-kill.jsonl":
        assert any(v["rule"]["id"].startswith("djambi.reporter") for v in kills)
    # The display says whose move it is, in big type, and what its numbers count.
    headline = summary["headline"]
    assert headline is not None and headline.endswith(" to move")
    bot.display.wait_for_function(
        f"document.getElementById('call-big').textContent === {json.dumps(headline)}"
    )
    assert bot.display.inner_text("#scores-title") == "Living pieces commanded"


def test_an_illegal_typed_move_is_refused_with_the_rule(referee_daemon: RunningReferee, page: Any) -> None:
    bot = ConsoleBot(referee_daemon, page.context.new_page(), page)
    bot.open()
    bot.new_game("djambi", ["Anne", "Marc", "Zoé", "Louis"], "four")
    page_ = bot.console
    page_.fill("#djambi-typed", "a1-a5")  # Red's chief is boxed in by its own pieces
    page_.click("#djambi-send")
    page_.wait_for_selector("#error:not(.hidden)")
    assert "djambi.md" in page_.inner_text("#error")
    assert bot.game()["summary"]["plies"] == 0
    # Clicking offers only legal choices: the boxed-in chief cannot even be picked.
    page_.click("#picture #sq-a1", force=True)
    assert "click a piece" in page_.inner_text("#djambi-status")
