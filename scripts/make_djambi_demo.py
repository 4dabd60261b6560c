"""Make the board camera's demo: a short scripted Djambi game seen by a fixed camera.

    /work/venv/bin/python scripts/make_djambi_demo.py [OUT_DIR]     (default referee/data/demo/djambi)

Frames are rendered by `vision.board_synth` (1280×720, one camera for the whole game, a lamp's
gradient, sensor noise) and written as JPEG in play order, with ``game.json`` beside them: the
scripted moves and each frame's true placement. Two frames show a hand carrying a piece (the
follower must wait), and the last move is a planted illegal one: Blue's militant kills on e1
and lays the corpse in the maze (djambi.md §1.7: "Corpses may not be placed in the maze"),
which the referee flags. `referee serve --board-camera referee/data/demo/djambi` plays it.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from referee.board_inference import effect  # noqa: E402
from referee.games.djambi import Board, Move  # noqa: E402
from referee.games.djambi.position import placement_from_squares  # noqa: E402
from referee.games.djambi.squares import parse_square  # noqa: E402
from vision.board_synth import SKIN_BGR, SLEEVE_BGR, Hand, SceneParams, render_placement, view  # noqa: E402

SIZE = (1280, 720)
# Legal moves (Red, Blue, Yellow, Green, Red), then Blue's illegal kill with the corpse in the maze.
SCRIPT = ("c1-e1", "i3-i4", "g7-g5", "c7-c5", "a3-a5")
ILLEGAL = "g1-e1@e5"
# Move index → the square lifted, and where the hand comes from: Red sits at the bottom of the
# picture (fingers pointing up), Blue on the right (fingers pointing left).
HAND_BEFORE = {0: ("c1", -math.pi / 2), 5: ("g1", math.pi)}
QUALITY = 60


def camera() -> SceneParams:
    H = view(SIZE, side=0.95 * SIZE[1], center=(SIZE[0] / 2, SIZE[1] / 2), turn=0.03, keystone=0.07)
    return SceneParams(
        image_size=SIZE,
        board_to_image=tuple(tuple(float(v) for v in row) for row in H),
        scheme=0,
        gain=(-0.05, 0.12, -0.08),
        vignette=0.25,
        blur=0.6,
        noise=0.6,
        jpeg=0,  # written as JPEG once, below
    )


def lifted(placement_squares: list, square: str) -> str:
    """The board while a piece is in a player's hand: its square is empty."""
    squares = list(placement_squares)
    squares[parse_square(square)] = None
    return placement_from_squares(squares)


def hand_over(square: str, angle: float) -> Hand:
    """A hand over ``square``, fingers pointing at ``angle`` (image radians), the arm behind."""
    i = parse_square(square)
    x, y = i % 9 + 0.5, i // 9 + 0.5
    back = (-math.cos(angle), math.sin(angle))  # board y grows up, image y down
    palm = (x + 0.4 * back[0], y + 0.4 * back[1])
    return Hand(palm=palm, angle=angle, size=1.5, skin=SKIN_BGR[1], sleeve=SLEEVE_BGR[1])


def main() -> int:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "referee" / "data" / "demo" / "djambi"
    out.mkdir(parents=True, exist_ok=True)
    for old in out.glob("frame-*.jpg"):
        old.unlink()
    params = camera()
    board = Board()
    frames: list[dict[str, object]] = []

    def shoot(placement: str, what: str, hand: Hand | None = None) -> None:
        p = params if hand is None else SceneParams(**{**params.__dict__, "hands": (hand,)})
        shot = render_placement(placement, p, seed=len(frames) + 1)
        name = f"frame-{len(frames):02d}.jpg"
        cv2.imwrite(
            str(out / name), shot.image, [cv2.IMWRITE_JPEG_QUALITY, QUALITY, cv2.IMWRITE_JPEG_OPTIMIZE, 1]
        )
        frames.append({"frame": name, "placement": placement, "shows": what, "hand": hand is not None})

    shoot(board.position().placement(), "the starting position")
    for k, text in enumerate((*SCRIPT, ILLEGAL)):
        move = Move.parse(text)
        if k in HAND_BEFORE:
            square, direction = HAND_BEFORE[k]
            shoot(
                lifted(board.squares, square),
                f"a hand carries the piece from {square}",
                hand_over(text[3:5], direction),
            )
        if text == ILLEGAL:
            changes = effect(board, move)
            assert changes is not None and board.is_legal(move) is False
            squares = list(board.squares)
            for sq, piece in changes.items():
                squares[sq] = piece
            shoot(placement_from_squares(squares), f"planted illegal move {text}")
        else:
            board.push(move)
            shoot(board.position().placement(), f"after {text}")
    labels = {"size": list(SIZE), "moves": list(SCRIPT), "illegal": ILLEGAL, "frames": frames}
    (out / "game.json").write_text(json.dumps(labels, indent=1) + "\n")
    total = sum(f.stat().st_size for f in out.glob("frame-*.jpg"))
    print(f"{len(frames)} frames, {total // 1024} KB in {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
