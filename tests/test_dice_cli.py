"""``referee read-dice`` end to end on a committed frame."""

from __future__ import annotations

import json
from pathlib import Path

import cv2

from referee.cli import main

DATA = Path(__file__).parent / "data" / "dice"
LABELS = json.loads((DATA / "labels.json").read_text())


def test_read_dice_prints_the_roll_as_json(capsys, tmp_path):
    debug = tmp_path / "found.png"
    code = main(
        ["read-dice", str(DATA / "markers.jpg"), "--json", "--debug", str(debug), "--data", str(tmp_path)]
    )
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    truth = {d["name"]: d["value"] for d in LABELS["markers"]["dice"]}
    assert out["letters"] == {k: truth[k] for k in ("green", "white", "yellow", "red", "blue")}
    assert out["colour"] == truth["colour"] and out["theme"] == truth["theme"]
    assert out["certain"] is True and out["confidence"] > 0.9
    img = cv2.imread(str(debug))
    assert img is not None and img.shape == (720, 1280, 3)


def test_read_dice_says_when_to_ask(capsys, tmp_path):
    assert main(["read-dice", str(DATA / "off-tray.jpg"), "--data", str(tmp_path)]) == 0
    line = capsys.readouterr().out
    assert "ASK" in line and "off-tray" in line


def test_read_dice_uses_a_given_die_set(capsys, tmp_path):
    from vision.dieset import default_dieset

    ds = default_dieset()
    truth = {d["name"]: d["value"] for d in LABELS["markers"]["dice"]}
    # A recorded set whose green die lacks the letter it shows: the reader cannot say it.
    others = [c for c in "ABCDEFGH" if c != truth["green"]][:6]
    path = tmp_path / "set.toml"
    path.write_text(ds.with_faces("green", others).to_toml())
    assert (
        main(
            ["read-dice", str(DATA / "markers.jpg"), "--json", "--dieset", str(path), "--data", str(tmp_path)]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    green = next(d for d in out["dice"] if d["die"] == "green")
    assert green["value"] != truth["green"]
    assert green["flags"], "a face outside the die's own faces must not be read confidently"
