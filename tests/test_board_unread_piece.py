"""A piece in plain view whose marker the reader cannot decode is never read as an empty square.

The scene is the one where this happened while following a game (benchmark game seed 255,
1280×720, small pieces, a lamp's reflection beside them): a corpse on the light square e8
whose white face and rim passed for bare board, so half its footprint looked bare and the
square was read empty (confidence 0.51–0.57) in most frames. The follower then reported a
legal move as one that "no legal move leads to".
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import board_reader
from vision.board_geometry import BoardGeometry
from vision.board_reader import read_board
from vision.board_synth import SceneParams, random_params, random_position, render, render_placement
from vision.markers import CORNER_BASE, marker_face

AFTER = "gC1gM4yAyC/gAgDgMxxxxyNbDrD1/gM2yM4yR/1gM1yD5/6yMgRyM/rM6xxbM/rMrM2gNrN1bM1/rR4yM2bR/rCrA4bMbAbC"
PARAMS = SceneParams(
    image_size=(1280, 720),
    board_to_image=(
        (7.847889355407031, 70.400431674813, 392.03289694381317),
        (59.062871053788356, -4.333734234815998, 128.22482638063357),
        (4.726425680322353e-09, 0.011137344039967103, 1.0),
    ),
    scheme=2,
    piece_diameter=0.7072575719129289,
    max_offset=0.1024310878356279,
    gain=(-0.16472559261371433, 0.16831844406123175, 0.00960232168507813),
    tint=(1.0538230263146073, 0.9224838180257142, 0.95232606108996),
    vignette=0.7109214132894548,
    glare=(
        (519.5590077913465, 349.2545567975933, 40.6572526630908, 75.21803561130085),
        (769.1010040372724, 322.43725136287765, 85.55839064782907, 44.00342732818628),
    ),
    blur=1.098579963357477,
    noise=3.3221447001645745,
    jpeg=65,
    geometry=BoardGeometry(class_offsets={2: (-0.45, 0.15, 0.55)}),
)


def _next_frame(image: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The same scene as the next video frame: fresh sensor noise and JPEG."""
    noisy = image.astype(np.float32) + rng.normal(0, 1.5, image.shape).astype(np.float32)
    ok, buf = cv2.imencode(".jpg", np.clip(noisy, 0, 255).astype(np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 65])
    assert ok
    frame = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    assert frame is not None
    return frame


@pytest.mark.parametrize("seed", [0, 9])
def test_corpse_with_an_unreadable_marker_is_not_an_empty_square(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The detector now decodes this marker in most frames (its second look), and how often
    # its first look misses it depends on the CPU's rounding (on an SSE4-only build it never
    # did). The test is about the frames where it is missed: the corpse's marker is taken out
    # of every detection, so the foreign region alone must keep e8 from reading empty.
    shot = render_placement(AFTER, PARAMS, seed=seed)
    assert shot.truth["e8"] == "xx"
    e8 = read_board(shot.image).square("e8")
    assert e8.state in ("corpse", "unknown"), f"the corpse on e8 was read {e8.state}"
    corpse = next(i for i in range(CORNER_BASE) if marker_face(i) == shot.faces["e8"])
    detect = board_reader.detect_markers

    def blind(*args, **kwargs):
        return [m for m in detect(*args, **kwargs) if m.id != corpse]

    monkeypatch.setattr(board_reader, "detect_markers", blind)
    rng = np.random.default_rng(0)
    for _ in range(4):
        e8 = {s.square: s for s in read_board(_next_frame(shot.image, rng)).squares}["e8"]
        assert e8.state == "unknown", f"the corpse on e8 was read {e8.state}"
        assert e8.note == board_reader.UNREAD_PIECE  # the region of a piece's size, for the console


def test_a_marker_seen_but_not_decoded_under_glare_is_not_an_empty_square(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A 1280×720 scene, pale grey board, a lamp's reflection over the top rank: the white
    discs of the pieces on f9 and h9 match the light squares, their blurred markers are too
    small a region to count, and both squares were read empty. The detector still sees a
    dark quad of a piece marker's size on each.

    OpenCV 5.1 decodes f9's marker: the test hands the detector's decodes of these two pieces
    back as the quads it saw, so both squares take the path where the marker is not decoded,
    whichever OpenCV reads the scene."""
    rng = np.random.default_rng([78, 70])
    params = random_params(rng, (1280, 720))
    shot = render(random_position(rng), params, rng)
    assert (shot.truth["f9"], shot.truth["h9"]) == ("rM", "xx") and not params.hands
    hidden = {i for i in range(CORNER_BASE) if marker_face(i) in (shot.faces["f9"], shot.faces["h9"])}
    detect = board_reader.detect_markers

    def undecoded(*args, **kwargs):
        found = detect(*args, **kwargs)
        if kwargs.get("unread") is not None:
            kwargs["unread"] += [m.corners.astype(np.float64) for m in found if m.id in hidden]
        return [m for m in found if m.id not in hidden]

    monkeypatch.setattr(board_reader, "detect_markers", undecoded)
    read = {s.square: s for s in read_board(shot.image).squares}
    for square in ("f9", "h9"):
        assert read[square].state == "unknown", f"{square} read {read[square].state}"
        assert read[square].note == board_reader.UNREAD_MARKER
