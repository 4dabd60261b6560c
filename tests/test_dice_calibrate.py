"""Learning the user's own dice: colours, face templates, face lists; the CLI flow."""

from __future__ import annotations

import json
from dataclasses import replace
from functools import cache
from pathlib import Path

import cv2
import numpy as np
import pytest

from referee.cli import main
from vision.dice_calibrate import CalibrationError, labelled_faces, learn, record_faces
from vision.dice_colour import delta_e, rgb_to_lab
from vision.dice_faces import face_key, glyph_vectors
from vision.dice_model import default_model, dice_dir, load_model
from vision.dice_read import read_dice
from vision.dieset import default_dieset
from vision.synth import SceneOptions, render_scene, sample_scene
from vision.synth.render import glyph_mask

DATA = Path(__file__).parent / "data" / "dice"
SHOWN = {"green": "R", "white": "G", "yellow": "K", "red": "W", "blue": "E", "colour": "red", "theme": 3}
USER_FONT = "DejaVuSerif-Bold.ttf"  # not one of the template fonts: the user's dice look different
OPTS = SceneOptions(p_markers=1.0, p_hand_edge=0.0, p_glare=0.0)


@cache
def user_frame(seed: int, teal: bool = False) -> tuple[np.ndarray, dict[str, object]]:
    ds = default_dieset()
    if teal:
        ds = ds.with_colours({"green": (20, 120, 105)})
    scene = replace(sample_scene(ds, "tune", seed, OPTS, values=dict(SHOWN)), font=USER_FONT)
    img, labels = render_scene(scene, ds)
    return img, {d.name: d.value for d in labels.dice}


def learned_match(model, img, die: str) -> tuple[object, float]:
    """The best face among the templates learned from the user's dice, and its score."""
    diag: list[dict[str, object]] = []
    read_dice(img, model, diagnostics=diag)
    learned = next(d["learned"] for d in diag if d.get("die") == die)
    return learned if learned is not None else (None, 0.0)


def test_learned_faces_of_the_users_font_recognise_new_rolls(tmp_path):
    model = default_model()
    test_img, truth = user_frame(901)
    img, labels = user_frame(902)
    learned = learn(model, labelled_faces(img, read_dice(img, model), labels), tmp_path)
    assert learned.learned_templates >= 5
    # The same letters in a new roll (other places, turns and light) match what was learned.
    for die in ("green", "white"):
        value, score = learned_match(learned, test_img, die)
        assert value == truth[die] and score > learned.thresholds.learned_score, (die, value, score)
    read = read_dice(test_img, learned)
    assert all(d.value == truth[d.die] for d in read.dice if d.certain)
    assert read.die("green").value == truth["green"] and read.die("white").value == truth["white"]
    # What was learned is in the data folder and comes back with load_model.
    reloaded = load_model(tmp_path)
    assert reloaded.learned_templates == learned.learned_templates
    assert learned_match(reloaded, test_img, "green") == learned_match(learned, test_img, "green")
    assert any((dice_dir(tmp_path) / "labelled" / "green" / "R").iterdir())


def test_a_clear_learned_match_settles_a_face_the_network_doubts():
    from vision.dice_faces import GlyphMatch
    from vision.dice_glyphs import GlyphRead
    from vision.dice_read import _with_learned

    th = default_model().thresholds
    doubtful = GlyphRead("B", 0.6, "R", 0.3, 0.0, 0.9, 0.9, 0, {"B": 0.6, "R": 0.3})
    clear_r = GlyphMatch("R", 0.93, "B", 0.80, 1, {"R": 0.93, "B": 0.80})
    settled = _with_learned(doubtful, clear_r, th)
    assert settled.best == "R" and settled.prob >= th.face_prob
    confident = GlyphRead("B", 0.999, "R", 0.001, 0.0, 0.99, 0.99, 0, {"B": 0.999, "R": 0.001})
    disputed = _with_learned(confident, clear_r, th)
    assert disputed.best == "B" and disputed.margin == 0.0  # a clear disagreement: ask
    vague = GlyphMatch("R", 0.7, "B", 0.69, 1, {"R": 0.7, "B": 0.69})
    assert _with_learned(doubtful, vague, th).best == "B"


def test_colours_are_learned_from_the_users_dice(tmp_path):
    model = default_model()
    img, labels = user_frame(903, teal=True)
    faces = labelled_faces(img, read_dice(img, model), {"green": labels["green"], "white": labels["white"]})
    learned = learn(model, faces, tmp_path)
    teal = rgb_to_lab(np.array([20, 120, 105]) / 255.0)
    old = rgb_to_lab(np.asarray(model.dieset.colours["green"]) / 255.0)
    new = rgb_to_lab(np.asarray(learned.dieset.colours["green"]) / 255.0)
    assert float(delta_e(new, teal)) < 0.5 * float(delta_e(old, teal))
    assert "green = [" in (dice_dir(tmp_path) / "dieset.toml").read_text()


def test_learned_templates_are_upright_never_mirrored(tmp_path):
    model = default_model()
    img, labels = user_frame(904)
    learned = learn(model, labelled_faces(img, read_dice(img, model), labels), tmp_path)
    # A learned "R" must match the R templates far better upright than mirrored.
    rows, _ = learned.bank.rows([face_key("letter", "letters", "R")])
    learned_r = rows[-1]
    template = rows[0]
    assert float(learned_r @ template) > 0.6
    r_mask = glyph_mask("R", "LiberationSans-Bold.ttf", 0.56, 48)
    upright = glyph_vectors(r_mask)
    mirrored = glyph_vectors(np.ascontiguousarray(r_mask[:, ::-1]))
    assert upright is not None and mirrored is not None
    assert float((upright @ learned_r).max()) > float((mirrored @ learned_r).max()) + 0.05


