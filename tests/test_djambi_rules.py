"""Djambi power, turn order, elimination and the end of the game: djambi.md §1.8–§1.10.

The turn-order sequences are the ones [CH]'s PlayOrderTest gives (quoted in §1.8).
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from referee.games.djambi import Board, Move, Party, Position, why_illegal
from referee.games.djambi.pieces import NEUTRAL
from referee.games.djambi.squares import parse_square
from referee.games.djambi.turns import next_turn

R, B, Y, G = Party
CORNERS = {"a1": "rC", "i1": "bC", "i9": "yC", "a9": "gC"}


def board(
    pieces: Mapping[str, str | None],
    turn: str = "r",
    control: str = "rbyg",
    eliminated: str = "",
    **options: object,
) -> Board:
    grid = {k: v for k, v in {**CORNERS, **pieces}.items() if v is not None}
    return Board(Position.build(grid, turn, control=control, eliminated=eliminated, options=options))


def play(b: Board, *moves: str) -> list[Party | None]:
    """Push moves, returning who was to move after each."""
    seen = []
    for text in moves:
        move = Move.parse(text)
        refused = why_illegal(b, move)
        assert refused is None, (text, refused)
        b.push(move)
        seen.append(b.turn)
    return seen


def token(b: Board, square: str) -> str | None:
    piece = b.squares[parse_square(square)]
    return None if piece is None else piece.token


# -- §1.8 turn order --------------------------------------------------------------------------


def sequence(
    mover: Party,
    cursor: Party,
    ruler: Party | None,
    playing: tuple[Party, ...],
    n: int,
    power: str = "double",
) -> list[Party]:
    """The next n players, the ruler staying in power."""
    out = []
    for _ in range(n):
        mover, cursor = next_turn(mover, cursor, ruler, playing, power)
        out.append(mover)
    return out


def test_without_a_ruler_the_cycle_is_red_blue_yellow_green() -> None:
    """§1.2: Red starts, then Blue, Yellow, Green."""
    assert sequence(R, R, None, (R, B, Y, G), 5) == [B, Y, G, R, B]
    assert sequence(R, R, None, (R, Y, G), 4) == [Y, G, R, Y]  # eliminated camps are skipped


def test_ruler_plays_after_every_other_player() -> None:
    """§1.8, [CH]: after t1 takes the throne the order is t2,t1,t3,t1,t4,t1."""
    assert sequence(R, R, R, (R, B, Y, G), 8) == [B, R, Y, R, G, R, B, R]


def test_ruler_losing_power_after_blues_turn_gives_the_turn_to_yellow() -> None:
    """§1.8: if the ruler leaves the maze during the extra turn after Blue, Yellow plays next."""
    assert next_turn(R, B, None, (R, B, Y, G), "double") == (Y, Y)


def test_ruler_killing_a_chief_in_an_extra_turn_does_not_play_again() -> None:
    """§1.8, [CH] testPlayOrderAfterLeaderKillScenario2: t1 kills t4 after t3: t2,t1,t3,t1."""
    assert sequence(R, Y, R, (R, B, Y), 4) == [B, R, Y, R]


def test_two_players_left_the_ruler_plays_twice_after_his_opponent() -> None:
    """§1.8, register A16: [RB] two consecutive moves; [BGA]/[CH]: the opponent first."""
    assert sequence(B, B, B, (B, G), 6) == [G, B, B, G, B, B]
    assert sequence(B, B, B, (B, G), 4, power="none") == [G, B, G, B]


def test_turn_order_on_the_board_when_red_takes_the_maze() -> None:
    """§1.8 played out: Red enters on its own turn; then B, R, Y, R, G, R."""
    b = board({"a1": None, "c3": "rC", "c1": "rM"})
    turns = play(b, "c3-e5", "i1-i2", "c1-c2", "i9-i8", "c2-c1", "a9-a8")
    assert turns == [B, R, Y, R, G, R]
    assert b.cursor == G


def test_power_passes_at_once_when_a_diplomat_installs_a_chief() -> None:
    """§1.8: a chief placed in the maze gives power to his player at once. Blue plays as ruler
    right after Red; when he leaves the maze in that extra turn, the normal order resumes after
    the cursor (Red), so Blue's regular turn follows: Blue plays twice, once as ruler."""
    b = board({"c3": "rD", "i1": None, "c6": "bC"})
    assert play(b, "c3-c6@e5", "e5-e6", "e6-e7") == [B, B, Y]


# -- §1.9 satellites ------------------------------------------------------------------------


