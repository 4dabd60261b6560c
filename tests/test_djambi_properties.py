"""Properties of random legal Djambi games, under random rule options.

Over every ply: the 36 pieces are conserved (living + corpses), no piece is ever duplicated
(a living kind's count never grows), only chiefs stand in the maze, every generated move is
accepted by the validator and every move the validator accepts is generated, push/pop and
the position string round-trip, the ruler never plays twice in a row with three camps or more.
"""

from __future__ import annotations

import random
from collections import Counter, defaultdict

from hypothesis import given, note, settings
from hypothesis import strategies as st

from referee.games.djambi import OPTION_SPECS, Board, Kind, Move, Options, Party, Position, why_illegal
from referee.games.djambi.squares import MAZE


def random_options(rng: random.Random) -> Options:
    """About half the options away from their default (the default set one game in four)."""
    if rng.random() < 0.25:
        return Options()
    return Options.from_mapping({s.name: rng.choice(s.choices) for s in OPTION_SPECS if rng.random() < 0.5})


def pick(rng: random.Random, moves: list[Move]) -> Move:
    """A random move, choosing piece and destination first so that the many placements of one
    kill do not crowd out everything else, and favouring the maze and the reporter's kills."""
    groups: dict[tuple[int, int], list[Move]] = defaultdict(list)
    for m in moves:
        groups[m.origin, m.target].append(m)
    hot = [k for k, ms in groups.items() if k[1] == MAZE or ms[-1].victim is not None]
    key = rng.choice(hot) if hot and rng.random() < 0.5 else rng.choice(list(groups))
    return rng.choice(groups[key])


def near_misses(rng: random.Random, moves: list[Move]) -> set[Move]:
    """Legal moves with one part changed, and random strings: what a player might mistype."""
    out: set[Move] = set()
    for m in rng.sample(moves, min(len(moves), 12)):
        for part in ("target", "exit", "place", "victim"):
            value = rng.randrange(81) if part == "target" or rng.random() < 0.8 else None
            fields = {
                "origin": m.origin,
                "target": m.target,
                "exit": m.exit,
                "place": m.place,
                "victim": m.victim,
            }
            fields[part] = value
            out.add(Move(**fields))  # type: ignore[arg-type]
    for _ in range(30):
        opt = [None, None, rng.randrange(81)]
        out.add(Move(rng.randrange(81), rng.randrange(81), rng.choice(opt), rng.choice(opt), rng.choice(opt)))
    return out


def living(board: Board) -> Counter[tuple[Party | None, Kind | None]]:
    return Counter((p.party, p.kind) for p in board.squares if p is not None and p.party is not None)


@settings(max_examples=50)
@given(st.integers(0, 2**32 - 1))
def test_random_legal_games_keep_every_invariant(seed: int) -> None:
    rng = random.Random(seed)
    options = random_options(rng)
    board = Board(Position.initial(options, Party.GREEN if rng.random() < 0.25 else None))
    note(f"options: {options.text()}")
    before = living(board)
    for _ in range(80):
        moves = board.legal_moves()
        if board.turn is None:
            assert moves == []
            break
        assert moves, "a player to move always has a move (players without one are skipped)"
        generated = set(moves)
        assert len(generated) == len(moves), "no move is generated twice"
        for move in moves:
            assert why_illegal(board, move) is None, (board.fen(), str(move))
        for move in near_misses(rng, moves):
            if why_illegal(board, move) is None:
                assert move in generated, (board.fen(), str(move))
        fen = board.fen()
        move = pick(rng, moves)
        mover, ruler = board.turn, board.ruler()
        board.push(move)
        after = board.fen()
        board.pop()
        assert board.fen() == fen, "pop restores the position"
        board.push(move)
        assert board.fen() == after
        assert Position.parse(after) == board.position()
        assert sum(p is not None for p in board.squares) == 36
        now = living(board)
        assert all(now[k] <= before[k] for k in now), "no piece appears or is duplicated"
        before = now
        in_maze = board.squares[MAZE]
        assert in_maze is None or in_maze.party is None or in_maze.kind == Kind.CHIEF
        if mover == ruler == board.ruler() and len(board.playing()) >= 3 and board.turn is not None:
            assert board.turn != mover, "the ruler never plays twice in a row"
