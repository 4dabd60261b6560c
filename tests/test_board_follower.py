"""The board follower's rules: stable frames, never a move from a read with a hand over the
board, questions and flags once, and no second recording of a move the scorekeeper undid.
The last test reads the demo's real JPEG frames with the real board reader."""

from __future__ import annotations

import json
from pathlib import Path

import cv2

from referee.board_follower import (
    Ask,
    BoardFollower,
    Commit,
    Flag,
    FollowerSettings,
    Settled,
    Waiting,
    hand_over_board,
)
from referee.board_inference import Observation, play
from referee.games.djambi import Board, Move, Position
from referee.games.djambi.squares import SQUARE_NAMES
from vision.board_reader import BoardTracker

DEMO = Path(__file__).resolve().parents[1] / "referee" / "data" / "demo" / "djambi"
SETTINGS = FollowerSettings(stable_frames=3, patience=2)


def seen(position: Position, **changes: str | None) -> Observation:
    grid: dict[str, str | None] = {
        SQUARE_NAMES[i]: (p.token if p else None) for i, p in enumerate(position.squares)
    }
    grid.update(changes)
    return Observation.from_grid(grid)


def after(position: Position, move: str, **changes: str | None) -> Observation:
    board, _ = play(position, Move.parse(move))
    return seen(board.position(), **changes)


def feed(
    follower: BoardFollower, obs: Observation, position: Position, n: int, camera: str = "still"
) -> list:
    return [follower.feed(obs, position, camera) for _ in range(n)]


START = Position.initial()


def test_a_move_is_committed_once_after_enough_identical_reads() -> None:
    f = BoardFollower(SETTINGS)
    steps = feed(f, seen(START), START, 3)
    assert [type(s) for s in steps] == [Waiting, Waiting, Settled]
    obs = after(START, "c2-e4")
    steps = feed(f, obs, START, 4)
    assert [type(s) for s in steps[:2]] == [Waiting, Waiting]
    assert isinstance(steps[2], Commit) and str(steps[2].move) == "c2-e4"
    assert isinstance(steps[3], Waiting), "a move is committed once per read"
    new, _ = play(START, Move.parse("c2-e4"))
    f.committed(new.position())
    assert isinstance(f.feed(obs, new.position()), Settled)


def test_a_moving_camera_starts_the_count_again() -> None:
    f = BoardFollower(SETTINGS)
    obs = after(START, "c2-e4")
    feed(f, obs, START, 2)
    assert isinstance(f.feed(obs, START, "moved"), Waiting)
    assert isinstance(f.feed(obs, START, "unverified"), Waiting)
    steps = feed(f, obs, START, 3)
    assert [type(s) for s in steps] == [Waiting, Waiting, Commit]


def test_frames_that_disagree_on_a_square_are_not_stable() -> None:
    """A piece still being pushed: seen on d3, then e4, then d3 again."""
    f = BoardFollower(SETTINGS)
    a, b = after(START, "c2-d3"), after(START, "c2-e4")
    for obs in (a, b, a, a, b, b, a):
        assert isinstance(f.feed(obs, START), Waiting)


def test_a_square_flickering_between_a_read_and_unknown_is_still_stable() -> None:
    """The edge of a glare spot: one frame reads the square, the next cannot."""
    f = BoardFollower(SETTINGS)
    a, b = after(START, "c2-e4"), after(START, "c2-e4", a5="??")
    steps = [f.feed(obs, START) for obs in (a, b, a)]
    assert isinstance(steps[-1], Commit) and str(steps[-1].move) == "c2-e4"


def test_a_move_is_committed_only_when_its_squares_are_seen_in_the_latest_frame() -> None:
    f = BoardFollower(SETTINGS)
    a, b = after(START, "c2-e4"), after(START, "c2-e4", e4="??")
    steps = [f.feed(obs, START) for obs in (a, a, b)]
    assert isinstance(steps[-1], Waiting) and "looking again" in steps[-1].reason
    assert isinstance(f.feed(a, START), Commit)


