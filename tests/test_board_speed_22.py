"""Round 22's exact speed-ups (board22s) give the numbers of the plain forms they replace,
bit for bit."""

from __future__ import annotations

import cv2
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.same_bits import same_bits as _same_bits
from vision.board_fast import box_of, components
from vision.board_surface import _linear, levels_of, to_levels, to_linear


@settings(max_examples=150, deadline=None)
@given(
    h=st.integers(1, 70),
    w=st.integers(1, 70),
    channels=st.sampled_from([None, 1, 3, 4]),
    step=st.integers(1, 3),
    seed=st.integers(0, 2**32 - 1),
)
def test_looked_up_levels_are_the_computed_ones(h, w, channels, step, seed):
    """Any uint8 picture (odd sizes: numpy's vector loops and their tails; strided views),
    looked up, has the bits of the gamma computed per pixel."""
    shape = (h, w) if channels is None else (h, w, channels)
    top = np.random.default_rng(seed).integers(0, 256, shape, dtype=np.uint8)[::step, ::step]
    assert _same_bits(to_linear(top), _linear(top))
    assert _same_bits(levels_of(top), to_levels(_linear(top)))


def test_every_value_is_looked_up_as_computed():
    """All 256 values, in a picture the size of the top view (216 × 216 × 3)."""
    top = np.resize(np.arange(256, dtype=np.uint8), (216, 216, 3))
    assert _same_bits(to_linear(top), _linear(top))
    assert _same_bits(levels_of(top), to_levels(_linear(top)))


def test_other_pictures_are_computed():
    """Floats, and uint8 with one channel axis or more than 4 channels, are computed as before."""
    f = np.random.default_rng(1).random((5, 6, 3)).astype(np.float32) * 255
    assert _same_bits(to_linear(f), _linear(f))
    many = np.random.default_rng(2).integers(0, 256, (4, 4, 6), dtype=np.uint8)
    assert _same_bits(to_linear(many), _linear(many))
    assert _same_bits(levels_of(many), to_levels(_linear(many)))
    one = np.random.default_rng(3).integers(0, 256, (4, 5, 1), dtype=np.uint8)
    assert _same_bits(to_linear(one), _linear(one))


@settings(max_examples=300, deadline=None)
@given(
    h=st.integers(1, 120),
    w=st.integers(1, 120),
    blur=st.floats(0.0, 5.0),
    fill=st.floats(0.0, 1.0),
    seed=st.integers(0, 2**32 - 1),
)
def test_components_are_opencvs(h, w, blur, fill, seed):
    """The labels and areas of `components`, and each region's `box_of`, are
    ``cv2.connectedComponentsWithStats``' (8-connected), on blobs and on speckle."""
    noise = np.random.default_rng(seed).random((h, w)).astype(np.float32)
    if blur > 0.3:
        noise = cv2.GaussianBlur(noise, (0, 0), blur)
    mask = (noise < np.quantile(noise, fill)).astype(np.uint8)
    want_count, want_labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    count, labels, areas = components(mask)
    assert count == want_count
    assert np.array_equal(labels, want_labels)
    assert np.array_equal(areas, stats[:, cv2.CC_STAT_AREA])
    for k in range(1, count):
        assert box_of(labels == k) == tuple(int(v) for v in stats[k, :4])


