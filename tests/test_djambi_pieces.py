"""Djambi, piece by piece: djambi.md §1.4 (movement), §1.5 (the maze), §1.6 (the pieces), §1.7.

Positions are built with every camp's chief in its corner unless a test moves it.
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from referee.games.djambi import Board, Move, Party, Position, why_illegal
from referee.games.djambi.squares import MAZE, parse_square, square_name

CORNERS = {"a1": "rC", "i1": "bC", "i9": "yC", "a9": "gC"}


def board(pieces: Mapping[str, str | None], turn: str = "r", **options: object) -> Board:
    grid = {**CORNERS, **pieces}
    return Board(Position.build({k: v for k, v in grid.items() if v is not None}, turn, options=options))


def moves_from(b: Board, origin: str) -> set[str]:
    return {str(m) for m in b.legal_moves() if square_name(m.origin) == origin}


def refusal(b: Board, move: str) -> str:
    found = why_illegal(b, Move.parse(move))
    assert found is not None, f"{move} should be illegal"
    return found.message


def legal(b: Board, move: str) -> bool:
    found = why_illegal(b, Move.parse(move))
    generated = Move.parse(move) in b.legal_moves()
    assert (found is None) == generated, (move, found)
    return generated


def empty_squares(b: Board) -> set[str]:
    return {square_name(s) for s, p in enumerate(b.squares) if p is None and s != MAZE}


def token(b: Board, square: str) -> str | None:
    piece = b.squares[parse_square(square)]
    return None if piece is None else piece.token


# -- §1.3 / §1.4: the first move ------------------------------------------------------------


def test_red_has_30_first_moves_counted_by_hand() -> None:
    """§1.3: only the 4 militants and the necromobile can move at first.

    Militants (1–2 squares, never through own pieces): c1 4 (d1 e1 d2 e3), c2 5 (d1 d2 e2 d3
    e4), a3 4 (a4 a5 b4 c5), b3 5 (a4 b4 b5 c4 d5). Necromobile c3: c4 c5 c6, d3 e3 f3, d2 e1,
    b4 a5, d4 and f6 across the empty maze, where it may not stop: 12. In all 18 + 12 = 30.
    """
    b = Board()
    moves = {str(m) for m in b.legal_moves()}
    assert len(moves) == 30
    assert moves_from(b, "c1") == {"c1-d1", "c1-e1", "c1-d2", "c1-e3"}
    assert moves_from(b, "c2") == {"c2-d1", "c2-d2", "c2-e2", "c2-d3", "c2-e4"}
    assert moves_from(b, "a3") == {"a3-a4", "a3-a5", "a3-b4", "a3-c5"}
    assert moves_from(b, "b3") == {"b3-a4", "b3-b4", "b3-b5", "b3-c4", "b3-d5"}
    assert moves_from(b, "c3") == {
        "c3-c4", "c3-c5", "c3-c6", "c3-d3", "c3-e3", "c3-f3", "c3-d2", "c3-e1", "c3-b4", "c3-a5", "c3-d4", "c3-f6",
    }  # fmt: skip
    for boxed in ("a1", "b1", "a2", "b2"):  # chief, assassin, reporter, diplomat
        assert moves_from(b, boxed) == set()


def test_only_the_player_to_move_moves_his_pieces() -> None:
    """§1.4: only pieces the player controls can move."""
    assert "not Red's to move" in refusal(Board(), "g1-f1")
    assert "no piece on d4" in refusal(Board(), "d4-d5")


def test_pieces_move_in_straight_lines_and_never_jump() -> None:
    """§1.4: queen moves; any living or dead piece is an impassable obstacle."""
    b = board({"c3": "rA", "c5": "xx"})
    assert legal(b, "c3-c4") and not legal(b, "c3-c6")
    assert "blocked by a dead piece on c5" in refusal(b, "c3-c6")
    assert "straight line" in refusal(b, "c3-d5")
    assert "must move" in refusal(b, "c3-c3")


def test_dead_pieces_never_move() -> None:
    """§1.7: a corpse is an obstacle; only a necromobile moves one, by moving onto it."""
    assert "dead" in refusal(board({"c3": "xx"}), "c3-c4")


# -- Militant -------------------------------------------------------------------------------


def test_militant_moves_one_or_two_squares_in_eight_directions() -> None:
    """§1.6 Militant. From c3: 2 per direction, except NE (e5 is the maze: d4 only) and SW
    (a1 holds Red's chief: b2 only)."""
    b = board({"c3": "rM"})
    assert moves_from(b, "c3") == {
        "c3-c4", "c3-c5", "c3-c2", "c3-c1", "c3-d3", "c3-e3", "c3-b3", "c3-a3",
        "c3-d4", "c3-d2", "c3-e1", "c3-b2", "c3-b4", "c3-a5",
    }  # fmt: skip
    assert "only 1 or 2 squares" in refusal(b, "c3-c6")


def test_militant_crosses_the_empty_maze_but_may_not_stop_there() -> None:
    """§1.5: every piece, militants included, may cross the empty maze without stopping."""
    b = board({"d4": "rM"})
    assert legal(b, "d4-f6")
    assert "only a chief may stop in the maze" in refusal(b, "d4-e5")
    blocked = board({"d4": "rM", "e5": "xx"})
    assert "blocked by a dead piece on e5" in refusal(blocked, "d4-f6")


def test_militant_kills_by_replacement_and_places_the_corpse() -> None:
    """§1.6 Militant / §1.7: any free square but the maze; the vacated square counts as free."""
    b = board({"c3": "rM", "c5": "bM"})
    places = {m.split("@")[1] for m in moves_from(b, "c3") if m.startswith("c3-c5")}
    assert places == empty_squares(b) | {"c3"}
    assert "no dead piece may be placed in the maze" in refusal(b, "c3-c5@e5")
    assert "write where the dead piece is placed" in refusal(b, "c3-c5")
    assert "not free" in refusal(b, "c3-c5@i1")
    outcome = b.push(Move.parse("c3-c5@c3"))
    assert token(b, "c5") == "rM" and token(b, "c3") == "xx"
    assert [(v.token, square_name(on)) for v, on, _ in outcome.kills] == [("bM", "c5")]


def test_militant_may_not_kill_the_chief_in_power() -> None:
    """§1.5, §1.6 Militant, register A17."""
    b = board({"i1": None, "e5": "bC", "d4": "rM"})
    assert not any(m.startswith("d4-e5") for m in moves_from(b, "d4"))
    assert refusal(b, "d4-e5@a5") == "the militant may not kill the chief in power"


def test_militant_kills_the_ruler_under_the_house_rule() -> None:
    """Register A17 ([SdH]): enter, kill, leave 1–2 squares, place the corpse."""
    b = board({"i1": None, "e5": "bC", "d4": "rM"}, militant_kills_ruler=True)
    assert legal(b, "d4-e5>f6@a5")
    assert "only 1 or 2 squares" in refusal(b, "d4-e5>h8@a5")
    b.push(Move.parse("d4-e5>f6@a5"))
    assert token(b, "a5") == "xx" and token(b, "e5") is None and Party.BLUE in b.eliminated


# -- Chief ----------------------------------------------------------------------------------


def test_chief_may_stop_in_the_maze_and_takes_power() -> None:
    """§1.5: only a chief may stop in the maze; a chief in the maze is in power."""
    b = board({"a1": None, "c3": "rC"})
    assert legal(b, "c3-e5")
    outcome = b.push(Move.parse("c3-e5"))
    assert b.ruler() == Party.RED and outcome.ruler_after == Party.RED


def test_chief_kills_the_ruler_and_takes_the_seat() -> None:
    """§1.6 Chief: killing a chief in the maze puts the killer in the maze and in power."""
    b = board({"a1": None, "c3": "rC", "i1": None, "e5": "bC"})
    assert legal(b, "c3-e5@c3")  # the vacated square is free for the corpse
    b.push(Move.parse("c3-e5@c3"))
    assert b.ruler() == Party.RED and token(b, "c3") == "xx"
    assert Party.BLUE in b.eliminated


def test_a_ruler_leaving_the_maze_to_kill_may_not_lay_the_corpse_in_it() -> None:
    """§1.6 Chief: any free square except the maze, even when the chief came from it."""
    b = board({"a1": None, "e5": "rC", "e7": "bM"})
    assert "no dead piece may be placed in the maze" in refusal(b, "e5-e7@e5")
    assert legal(b, "e5-e7@e6")
    b.push(Move.parse("e5-e7@e6"))
    assert b.ruler() is None


# -- Assassin -------------------------------------------------------------------------------


def test_assassin_kills_and_the_corpse_lies_on_its_departure_square() -> None:
    """§1.6 Assassin: no choice of placement."""
    b = board({"c3": "rA", "c6": "bM"})
    assert legal(b, "c3-c6")
    assert "write no placement" in refusal(b, "c3-c6@d4")
    b.push(Move.parse("c3-c6"))
    assert token(b, "c3") == "xx" and token(b, "c6") == "rA"


@pytest.mark.parametrize(
    ("own_kill", "militant_ok", "chief_ok"),
    [("none", False, False), ("non_chief", True, False), ("all", True, True)],
)
def test_killing_own_pieces_follows_the_option(own_kill: str, militant_ok: bool, chief_ok: bool) -> None:
    """Register A2: by default nobody kills the pieces he controls."""
    b = board({"c3": "rA", "c6": "rM", "a1": None, "f3": "rC"}, own_kill=own_kill)
    assert legal(b, "c3-c6") is militant_ok
    assert legal(b, "c3-f3") is chief_ok
    if not chief_ok:
        assert refusal(b, "c3-f3") == "no player may kill his own chief"
    if not militant_ok:
        assert "one of your own pieces" in refusal(b, "c3-c6")
    if chief_ok:
        b.push(Move.parse("c3-f3"))
        assert Party.RED in b.eliminated and b.control[Party.RED] == -1  # neutral


def test_assassin_enters_the_maze_kills_the_ruler_and_leaves() -> None:
    """§1.5 / §1.6 Assassin: action, exit, corpse on the departure square; register A6."""
    b = board({"i1": None, "e5": "bC", "c3": "rA"})
    exits = {m.split(">")[1] for m in moves_from(b, "c3") if ">" in m}
    # The exit may pass through c3 (now empty) to b2, but not end on c3, kept for the corpse.
    assert "b2" in exits and "c3" not in exits and "d4" in exits
    assert "must leave it at once" in refusal(b, "c3-e5")
    assert "its victim's corpse goes there" in refusal(b, "c3-e5>c3")
    b.push(Move.parse("c3-e5>b2"))
    assert token(b, "c3") == "xx" and token(b, "b2") == "rA" and token(b, "e5") is None
    assert Party.BLUE in b.eliminated and b.ruler() is None


def test_placing_before_leaving_blocks_the_assassins_way_back() -> None:
    """Register A5/A6, option maze_order=place_then_exit ([CH]): the corpse is on c3 already."""
    b = board({"i1": None, "e5": "bC", "c3": "rA"}, maze_order="place_then_exit")
    assert legal(b, "c3-e5>d4")
    assert "blocked by a dead piece on c3" in refusal(b, "c3-e5>b2")


def test_entering_the_maze_is_illegal_when_no_exit_remains() -> None:
    """Register A7: the whole sequence must be possible. The only way out, d4 and beyond, ends
    on the assassin's own square or runs into c3."""
    crowd: dict[str, str | None] = {sq: "yM" for sq in ("d5", "d6", "e6", "f6")}
    crowd.update({sq: "gM" for sq in ("f5", "f4", "e4")})
    crowd.update({"c3": "xx", "i1": None, "e5": "bC", "d4": "rA"})
    b = board(crowd)
    assert not any(m.startswith("d4-e5") for m in moves_from(b, "d4"))
    assert "its victim's corpse goes there" in refusal(b, "d4-e5>d4")
    assert "blocked by a dead piece on c3" in refusal(b, "d4-e5>b2")
    assert "may not kill or relocate" in refusal(b, "d4-e5>d5")


def test_master_move_of_the_assassin() -> None:
    """Register A8 ([BGA], [CH] 'extended'): the exit kills a second chief, whose corpse goes
    into the maze."""
    pieces = {"i1": None, "e5": "bC", "c3": "rA", "i9": None, "e8": "yC"}
    assert "may not kill or relocate" in refusal(board(pieces), "c3-e5>e8")
    b = board(pieces, master_moves=True)
    assert legal(b, "c3-e5>e8")
    b.push(Move.parse("c3-e5>e8"))
    assert token(b, "e5") == "xx" and token(b, "c3") == "xx" and token(b, "e8") == "rA"
    assert {Party.BLUE, Party.YELLOW} <= b.eliminated


# -- Reporter -------------------------------------------------------------------------------


def test_reporter_moves_only_to_empty_squares() -> None:
    """§1.6 Reporter: it never takes a piece's place."""
    b = board({"c3": "rR", "c6": "bM"})
    assert "only to empty squares" in refusal(b, "c3-c6")


def test_reporter_kills_one_orthogonal_neighbour_after_moving() -> None:
    """§1.6 Reporter: one enemy on a square sharing a side; the corpse stays there; optional."""
    b = board({"c3": "rR", "d5": "bM", "d6": "bM"})
    assert {m for m in moves_from(b, "c3") if m.startswith("c3-c5")} == {"c3-c5", "c3-c5+d5"}
    assert "four squares sharing a side" in refusal(b, "c3-c5+d6")
    assert "nobody on b5" in refusal(b, "c3-c5+b5")
    b.push(Move.parse("c3-c5+d5"))
    assert token(b, "d5") == "xx" and token(b, "d6") == "bM"


def test_reporter_kill_mandatory_option() -> None:
    """Register A3: [CH], [JF], [MA] make the kill mandatory."""
    b = board({"c3": "rR", "d5": "bM"}, reporter_kill="mandatory")
    assert "must kill" in refusal(b, "c3-c5")
    assert legal(b, "c3-c5+d5") and legal(b, "c3-c4")  # no victim next to c4: a plain move


def test_reporter_kills_every_neighbour_under_fox_news() -> None:
    """Register A4 ([CV], [CH] 'Fox News'): all orthogonal neighbours die, own ones included."""
    b = board({"c3": "rR", "d5": "bM", "b5": "rM", "c6": "yM"}, reporter_victims="all")
    assert legal(b, "c3-c5")
    assert "write no victim" in refusal(b, "c3-c5+d5")
    outcome = b.push(Move.parse("c3-c5"))
    assert {square_name(on) for _, on, _ in outcome.kills} == {"d5", "b5", "c6"}


def test_reporter_kills_the_ruler_from_an_adjacent_square_and_the_corpse_stays() -> None:
    """§1.6 Reporter, §1.5: it never enters the maze; the dead chief blocks the seat."""
    b = board({"i1": None, "e5": "bC", "a5": "rR"})
    assert "never enters the maze" in refusal(b, "a5-e5")
    assert legal(b, "a5-d5+e5")
    b.push(Move.parse("a5-d5+e5"))
    assert token(b, "e5") == "xx" and b.ruler() is None and Party.BLUE in b.eliminated
    assert b.control[Party.BLUE] == Party.RED  # satellites (§1.9)


def test_reporter_dropped_by_a_diplomat_kills_nobody() -> None:
    """§1.6 Reporter: it can kill only at the end of its own move."""
    b = board({"c3": "rD", "c6": "bR", "e2": "rM"})
    outcome = b.push(Move.parse("c3-c6@e3"))  # Blue's reporter lands next to Red's militant
    assert outcome.kills == [] and token(b, "e2") == "rM" and token(b, "e3") == "bR"


# -- Diplomat -------------------------------------------------------------------------------


def test_diplomat_moves_a_living_enemy_to_any_free_square() -> None:
    """§1.6 Diplomat: the vacated square is allowed; the maze only for a chief."""
    b = board({"c3": "rD", "c6": "bM"})
    places = {m.split("@")[1] for m in moves_from(b, "c3") if m.startswith("c3-c6")}
    assert places == empty_squares(b) | {"c3"}
    assert refusal(b, "c3-c6@e5") == "only a chief may be placed in the maze"
    b.push(Move.parse("c3-c6@c3"))
    assert token(b, "c3") == "bM" and token(b, "c6") == "rD"


def test_diplomat_never_manipulates_its_own_camp_or_corpses() -> None:
    """§1.6 Diplomat: not its own parties' pieces; [DN], [CH]: not corpses."""
    b = board({"c3": "rD", "c6": "rM", "e3": "xx"})
    assert "its own camp" in refusal(b, "c3-c6@a5")
    assert "only the necromobile" in refusal(b, "c3-e3@a5")


def test_diplomat_places_a_chief_in_the_maze_and_his_party_takes_power_at_once() -> None:
    """Register A9; §1.8: the placed chief's player plays next, as the ruler."""
    b = board({"c3": "rD", "i1": None, "c6": "bC"})
    assert legal(b, "c3-c6@e5")
    b.push(Move.parse("c3-c6@e5"))
    assert b.ruler() == Party.BLUE and b.turn == Party.BLUE
    off = board({"c3": "rD", "i1": None, "c6": "bC"}, chief_to_maze=False)
    assert "chief_to_maze=false" in refusal(off, "c3-c6@e5")


def test_diplomat_evicts_the_ruler_and_puts_him_back_on_the_field() -> None:
    """§1.5, register A10: enter, leave, place the chief anywhere but the maze."""
    pieces = {"c3": "rD", "i1": None, "e5": "bC"}
    b = board(pieces)
    assert legal(b, "c3-e5>d6@a5") and legal(b, "c3-e5>c3@d4")  # it may leave back to c3
    assert "not into the maze" in refusal(b, "c3-e5>d6@e5")
    assert "must leave it at once" in refusal(b, "c3-e5@a5")
    assert "not free" in refusal(b, "c3-e5>d6@d6")
    b.push(Move.parse("c3-e5>d6@a5"))
    assert token(b, "a5") == "bC" and token(b, "d6") == "rD" and b.ruler() is None
    assert legal(board(pieces, chief_back_to_maze=True), "c3-e5>d6@e5")


def test_placing_first_blocks_the_diplomats_exit() -> None:
    """Register A5 ([CH]): with place_then_exit the placed chief stands in the exit's way."""
    b = board({"c3": "rD", "i1": None, "e5": "bC"}, maze_order="place_then_exit")
    assert legal(b, "c3-e5>e7@e8")
    assert "blocked by Blue's chief on e6" in refusal(b, "c3-e5>e7@e6")


def test_master_move_of_the_diplomat() -> None:
    """Register A8: the exit installs a second chief in the maze."""
    pieces = {"c3": "rD", "i1": None, "e5": "bC", "i9": None, "e8": "yC"}
    b = board(pieces, master_moves=True)
    assert legal(b, "c3-e5>e8@a5")
    b.push(Move.parse("c3-e5>e8@a5"))
    assert token(b, "e5") == "yC" and b.ruler() == Party.YELLOW and token(b, "a5") == "bC"


def test_diplomat_and_satellites() -> None:
    """Register A11: by default the diplomat leaves its player's satellites alone."""
    pieces = {"c3": "rD", "c6": "yM", "i9": None}
    b = Board(Position.build({**CORNERS, **pieces, "i9": "xx"}, "r", control="rbrg", eliminated="y"))
    assert "your satellite" in refusal(b, "c3-c6@a5")
    b2 = Board(
        Position.build(
            {**CORNERS, **pieces, "i9": "xx"},
            "r",
            control="rbrg",
            eliminated="y",
            options={"diplomat_satellites": True},
        )
    )
    assert legal(b2, "c3-c6@a5")


# -- Necromobile ----------------------------------------------------------------------------


def test_necromobile_relocates_corpses_only() -> None:
    """§1.6 Necromobile: any free square except the maze; the vacated square is free."""
    b = board({"c3": "rN", "c5": "xx", "e3": "bM"})
    assert legal(b, "c3-c5@c3")
    assert "no dead piece may be placed in the maze" in refusal(b, "c3-c5@e5")
    assert "acts only on dead pieces" in refusal(b, "c3-e3@a5")
    b.push(Move.parse("c3-c5@h5"))
    assert token(b, "c5") == "rN" and token(b, "h5") == "xx" and token(b, "c3") is None


def test_necromobile_clears_a_corpse_from_the_maze() -> None:
    """§1.6 Necromobile, §1.5: enter, leave, put the corpse on the field."""
    b = board({"c3": "rN", "e5": "xx"})
    assert legal(b, "c3-e5>f6@a5")
    assert "only a necromobile may enter" in refusal(board({"c3": "rA", "e5": "xx"}), "c3-e5>f6")
    b.push(Move.parse("c3-e5>f6@a5"))
    assert token(b, "e5") is None and token(b, "a5") == "xx" and token(b, "f6") == "rN"
