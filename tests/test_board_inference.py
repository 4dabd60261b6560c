"""Move inference from the board camera (issue 10, item 3): which legal move explains a read.

Reads are built from the engine's own result of a move (what the camera would see), then
squares are hidden (``??``), misread or changed the way players get things wrong.
"""

from __future__ import annotations

import doctest
import importlib
import random
from collections import defaultdict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.board_findings import played_moves
from referee.board_inference import (
    Ambiguous,
    Explained,
    NoChange,
    Observation,
    Unexplained,
    _Read,
    effect,
    infer,
    play,
)
from referee.games.djambi import Board, Kind, Move, Party, Position
from referee.games.djambi.squares import MAZE, SQUARE_NAMES, parse_square

# The perft positions of docs/games/djambi.md: between them every kind of move, maze entries and
# exits, reporter kills, diplomats installing chiefs, master moves and three players.
POSITIONS = {
    "initial": Position.initial().fen(),
    "M1": "gCgAgM3yMyAyC/gRgDgM4yDyR/gM7yM/6yMyM1/2gN3yN2/1gM6bM/rMrMrN3bNbM1/rRrD3xxbMbDbR/rCxx1xxrM2xxbC b b - rbyg -",
    "M2": "gCgAgM4yAyC/gRgDgM2yMyMyDyR/2gN3yN1yM/1gMrN2rD3/2rM1rC3bM/gMrM2bM2yM1/rM5bNbM1/rR6bDbR/1rArM3bMbAbC b b r rbyg -",
    "M3": "gC7xx/1gMgN4yDyR/1gM2xxrM1yM1/2rN6/rRxx2bC1xx2/9/2rArM2rDbM1/7bD1/rC5bMbA1 r r b rbrg y",
    "M4": "8yC/9/2gN6/3yR2yNxx1/4gC4/1rR1xx1bM3/2rA1rM1bD2/9/rC7bC r r - rbyh - "
    "own_kill=non_chief,reporter_kill=mandatory,maze_order=place_then_exit,master_moves=true",
}
CORNERS = {"a1": "rC", "i1": "bC", "i9": "yC", "a9": "gC"}


def grid_after(board: Board, move: Move | str) -> dict[str, str | None]:
    """What the camera sees after a legal move: the engine's own result, every consequence."""
    after, _ = play(board.position(), Move.parse(move) if isinstance(move, str) else move)
    return {SQUARE_NAMES[i]: (p.token if p else None) for i, p in enumerate(after.squares)}


def grid_of(board: Board) -> dict[str, str | None]:
    return {SQUARE_NAMES[i]: (p.token if p else None) for i, p in enumerate(board.squares)}


def carried_out(board: Board, move: str) -> dict[str, str | None]:
    """What the camera sees after a move carried out physically, legal or not."""
    grid = grid_of(board)
    changes = effect(board, Move.parse(move))
    assert changes is not None
    for sq, piece in changes.items():
        grid[SQUARE_NAMES[sq]] = piece.token if piece else None
    return grid


def build(pieces: dict[str, str], turn: str = "r", **kw: object) -> Board:
    return Board(Position.build({**CORNERS, **pieces}, turn, **kw))  # type: ignore[arg-type]


def kind_at(board: Board, square: int) -> Kind | None:
    piece = board.squares[square]
    return piece.kind if piece is not None else None


def militant_kill(board: Board) -> Move:
    """The first legal kill by a militant (the corpse placed by the player)."""
    return next(
        m
        for m in board.legal_moves()
        if m.place is not None and m.target != MAZE
        and board.squares[m.origin].kind == Kind.MILITANT  # type: ignore[union-attr]
        and board.squares[m.target] is not None and board.squares[m.target].party is not None  # type: ignore[union-attr]
    )  # fmt: skip


# -- every legal move is found -------------------------------------------------------------------


def _same_result(board: Board, moves: list[Move]) -> dict[tuple[object, ...], list[Move]]:
    """Moves grouped by the board they leave (their direct effect: fast enough for 2,229)."""
    by_after: dict[tuple[object, ...], list[Move]] = defaultdict(list)
    for m in moves:
        squares = list(board.squares)
        for sq, piece in (effect(board, m) or {}).items():
            squares[sq] = piece
        by_after[tuple(squares)].append(m)
    return by_after