def test_squares_unknown_for_long_are_blind_not_a_hand() -> None:
    """A glare spot at the board's edge from the start: learnt as blind, the game goes on."""
    glare = {"h5": "??", "i5": "??", "h6": "??", "i6": "??"}
    f = BoardFollower(SETTINGS)
    board = seen(START, **glare)
    assert hand_over_board(board) == ("h5", "i5", "h6", "i6")
    steps = feed(f, board, START, 40)  # ten seconds of the set-up board
    assert isinstance(steps[-1], Settled)
    assert {SQUARE_NAMES[i] for i in f.blind} == set(glare)
    steps = feed(f, after(START, "c2-e4", **glare), START, 3)
    assert isinstance(steps[-1], Commit) and str(steps[-1].move) == "c2-e4"


def test_never_a_move_from_a_read_with_a_hand_over_the_board() -> None:
    """The move is plain to see, but a hand lies over the far side: wait as long as it stays."""
    f = BoardFollower(SETTINGS)
    hand = after(START, "c2-e4", h5="??", i5="??", h6="??", i6="??")
    assert hand_over_board(hand) == ("h5", "i5", "h6", "i6")
    steps = feed(f, hand, START, 12)
    assert all(not isinstance(s, Commit) for s in steps)
    asked_at = SETTINGS.stable_frames - 1 + 2 * SETTINGS.patience  # the 1 + 2 × patience-th stable frame
    assert all(isinstance(s, Waiting) and "hand" in s.reason for s in steps[2:asked_at])
    # Still there, the move in plain view: more likely unlearnt glare than a hand. Ask, once.
    assert isinstance(steps[asked_at], Ask)
    asks = [s for s in steps if isinstance(s, Ask)]
    assert len(asks) == 1 and "covers h5, i5, h6, i6" in asks[0].reason
    assert [str(c.move) for c in asks[0].candidates] == ["c2-e4"]
    steps = feed(f, after(START, "c2-e4"), START, 3)
    assert isinstance(steps[-1], Commit)


def test_a_piece_held_above_the_board_is_a_hand() -> None:
    obs = after(START, "c2-e4", e6="??")
    notes = list(obs.notes)
    notes[SQUARE_NAMES.index("e6")] = "a marker of implausible size (held above the board?)"
    held = Observation(obs.tokens, obs.confidence, tuple(notes))
    assert hand_over_board(held) == ("e6",)
    assert hand_over_board(obs) == (), "one unknown square alone is a sticker or glare, not a hand"
    interior = after(START, "c2-e4", d5="??", e5="??", d6="??", e6="??", f6="??")
    assert hand_over_board(interior) == (), "a blob inside the board, away from its edge: glare"
    interior = after(START, "c2-e4", d5="??", e5="??", d6="??", e6="??", f6="??", f5="??")
    assert len(hand_over_board(interior)) == 6, "but something that large is a hand"
    f = BoardFollower(SETTINGS)
    steps = feed(f, held, START, 8)
    assert all(isinstance(s, Waiting) for s in steps[:6]) and not any(isinstance(s, Commit) for s in steps)


def test_an_unknown_square_the_move_changed_is_asked_after_patience() -> None:
    f = BoardFollower(SETTINGS)
    obs = after(START, "c2-e4", e4="??")
    steps = feed(f, obs, START, 8)
    kinds = [type(s) for s in steps]
    assert kinds[:4] == [Waiting] * 4 and kinds[4] is Ask and kinds[5:] == [Waiting] * 3
    ask = steps[4]
    assert [str(c.move) for c in ask.candidates] == ["c2-e4"] and "e4" in ask.reason


def test_several_fitting_moves_are_asked() -> None:
    board = Board(
        "gCgAgM3yMyAyC/gRgDgM4yDyR/gM7yM/6yMyM1/2gN3yN2/1gM6bM/rMrMrN3bNbM1/rRrD3xxbMbDbR/rCxx1xxrM2xxbC b b - rbyg -"
    )
    kill = next(m for m in board.legal_moves() if m.place is not None and m.target != 40)
    same = [m for m in board.legal_moves() if (m.origin, m.target) == (kill.origin, kill.target)][:3]
    pos = board.position()
    hide = {SQUARE_NAMES[m.place]: "??" for m in same}  # type: ignore[index]
    f = BoardFollower(SETTINGS)
    steps = feed(f, after(pos, str(kill), **hide), pos, 6)
    asks = [s for s in steps if isinstance(s, Ask)]
    assert len(asks) == 1 and {c.move for c in asks[0].candidates} == set(same)


