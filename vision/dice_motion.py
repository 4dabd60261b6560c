"""Has the roll settled? Motion across frames, then one read per roll.

The daemon feeds every camera frame to a `RollWatcher`; it answers with a `DiceRead` once per
roll: when the picture has stopped changing for a moment and no hand is over the tray.

    watcher = RollWatcher()
    for frame in source.frames():
        read = watcher.feed(frame)
        if read is not None:
            ...  # a new roll: show it, ask when read.certain is False
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from vision.dice_model import DiceModel
from vision.dice_read import read_dice
from vision.dice_result import HAND, DiceRead

SMALL = (160, 90)  # motion is judged on a thumbnail: cheap, and blind to sensor noise


@dataclass(frozen=True)
class Stillness:
    """What the detector saw in one frame."""

    settled: bool  # no motion for `settle_frames` frames in a row
    motion: float  # fraction of the picture that changed since the previous frame
    still_frames: int  # frames in a row without motion


class StillnessDetector:
    """Frames in, settled or not out.

    A pixel has moved when its blurred grey level changed by more than `pixel_threshold`
    (after removing the frame's overall change, so a lamp flickering is not motion); the frame
    moved when more than `motion_threshold` of the picture did.

    >>> det = StillnessDetector(settle_frames=2)
    >>> still = np.zeros((90, 160, 3), np.uint8)
    >>> [det.update(still).settled for _ in range(3)]
    [False, False, True]
    """

    def __init__(
        self, settle_frames: int = 5, motion_threshold: float = 0.002, pixel_threshold: float = 14.0
    ) -> None:
        self.settle_frames = settle_frames
        self.motion_threshold = motion_threshold
        self.pixel_threshold = pixel_threshold
        self._previous: np.ndarray | None = None
        self._still = 0

    def reset(self) -> None:
        self._previous = None
        self._still = 0

    def update(self, frame: np.ndarray) -> Stillness:
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
        small = cv2.GaussianBlur(cv2.resize(grey, SMALL, interpolation=cv2.INTER_AREA), (5, 5), 0).astype(
            np.float32
        )
        if self._previous is None or self._previous.shape != small.shape:
            self._previous = small
            self._still = 0
            return Stillness(False, 1.0, 0)
        diff = small - self._previous
        diff -= float(np.median(diff))
        motion = float((np.abs(diff) > self.pixel_threshold).mean())
        self._previous = small
        self._still = self._still + 1 if motion <= self.motion_threshold else 0
        return Stillness(self._still >= self.settle_frames, motion, self._still)


class RollWatcher:
    """One read per roll: after motion, once the dice have settled and no hand is in view.

    `reader` defaults to :func:`vision.dice_read.read_dice` with `model`. A read that sees a
    hand over the tray is held back until the hand has gone.
    """

    def __init__(
        self,
        model: DiceModel | None = None,
        detector: StillnessDetector | None = None,
        reader: Callable[[np.ndarray], DiceRead] | None = None,
    ) -> None:
        self.detector = detector or StillnessDetector()
        self.reader = reader or (lambda frame: read_dice(frame, model))
        self._armed = True  # the first settled picture counts as a roll
        self.last: DiceRead | None = None
        self.last_stillness: Stillness | None = None

    def feed(self, frame: np.ndarray) -> DiceRead | None:
        st = self.detector.update(frame)
        self.last_stillness = st
        if st.still_frames == 0:
            self._armed = True  # something moved: the next settled picture is a new roll
            return None
        if not (st.settled and self._armed):
            return None
        read = self.reader(frame)
        if HAND in read.flags:
            return None  # wait for the hand to leave (it will move, or the read will change)
        self._armed = False
        self.last = read
        return read
