"""The referee's voice: tones and spoken verdicts, driven by the contest runner's listeners.

``ContestRunner.listeners`` report ``("armed" | "call" | "edge" | "verdict" | "void", data)``.
The announcer plays the call tone at the call, the false-start tone at the first early press of
a seat, the tie tone on a tie, and — when the open night has speech switched on — says the
verdict in English or French ("Anne, by thirty-seven milliseconds").
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Protocol

from referee.contests import ContestRunner
from referee.nights import NightSettings
from referee.spoken import sentence

log = logging.getLogger(__name__)


class Output(Protocol):
    def tone(self, name: str) -> None: ...

    def say(self, text: str, lang: str) -> None: ...


class Announcer:
    """A contest listener; `settings` gives the open night's settings at each event."""

    def __init__(
        self, output: Output, contests: ContestRunner, settings: Callable[[], NightSettings]
    ) -> None:
        self.output = output
        self.contests = contests
        self.settings = settings
        self._fouled: set[str] = set()
        self.last_sentence: str | None = None

    def __call__(self, kind: str, data: dict[str, Any]) -> None:
        settings = self.settings()
        if kind == "armed":
            self._fouled = set()
        elif kind == "call":
            if settings.tones:
                self.output.tone("call")
        elif kind == "edge":
            if data.get("type") == "press" and self._early(data) and data.get("seat") not in self._fouled:
                self._fouled.add(str(data.get("seat")))
                if settings.tones:
                    self.output.tone("false_start")
        elif kind == "verdict":
            verdict = data.get("verdict")
            if not verdict:
                return
            ranking = verdict.get("ranking") or []
            if ranking and len(ranking[0]) > 1 and settings.tones:
                self.output.tone("tie")
            if settings.speech != "off":
                rules = [v["rule"]["id"] for v in data.get("game_verdicts", []) if "rule" in v]
                self.last_sentence = sentence(verdict, settings.speech, rules)
                self.output.say(self.last_sentence, settings.speech)

    def _early(self, edge: dict[str, Any]) -> bool:
        """A press before the call, or sooner after it than anyone can react: a false start."""
        running = self.contests.running
        if running is None:
            return False
        if running.call_t_ns is None:
            return True
        return int(edge.get("t_ns", 0)) < running.call_t_ns + self.contests.settings.min_reaction_ns
