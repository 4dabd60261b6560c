"""The camera over the dice tray, in the daemon: frames → settled rolls → the Djam round's dice.

Frames are read and judged off the event loop (a read takes tens of milliseconds). Once the dice
have settled with no hand in view, the roll is read once (vision.dice_motion.RollWatcher). The
display shows the crop with the read drawn on it. When the current game is a Djam round waiting
for its dice, a certain read becomes the round's dice at once (a ``dice`` event with
``"source": "camera"``, journalled like any input); a doubtful one waits at the console, which
shows the doubts and lets the scorekeeper confirm or correct it (every correction is kept as
labelled data for `referee calibrate-dice`).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from hardware.camera import CameraError, FrameSource
from referee.session import InputRefused, Session
from vision.dice_debug import draw_read
from vision.dice_motion import RollWatcher
from vision.dice_result import DiceRead

log = logging.getLogger(__name__)
LETTER_DICE = ("green", "white", "yellow", "red", "blue")
PREVIEW_WIDTH = 640


@dataclass
class CameraRead:
    """The latest settled roll the camera saw."""

    number: int  # counts the rolls seen since the start
    read: dict[str, Any]  # DiceRead.to_json()
    preview_jpeg: bytes  # the frame with the read drawn on it, for the display
    used: str | None = None  # "auto" / "confirmed" once it became a round's dice
    refusal: str | None = None  # why the game did not take it


def dice_event(read: dict[str, Any]) -> dict[str, Any] | None:
    """The Djam ``dice`` event for a read, or None when a die is missing."""
    letters = read.get("letters") or {}
    event: dict[str, Any] = {"type": "dice", "source": "camera"}
    for colour in LETTER_DICE:
        if not letters.get(colour):
            return None
        event[colour] = letters[colour]
    if not read.get("colour"):
        return None
    event["colour"] = read["colour"]
    if read.get("theme") is not None:
        event["theme"] = read["theme"]
    return event


def wants_dice(session: Session) -> bool:
    """Is the current game a Djam round waiting for its dice?"""
    if session.current_id is None:
        return False
    game = session.games[session.current_id]
    if game.fold.engine.game != "djam":
        return False
    return game.fold.engine.summary(game.fold.state).get("phase") == "roll"


class DiceCamera:
    """Watches one frame source; all state changes happen on the event loop."""

    def __init__(
        self,
        source: FrameSource,
        session: Session,
        *,
        fps: float = 4.0,
        auto_accept: bool = True,
        labels_dir: Path | None = None,
        watcher: RollWatcher | None = None,
    ) -> None:
        self.source = source
        self.session = session
        self.fps = fps
        self.auto_accept = auto_accept
        self.labels_dir = labels_dir
        self.watcher = watcher or RollWatcher()
        self.latest: CameraRead | None = None
        self.error: str | None = None
        self.rolls = 0
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="dice-camera")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
        self.source.close()

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        period = 1.0 / self.fps
        while True:
            started = time.monotonic()
            try:
                result = await loop.run_in_executor(None, self._next_read)
                if self.error is not None:
                    self.error = None
                    self.session.changed()
            except (CameraError, cv2.error, OSError) as exc:
                if self.error != str(exc):
                    log.error("camera: %s", exc)
                    self.error = str(exc)
                    self.session.changed()
                result = None
            if result is not None:
                self._seen(*result)
            await asyncio.sleep(max(0.0, period - (time.monotonic() - started)))

    def _next_read(self) -> tuple[DiceRead, bytes] | None:
        """On a worker thread: one frame through the watcher; a settled roll's read and preview."""
        frame = self.source.read()
        if frame is None:
            return None
        read = self.watcher.feed(frame)
        if read is None:
            return None
        return read, preview(frame, read)

    def _seen(self, read: DiceRead, jpeg: bytes) -> None:
        self.rolls += 1
        self.latest = CameraRead(self.rolls, read.to_json(), jpeg)
        log.info("camera: roll %d read %s", self.rolls, json.dumps(self.latest.read["letters"]))
        if self.auto_accept and read.certain and wants_dice(self.session):
            self._use("auto")
        self.session.changed()

    def accept(self, corrected: dict[str, Any] | None = None) -> dict[str, Any]:
        """The scorekeeper confirms the latest read (or a correction of it) as the round's dice."""
        if self.latest is None:
            raise InputRefused("the camera has not read a roll yet", status=409)
        if self.latest.used and not corrected:
            raise InputRefused(
                "this roll is already the round's dice; correct it at the console if it was misread"
            )
        if corrected:
            self._keep_label(corrected)
        return self._use("confirmed", corrected)

    def _use(self, how: str, corrected: dict[str, Any] | None = None) -> dict[str, Any]:
        assert self.latest is not None
        event = dice_event(self.latest.read)
        if corrected:
            event = {
                **(event or {"type": "dice", "source": "camera"}),
                **corrected,
                "source": "camera-corrected",
            }
        if event is None:
            raise InputRefused("the camera did not see every die: correct the read or type the dice")
        event["confidence"] = self.latest.read.get("confidence")
        try:
            self.session.submit(event)
        except InputRefused as exc:
            self.latest.refusal = str(exc)
            if how == "auto":
                log.warning("camera read not taken: %s", exc)
                return {"ok": False, "error": str(exc)}
            raise
        self.latest.used = how
        self.latest.refusal = None
        return {"ok": True, "dice": event}

    def _keep_label(self, corrected: dict[str, Any]) -> None:
        """Every correction is labelled data for learning the user's own dice."""
        if self.labels_dir is None or self.latest is None:
            return
        try:
            self.labels_dir.mkdir(parents=True, exist_ok=True)
            stem = self.labels_dir / f"roll-{int(time.time())}-{self.latest.number}"
            stem.with_suffix(".jpg").write_bytes(self.latest.preview_jpeg)
            label = {"read": self.latest.read, "corrected": corrected}
            stem.with_suffix(".json").write_text(json.dumps(label, ensure_ascii=False, indent=1))
        except OSError as exc:
            log.warning("could not keep the corrected roll: %s", exc)

    def view(self) -> dict[str, Any]:
        latest = self.latest
        return {
            "source": self.source.name,
            "error": self.error,
            "rolls": self.rolls,
            "waiting_for_dice": wants_dice(self.session),
            "latest": None
            if latest is None
            else {
                "number": latest.number,
                "read": latest.read,
                "used": latest.used,
                "refusal": latest.refusal,
                "event": dice_event(latest.read),
            },
        }


def preview(frame: np.ndarray, read: DiceRead) -> bytes:
    """The frame with the read drawn on it, scaled for a phone and the TV, as JPEG."""
    drawn = draw_read(frame, read)
    height, width = drawn.shape[:2]
    if width > PREVIEW_WIDTH:
        drawn = cv2.resize(
            drawn, (PREVIEW_WIDTH, round(height * PREVIEW_WIDTH / width)), interpolation=cv2.INTER_AREA
        )
    ok, buffer = cv2.imencode(".jpg", drawn, [cv2.IMWRITE_JPEG_QUALITY, 80])
    return buffer.tobytes() if ok else b""
