"""Grid-line pixels that show the line are seen board, even beside a hand.

Grid-line pixels (within LINE_PX of a square boundary, `View.line`) are not judged against the
board model; `vision.board_surface.analyse` takes them as good where the judged pixels around
them are. Beside a hand those are often "hidden" (bare-looking, but a hand of the board's
colour could lie over them), and so the line pixels are too.

Across a grid line, bare board shows a fixed profile: the light square, the dark line, the
dark square (blurred, and half a pixel off the band's middle). A hand of one colour over the
band flattens that profile: it cannot match the board on both sides. So a cross-section of the
band (the band's pixels in one row of a vertical line, or one column of a horizontal one) is
seen where it is, every pixel and channel within the noise, what the same frame's
cross-sections far from any hand show (relative to the modelled board, by kind of band
pixel), dimmed by one factor (a shadow's); where the cross-sections before and after it along
the line fit too (the line goes on); and where the first judged pixels on both sides are not
foreign (a dark sleeve could match a dark line, but would be foreign beside it). A hand
ending exactly at the line could hide the band's half on its side; the square beyond it is
judged as before.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.board_fast import as_channels

MATCH_SIGMAS = 4.0  # a band pixel fits the profile within this many sigmas, every channel
DIM_RANGE = (0.2, 1.05)  # a shadow dims the whole cross-section by one factor in this range
MIN_REFERENCE = 12  # reference pixels needed per kind of band pixel
_OUT = 99  # the offset of a pixel outside the band


def _offsets(idx: np.ndarray, ppu: int, line_px: int) -> np.ndarray:
    """Offset of each index from the nearest square boundary (``-line_px .. line_px - 1``
    inside the band, ``_OUT`` outside)."""
    m = idx % ppu
    return np.where(m < line_px, m, np.where(m >= ppu - line_px, m - ppu, _OUT))


@dataclass(frozen=True)
class _Band:
    """The grid lines' band pixels (crossings left out): grouped by kind (the line's
    direction, the offset across it and the classes of the squares on its two sides), and
    cut into cross-sections (the band's pixels in one row of a vertical line, or one column
    of a horizontal one; inner lines only)."""

    order: np.ndarray  # flat indices of the band pixels, kind by kind
    bounds: np.ndarray  # kind k is order[bounds[k] : bounds[k + 1]]
    sections: np.ndarray  # (S, 2·line_px): positions in ``order`` of each cross-section
    section_of: np.ndarray  # per position in ``order``: its cross-section, or S (none)
    before: np.ndarray  # per cross-section: the one before / after it along the line, or S
    after: np.ndarray
    side_lo: np.ndarray  # per cross-section: flat index of the first judged pixel each side
    side_hi: np.ndarray
    kind_of: np.ndarray  # per position in ``order``: its kind


_BANDS: dict[tuple[int, int, bytes], _Band] = {}
BANDS_KEPT = 8  # boards' layouts remembered (a daemon reads one board; tests a few)


def _band(classes: np.ndarray, ppu: int, line_px: int) -> _Band:
    k = (ppu, line_px, classes.astype(np.int8).tobytes())
    if k not in _BANDS:
        if len(_BANDS) >= BANDS_KEPT:
            _BANDS.pop(next(iter(_BANDS)))  # the oldest: nothing grows with the boards seen
        _BANDS[k] = _make_band(classes, ppu, line_px)
    return _BANDS[k]


def _make_band(classes: np.ndarray, ppu: int, line_px: int) -> _Band:
    n = classes.shape[0]
    idx = np.arange(n)
    off1 = _offsets(idx, ppu, line_px)
    ou = np.broadcast_to(off1[None, :], (n, n))  # across a vertical line
    ov = np.broadcast_to(off1[:, None], (n, n))  # across a horizontal line
    vert = (ou != _OUT) & (ov == _OUT)
    horiz = (ov != _OUT) & (ou == _OUT)
    # The squares on both sides of the line: the pixel's own and the one across.
    lo_i = np.clip(idx - np.where(off1 < 0, 0, line_px), 0, n - 1)
    hi_i = np.clip(idx + np.where(off1 < 0, line_px, 0), 0, n - 1)
    lo = np.clip(np.where(vert, classes[:, lo_i], classes[lo_i, :]), 0, 3)
    hi = np.clip(np.where(vert, classes[:, hi_i], classes[hi_i, :]), 0, 3)
    off = np.where(vert, ou, ov) + line_px  # 0 .. 2·line_px − 1
    key = (((vert * 2 * line_px + off) * 4 + lo) * 4 + hi).ravel()
    band = np.flatnonzero((vert | horiz).ravel())
    order = band[np.argsort(key[band], kind="stable")]
    ks = key[order]
    bounds = np.concatenate([[0], np.flatnonzero(np.diff(ks)) + 1, [len(ks)]])
    pos = np.full(n * n, -1)
    pos[order] = np.arange(len(order))
    rows = idx[off1 == _OUT]  # along a line, outside the crossings
    lines = np.arange(ppu, n - ppu + 1, ppu)
    across = np.arange(-line_px, line_px)
    # Vertical lines: pixel (v, c + o); horizontal: (c + o, u) — flat v·n + u.
    vflat = rows[None, :, None] * n + (lines[:, None, None] + across[None, None, :])
    hflat = (lines[:, None, None] + across[None, None, :]) * n + rows[None, :, None]
    flat = np.concatenate([vflat, hflat])  # (2 · lines, rows, 2·line_px)
    m, r = flat.shape[:2]
    count = m * r
    ids = np.arange(count).reshape(m, r)
    # Neighbours along the line: the next row (column) outside the crossings, beyond a
    # crossing too (the line goes on across it).
    before = np.full((m, r), count)
    after = np.full((m, r), count)
    before[:, 1:] = ids[:, :-1]
    after[:, :-1] = ids[:, 1:]
    sections = pos[flat.reshape(count, -1)]
    section_of = np.full(len(order), count)
    section_of[sections.ravel()] = np.repeat(np.arange(count), 2 * line_px)
    first = flat[..., 0].ravel()
    last = flat[..., -1].ravel()
    vertical = np.repeat(np.arange(m) < len(lines), r)
    side_lo = np.where(vertical, first - 1, first - n)
    side_hi = np.where(vertical, last + 1, last + n)
    kind_of = np.repeat(np.arange(len(bounds) - 1), np.diff(bounds))
    return _Band(
        order, bounds, sections, section_of, before.ravel(), after.ravel(), side_lo, side_hi, kind_of
    )


def _kind_profile(
    qb: np.ndarray, refb: np.ndarray, bounds: np.ndarray, needed: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The reference profile (linear ÷ modelled board) of each kind of band pixel and its
    relative spread: for kind k (``bounds``: its pixels are ``qb[bounds[k] : bounds[k + 1]]``,
    3 channels), the median and MAD of each channel over the kind's reference pixels
    (``refb``); zero for a kind with too few (MIN_REFERENCE), and for a kind not ``needed``
    (a boolean per kind: `seen_lines` reads the profile only in the cross-sections it asks
    about, often two thirds of the kinds).

    The reference values are gathered once, as rows (channel × pixel; a kind is a run of
    columns): the same order statistics and arithmetic as a kind at a time
    (tests/test_board_speed_23a.py keeps that form, tests/test_board_speed_25a.py the one that
    made every kind and spread it over the band)."""
    ref = np.ascontiguousarray(qb[refb].T)
    first = np.concatenate([[0], np.cumsum(refb)])[bounds]  # each kind's first reference column
    kinds = len(bounds) - 1
    med_k = np.zeros((kinds, qb.shape[1]), qb.dtype)
    mad_k = np.zeros((kinds, qb.shape[1]), qb.dtype)
    for k in np.flatnonzero(needed[:kinds]).tolist():
        vals = ref[:, first[k] : first[k + 1]]
        h = vals.shape[1] // 2
        if h < MIN_REFERENCE // 2:
            continue
        med = np.partition(vals, h, axis=1)[:, h]
        med_k[k] = med
        mad_k[k] = np.partition(np.abs(vals - med[:, None]), h, axis=1)[:, h]
    return med_k, 1.4826 * mad_k / np.maximum(med_k, 1e-3)


