"""The display and console in real headless Chromium against the real daemon."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import RunningReferee

pytestmark = pytest.mark.browser


def test_a_virtual_button_press_shows_the_verdict_on_the_display(
    referee_daemon: RunningReferee, page: Any
) -> None:
    ref = referee_daemon
    console = page.context.new_page()
    console.goto(ref.console_url)
    console.wait_for_selector("#ng-game option[value='fastest']", state="attached")
    console.select_option("#ng-game", "fastest")
    console.fill("#ng-players", "Anne\nMarc")
    console.click("#new-game button[type=submit]")
    console.wait_for_function("document.querySelector('#game-title').textContent.includes('Fastest hand')")

    page.goto(ref.display_url)
    page.wait_for_selector("#virtual:not(.hidden) button[data-seat='2']")
    assert "Marc" in page.inner_text("button[data-seat='2']")
    console.click("#arm")
    page.wait_for_function("document.querySelector('#call-big').textContent === 'Go!'", timeout=10_000)
    page.wait_for_timeout(150)  # a human reaction, not a false start
    page.keyboard.down("2")
    page.wait_for_function("document.querySelector('#verdict-head').textContent === 'Marc'", timeout=10_000)
    page.keyboard.up("2")
    assert "timing rule timing.first-press" in page.inner_text("#verdict-rule")
    assert page.locator("#timeline svg").count() == 1
    page.wait_for_function("document.querySelector('#scores').textContent.includes('Marc1')")
    # The console shows the verdict with the rule that decided it.
    console.wait_for_function(
        "document.querySelector('#verdicts').textContent.includes('Marc wins the round')"
    )


def test_the_console_without_its_token_is_refused(referee_daemon: RunningReferee, page: Any) -> None:
    page.goto(referee_daemon.display_url + "console")
    page.evaluate("localStorage.clear()")
    page.reload()
    assert page.is_visible("#no-token")
    page.wait_for_selector("#ng-game option[value='fastest']", state="attached")
    page.click("#new-game button[type=submit]")
    page.wait_for_selector("#error:not(.hidden)")
    assert "console link" in page.inner_text("#error")
    assert referee_daemon.view()["game"] is None


@pytest.mark.parametrize("path", ["/", "/console", "/night", "/help"])
def test_every_page_loads_without_a_script_error(
    referee_daemon: RunningReferee, page: Any, path: str
) -> None:
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(referee_daemon.display_url.rstrip("/") + path)
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(300)
    assert errors == []
