"""Folding events through an engine, undo as an event, and replaying records from the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from referee.fold import Fold, fold_events
from referee.games.base import EventError, GameHeader
from referee.record import RecordError, record_lines, replay_lines

HEADER = GameHeader("fastest", "standard", ("Anne", "Marc"), {"target": 2})


def contest(*ranking: list[str], margins: list[int] | None = None) -> dict:
    return {
        "type": "contest",
        "ranking": list(ranking),
        "margins_ns": margins or [5_000_000] * (len(ranking) - 1),
    }


def test_undo_takes_back_the_latest_standing_event_and_is_itself_kept() -> None:
    fold = fold_events(HEADER, [contest(["Anne"], ["Marc"]), contest(["Marc"], ["Anne"]), {"type": "undo"}])
    assert fold.summary()["scores"] == {"Anne": 1, "Marc": 0}
    assert fold.count == 3
    fold.apply({"type": "undo"})
    assert fold.summary()["scores"] == {"Anne": 0, "Marc": 0}
    with pytest.raises(EventError, match="nothing to undo"):
        fold.apply({"type": "undo"})


def test_timing_evidence_is_kept_but_does_not_change_the_game() -> None:
    fold = fold_events(HEADER, [{"type": "arm", "t_ns": 0}, {"type": "press", "seat": "Anne", "t_ns": 5}])
    assert fold.summary()["rounds"] == 0 and fold.count == 2
    fold.apply(contest(["Anne"]))
    fold.apply({"type": "undo"})  # undoes the contest, not the evidence
    assert fold.summary()["rounds"] == 0


def test_the_game_ends_at_the_target_and_refuses_more() -> None:
    fold = fold_events(HEADER, [contest(["Anne"], ["Marc"]), contest(["Anne"])])
    summary = fold.summary()
    assert summary["winner"] == "Anne" and summary["finished"]
    assert [v["rule"]["id"] for v in summary["verdicts"]] == ["fastest.win", "fastest.win", "fastest.target"]
    with pytest.raises(EventError, match="over"):
        fold.apply(contest(["Marc"]))


def test_a_tie_scores_nobody() -> None:
    fold = fold_events(HEADER, [contest(["Anne", "Marc"])])
    assert fold.summary()["scores"] == {"Anne": 0, "Marc": 0}
    assert fold.summary()["verdicts"][0]["rule"]["id"] == "fastest.tie"


def test_check_never_changes_the_fold() -> None:
    fold = Fold.start(HEADER)
    fold.check(contest(["Anne"]))
    assert fold.summary()["rounds"] == 0 and fold.count == 0


@pytest.mark.parametrize(
    ("header", "message"),
    [
        ({"game": "chess", "players": ["A"]}, "unknown game 'chess'"),
        ({"game": "fastest", "players": []}, "played by 1 to 8 players"),
        ({"game": "fastest", "players": ["A", "A"]}, "same name"),
        ({"game": "fastest", "variant": "speed", "players": ["A"]}, "no variant 'speed'"),
        ({"game": "fastest", "players": ["A"], "options": {"target": -1}}, "whole number"),
        ({"game": "fastest", "players": ["A"], "options": {"colour": 1}}, "unknown option 'colour'"),
    ],
)
def test_bad_headers_are_refused_with_a_reason(header: dict, message: str) -> None:
    with pytest.raises(EventError, match=message):
        Fold.start(GameHeader.from_json(header))


def test_replay_names_the_bad_line() -> None:
    lines = [*list(record_lines(HEADER, [contest(["Anne"])])), "", '{"type": "contest", "ranking": 3}']
    with pytest.raises(RecordError) as info:
        replay_lines(lines)
    assert info.value.line == 4 and "not a contest verdict" in str(info.value)
    with pytest.raises(RecordError, match="line 1: not valid JSON"):
        replay_lines(["{nope"])
    with pytest.raises(RecordError, match="empty"):
        replay_lines([])


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "referee", *args], capture_output=True, text=True, timeout=60
    )


def test_replay_command_prints_final_state_and_fails_on_illegal_lines(tmp_path: Path) -> None:
    good = tmp_path / "good.jsonl"
    good.write_text("\n".join(record_lines(HEADER, [contest(["Marc"], ["Anne"]), contest(["Marc"])])) + "\n")
    done = run_cli("replay", str(good))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["winner"] == "Marc" and result["finished"] is True
    assert result["scores"] == {"Anne": 0, "Marc": 2}
    assert all(v["rule"]["source"] for v in result["verdicts"])

    bad = tmp_path / "bad.jsonl"
    bad.write_text(good.read_text() + json.dumps(contest(["Anne"])) + "\n")
    done = run_cli("replay", str(bad))
    assert done.returncode == 1
    assert "line 4" in done.stderr and "over" in done.stderr
    assert run_cli("replay", str(tmp_path / "missing.jsonl")).returncode == 2


def test_arbitrate_command_reads_lines_in_any_order(tmp_path: Path) -> None:
    path = tmp_path / "contest.jsonl"
    lines = [
        {"type": "press", "seat": "Marc", "t_ns": 1_600_000_000},
        {"type": "release", "seat": "Anne", "t_ns": 1_700_000_000},
        {"type": "arm", "t_ns": 1_000_000_000, "seats": ["Anne", "Marc", "Herman", "Carl"]},
        {"type": "press", "seat": "Anne", "t_ns": 1_500_000_000},
        {"type": "press", "seat": "Herman", "t_ns": 1_600_050_000},
        {"type": "press", "seat": "Carl", "t_ns": 1_020_000_000},
    ]
    path.write_text("\n".join(json.dumps(x) for x in lines))
    done = run_cli("arbitrate", str(path))
    assert done.returncode == 0, done.stderr
    verdict = json.loads(done.stdout)
    assert verdict["ranking"] == [["Anne"], ["Marc", "Herman"]]
    assert verdict["margins_ns"] == [100_000_000]
    assert verdict["tie_window_ns"] == 100_000
    assert verdict["false_starts"] == ["Carl"]
    assert verdict["held_at_arm"] == [] and verdict["no_press"] == []
    narrow = json.loads(run_cli("arbitrate", str(path), "--tie-window-ns", "10000").stdout)
    assert narrow["ranking"] == [["Anne"], ["Marc"], ["Herman"]]

    path.write_text('{"type": "press", "seat": "A", "t_ns": 1.5}\n')
    done = run_cli("arbitrate", str(path))
    assert done.returncode == 1 and "line 1" in done.stderr
