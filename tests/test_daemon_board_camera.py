"""The board camera in the daemon (issue 10, "Done when"): the real daemon follows a Djambi game
from the demo's image folder, records each move as a camera input, and the display flags the
planted illegal move (a corpse laid in the maze) with its rule; the console asks the scorekeeper."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import start_referee

DEMO = Path(__file__).resolve().parents[1] / "referee" / "data" / "demo" / "djambi"
DJAMBI = {"game": "djambi", "variant": "four", "players": ["Anne", "Marc", "Zoé", "Louis"], "options": {}}


@pytest.mark.browser
def test_the_daemon_follows_the_demo_game_and_the_display_flags_the_illegal_move(
    tmp_path: Path, page: Any
) -> None:
    labels = json.loads((DEMO / "game.json").read_text())
    ref = start_referee(tmp_path / "data", "--board-camera", str(DEMO), "--board-camera-hold", "1.8")
    try:
        assert ref.view()["board_camera"]["following"] is False  # no Djambi game yet: nothing read
        assert ref.post("/api/games", DJAMBI)[0] == 201
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(ref.display_url)
        view = ref.wait_for(
            lambda v: (v["board_camera"] or {}).get("flag") is not None, timeout=60, what="the flag"
        )
        summary = view["game"]["summary"]
        assert summary["moves"] == labels["moves"], "every scripted move recorded, none invented"
        cam = view["board_camera"]
        assert [m["move"] for m in cam["moves"]] == labels["moves"]
        flag = cam["flag"]
        assert flag["headline"].startswith("Illegal move seen: Blue's militant g1–e1 kills Red's militant")
        assert flag["rule"]["id"] == "djambi.corpse" and flag["kind"] == "misplaced"
        assert flag["confident"] and {c["square"] for c in flag["changes"]} == {"e1", "g1", "e5"}
        # Journalled like any input, marked as the camera's.
        _, record = ref.request("GET", "/api/games/1/record.jsonl", token=False)
        lines = [json.loads(line) for line in record.splitlines()[1:]]
        assert [e["move"] for e in lines] == labels["moves"]
        assert all(e["source"] == "camera" for e in lines)
        # The display shows it, with the rule.
        page.wait_for_selector("#board-flag")
        text = page.inner_text("#board-camera")
        assert "Illegal move seen" in text and "djambi.corpse" in text and "maze" in text
        # The console asks: the closest legal moves and Dismiss; only offered moves are taken.
        status, body = ref.post("/api/board-camera/choose", {"move": "a1-a2"})
        assert status == 400 and "not one of the moves" in body["error"]
        assert ref.post("/api/board-camera/dismiss", token=False)[0] == 401
        console = page.context.new_page()
        console.on("pageerror", lambda e: errors.append(str(e)))
        console.goto(ref.console_url)
        console.wait_for_selector("#board-camera #board-flag")
        assert "misplaced" in console.inner_text("#board-camera")
        assert console.locator("#board-camera [data-board-move]").count() == 0, (
            "a confident finding is the table's"
        )
        console.click("#board-dismiss")
        page.wait_for_selector("#board-flag", state="detached")
        assert ref.view()["board_camera"]["flag"] is None
        assert ref.view()["game"]["summary"]["plies"] == len(labels["moves"]), "dismissing records nothing"
        assert errors == []
        preview = page.request.get(ref.display_url + "api/board-camera/latest.jpg")
        assert preview.status == 200 and preview.body()[:2] == b"\xff\xd8"
    finally:
        ref.stop()
