"""Is an unmarked square empty? The appearance half of the board reader.

A square with no decoded marker is *empty* only when it looks like bare board: its colour
matches what the board's printed pattern predicts under this frame's lighting, and it has no
more texture than bare squares have. Anything else (a piece whose marker cannot be read, a
hand, a glare spot) is *unknown*: the reader never guesses.

The prediction is fitted on the frame itself. In log linear RGB, a bare square's colour is
``lighting(x, y) + offset[class]``: a smooth (quadratic) lighting field shared by the whole
board plus one constant per square class of the pattern (dark, light, maze). Offsets of
classes with enough bare squares are fitted too; a class too small to measure (the maze is one
square) takes its offset from `BoardGeometry.class_offsets`. The fit is robust (Tukey
reweighting), so hands and unread pieces, a minority of squares, do not pull it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import cv2
import numpy as np

from vision.board_geometry import ALL_SQUARES, SIZE, BoardGeometry, square_index

PPU = 24  # pixels per square of the top-down view the statistics are taken on
INNER = 0.18  # ignore this fraction of the square at each side: grid lines, neighbours' bleed
MIN_CLASS = 4  # bare squares needed to fit a class's own offset
COLOUR_LIMIT = 4.0  # robust sigmas of colour residual still called bare board
TEXTURE_LIMIT = 2.6  # × the median texture of bare squares
TEXTURE_FLOOR = 0.05  # absolute slack on texture (log units), for very clean images
SCALE_FLOOR = 0.035  # smallest colour noise scale assumed (log units ≈ 3.5 %)
# Largest: when many squares are covered the spread of residuals grows, and a loose scale would
# let a hand pass for board. Past this, squares become unknown instead.
SCALE_CEIL = 0.1
SATURATED = 250
CONSENSUS_TRIALS = 40
GLARE_TINT = 0.4  # largest spread between the channels of the light glare adds, ÷ its mean
GLARE_SLACK = 0.012  # absolute slack on that spread, in linear units
TEXTURE_SIGMA = 2.0  # px of the top view: shading smoother than this is not texture
HALO_COLOUR, HALO_TEXTURE = 1.5, 0.6  # beside a hand, stricter bounds for "bare"
SHADE_CONTRAST = 0.3  # contrast error (log) still explained by a shadow on an off-colour square
GLARE_CONTRAST = 0.6  # contrast error (linear) still explained by glare on an off-colour square
CONTRAST_KEPT = 0.4  # below this share of the predicted contrast, a square and its neighbour are painted over
# Added before taking logs: keeps the sensor noise of dark squares from dominating the ratios.
LOG_FLOOR = 0.01


@dataclass(frozen=True)
class Verdict:
    """For one unmarked square: empty or not, with a confidence and the reason if not."""

    empty: bool
    confidence: float
    note: str = ""
    colour: float = 0.0  # colour residual in robust sigmas (COLOUR_LIMIT is the bound)
    texture: float = 0.0  # texture ÷ its bound (1 is the bound)


def top_view(image: np.ndarray, H: np.ndarray) -> np.ndarray:
    """The grid seen from above, ``9 × PPU`` pixels wide, rank 9 at the top, BGR uint8.

    The image is first halved while the board is drawn at more than twice PPU, so the warp
    averages rather than aliases.
    """
    scale = 1.0
    img = image
    px_per_square = np.sqrt(abs(np.linalg.det(H[:2, :2]))) / max(abs(H[2, 2]), 1e-9)
    while px_per_square * scale > 2.5 * PPU and min(img.shape[:2]) > 64:
        img = cv2.pyrDown(img)
        scale /= 2
    S = np.diag([scale, scale, 1.0])
    # top-view pixel (u, v) → board (u/PPU, 9 − v/PPU) → image
    T = np.array([[1 / PPU, 0, 0], [0, -1 / PPU, SIZE], [0, 0, 1]])
    M = S @ H @ T
    return cv2.warpPerspective(
        img,
        M,
        (SIZE * PPU, SIZE * PPU),
        flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
        borderMode=cv2.BORDER_CONSTANT,
        borderValue=(0, 0, 0),
    )


def _blocks(img: np.ndarray) -> np.ndarray:
    """The inner part of every square of a top view, shape (81, n, n, ...), in ALL_SQUARES order."""
    a, b = round(INNER * PPU), round((1 - INNER) * PPU)
    rest = img.shape[2:]
    blocks = img.reshape(SIZE, PPU, SIZE, PPU, *rest).swapaxes(1, 2)[::-1]  # [rank][file]
    return blocks[:, :, a:b, a:b].reshape(SIZE * SIZE, b - a, b - a, *rest)


def _stats(top: np.ndarray, masks: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per square: mean log linear RGB, texture (RMS of high-passed log luminance), saturated and usable fraction."""
    lin = (top.astype(np.float32) / 255.0) ** 2.2  # close enough to sRGB's curve for ratios
    logc = _blocks(np.log(lin + LOG_FLOOR))
    full = np.log(lin.mean(axis=2) + LOG_FLOOR)
    # Texture is what is left after removing smooth shading: lighting gradients and glare
    # spots vary slowly, edges of markers, hands and pieces do not.
    lum = _blocks(full - cv2.GaussianBlur(full, (0, 0), TEXTURE_SIGMA))
    sat = _blocks(top.max(axis=2) >= SATURATED)
    m = masks.astype(np.float32)
    n = m.sum(axis=(1, 2))
    usable = n / m[0].size
    safe = np.maximum(n, 1.0)
    means = (logc * m[..., None]).sum(axis=(1, 2)) / safe[:, None]
    var = (lum**2 * m).sum(axis=(1, 2)) / safe
    satf = (sat * m).sum(axis=(1, 2)) / safe
    return means.astype(np.float64), np.sqrt(var).astype(np.float64), satf.astype(np.float64), usable


