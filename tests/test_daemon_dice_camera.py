"""The dice camera in the daemon (issue 9): a settled roll seen by the camera becomes the Djam
round's dice, journalled as an input; the display shows the crop with the read drawn on it."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import start_referee

DATA = Path(__file__).parent / "data" / "dice"
DJAM = {"game": "djam", "variant": "classic", "players": ["Ann", "Bob", "Cat"], "options": {}}


@pytest.mark.browser
def test_a_settled_roll_becomes_the_rounds_dice_and_shows_on_the_display(tmp_path: Path, page: Any) -> None:
    camera = tmp_path / "camera"
    camera.mkdir()
    shutil.copy(DATA / "markers.jpg", camera / "roll.jpg")  # green T, white R, yellow D, red S, blue U
    ref = start_referee(tmp_path / "data", "--camera", str(camera))
    try:
        assert ref.post("/api/games", DJAM)[0] == 201
        view = ref.wait_for(lambda v: (v["camera"] or {}).get("latest"), timeout=30, what="a camera read")
        # The game was waiting for its dice: a certain read is taken at once.
        view = ref.wait_for(
            lambda v: v["game"]["summary"]["dice"] is not None, what="the dice from the camera"
        )
        dice = view["game"]["summary"]["dice"]
        assert {c: dice[c] for c in ("green", "white", "yellow", "red", "blue")} == {
            "green": "T", "white": "R", "yellow": "D", "red": "S", "blue": "U"}  # fmt: skip
        assert dice["colour"] == "blue" and dice["required"] == "U"
        assert view["game"]["summary"]["theme"]["number"] == 1
        assert view["camera"]["latest"]["used"] == "auto"
        _, record = ref.request("GET", "/api/games/1/record.jsonl", token=False)
        assert '"source": "camera"' in record, "the camera's read is an input like any other"
        # The display shows the crop with the read drawn on it.
        page.goto(ref.display_url)
        page.wait_for_selector("#camera:not(.hidden)")
        page.wait_for_function("document.querySelector('#camera-img').naturalWidth > 0")
        assert "T" in page.inner_text("#camera-read") and "blue" in page.inner_text("#camera-read")
        jpeg = page.request.get(ref.display_url + "api/camera/latest.jpg")
        assert jpeg.status == 200 and jpeg.body()[:2] == b"\xff\xd8"  # a JPEG
        # Confirming again is refused: the round already has its dice.
        status, body = ref.post("/api/camera/accept")
        assert status == 400 and body["error"]
        assert ref.post("/api/camera/accept", token=False)[0] == 401
    finally:
        ref.stop()
