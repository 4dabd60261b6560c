"""The marker set: ids as data, codes far apart, and a printed sheet that reads back."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.board_detect import detect_markers
from vision.markers import (
    CORNER_BASE,
    MARKER_COUNT,
    PIECE_COUNT,
    Face,
    Piece,
    corner_id,
    corner_square,
    marker_bits,
    marker_face,
    piece_of,
)


def test_every_piece_has_a_living_and_a_dead_id_and_corners_follow() -> None:
    ids = [Piece(i).living_id for i in range(PIECE_COUNT)] + [Piece(i).dead_id for i in range(PIECE_COUNT)]
    ids += [corner_id(sq) for sq in ("a1", "i1", "i9", "a9")]
    assert sorted(ids) == list(range(MARKER_COUNT))
    for i in range(PIECE_COUNT):
        assert marker_face(Piece(i).living_id) == Face(Piece(i), dead=False)
        assert marker_face(Piece(i).dead_id) == Face(Piece(i), dead=True)
    assert [corner_square(CORNER_BASE + k) for k in range(4)] == ["a1", "i1", "i9", "a9"]
    assert marker_face(CORNER_BASE) is None and corner_square(0) is None


def test_each_party_has_the_rulebook_pieces() -> None:
    tokens = Counter(Piece(i).token for i in range(PIECE_COUNT))
    for party in "rbyg":
        assert {k: tokens[party + k] for k in "CARDNM"} == {"C": 1, "A": 1, "R": 1, "D": 1, "N": 1, "M": 4}
    assert piece_of("gM", militant=3).label == "green militant 3"
    assert piece_of("rC").index == 0 and piece_of("bC").index == 9


@pytest.mark.parametrize("bad", ["", "rX", "xC", "rCC", "RC"])
def test_bad_piece_tokens_are_refused(bad: str) -> None:
    with pytest.raises(ValueError):
        piece_of(bad)


def test_codes_differ_in_at_least_seven_bits_under_every_rotation() -> None:
    bits = np.array([marker_bits(i).reshape(-1) for i in range(MARKER_COUNT)])
    rotated = [
        np.array([np.rot90(marker_bits(i), k).reshape(-1) for i in range(MARKER_COUNT)]) for k in range(4)
    ]
    worst = 25
    for k in range(4):
        d = (bits[:, None, :] != rotated[k][None, :, :]).sum(axis=2)
        if k == 0:
            np.fill_diagonal(d, 25)
        worst = min(worst, int(d.min()))
    assert worst >= 7


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(root)}
    return subprocess.run(
        [sys.executable, "-m", "referee", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_png_sheet_reads_back_every_marker_once(tmp_path: Path) -> None:
    out = tmp_path / "sheet.png"
    done = _run("markers", "--out", str(out), "--diameter", "22", "--dpi", "150", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    image = cv2.imread(str(out), cv2.IMREAD_GRAYSCALE)
    assert image is not None and image.shape[1] == round(210 / 25.4 * 150)
    seen = Counter(m.id for m in detect_markers(image, roi=(0, 0, image.shape[1], image.shape[0])))
    assert set(seen) == set(range(MARKER_COUNT))
    assert all(n == 1 for n in seen.values())


def test_pdf_sheet_has_a_page_per_block(tmp_path: Path) -> None:
    out = tmp_path / "sheet.pdf"
    done = _run(
        "markers", "--out", str(out), "--diameter", "20", "--diameter", "30", "--dpi", "100", cwd=tmp_path
    )
    assert done.returncode == 0, done.stderr
    data = out.read_bytes()
    assert data.startswith(b"%PDF")
    # legend and corners on page 1, then each diameter on pages of its own: 72 stickers of
    # 20 mm fit on one page, those of 30 mm take two
    pages = len(re.findall(rb"/Type\s*/Page(?!s)", data))
    assert pages == 4


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--out", "x.txt"), "write a .pdf or a .png"),
        (("--out", "x.png", "--diameter", "2"), "not plausible"),
        (("--out", "/nonexistent-dir/x.png", "--diameter", "25", "--dpi", "60"), "cannot write"),
    ],
)
def test_bad_sheet_requests_are_explained(tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    done = _run("markers", *args, cwd=tmp_path)
    assert done.returncode == 2
    assert message in done.stderr
