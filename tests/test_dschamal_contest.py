"""Button verdicts read for Dschamál: false starts, nobody pressing, ties, the table's judgement."""

from __future__ import annotations

import pytest
from test_dschamal_support import position, press

from referee.games.base import EventError, RuleViolation

BASE = {
    "Marc": ["ball/blue"],
    "Anne": ["egg/blue"],
    "Herman": ["disc/blue"],
    "Carl": ["block/blue"],
    "Werner": ["shape-6/blue"],
}


def test_a_false_start_counts_as_slower_by_default() -> None:
    table = position("duel", BASE, next=("Marc", "Anne"))
    table.send(press("Anne", false_starts=["Marc"]))
    assert table.round.order == ("Anne", "Marc")
    assert table.verdicts[-1].rule.id == "dschamal.contest.false-start"
    assert "Marc: false start" in table.verdicts[-1].summary


def test_option_a_false_start_repeats_the_contest() -> None:
    table = position("duel", BASE, next=("Marc", "Anne"), false_start="repeat")
    table.send(press("Anne", false_starts=["Marc"]))
    assert table.state.round is None
    assert table.request().seats == ("Marc", "Anne")


def test_nobody_pressing_repeats_the_contest() -> None:
    table = position("duel", BASE, next=("Marc", "Anne"))
    table.send(press(no_press=["Marc", "Anne"]))
    assert table.state.round is None and table.verdicts[-1].rule.id == "dschamal.contest.no-press"
    table.send(press(false_starts=["Marc", "Anne"]))
    assert table.state.round is None


def test_a_single_press_is_the_faster_player() -> None:
    table = position("duel", BASE, next=("Marc", "Anne"))
    table.send(press("Anne", no_press=["Marc"]))
    assert table.round.order == ("Anne", "Marc")


def test_a_verdict_for_another_contest_is_refused() -> None:
    table = position("duel", BASE, next=("Marc", "Anne"))
    with pytest.raises(EventError, match="Herman, who is not in this contest"):
        table.send(press("Herman", "Marc"))
    with pytest.raises(EventError, match="not a contest verdict"):
        table.send({"type": "contest", "ranking": "Marc"})


def test_the_table_judges_when_the_buttons_cannot() -> None:
    table = position("duel", BASE, next=("Marc", "Anne"))
    [judged] = table.fold.engine.actions(table.state)
    assert judged.type == "judged" and judged.fields[0].choices == ("Marc", "Anne", "tie")
    table.send({"type": "judged", "fastest": "tie"})
    assert table.state.round is None
    table.send({"type": "judged", "fastest": "Anne"})
    assert table.round.order == ("Anne", "Marc")
    assert table.verdicts[-1].rule.id == "dschamal.duel.judged"


def test_the_table_judges_a_trio() -> None:
    table = position(
        "trio",
        {p: [s.replace("blue", "yellow") for s in v] for p, v in BASE.items()},
        next=("Marc", "Anne", "Herman"),
    )
    table.send({"type": "judged", "fastest": "Herman", "second": "Marc"})
    assert table.round.order == ("Herman", "Marc", "Anne")
    with pytest.raises(RuleViolation):
        table.send({"type": "judged", "fastest": "Herman"})  # the round is under way


def test_a_contest_before_the_game_is_set_up_is_refused() -> None:
    from test_dschamal_support import Table

    table = Table("duel")
    with pytest.raises(RuleViolation, match="starting blue stones"):
        table.send(press("Marc", "Anne"))