def _in_palettes_plain(levels, labels, stats, big, core_all, nearest, reach, sticker=None):
    """`_in_palettes` as `_under_hands` took it before: one hand at a time, in its box."""
    from vision.board_surface import PALETTE_BINS, PALETTE_MIN, SHADES, _widen, colour_bins

    nb = PALETTE_BINS
    flat = colour_bins(levels)
    same = np.zeros(labels.shape, bool)
    h, w = labels.shape
    for k in big:
        x, y, bw, bh = (int(v) for v in stats[k, :4])
        y0, y1, x0, x1 = max(0, y - reach), min(h, y + bh + reach), max(0, x - reach), min(w, x + bw + reach)
        blob = labels[y0:y1, x0:x1] == k
        core = core_all[y0:y1, x0:x1] & blob
        if sticker is not None:
            core &= ~sticker[y0:y1, x0:x1]
        seen = np.compress(core.ravel(), levels[y0:y1, x0:x1].reshape(core.size, -1), axis=0)
        shades = np.concatenate([seen * f for f in SHADES])
        counts = np.bincount(colour_bins(shades), minlength=nb**3)
        palette = _widen((counts >= PALETTE_MIN).reshape(nb, nb, nb))
        near = nearest[y0:y1, x0:x1]
        mine = near == near[blob][0]
        same[y0:y1, x0:x1] |= mine & palette.ravel()[flat[y0:y1, x0:x1]]
    return same


@settings(max_examples=60, deadline=None)
@given(
    n=st.sampled_from([48, 72, 216]),
    blur=st.floats(1.0, 6.0),
    fill=st.floats(0.05, 0.6),
    stickers=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
)
def test_palettes_of_all_hands_at_once_are_one_at_a_time(n, blur, fill, stickers, seed):
    """The hands' palettes looked up all at once give the pixels the one-at-a-time form gave,
    for any number of hand-sized blobs, dimmed core pixels and stickers."""
    from vision.board_surface import REACH, Hands, _in_palettes

    rng = np.random.default_rng(seed)
    ppu = n // 9
    noise = cv2.GaussianBlur(rng.random((n, n)).astype(np.float32), (0, 0), blur)
    foreign = noise < np.quantile(noise, fill)
    dimmed = rng.random((n, n)) < 0.1
    hands = Hands.of(foreign, dimmed, ppu)
    if not len(hands.big):
        return
    # Colours that vary smoothly (a hand's shading) with noise, in 0–255 levels.
    base = cv2.GaussianBlur(rng.random((n, n, 3)).astype(np.float32), (0, 0), 4) * 255
    levels = np.clip(base + rng.normal(0, 6, (n, n, 3)), 0, 255).astype(np.float32)
    _, nearest = cv2.distanceTransformWithLabels(
        (~hands.mask).astype(np.uint8), cv2.DIST_L2, 3, labelType=cv2.DIST_LABEL_CCOMP
    )
    sticker = (rng.random((n, n)) < 0.2) if stickers else None
    reach = round(REACH * ppu) + 2
    args = (levels, hands.labels, hands.stats, hands.big, hands.core, nearest, reach, sticker)
    assert np.array_equal(_in_palettes(*args), _in_palettes_plain(*args))


@settings(max_examples=200, deadline=None)
@given(count=st.integers(1, 300), n=st.integers(0, 5000), seed=st.integers(0, 2**32 - 1))
def test_flags_set_by_repeated_labels_are_the_unique_ones(count, n, seed):
    """``hit[labels] = True`` sets the flags ``hit[np.unique(labels)] = True`` set (the
    label flags of board_hands, board_hand_step and `_shadowed`, without the sort)."""
    labels = np.random.default_rng(seed).integers(0, count, n).astype(np.int32)
    want, got = np.zeros(count, bool), np.zeros(count, bool)
    want[np.unique(labels)] = True
    got[labels] = True
    assert np.array_equal(got, want)


@settings(max_examples=200, deadline=None)
@given(h=st.integers(1, 60), w=st.integers(1, 60), count=st.integers(1, 200), seed=st.integers(0, 2**32 - 1))
def test_hands_by_table_are_isin(h, w, count, seed):
    """`dimmed_hand_parts`' hand pixels by a table of the labels are ``np.isin(labels, hands)``."""
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, count, (h, w)).astype(np.int32)
    hands = np.unique(rng.integers(1, count + 1, rng.integers(1, 20)))
    table = np.zeros(max(int(labels.max()), int(np.max(hands))) + 1, bool)
    table[hands] = True
    assert np.array_equal(table[labels], np.isin(labels, hands))