def square_masks(discs: Sequence[tuple[float, float, float]]) -> np.ndarray:
    """Per square, the inner pixels not covered by a known piece (disc centre x, y, radius in units)."""
    free = np.full((SIZE * PPU, SIZE * PPU), 255, np.uint8)
    for cx, cy, rad in discs:
        centre = (round(cx * PPU * 8), round((SIZE - cy) * PPU * 8))
        cv2.circle(free, centre, round(rad * PPU * 8), 0, -1, cv2.LINE_8, shift=3)
    return _blocks(free) > 0


def _design(xy: np.ndarray) -> np.ndarray:
    x, y = (xy[:, 0] - 4.5) / 4.5, (xy[:, 1] - 4.5) / 4.5
    return np.stack([np.ones_like(x), x, y, x * x, y * y, x * y], axis=1)


def judge_squares(
    top: np.ndarray,
    candidates: Sequence[int],
    discs: Sequence[tuple[float, float, float]],
    geometry: BoardGeometry,
) -> dict[int, Verdict]:
    """Decide empty/unknown for the squares at ``candidates`` (indices into ALL_SQUARES).

    ``discs`` are the pieces already found (their footprint is left out of their neighbours).
    """
    masks = square_masks(discs)
    means, tex, satf, usable = _stats(top, masks)
    cand = [i for i in candidates if usable[i] >= 0.35]
    out: dict[int, Verdict] = {
        i: Verdict(False, 0.0, "mostly covered by a neighbouring piece")
        for i in candidates
        if usable[i] < 0.35
    }
    # Black pixels of the warp mean the square lies (partly) outside the picture.
    black = (_blocks(top.max(axis=2)) == 0).mean(axis=(1, 2))
    outside = [i for i in cand if black[i] > 0.02]
    for i in outside:
        out[i] = Verdict(False, 0.0, "outside the picture")
    cand = [i for i in cand if i not in outside]
    if len(cand) < 8:
        for i in cand:
            out[i] = Verdict(False, 0.0, "too little bare board to judge the lighting")
        return out
    classes = np.array([geometry.class_of(ALL_SQUARES[i]) for i in cand])
    xy = np.array(
        [[square_index(ALL_SQUARES[i])[0] + 0.5, square_index(ALL_SQUARES[i])[1] + 0.5] for i in cand]
    )
    y = means[cand].copy()
    counts = {c: int((classes == c).sum()) for c in set(classes.tolist())}
    ref = min(counts, key=lambda c: (c != 0, -counts[c]))  # class 0 unless it is absent
    fitted = [c for c in sorted(counts) if c != ref and counts[c] >= MIN_CLASS]
    judged = np.ones(len(cand), bool)
    for k, c in enumerate(classes):
        if c == ref or c in fitted:
            continue
        if c in geometry.class_offsets and ref == 0:
            y[k] -= np.array(geometry.class_offsets[c])[::-1]  # R, G, B → the image's B, G, R
        else:
            judged[k] = False
    X = _design(xy)
    X = (
        np.concatenate([X, np.stack([(classes == c).astype(float) for c in fitted], axis=1)], axis=1)
        if fitted
        else X
    )
    w = np.where(judged, 1.0, 0.0)
    w = np.where(satf[cand] > 0.1, 0.0, w)
    w = _consensus(X, y, w > 0, classes) * w
    resid = np.zeros_like(y)
    scale = np.full((len(cand), 3), SCALE_FLOOR)
    for _ in range(6):
        sw = np.sqrt(w)[:, None]
        beta, *_ = np.linalg.lstsq(X * sw, y * sw, rcond=None)
        resid = y - X @ beta
        scale = _class_scales(resid, classes, w > 0)
        d = np.sqrt(np.mean((resid / scale) ** 2, axis=1))
        w = np.where(judged & (d < 4.685), (1 - (d / 4.685) ** 2) ** 2, 0.0)
    d = np.sqrt(np.mean((resid / scale) ** 2, axis=1))
    t = tex[cand]
    t_ref = (
        float(np.median(t[(d < COLOUR_LIMIT) & judged]))
        if ((d < COLOUR_LIMIT) & judged).any()
        else float(np.median(t))
    )
    t_lim = max(TEXTURE_LIMIT * t_ref, t_ref + TEXTURE_FLOOR)
    contrast = _neighbour_contrast(cand, means[cand], resid, judged & (t < t_lim))
    for k, i in enumerate(cand):
        dk, tk, ck = float(d[k]), float(t[k] / t_lim), contrast[k]
        # Glare lights a square and its neighbours alike; a white sleeve or a pale hand over
        # this square alone does not (and with nothing to compare, glare is not believed).
        lit = ck is not None and ck.light_error < GLARE_CONTRAST
        if not judged[k]:
            out[i] = Verdict(False, 0.0, "no colour reference for this square (calibrate the board)")
        elif satf[i] >= 0.5 and not (dk < COLOUR_LIMIT and tk < 1):
            out[i] = Verdict(False, 0.0, "glare", dk, tk)
        elif tk >= 1:
            out[i] = Verdict(False, 0.0, "covered: not bare board, and no readable marker", dk, tk)
        elif ck is not None and ck.kept < CONTRAST_KEPT:
            # The checker contrast with a neighbour is gone: both painted over (a sleeve, a palm).
            out[i] = Verdict(False, 0.0, "covered: no contrast with its neighbours", dk, tk)
        elif dk < COLOUR_LIMIT:
            worst = max(dk / COLOUR_LIMIT, tk, (CONTRAST_KEPT / ck.kept) if ck else 0.0)
            out[i] = Verdict(True, float(1 - 0.5 * worst**2), "", dk, tk)
        elif lit and satf[i] < 0.02 and _glare(means[i], resid[k]):
            out[i] = Verdict(True, 0.6, "bare board under glare", dk, tk)
        elif lit and satf[i] < 0.5 and bool(np.all(resid[k] > 0)):
            # Partly clipped by glare: the colour is lost, but a piece would show its marker's
            # black bits as texture, and a hand is not brighter than the board in every channel.
            out[i] = Verdict(True, 0.5, "bare board under glare (partly saturated)", dk, tk)
        elif ck is not None and ck.shade_error < SHADE_CONTRAST and _shaded(resid[k]):
            out[i] = Verdict(True, 0.6, "bare board in shadow", dk, tk)
        else:
            out[i] = Verdict(False, 0.0, "covered: not bare board, and no readable marker", dk, tk)
    return out