def test_labels_for_unknown_or_unseen_dice_are_refused():
    img = cv2.imread(str(DATA / "markers.jpg"))
    read = read_dice(img)
    with pytest.raises(CalibrationError, match="no die called"):
        labelled_faces(img, read, {"purple": "A"})
    blank = read_dice(np.full((720, 1280, 3), 20, np.uint8))
    with pytest.raises(CalibrationError, match="not found"):
        labelled_faces(img, blank, {"green": "A"})


def test_recorded_faces_narrow_the_reader(tmp_path):
    model = record_faces(default_model(), {"green": list("BOLNRU")}, tmp_path)
    assert model.dieset.die("green").faces == tuple("BOLNRU")
    assert load_model(tmp_path).dieset.die("green").faces == tuple("BOLNRU")


def test_cli_calibrates_from_labelled_photos(tmp_path, capsys):
    labels = json.loads((DATA / "labels.json").read_text())["markers"]["dice"]
    text = ",".join(f"{d['name']}={d['value']}" for d in labels)
    data = tmp_path / "data"
    assert main(["calibrate-dice", str(DATA / "markers.jpg"), "--labels", text, "--data", str(data)]) == 0
    out = capsys.readouterr().out
    assert "learned from 7 labelled faces" in out
    assert (dice_dir(data) / "templates.npz").is_file() and (dice_dir(data) / "labels.jsonl").is_file()
    assert (
        main(
            ["calibrate-dice", "--faces", "green=bolnru", "--faces", "theme=1/2/3/4/5/6", "--data", str(data)]
        )
        == 0
    )
    assert load_model(data).dieset.die("green").faces == tuple("BOLNRU")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--labels", "green=b,white"], "die=value"),
        (["--labels", "purple=A"], "no die called"),
        (["--labels", "theme=9"], "has no face"),
    ],
)
def test_cli_explains_bad_labels(tmp_path, capsys, args, message):
    code = main(["calibrate-dice", str(DATA / "markers.jpg"), *args, "--data", str(tmp_path)])
    assert code == 1
    assert message in capsys.readouterr().err


def test_damaged_calibration_data_is_reported_not_crashed_on(tmp_path, capsys):
    folder = dice_dir(tmp_path)
    folder.mkdir(parents=True)
    (folder / "templates.npz").write_bytes(b"PK\x03\x04 not really a zip")
    assert main(["read-dice", str(DATA / "markers.jpg"), "--data", str(tmp_path)]) == 1
    assert "templates.npz is damaged" in capsys.readouterr().err
    (folder / "templates.npz").unlink()
    (folder / "dieset.toml").write_text("[colours]\n")
    assert main(["read-dice", str(DATA / "markers.jpg"), "--data", str(tmp_path)]) == 1
    assert "default dice" in capsys.readouterr().err


def test_calibration_notices_a_camera_with_red_and_blue_exchanged(tmp_path, capsys):
    img = cv2.imread(str(DATA / "markers.jpg"))
    swapped = tmp_path / "rgb.png"
    cv2.imwrite(str(swapped), np.ascontiguousarray(img[..., ::-1]))
    labels = json.loads((DATA / "labels.json").read_text())["markers"]["dice"]
    text = ",".join(f"{d['name']}={d['value']}" for d in labels)
    main(["calibrate-dice", str(swapped), "--labels", text, "--data", str(tmp_path / "d")])
    assert "red and blue exchanged" in capsys.readouterr().err
    main(["calibrate-dice", str(DATA / "markers.jpg"), "--labels", text, "--data", str(tmp_path / "e")])
    assert "exchanged" not in capsys.readouterr().err


def test_the_colour_dies_paint_is_learned_apart_from_the_letter_die_of_its_colour(tmp_path):
    model = default_model()
    # The green *die* is teal; the colour die shows its green paint, which is not.
    ds = default_dieset().with_colours({"green": (20, 120, 105)})
    scene = replace(sample_scene(ds, "tune", 905, OPTS, values=dict(SHOWN, colour="green")), font=USER_FONT)
    img, labels = render_scene(scene, ds)
    truth = {d.name: d.value for d in labels.dice}
    read = read_dice(img, model)
    faces = labelled_faces(img, read, {"green": truth["green"], "colour": "green"})
    learned = learn(model, faces, tmp_path)
    assert learned.dieset.die("colour").paint("green") == "paint-green"
    teal = rgb_to_lab(np.array([20, 120, 105]) / 255.0)
    green_die = rgb_to_lab(np.asarray(learned.dieset.colours["green"]) / 255.0)
    paint = rgb_to_lab(np.asarray(learned.dieset.colours["paint-green"]) / 255.0)
    assert float(delta_e(green_die, teal)) < 10.0  # the die, measured on its own
    assert float(delta_e(paint, np.asarray(read.die("colour").paint_lab))) < 3.0  # the paint on its own
    # Neither is averaged with the other: each is what was measured on it.
    assert float(delta_e(green_die, np.asarray(read.die("green").body_lab))) < 3.0
    assert load_model(tmp_path).dieset.die("colour").paint("green") == "paint-green"
