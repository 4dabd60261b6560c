"""Round 25's exact speed-ups of the surface's rest, the shadows and the rim (board25a) give
the results of the forms they replace, bit for bit. The old forms are kept here."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.line_scenes import lines_scene
from tests.recorded_calls import analyse_calls, calls_within_analyse, recorded_calls
from tests.same_bits import same_bits


def _reference_profile_24(qb, refb, bounds):
    """`seen_lines`' reference profile in round 24: every kind's, spread over the band."""
    from vision.board_line_seen import MIN_REFERENCE

    ref = np.ascontiguousarray(qb[refb].T)
    first = np.concatenate([[0], np.cumsum(refb)])[bounds]
    kinds = len(bounds) - 1
    med_k = np.zeros((kinds, qb.shape[1]), qb.dtype)
    mad_k = np.zeros((kinds, qb.shape[1]), qb.dtype)
    for k in range(kinds):
        vals = ref[:, first[k] : first[k + 1]]
        h = vals.shape[1] // 2
        if h < MIN_REFERENCE // 2:
            continue
        med = np.partition(vals, h, axis=1)[:, h]
        med_k[k] = med
        mad_k[k] = np.partition(np.abs(vals - med[:, None]), h, axis=1)[:, h]
    sizes = np.diff(bounds)
    return np.repeat(med_k, sizes, axis=0), np.repeat(1.4826 * mad_k / np.maximum(med_k, 1e-3), sizes, axis=0)


def _seen_lines_24(lin, pred, light, levels, sigma, reference, candidates, foreign, classes, ppu, line_px):
    """`seen_lines` in round 24: the profile of every kind, spread over the band, then read at
    the cross-sections asked about."""
    import vision.board_line_seen as bls
    from vision.board_fast import as_channels

    b = bls._band(classes, ppu, line_px)
    seen = np.zeros(classes.shape, bool)
    cand = candidates.ravel()[b.order]
    if not cand.any():
        return seen

    def band(a):
        return np.take(a.reshape(-1, 3) if a.ndim == 3 else a.ravel(), b.order, axis=0)

    model = as_channels(band(light[0])) * band(pred) + as_channels(band(light[1]))
    qb = band(lin) / np.maximum(model, 1e-4)
    refb = reference.ravel()[b.order]
    prof, spread = _reference_profile_24(qb, refb, b.bounds)
    count = len(b.before)
    asked = np.zeros(count + 1, bool)
    asked[b.section_of[cand]] = True
    asked[count] = False
    mine = np.flatnonzero(asked)
    asked[b.before[mine]] = True
    asked[b.after[mine]] = True
    asked[count] = False
    at = np.take(b.sections, np.flatnonzero(asked), axis=0)
    pixels = np.take(b.order, at)
    rel = (
        2.2
        * np.take(sigma.reshape(-1, 3), pixels, axis=0)
        / np.maximum(np.take(levels.reshape(-1, 3), pixels, axis=0), 5.0)
    )
    Q, P, spread_at = (np.take(x, at, axis=0) for x in (qb, prof, spread))
    T = bls.MATCH_SIGMAS * np.sqrt(spread_at**2 + rel**2) * P
    f = (Q * P).sum(axis=(1, 2)) / np.maximum((P * P).sum(axis=(1, 2)), 1e-9)
    fits_at = np.all(np.abs(Q - f[:, None, None] * P) <= f[:, None, None] * T, axis=(1, 2))
    fits_at &= (f >= bls.DIM_RANGE[0]) & (f <= bls.DIM_RANGE[1]) & np.all(P > 0, axis=(1, 2))
    fits = np.zeros(count + 1, bool)
    fits[asked] = fits_at
    ok = fits[:-1] & fits[b.before] & fits[b.after]
    fg = foreign.ravel()
    ok &= ~fg[b.side_lo] & ~fg[b.side_hi]
    ok = np.append(ok, False)
    seen.ravel()[b.order] = cand & ok[b.section_of]
    return seen


@settings(max_examples=200, deadline=None)
@given(
    kinds=st.integers(1, 12),
    seed=st.integers(0, 2**32 - 1),
    p=st.floats(0, 1),
    q=st.floats(0, 1),
    ties=st.booleans(),
)
def test_the_needed_kinds_profile_is_every_kinds(kinds, seed, p, q, ties):
    """`_kind_profile`'s numbers for each needed kind are those round 24 spread over the kind's
    band pixels; the other kinds are zero (never read)."""
    from vision.board_line_seen import _kind_profile

    rng = np.random.default_rng(seed)
    sizes = rng.integers(0, 60, kinds)
    bounds = np.concatenate([[0], np.cumsum(sizes)])
    qb = (rng.random((int(bounds[-1]), 3)) * 1.5 - 0.1).astype(np.float32)
    if ties:
        qb = np.round(qb * 8).astype(np.float32) / 8
    refb = rng.random(len(qb)) < p
    needed = rng.random(kinds) < q
    med, spread = _kind_profile(qb, refb, bounds, needed)
    prof_24, spread_24 = _reference_profile_24(qb, refb, bounds)
    assert med.shape == spread.shape == (kinds, 3)
    for k, (s, e) in enumerate(itertools.pairwise(bounds)):
        if not needed[k]:
            assert not med[k].any() and not spread[k].any()
        elif e > s:
            assert same_bits(np.repeat(med[k : k + 1], e - s, axis=0), prof_24[s:e])
            assert same_bits(np.repeat(spread[k : k + 1], e - s, axis=0), spread_24[s:e])


@settings(max_examples=80, deadline=None)
@given(
    hands=st.integers(0, 4),
    shadows=st.integers(0, 4),
    noise=st.floats(0.0, 0.08),
    asked=st.floats(0.0, 1.0),
    reference_share=st.sampled_from([0.02, 0.3, 0.9]),
    seed=st.integers(0, 2**32 - 1),
)
def test_lines_seen_with_the_needed_kinds_only_are_round_24s(
    hands, shadows, noise, asked, reference_share, seed
):
    from vision.board_line_seen import seen_lines

    args = lines_scene(np.random.default_rng(seed), hands, shadows, noise, asked, reference_share)
    assert np.array_equal(seen_lines(*args), _seen_lines_24(*args))


@pytest.fixture(scope="module")
def real_surfaces():
    """`analyse`'s arguments on three tune scenes (two with a hand), as `judge_squares` made them."""
    return analyse_calls((2, 10, 47))