@dataclass(frozen=True)
class _Contrast:
    kept: float  # smallest share of the predicted contrast kept
    light_error: float  # largest contrast error in linear RGB (the glare test)
    shade_error: float  # largest contrast error in log RGB (the shadow test)


_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def _shift(grid: np.ndarray, df: int, dr: int, fill: float) -> np.ndarray:
    """``out[r, f] = grid[r + dr, f + df]`` (the neighbour's value), ``fill`` past the edge."""
    out = np.full_like(grid, fill)
    rs = slice(max(0, -dr), SIZE - max(0, dr))
    fs = slice(max(0, -df), SIZE - max(0, df))
    rn = slice(max(0, dr), SIZE - max(0, -dr))
    fn = slice(max(0, df), SIZE - max(0, -df))
    out[rs, fs] = grid[rn, fn]
    return out


def _neighbour_contrast(
    cand: Sequence[int], observed: np.ndarray, resid: np.ndarray, smooth: np.ndarray
) -> list[_Contrast | None]:
    """Per square, its contrast with its smooth unmarked orthogonal neighbours; None without any.

    The board's dark/light pattern is what bare board looks like and what a hand or sleeve
    erases: painted over, a square and its neighbour take one colour and the contrast *kept*,
    ``|observed difference| / |predicted difference|`` in linear RGB, falls towards 0.
    Lighting keeps it: glare *adds* light to neighbours alike, so their difference in linear
    RGB survives (small ``light_error``); a shadow *multiplies* them alike, so their difference
    in log RGB survives (small ``shade_error``). That is how a brightened or shaded square is
    told from one under a white sleeve or a dark palm. Neighbours with texture (a hand's
    edge, an unread piece) say nothing about this square and are left out.
    """
    n = SIZE * SIZE
    idx = np.asarray(cand)
    obs = np.zeros((n, 3))
    res = np.zeros((n, 3))
    obs[idx], res[idx] = observed, resid
    sm = np.zeros(n, bool)
    sm[idx] = smooth
    pred_log = obs - res
    obs_lin = np.exp(obs).reshape(SIZE, SIZE, 3)
    pred_lin = np.exp(pred_log).reshape(SIZE, SIZE, 3)
    pred_g, res_g = pred_log.reshape(SIZE, SIZE, 3), res.reshape(SIZE, SIZE, 3)
    kept = np.full((SIZE, SIZE), np.inf)
    light = np.full((SIZE, SIZE), -np.inf)
    shade = np.full((SIZE, SIZE), -np.inf)
    s_grid = sm.reshape(SIZE, SIZE).astype(float)
    for df, dr in _STEPS:
        ns = _shift(s_grid, df, dr, 0.0) > 0
        dp = pred_lin - _shift(pred_lin, df, dr, 0.0)
        do = obs_lin - _shift(obs_lin, df, dr, 0.0)
        norm = np.maximum(np.linalg.norm(dp, axis=2), 1e-3)
        k_ratio = np.linalg.norm(do, axis=2) / norm
        l_ratio = np.linalg.norm(do - dp, axis=2) / norm
        log_norm = np.maximum(np.linalg.norm(pred_g - _shift(pred_g, df, dr, 0.0), axis=2), 1e-3)
        s_ratio = np.linalg.norm(res_g - _shift(res_g, df, dr, 0.0), axis=2) / log_norm
        kept = np.where(ns, np.minimum(kept, k_ratio), kept)
        light = np.where(ns, np.maximum(light, l_ratio), light)
        shade = np.where(ns, np.maximum(shade, s_ratio), shade)
    kept_f, light_f, shade_f = kept.reshape(-1), light.reshape(-1), shade.reshape(-1)
    return [
        _Contrast(float(kept_f[i]), float(light_f[i]), float(shade_f[i])) if np.isfinite(kept_f[i]) else None
        for i in cand
    ]


