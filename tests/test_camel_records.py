"""The example records of docs/games/camel.md replay with ``python -m referee replay``."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from referee.record import RecordError, replay_file, replay_lines

RECORDS = Path(__file__).parent / "records"
ROOT = Path(__file__).parent.parent


def replay(name: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "referee", "replay", str(RECORDS / name)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=False,
    )


def verdicts_by_line(result: dict[str, Any]) -> dict[int, list[str]]:
    """Rule ids by record line (line 1 is the header, so event i is on line i + 2)."""
    lines: dict[int, list[str]] = {}
    for v in result["verdicts"]:
        lines.setdefault(v["event"] + 2, []).append(v["rule"]["id"])
    return lines


def test_the_special_cases_record_replays_to_the_traced_verdicts() -> None:
    done = replay("camel-special-cases.jsonl")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    lines = verdicts_by_line(result)
    assert lines[4] == ["camel.special.rearmost-on-snake"]  # Anne, at the back on the start card
    assert lines[7] == ["camel.card.desert", "camel.marker.start"]  # the last to leave takes the stone
    assert lines[8] == ["camel.card.snake"]  # Bea, one behind the rearmost
    assert lines[10] == ["camel.card.oasis"]  # Anne chains on
    assert lines[19] == ["camel.special.overtaker-on-snake"]  # Carl passes Bea onto a snake
    assert lines[23] == ["camel.card.desert", "camel.eliminate", "camel.race.winner"]
    assert result["eliminated"] == ["Carl", "Bea"]  # both lapped in one move
    assert result["scores"] == {"Anne": 1, "Bea": 0, "Carl": 0}
    assert result["race_winner"] == "Anne" and not result["finished"]


def test_a_night_of_three_players_replays_to_its_tally() -> None:
    done = replay("camel-three-players.jsonl")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["scores"] == {"Anne": 0, "Bea": 0, "Carl": 2}
    assert result["winner"] == "Carl" and result["finished"]
    assert [r["players_out"][0] for r in result["results"]] == ["Anne", "Bea"]
    lines = verdicts_by_line(result)
    assert 4 not in lines  # the mistyped entry on line 4 was taken back by the undo on line 5
    assert any("camel.order.next-race" in ids for ids in lines.values())


def test_a_two_player_race_replays() -> None:
    done = replay("camel-two-players.jsonl")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["options"] == {"tiles": "cards", "elimination": "marker-card", "races": 1}
    assert result["winner"] == "Anne" and result["finished"]
    assert result["players_out"] == ["Marc"]
    assert {v["rule"]["id"] for v in result["verdicts"]} >= {
        "camel.two-players",
        "camel.special.overtaker-on-snake",
    }


def test_an_illegal_record_fails_naming_the_line_and_the_rule() -> None:
    done = replay("camel-illegal-tile.jsonl")
    assert done.returncode == 1
    assert "line 5:" in done.stderr
    assert "at least one turn must come between two turnings of the same card" in done.stderr
    with pytest.raises(RecordError) as caught:
        replay_file(RECORDS / "camel-illegal-tile.jsonl")
    assert caught.value.line == 5


@pytest.mark.parametrize(
    "name", sorted(p.name for p in RECORDS.glob("camel-*.jsonl") if "illegal" not in p.name)
)
def test_every_record_replays_to_the_same_state_twice(name: str) -> None:
    first, second = replay_file(RECORDS / name), replay_file(RECORDS / name)
    assert first.state == second.state
    assert first.summary() == second.summary()


def test_the_example_in_the_docs_replays() -> None:
    text = (ROOT / "docs" / "games" / "camel.md").read_text(encoding="utf-8")
    block = text.split("```jsonl\n", 1)[1].split("```", 1)[0]
    fold = replay_lines(block.splitlines())
    assert fold.summary()["finished"]
    assert [v.rule.id for _, v in fold.verdicts()][-2:] == ["camel.house.abandon", "camel.house.night-end"]