@pytest.mark.parametrize("name", ["initial", "M1", "M2", "M4"])
def test_every_legal_move_is_explained_from_a_clear_read(name: str) -> None:
    board = Board(POSITIONS[name])
    for move in board.legal_moves():
        result = infer(board, Observation.from_grid(grid_after(board, move)))
        assert isinstance(result, Explained) and result.move == move, (str(move), result)
        assert not result.unseen


def test_maze_actions_reporter_kills_and_diplomats_are_explained_in_the_busiest_position() -> None:
    """M3 (2,229 moves): a sample of every piece's moves, all maze actions and reporter kills.
    Two diplomats that enter the maze and come back to their own squares leave the same board:
    the camera cannot tell them apart and asks."""
    board = Board(POSITIONS["M3"])
    moves = board.legal_moves()
    twins = {m: ms for ms in _same_result(board, moves).values() if len(ms) > 1 for m in ms}
    assert twins, "M3 holds moves the camera cannot tell apart"
    maze = [m for m in moves if m.target == MAZE]
    reporter = [m for m in moves if m.victim is not None]
    kinds = {board.squares[m.origin].kind for m in maze}  # type: ignore[union-attr]
    assert {Kind.ASSASSIN, Kind.DIPLOMAT} <= kinds and reporter
    sample = maze[::29] + reporter[::3] + moves[::71] + list(twins)[:2]
    for move in sample:
        result = infer(board, Observation.from_grid(grid_after(board, move)))
        if move in twins:
            assert isinstance(result, Ambiguous)
            assert {c.move for c in result.candidates} == set(twins[move])
        else:
            assert isinstance(result, Explained) and result.move == move, (str(move), result)


def kind_of(board: Board, m: Move) -> str:
    """What sort of move it is, for checking that every sort is covered."""
    actor, target = board.squares[m.origin], board.squares[m.target]
    assert actor is not None and actor.kind is not None
    who = actor.kind.title
    if target is None:
        if m.target == MAZE:
            return "chief takes the empty maze"
        if actor.kind == Kind.REPORTER:
            return "reporter kills" if m.victim is not None else "reporter moves"
        return "moves"
    if m.target == MAZE and actor.kind != Kind.CHIEF:
        master = m.exit != m.origin and board.squares[m.exit] is not None  # type: ignore[index]
        return f"{who} enters the maze and leaves" + (" (master move)" if master else "")
    if target.party is None:
        return "necromobile relocates a corpse"
    if actor.kind == Kind.DIPLOMAT:
        return "diplomat installs a chief in the maze" if m.place == MAZE else "diplomat manipulates"
    return f"{who} kills" + (" the ruler" if m.target == MAZE else "")


def test_every_kind_of_move_is_covered_and_explained_with_its_words() -> None:
    positions = {
        **POSITIONS,
        "throne": build({"g3": "rD"}).fen(),  # a1-e5 takes the maze; g3-i1@e5 installs Blue's chief
        "dead maze": build({"e5": "xx", "c7": "rN"}).fen(),  # the necromobile clears the maze
    }
    examples: dict[str, tuple[str, Move]] = {}
    for name, fen in positions.items():
        board = Board(fen)
        for m in board.legal_moves():
            if m.exit != m.origin:  # back to its own square: see the M3 test (twins)
                examples.setdefault(kind_of(board, m), (name, m))
    wanted = {
        "moves", "reporter moves", "reporter kills", "chief takes the empty maze", "militant kills",
        "chief kills", "assassin kills", "diplomat manipulates", "necromobile relocates a corpse",
        "assassin enters the maze and leaves", "diplomat enters the maze and leaves",
        "necromobile enters the maze and leaves", "diplomat installs a chief in the maze",
    }  # fmt: skip
    assert wanted <= set(examples), sorted(set(examples))
    for kind, (name, move) in examples.items():
        board = Board(positions[name])
        result = infer(board, Observation.from_grid(grid_after(board, move)))
        assert isinstance(result, Explained) and result.move == move, (kind, str(move), result)
        assert result.evidence["said"] and result.evidence["seen"] and not result.unseen


def test_the_reporter_kills_every_neighbour_under_the_fox_news_option() -> None:
    board = build({"c3": "rR", "b5": "gM", "d5": "bM"}, options={"reporter_victims": "all"})
    grid = grid_after(board, "c3-c5")
    assert grid["b5"] == grid["d5"] == "xx"
    result = infer(board, Observation.from_grid(grid))
    assert isinstance(result, Explained) and str(result.move) == "c3-c5"


