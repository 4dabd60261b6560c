"""The seen share of every square the reader judged (`Verdict.seen`), caught read by read."""

from __future__ import annotations

import pytest

from vision import board_reader
from vision.board_geometry import ALL_SQUARES


def seen_shares(monkeypatch: pytest.MonkeyPatch) -> dict[str, float]:
    """A dict that each read from now on fills with its judged squares' seen shares (*empty*
    from FREE_ENOUGH): where a read sits near the bound, the share tests the rule, the read
    only which side of the bound a machine's rounding puts it."""
    seen: dict[str, float] = {}
    judge = board_reader.judge_squares

    def spy(*args, **kwargs):
        verdicts = judge(*args, **kwargs)
        seen.update({ALL_SQUARES[i]: v.seen for i, v in verdicts.items()})
        return verdicts

    monkeypatch.setattr(board_reader, "judge_squares", spy)
    return seen
