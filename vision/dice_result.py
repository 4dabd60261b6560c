"""The facts a dice read produces: per die a face, a confidence and flags; per roll a summary.

>>> r = DiceRead(dice=(DieRead("green", "letter", "B", 0.99),), confidence=0.99)
>>> r.to_json()["letters"]
{'green': 'B'}
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from vision.dieset import FaceValue

# Flags a die can carry. Any flag, or a confidence below the threshold, means "ask".
COCKED = "cocked"  # not lying flat: its top face is ambiguous
TOUCHING = "touching"  # pressed against another die
OFF_TRAY = "off-tray"  # jumped out of the tray
MISSING = "missing"  # not found at all (out of view, under a hand, hidden)
UNCERTAIN = "uncertain"  # read, but not clearly enough to trust

# Flags of the whole frame.
HAND = "hand"  # a hand or other large object over the tray
NO_TRAY = "no-tray"  # the tray was not found; the whole frame was searched
EXTRA = "extra-objects"  # more die-like things than dice


@dataclass(frozen=True)
class DieRead:
    """One die: which face is up, how sure, and what is odd about it."""

    die: str  # the die's name in the die set: "green", "colour", "theme"
    kind: str  # "letter", "colour", "theme"
    value: FaceValue | None
    confidence: float
    flags: tuple[str, ...] = ()
    centre: tuple[float, float] | None = None  # image pixels
    corners: tuple[tuple[float, float], ...] = ()  # the top face in the image
    alternatives: tuple[tuple[FaceValue, float], ...] = ()  # runner-up faces with their scores
    turns: int = 0  # quarter turns that stood the glyph upright
    body_lab: tuple[float, float, float] | None = None  # rim colour after white balance (Lab)
    paint_lab: tuple[float, float, float] | None = None  # middle of the face (Lab): a colour face

    @property
    def certain(self) -> bool:
        return self.value is not None and not self.flags

    def to_json(self) -> dict[str, Any]:
        return {
            "die": self.die,
            "kind": self.kind,
            "value": self.value,
            "confidence": round(self.confidence, 4),
            "flags": list(self.flags),
            "centre": [round(c, 1) for c in self.centre] if self.centre else None,
            "corners": [[round(x, 1), round(y, 1)] for x, y in self.corners],
            "alternatives": [[v, round(s, 3)] for v, s in self.alternatives],
        }


@dataclass(frozen=True)
class DiceRead:
    """A whole roll as read from one frame."""

    dice: tuple[DieRead, ...]
    confidence: float
    flags: tuple[str, ...] = ()
    tray: str = "markers"  # how the tray was found: "markers", "plain", "frame"
    markers: int = 0
    timings_ms: dict[str, float] = field(default_factory=dict, compare=False)

    def die(self, name: str) -> DieRead:
        return next(d for d in self.dice if d.die == name)

    @property
    def letters(self) -> dict[str, FaceValue | None]:
        return {d.die: d.value for d in self.dice if d.kind == "letter"}

    @property
    def colour(self) -> FaceValue | None:
        return next((d.value for d in self.dice if d.kind == "colour"), None)

    @property
    def theme(self) -> FaceValue | None:
        return next((d.value for d in self.dice if d.kind == "theme"), None)

    @property
    def certain(self) -> bool:
        """True when every die is read clearly and nothing odd was seen: safe to use unasked."""
        return not self.flags and all(d.certain for d in self.dice)

    @property
    def doubts(self) -> list[str]:
        """Sentences for the table saying what to check, e.g. "green die: cocked"."""
        out = [f"{f}" for f in self.flags]
        out += [f"{d.die} die: {', '.join(d.flags)}" for d in self.dice if d.flags]
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "letters": self.letters,
            "colour": self.colour,
            "theme": self.theme,
            "confidence": round(self.confidence, 4),
            "certain": self.certain,
            "flags": list(self.flags),
            "doubts": self.doubts,
            "tray": {"method": self.tray, "markers": self.markers},
            "dice": [d.to_json() for d in self.dice],
        }
