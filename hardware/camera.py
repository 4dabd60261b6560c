"""Camera frame sources: picamera2, V4L2 through OpenCV, or a folder of images / a video file.

Every source is a `FrameSource`: ``read()`` returns the next BGR frame (numpy, uint8) or None
when there is none (end of a file source, a dropped frame). The daemon does not care which.

    with open_source("auto") as cam:          # picamera2, else /dev/video0, else nothing
        frame = cam.read()

    source = open_source("referee/data/demo/dice")   # the demo: a folder of photos, looped

Colour needs a camera that does not change its mind: after calibration, `lock()` fixes
exposure and white balance. picamera2's format names and OpenCV's BGR order disagree in
practice (picamera2 issue 1325), so calibration checks the order (`channels_swapped` on a
red target; ``referee calibrate-dice`` on the dice's colours) and the source can swap red and
blue (``swap_rb=True``).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Protocol

import cv2
import numpy as np

log = logging.getLogger(__name__)

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".webp")
VIDEO_SUFFIXES = (".mp4", ".avi", ".mkv", ".mov", ".mjpeg", ".webm")


class CameraError(RuntimeError):
    """A camera that cannot be opened or used; the message says what to check."""


class FrameSource(Protocol):
    """Where frames come from."""

    name: str

    def read(self) -> np.ndarray | None:
        """The next BGR frame, or None (end of a file source, a dropped frame)."""
        ...

    def lock(self) -> dict[str, Any]:
        """Fix exposure and white balance at their current values; returns what was fixed."""
        ...

    def close(self) -> None: ...


def channels_swapped(red_patch: np.ndarray) -> bool:
    """True when a patch of something red reads as blue: the frames are RGB, not BGR.

    >>> channels_swapped(np.full((4, 4, 3), (40, 40, 200), np.uint8))   # red in BGR order
    False
    >>> channels_swapped(np.full((4, 4, 3), (200, 40, 40), np.uint8))   # red in RGB order
    True
    """
    b, _, r = (float(np.median(red_patch[..., i])) for i in range(3))
    return b > r * 1.3 and b > 40


class _SourceBase:
    name = "camera"
    swap_rb = False

    def _out(self, frame: np.ndarray | None) -> np.ndarray | None:
        if frame is None:
            return None
        if frame.ndim == 2:
            frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
        elif frame.shape[2] == 4:
            frame = cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
        if self.swap_rb:
            frame = np.ascontiguousarray(frame[..., ::-1])
        return frame

    def lock(self) -> dict[str, Any]:
        return {}

    def close(self) -> None:
        pass

    def __enter__(self):  # type: ignore[no-untyped-def]
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def frames(self) -> Iterator[np.ndarray]:
        """Frames until the source runs dry."""
        while (frame := self.read()) is not None:  # type: ignore[attr-defined]
            yield frame


class FolderSource(_SourceBase):
    """The images of a folder in name order, optionally looped and paced (the demo's camera)."""

    def __init__(
        self,
        folder: Path,
        loop: bool = False,
        fps: float | None = None,
        swap_rb: bool = False,
        hold_s: float | None = None,
    ) -> None:
        folder = Path(folder)
        if folder.is_file():
            self.files = [folder]
        else:
            self.files = sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self.files:
            raise CameraError(f"{folder} holds no images ({', '.join(IMAGE_SUFFIXES)})")
        self.name = f"folder {folder}"
        self.loop, self.fps, self.swap_rb = loop, fps, swap_rb
        self.hold_s = hold_s  # keep each image in view this long, like dice lying still after a roll
        self._i = 0
        self._last = 0.0
        self._held: tuple[float, np.ndarray] | None = None

    def read(self) -> np.ndarray | None:
        if self.hold_s and self._held is not None and time.monotonic() - self._held[0] < self.hold_s:
            return self._held[1].copy()
        frame = self._read_next()
        if self.hold_s and frame is not None:
            self._held = (time.monotonic(), frame)
        return frame

    def _read_next(self) -> np.ndarray | None:
        while True:
            if self._i >= len(self.files):
                if not self.loop:
                    return None
                self._i = 0
            path = self.files[self._i]
            self._i += 1
            if self.fps:
                wait = self._last + 1.0 / self.fps - time.monotonic()
                if wait > 0:
                    time.sleep(wait)
                self._last = time.monotonic()
            frame = cv2.imdecode(np.fromfile(path, np.uint8), cv2.IMREAD_COLOR)
            if frame is not None:
                return self._out(frame)
            log.warning("skipping %s: not a readable image", path)
            if len(self.files) == 1 and not self.loop:
                return None


class CaptureSource(_SourceBase):
    """cv2.VideoCapture: a video file, or a V4L2 device (index or /dev/videoN)."""

    def __init__(
        self, target: str | int, width: int = 1280, height: int = 720, swap_rb: bool = False
    ) -> None:
        is_device = isinstance(target, int) or str(target).startswith("/dev/video")
        backend = cv2.CAP_V4L2 if is_device else cv2.CAP_ANY
        self.cap = cv2.VideoCapture(target, backend)
        if not self.cap.isOpened():
            what = "camera" if is_device else "video file"
            raise CameraError(f"cannot open {what} {target!r}: check that it exists and is not in use")
        if is_device:
            self.cap.set(cv2.CAP_PROP_FRAME_WIDTH, width)
            self.cap.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
        self.name = f"{'V4L2' if is_device else 'video'} {target}"
        self.is_device = is_device
        self.swap_rb = swap_rb

    def read(self) -> np.ndarray | None:
        ok, frame = self.cap.read()
        return self._out(frame) if ok else None

    def lock(self) -> dict[str, Any]:
        """V4L2: manual exposure (1 = manual in the V4L2 menu) and fixed white balance."""
        if not self.is_device:
            return {}
        fixed = {
            "exposure": self.cap.get(cv2.CAP_PROP_EXPOSURE),
            "wb_temperature": self.cap.get(cv2.CAP_PROP_WB_TEMPERATURE),
        }
        self.cap.set(cv2.CAP_PROP_AUTO_EXPOSURE, 1)
        self.cap.set(cv2.CAP_PROP_EXPOSURE, fixed["exposure"])
        self.cap.set(cv2.CAP_PROP_AUTO_WB, 0)
        self.cap.set(cv2.CAP_PROP_WB_TEMPERATURE, fixed["wb_temperature"])
        return fixed

    def close(self) -> None:
        self.cap.release()


class Picamera2Source(_SourceBase):  # pragma: no cover - needs a Raspberry Pi camera
    """The Pi camera through picamera2 (not installed off the Pi)."""

    def __init__(self, width: int = 1280, height: int = 720, swap_rb: bool = False) -> None:
        try:
            from picamera2 import Picamera2  # type: ignore[import-not-found]
        except ImportError as exc:
            raise CameraError("picamera2 is not installed (apt install python3-picamera2 on the Pi)") from exc
        self.cam = Picamera2()
        # "RGB888" is documented as 24-bit RGB but is laid out B, G, R in memory, which is what
        # OpenCV wants; calibration still checks it on the red die (channels_swapped).
        config = self.cam.create_video_configuration(main={"size": (width, height), "format": "RGB888"})
        self.cam.configure(config)
        self.cam.start()
        self.name = "picamera2"
        self.swap_rb = swap_rb

    def read(self) -> np.ndarray | None:
        return self._out(self.cam.capture_array("main"))

    def lock(self) -> dict[str, Any]:
        meta = self.cam.capture_metadata()
        fixed = {
            "ExposureTime": meta.get("ExposureTime"),
            "AnalogueGain": meta.get("AnalogueGain"),
            "ColourGains": meta.get("ColourGains"),
        }
        self.cam.set_controls(
            {"AeEnable": False, "AwbEnable": False, **{k: v for k, v in fixed.items() if v}}
        )
        return fixed

    def close(self) -> None:
        self.cam.stop()
        self.cam.close()


def open_source(
    spec: str,
    swap_rb: bool = False,
    loop: bool = True,
    fps: float | None = None,
    fallback: str | Path | None = None,
    hold_s: float | None = None,
) -> FrameSource:
    """A source from a spec: "auto", "picamera", "v4l2:0", "/dev/video0", a folder or a video file.

    "auto" tries picamera2, then V4L2 device 0, then `fallback` (a folder or video file, e.g.
    the demo's ``referee/data/demo/dice``), and raises CameraError naming every failure.
    """
    if spec == "auto":
        errors = []
        for attempt in ("picamera", "v4l2:0", *([str(fallback)] if fallback else [])):
            try:
                return open_source(attempt, swap_rb, loop, fps, hold_s=hold_s)
            except CameraError as exc:
                errors.append(str(exc))
        raise CameraError("no camera found: " + "; ".join(errors))
    if spec == "picamera":
        return Picamera2Source(swap_rb=swap_rb)
    if spec.startswith("v4l2:"):
        index = spec.split(":", 1)[1]
        return CaptureSource(int(index) if index.isdigit() else index, swap_rb=swap_rb)
    if spec.startswith("/dev/video"):
        return CaptureSource(spec, swap_rb=swap_rb)
    path = Path(spec)
    if path.is_dir():
        return FolderSource(path, loop=loop, fps=fps, swap_rb=swap_rb, hold_s=hold_s)
    if path.is_file() and path.suffix.lower() in VIDEO_SUFFIXES:
        return CaptureSource(str(path), swap_rb=swap_rb)
    if path.is_file() and path.suffix.lower() in IMAGE_SUFFIXES:
        return FolderSource(path, loop=loop, fps=fps, swap_rb=swap_rb, hold_s=hold_s)
    raise CameraError(
        f"unknown camera {spec!r}: use auto, picamera, v4l2:N, a folder of images or a video file"
    )