def _shaded(resid: np.ndarray) -> bool:
    """Darker than predicted in every channel, by about the same factor (a grey shadow)."""
    return bool(np.all(resid < 0.03) and np.ptp(resid) < 0.4 * abs(float(np.mean(resid))) + 0.05)


def _glare(observed: np.ndarray, resid: np.ndarray) -> bool:
    """Is this colour bare board plus reflected lamp light?

    Glare only adds light, and the light it adds has the lamp's colour, near white: the
    excess over the predicted board colour must be positive in every channel and about as
    strong in each (within GLARE_TINT). A hand, a sleeve or a coloured object adds no such
    grey excess, except over a board of its own colour, which the contrast test has caught.
    """
    obs = np.exp(observed)
    excess = obs - np.exp(observed - resid)
    if np.any(excess <= 0):
        return False
    # Small excesses are mostly noise: allow an absolute slack on top of the tint.
    return bool(np.ptp(excess) <= GLARE_TINT * float(excess.mean()) + GLARE_SLACK)


def _consensus(X: np.ndarray, y: np.ndarray, usable: np.ndarray, classes: np.ndarray) -> np.ndarray:
    """Starting weights for the lighting fit: the largest set of squares one model explains.

    A least-squares start lets a big glare spot or an arm bend the lighting field, and the
    reweighting then keeps the bent field. So the start is RANSAC-like: models fitted on
    random samples of squares, the one with the most squares within a few noise scales wins.
    Seeded, so a frame always reads the same.
    """
    idx = np.flatnonzero(usable)
    n_params = X.shape[1]
    if len(idx) < 2 * n_params:
        return usable.astype(float)
    rng = np.random.default_rng(0)
    best, best_count = usable.astype(float), -1
    tol = 3.0 * 1.5 * SCALE_FLOOR
    for _ in range(CONSENSUS_TRIALS):
        sample = rng.choice(idx, size=2 * n_params, replace=False)
        if np.linalg.matrix_rank(X[sample]) < n_params:
            continue
        beta, *_ = np.linalg.lstsq(X[sample], y[sample], rcond=None)
        err = np.sqrt(np.mean((y - X @ beta) ** 2, axis=1))
        inliers = usable & (err < tol)
        count = int(inliers.sum())
        if count > best_count:
            best, best_count = inliers.astype(float), count
    # Too few agree (a very uneven light): fall back to all squares and plain reweighting.
    return best if best_count >= 2 * n_params else usable.astype(float)


