"""A scorekeeper and a table of players, driving the real console and display pages in Chromium.

The bot reads what the console offers (the same live view the page renders), fills the form of
one action through the page's own controls and submits it, and plays button contests by
clicking Arm on the console and pressing keys 1–8 on the display page, as a person would.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Mapping
from typing import Any

from referee.record import replay_lines
from tests.conftest import RunningReferee


class ConsoleBot:
    def __init__(self, ref: RunningReferee, console: Any, display: Any) -> None:
        self.ref, self.console, self.display = ref, console, display

    # -- reading ---------------------------------------------------------------------------------

    def view(self) -> dict[str, Any]:
        return self.ref.view()

    def game(self) -> dict[str, Any]:
        game = self.view()["game"]
        assert game is not None, "no game is running"
        return game

    def verdicts(self) -> list[dict[str, Any]]:
        """Every verdict of the current game, from its record (the live view carries the newest)."""
        status, record = self.ref.request("GET", f"/api/games/{self.game()['id']}/record.jsonl", token=False)
        assert status == 200
        return replay_lines(record.splitlines()).summary()["verdicts"]

    def actions(self) -> list[dict[str, Any]]:
        return self.game()["actions"]

    # -- the console -----------------------------------------------------------------------------

    def open(self) -> None:
        self.console.goto(self.ref.console_url)
        self.console.wait_for_selector("#ng-game option[value='fastest']", state="attached")
        self.display.goto(self.ref.display_url)
        self.display.wait_for_selector("#title")

    def new_game(
        self, game: str, players: list[str], variant: str = "", options: Mapping[str, Any] | None = None
    ) -> None:
        page = self.console
        page.select_option("#ng-game", game)
        if variant:
            page.select_option("#ng-variant", variant)
        page.fill("#ng-players", "\n".join(players))
        if options:
            page.click("details.options summary")  # the rule options are folded away by default
        for name, value in (options or {}).items():
            field = page.locator(f"[name='opt:{name}']")
            if field.evaluate("n => n.tagName") == "SELECT":
                field.select_option(json.dumps(value))
            else:
                field.fill(json.dumps(value))
        before = len(self.view()["games"])
        page.click("#new-game button[type=submit]")
        self._wait(lambda v: len(v["games"]) == before + 1, "the new game")
        page.wait_for_function(
            f"document.querySelector('#game-title').textContent.includes({json.dumps(', '.join(players))})"
        )

    def submit(self, action_type: str, values: Mapping[str, Any] | None = None, nth: int = 0,
               expect_error: bool = False) -> dict[str, Any]:  # fmt: skip
        """Fill the `nth` form of `action_type` with `values` (others keep their defaults), submit."""
        page = self.console
        applied_before = self.game()["applied"]
        forms = page.locator(f"form[data-action='{action_type}']")
        forms.first.wait_for()
        form = forms.nth(nth)
        for name, value in (values or {}).items():
            self._fill(form, name, value)
        page.evaluate("document.querySelector('#error').classList.add('hidden')")
        form.locator("button[type=submit]").click()
        if expect_error:
            page.wait_for_selector("#error:not(.hidden)")
            return self.view()
        return self._wait(
            lambda v: v["game"]["applied"] != applied_before or _error_shown(page),
            f"{action_type} to be taken",
            check=lambda: _raise_on_error(page, action_type, values),
        )

    def _fill(self, form: Any, name: str, value: Any) -> None:
        select = form.locator(f"select[name='{name}']")
        if select.count():
            select.select_option(label=_label(value))
            return
        box = form.locator(f"fieldset[data-name='{name}']")
        if box.count():
            for label in box.locator("label").all():  # untick everything, then tick in order
                tick = label.locator("input")
                if tick.is_checked():
                    tick.uncheck()
            for item in value:
                box.locator("label", has_text=_label(item)).first.locator("input").check()
            return
        field = form.locator(f"input[name='{name}']")
        if field.get_attribute("type") == "checkbox":
            field.set_checked(bool(value))
        else:
            field.fill(str(value))

    # -- contests --------------------------------------------------------------------------------

    def contest(self, presses: list[tuple[str, float]], arm: bool = True) -> dict[str, Any]:
        """Arm (unless the game arms by itself), wait for the call, then the players in `presses`
        press their buttons at the given seconds after the call. Returns the verdict."""
        view = self.view()
        before = json.dumps((view["contest"]["last"] or {}).get("verdict"))
        seats = view["game"]["seats"]
        if arm:
            self.console.click("#arm")
        self._wait(lambda v: (v["contest"]["running"] or {}).get("phase") == "called", "the call")
        start = time.monotonic() + 0.15  # nobody reacts in under 100 ms: sooner is a false start
        keys = []
        for player, at in sorted(presses, key=lambda p: p[1]):
            time.sleep(max(0.0, start + at - time.monotonic()))
            key = str(seats[player])
            self.display.keyboard.down(key)
            keys.append(key)
        time.sleep(0.04)
        for key in keys:
            self.display.keyboard.up(key)
        view = self._wait(
            lambda v: json.dumps((v["contest"]["last"] or {}).get("verdict")) != before, "the verdict"
        )
        return view["contest"]["last"]

    # -- waiting ---------------------------------------------------------------------------------

    def _wait(self, predicate: Callable[[dict[str, Any]], bool], what: str, timeout: float = 15.0,
              check: Callable[[], None] | None = None) -> dict[str, Any]:  # fmt: skip
        deadline = time.monotonic() + timeout
        while True:
            view = self.view()
            if predicate(view):
                if check:
                    check()
                return view
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}")
            time.sleep(0.03)


def _label(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


def _error_shown(page: Any) -> bool:
    return bool(page.evaluate("!document.querySelector('#error').classList.contains('hidden')"))


def _raise_on_error(page: Any, action_type: str, values: Any) -> None:
    if _error_shown(page):
        raise AssertionError(f"{action_type} {values} was refused: {page.inner_text('#error')}")
