"""What the dice reader knows: the die set, the face templates and its thresholds.

Out of the box it is the shipped die set and bold sans-serif templates. Calibration on the
user's own dice (``referee calibrate-dice``) writes a data folder that overrides both:

    DATA/dice/dieset.toml        the die set with measured colours and recorded faces
    DATA/dice/templates.npz      face templates learned from labelled photos
    DATA/dice/labelled/...       every labelled face crop, kept as evidence and for relearning
"""

from __future__ import annotations

import os
import zipfile
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

from vision.dice_colour import reference_labs
from vision.dice_faces import CANVAS, TemplateBank
from vision.dice_templates import bank_from_canvases, default_bank, load_canvases
from vision.dieset import DieSet, DieSetError, default_dieset, load


@dataclass(frozen=True)
class Thresholds:
    """Where a read stops being trusted. Chosen on the *tune* split only (bench/bench_dice.py)."""

    confidence: float = 0.5  # a die below this is "uncertain": ask, do not guess
    # Logistic scales turning margins into confidences: (centre, width).
    # On the tune split, correct reads had glyph scores above 0.75 and margins above 0.02 in
    # 99 % of cases; identity margins above 6.6 and colour margins above 30 in 99.5 %. The glyph
    # centres below trade 1 % more "ask" for a quarter of the silent errors (150 tune frames,
    # A-Z on every die: 4 silent errors in 1012 readable dice at (0.02, 0.70), 1 at these).
    glyph_margin: tuple[float, float] = (0.04, 0.01)
    glyph_score: tuple[float, float] = (0.75, 0.03)
    colour_margin: tuple[float, float] = (12.0, 3.0)
    identity_margin: tuple[float, float] = (3.0, 0.8)
    # L* spread between a top face's four sides that means "cocked". Few cocked dice show it
    # (their tilted faces catch the light alike); glare on flat dice reached 30 on the tune split.
    ring_spread: float = 40.0
    # Flat dice on the tune split never looked more than 0.12 die sides longer than the
    # parallax model predicts; three in four cocked dice did.
    excess_extent: float = 0.14  # blob longer than a flat die can look, in die sides: "cocked"


@dataclass(frozen=True)
class DiceModel:
    """The die set, face templates and thresholds the reader uses."""

    dieset: DieSet
    bank: TemplateBank
    thresholds: Thresholds = field(default_factory=Thresholds)
    learned_templates: int = 0

    @property
    def colour_labs(self) -> dict[str, np.ndarray]:
        return reference_labs(self.dieset.colours)

    def with_dieset(self, dieset: DieSet) -> DiceModel:
        return replace(self, dieset=dieset)


class CalibrationDataError(ValueError):
    """The data folder's dice files cannot be used; the message names the file and the fix."""


def default_data_dir() -> Path:
    """$XDG_DATA_HOME/referee (~/.local/share/referee when unset)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "referee"


def dice_dir(data_dir: Path) -> Path:
    return data_dir / "dice"


def default_model() -> DiceModel:
    return DiceModel(default_dieset(), default_bank())


def load_model(data_dir: Path | None) -> DiceModel:
    """The model calibrated in `data_dir`, or the default one where nothing was learned yet."""
    model = default_model()
    if data_dir is None:
        return model
    folder = dice_dir(data_dir)
    ds_path = folder / "dieset.toml"
    try:
        dieset = load(ds_path) if ds_path.is_file() else model.dieset
    except DieSetError as exc:
        raise CalibrationDataError(f"{exc} (fix it, or delete it to go back to the default dice)") from None
    bank = model.bank
    learned = 0
    tpl = folder / "templates.npz"
    if tpl.is_file():
        try:
            keys, canvases = load_canvases(tpl)
            if canvases.shape[1:] != (CANVAS, CANVAS) or len(keys) != len(canvases):
                raise ValueError("unexpected shape")
        except (OSError, ValueError, KeyError, zipfile.BadZipFile) as exc:
            raise CalibrationDataError(
                f"{tpl} is damaged ({exc}); delete it and run referee calibrate-dice again"
            ) from None
        extra = bank_from_canvases(keys, canvases)
        bank = TemplateBank(np.concatenate([bank.vectors, extra.vectors]), bank.keys + extra.keys)
        learned = len(keys)
    return DiceModel(dieset, bank, model.thresholds, learned)
