"""The board camera's flow without the web, on a real journal: a question answered at the
console becomes the move (marked as confirmed), only offered moves are taken, a stale question
is refused, the last frame of a folder stays in view, and frames are read and acted on."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from hardware.camera import FolderSource
from referee.board_camera import BoardCamera, LastFrameStays, current_djambi
from referee.board_follower import Ask, BoardFollower, Commit, FollowerSettings
from referee.board_inference import Observation, play
from referee.games.djambi import Move, Position
from referee.games.djambi.squares import SQUARE_NAMES
from referee.journal import Journal
from referee.session import InputRefused, Session

DEMO = Path(__file__).resolve().parents[1] / "referee" / "data" / "demo" / "djambi"
DJAMBI = {"game": "djambi", "variant": "four", "players": ["Anne", "Marc", "Zoé", "Louis"], "options": {}}


def camera_on(tmp_path: Path, frames: list[str]) -> tuple[BoardCamera, Session]:
    folder = tmp_path / "frames"
    folder.mkdir()
    for i, name in enumerate(frames):
        shutil.copy(DEMO / name, folder / f"{i:02d}.jpg")
    session = Session.open(Journal(tmp_path / "j.sqlite3"))
    session.create_game(DJAMBI)
    source = LastFrameStays(FolderSource(folder, loop=False))
    follower = BoardFollower(FollowerSettings(stable_frames=2, patience=1))
    return BoardCamera(source, session, follower=follower), session


def run_frames(camera: BoardCamera, session: Session, n: int) -> None:
    """What the daemon's loop does, without the loop: read off the loop, act on it."""
    for _ in range(n):
        current = current_djambi(session)
        assert current is not None
        game_id, position = current
        camera._act(camera._work(position), game_id, position)


def ambiguous_read(position: Position) -> tuple[Observation, list[str]]:
    """c2's militant has gone, and the only squares it could have gone to are unknown."""
    grid = {SQUARE_NAMES[i]: (p.token if p else None) for i, p in enumerate(position.squares)}
    grid["c2"] = None
    grid["e4"] = grid["d3"] = "??"
    return Observation.from_grid(grid), ["c2-d3", "c2-e4"]


def test_frames_are_read_and_moves_recorded_as_the_cameras(tmp_path: Path) -> None:
    labels = json.loads((DEMO / "game.json").read_text())
    camera, session = camera_on(tmp_path, ["frame-00.jpg", "frame-02.jpg"])
    source = camera.source
    run_frames(camera, session, 1)  # the starting position
    assert camera.view()["placement"] == labels["frames"][0]["placement"]
    run_frames(camera, session, 4)  # the last frame stays in view: c1-e1 is seen and recorded
    game = session.game()
    assert game.fold.summary()["moves"] == ["c1-e1"]
    assert game.fold.last_event() == {"type": "move", "move": "c1-e1", "source": "camera"}
    assert camera.view()["moves"][-1]["move"] == "c1-e1" and camera.preview_jpeg[:2] == b"\xff\xd8"
    assert source.read() is not None, "a folder's last frame stays in view"


def test_a_question_is_answered_at_the_console(tmp_path: Path) -> None:
    camera, session = camera_on(tmp_path, ["frame-00.jpg"])
    game_id, position = current_djambi(session)  # type: ignore[misc]
    obs, fits = ambiguous_read(position)
    steps = [camera.follower.feed(obs, position) for _ in range(4)]
    ask = next(s for s in steps if isinstance(s, Ask))
    camera._step(ask, game_id, position)
    question = camera.view()["question"]
    assert question is not None and sorted(c["move"] for c in question["candidates"]) == fits
    with pytest.raises(InputRefused, match="not one of the moves"):
        camera.choose("a3-a4")
    camera.choose("c2-e4")
    assert session.game().fold.last_event() == {"type": "move", "move": "c2-e4", "source": "camera-confirmed"}
    assert camera.view()["question"] is None
    # The follower knows the move was recorded for it: the same board now agrees.
    after, _ = play(position, Move.parse("c2-e4"))
    grid = {SQUARE_NAMES[i]: (p.token if p else None) for i, p in enumerate(after.squares)}
    steps = [camera.follower.feed(Observation.from_grid(grid), after.position()) for _ in range(2)]
    assert type(steps[-1]).__name__ == "Settled"
    blue, _ = play(after.position(), Move.parse("h3-h5"))
    grid = {SQUARE_NAMES[i]: (p.token if p else None) for i, p in enumerate(blue.squares)}
    steps = [camera.follower.feed(Observation.from_grid(grid), after.position()) for _ in range(2)]
    assert isinstance(steps[-1], Commit) and str(steps[-1].move) == "h3-h5"
    with pytest.raises(InputRefused, match="not asking"):
        camera.dismiss()


def test_a_stale_question_or_commit_changes_nothing(tmp_path: Path) -> None:
    camera, session = camera_on(tmp_path, ["frame-00.jpg"])
    game_id, position = current_djambi(session)  # type: ignore[misc]
    obs, _ = ambiguous_read(position)
    steps = [camera.follower.feed(obs, position) for _ in range(4)]
    camera._step(next(s for s in steps if isinstance(s, Ask)), game_id, position)
    session.submit({"type": "move", "move": "c1-d1"})  # the scorekeeper typed a move meanwhile
    with pytest.raises(InputRefused, match="moved on"):
        camera.choose("c2-e4")
    assert camera.dismiss() == {"ok": True} and camera.view()["question"] is None
    # A commit computed on the old position is dropped, not applied to the new one.
    new = session.game().fold.state.position
    after, _ = play(position, Move.parse("c2-e4"))
    grid = {SQUARE_NAMES[i]: (p.token if p else None) for i, p in enumerate(after.squares)}
    fresh = BoardFollower(FollowerSettings(stable_frames=1))
    commit = fresh.feed(Observation.from_grid(grid), position)
    assert isinstance(commit, Commit)
    camera._step(commit, game_id, position)
    assert session.game().fold.state.position == new, "the camera's move was for the old position"
    assert session.game().fold.summary()["moves"] == ["c1-d1"]
