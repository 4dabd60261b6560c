"""Grid-line pixels that show the line count as seen board (vision.board_line_seen)."""

from __future__ import annotations

import numpy as np

from vision import board_line_seen as bls
from vision.board_geometry import DEFAULT_GEOMETRY
from vision.board_line_seen import seen_lines
from vision.board_surface import LINE_PX, View, to_levels

PPU = 24


def _board(rng: np.random.Generator):
    """A bare board top view (linear) with thin dark lines, its model, and the View."""
    view = View.of(DEFAULT_GEOMETRY, PPU)
    colours = {
        0: np.array([0.08, 0.10, 0.14]),
        1: np.array([0.55, 0.60, 0.62]),
        2: np.array([0.08, 0.10, 0.14]),
    }
    model = np.zeros((*view.classes.shape, 3), np.float32)
    for c, col in colours.items():
        model[view.classes == c] = col
    lin = model.copy()
    n = model.shape[0]
    # The line, half a pixel off the band's middle: dark at the boundary pixel, a little at
    # the next one (as the top view samples it).
    line = np.array([0.02, 0.025, 0.03])
    for c in range(0, n, PPU):
        for o, w in ((0, 0.8), (1, 0.25)):
            if c + o < n:
                lin[:, c + o] = (1 - w) * lin[:, c + o] + w * line
                lin[c + o, :] = (1 - w) * lin[c + o, :] + w * line
    lin *= 1 + rng.normal(0, 0.01, lin.shape).astype(np.float32)
    return view, lin.astype(np.float32), model


def _crossings(n: int) -> np.ndarray:
    """Where a vertical and a horizontal line's bands cross (left out)."""
    near = (np.arange(n) % PPU < LINE_PX) | (np.arange(n) % PPU >= PPU - LINE_PX)
    return near[:, None] & near[None, :]


def _strip(n: int, boundary: int) -> np.ndarray:
    """The band of the vertical line at file boundary ``boundary`` (in squares), ranks 4–6
    short of their ends."""
    strip = np.zeros((n, n), bool)
    strip[3 * PPU + 4 : 6 * PPU - 4, boundary * PPU - 2 : boundary * PPU + 2] = True
    return strip


def _seen(view, lin, model, foreign, reference):
    levels = to_levels(lin)
    sigma = np.full(lin.shape, 2.0, np.float32)
    candidates = view.line.copy()
    light = (np.ones(lin.shape[:2], np.float32), np.zeros(lin.shape[:2], np.float32))
    return seen_lines(
        lin, model, light, levels, sigma, reference, candidates, foreign, view.classes, PPU, LINE_PX
    )


def test_bare_and_shadowed_lines_are_seen_a_hand_over_them_is_not():
    rng = np.random.default_rng(1)
    view, lin, model = _board(rng)
    n = lin.shape[0]
    # A hand the colour of the dark squares over files c–d of ranks 4–6 (rows 72–143).
    hand = np.zeros((n, n), bool)
    hand[3 * PPU : 6 * PPU, 2 * PPU + 6 : 4 * PPU - 6] = True
    lin[hand] = np.array([0.08, 0.10, 0.14], np.float32)
    # A shadow (a third dimmer) over files f–g of the same ranks.
    shadow = np.zeros((n, n), bool)
    shadow[3 * PPU : 6 * PPU, 5 * PPU - 4 : 7 * PPU + 4] = True
    lin[shadow] *= 0.65
    foreign = np.zeros((n, n), bool)
    reference = view.line & ~hand & ~shadow
    reference[2 * PPU : 7 * PPU] = False  # the reference is far from both
    seen = _seen(view, lin, model, foreign, reference)
    # The vertical line between files c and d, under the hand: not seen.
    assert not seen[_strip(n, 3)].any()
    # The vertical line between files f and g in the shadow: seen.
    assert seen[_strip(n, 6) & ~_crossings(n)].mean() > 0.95
    # Bare lines far from both: seen, except the crossings.
    far = view.line.copy()
    far[2 * PPU : 7 * PPU] = False
    inner = far & ~_crossings(n)
    # The board's outer lines have only half a band: not looked at.
    inner[:, :LINE_PX] = inner[:, -LINE_PX:] = inner[:LINE_PX] = inner[-LINE_PX:] = False
    assert seen[inner].mean() > 0.95


def test_a_line_beside_foreign_pixels_is_not_seen():
    """A dark sleeve may look like a dark line: beside foreign pixels the line is not seen."""
    rng = np.random.default_rng(2)
    view, lin, model = _board(rng)
    n = lin.shape[0]
    foreign = np.zeros((n, n), bool)
    foreign[3 * PPU : 6 * PPU, 3 * PPU + 2] = True  # just right of the line between c and d
    reference = view.line.copy()
    reference[2 * PPU : 7 * PPU] = False
    seen = _seen(view, lin, model, foreign, reference)
    assert not seen[_strip(n, 3)].any()  # the line beside them
    assert seen[_strip(n, 6) & ~_crossings(n)].mean() > 0.95  # a line across the board


def test_a_square_beside_a_hand_is_read_empty_through_its_seen_line(monkeypatch):
    """Tune scene 153: g2 is bare beside a hand; the line between it and the hand shows, and
    the reader counts it as seen board. With the two other rules that free g2's pixels beside
    the hand left out, the seen line is what lifts g2 towards *empty*.

    The test measures g2's seen share (``Verdict.seen``, FREE_ENOUGH is 0.5) rather than the
    read: without the seen line g2 sits just above or below 0.5 (0.509 on an AVX2 machine,
    under 0.5 on the one the test was written on), so a read would test the CPU's rounding."""
    from tests.scene_cache import scene
    from tests.seen_shares import seen_shares
    from vision import board_surface
    from vision.board_reader import read_board

    shot = scene("tune", 153)
    assert shot.truth["g2"] == "" and shot.hide["g2"] < 0.05
    seen = seen_shares(monkeypatch)
    assert read_board(shot.image).square("g2").state == "empty"
    assert seen["g2"] > 0.95
    # The hand's hue beside g2 (vision.board_hand_field) and the step in colour from the hand
    # to g2 (vision.board_hand_step) also free its pixels: left out.
    monkeypatch.setattr(board_surface, "unlike_hand", lambda *a, **k: np.zeros(a[0].shape[:2], bool))
    monkeypatch.setattr(board_surface, "step_bounded", lambda levels, *a: np.zeros(levels.shape[:2], bool))
    read_board(shot.image)
    with_line = seen["g2"]
    monkeypatch.setattr(board_surface, "seen_lines", lambda *a: np.zeros(a[6].shape, bool))
    read_board(shot.image)
    without_line = seen["g2"]
    # 0.535 against 0.509 here: the line's pixels are a strip along g2's side.
    assert with_line > without_line + 0.015


def test_the_band_layouts_kept_are_bounded() -> None:
    """One layout per board: reading many boards' layouts keeps only the last BANDS_KEPT."""
    bls._BANDS.clear()
    for c in range(bls.BANDS_KEPT + 3):
        classes = np.full((3 * PPU, 3 * PPU), c % 4, np.int8)
        classes[0, c] = (c + 1) % 4  # each layout its own
        bls._band(classes, PPU, LINE_PX)
    assert len(bls._BANDS) == bls.BANDS_KEPT
