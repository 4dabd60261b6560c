"""The die set description: the default set, TOML round trips, errors a person can act on."""

from __future__ import annotations

import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vision.dieset import DieSetError, default_dieset, loads


def test_default_set_has_the_seven_djam_dice():
    ds = default_dieset()
    assert [d.name for d in ds.dice] == ["green", "white", "yellow", "red", "blue", "colour", "theme"]
    assert all(d.faces == tuple(string.ascii_uppercase) for d in ds.letter_dice)
    assert ds.die("colour").faces == ("green", "white", "yellow", "red", "blue", "black")
    assert ds.die("theme").faces == (1, 2, 3, 4, 5, 6)


letters = st.lists(st.sampled_from(string.ascii_uppercase), min_size=1, max_size=6, unique=True)


@given(green=letters, white=letters, patch=st.floats(0.2, 1.0))
def test_toml_round_trip(green, white, patch):
    ds = default_dieset().with_faces("green", green).with_faces("white", white)
    from dataclasses import replace

    ds = replace(ds, dice=tuple(replace(d, patch=patch) if d.kind == "colour" else d for d in ds.dice))
    assert loads(ds.to_toml()) == ds


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("name = ", "not valid TOML"),
        ("name = 'x'", "[colours]"),
        ("[colours]\nred = [1, 2]\n", "[r, g, b]"),
        ("[colours]\nred = [1, 2, 3]\n", "[[die]]"),
        (
            "[colours]\nred = [1,2,3]\n[[die]]\nname='r'\nkind='letter'\nbody='red'\nink='red'\nfaces=['a']\n",
            "single capitals",
        ),
        (
            "[colours]\nred = [1,2,3]\n[[die]]\nname='r'\nkind='letter'\nbody='blue'\nink='red'\nfaces='A-Z'\n",
            "'blue'",
        ),
        (
            "[colours]\nred = [1,2,3]\n[[die]]\nname='t'\nkind='theme'\nbody='red'\nink='red'\nfaces=[7]\n",
            "1 to 6",
        ),
        ("[colours]\nred = [1,2,3]\n[[die]]\nname='t'\nkind='dice'\nbody='red'\nfaces=[1]\n", "kind must be"),
    ],
)
def test_bad_die_sets_say_what_to_fix(text, message):
    with pytest.raises(DieSetError, match=message.replace("[", r"\[").replace("]", r"\]")):
        loads(text)


def test_recording_a_face_list_checks_the_letters():
    ds = default_dieset()
    assert ds.with_faces("green", list("BOLNRU")).die("green").faces == tuple("BOLNRU")
    with pytest.raises(DieSetError):
        ds.with_faces("green", ["b"])
    with pytest.raises(KeyError):
        ds.with_faces("purple", ["A"])


def test_a_colour_die_can_name_its_own_paints():
    ds = default_dieset().with_colours({"paint-green": (10, 200, 10)})
    ds = ds.with_paints("colour", {"green": "paint-green"})
    colour = ds.die("colour")
    assert colour.paint("green") == "paint-green" and colour.paint("red") == "red"
    assert loads(ds.to_toml()) == ds
    with pytest.raises(DieSetError, match="paint-blue"):
        ds.with_paints("colour", {"blue": "paint-blue"})
