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
from functools import cached_property
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
    # The glyph network: a face is trusted when its probability among the die's faces reaches
    # face_prob, it leads the runner-up by face_margin, and the die's faces hold face_mass of
    # what the face looks like. Chosen on the val split (bench/tune_dice.py; fonts the network
    # never saw): every wrong answer there had a probability of 0.50-0.84, so 0.9 leaves none,
    # while 0.3 % of readable dice (A-Z on every die) fall below it and are asked about.
    face_prob: float = 0.9
    face_margin: float = 0.8
    face_mass: float = 0.5
    # Templates learned from the user's own dice settle a doubtful face when they match this
    # well and this clearly (normalised correlation of blurred pixels and edge directions; on
    # the tune split 99 % of right template matches scored above 0.75, see docs/dice-reader.md).
    learned_score: float = 0.75
    learned_margin: float = 0.06
    # Logistic scales turning margins into confidences: (centre, width).
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

    @cached_property
    def learned_bank(self) -> TemplateBank:
        """Only the templates learned from the user's own labelled faces."""
        n = self.learned_templates
        if n == 0:
            return TemplateBank.empty()
        return TemplateBank(self.bank.vectors[-n:], self.bank.keys[-n:])

    @cached_property
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
