"""Djambi notation: squares, the position string, the move string, the board reader's helpers.

Rules: djambi.md §1.1 (coordinates), §1.3 (setup); the notation is docs/games/djambi.md.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee.games.djambi import (
    OPTION_SPECS,
    Move,
    MoveSyntaxError,
    Options,
    Party,
    Position,
    PositionError,
    grid_from_placement,
    placement_from_grid,
)
from referee.games.djambi.pieces import STARTING_COUNT, Kind
from referee.games.djambi.squares import MAZE, SQUARE_NAMES, parse_square, square_name

INITIAL = (
    "gCgAgM3yMyAyC/gRgDgM3yMyDyR/gMgMgN3yNyMyM/9/9/9/rMrMrN3bNbMbM/rRrDrM3bMbDbR/rCrArM3bMbAbC r r - rbyg -"
)


def test_squares_a1_is_reds_corner_and_the_maze_is_e5() -> None:
    """§1.1: files a–i left to right, ranks 1–9 bottom to top, the maze e5."""
    assert parse_square("a1") == 0 and parse_square("i1") == 8 and parse_square("a9") == 72
    assert square_name(MAZE) == "e5"
    with pytest.raises(ValueError, match="file a–i"):
        parse_square("j1")


def test_initial_position_string() -> None:
    assert Position.initial().fen() == INITIAL
    assert Position.parse(INITIAL) == Position.initial()


# §1.3, the setup table: camp, chief, assassin, reporter, diplomat, necromobile, militants.
SETUP = [
    ("r", "a1", "b1", "a2", "b2", "c3", ("c1", "c2", "a3", "b3")),
    ("b", "i1", "h1", "i2", "h2", "g3", ("g1", "g2", "h3", "i3")),
    ("y", "i9", "h9", "i8", "h8", "g7", ("g9", "g8", "h7", "i7")),
    ("g", "a9", "b9", "a8", "b8", "c7", ("c9", "c8", "a7", "b7")),
]


@pytest.mark.parametrize("camp", SETUP, ids=[row[0] for row in SETUP])
def test_mirror_setup_matches_the_table_of_section_1_3(camp: tuple) -> None:
    party, chief, assassin, reporter, diplomat, necro, militants = camp
    grid = grid_from_placement(Position.initial().placement())
    assert grid[chief] == party + "C"
    assert grid[assassin] == party + "A"
    assert grid[reporter] == party + "R"
    assert grid[diplomat] == party + "D"
    assert grid[necro] == party + "N"
    assert all(grid[m] == party + "M" for m in militants)


def test_rotational_setup_each_assassin_faces_the_next_camps_reporter() -> None:
    """Register A1, [CH]: the rotational layout."""
    grid = grid_from_placement(Position.initial(Options(setup="rotational")).placement())
    assert (grid["b1"], grid["h1"]) == ("rA", "bR")  # rank 1: Red's assassin, Blue's reporter
    assert (grid["i2"], grid["i8"]) == ("bA", "yR")  # file i
    assert (grid["h9"], grid["b9"]) == ("yA", "gR")  # rank 9
    assert (grid["a8"], grid["a2"]) == ("gA", "rR")  # file a
    assert sum(v is not None for v in grid.values()) == 36


def test_three_player_game_marks_the_hostage_camp() -> None:
    position = Position.initial(hostage=Party.GREEN)
    assert position.fen().split()[4] == "rbyh"
    assert position.playing() == (Party.RED, Party.BLUE, Party.YELLOW)


def test_options_are_written_only_when_not_default() -> None:
    position = Position.initial(Options(own_kill="non_chief", master_moves=True))
    assert position.fen().endswith(" own_kill=non_chief,master_moves=true")
    assert Position.parse(position.fen()).options == position.options


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("9/9/9/9/9/9/9/9 r r - rbyg -", "it needs 9"),
        (INITIAL.replace("/9/9/9/", "/9/8/9/"), "exactly 9 squares"),
        (INITIAL.replace("/9/9/9/", "/9/54/9/"), "one digit"),
        (INITIAL.replace("rCrA", "rCrQ"), "not a kind"),
        (INITIAL.replace("rCrA", "wCrA"), "not a party"),
        (INITIAL.replace(" r r - ", " r r b "), "ruler field"),
        (INITIAL.replace("/9/9/9/", "/9/4rM4/9/"), "only a chief"),
        (INITIAL.replace("rMrMrN3", "rMrMrM3"), "5 militants"),
        (INITIAL.replace(" rbyg ", " rbrg "), "controls its own pieces"),
        (INITIAL.replace(" rbyg -", " rbyg y"), "chief is alive"),
        (INITIAL + " own_kill=maybe", "cannot be 'maybe'"),
        (INITIAL + " colour=blue", "unknown Djambi option"),
        ("hello", "6 or 7 fields"),
    ],
)
def test_bad_position_strings_say_what_is_wrong(text: str, message: str) -> None:
    with pytest.raises(PositionError, match=message):
        Position.parse(text)


def test_move_strings() -> None:
    move = Move.parse("c3-e5>d6@a5")
    assert (square_name(move.origin), square_name(move.target)) == ("c3", "e5")
    assert move.exit == parse_square("d6") and move.place == parse_square("a5")
    assert Move.parse("g1xe1@f2") == Move.parse("g1-e1@f2")
    assert str(Move.parse("b5-d5+e5")) == "b5-d5+e5"
    for bad in ("", "a1", "a1-a0", "a1-b2@", "a1-b2+c3@d4", "j1-a2", "a1 - a2"):
        with pytest.raises(MoveSyntaxError, match="from-to"):
            Move.parse(bad)


squares = st.integers(0, 80)


@given(squares, squares, st.none() | squares, st.none() | squares, st.none() | squares)
def test_move_string_round_trip(a: int, b: int, e: int | None, p: int | None, v: int | None) -> None:
    move = Move(a, b, e, p, v)
    assert Move.parse(str(move)) == move


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """Positions that could arise: legal counts, chiefs of playing camps alive, sane control."""
    statuses = draw(st.lists(st.sampled_from(["playing", "eliminated", "hostage"]), min_size=4, max_size=4))
    if statuses.count("hostage") > 1:
        statuses = [s if s != "hostage" else "eliminated" for s in statuses]
        statuses[draw(st.integers(0, 3))] = "hostage"
    cells = draw(st.permutations(range(81)))
    board: dict[str, str] = {}
    free = [c for c in cells if c != MAZE]
    for party, status in zip(Party, statuses, strict=True):
        for kind, count in STARTING_COUNT.items():
            for _ in range(count):
                must = kind == Kind.CHIEF and status != "eliminated"
                if kind == Kind.CHIEF and status == "eliminated":
                    continue
                if must or draw(st.booleans()):
                    board[square_name(free.pop())] = party.letter + kind.letter
    living = len(board)
    for _ in range(draw(st.integers(0, 36 - living))):
        board[square_name(free.pop())] = "xx"
    maze = draw(st.sampled_from(["empty", "corpse", "chief"]))
    if maze == "corpse" and len(board) < 36:
        board["e5"] = "xx"
    elif maze == "chief":
        chiefs = [sq for sq, token in board.items() if token.endswith("C")]
        if chiefs:
            board["e5"] = board.pop(draw(st.sampled_from(chiefs)))
    playing = [p for p, s in zip(Party, statuses, strict=True) if s == "playing"]
    control = ""
    for party, status in zip(Party, statuses, strict=True):
        if status == "playing":
            control += party.letter
        elif status == "hostage":
            control += "h"
        else:
            control += draw(st.sampled_from([".", *(p.letter for p in playing)]))
    turn = draw(st.sampled_from([p.letter for p in playing])) if playing and draw(st.booleans()) else "-"
    options = {s.name: draw(st.sampled_from(s.choices)) for s in OPTION_SPECS if draw(st.booleans())}
    eliminated = "".join(p.letter for p, s in zip(Party, statuses, strict=True) if s == "eliminated")
    return Position.build(board, turn, draw(st.sampled_from("rbyg")), control, eliminated, options)


@given(positions())
def test_position_string_round_trip(position: Position) -> None:
    text = position.fen()
    assert Position.parse(text) == position
    assert Position.parse(text).fen() == text


@given(
    st.dictionaries(
        st.sampled_from(SQUARE_NAMES), st.sampled_from(["rC", "bM", "yA", "gN", "xx", "rR", "bD"])
    )
)
def test_grid_helpers_round_trip(grid: dict[str, str]) -> None:
    """The board reader's bridge: every square maps to its token or None."""
    placement = placement_from_grid(grid)
    back = grid_from_placement(placement)
    assert len(back) == 81
    assert {k: v for k, v in back.items() if v is not None} == grid
    assert placement_from_grid(back) == placement


def test_grid_helpers_refuse_bad_input() -> None:
    with pytest.raises(ValueError, match="not a square"):
        placement_from_grid({"z9": "rC"})
    with pytest.raises(ValueError, match="not a piece"):
        placement_from_grid({"a1": "red"})


@given(st.text(alphabet="rbygCARDNMx0123456789/ -e5.h=_", max_size=120))
def test_position_parser_fuzz_never_crashes(text: str) -> None:
    """Any input either parses or raises PositionError with a message."""
    try:
        Position.parse(text)
    except PositionError as exc:
        assert str(exc)


@given(st.text(max_size=30))
def test_move_parser_fuzz_never_crashes(text: str) -> None:
    try:
        Move.parse(text)
    except MoveSyntaxError as exc:
        assert "from-to" in str(exc)
