"""The example records replay with ``python -m referee replay``; an illegal one names its line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from referee.record import replay_file

RECORDS = Path(__file__).parent / "records"
ROOT = Path(__file__).parent.parent

EXPECTED = {
    "djam-rulebook-example": ({"Ann": 2, "Bob": 3, "Cat": 1, "Dan": 0}, None),
    "djam-classic": ({"Ann": 6, "Bob": 0, "Cat": 11, "Dan": 3, "Eve": 10}, "Cat"),
    "djam-unlimited": ({"Ann": 9, "Bob": 7, "Cat": 4}, "Ann"),
    "djam-open-themes": ({"Ann": 7, "Bob": 2, "Cat": 9}, None),
}


def _replay(name: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "referee", "replay", str(RECORDS / f"{name}.jsonl")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_record_replays_with_the_cli(name: str) -> None:
    done = _replay(name)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    scores, winner = EXPECTED[name]
    assert result["game"] == "djam"
    assert result["scores"] == scores
    assert result["winner"] == winner
    assert result["finished"] == (winner is not None)
    assert result["verdicts"] and all(v["rule"]["id"].startswith("djam.") for v in result["verdicts"])


def test_illegal_record_fails_naming_the_line() -> None:
    done = _replay("djam-illegal")
    assert done.returncode == 1
    assert "line 5:" in done.stderr
    assert "U+200B ZERO WIDTH SPACE" in done.stderr


def test_records_are_conserving_and_complete() -> None:
    """Each record's final state keeps every token and shows each variant at least once."""
    variants = set()
    for name in EXPECTED:
        fold = replay_file(RECORDS / f"{name}.jsonl")
        s = fold.state
        assert s.pool + s.centre + sum(s.tokens) == s.settings.total
        variants.add(s.variant)
    assert variants == {"classic", "unlimited", "open-themes"}


def test_classic_record_shows_every_kind_of_verdict() -> None:
    fold = replay_file(RECORDS / "djam-classic.jsonl")
    seen = {v.rule.id for _, v in fold.verdicts()}
    assert {
        "djam.order",
        "djam.score",
        "djam.initial",
        "djam.last-silent",
        "djam.black.wrong",
        "djam.black.win",
        "djam.root",
        "djam.theme",
        "djam.table-ends-round",
        "djam.end",
    } <= seen
