"""The Dschamál Tower: keep or give, black stones, the camel, two stones, collapses, the end and points."""

from __future__ import annotations

from typing import Any

import pytest
from test_dschamal_support import Table, position, press

from referee.games.base import EventError, RuleViolation
from referee.games.dschamal.tower import victory_points

PLAYERS = ("Marc", "Anne", "Herman", "Werner")


def tower(
    holdings: dict[str, list[str]], next: tuple[str, str], black: dict[str, int] | None = None, **options: Any
) -> Table:
    return position("tower", holdings, next=next, players=PLAYERS, black=black, **options)


def test_the_four_eggs_are_sorted_out_and_everything_else_is_in_the_bag() -> None:
    table = Table("tower", PLAYERS)
    summary = table.summary
    assert summary["out_of_game"] == ["egg/blue", "egg/yellow", "egg/white", "egg/brown"]
    assert summary["bag"] == {"count": 55, "coloured": 44, "black": 10, "camel": True}
    assert summary["awaiting"]["kind"] == "first"  # no starting stones in the Tower
    table.send({"type": "first", "player": "Anne"})
    assert table.request().seats == ("Anne", "Herman")
    table.send(press("Anne", "Herman"))
    with pytest.raises(RuleViolation, match="out of the game"):
        table.draw("Anne", "egg/blue")


def test_keep_a_shape_nobody_owns_and_build_it_in() -> None:
    table = tower({"Marc": ["disc/blue"]}, next=("Anne", "Herman"))
    table.duel("Anne", "ball/white")
    assert table.state.stones_of("Anne") == ("ball/white",)
    assert "dschamal.tower.keep" in table.rules()
    assert table.state.order.lord == "Anne"


def test_werner_has_a_ball_and_gives_it_to_anne() -> None:
    # "Werner was faster than Marc. He has drawn a ball and in his tower there is already a
    # ball. He gives the ball to Anne and she must immediately build this ball into her tower."
    table = tower({"Werner": ["ball/blue"], "Anne": ["disc/blue"]}, next=("Werner", "Marc"))
    table.duel("Werner", "ball/yellow")
    [give] = [a for a in table.fold.engine.actions(table.state) if a.type == "give"]
    assert give.fields[0].choices == ("Marc", "Anne", "Herman")
    with pytest.raises(RuleViolation, match="fellow player"):
        table.send({"type": "give", "player": "Werner", "to": "Werner"})
    table.send({"type": "give", "player": "Werner", "to": "Anne"})
    assert table.state.stones_of("Anne") == ("disc/blue", "ball/yellow")  # built on top
    assert table.state.order.lord == "Werner"  # the first to draw wins the duel


def test_another_player_owns_the_shape_default_give() -> None:
    table = tower({"Herman": ["ball/blue"]}, next=("Werner", "Marc"))
    table.duel("Werner", "ball/yellow")
    assert table.state.tasks[0].kind == "give"
    assert "dschamal.tower.owned-elsewhere" in table.rules()


def test_another_player_owns_the_shape_option_back_to_the_bag() -> None:
    table = tower({"Herman": ["ball/blue"]}, next=("Werner", "Marc"), tower_owned_elsewhere="bag")
    table.duel("Werner", "ball/yellow")
    assert not table.state.tasks and "ball/yellow" in table.state.bag


def test_black_stones_keep_if_nobody_has_one_else_give() -> None:
    table = tower({}, next=("Werner", "Marc"))
    table.duel("Werner", "black")
    assert table.state.black_of("Werner") == 1 and table.state.bag_black == 9
    assert table.state.order.next == ("Werner", "Anne")  # his left-hand neighbour Marc lost: skipped
    table.duel("Werner", "black")
    table.send({"type": "give", "player": "Werner", "to": "Herman"})
    assert table.state.black_of("Herman") == 1
    assert "dschamal.tower.black-front" in table.rules()


def test_the_camel_gives_or_takes_a_black_stone() -> None:
    table = tower({}, next=("Werner", "Marc"), black={"Werner": 1, "Anne": 2})
    table.duel("Werner", "camel")
    [camel] = [a for a in table.fold.engine.actions(table.state) if a.type == "camel"]
    assert camel.fields[0].choices == ("give:Marc", "give:Anne", "give:Herman", "take:Anne", "none")
    table.send({"type": "camel", "player": "Werner", "move": "take:Anne"})
    assert table.state.black_of("Werner") == 2 and table.state.black_of("Anne") == 1
    assert table.state.bag_camel


def test_the_camel_with_no_black_stones_anywhere_does_nothing() -> None:
    table = tower({}, next=("Werner", "Marc"))
    table.duel("Werner", "camel")
    assert not table.state.tasks
    assert "dschamal.tower.camel" in table.rules()


