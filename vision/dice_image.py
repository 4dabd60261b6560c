"""Decode image bytes safely: clear errors for anything that is not a sane photo.

Pure (bytes in, array out). A file claiming enormous dimensions is refused before decoding,
so a crafted header cannot make the referee allocate gigabytes.

>>> decode_image(b"not an image")
Traceback (most recent call last):
...
vision.dice_image.ImageDecodeError: not an image the reader understands (PNG, JPEG, BMP or WebP)
"""

from __future__ import annotations

import struct

import cv2
import numpy as np

MAX_BYTES = 64 * 1024 * 1024
MAX_PIXELS = 40_000_000  # a 40-megapixel photo is the largest the reader accepts


class ImageDecodeError(ValueError):
    """Bytes that are not a usable image; the message says why."""


def _png_size(data: bytes) -> tuple[int, int] | None:
    if len(data) < 24 or data[12:16] != b"IHDR":
        return None
    w, h = struct.unpack(">II", data[16:24])
    return w, h


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    i = 2
    while i + 9 < len(data):
        if data[i] != 0xFF:
            i += 1
            continue
        marker = data[i + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7 or marker == 0xFF:
            i += 1 if marker == 0xFF else 2
            continue
        length = struct.unpack(">H", data[i + 2 : i + 4])[0]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            h, w = struct.unpack(">HH", data[i + 5 : i + 9])
            return w, h
        i += 2 + length
    return None


def _bmp_size(data: bytes) -> tuple[int, int] | None:
    if len(data) < 26:
        return None
    w, h = struct.unpack("<ii", data[18:26])
    return abs(w), abs(h)


def image_size(data: bytes) -> tuple[str, tuple[int, int] | None]:
    """The format and the (width, height) a header declares, without decoding."""
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "PNG", _png_size(data)
    if data.startswith(b"\xff\xd8"):
        return "JPEG", _jpeg_size(data)
    if data.startswith(b"BM"):
        return "BMP", _bmp_size(data)
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "WebP", None
    raise ImageDecodeError("not an image the reader understands (PNG, JPEG, BMP or WebP)")


def decode_image(data: bytes) -> np.ndarray:
    """A BGR uint8 image from file bytes, or ImageDecodeError."""
    if not data:
        raise ImageDecodeError("the file is empty")
    if len(data) > MAX_BYTES:
        raise ImageDecodeError(f"the file is larger than {MAX_BYTES // (1024 * 1024)} MB")
    fmt, size = image_size(data)
    if size is not None:
        w, h = size
        if w <= 0 or h <= 0 or w * h > MAX_PIXELS:
            raise ImageDecodeError(f"the {fmt} header declares {w}×{h} pixels, which is not a camera frame")
    log = cv2.utils.logging
    level = log.getLogLevel()
    log.setLogLevel(log.LOG_LEVEL_ERROR)  # damage is reported below, in words, not as a warning
    try:
        img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    except cv2.error as exc:  # pragma: no cover - OpenCV reports most damage by returning None
        raise ImageDecodeError(f"the {fmt} data is damaged ({exc.err})") from None
    finally:
        log.setLogLevel(level)
    if img is None:
        raise ImageDecodeError(f"the {fmt} data is damaged or truncated")
    return img
