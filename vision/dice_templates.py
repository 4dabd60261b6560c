"""The shipped face templates: bold sans-serif letters, numerals and pips.

``python -m vision.dice_templates`` renders them from the *tune* fonts (DejaVu Sans Bold,
Liberation Sans Bold, DejaVu Sans Condensed Bold) into ``vision/data/dice-templates.npz``;
the reader only loads that file, so it needs neither Pillow nor fonts at run time. Each face
gets variants (bolder, lighter, narrower, wider) so a die printed in another bold sans-serif
still matches.
"""

from __future__ import annotations

import string
import sys
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from vision.dice_faces import CANVAS, PATCH, TemplateBank, glyph_canvas, to_vector

TEMPLATE_PATH = Path(__file__).parent / "data" / "dice-templates.npz"
GLYPH_HEIGHT = 0.56


def _variants(mask: np.ndarray) -> list[np.ndarray]:
    """Stroke weight and width variants of a face's ink (values 0..1, PATCH × PATCH)."""
    out = [mask]
    k = np.ones((3, 3), np.uint8)
    out.append(np.clip(cv2.dilate(mask, k), 0, 1))
    out.append(np.clip(cv2.erode(mask, k), 0, 1))
    for fx in (0.85, 1.15):
        w = round(PATCH * fx)
        stretched = cv2.resize(mask, (w, PATCH), interpolation=cv2.INTER_LINEAR)
        canvas = np.zeros((PATCH, max(PATCH, w)), np.float32)
        x0 = (canvas.shape[1] - w) // 2
        canvas[:, x0 : x0 + w] = stretched
        out.append(canvas)
    return out


def face_canvases(ink: np.ndarray, variants: bool = True) -> np.ndarray:
    """Normalised upright glyph canvases (uint8, n × CANVAS × CANVAS) of one face's ink."""
    out = []
    for v in _variants(ink) if variants else [ink]:
        c = glyph_canvas(v, 0)
        if c is not None:
            out.append(np.round(np.clip(c, 0, 1) * 255).astype(np.uint8))
    return np.stack(out) if out else np.zeros((0, CANVAS, CANVAS), np.uint8)


def build_canvases(fonts: tuple[str, ...] | None = None) -> tuple[list[str], np.ndarray]:
    """Render every template (needs Pillow and the tune fonts)."""
    from vision.synth.render import glyph_mask, pip_mask
    from vision.synth.scene import TUNE_FONTS

    keys: list[str] = []
    canvases: list[np.ndarray] = []
    for font in fonts or TUNE_FONTS:
        for text in string.ascii_uppercase + "123456":
            c = face_canvases(glyph_mask(text, font, GLYPH_HEIGHT, PATCH))
            keys += [text] * len(c)
            canvases.append(c)
    for n in range(1, 7):
        c = face_canvases(pip_mask(n, PATCH))
        keys += [f"pips:{n}"] * len(c)
        canvases.append(c)
    return keys, np.concatenate(canvases)


def save_canvases(keys: list[str], canvases: np.ndarray, path: Path) -> None:
    """Templates are stored as 8-bit glyph canvases (small, and readable as images)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, canvases=canvases.astype(np.uint8), keys=np.array(keys))


def load_canvases(path: Path) -> tuple[list[str], np.ndarray]:
    with np.load(path, allow_pickle=False) as data:
        return [str(k) for k in data["keys"]], data["canvases"].astype(np.uint8)


def bank_from_canvases(keys: list[str], canvases: np.ndarray) -> TemplateBank:
    vectors = np.stack([to_vector(c.astype(np.float32) / 255.0) for c in canvases]) if len(keys) else None
    if vectors is None:
        return TemplateBank.empty()
    return TemplateBank(vectors.astype(np.float32), tuple(keys))


def load_bank(path: Path) -> TemplateBank:
    return bank_from_canvases(*load_canvases(path))


@cache
def default_bank() -> TemplateBank:
    """The shipped templates."""
    return load_bank(TEMPLATE_PATH)


if __name__ == "__main__":
    built_keys, built = build_canvases()
    save_canvases(built_keys, built, TEMPLATE_PATH)
    print(f"wrote {len(built_keys)} templates to {TEMPLATE_PATH}", file=sys.stderr)
