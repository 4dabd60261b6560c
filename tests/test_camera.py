"""Frame sources: folders, video files, the channel-order check, clear errors."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from hardware.camera import CameraError, CaptureSource, FolderSource, channels_swapped, open_source

DEMO = Path(__file__).parents[1] / "referee" / "data" / "demo" / "dice"


def test_folder_source_reads_in_name_order_and_can_loop():
    src = FolderSource(DEMO)
    frames = list(src.frames())
    assert len(frames) == len(list(DEMO.glob("*.jpg")))
    assert all(f.shape == (720, 1280, 3) and f.dtype == np.uint8 for f in frames)
    looped = FolderSource(DEMO, loop=True)
    first = looped.read()
    for _ in range(len(frames) - 1):
        looped.read()
    again = looped.read()
    assert first is not None and again is not None and np.array_equal(first, again)


def test_folder_source_skips_damaged_files(tmp_path):
    cv2.imwrite(str(tmp_path / "a.png"), np.full((20, 30, 3), 7, np.uint8))
    (tmp_path / "b.png").write_bytes(b"not a png")
    cv2.imwrite(str(tmp_path / "c.png"), np.full((20, 30, 3), 9, np.uint8))
    values = [int(f[0, 0, 0]) for f in FolderSource(tmp_path).frames()]
    assert values == [7, 9]


def test_video_file_source(tmp_path):
    path = tmp_path / "roll.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10, (160, 120))
    for i in range(5):
        writer.write(np.full((120, 160, 3), 40 * i, np.uint8))
    writer.release()
    src = open_source(str(path))
    assert isinstance(src, CaptureSource)
    means = [float(f.mean()) for f in src.frames()]
    src.close()
    assert len(means) == 5 and means == sorted(means)


def test_swap_rb_turns_rgb_frames_into_bgr(tmp_path):
    rgb_red = np.zeros((10, 10, 3), np.uint8)
    rgb_red[..., 0] = 200  # red in RGB order, which OpenCV would take for blue
    cv2.imwrite(str(tmp_path / "x.png"), rgb_red)
    assert channels_swapped(FolderSource(tmp_path).read())
    assert not channels_swapped(FolderSource(tmp_path, swap_rb=True).read())


@pytest.mark.parametrize("spec", ["/nonexistent/folder", "v4l2:57", "ftp://camera"])
def test_unknown_or_missing_cameras_raise_a_clear_error(spec):
    with pytest.raises(CameraError):
        open_source(spec)


def test_an_empty_folder_is_an_error(tmp_path):
    with pytest.raises(CameraError, match="no images"):
        open_source(str(tmp_path))


def test_auto_falls_back_to_the_demo_folder_when_there_is_no_camera():
    if Path("/dev/video0").exists():
        pytest.skip("this machine has a camera")
    src = open_source("auto", fallback=DEMO)
    assert isinstance(src, FolderSource)
    frame = src.read()
    assert frame is not None and frame.shape == (720, 1280, 3)
    with pytest.raises(CameraError, match="no camera found"):
        open_source("auto")
