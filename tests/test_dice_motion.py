"""Stillness across frames, and one read per roll from the demo camera folder."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from hardware.camera import FolderSource
from vision.dice_motion import RollWatcher, StillnessDetector
from vision.dice_result import HAND, DiceRead, DieRead

DEMO = Path(__file__).parents[1] / "referee" / "data" / "demo" / "dice"
DEMO_LABELS = json.loads((DEMO / "labels.json").read_text())


def frame(x: int, noise_seed: int = 0, brightness: int = 0) -> np.ndarray:
    """A dark tray with one light die at x, plus sensor noise."""
    img = np.full((360, 640, 3), 30 + brightness, np.uint8)
    img[150:190, x : x + 40] = 220
    noise = np.random.default_rng(noise_seed).normal(0, 3, img.shape)
    return np.clip(img + noise, 0, 255).astype(np.uint8)


def test_motion_then_stillness():
    det = StillnessDetector(settle_frames=3)
    states = [det.update(frame(x, i)) for i, x in enumerate([100, 160, 220, 220, 220, 220, 220])]
    assert [s.settled for s in states] == [False, False, False, False, False, True, True]
    assert states[1].motion > 0.002 and states[4].motion <= 0.002


def test_noise_and_a_flickering_lamp_are_not_motion():
    det = StillnessDetector(settle_frames=2)
    states = [det.update(frame(200, i, brightness=(i % 2) * 12)) for i in range(5)]
    assert states[-1].settled and max(s.motion for s in states[1:]) == 0.0


def fake_read(flags: tuple[str, ...] = ()) -> DiceRead:
    return DiceRead((DieRead("green", "letter", "B", 1.0),), 1.0, flags)


def test_one_read_per_roll_and_none_while_a_hand_is_over_the_tray():
    reads = iter([fake_read((HAND,)), fake_read(), fake_read()])
    watcher = RollWatcher(detector=StillnessDetector(settle_frames=2), reader=lambda f: next(reads))
    out = [watcher.feed(frame(x, i)) for i, x in enumerate([100, 200, 200, 200, 200, 200])]
    got = [i for i, r in enumerate(out) if r is not None]
    assert got == [4]  # frame 3 settled but showed a hand; frame 4 is the roll; then no repeat
    out2 = [watcher.feed(frame(x, 10 + i)) for i, x in enumerate([300, 300, 300, 300])]
    assert [i for i, r in enumerate(out2) if r is not None] == [2]  # the next roll, once


def test_the_demo_folder_yields_each_roll_once_and_right():
    watcher = RollWatcher(detector=StillnessDetector(settle_frames=2))
    reads = [r for f in FolderSource(DEMO).frames() if (r := watcher.feed(f)) is not None]
    settled = [lab for lab in DEMO_LABELS if not lab["hand"]]
    expected = []
    for lab in settled:
        values = {d["name"]: d["value"] for d in lab["dice"]}
        if values not in expected:
            expected.append(values)
    assert len(reads) == len(expected) == 2
    for read, values in zip(reads, expected, strict=True):
        assert read.certain
        assert {d.die: d.value for d in read.dice} == values