def test_killing_a_chief_gives_the_killer_his_pieces_as_satellites() -> None:
    """§1.9: the victim's player is out; the killer takes all his living pieces."""
    b = board({"i1": None, "c5": "bC", "c3": "rM", "g2": "bM"})
    play(b, "c3-c5@c3")
    assert Party.BLUE in b.eliminated and b.control[Party.BLUE] == Party.RED
    assert b.turn == Party.YELLOW  # Blue's slot is gone
    b.turn = Party.RED
    assert any(m.origin == parse_square("g2") for m in b.legal_moves())  # Red moves Blue's militant


def test_satellites_of_the_victim_pass_to_the_killer_too() -> None:
    """§1.9: including any satellites the victim already controlled."""
    b = board({"i1": None, "c5": "bC", "c3": "rM", "i9": "xx", "g8": "yM"}, control="rbbg", eliminated="y")
    play(b, "c3-c5@c3")
    assert b.control == [R, R, R, G]


def test_a_satellite_killer_wins_the_camp_for_its_controller() -> None:
    """§1.9, [CH] Piece::kill: the player who controls the killing piece takes the camp."""
    b = board({"i1": None, "c5": "bC", "c3": "yM", "i9": "xx"}, control="rbrg", eliminated="y")
    play(b, "c3-c5@c3")
    assert b.control[Party.BLUE] == Party.RED


# -- §1.9 encirclement ------------------------------------------------------------------------


def _blue_corner(
    extra: Mapping[str, str | None] | None = None,
    control: str = "rbyg",
    eliminated: str = "",
    **options: object,
) -> Board:
    """Blue's chief in i1 with corpses on h1 and h2; a Red necromobile will close the ring on i2
    by moving the corpse on c5 there. Blue has no necromobile."""
    pieces = {**CORNERS, "h1": "xx", "h2": "xx", "c3": "rN", "c5": "xx", **(extra or {})}
    grid = {k: v for k, v in pieces.items() if v is not None}
    return Board(Position.build(grid, "r", control=control, eliminated=eliminated, options=options))


def test_an_encircled_chief_dies_and_his_pieces_turn_neutral() -> None:
    """§1.9: fully encircled by corpses, no necromobile: he perishes; register A14, A15."""
    b = _blue_corner({"e2": "bM"})
    outcome = b.push(Move.parse("c3-c5@i2"))
    assert (Party.BLUE, "encircled", None) in outcome.eliminated
    assert token(b, "i1") == "xx" and b.control[Party.BLUE] == NEUTRAL
    b.turn = Party.YELLOW
    refused = why_illegal(b, Move.parse("e2-e3"))
    assert refused is not None and "encircled camp" in refused.message
    b2 = _blue_corner({"e2": "bM", "e4": "rM"})
    b2.push(Move.parse("c3-c5@i2"))
    b2.turn = Party.RED
    refused = why_illegal(b2, Move.parse("e4-e2@a5"))
    assert refused is not None and "neutral" in refused.message and refused.rule.id == "djambi.neutral"


def test_neutral_pieces_may_be_killed_under_the_jf_reading() -> None:
    """Register A15 ([JF]): abandoned pieces can be killed like any other."""
    b = _blue_corner({"e2": "bM", "e4": "rM"}, neutral="killable")
    b.push(Move.parse("c3-c5@i2"))
    b.turn = Party.RED
    assert why_illegal(b, Move.parse("e4-e2@a5")) is None


def test_a_necromobile_saves_the_encircled_chief() -> None:
    """§1.9, register A13: the default counts any necromobile the player controls."""
    b = _blue_corner({"e2": "bN"})
    outcome = b.push(Move.parse("c3-c5@i2"))
    assert outcome.eliminated == [] and token(b, "i1") == "bC"
    b = _blue_corner({"e2": "bN"}, necromobile_saves="none")
    assert b.push(Move.parse("c3-c5@i2")).eliminated


def test_which_necromobile_saves_own_or_controlled() -> None:
    """Register A13: a satellite necromobile saves under 'controlled', not under 'own'."""
    extra = {"i9": "xx", "g8": "yN"}
    saved = _blue_corner(extra, control="rbbg", eliminated="y")
    assert saved.push(Move.parse("c3-c5@i2")).eliminated == []
    lost = _blue_corner(extra, control="rbbg", eliminated="y", necromobile_saves="own")
    assert [e[0] for e in lost.push(Move.parse("c3-c5@i2")).eliminated] == [Party.BLUE]


def test_group_geometry_floods_through_own_pieces() -> None:
    """Register A12 default: the chief's group is walled by corpses; a living enemy breaks it."""
    ring = {"h1": "bM", "g1": "xx", "g2": "xx", "h2": "xx", "i3": "xx", "h3": "xx", "c5": "xx", "c3": "rN"}
    walled = board(ring)
    assert [e[0] for e in walled.push(Move.parse("c3-c5@i2")).eliminated] == [Party.BLUE]
    open_ring = board({**ring, "g1": None})  # the militant on h1 has an empty neighbour
    assert open_ring.push(Move.parse("c3-c5@i2")).eliminated == []
    touching = board({**ring, "g1": "rM"})  # a Red militant the group could fight
    assert touching.push(Move.parse("c3-c5@i2")).eliminated == []