def test_two_stones_the_top_stone_and_the_black_go_back_the_opponent_becomes_lord() -> None:
    table = tower({"Werner": ["ball/blue", "disc/blue"]}, next=("Werner", "Marc"))
    table.send(press("Werner", "Marc"))
    [several] = [a for a in table.fold.engine.actions(table.state) if a.type == "several"]
    top = next(f for f in several.fields if f.name == "top")
    assert top.default == "disc/blue"
    with pytest.raises(EventError, match="top"):
        table.send({"type": "several", "player": "Werner", "coloured": ["block/white"], "black": 1})
    table.send(
        {"type": "several", "player": "Werner", "coloured": ["block/white"], "black": 1, "top": "disc/blue"}
    )
    assert table.state.stones_of("Werner") == ("ball/blue",)
    assert "disc/blue" in table.state.bag and "block/white" in table.state.bag
    assert table.state.bag_black == 10
    assert table.state.order.lord == "Marc"
    assert table.state.order.next == ("Marc", "Anne")


def test_two_stones_option_the_opponent_builds_the_coloured_ones() -> None:
    table = tower({}, next=("Werner", "Marc"), tower_two_stones="opponent")
    table.send(press("Werner", "Marc"))
    table.send({"type": "several", "player": "Werner", "coloured": ["block/white", "ball/brown"]})
    assert table.state.stones_of("Marc") == ("block/white", "ball/brown")


def test_a_collapse_throws_the_fallen_stones_back_the_foundation_stands() -> None:
    table = tower({"Anne": ["ball/blue", "disc/blue", "block/blue", "shape-6/blue"]}, next=("Werner", "Marc"))
    [collapse] = [a for a in table.fold.engine.actions(table.state) if a.type == "collapse"]
    assert collapse.fixed == {"player": "Anne"}
    assert collapse.fields[0].choices == ("disc/blue", "block/blue", "shape-6/blue")
    with pytest.raises(RuleViolation, match="foundation"):
        table.send({"type": "collapse", "player": "Anne", "fallen": ["ball/blue"]})
    table.send({"type": "collapse", "player": "Anne", "fallen": ["block/blue", "shape-6/blue"]})
    assert table.state.stones_of("Anne") == ("ball/blue", "disc/blue")
    assert {"block/blue", "shape-6/blue"} <= table.state.bag


def test_ten_black_stones_on_the_table_end_the_game() -> None:
    table = tower(
        {"Marc": ["ball/blue"]}, next=("Werner", "Marc"), black={"Werner": 3, "Anne": 3, "Herman": 3}
    )
    table.duel("Werner", "black")
    table.send({"type": "give", "player": "Werner", "to": "Marc"})
    summary = table.summary
    assert summary["finished"] and summary["end"] == "ten black stones lie on the table"


def test_the_rulebook_scoring_example_played_to_the_end() -> None:
    # Marc builds his seventh stone; Werner 6 stones and 2 black, Herman 5 and 3, Anne 4 and 3,
    # Marc 1 black: Marc 7 - 1 = 6, Werner 6 - 2 = 4, Herman 5 + 2 = 7, Anne 4 + 2 = 6.
    balls = ["ball/blue", "ball/yellow", "ball/white", "ball/brown"]
    blocks = ["block/blue", "block/yellow", "block/white", "block/brown"]
    holdings = {
        "Marc": [*balls, "disc/blue", "disc/yellow"],
        "Werner": ["disc/white", "disc/brown", *blocks],
        "Herman": ["shape-6/blue", "shape-6/yellow", "shape-6/white", "shape-6/brown", "shape-7/blue"],
        "Anne": ["shape-7/yellow", "shape-7/white", "shape-7/brown", "shape-8/blue"],
    }
    table = tower(holdings, next=("Marc", "Anne"), black={"Marc": 1, "Werner": 2, "Herman": 3, "Anne": 3})
    table.duel("Marc", "narrow-roof/blue")
    summary = table.summary
    assert summary["finished"]
    assert summary["scores"] == {"Marc": 6, "Anne": 6, "Herman": 7, "Werner": 4}
    assert summary["winner"] == "Herman"
    assert summary["victory_points"]["Herman"] == {"tower": 5, "black": 2, "total": 7}
    assert [v.rule.id for v in table.verdicts][-2:] == ["dschamal.tower.end", "dschamal.tower.points"]


def test_victory_points_a_single_most_and_the_second_most() -> None:
    points = victory_points(["A", "B", "C", "D"], [[""] * 3] * 4, [4, 2, 2, 1])
    assert {p: v["black"] for p, v in points.items()} == {"A": 3, "B": 1, "C": 1, "D": -1}


def test_victory_points_nobody_with_black_stones_gets_no_bonus() -> None:
    points = victory_points(["A", "B", "C"], [["x"], [], []], [0, 0, 0])
    assert {p: v["total"] for p, v in points.items()} == {"A": 1, "B": 0, "C": 0}