def test_maze_entry_and_exit_with_the_evicted_chief_placed() -> None:
    """§1.5: the diplomat enters the occupied maze, evicts the ruler, leaves, places him."""
    board = Board(POSITIONS["M3"])
    move = next(
        m
        for m in board.legal_moves()
        if m.target == MAZE and kind_at(board, m.origin) == Kind.DIPLOMAT and m.exit != m.origin
    )
    result = infer(board, Observation.from_grid(grid_after(board, move)))
    assert isinstance(result, Explained) and result.move == move
    assert "e5" in result.evidence["seen"] and SQUARE_NAMES[move.exit] in result.evidence["seen"]  # type: ignore[index]


def test_a_reporter_kill_and_the_same_move_without_a_kill_are_told_apart() -> None:
    board = Board(POSITIONS["M3"])
    kill = next(m for m in board.legal_moves() if m.victim is not None)
    plain = Move(kill.origin, kill.target)
    for move in (kill, plain):
        result = infer(board, Observation.from_grid(grid_after(board, move)))
        assert isinstance(result, Explained) and result.move == move


# -- unknown squares are wildcards ----------------------------------------------------------------


def test_unknown_squares_away_from_the_move_do_not_matter() -> None:
    board = Board(POSITIONS["M1"])
    move = militant_kill(board)
    after, _ = play(board.position(), move)
    changed = {i for i in range(81) if after.squares[i] is not board.squares[i]}
    grid = grid_after(board, move)
    far = [sq for i, sq in enumerate(SQUARE_NAMES) if i not in changed][::9]
    for sq in far:  # a sleeve over one side, glare in the middle: nothing the move touched
        grid[sq] = "??"
    result = infer(board, Observation.from_grid(grid))
    assert isinstance(result, Explained) and result.move == move and not result.unseen


def test_a_hidden_square_the_move_changed_is_unseen_evidence() -> None:
    """The militant's corpse lies under a hand: one fit, but the follower must not commit."""
    board = Board()
    grid = grid_after(board, "c2-e4")
    grid["e4"] = "??"
    result = infer(board, Observation.from_grid(grid))
    # c2 left; it could be on e4 or any other unknown square it reaches: only e4 is unknown.
    assert isinstance(result, Explained) and str(result.move) == "c2-e4"
    assert [SQUARE_NAMES[s] for s in result.unseen] == ["e4"]


def test_a_corpse_under_a_hand_makes_several_placements_fit() -> None:
    board = Board(POSITIONS["M1"])
    move = militant_kill(board)
    others = [
        m for m in board.legal_moves() if (m.origin, m.target) == (move.origin, move.target) and m != move
    ]
    grid = grid_after(board, move)
    hidden = [move.place, *(m.place for m in others[:3])]
    for sq in hidden:
        grid[SQUARE_NAMES[sq]] = "??"  # type: ignore[index]
    result = infer(board, Observation.from_grid(grid))
    assert isinstance(result, Ambiguous)
    assert {c.move for c in result.candidates} == {move, *others[:3]}
    assert "cannot see" in result.reason


def test_a_doubtful_square_makes_a_question_not_a_verdict() -> None:
    """A square read with little confidence that contradicts the only fit: ask."""
    board = Board()
    grid = grid_after(board, "c2-e4")
    seen = Observation.from_grid(grid)
    e4 = parse_square("e4")
    tokens = list(seen.tokens)
    conf = list(seen.confidence)
    tokens[e4], conf[e4] = "bM", 0.2  # misread colour, low confidence
    result = infer(board, Observation(tuple(tokens), tuple(conf)))
    assert isinstance(result, Ambiguous)
    assert "c2-e4" in {str(c.move) for c in result.candidates} and "little confidence" in result.reason


# -- no change ------------------------------------------------------------------------------------


def test_the_same_board_is_no_change_even_with_unknown_squares() -> None:
    board = Board(POSITIONS["M2"])
    assert isinstance(infer(board, Observation.from_grid(grid_of(board))), NoChange)
    grid = grid_of(board)
    grid["e5"] = grid["d4"] = "??"
    result = infer(board, Observation.from_grid(grid))
    assert isinstance(result, NoChange) and {SQUARE_NAMES[s] for s in result.unknown} == {"e5", "d4"}