def _class_scales(resid: np.ndarray, classes: np.ndarray, good: np.ndarray) -> np.ndarray:
    """Robust noise scale of the colour residuals, per class (dark squares are noisier in log
    units than light ones); classes with too few good squares use the pooled scale."""
    pooled = (
        np.clip(1.4826 * np.median(np.abs(resid[good]), axis=0), SCALE_FLOOR, SCALE_CEIL)
        if good.sum() >= 3
        else np.full(3, SCALE_CEIL)
    )
    out = np.tile(pooled, (len(classes), 1))
    for c in np.unique(classes):
        sel = good & (classes == c)
        if sel.sum() >= MIN_CLASS:
            out[classes == c] = np.clip(
                1.4826 * np.median(np.abs(resid[sel]), axis=0), SCALE_FLOOR, SCALE_CEIL
            )
    return out


def top_square(top: np.ndarray, i: int) -> np.ndarray:
    f, r = square_index(ALL_SQUARES[i])
    v0, u0 = (SIZE - 1 - r) * PPU, f * PPU
    return top[v0 : v0 + PPU, u0 : u0 + PPU]


def spread_occlusion(
    verdicts: dict[int, Verdict], occupied: set[int], min_blob: int = 1
) -> dict[int, Verdict]:
    """Demote doubtful bare-looking squares next to covered squares to unknown.

    A hand covers several squares; the ones fully under a palm can look smooth and, on a board
    near skin colour, almost bare: only the palm's edge, in a neighbouring square, shows. So
    next to a blob of ``min_blob`` or more covered squares (any covered square by default),
    a square must look *clearly* bare (colour within HALO_COLOUR sigmas, texture within
    HALO_TEXTURE of its bound), and a square whose every unmarked neighbour is covered is
    not trusted at all.
    """
    covered = np.zeros((SIZE, SIZE), np.uint8)
    for i, v in verdicts.items():
        if not v.empty and i not in occupied and v.note.startswith("covered"):
            f, r = square_index(ALL_SQUARES[i])
            covered[r, f] = 1
    out = dict(verdicts)
    where = {ALL_SQUARES[i]: i for i in verdicts}
    # A square whose every unmarked neighbour is covered sits inside the covered area: a palm
    # that happens to match its colour must not pass for board.
    for i, v in verdicts.items():
        if not v.empty:
            continue
        f, r = square_index(ALL_SQUARES[i])
        n_cov = n_bare = 0
        for df, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            if 0 <= f + df < SIZE and 0 <= r + dr < SIZE:
                j = where.get(f"{'abcdefghi'[f + df]}{r + dr + 1}")
                if j is None:
                    continue
                if covered[r + dr, f + df]:
                    n_cov += 1
                elif verdicts[j].empty and not verdicts[j].note:
                    n_bare += 1  # plainly bare; one explained by glare or shadow proves less
        if n_cov >= 2 and n_bare == 0:
            out[i] = Verdict(False, 0.0, "surrounded by covered squares (a hand?)", v.colour, v.texture)
    n, labels, stats, _ = cv2.connectedComponentsWithStats(covered, connectivity=8)
    big = np.zeros_like(covered)
    for k in range(1, n):
        if stats[k, cv2.CC_STAT_AREA] >= min_blob:
            big[labels == k] = 1
    if not big.any():
        return out
    halo = (np.asarray(cv2.dilate(big, np.ones((3, 3), np.uint8))) > 0) & (big == 0)
    for i, v in verdicts.items():
        f, r = square_index(ALL_SQUARES[i])
        # Only squares that look less than perfectly bare: a square whose colour and texture
        # match the board closely is seen, even beside a hand. One that needs glare or a
        # shadow to explain it is not: a white sleeve passes for glare on its own square.
        clear = v.texture <= HALO_TEXTURE and v.colour <= HALO_COLOUR
        if out[i].empty and halo[r, f] and not clear:
            out[i] = Verdict(False, 0.0, "next to a covered square (a hand?)", v.colour, v.texture)
    return out