def test_real_frames_see_the_lines_of_round_24(real_surfaces):
    from vision.board_line_seen import seen_lines

    calls = calls_within_analyse("seen_lines", real_surfaces)
    assert len(calls) == 3
    for args in calls:
        got = seen_lines(*args)
        assert np.array_equal(got, _seen_lines_24(*args))
        assert got.any()


def _place_pieces_24(markers, fit):
    """`_place_pieces` in round 24: each marker's centre by `Marker.center`, the centres and
    the corners mapped in two calls."""
    from vision.board_geometry import SIZE, square_name
    from vision.board_reader import MARKER_SIZE_RANGE, _Placed
    from vision.markers import marker_face

    notes = []
    pieces = [m for m in markers if marker_face(m.id) is not None]
    if not pieces:
        return [], notes
    centres = fit.to_board(np.array([m.center for m in pieces]))
    corners = fit.to_board(np.concatenate([m.corners for m in pieces])).reshape(-1, 4, 2)
    d = corners - np.roll(corners, 1, axis=1)
    sides = np.mean(np.sqrt(d[..., 0] * d[..., 0] + d[..., 1] * d[..., 1]), axis=1).tolist()
    placed = []
    for m, (x, y), side in zip(pieces, centres, sides, strict=True):
        face = marker_face(m.id)
        assert face is not None
        if not (0 <= x < SIZE and 0 <= y < SIZE):
            notes.append(
                f"{face.piece.label} ({'dead' if face.dead else 'living'}) seen off the board, ignored"
            )
            continue
        sq = square_name(int(x), int(y))
        if not MARKER_SIZE_RANGE[0] <= side <= MARKER_SIZE_RANGE[1]:
            notes.append(f"{sq}: a marker of implausible size ({side:.2f} squares), ignored")
            placed.append(_Placed(m, float(x), float(y), -1.0, sq))
            continue
        placed.append(_Placed(m, float(x), float(y), side, sq))
    return placed, notes