def test_literal8_geometry_needs_eight_dead_neighbours() -> None:
    """Register A12 ([CV-AF]): 'all neighbors dead'; a living neighbour saves."""
    with_militant = board(
        {"h1": "bM", "h2": "xx", "c3": "rN", "c5": "xx", "g1": "xx", "g2": "xx", "h3": "xx", "i3": "xx"},
        encircle="literal8",
    )
    assert with_militant.push(Move.parse("c3-c5@i2")).eliminated == []
    assert _blue_corner(encircle="literal8").push(Move.parse("c3-c5@i2")).eliminated


def test_throne_access_and_flood_geometries() -> None:
    """Register A12 ([CH]): throne_access passes living pieces; flood needs an empty square."""
    # Blue's corner {i1, h1} is cut off by corpses on g1, g2, h2, i2 (the last one laid now).
    cut = {"g1": "xx", "g2": "xx", "h2": "xx", "c5": "xx", "c3": "rN"}
    enemy_inside = {**cut, "h1": "rM"}
    assert board(enemy_inside, encircle="throne_access").push(Move.parse("c3-c5@i2")).eliminated
    assert board(enemy_inside, encircle="flood").push(Move.parse("c3-c5@i2")).eliminated
    assert board(enemy_inside).push(Move.parse("c3-c5@i2")).eliminated == []  # group: Red's militant
    empty_inside = cut
    assert board(empty_inside, encircle="throne_access").push(Move.parse("c3-c5@i2")).eliminated
    assert board(empty_inside, encircle="flood").push(Move.parse("c3-c5@i2")).eliminated == []


def test_a_chief_in_the_maze_is_never_encircled() -> None:
    """§1.5: encirclement has no effect on a chief in the maze."""
    ring = {sq: "xx" for sq in ("d4", "d5", "d6", "e4", "e6", "f4", "f5")}
    b = board({**ring, "i1": None, "e5": "bC", "c3": "rN", "c5": "xx"})
    assert b.push(Move.parse("c3-c5@f6")).eliminated == []


def test_a_player_can_encircle_himself() -> None:
    """§1.9: the check is made for every chief, the mover's own included."""
    b = board({"a2": "xx", "b2": "xx", "c3": "rN", "c5": "xx"})
    outcome = b.push(Move.parse("c3-c5@b1"))  # Red walls in its own chief, then... its necromobile saves him
    assert outcome.eliminated == []
    b = board({"a2": "xx", "b2": "xx", "c3": "rN", "c5": "xx"}, necromobile_saves="none")
    outcome = b.push(Move.parse("c3-c5@b1"))
    assert [e[0] for e in outcome.eliminated] == [Party.RED] and b.turn == Party.BLUE


def test_the_ruler_takes_the_neutral_pieces() -> None:
    """§1.9: the first chief to occupy the maze takes the encircled camp's living pieces."""
    b = _blue_corner({"e2": "bM", "a1": None, "c1": "rC"})
    b.push(Move.parse("c3-c5@i2"))
    assert b.control[Party.BLUE] == NEUTRAL
    b.turn = Party.RED
    outcome = b.push(Move.parse("c1-e3"))
    assert outcome.claimed == []
    b.turn = Party.RED
    outcome = b.push(Move.parse("e3-e5"))
    assert outcome.claimed == [(Party.BLUE, Party.RED)] and b.control[Party.BLUE] == Party.RED


def test_encircled_chief_may_stay_inactive() -> None:
    """Register A14 ([CH]): the chief stays, alive but out of the game, and never moves."""
    b = _blue_corner(encircled_chief="inactive")
    b.push(Move.parse("c3-c5@i2"))
    assert token(b, "i1") == "bC" and Party.BLUE in b.eliminated
    assert Position.parse(b.fen()) == b.position()


# -- register A18: no legal move --------------------------------------------------------------

# Green's chief in a9 walled in by his own militants, which are walled in by corpses; under
# literal8 he is not encircled (living neighbours), yet Green has no legal move.
GREEN_BOXED = {"a8": "gM", "b8": "gM", "b9": "gM", "a7": "xx", "b7": "xx", "c7": "xx", "c8": "xx", "c9": "xx"}


def test_a_player_with_no_legal_move_is_skipped() -> None:
    b = board({**GREEN_BOXED, "e5": None}, turn="y", encircle="literal8")
    outcome = b.push(Move.parse("i9-i8"))
    assert outcome.skipped == [Party.GREEN] and b.turn == Party.RED


