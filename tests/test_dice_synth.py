"""The synthetic renderer: exact labels, splits that never share fonts, no mirrored letters."""

from __future__ import annotations

import numpy as np
import pytest

from vision.dice_faces import PATCH, glyph_vectors
from vision.dice_measure import face_patch
from vision.dieset import default_dieset
from vision.synth import SceneOptions, render_scene, sample_scene
from vision.synth.render import glyph_mask
from vision.synth.scene import HELDOUT_FONTS, TUNE_FONTS

DS = default_dieset()


def test_scenes_are_reproducible_and_splits_differ():
    a = sample_scene(DS, "tune", 5)
    assert a == sample_scene(DS, "tune", 5)
    b = sample_scene(DS, "heldout", 5)
    assert a.font in TUNE_FONTS and b.font in HELDOUT_FONTS
    assert not set(TUNE_FONTS) & set(HELDOUT_FONTS)
    temps = [sample_scene(DS, "heldout", s).temperature_k for s in range(40)]
    assert all(t < 4000 or t > 7000 for t in temps)  # lighting the tune split never uses
    with pytest.raises(ValueError):
        sample_scene(DS, "test", 1)


def test_labels_put_each_die_where_its_colour_is():
    img, labels = render_scene(sample_scene(DS, "tune", 3, SceneOptions(p_glare=0.0, p_hand_edge=0.0)), DS)
    for d in labels.dice:
        if DS.die(d.name).kind != "letter":
            continue
        patch = face_patch(img, np.array(d.quad)).astype(np.float32)
        rim = np.concatenate([patch[4:9].reshape(-1, 3), patch[-9:-4].reshape(-1, 3)])
        body_bgr = np.asarray(DS.colours[DS.die(d.name).body][::-1], np.float32)
        # Same hue family as the die's body (lighting changes brightness, not which channel leads).
        assert int(np.argmax(np.median(rim, axis=0))) == int(np.argmax(body_bgr)) or d.name == "white"


@pytest.mark.parametrize("letter", ["F", "R", "J", "G"])
def test_rendered_faces_are_never_mirrored(letter):
    scene = sample_scene(
        DS, "tune", 8, SceneOptions(p_glare=0.0, p_hand_edge=0.0, p_markers=1.0), values={"white": letter}
    )
    img, labels = render_scene(scene, DS)
    d = next(x for x in labels.dice if x.name == "white")
    patch = face_patch(img, np.array(d.quad))
    ink = (255.0 - patch.mean(axis=2)) / 255.0
    ink[ink < 0.4] = 0
    seen = glyph_vectors(ink)
    ref = glyph_vectors(glyph_mask(letter, scene.font, scene.glyph_height, PATCH))
    mirrored = glyph_vectors(
        np.ascontiguousarray(glyph_mask(letter, scene.font, scene.glyph_height, PATCH)[:, ::-1])
    )
    assert seen is not None and ref is not None and mirrored is not None
    assert float((seen @ ref[0]).max()) > float((seen @ mirrored[0]).max())