def test_an_illegal_move_is_flagged_once_and_cleared_when_taken_back() -> None:
    f = BoardFollower(SETTINGS)
    feed(f, seen(START), START, 3)
    illegal = seen(START, b3=None, b6="rM")  # a militant three squares up
    steps = feed(f, illegal, START, 8)
    flags = [s for s in steps if isinstance(s, Flag)]
    assert len(flags) == 1 and steps.index(flags[0]) == 4  # after 3 stable + 2 more frames
    finding = flags[0].result.findings[0]
    assert finding.rule is not None and finding.rule.id == "djambi.militant.move"
    assert isinstance(feed(f, seen(START), START, 3)[-1], Settled)


def test_an_undone_move_is_not_recorded_again_from_the_same_board() -> None:
    f = BoardFollower(SETTINGS)
    obs = after(START, "c2-e4")
    assert isinstance(feed(f, obs, START, 3)[-1], Commit)
    moved, _ = play(START, Move.parse("c2-e4"))
    f.committed(moved.position())
    assert isinstance(f.feed(obs, moved.position()), Settled)
    # The scorekeeper undoes it at the console; the board still shows it.
    steps = feed(f, obs, START, 10)
    assert not any(isinstance(s, Commit | Ask | Flag) for s in steps)
    assert "console" in steps[-1].reason
    # The players put the militant back, then play it again: recorded again.
    assert isinstance(feed(f, seen(START), START, 3)[-1], Settled)
    assert isinstance(feed(f, obs, START, 3)[-1], Commit)


def test_a_move_typed_at_the_console_is_just_the_board_agreeing() -> None:
    f = BoardFollower(SETTINGS)
    feed(f, seen(START), START, 3)
    moved, _ = play(START, Move.parse("c2-e4"))
    obs = after(START, "c2-e4")
    assert isinstance(feed(f, obs, moved.position(), 3)[-1], Settled)


def test_nothing_is_inferred_once_the_game_is_over() -> None:
    board = Board(Position.build({"a1": "rC", "i9": "xx"}, "-", control="r...", eliminated="byg"))
    assert board.position().turn is None
    f = BoardFollower(SETTINGS)
    steps = feed(f, seen(board.position(), a2="rC", a1=None), board.position(), 5)
    assert all(isinstance(s, Waiting) and "over" in s.reason for s in steps)


def test_the_demo_frames_are_followed_and_the_planted_illegal_move_is_flagged() -> None:
    """Real JPEG frames through the real reader: every scripted move recorded, the hand frames
    waited out, the corpse laid in the maze flagged with its rule."""
    labels = json.loads((DEMO / "game.json").read_text())
    tracker = BoardTracker()
    f = BoardFollower(FollowerSettings(stable_frames=3, patience=2))
    board = Board()
    recorded, flags = [], []
    for frame in labels["frames"]:
        image = cv2.imread(str(DEMO / frame["frame"]))
        assert image is not None
        read = tracker.read(image)
        obs = Observation.from_read(read)
        for _ in range(6):  # the frame held in view
            step = f.feed(obs, board.position(), read.camera)
            if frame["hand"]:
                assert not isinstance(step, Commit), "a move committed from a frame with a hand"
            if isinstance(step, Commit):
                board.push(step.move)
                f.committed(board.position())
                recorded.append(str(step.move))
            elif isinstance(step, Flag):
                flags.append(step.result)
    assert recorded == labels["moves"]
    assert len(flags) == 1
    finding = flags[0].findings[0]
    assert (
        finding.move == labels["illegal"] and finding.rule is not None and finding.rule.id == "djambi.corpse"
    )
    assert flags[0].headline.startswith("Illegal move seen: Blue's militant g1–e1 kills Red's militant")