# -- illegal moves are the referee's finding ------------------------------------------------------


def test_a_militant_killing_the_chief_in_power_is_flagged_with_its_rule() -> None:
    """The record djambi-illegal-militant-vs-ruler: Blue's militant e4 kills Red's ruler."""
    board = Board(POSITIONS["M2"])
    result = infer(board, Observation.from_grid(carried_out(board, "e4-e5@e4")))
    assert isinstance(result, Unexplained) and result.confident
    finding = result.findings[0]
    assert finding.kind == "illegal" and finding.move == "e4-e5@e4"
    assert finding.rule is not None and finding.rule.id == "djambi.militant.not-the-ruler"
    assert result.headline.startswith("Illegal move seen: Blue's militant e4–e5 kills Red's chief")
    assert {c.name for c in result.changes} == {"e4", "e5"}


def test_a_corpse_placed_in_the_maze_is_a_misplaced_corpse() -> None:
    board = Board(POSITIONS["M1"])
    legal = militant_kill(board)
    played = Move(legal.origin, legal.target, place=MAZE)
    result = infer(board, Observation.from_grid(carried_out(board, str(played))))
    assert isinstance(result, Unexplained) and result.confident
    finding = result.findings[0]
    assert finding.kind == "misplaced" and finding.move == str(played)
    assert finding.rule is not None and finding.rule.id == "djambi.corpse"
    assert finding.message == "no dead piece may be placed in the maze"
    assert finding.legal and all(m.startswith(str(played)[:5] + "@") for m in finding.legal)
    assert "misplaced" in finding.remedy


def test_an_assassins_corpse_put_elsewhere_is_misplaced() -> None:
    """§1.6 Assassin: the victim's corpse goes on the assassin's departure square, no choice."""
    board = build({"c3": "rA", "c5": "bM"})
    kill = Move.parse("c3-c5")
    assert board.is_legal(kill)
    played = Move.parse("c3-c5@g5")
    result = infer(board, Observation.from_grid(carried_out(board, str(played))))
    assert isinstance(result, Unexplained)
    finding = result.findings[0]
    assert (
        finding.kind == "misplaced" and finding.rule is not None and finding.rule.id == "djambi.assassin.kill"
    )
    assert str(kill) in finding.legal


@pytest.mark.parametrize(
    ("pieces", "move", "rule"),
    [
        ({"c3": "rM"}, "c3-c6", "djambi.militant.move"),  # three squares
        ({"c3": "rR", "c4": "rM"}, "c3-c6", "djambi.move.no-jump"),  # jumps its own militant
        ({"c3": "rN", "c5": "bM"}, "c3-c5@d5", "djambi.necromobile.relocate"),  # a living piece
        ({"c3": "rD", "c5": "rM"}, "c3-c5@d5", "djambi.diplomat.manipulate"),  # its own camp
    ],
)
def test_illegal_moves_name_the_rule_they_break(pieces: dict[str, str], move: str, rule: str) -> None:
    board = build(pieces)
    result = infer(board, Observation.from_grid(carried_out(board, move)))
    assert isinstance(result, Unexplained) and result.findings, result
    assert result.findings[0].rule is not None and result.findings[0].rule.id == rule
    assert result.findings[0].move == move


def test_a_move_out_of_turn_is_flagged() -> None:
    board = Board()  # Red to move; Blue moves a militant
    result = infer(board, Observation.from_grid(carried_out(board, "h3-h5")))
    assert isinstance(result, Unexplained)
    finding = result.findings[0]
    assert (
        finding.kind == "out-of-turn" and finding.rule is not None and finding.rule.id == "djambi.turn-order"
    )
    assert "Red's turn" in finding.message


def test_a_forgotten_extra_turn_is_flagged() -> None:
    """§1.8: Red rules the maze; after Blue moved, Red plays, but Yellow moved instead."""
    board = Board(POSITIONS["M2"])
    board.push(next(m for m in board.legal_moves() if m.place is None and m.exit is None))  # Blue
    assert board.turn is not None and board.turn == board.ruler()  # Red's extra turn
    yellow = board.copy()
    yellow.turn = Party.YELLOW
    move = next(m for m in yellow.legal_moves() if m.place is None and m.exit is None and m.victim is None)
    result = infer(board, Observation.from_grid(carried_out(board, str(move))))
    assert isinstance(result, Unexplained)
    finding = result.findings[0]
    assert finding.kind == "forgotten-extra-turn" and "Red rules the maze" in finding.headline


