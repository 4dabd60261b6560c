"""The dice camera's flow without the web: doubtful reads wait for the scorekeeper, corrections
are kept as labelled data, and a read the game refuses changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from hardware.camera import FolderSource
from referee.dice_camera import DiceCamera, dice_event
from referee.journal import Journal
from referee.session import InputRefused, Session

DATA = Path(__file__).parent / "data" / "dice"
DJAM = {"game": "djam", "variant": "classic", "players": ["Ann", "Bob", "Cat"], "options": {}}


def camera_on(image: str, tmp_path: Path) -> tuple[DiceCamera, Session]:
    session = Session.open(Journal(tmp_path / "j.sqlite3"))
    session.create_game(DJAM)
    source = FolderSource(DATA / image, loop=True)
    return DiceCamera(source, session, labels_dir=tmp_path / "labels"), session


def settle(camera: DiceCamera) -> None:
    for _ in range(12):  # the same picture again and again: the dice lie still
        result = camera._next_read()
        if result is not None:
            camera._seen(*result)
            return
    raise AssertionError("the camera never saw the dice settle")


def test_a_doubtful_read_waits_for_the_scorekeeper_and_a_correction_is_kept(tmp_path: Path) -> None:
    camera, session = camera_on("touching.jpg", tmp_path)  # two dice touch: the read is not certain
    settle(camera)
    assert camera.latest is not None and not camera.latest.read["certain"]
    assert camera.latest.used is None
    assert session.game().fold.summary()["dice"] is None, "a doubtful read is never taken by itself"
    truth = json.loads((DATA / "labels.json").read_text())["touching"]["dice"]
    corrected = {d["name"]: d["value"] for d in truth}
    camera.accept(corrected)
    dice = session.game().fold.summary()["dice"]
    assert all(dice[c] == corrected[c] for c in ("green", "white", "yellow", "red", "blue", "colour"))
    assert camera.latest.used == "confirmed"
    kept = list((tmp_path / "labels").glob("*.json"))
    assert len(kept) == 1 and json.loads(kept[0].read_text())["corrected"] == corrected
    assert list((tmp_path / "labels").glob("*.jpg"))


def test_a_certain_read_outside_a_roll_is_shown_but_not_used(tmp_path: Path) -> None:
    camera, session = camera_on("markers.jpg", tmp_path)
    session.submit({"type": "end_game"})
    settle(camera)
    assert camera.latest is not None and camera.latest.read["certain"]
    assert camera.latest.used is None and camera.view()["waiting_for_dice"] is False
    with pytest.raises(InputRefused):
        camera.accept()
    assert camera.latest.refusal


def test_a_read_missing_a_die_is_no_dice_event() -> None:
    read = {
        "letters": {"green": "B", "white": None, "yellow": "R", "red": "V", "blue": "A"},
        "colour": "green",
    }
    assert dice_event(read) is None
    read["letters"]["white"] = "O"
    assert dice_event(read) == {"type": "dice", "source": "camera", "green": "B", "white": "O",
                                "yellow": "R", "red": "V", "blue": "A", "colour": "green"}  # fmt: skip
