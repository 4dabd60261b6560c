"""Example game records replayed by the real command: ``python -m referee replay FILE``.

The records in tests/records/ are complete games of every variant (played by the seeded random
player, so they hold real button verdicts, ties, false starts and mistakes) and the rulebook's
three duel-order sequences from the first event. Rewrite them after a deliberate change of the
vocabulary with ``python tests/test_dschamal_records.py --write``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RECORDS = ROOT / "tests" / "records"
FIVE = ("Marc", "Anne", "Herman", "Carl", "Werner")

# variant -> (seed, players, expected winner) for the random complete games
GAMES = {
    "duel": (50, FIVE, "Marc and Carl"),
    "tower": (190, ("Marc", "Anne", "Herman", "Werner"), "Werner"),
    "trio": (174, FIVE, "Carl"),
    "quartet": (129, ("Lena", "Tom", "Mia", "Ben"), "Ben"),
}


def replay(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "referee", "replay", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize("variant", sorted(GAMES))
def test_a_complete_game_replays_to_its_winner(variant: str) -> None:
    result = replay(RECORDS / f"dschamal-{variant}.jsonl")
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["game"] == "dschamal" and summary["variant"] == variant
    assert summary["finished"] is True
    assert summary["winner"] == GAMES[variant][2]
    assert summary["verdicts"] and all(v["rule"]["id"].startswith("dschamal.") for v in summary["verdicts"])
    assert summary["awaiting"]["kind"] == "over"


def test_the_duel_order_record_ends_as_the_rulebook_prints() -> None:
    result = replay(RECORDS / "dschamal-duel-order.jsonl")
    assert result.returncode == 0, result.stderr
    summary = json.loads(result.stdout)
    assert summary["finished"] is False
    assert summary["lord"] == "Carl"
    assert summary["next"] == ["Carl", "Marc"]  # Werner lost and is skipped
    assert summary["awaiting"]["kind"] == "contest"


def test_an_illegal_event_stops_the_replay_naming_its_line() -> None:
    result = replay(RECORDS / "dschamal-illegal-draw.jsonl")
    assert result.returncode == 1
    assert "line 9:" in result.stderr
    assert "cannot have drawn the ball/blue: it is not in the bag, it lies in front of Marc" in result.stderr
    assert result.stdout == ""


# --- writing the records ----------------------------------------------------------------------------
def write_records() -> None:
    sys.path.insert(0, str(ROOT / "tests"))
    sys.path.insert(0, str(ROOT))
    from test_dschamal_support import Table, press, random_game, win

    from referee.record import record_lines

    RECORDS.mkdir(exist_ok=True)
    for variant, (seed, players, winner) in GAMES.items():
        table, _ = random_game(seed, variant, len(players), players=players)
        assert table.summary["winner"] == winner, (variant, table.summary["winner"])
        _write(RECORDS / f"dschamal-{variant}.jsonl", record_lines(table.fold.header, table.events))

    order = Table("duel", FIVE)
    order.start(
        {p: f"{s}/blue" for p, s in zip(FIVE, ("ball", "narrow-roof", "egg", "disc", "block"), strict=True)}
    )
    order.send({"type": "first", "player": "Marc"})
    for winner in [
        "Anne",
        "Anne",
        "Carl",
        "Carl",
        "Carl",
        "Carl",
        "Carl",
        "Werner",
        "Werner",
        "Werner",
        "Carl",
    ]:
        win(order, winner)
    _write(RECORDS / "dschamal-duel-order.jsonl", record_lines(order.fold.header, order.events))

    illegal = Table("duel", FIVE)
    illegal.start(
        {p: f"{s}/blue" for p, s in zip(FIVE, ("ball", "narrow-roof", "egg", "disc", "block"), strict=True)}
    )
    illegal.send({"type": "first", "player": "Anne"})
    illegal.send(press("Anne", "Herman"))
    lines = list(record_lines(illegal.fold.header, illegal.events))
    # line 9: Anne claims the blue ball, which lies in front of Marc
    lines.append(json.dumps({"type": "draw", "player": "Anne", "stone": "ball/blue"}))
    lines.append(json.dumps({"type": "draw", "player": "Anne", "stone": "ball/white"}))
    _write(RECORDS / "dschamal-illegal-draw.jsonl", lines)


def _write(path: Path, lines: Iterable[str]) -> None:
    path.write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/test_dschamal_records.py --write")
    write_records()
