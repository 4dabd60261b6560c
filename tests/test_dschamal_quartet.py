"""The Dschamál Quartet for children: two blue stones each, no camel, keep or return, first quartet wins."""

from __future__ import annotations

import pytest
from test_dschamal_support import Table, position, press

from referee.games.base import RuleViolation

PLAYERS = ("Marc", "Anne", "Herman")


def quartet(**holdings: list[str]) -> Table:
    base = {
        "Marc": ["ball/blue", "egg/blue"],
        "Anne": ["disc/blue", "block/blue"],
        "Herman": ["shape-6/blue", "shape-7/blue"],
    }
    return position("quartet", {**base, **holdings}, next=("Marc", "Anne"), players=PLAYERS)


def test_setup_two_blue_stones_each_and_no_camel() -> None:
    table = Table("quartet", PLAYERS)
    assert table.summary["out_of_game"] == ["camel"]
    assert table.summary["bag"]["count"] == 58
    with pytest.raises(RuleViolation, match="2 different blue stones"):
        table.send({"type": "start", "player": "Marc", "stones": ["ball/blue"]})
    with pytest.raises(RuleViolation, match="cannot be a starting stone"):
        table.send({"type": "start", "player": "Marc", "stones": ["ball/blue", "ball/white"]})
    table.start(
        {
            "Marc": ["ball/blue", "egg/blue"],
            "Anne": ["disc/blue", "block/blue"],
            "Herman": ["shape-6/blue", "shape-7/blue"],
        }
    )
    table.send({"type": "first", "player": "Anne"})
    assert table.request().seats == ("Anne", "Herman")
    table.send(press("Anne", "Herman"))
    [draw, _several] = table.fold.engine.actions(table.state)
    assert "camel" not in draw.fields[0].choices
    assert [f.name for f in draw.fields] == ["stone"]  # nobody calls the camel in the Quartet


def test_the_faster_keeps_a_shape_he_owns() -> None:
    table = quartet()
    table.duel("Marc", "ball/white")
    assert table.state.stones_of("Marc") == ("ball/blue", "ball/white", "egg/blue")
    assert not table.state.tasks
    assert table.state.order.next == ("Anne", "Herman")  # in turn


def test_the_faster_throws_back_then_the_slower_keeps_or_throws_back() -> None:
    table = quartet()
    table.duel("Marc", "disc/white")
    assert "disc/white" in table.state.bag
    assert table.state.tasks[0].player == "Anne"
    table.draw("Anne", "block/white")
    assert "block/white" in table.state.stones_of("Anne")
    table = quartet()
    table.duel("Marc", "black")
    table.draw("Anne", "ball/white")
    assert "ball/white" in table.state.bag
    assert "dschamal.quartet.slower" in table.rules()


def test_the_first_quartet_wins() -> None:
    table = quartet(Marc=["ball/blue", "ball/yellow", "ball/white", "egg/blue"])
    table.duel("Marc", "ball/brown")
    summary = table.summary
    assert summary["finished"] and summary["winner"] == "Marc" and summary["scores"]["Marc"] == 4
    assert "dschamal.quartet.end" in table.rules()
