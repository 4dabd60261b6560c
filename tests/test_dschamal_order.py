"""The order of duels: the rulebook's three worked sequences, played through the engine.

Seating clockwise Marc, Anne, Herman, Carl, Werner; "left-hand neighbour" = next clockwise.
"""

from __future__ import annotations

from test_dschamal_support import Table, position, press, win

FIVE = {
    "Marc": ["ball/blue", "ball/yellow", "ball/white", "narrow-roof/blue", "narrow-roof/yellow"],
    "Anne": ["disc/blue", "disc/yellow", "disc/white", "block/blue", "block/yellow"],
    "Herman": ["shape-6/blue", "shape-6/yellow", "shape-6/white", "shape-7/blue", "shape-7/yellow"],
    "Carl": ["shape-8/blue", "shape-8/yellow", "shape-8/white", "shape-9/blue", "shape-9/yellow"],
    "Werner": ["shape-10/blue", "shape-10/yellow", "shape-10/white", "shape-11/blue", "shape-11/yellow"],
}


def play_sequence(table: Table, winners: list[str]) -> list[tuple[str, ...]]:
    """Let `winners` win the duels in turn; return each pairing the referee asked for."""
    pairings = []
    for winner in winners:
        pairings.append(table.state.order.next)
        win(table, winner)
    pairings.append(table.state.order.next)
    return pairings


def test_first_example_anne_remains_lord_then_carl_takes_over() -> None:
    # "Anne wins in succession against Marc (1) and Herman (2) ... Then Anne loses against
    # Carl (3) ... Next Carl wins the duel against his left-hand neighbour Werner (4). His next
    # opponent is Marc."
    table = position("duel", FIVE, next=("Marc", "Anne"))
    pairings = play_sequence(table, ["Anne", "Anne", "Carl", "Carl"])
    assert pairings == [
        ("Marc", "Anne"),
        ("Anne", "Herman"),
        ("Anne", "Carl"),
        ("Carl", "Werner"),
        ("Carl", "Marc"),
    ]
    assert table.state.order.lord == "Carl"
    assert table.summary["lord"] == "Carl"
    assert table.summary["next"] == ["Carl", "Marc"]


def test_second_example_a_complete_round_sits_out_and_werner_becomes_lord() -> None:
    # "Carl has first won his duel against Werner (1), then in succession against Marc (2),
    # Anne (3) and Herman (4). Therefore his left-hand neighbour Werner now becomes the new
    # lord of the stones. He now duels with Marc (5)."
    table = position("duel", FIVE, next=("Marc", "Anne"))
    play_sequence(table, ["Anne", "Anne", "Carl"])
    pairings = play_sequence(table, ["Carl", "Carl", "Carl", "Carl"])
    assert pairings == [
        ("Carl", "Werner"),
        ("Carl", "Marc"),
        ("Carl", "Anne"),
        ("Carl", "Herman"),
        ("Werner", "Marc"),
    ]
    assert table.state.order.lord == "Werner"
    assert table.state.order.sits_out == "Carl"
    assert table.verdicts[-1].rule.id == "dschamal.order.round"


def test_third_example_the_loser_werner_is_skipped() -> None:
    # "After Werner has won his duels in succession against Marc (1), Anne (2) and Herman (3),
    # he loses against his right-hand neighbour Carl (4). ... he should actually duel with his
    # left-hand neighbour Werner (5). Because Werner, however, lost the previous duel, he is
    # skipped and Carl now duels with Marc (6)."
    table = position("duel", FIVE, next=("Marc", "Anne"))
    play_sequence(table, ["Anne", "Anne", "Carl", "Carl", "Carl", "Carl", "Carl"])
    assert table.state.order.next == ("Werner", "Marc")
    pairings = play_sequence(table, ["Werner", "Werner", "Werner", "Carl"])
    assert pairings == [
        ("Werner", "Marc"),
        ("Werner", "Anne"),
        ("Werner", "Herman"),
        ("Werner", "Carl"),
        ("Carl", "Marc"),
    ]
    assert table.verdicts[-1].rule.id == "dschamal.order.loser-skip"
    assert "Werner lost the last duel and is skipped" in table.verdicts[-1].summary


def test_the_first_duel_is_the_shortest_fingers_and_the_left_hand_neighbour() -> None:
    table = Table("duel")
    table.start(
        {
            p: f"{s}/blue"
            for p, s in zip(table.state.players, ("ball", "egg", "disc", "block", "shape-6"), strict=True)
        }
    )
    table.send({"type": "first", "player": "Werner"})
    assert table.state.order.next == ("Werner", "Marc")  # the seating wraps round


def test_the_new_lord_skips_the_previous_loser_after_a_complete_round() -> None:
    # Four players. Marc beats the lord Carl, then Anne and Herman: he has beaten every fellow
    # player in a row (the win that made him lord counts) and sits out. Anne becomes lord; her
    # left-hand neighbour Herman lost the last duel, so she duels Carl.
    players = ("Marc", "Anne", "Herman", "Carl")
    holdings = {p: FIVE[p] for p in players}
    table = position("duel", holdings, next=("Herman", "Carl"), players=players)
    pairings = play_sequence(table, ["Carl", "Marc", "Marc", "Marc"])
    assert pairings == [
        ("Herman", "Carl"),
        ("Carl", "Marc"),
        ("Marc", "Anne"),
        ("Marc", "Herman"),
        ("Anne", "Carl"),
    ]
    assert table.state.order.sits_out == "Marc"
    assert "Marc has beaten every fellow player in a row" in table.verdicts[-1].summary


def test_three_players_always_play_in_turn_and_the_loser_may_duel_next() -> None:
    players = ("Marc", "Anne", "Herman")
    holdings = {p: FIVE[p] for p in players}
    table = position("duel", holdings, next=("Marc", "Anne"), players=players)
    pairings = play_sequence(table, ["Anne", "Herman", "Herman", "Marc"])
    assert pairings == [
        ("Marc", "Anne"),
        ("Anne", "Herman"),
        ("Herman", "Marc"),
        ("Marc", "Anne"),
        ("Anne", "Herman"),
    ]
    assert table.summary["lord"] is None
    assert table.verdicts[-1].rule.id == "dschamal.order.in-turn"


def test_option_in_turn_for_larger_groups() -> None:
    table = position("duel", FIVE, next=("Marc", "Anne"), duel_order="in-turn")
    pairings = play_sequence(table, ["Anne", "Anne", "Herman"])
    assert pairings == [("Marc", "Anne"), ("Anne", "Herman"), ("Herman", "Carl"), ("Carl", "Werner")]


def test_a_repeated_duel_keeps_the_pairing_and_the_lord() -> None:
    table = position("duel", FIVE, next=("Anne", "Herman"), lord="Anne")
    table.send(press(("Anne", "Herman")))
    assert table.state.order.next == ("Anne", "Herman")
    assert table.state.order.lord == "Anne"
    assert table.verdicts[-1].rule.id == "dschamal.duel.tie"