def test_an_encircled_chief_left_standing_is_flagged() -> None:
    """§1.9: the necromobile closes the ring of corpses around Blue's chief, who dies; the
    players forget to turn him over."""
    board = build({"h1": "xx", "h2": "xx", "c3": "rN", "c5": "xx", "e2": "bM"})
    move = "c3-c5@i2"
    grid = grid_after(board, move)
    assert grid["i1"] == "xx"
    result = infer(board, Observation.from_grid(grid))
    assert isinstance(result, Explained) and str(result.move) == move  # turned over: fine
    grid["i1"] = "bC"
    result = infer(board, Observation.from_grid(grid))
    assert isinstance(result, Unexplained)
    assert result.findings[0].kind == "encircled" and result.findings[0].move == move


def test_a_piece_lifted_off_the_board_is_unexplained_without_a_made_up_move() -> None:
    board = Board()
    grid = grid_of(board)
    grid["c2"] = None  # in a player's hand
    result = infer(board, Observation.from_grid(grid))
    assert isinstance(result, Unexplained) and not result.findings
    assert "c2: Red's militant → empty" in result.headline


def test_played_moves_reconstruct_exactly_the_changes() -> None:
    board = Board(POSITIONS["M2"])
    obs = Observation.from_grid(carried_out(board, "e4-e5@e4"))
    assert [str(m) for m in played_moves(board, _Read.of(board, obs))] == ["e4-e5@e4"]


# -- properties over random games -----------------------------------------------------------------


@settings(max_examples=40)
@given(st.integers(0, 10_000), st.data())
def test_any_legal_move_of_a_random_game_is_found_with_unknown_squares_elsewhere(
    seed: int, data: st.DataObject
) -> None:
    rng = random.Random(seed)
    board = Board()
    for _ in range(rng.randrange(0, 25)):
        moves = board.legal_moves()
        if not moves:
            return
        board.push(rng.choice(moves))
    moves = board.legal_moves()
    if not moves:
        return
    move = rng.choice(moves)
    after, _ = play(board.position(), move)
    changed = {i for i in range(81) if after.squares[i] is not board.squares[i]}
    hidden = data.draw(st.sets(st.sampled_from([i for i in range(81) if i not in changed]), max_size=12))
    grid = {
        SQUARE_NAMES[i]: ("??" if i in hidden else (p.token if p else None))
        for i, p in enumerate(after.squares)
    }
    result = infer(board, Observation.from_grid(grid))
    twins = [m for m in moves if m != move and play(board.position(), m)[0].squares == after.squares]
    if twins:
        assert isinstance(result, Ambiguous)
    else:
        # Hidden squares elsewhere can only make other moves fit too, never a wrong single answer.
        assert (isinstance(result, Explained) and result.move == move) or (
            isinstance(result, Ambiguous) and move in {c.move for c in result.candidates}
        )


@settings(max_examples=40)
@given(st.integers(0, 10_000))
def test_an_explained_move_never_contradicts_a_square_read_with_confidence(seed: int) -> None:
    """Whatever the camera reads (a random board one or two random changes away), an
    Explained answer is a legal move whose result agrees with every confident square."""
    rng = random.Random(seed)
    board = Board(POSITIONS[rng.choice(list(POSITIONS))])
    grid = grid_of(board)
    tokens = ["rM", "bC", "xx", None, "yA", "gN", "??"]
    for sq in rng.sample(SQUARE_NAMES, rng.randrange(1, 4)):
        grid[sq] = rng.choice(tokens)
    if grid["e5"] not in (None, "??", "xx") and grid["e5"][1] != "C":
        grid["e5"] = None
    result = infer(board, Observation.from_grid(grid))
    if isinstance(result, Explained):
        assert board.is_legal(result.move)
        after, _ = play(board.position(), result.move)
        for i, name in enumerate(SQUARE_NAMES):
            if grid[name] != "??":
                piece = after.squares[i]
                assert (piece.token if piece else None) == grid[name]


@pytest.mark.parametrize("name", ["board_inference", "board_findings", "board_follower"])
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(f"referee.{name}")
    result = doctest.testmod(module)
    assert result.failed == 0