def measure_class_offsets(
    top: np.ndarray, bare: Sequence[int], discs: Sequence[tuple[float, float, float]], geometry: BoardGeometry
) -> dict[int, tuple[float, float, float]]:
    """Calibration: the colour of every square class relative to class 0 (log linear R, G, B),
    measured on squares known to be bare board (``bare``, indices into ALL_SQUARES).

    The lighting field is fitted on all the bare squares together with one offset per class,
    so a class of a single square (the maze) gets its offset from its one square.
    """
    masks = square_masks(discs)
    means, _, satf, usable = _stats(top, masks)
    use = [i for i in bare if usable[i] >= 0.35 and satf[i] < 0.05]
    classes = np.array([geometry.class_of(ALL_SQUARES[i]) for i in use])
    if 0 not in classes or len(use) < 12:
        raise ValueError(
            "too little bare board to calibrate: clear the middle of the board and keep hands away"
        )
    others = sorted(set(classes.tolist()) - {0})
    xy = np.array(
        [[square_index(ALL_SQUARES[i])[0] + 0.5, square_index(ALL_SQUARES[i])[1] + 0.5] for i in use]
    )
    X = _design(xy)
    if others:
        X = np.concatenate([X, np.stack([(classes == c).astype(float) for c in others], axis=1)], axis=1)
    beta, *_ = np.linalg.lstsq(X, means[use], rcond=None)
    base = _design(xy).shape[1]
    # Rows of beta are B, G, R (the image's order); offsets are stored as R, G, B.
    return {c: tuple(float(v) for v in beta[base + k][::-1]) for k, c in enumerate(others)}  # type: ignore[misc]