def test_a_player_with_no_legal_move_is_eliminated_under_the_jf_option() -> None:
    b = board(GREEN_BOXED, turn="y", encircle="literal8", no_move="eliminate")
    outcome = b.push(Move.parse("i9-i8"))
    assert (Party.GREEN, "no_move", None) in outcome.eliminated
    assert token(b, "a9") == "xx" and b.control[Party.GREEN] == NEUTRAL and b.turn == Party.RED


def test_when_nobody_can_move_the_game_ends_without_a_winner() -> None:
    """Red's assassin kills in the corner a1 and is walled in by its victim's corpse; Red's chief
    in i1 is boxed by his militants; Green is boxed too: nobody can ever move again."""
    red_box = {"h1": "rM", "h2": "rM", "i2": "rM", "g1": "xx", "g2": "xx", "g3": "xx", "h3": "xx", "i3": "xx"}
    pieces = {
        **GREEN_BOXED,
        **red_box,
        "a1": "gM",
        "a2": "xx",
        "b1": "xx",
        "b2": "rA",
        "i1": "rC",
        "a9": "gC",
    }
    b = Board(
        Position.build(
            {k: v for k, v in pieces.items() if v},
            "r",
            control="r..g",
            eliminated="by",
            options={"encircle": "literal8"},
        )
    )
    outcome = b.push(Move.parse("b2-a1"))
    assert outcome.blocked and b.turn is None and b.winner() is None


# -- §1.10 end of the game --------------------------------------------------------------------


def test_the_last_chief_alive_wins() -> None:
    b = Board(
        Position.build(
            {"a1": "rC", "c5": "bC", "c3": "rM", "i9": "xx", "a9": "xx"}, "r", control="rbrr", eliminated="yg"
        )
    )
    b.push(Move.parse("c3-c5@c3"))
    assert b.turn is None and b.winner() == Party.RED


# -- §1.10 three players: the hostage camp ----------------------------------------------------


def hostage_board(pieces: Mapping[str, str | None], turn: str = "r") -> Board:
    grid = {k: v for k, v in {**CORNERS, **pieces}.items() if v is not None}
    return Board(Position.build(grid, turn, control="rbyh"))


def test_three_players_take_turns_and_the_hostage_never_moves() -> None:
    b = Board(Position.initial(hostage=Party.GREEN))
    assert play(b, "c2-e4", "g2-f3", "g8-f7") == [B, Y, R]
    refused = why_illegal(hostage_board({"c7": "gN"}), Move.parse("c7-c6"))
    assert refused is not None and "hostage" in refused.message


def test_everyone_may_kill_or_manipulate_hostages() -> None:
    b = hostage_board({"c3": "rM", "c5": "gM", "e3": "rD", "e6": "gR"})
    assert why_illegal(b, Move.parse("c3-c5@c3")) is None
    assert why_illegal(b, Move.parse("e3-e6@h5")) is None


def test_a_hostage_chief_in_the_maze_only_blocks_the_seat() -> None:
    """§1.10: 'appearance of power'."""
    b = hostage_board({"c3": "rD", "a9": None, "c6": "gC"})
    b.push(Move.parse("c3-c6@e5"))
    assert b.ruler() is None and b.turn == Party.BLUE
    b.turn = Party.RED
    assert why_illegal(b, Move.parse("c6-c7")) is None  # the diplomat is free, nobody rules


def test_killing_the_hostage_chief_eliminates_nobody() -> None:
    b = hostage_board({"c3": "rM", "a9": None, "c5": "gC"})
    outcome = b.push(Move.parse("c3-c5@c3"))
    assert outcome.eliminated == [] and b.playing() == (R, B, Y)


@pytest.mark.parametrize("geometry", ["group", "literal8", "throne_access", "flood"])
def test_the_hostage_chief_is_never_encircled(geometry: str) -> None:
    grid = {**CORNERS, "a8": "xx", "b8": "xx", "c3": "rN", "c5": "xx"}
    b = Board(Position.build(grid, "r", control="rbyh", options={"encircle": geometry}))
    assert b.push(Move.parse("c3-c5@b9")).eliminated == []


def test_push_pop_copy_and_the_move_stack() -> None:
    """The python-chess shape: a board you can push and pop."""
    b = Board()
    b.push(Move.parse("c2-e4"))
    b.push(Move.parse("g1-e1"))
    assert [str(m) for m in b.move_stack] == ["c2-e4", "g1-e1"]
    other = b.copy()
    assert other.fen() == b.fen() and other.move_stack == []
    assert str(b.pop()) == "g1-e1" and str(b.pop()) == "c2-e4"
    assert b.position() == Position.initial()