def _same_placing(got, want):
    (placed, notes), (placed_24, notes_24) = got, want
    assert notes == notes_24
    assert len(placed) == len(placed_24)
    for p, q in zip(placed, placed_24, strict=True):
        assert p.marker is q.marker and p.square == q.square
        assert same_bits(np.float64([p.x, p.y, p.side]), np.float64([q.x, q.y, q.side]))


@settings(max_examples=200, deadline=None)
@given(
    count=st.integers(0, 40),
    seed=st.integers(0, 2**32 - 1),
    scale=st.floats(20.0, 200.0),
    tilt=st.floats(-1e-3, 1e-3),
    zeros=st.booleans(),
)
def test_pieces_placed_from_the_stacked_corners_are_round_24s(count, seed, scale, tilt, zeros):
    from vision.board_detect import HomographyFit, Marker
    from vision.board_reader import _place_pieces

    rng = np.random.default_rng(seed)
    H = np.array(
        [[scale, rng.normal(0, 3), 300.0], [rng.normal(0, 3), -scale, 1500.0], [tilt, tilt / 2, 1.0]]
    )
    fit = HomographyFit(H, ("a1", "i9"), 0.0, 8)
    markers = []
    for _ in range(count):
        centre = fit.to_image(rng.uniform(-1, 10, (1, 2)))[0]
        side = rng.uniform(0.1, 0.8) * scale
        corners = (
            centre + np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * side / 2 + rng.normal(0, 2, (4, 2))
        )
        if zeros:
            corners[rng.random((4, 2)) < 0.2] = -0.0
        markers.append(Marker(int(rng.integers(0, 200)), corners, 1.0))
    _same_placing(_place_pieces(markers, fit), _place_pieces_24(markers, fit))


def test_real_frames_place_the_pieces_of_round_24():
    import vision.board_reader as board_reader
    from tests.scene_cache import scene

    def read_all() -> None:
        for index in (2, 10, 47, 1234):
            board_reader.read_board(scene("tune", index).image)

    calls = recorded_calls(board_reader, "_place_pieces", read_all)
    assert len(calls) >= 4
    for a, k in calls:
        _same_placing(board_reader._place_pieces(*a, **k), _place_pieces_24(*a, **k))


