"""Decoding untrusted image bytes, and the CLI on corrupt files (fuzzed)."""

from __future__ import annotations

import contextlib
import struct
import subprocess
import sys
import zlib
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.dice_image import ImageDecodeError, decode_image

DATA = Path(__file__).parent / "data" / "dice"
JPEG = (DATA / "markers.jpg").read_bytes()
PNG = cv2.imencode(".png", np.zeros((200, 300, 3), np.uint8))[1].tobytes()


def test_a_real_photo_decodes():
    img = decode_image(JPEG)
    assert img.shape == (720, 1280, 3) and img.dtype == np.uint8


@given(st.binary(max_size=2048))
def test_random_bytes_never_crash(data):
    try:
        img = decode_image(data)
    except ImageDecodeError:
        return
    assert img.ndim == 3


@settings(max_examples=40)
@given(cut=st.integers(0, len(JPEG) - 1), flips=st.lists(st.integers(0, len(JPEG) - 1), max_size=8))
def test_damaged_jpegs_decode_or_fail_cleanly(cut, flips):
    data = bytearray(JPEG[: max(cut, 2)] if cut % 3 == 0 else JPEG)
    for i in flips:
        if i < len(data):
            data[i] ^= 0xFF
    with contextlib.suppress(ImageDecodeError):
        decode_image(bytes(data))


def _png_header(w: int, h: int) -> bytes:
    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", len(ihdr)) + chunk + struct.pack(">I", zlib.crc32(chunk))


def test_a_pixel_bomb_is_refused_before_decoding():
    with pytest.raises(ImageDecodeError, match="declares 100000×100000"):
        decode_image(_png_header(100_000, 100_000) + b"\0" * 64)


@pytest.mark.parametrize(
    ("data", "message"),
    [(b"", "empty"), (b"GIF89a....", "not an image"), (PNG[:60], "damaged"), (JPEG[:500], "damaged")],
)
def test_errors_say_what_is_wrong(data, message):
    with pytest.raises(ImageDecodeError, match=message):
        decode_image(data)


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "referee", "read-dice", *args], capture_output=True, text=True, timeout=60
    )


def test_cli_refuses_a_corrupt_file_with_a_message(tmp_path):
    bad = tmp_path / "roll.jpg"
    bad.write_bytes(JPEG[:700])
    done = _cli(str(bad))
    assert done.returncode == 1
    assert "damaged" in done.stderr and str(bad) in done.stderr
    missing = _cli(str(tmp_path / "nothing.jpg"))
    assert missing.returncode == 2 and "cannot read" in missing.stderr
    text = tmp_path / "notes.png"
    text.write_text("hello")
    assert _cli(str(text)).returncode == 1
