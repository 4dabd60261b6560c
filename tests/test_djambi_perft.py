"""Move counts ("perft") from the initial position and from mid-game positions.

The same positions and counts are tabled in docs/games/djambi.md (depth 3 for the mid-game
positions comes from bench/bench_djambi.py: too slow for the test budget). Each position
string carries its options; all others are the defaults.
"""

from __future__ import annotations

import pytest

from referee.games.djambi import Board, Move, Position, why_illegal
from referee.games.djambi.movegen import movable
from referee.games.djambi.squares import MAZE

INITIAL = Position.initial().fen()
# After the record djambi-opening-kills (Blue to move; four corpses).
M1 = "gCgAgM3yMyAyC/gRgDgM4yDyR/gM7yM/6yMyM1/2gN3yN2/1gM6bM/rMrMrN3bNbM1/rRrD3xxbMbDbR/rCxx1xxrM2xxbC b b - rbyg -"
# After the record djambi-maze-seizure (Red rules; Blue to move).
M2 = "gCgAgM4yAyC/gRgDgM2yMyMyDyR/2gN3yN1yM/1gMrN2rD3/2rM1rC3bM/gMrM2bM2yM1/rM5bNbM1/rR6bDbR/1rArM3bMbAbC b b r rbyg -"
# Blue rules; Red's assassin, diplomat, reporter and necromobile can all reach the maze;
# Yellow is out and its pieces are Red's satellites.
M3 = "gC7xx/1gMgN4yDyR/1gM2xxrM1yM1/2rN6/rRxx2bC1xx2/9/2rArM2rDbM1/7bD1/rC5bMbA1 r r b rbrg y"
# Three players: Green's chief, a hostage, blocks the maze; four non-default options.
M4 = (
    "8yC/9/2gN6/3yR2yNxx1/4gC4/1rR1xx1bM3/2rA1rM1bD2/9/rC7bC r r - rbyh - "
    "own_kill=non_chief,reporter_kill=mandatory,maze_order=place_then_exit,master_moves=true"
)

PERFT = [
    ("initial", INITIAL, (30, 1205, 49206)),
    ("M1", M1, (117, 22706)),
    ("M2", M2, (330, 206804)),
    ("M3", M3, (2229, 811778)),
    ("M4", M4, (392, 149438)),
]


@pytest.mark.parametrize(("name", "fen", "counts"), PERFT, ids=[p[0] for p in PERFT])
def test_perft(name: str, fen: str, counts: tuple[int, ...]) -> None:
    board = Board(fen)
    for depth, expected in enumerate(counts, start=1):
        assert board.perft(depth) == expected, (name, depth)
    assert board.fen() == fen  # push/pop restored everything


def candidates(board: Board) -> list[Move]:
    """Every move string a player could write for the pieces that may move: all destinations,
    and every placement, victim or exit square; exit+placement pairs only into the maze (the
    validator refuses an exit anywhere else, which the property tests check)."""
    assert board.turn is not None
    out = []
    for o in movable(board, board.turn):
        for t in range(81):
            out.append(Move(o, t))
            out.extend(Move(o, t, place=p) for p in range(81))
            out.extend(Move(o, t, victim=v) for v in range(81))
            out.extend(Move(o, t, exit=e) for e in range(81))
            if t == MAZE:
                out.extend(Move(o, t, exit=e, place=p) for e in range(81) for p in range(81))
    return out


@pytest.mark.parametrize("fen", [INITIAL, M1, M3, M4], ids=["initial", "M1", "M3", "M4"])
def test_the_validator_accepts_exactly_the_generated_moves(fen: str) -> None:
    """An independent count of perft(1): every candidate string through the validator."""
    board = Board(fen)
    accepted = {m for m in candidates(board) if why_illegal(board, m) is None}
    assert accepted == set(board.legal_moves())