def seen_lines(
    lin: np.ndarray,
    pred: np.ndarray,
    light: tuple[np.ndarray, np.ndarray],
    levels: np.ndarray,
    sigma: np.ndarray,
    reference: np.ndarray,
    candidates: np.ndarray,
    foreign: np.ndarray,
    classes: np.ndarray,
    ppu: int,
    line_px: int,
) -> np.ndarray:
    """The ``candidates`` (band pixels, boolean) whose cross-section shows the grid line.

    ``lin`` is the top view (linear, the modelled glare taken off), ``pred`` bare board's
    predicted colour there (linear) and ``light`` the local light ``(a, b)`` on it (the
    modelled board is ``a · pred + b``), ``levels`` the top view in levels and ``sigma`` its noise
    (levels, per channel); ``reference`` the band pixels taken as bare (far from any hand).
    """
    b = _band(classes, ppu, line_px)
    seen = np.zeros(classes.shape, bool)
    cand = candidates.ravel()[b.order]
    if not cand.any():
        return seen

    # The band's pixels picked with np.take: the same copies as an index, several times faster.
    def band(a: np.ndarray) -> np.ndarray:
        return np.take(a.reshape(-1, 3) if a.ndim == 3 else a.ravel(), b.order, axis=0)

    # The light's terms as three channels (`as_channels`: quicker than broadcasting).
    model = as_channels(band(light[0])) * band(pred) + as_channels(band(light[1]))
    qb = band(lin) / np.maximum(model, 1e-4)
    # Only the cross-sections of candidates, and those before and after them along the line,
    # are asked about; each is fitted on its own numbers (the same as among all of them).
    count = len(b.before)
    asked = np.zeros(count + 1, bool)  # index S: no cross-section
    asked[b.section_of[cand]] = True
    asked[count] = False
    mine = np.flatnonzero(asked)
    asked[b.before[mine]] = True
    asked[b.after[mine]] = True
    asked[count] = False
    at = np.take(b.sections, np.flatnonzero(asked), axis=0)  # (asked, 2·line_px) positions
    pixels = np.take(b.order, at)
    rel = (
        2.2
        * np.take(sigma.reshape(-1, 3), pixels, axis=0)
        / np.maximum(np.take(levels.reshape(-1, 3), pixels, axis=0), 5.0)
    )
    # The reference profile of the kinds in those cross-sections only, each position given
    # its kind's numbers (the same as spreading every kind's over the band first).
    kinds = np.take(b.kind_of, at)
    needed = np.zeros(len(b.bounds) - 1, bool)
    needed[kinds] = True
    prof, spread = _kind_profile(qb, reference.ravel()[b.order], b.bounds, needed)
    Q = np.take(qb, at, axis=0)  # (asked, 2·line_px, 3)
    P, spread_at = np.take(prof, kinds, axis=0), np.take(spread, kinds, axis=0)
    T = MATCH_SIGMAS * np.sqrt(spread_at**2 + rel**2) * P
    # One dimming factor for the whole cross-section (a shadow's), fitted.
    f = (Q * P).sum(axis=(1, 2)) / np.maximum((P * P).sum(axis=(1, 2)), 1e-9)
    fits_at = np.all(np.abs(Q - f[:, None, None] * P) <= f[:, None, None] * T, axis=(1, 2))
    fits_at &= (f >= DIM_RANGE[0]) & (f <= DIM_RANGE[1]) & np.all(P > 0, axis=(1, 2))
    fits = np.zeros(count + 1, bool)
    fits[asked] = fits_at
    # The line goes on: the cross-sections before and after it along the line fit too.
    ok = fits[:-1] & fits[b.before] & fits[b.after]
    # Both sides of the line, just beyond the band, are not foreign.
    fg = foreign.ravel()
    ok &= ~fg[b.side_lo] & ~fg[b.side_hi]
    ok = np.append(ok, False)
    seen.ravel()[b.order] = cand & ok[b.section_of]
    return seen
