"""Game nights: a night groups the games played together, with its own settings.

The journal's ``nights`` table holds each night (id, name, start time); which night is open and
each night's settings (spoken verdicts, tones, what counts as a close call) are journal
settings, so they survive a restart like everything else. A game created while a night is open
joins it; a game created with no night open opens one named after the date, so a group that
never thinks about nights still gets its standings.
"""

from __future__ import annotations

import time
from dataclasses import asdict, dataclass, replace
from typing import Any, Literal

from referee.journal import Journal

OPEN_NIGHT = "open_night"
SPEECH_LANGUAGES = ("off", "en", "fr")
Speech = Literal["off", "en", "fr"]


class NightError(ValueError):
    """A night request that cannot be followed; the message says what to do instead."""


@dataclass(frozen=True)
class NightSettings:
    """What a night may switch: spoken verdicts (off, English, French), tones, close calls."""

    speech: Speech = "off"
    tones: bool = True
    close_call_ms: float = 5.0  # a contest won by less than this is a close call

    @classmethod
    def from_json(cls, data: Any) -> NightSettings:
        base = cls()
        if not isinstance(data, dict):
            return base
        return base.updated(data, strict=False)

    def updated(self, changes: dict[str, Any], strict: bool = True) -> NightSettings:
        """These settings with `changes` applied; unknown or bad values raise NightError."""
        out = self
        for key, value in changes.items():
            if key == "speech":
                if value not in SPEECH_LANGUAGES:
                    if strict:
                        raise NightError(
                            f"speech must be one of {', '.join(SPEECH_LANGUAGES)}, not {value!r}"
                        )
                    continue
                out = replace(out, speech=value)
            elif key == "tones":
                if not isinstance(value, bool):
                    if strict:
                        raise NightError("tones must be true or false")
                    continue
                out = replace(out, tones=value)
            elif key == "close_call_ms":
                if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value <= 10_000:
                    if strict:
                        raise NightError(
                            "close_call_ms must be a number of milliseconds above 0, at most 10000"
                        )
                    continue
                out = replace(out, close_call_ms=float(value))
            elif strict:
                raise NightError(f"unknown night setting {key!r}; known: speech, tones, close_call_ms")
        return out

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Night:
    id: int
    name: str
    started_at: float
    open: bool

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "name": self.name, "started_at": self.started_at, "open": self.open}


def default_name(now: float | None = None) -> str:
    """ "Game night 2025-03-14" (local date)."""
    return "Game night " + time.strftime("%Y-%m-%d", time.localtime(now))


class Nights:
    """The nights of one journal. Writes raise JournalError like every journal write."""

    def __init__(self, journal: Journal) -> None:
        self.journal = journal

    @property
    def open_id(self) -> int | None:
        value = self.journal.setting(OPEN_NIGHT)
        return value if isinstance(value, int) and not isinstance(value, bool) else None

    def all(self) -> list[Night]:
        open_id = self.open_id
        return [Night(i, name, at, i == open_id) for i, name, at in self.journal.nights()]

    def get(self, night_id: int) -> Night:
        for night in self.all():
            if night.id == night_id:
                return night
        raise NightError(f"there is no night {night_id}")

    def current(self) -> Night | None:
        """The open night, else the latest one (the standings page shows it)."""
        nights = self.all()
        for night in nights:
            if night.open:
                return night
        return nights[-1] if nights else None

    def open(self, name: str = "") -> Night:
        """Open a new night (the open one, if any, is closed)."""
        name = " ".join(name.split())[:80] or default_name()
        night_id = self.journal.create_night(name)
        self.journal.set_setting(OPEN_NIGHT, night_id)
        return self.get(night_id)

    def close(self) -> None:
        if self.open_id is None:
            raise NightError("no night is open")
        self.journal.set_setting(OPEN_NIGHT, None)

    def ensure_open(self) -> int:
        """The open night's id, opening one named after today if none is open."""
        open_id = self.open_id
        return open_id if open_id is not None else self.open().id

    def settings(self, night_id: int | None = None) -> NightSettings:
        nid = self.open_id if night_id is None else night_id
        if nid is None:
            return NightSettings()
        return NightSettings.from_json(self.journal.setting(f"night:{nid}"))

    def set_settings(self, night_id: int, changes: dict[str, Any]) -> NightSettings:
        self.get(night_id)
        settings = self.settings(night_id).updated(changes)
        self.journal.set_setting(f"night:{night_id}", settings.to_json())
        return settings