def _crops_around_24(at, reach):
    """`crops_around` in round 24: the blocks' flags by ``any(axis=(1, 3))``."""
    import cv2

    from vision.board_fast import CROP_ALIGN, CROP_BLOCK, CROP_SHARE

    h, w = at.shape
    whole = [((slice(0, h), slice(0, w)), (slice(0, h), slice(0, w)))]
    b = CROP_BLOCK
    bh, bw = -(-h // b), -(-w // b)
    if (bh * b, bw * b) != (h, w):
        padded = np.zeros((bh * b, bw * b), bool)
        padded[:h, :w] = at
    else:
        padded = at
    blocks = padded.reshape(bh, b, bw, b).any(axis=(1, 3))
    if not blocks.any():
        return []
    k = 2 * -(-reach // b) + 1
    count, labels = cv2.connectedComponents(
        cv2.dilate(blocks.view(np.uint8), np.ones((k, k), np.uint8)), connectivity=8
    )
    out = []
    area = 0
    a = CROP_ALIGN
    for label in range(1, count):
        mine = blocks & (labels == label)
        rows, cols = np.flatnonzero(mine.any(axis=1)), np.flatnonzero(mine.any(axis=0))
        y0, y1 = int(rows[0]) * b, min(h, (int(rows[-1]) + 1) * b)
        x0, x1 = int(cols[0]) * b, min(w, (int(cols[-1]) + 1) * b)
        cy0, cy1 = max(0, y0 - reach), min(h, y1 + reach)
        cx0, cx1 = max(0, (x0 - reach) // a * a), min(w, -(-(x1 + reach) // a) * a)
        area += (cy1 - cy0) * (cx1 - cx0)
        if area > CROP_SHARE * h * w:
            return whole
        out.append(((slice(y0, y1), slice(x0, x1)), (slice(cy0, cy1), slice(cx0, cx1))))
    return out


@settings(max_examples=300, deadline=None)
@given(
    h=st.integers(1, 230),
    w=st.integers(1, 230),
    blobs=st.integers(0, 12),
    density=st.floats(0.0, 1.0),
    reach=st.sampled_from([7, 13, 29]),
    seed=st.integers(0, 2**32 - 1),
)
def test_crops_from_the_blocks_flagged_row_then_column_are_round_24s(h, w, blobs, density, reach, seed):
    from vision.board_fast import crops_around

    rng = np.random.default_rng(seed)
    at = np.zeros((h, w), bool)
    for _ in range(blobs):
        y, x = int(rng.integers(0, h)), int(rng.integers(0, w))
        at[y : y + int(rng.integers(1, 40)), x : x + int(rng.integers(1, 40))] = True
    at &= rng.random((h, w)) < density
    assert crops_around(at, reach) == _crops_around_24(at, reach)


@settings(max_examples=300, deadline=None)
@given(
    h=st.integers(0, 60),
    w=st.integers(1, 60),
    channels=st.sampled_from([0, 1, 3, 6]),
    dtype=st.sampled_from([np.int32, np.float32, np.float64, np.bool_, np.uint8]),
    p=st.floats(0, 1),
    transposed=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
def test_masked_values_and_pixels_are_numpys_boolean_index(h, w, channels, dtype, p, transposed, seed):
    """`masked` is ``values[mask]`` (the same dtype, shape and values in the same order) and
    `pixels_of` is ``np.nonzero``; a table looked up by `np.take` is the table indexed."""
    from vision.board_fast import masked, pixels_of

    rng = np.random.default_rng(seed)
    shape = (h, w) if channels == 0 else (h, w, channels)
    values = (rng.normal(0, 100, shape) if dtype != np.bool_ else rng.random(shape) < 0.5).astype(dtype)
    mask = (rng.random((w, h)).T if transposed else rng.random((h, w))) < p
    if transposed and channels == 0:
        values = values.T.copy().T  # a view in column order
    assert same_bits(masked(values, mask), values[mask])
    rows, cols = pixels_of(mask)
    want = np.nonzero(mask)
    assert same_bits(rows, want[0]) and same_bits(cols, want[1])
    table = rng.random(max(int(values.size), 1)) < 0.5
    labels = rng.integers(0, len(table), (h, w)).astype(np.int32)
    assert same_bits(np.take(table, labels), table[labels])


@settings(max_examples=300, deadline=None)
@given(
    shape=st.sampled_from([(1, 3), (7, 3), (5, 1, 3), (13, 17, 3), (216, 216, 3), (2, 3, 4, 3)]),
    dtype=st.sampled_from([np.float32, np.float64]),
    scale=st.integers(-45, 38),
    special=st.floats(0, 0.3),
    strided=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
def test_the_channel_sum_is_numpys_three_adds(shape, dtype, scale, special, strided, seed):
    """`channel_sum` (`csum`) by `cv2.transform`: numpy's ``a0 + a1 + a2`` bit for bit, signed
    zeros, infinities and denormals included; where the sum is NaN, NaN (its sign and
    payload may differ: no read looks at them)."""
    from vision.board_fast import channel_sum

    rng = np.random.default_rng(seed)
    with np.errstate(over="ignore"):  # large scales overflow float32 to infinities, as meant
        a = (rng.normal(0, 1, shape) * 10.0**scale).astype(dtype)
    pick = rng.random(shape)
    for value, (lo, hi) in zip(
        (-0.0, 0.0, np.inf, -np.inf, np.nan), itertools.pairwise(np.linspace(0, special, 6)), strict=True
    ):
        a[(pick >= lo) & (pick < hi)] = value
    if strided:
        a = np.concatenate([a, a], axis=-1)[..., ::2]  # a view with a stride
    with np.errstate(invalid="ignore", over="ignore"):
        got, want = channel_sum(a), a[..., 0] + a[..., 1] + a[..., 2]
    nan = np.isnan(want)
    assert np.array_equal(np.isnan(got), nan)
    assert same_bits(np.where(nan, 0, got), np.where(nan, 0, want))
    assert got.shape == want.shape and got.dtype == want.dtype


def _bridged_24(shadowish, log_dim, line):
    """`_bridged` in round 24: the rows compared and linked gathered by index arrays (every
    row, or `_pair_rows` of each orientation, the transposed mask's bits packed from a copy)."""
    from vision.board_surface import LINE_PX, SHADOW_DEV, _pair_rows_of

    link = shadowish.copy()
    gap = 2 * LINE_PX + 1
    off_lines = not (shadowish & line).any()
    for axis in (0, 1):
        sh, ld, li, lk = (
            (shadowish, log_dim, line, link) if axis == 0 else (shadowish.T, log_dim.T, line.T, link.T)
        )
        n = sh.shape[0]
        a = (
            _pair_rows_of(li.shape, np.packbits(li).tobytes(), gap, False)
            if off_lines
            else np.arange(n - gap)
        )
        pair = sh[a] & sh[a + gap] & (np.abs(ld[a] - ld[a + gap]) < SHADOW_DEV)
        for k in range(1, gap):
            lk[a + k] |= pair & li[a + k]
    return link


@settings(max_examples=300, deadline=None)
@given(
    squares=st.tuples(st.integers(1, 10), st.integers(1, 10)),
    ppu=st.sampled_from([6, 8, 12, 24]),
    line_px=st.integers(1, 3),
    grid=st.booleans(),
    on_lines=st.booleans(),
    fill=st.floats(0.0, 1.0),
    seed=st.integers(0, 2**32 - 1),
)
def test_bridged_by_slices_of_evenly_spaced_rows_is_round_24s(
    squares, ppu, line_px, grid, on_lines, fill, seed
):
    """Grids of any size and line width, or any mask of "lines" (rows not evenly spaced);
    shadowish pixels off the lines (the pair rows alone) or on them too (every row)."""
    from vision.board_surface import _bridged

    rng = np.random.default_rng(seed)
    h, w = squares[0] * ppu, squares[1] * ppu
    if grid:
        on = np.arange(max(h, w)) % ppu
        near = (on < line_px) | (on >= ppu - line_px)
        line = near[:h, None] | near[None, :w]
    else:
        line = rng.random((h, w)) < rng.random()
    shadowish = rng.random((h, w)) < fill
    if not on_lines:
        shadowish &= ~line
    log_dim = (rng.normal(0, 0.3, (h, w)) - rng.random() * np.arange(w)[None, :] * 0.02).astype(np.float32)
    assert np.array_equal(_bridged(shadowish, log_dim, line), _bridged_24(shadowish, log_dim, line))


@settings(max_examples=200, deadline=None)
@given(
    h=st.integers(1, 120),
    w=st.integers(1, 120),
    p=st.floats(0, 1),
    outside=st.floats(0, 0.2),
    seed=st.integers(0, 2**32 - 1),
)
def test_the_half_around_a_line_pixel_is_round_24s_box_filter(h, w, p, outside, seed):
    """`_half_around` (remembered per line mask where nothing is outside the picture) is the
    box filter `analyse` made every frame before, bit for bit; asked twice, the same."""
    import cv2

    from vision.board_surface import _half_around

    rng = np.random.default_rng(seed)
    line = rng.random((h, w)) < p
    out = rng.random((h, w)) < outside
    for _ in range(2):
        want = 0.5 * np.maximum(
            cv2.boxFilter((~line & ~out).astype(np.float32), -1, (5, 5), normalize=False), 1e-6
        )
        assert same_bits(_half_around(line, out), want)
