"""Round 26's exact speed-ups of the hand outline's bridges and the regions' tiles (board26s)
give the numbers of the forms they replace, bit for bit. The old forms (main's at stop 31)
are kept here and checked against the new ones on drawn inputs (hypothesis) and on the calls
the reader makes while reading real tune frames (camera-still reads)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from tests.drawn_hands import PPU, drawn_hand, verdicts
from tests.recorded_calls import recorded_calls
from tests.same_bits import same_values
from vision import board_hand_curves as curves
from vision import board_hand_edges as edges
from vision import board_regions as regions
from vision.board_fast import components, mean, median, share

# --- board_fast.mean: np.mean without its Python layers --------------------------------------


@settings(max_examples=400, deadline=None)
@given(
    values=arrays(
        np.float64,
        st.integers(1, 300),
        elements=st.floats(allow_nan=True, allow_infinity=True, allow_subnormal=True, width=64),
    ),
    step=st.sampled_from([1, 2, 3]),
)
def test_mean_is_numpys(values, step):
    a = values[::step]
    square = a[: len(a) // 2 * 2].reshape(-1, 2) if len(a) >= 2 else a
    with np.errstate(invalid="ignore", over="ignore"):  # inf - inf, sums past the largest float
        assert same_values(mean(a), np.mean(a))
        assert same_values(mean(square), np.mean(square))


@settings(max_examples=300, deadline=None)
@given(n=st.integers(1, 400), scale=st.sampled_from([1e-3, 1.0, 30.0, 1e6]), seed=st.integers(0, 2**32 - 1))
def test_mean_of_pixel_like_values_is_numpys(n, scale, seed):
    """Long arrays (numpy's pairwise sum in blocks) of the sizes the outline rules see."""
    a = np.random.default_rng(seed).normal(0.0, scale, n)
    assert same_values(mean(a), np.mean(a))
    assert same_values(np.sqrt(mean(a * a)), np.sqrt(np.mean(a * a)))


# --- view_box: numpy's floor and ceil of the corners (stop 31) -------------------------------


def _view_box_old(corners, shape, origin):
    h, w = shape[:2]
    x0, y0 = (max(int(q), 0) for q in np.floor(corners.min(axis=0)))
    x1, y1 = (min(int(q) + 1, n) for q, n in zip(np.ceil(corners.max(axis=0)), (w, h), strict=True))
    if x0 >= x1 or y0 >= y1:
        return None
    gx = np.arange(x0, x1, dtype=np.float64) - origin[0]
    gy = np.arange(y0, y1, dtype=np.float64)[:, None] - origin[1]
    return (slice(y0, y1), slice(x0, x1)), gx, gy


@settings(max_examples=500, deadline=None)
@given(
    corners=arrays(np.float64, (4, 2), elements=st.floats(-400.0, 600.0)),
    shape=st.tuples(st.integers(1, 300), st.integers(1, 300)),
    whole=st.booleans(),
)
def test_view_box_is_the_old_one(corners, shape, whole):
    if whole:  # whole numbers, as a box's corners often are
        corners = np.round(corners)
    origin = corners[0]
    assert same_values(edges.view_box(corners, shape, origin), _view_box_old(corners, shape, origin))


# --- _parabola: np.stack's design matrix, the ridge made each call (stop 31) ----------------


def _parabola_old(x, y):
    k = max(float(np.abs(x).max()), 1.0)
    xn = x / k
    a = np.stack([xn * xn, xn, np.ones_like(xn)], axis=1)
    c = np.linalg.solve(a.T @ a + 1e-9 * np.eye(3), a.T @ y)
    return np.array([c[0] / (k * k), c[1] / k, c[2]])


@settings(max_examples=400, deadline=None)
@given(n=st.integers(3, 200), seed=st.integers(0, 2**32 - 1), whole=st.booleans())
def test_parabola_is_the_old_one(n, seed, whole):
    rng = np.random.default_rng(seed)
    x = rng.uniform(-60, 60, n)
    y = 0.01 * x * x + rng.normal(0, 1.5, n)
    if whole:
        x = np.round(x)
    assert same_values(curves._parabola(x, y), _parabola_old(x, y))


# --- _bridge and _fill: main's forms at stop 31 --------------------------------------------


def _bridge_old(out, ea, eb, oa, ob, ca, cb, foreign, seen, hidden, ppu):
    c = curves
    u = cb - ca
    length = float(np.hypot(*u))
    if length < 1e-6:
        return
    u /= length
    v = np.array([-u[1], u[0]])
    if (oa + ob) @ v < 0:
        v = -v
    for o in (oa, ob):
        if o @ v < c.FACING * max(float(np.hypot(*o)), 1e-6):
            return
    da, db = ea - ca, eb - ca
    xa, ya = da @ u, da @ v
    xb, yb = db @ u, db @ v
    g0, g1 = float(xa.max()), float(xb.min())
    if g1 - g0 < c.MIN_GAP:
        return
    x = np.concatenate([xa, xb])
    y = np.concatenate([ya, yb])
    coef = _parabola_old(x, y)
    res = y - ((coef[0] * x + coef[1]) * x + coef[2])
    if np.sqrt(np.mean(res * res)) > c.RMS or np.abs(res).max() > c.WORST:
        return
    for xs_, ys_ in ((xa, ya), (xb, yb)):
        if xs_.max() - xs_.min() < c.MIN_END:
            return
        dx = xs_ - xs_.mean()
        own = float(dx @ (ys_ - ys_.mean())) / float(dx @ dx)
        if abs(np.arctan(own) - np.arctan(2 * coef[0] * xs_.mean() + coef[1])) > c.TANGENT:
            return
    sag = abs(coef[0]) * ((g1 - g0) / 2) ** 2
    if sag > c.SAG * (g1 - g0):
        return
    depth = c.DEPTH * ppu
    span = np.array([ca + t * u + s * v for t in (g0, g1) for s in (-c.INNER[1] - 2 * sag, depth + 2 * sag)])
    found = _view_box_old(span, hidden.shape, ca)
    if found is None:
        return
    box, gx, gy = found
    t = gx * u[0] + gy * u[1]
    s = (gx * v[0] + gy * v[1] - ((coef[0] * t + coef[1]) * t + coef[2])) / np.sqrt(
        1 + (2 * coef[0] * t + coef[1]) ** 2
    )
    across = (t > g0) & (t < g1)
    beyond = across & (s > c.MARGIN) & (s <= depth)
    if (foreign[box] & across & (s > c.BULGE) & (s <= depth)).any():
        return
    inner = seen[box][across & (s <= -c.INNER[0]) & (s >= -c.INNER[1])]
    if inner.size and share(inner) > 1 - c.INNER_SHARE:
        return
    out[box] |= beyond & hidden[box]


def _fill_old(out, a, centre, d, v, foreign, seen, hidden, ppu):
    e = edges
    direction = v[:, 1]
    normal = np.array([-direction[1], direction[0]])
    if normal @ a[2] < 0:
        normal = -normal
    off = d @ normal
    if np.sqrt(np.mean(off * off)) > e.JOINT:
        return
    along = d @ direction
    t0, t1 = float(along.min()), float(along.max())
    depth = e.DEPTH * ppu
    corners = np.array([centre + t * direction + s * normal for t in (t0, t1) for s in (-e.INNER[1], depth)])
    found = _view_box_old(corners, hidden.shape, centre)
    if found is None:
        return
    box, gx, gy = found
    t = gx * direction[0] + gy * direction[1]
    s = gx * normal[0] + gy * normal[1]
    span = (t >= t0) & (t <= t1)
    beyond = span & (s > e.MARGIN) & (s <= depth)
    if (foreign[box] & beyond & (s > e.BULGE)).any():
        return
    inner = seen[box][span & (s <= -e.INNER[0]) & (s >= -e.INNER[1])]
    if inner.size and share(inner) > 1 - e.INNER_SHARE:
        return
    out[box] |= beyond & hidden[box]


def _outline_pieces_old(foreign, seen, unseen, min_area):
    found = edges.outline_pixels(foreign, seen, unseen)
    if found is None:
        return []
    edge, out_x, out_y, (x0, y0) = found
    count, labels, areas = components(edge.astype(np.uint8))
    if count <= 1:
        return []
    ys, xs = np.nonzero(edge)
    lab = labels[ys, xs]
    order = np.argsort(lab, kind="stable")
    bounds = np.searchsorted(lab[order], np.arange(1, count + 1))
    ys, xs = ys[order], xs[order]
    pts = np.stack([xs + x0, ys + y0], axis=1).astype(np.float64)
    outward = np.stack([out_x[ys, xs], out_y[ys, xs]], axis=1).astype(np.float64)
    return [
        (pts[bounds[k - 1] : bounds[k]], outward[bounds[k - 1] : bounds[k]])
        for k in range(1, count)
        if areas[k] >= min_area
    ]


def _opened(args: tuple, hidden_at: int) -> tuple:
    """The same call with every pixel hidden and none foreign or seen: a bridge that passes
    its shape tests then marks every pixel beyond its curve, so the whole of its arithmetic
    shows in the result."""
    args = list(args)
    shape = args[hidden_at].shape
    args[hidden_at - 2] = np.zeros(shape, bool)  # foreign
    args[hidden_at - 1] = np.zeros(shape, bool)  # seen
    args[hidden_at] = np.ones(shape, bool)
    return tuple(args)


def _same_marks(new, old, shape, args) -> tuple[bool, bool]:
    a, b = np.zeros(shape, bool), np.zeros(shape, bool)
    new(a, *args)
    old(b, *args)
    return np.array_equal(a, b), bool(a.any())


def _bridge_calls(foreign, seen, hidden, unseen, found=None):
    pieces = curves._pieces(foreign, seen, unseen, found)
    if len(pieces) < 2:
        return []
    return [(*ends, foreign, seen, hidden, PPU) for ends in curves._facing_ends(pieces, PPU)]


@settings(max_examples=150, deadline=None)
@given(parts=st.integers(1, 6), noise=st.sampled_from([0.0, 0.002, 0.02]), seed=st.integers(0, 2**32 - 1))
def test_drawn_hands_bridges_and_fills_are_the_old_ones(parts, noise, seed):
    """Hands of discs and fingers over the checkerboard, a few verdicts flipped: every bridge
    and fill marks the old forms' pixels, with the frame's masks and opened up; the outline's
    pieces are the old ones."""
    rng = np.random.default_rng(seed)
    foreign, seen, hidden, unseen = verdicts(drawn_hand(rng, parts))
    if noise:
        flip = rng.random(foreign.shape) < noise
        foreign, hidden = foreign ^ (flip & ~hidden), hidden ^ (flip & ~foreign)
        seen, unseen = seen & ~foreign & ~hidden, unseen | foreign | hidden
    found = edges.outline_pieces(foreign, seen, unseen, 5)
    assert same_values(found, _outline_pieces_old(foreign, seen, unseen, 5))
    for args in _bridge_calls(foreign, seen, hidden, unseen, found):
        for a in (args, _opened(args, 8)):
            assert _same_marks(curves._bridge, _bridge_old, hidden.shape, a)[0]
    for args in _fill_calls(foreign, seen, hidden, unseen, found):
        for a in (args, _opened(args, 6)):
            assert _same_marks(edges._fill, _fill_old, hidden.shape, a)[0]


def _fill_calls(foreign, seen, hidden, unseen, found=None):
    """`_fill`'s arguments as `beyond_outlines` makes them."""
    stretches = edges.outline_stretches(foreign, seen, unseen, found)
    if len(stretches) < 2:
        return []
    pairs = edges._gaps(stretches, PPU)
    if not pairs:
        return []
    joined = [np.concatenate([stretches[i][5], stretches[j][5]]) for i, j in pairs]
    centres = [pts.mean(axis=0) for pts in joined]
    offsets = [pts - centre for pts, centre in zip(joined, centres, strict=True)]
    return [
        (stretches[i], centre, d, v, foreign, seen, hidden, PPU)
        for (i, _), centre, d, v in zip(pairs, centres, offsets, edges._axes(offsets), strict=True)
    ]


# --- board_seen_through: boolean sums and indexing (stop 31) --------------------------------


def _contrast_kept_old(lin, pred, dark, bright):
    if dark.sum() < 10 or bright.sum() < 10:
        return None
    printed = float(median(pred[bright]) - median(pred[dark]))
    if printed <= 0.02:
        return None
    return float(median(lin[bright]) - median(lin[dark])) / printed


def _board_seen_through_old(own, light, ppu):
    r_ = regions
    tile = 2 * ppu
    rows, cols = np.flatnonzero(own.any(axis=1)), np.flatnonzero(own.any(axis=0))
    if not len(rows):
        return 0.0, 0.0, 0.0
    y0, x0 = rows[0] // tile * tile, cols[0] // tile * tile
    window = (slice(y0, rows[-1] // tile * tile + tile), slice(x0, cols[-1] // tile * tile + tile))
    own, rgb, prgb = own[window], light.lin[window], light.pred[window]
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    lin, pred = (r + g + b) / 3, (prgb[..., 0] + prgb[..., 1] + prgb[..., 2]) / 3
    usable = own & light.known[window] & (np.maximum(np.maximum(r, g), b) < r_.SATURATED_LIN)
    if not usable.any():
        return 0.0, 0.0, 0.0
    dark_all, bright_all = usable & (pred < light.cut), usable & (pred >= light.cut)
    whole = _contrast_kept_old(lin, pred, dark_all, bright_all)
    seen = hidden = 0.0
    for y in range(0, own.shape[0], tile):
        for x in range(0, own.shape[1], tile):
            part = (slice(y, y + tile), slice(x, x + tile))
            kept = _contrast_kept_old(lin[part], pred[part], dark_all[part], bright_all[part])
            if kept is None:
                continue
            area = float(own[part].sum()) / (ppu * ppu)
            if kept >= r_.SEEN:
                seen += area
            elif kept < r_.HIDDEN:
                hidden += area
    return seen, hidden, whole or 0.0


@settings(max_examples=200, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    size=st.sampled_from([12, 24]),
    contrast=st.floats(0.0, 1.5),
    region=st.tuples(st.integers(0, 8), st.integers(0, 8), st.integers(1, 9), st.integers(1, 9)),
)
def test_drawn_regions_seen_through_are_the_old_ones(seed, size, contrast, region):
    """A checkerboard's predicted light, the view the board seen through a region scaled by
    ``contrast`` (and noise, a few clipped pixels): the same areas and contrast."""
    rng = np.random.default_rng(seed)
    n = 9 * size
    classes = np.kron(
        (np.add.outer(np.arange(9), np.arange(9)) % 2).astype(np.float32), np.ones((size, size))
    )
    pred = np.repeat((0.15 + 0.5 * classes)[..., None], 3, axis=2).astype(np.float32)
    lin = (0.3 + contrast * (pred - 0.3) + rng.normal(0, 0.02, pred.shape)).astype(np.float32)
    lin[rng.random((n, n)) < 0.01] = 0.99
    known = rng.random((n, n)) > 0.05
    own = np.zeros((n, n), bool)
    y, x, h, w = region
    own[y * size : (y + h) * size, x * size : (x + w) * size] = True
    own &= rng.random((n, n)) > 0.1
    new = regions.board_seen_through(own, regions.light_of(lin, pred, known), size)
    old = _board_seen_through_old(own, regions.light_of(lin, pred, known), size)
    assert same_values(new, old)


# --- real frames -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def recorded():
    """The calls of the rewritten functions in camera-still reads of three tune frames with a
    hand (32 and 135: among tune 0–199's slowest hand frames, many bridges; 4: as round 24's)."""
    import vision.board_surface as board_surface
    from tests.scene_cache import scene
    from vision.board_reader import BoardTracker

    trackers = []
    for index in (4, 32, 135):
        image = scene("tune", index).image
        tracker = BoardTracker(reuse=False)
        tracker.read(image)  # finds the board; the recorded reads are camera-still ones
        trackers.append((tracker, image))

    def read_all() -> None:
        for tracker, image in trackers:
            tracker.read(image)

    names = {
        "bridge": (curves, "_bridge"),
        "fill": (edges, "_fill"),
        "pieces": (board_surface, "outline_pieces"),
        "seen_through": (regions, "board_seen_through"),
    }
    return {key: recorded_calls(module, name, read_all, copied=True) for key, (module, name) in names.items()}


def test_real_bridges_and_fills_are_the_old_ones(recorded):
    for key, new, old, hidden_at in (
        ("bridge", curves._bridge, _bridge_old, 9),
        ("fill", edges._fill, _fill_old, 7),
    ):
        calls = recorded[key]
        assert len(calls) >= 10, key
        marked = 0
        for a, _ in calls:
            out, args = a[0], a[1:]
            for b in (args, _opened(args, hidden_at - 1)):
                same, any_ = _same_marks(new, old, out.shape, b)
                assert same, key
                marked += any_
        assert marked >= 5, key  # opened up, many reach their last step


def test_real_outline_pieces_are_the_old_ones(recorded):
    calls = recorded["pieces"]
    assert len(calls) >= 3
    for a, k in calls:
        assert same_values(edges.outline_pieces(*a, **k), _outline_pieces_old(*a, **k))


def test_real_regions_seen_through_are_the_old_ones(recorded):
    calls = recorded["seen_through"]
    assert len(calls) >= 3
    told = 0
    for a, k in calls:
        new = regions.board_seen_through(*a, **k)
        assert same_values(new, _board_seen_through_old(*a, **k))
        told += new[0] + new[1] > 0
    assert told > 0


def test_a_ridge_is_read_only():
    with pytest.raises(ValueError):
        curves._RIDGE[0, 0] = 1.0
    assert math.isclose(curves._RIDGE[1, 1], 1e-9)


# --- the hand rules' pixels by flat index (pixels_of) instead of np.nonzero (stop 31) ------

_BY_NONZERO = ("board_hand_field", "board_hand_step", "board_near_colour", "board_surface", "board_gaps")


@pytest.fixture(scope="module")
def hand_rule_calls():
    """`_under_hands`' and `unlike_hand`'s calls in camera-still reads of tune 4, 32 and 135
    (every rewritten `pixels_of` is read within them)."""
    import vision.board_surface as board_surface
    from tests.scene_cache import scene
    from vision.board_reader import BoardTracker

    trackers = []
    for index in (4, 32, 135):
        image = scene("tune", index).image
        tracker = BoardTracker(reuse=False)
        tracker.read(image)
        trackers.append((tracker, image))

    def read_all() -> None:
        for tracker, image in trackers:
            tracker.read(image)

    return {
        name: recorded_calls(board_surface, name, read_all, copied=True)
        for name in ("_under_hands", "unlike_hand", "step_bounded")
    }


def test_real_hand_rules_by_nonzero_are_the_same(hand_rule_calls):
    """The rules with `pixels_of` put back as np.nonzero in every module that now uses it give
    the same pixels (the same integers, in the same order)."""
    import importlib

    from vision import board_surface

    modules = [importlib.import_module(f"vision.{name}") for name in _BY_NONZERO]
    for name, calls in hand_rule_calls.items():
        assert len(calls) == 3, name
        f = getattr(board_surface, name)
        new = [f(*a, **k) for a, k in calls]
        with pytest.MonkeyPatch.context() as patch:
            for module in modules:
                patch.setattr(module, "pixels_of", np.nonzero)
            old = [f(*a, **k) for a, k in calls]
        assert same_values(new, old), name
        assert any(np.asarray(x).any() for x in new), name
