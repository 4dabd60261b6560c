"""Reading committed frames (rendered from seeds by vision/synth/samples.py, labels exact)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.dice_model import default_model
from vision.dice_read import DiceImageError, read_dice
from vision.dice_result import HAND, MISSING, OFF_TRAY, TOUCHING

DATA = Path(__file__).parent / "data" / "dice"
LABELS = json.loads((DATA / "labels.json").read_text())
READS: dict[str, object] = {}


def read(name: str):
    if name not in READS:
        READS[name] = read_dice(cv2.imread(str(DATA / f"{name}.jpg")), default_model())
    return READS[name]


def truth(name: str) -> dict[str, object]:
    return {d["name"]: d for d in LABELS[name]["dice"]}


@pytest.mark.parametrize("name", ["markers", "plain", "hand-edge"])
def test_clean_rolls_are_read_completely_and_with_confidence(name):
    r = read(name)
    t = truth(name)
    assert r.certain, r.doubts
    assert {d.die: d.value for d in r.dice} == {k: v["value"] for k, v in t.items()}
    assert r.confidence > 0.9
    assert r.tray == ("markers" if LABELS[name]["markers"] else "plain")


@pytest.mark.parametrize("name", sorted(LABELS))
def test_no_frame_has_a_die_read_confidently_and_wrong(name):
    r = read(name)
    for d in r.dice:
        if d.certain:
            assert d.value == truth(name)[d.die]["value"], (name, d)


def test_a_cocked_die_is_flagged_or_read_right():
    r = read("cocked")
    cocked = [n for n, d in truth("cocked").items() if d["cocked"]]
    assert cocked
    for n in cocked:
        d = r.die(n)
        assert d.flags or d.value == truth("cocked")[n]["value"]


def test_touching_dice_are_reported_as_touching():
    r = read("touching")
    touching = {n for n, d in truth("touching").items() if d["touching"]}
    assert touching
    flagged = {d.die for d in r.dice if TOUCHING in d.flags}
    assert flagged == touching
    assert not r.certain


def test_a_die_off_the_tray_is_reported():
    r = read("off-tray")
    off = [n for n, d in truth("off-tray").items() if not d["on_tray"]]
    assert off and all(OFF_TRAY in r.die(n).flags for n in off)
    assert not r.certain


def test_a_hand_over_the_tray_means_ask():
    r = read("hand-over")
    assert HAND in r.flags
    assert not r.certain
    assert r.confidence < default_model().thresholds.confidence


def test_an_empty_frame_reports_every_die_missing():
    r = read_dice(np.full((720, 1280, 3), 30, np.uint8))
    assert all(d.flags == (MISSING,) and d.value is None for d in r.dice)
    assert not r.certain and r.confidence == 0.0


def test_json_has_the_shape_the_console_reads():
    j = read("markers").to_json()
    assert set(j["letters"]) == {"green", "white", "yellow", "red", "blue"}
    assert j["colour"] in ("green", "white", "yellow", "red", "blue", "black")
    assert j["theme"] in range(1, 7)
    assert 0.0 <= j["confidence"] <= 1.0 and j["certain"] is True
    assert len(j["dice"]) == 7 and all(len(d["corners"]) == 4 for d in j["dice"])
    json.dumps(j)


def test_a_die_found_in_the_frame_is_where_the_labels_put_it():
    r = read("markers")
    for n, t in truth("markers").items():
        cx, cy = r.die(n).centre
        assert abs(cx - t["centre"][0]) < 6 and abs(cy - t["centre"][1]) < 6


@pytest.mark.parametrize(
    "bad",
    [
        np.zeros((10, 10, 3), np.uint8),
        np.zeros((720, 1280, 3), np.float32),
        "image.png",
        np.zeros((720, 1280, 2), np.uint8),
    ],
)
def test_unusable_inputs_raise_a_clear_error(bad):
    with pytest.raises(DiceImageError):
        read_dice(bad)


def test_grey_and_bgra_frames_are_accepted():
    img = cv2.imread(str(DATA / "markers.jpg"))
    assert (
        read_dice(cv2.cvtColor(img, cv2.COLOR_BGR2BGRA)).die("green").value
        == truth("markers")["green"]["value"]
    )
    read_dice(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY))  # no colour: reads what it can, never crashes


def _render(split: str, seed: int, **options: float):
    from vision.dieset import default_dieset
    from vision.synth import SceneOptions, render_scene, sample_scene

    ds = default_dieset()
    scene = sample_scene(ds, split, seed, SceneOptions(**options))  # type: ignore[arg-type]
    img, labels = render_scene(scene, ds)
    return scene, img, labels


@pytest.mark.parametrize("seed", [700001, 700002, 700003])
def test_a_plain_trays_corners_are_found_to_a_few_pixels(seed):
    from vision.dice_tray import find_plain_tray
    from vision.dieset import default_dieset

    # The dark region, found on a small copy, is good to ~10 px; a die near a corner can bite
    # it away (67 px off on a val frame). The edges found at full size put them within 4 px.
    scene, img, _ = _render("tune", seed, p_markers=0.0, p_hand_edge=0.2)
    tray = find_plain_tray(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), default_dieset().tray)
    corners = np.array([[0, 0, 0], [360, 0, 0], [360, 240, 0], [0, 240, 0]], float)
    assert tray is not None
    assert np.abs(tray.quad - scene.camera.project(corners)).max() < 4.0


def test_a_die_biting_a_trays_corner_does_not_move_it():
    from vision.dice_tray import find_plain_tray
    from vision.dieset import default_dieset

    scene, img, _ = _render("tune", 700001, p_markers=0.0, p_hand_edge=0.0)
    corners = scene.camera.project(np.array([[0, 0, 0], [360, 0, 0], [360, 240, 0], [0, 240, 0]], float))
    # Paint a light die-sized square over the top-right corner of the tray.
    x, y = corners[1]
    cv2.rectangle(img, (int(x) - 40, int(y) - 5), (int(x) + 5, int(y) + 40), (235, 235, 235), -1)
    tray = find_plain_tray(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), default_dieset().tray)
    assert tray is not None
    assert np.abs(tray.quad - corners).max() < 4.0


def test_a_die_on_a_markers_paper_is_never_read_silently():
    scene, img, labels = _render("tune", 41, p_markers=1.0, p_on_marker=1.0, p_hand_edge=0.0)
    on_paper = next(p.name for p in scene.dice if min(p.x, 360 - p.x) < 30 and min(p.y, 240 - p.y) < 30)
    r = read_dice(img, default_model())
    assert not r.certain
    d = r.die(on_paper)
    assert d.flags, d  # reported (missing: the reader leaves the markers' paper alone)
    for other in r.dice:
        if other.certain:
            assert other.value == labels.value(other.die)
