"""The result of a duel: every case and example of the rulebook's "The Result of the Duel" and after."""

from __future__ import annotations

from typing import Any

import pytest
from test_dschamal_support import Table, position, press

from referee.games.base import RuleViolation

BASE = {
    "Marc": ["block/blue"],
    "Anne": ["shape-6/blue"],
    "Herman": ["shape-7/blue"],
    "Carl": ["shape-8/blue"],
    "Werner": ["shape-9/blue"],
}


def table_with(next: tuple[str, str], **holdings: list[str]) -> Table:
    return position("duel", {**BASE, **holdings}, next=next)


def last_rule(table: Table) -> str:
    results = [v.rule.id for v in table.verdicts if not v.rule.id.startswith("dschamal.order")]
    return results[-1]


# --- the faster player wins --------------------------------------------------------------------
def test_case_1_the_faster_owns_the_shape_marc_keeps_the_ball() -> None:
    # "Marc is faster than Anne and draws a ball. He wins this duel because he already owns a
    # ball. He now also places this ball in front of himself. That Anne also owns a ball plays no role."
    table = table_with(("Marc", "Anne"), Marc=["ball/blue"], Anne=["ball/yellow"])
    table.duel("Marc", "ball/white")
    assert table.state.stones_of("Marc") == ("ball/blue", "ball/white")
    assert table.state.stones_of("Anne") == ("ball/yellow",)
    assert "dschamal.duel.faster-owns" in table.rules()
    assert table.state.order.lord == "Marc"


def test_case_2_the_opponent_owns_the_shape_marc_receives_two_narrow_roofs() -> None:
    # "Marc is faster than Herman and draws a narrow roof. ... Marc receives the drawn narrow
    # roof and a narrow roof from Herman."
    table = position(
        "duel", {**BASE, "Herman": ["narrow-roof/blue", "narrow-roof/yellow"]}, next=("Marc", "Herman")
    )
    table.duel("Marc", "narrow-roof/white")
    marc = table.state.stones_of("Marc")
    assert sorted(s for s in marc if s.startswith("narrow-roof")) == ["narrow-roof/blue", "narrow-roof/white"]
    assert table.state.stones_of("Herman") == ("narrow-roof/yellow",)
    assert "dschamal.duel.opponent-owns" in table.rules()


def test_case_3_carl_draws_the_camel_calls_and_takes_a_stone_of_his_choice() -> None:
    # "Carl is faster than Marc. He draws the camel and calls 'I am the camel!'. Therefore he
    # wins the duel. He takes away a stone of his choice from Marc."
    table = table_with(("Carl", "Marc"), Marc=["block/blue", "disc/white"])
    table.duel("Carl", "camel", calls=["Carl"])
    [take] = table.fold.engine.actions(table.state)
    assert take.type == "take" and take.fixed == {"player": "Carl", "from": "Marc"}
    assert take.fields[0].choices == ("disc/white", "block/blue")
    table.send({"type": "take", "player": "Carl", "from": "Marc", "stone": "disc/white"})
    assert "disc/white" in table.state.stones_of("Carl")
    assert table.state.stones_of("Marc") == ("block/blue",)
    assert table.state.bag_camel  # the camel goes back into the bag
    assert "dschamal.duel.camel" in table.rules()


# --- the slower player wins --------------------------------------------------------------------
def test_case_1_werner_draws_a_black_stone_carl_takes_a_stone_of_his_choice() -> None:
    table = table_with(("Carl", "Werner"), Werner=["shape-9/blue", "shape-10/yellow"])
    table.duel("Werner", "black")
    assert table.state.tasks[0].kind == "take" and table.state.tasks[0].player == "Carl"
    table.send({"type": "take", "player": "Carl", "from": "Werner", "stone": "shape-10/yellow"})
    assert "shape-10/yellow" in table.state.stones_of("Carl")
    assert table.state.bag_black == 10  # "this object is put back into the bag"
    assert "dschamal.duel.black" in table.rules()
    assert table.state.order.lord == "Carl"


def test_case_2_nobody_owns_the_egg_marc_receives_it() -> None:
    # "Carl is faster than Marc. He has fished the yellow egg out of the bag. Neither of them
    # owns an egg. Marc receives the egg."
    table = table_with(("Carl", "Marc"))
    table.duel("Carl", "egg/yellow")
    assert "egg/yellow" in table.state.stones_of("Marc")
    assert "dschamal.duel.nobody-owns" in table.rules()
    assert table.state.order.lord == "Marc"


def test_case_3_marc_forgets_the_call_anne_takes_a_stone() -> None:
    table = table_with(("Marc", "Anne"), Marc=["block/blue", "ball/brown"])
    table.duel("Marc", "camel")
    table.send({"type": "take", "player": "Anne", "from": "Marc", "stone": "ball/brown"})
    assert "ball/brown" in table.state.stones_of("Anne")
    assert "dschamal.duel.camel-uncalled" in table.rules()


def test_case_4_anne_calls_wrongly_herman_receives_the_drawn_stone() -> None:
    # "Anne draws a multicoloured stone and calls: 'I am the camel!'. Herman receives the drawn stone."
    # Anne even owns the shape: the wrong call decides.
    table = table_with(("Anne", "Herman"), Anne=["shape-6/blue"])
    table.duel("Anne", "shape-6/white", calls=["Anne"])
    assert "shape-6/white" in table.state.stones_of("Herman")
    assert table.state.stones_of("Anne") == ("shape-6/blue",)
    assert "dschamal.duel.wrong-call" in table.rules()


def test_case_4_a_wrong_caller_with_a_black_stone_loses_a_collected_stone() -> None:
    table = table_with(("Anne", "Herman"), Anne=["shape-6/blue", "disc/blue"])
    table.duel("Anne", "black", calls=["Anne"])
    assert table.state.tasks[0].kind == "take" and table.state.tasks[0].player == "Herman"


def test_case_4_both_call_wrongly_the_duel_is_repeated() -> None:
    table = table_with(("Anne", "Herman"))
    before = table.state
    table.duel("Anne", "disc/white", calls=["Anne", "Herman"])
    # Herman's call matters now: was he holding the camel? The console asks what he drew.
    [action] = table.fold.engine.actions(table.state)
    assert action.type == "draw" and action.fixed == {"player": "Herman"}
    assert "disc/white" not in action.fields[0].choices and "camel" in action.fields[0].choices
    table.draw("Herman", "ball/yellow")
    assert last_rule(table) == "dschamal.duel.both-wrong"
    assert table.state.front == before.front and table.state.bag == before.bag
    assert table.request().seats == ("Anne", "Herman")


def test_case_4_only_the_faster_wrong_when_the_slower_really_held_the_camel() -> None:
    table = table_with(("Anne", "Herman"))
    table.duel("Anne", "disc/white", calls=["Anne", "Herman"])
    table.draw("Herman", "camel")
    assert "disc/white" in table.state.stones_of("Herman")
    assert last_rule(table) == "dschamal.duel.wrong-call"


def test_case_5_herman_draws_two_stones_carl_receives_the_coloured_one() -> None:
    # "Herman is indeed faster than Carl, but he draws two stones out of the bag. Carl receives
    # the coloured stone, the black stone goes back into the bag."
    table = table_with(("Herman", "Carl"), Herman=["shape-7/blue"])
    table.send(press("Herman", "Carl"))
    table.send(
        {"type": "several", "player": "Herman", "coloured": ["shape-7/white"], "black": 1, "camel": False}
    )
    assert "shape-7/white" in table.state.stones_of("Carl")
    assert table.state.stones_of("Herman") == ("shape-7/blue",)
    assert table.state.bag_black == 10
    assert "dschamal.duel.several" in table.rules()


def test_several_needs_two_stones() -> None:
    table = table_with(("Herman", "Carl"))
    table.send(press("Herman", "Carl"))
    with pytest.raises(RuleViolation, match="two or more"):
        table.send({"type": "several", "player": "Herman", "coloured": ["shape-7/white"], "black": 0})


# --- ties, the slower stone, calls by the slower player ---------------------------------------------
def test_a_tie_repeats_the_duel_with_both_stones_back() -> None:
    table = table_with(("Marc", "Anne"))
    before = table.state
    table.send(press(("Marc", "Anne")))
    assert table.state.bag == before.bag and table.state.round is None
    assert table.request().seats == ("Marc", "Anne")
    assert table.verdicts[-1].rule.text.startswith("If both players were equally fast")


def test_the_slower_players_stone_goes_back_unseen() -> None:
    table = table_with(("Marc", "Anne"), Marc=["ball/blue"])
    table.duel("Marc", "ball/white")
    assert not table.state.tasks  # nobody is asked what Anne held
    assert table.state.bag_count() == 59 - 5 - 1


def test_only_the_slower_calls_wrongly_ignored_by_default() -> None:
    table = table_with(("Marc", "Anne"), Marc=["ball/blue"])
    table.duel("Marc", "egg/white", calls=["Anne"])
    assert "egg/white" in table.state.stones_of("Anne")  # nobody owns an egg: Anne wins anyway
    assert not any(t.kind == "draw" for t in table.state.tasks)


def test_only_the_slower_calls_wrongly_option_forfeits() -> None:
    table = position("duel", BASE, next=("Marc", "Anne"), slower_camel_call="forfeits")
    table.duel("Marc", "egg/white", calls=["Anne"])
    assert table.state.tasks[0].kind == "draw" and table.state.tasks[0].player == "Anne"
    table.draw("Anne", "ball/yellow")
    assert "ball/yellow" in table.state.stones_of("Marc")
    assert "egg/white" not in table.state.stones_of("Anne")
    assert last_rule(table) == "dschamal.duel.slower-call-forfeits"


def test_option_forfeits_does_not_ask_when_the_faster_wins_anyway() -> None:
    table = position(
        "duel", {**BASE, "Marc": ["ball/blue"]}, next=("Marc", "Anne"), slower_camel_call="forfeits"
    )
    table.duel("Marc", "ball/white", calls=["Anne"])
    assert "ball/white" in table.state.stones_of("Marc") and not table.state.tasks


def test_the_slower_calls_while_the_faster_has_the_camel() -> None:
    table = table_with(("Marc", "Anne"), Anne=["shape-6/blue", "disc/blue"])
    table.duel("Marc", "camel", calls=["Marc", "Anne"])
    assert table.state.tasks[0].kind == "take" and table.state.tasks[0].player == "Marc"


# --- stones received, a loser without stones ------------------------------------------------------
def test_a_winning_stone_cannot_be_taken() -> None:
    table = position(
        "duel",
        {**BASE, "Anne": ["shape-6/blue", "disc/blue"]},
        next=("Marc", "Anne"),
        winning={"Anne": ["ball/blue", "ball/yellow", "ball/white", "ball/brown"]},
    )
    table.duel("Marc", "camel", calls=["Marc"])
    with pytest.raises(RuleViolation, match="winning stone, which is safe"):
        table.send({"type": "take", "player": "Marc", "from": "Anne", "stone": "ball/blue"})
    [take] = table.fold.engine.actions(table.state)
    assert "ball/blue" not in take.fields[0].choices


def test_a_single_possible_stone_is_taken_without_asking() -> None:
    table = table_with(("Marc", "Anne"))
    table.duel("Marc", "camel", calls=["Marc"])
    assert not table.state.tasks
    assert "shape-6/blue" in table.state.stones_of("Marc")
    assert "dschamal.duel.one-choice" in table.rules()


def test_a_loser_without_stones_the_winner_reaches_again() -> None:
    table = position("duel", {**BASE, "Anne": []}, next=("Marc", "Anne"))
    table.duel("Marc", "camel", calls=["Marc"])
    [reach] = table.fold.engine.actions(table.state)
    assert reach.type == "reach"
    choices = reach.fields[0].choices
    assert "none" in choices and "egg/white" in choices
    assert not any(c.startswith("block/") for c in choices)  # Marc owns blocks
    with pytest.raises(RuleViolation):
        table.send({"type": "reach", "player": "Marc", "stone": "shape-7/white"})  # Herman owns shape 7
    table.send({"type": "reach", "player": "Marc", "stone": "egg/white"})
    assert "egg/white" in table.state.stones_of("Marc")
    assert "dschamal.duel.reach-again" in table.rules()


def test_a_loser_without_stones_the_winner_finds_nothing() -> None:
    table = position("duel", {**BASE, "Anne": []}, next=("Marc", "Anne"))
    table.duel("Marc", "camel", calls=["Marc"])
    table.send({"type": "reach", "player": "Marc", "stone": "none"})
    assert table.state.stones_of("Marc") == ("block/blue",)


def test_a_loser_with_only_winning_stones_default_reach() -> None:
    four = ["ball/blue", "ball/yellow", "ball/white", "ball/brown"]
    table = position("duel", {**BASE, "Anne": []}, next=("Marc", "Anne"), winning={"Anne": four})
    table.duel("Marc", "camel", calls=["Marc"])
    assert table.state.tasks[0].kind == "reach"


def test_a_loser_with_only_winning_stones_option_nothing() -> None:
    four = ["ball/blue", "ball/yellow", "ball/white", "ball/brown"]
    table = position(
        "duel",
        {**BASE, "Anne": []},
        next=("Marc", "Anne"),
        winning={"Anne": four},
        loser_only_winning="nothing",
    )
    table.duel("Marc", "camel", calls=["Marc"])
    assert not table.state.tasks
    assert table.state.winning_of("Anne") == tuple(four)
    assert "dschamal.duel.only-winning" in table.rules()


# --- the decision stone --------------------------------------------------------------------------
def decision_table() -> Table:
    # Marc and Anne own no playing stones: a decision stone is needed before the duel.
    return position("duel", {**BASE, "Marc": [], "Anne": []}, next=("Marc", "Anne"))


def test_the_decision_stone_comes_first_and_has_a_shape_nobody_owns() -> None:
    table = decision_table()
    engine = table.fold.engine
    assert engine.contest(table.state) is None
    [action] = engine.actions(table.state)
    assert action.type == "decision"
    assert "egg/white" in action.fields[0].choices
    assert not any(c.startswith(("shape-7/", "shape-8/", "shape-9/")) for c in action.fields[0].choices)
    with pytest.raises(RuleViolation, match="decision stone"):
        table.send({"type": "decision", "stone": "shape-8/white"})
    with pytest.raises(RuleViolation, match="waiting for a decision stone"):
        table.send(press("Marc", "Anne"))
    table.send({"type": "decision", "stone": "egg/white"})
    assert table.state.decision == "egg/white"
    assert table.request().label == "Decision duel: Marc against Anne"
    assert table.summary["bag"]["count"] == 59 - 3 - 1


def test_decision_the_faster_draws_the_shape_and_receives_both() -> None:
    table = decision_table()
    table.send({"type": "decision", "stone": "egg/white"})
    table.duel("Anne", "egg/brown")
    assert table.state.stones_of("Anne") == ("egg/white", "egg/brown")
    assert table.state.decision == ""
    assert "dschamal.decision.shape" in table.rules()


def test_decision_the_camel_with_the_call_wins_only_the_decision_stone() -> None:
    table = decision_table()
    table.send({"type": "decision", "stone": "egg/white"})
    table.duel("Anne", "camel", calls=["Anne"])
    assert table.state.stones_of("Anne") == ("egg/white",)
    assert table.state.bag_camel
    assert "dschamal.decision.camel" in table.rules()


def test_decision_the_faster_loses_the_opponent_receives_the_decision_stone() -> None:
    table = decision_table()
    table.send({"type": "decision", "stone": "egg/white"})
    table.duel("Anne", "ball/brown")
    assert table.state.stones_of("Marc") == ("egg/white",)
    assert table.state.stones_of("Anne") == ()
    assert "ball/brown" in table.state.bag
    assert "dschamal.decision.lost" in table.rules()


def test_decision_stone_stays_in_the_middle_when_the_duel_is_repeated() -> None:
    table = decision_table()
    table.send({"type": "decision", "stone": "egg/white"})
    table.send(press(("Marc", "Anne")))
    assert table.state.decision == "egg/white"
    assert table.fold.engine.contest(table.state) is not None


def test_only_winning_stones_count_as_no_stones_for_the_decision() -> None:
    four = ["ball/blue", "ball/yellow", "ball/white", "ball/brown"]
    table = position("duel", {**BASE, "Marc": [], "Anne": []}, next=("Marc", "Anne"), winning={"Marc": four})
    assert table.summary["awaiting"]["kind"] == "decision"


# --- winning stones and the end --------------------------------------------------------------------
def test_winning_stones_when_all_four_are_out_of_the_bag_by_default() -> None:
    table = table_with(("Marc", "Anne"), Marc=["disc/blue", "disc/yellow"], Anne=["disc/white"])
    table.duel("Marc", "disc/brown")
    assert table.state.winning_of("Marc") == ("disc/blue", "disc/yellow", "disc/brown")
    assert table.state.winning_of("Anne") == ("disc/white",)
    assert "dschamal.winning.out-of-bag" in table.rules()


def test_option_in_front_winning_stones_only_when_one_player_holds_all_four() -> None:
    table = position(
        "duel",
        {**BASE, "Marc": ["disc/blue", "disc/yellow"], "Anne": ["disc/white"]},
        next=("Marc", "Anne"),
        winning_stones="in-front",
    )
    table.duel("Marc", "disc/brown")
    assert table.state.winning_of("Marc") == () and table.state.winning_of("Anne") == ()
    table = position(
        "duel",
        {**BASE, "Marc": ["disc/blue", "disc/yellow", "disc/white"]},
        next=("Marc", "Anne"),
        winning_stones="in-front",
    )
    table.duel("Marc", "disc/brown")
    assert table.state.winning_of("Marc") == ("disc/blue", "disc/yellow", "disc/white", "disc/brown")
    assert "dschamal.winning.in-front" in table.rules()


BALLS = ["ball/blue", "ball/yellow", "ball/white", "ball/brown"]
ROOFS = ["narrow-roof/blue", "narrow-roof/yellow", "narrow-roof/white", "narrow-roof/brown"]


def test_seven_winning_stones_end_the_game() -> None:
    table = position(
        "duel",
        {**BASE, "Marc": ["disc/blue", "disc/yellow", "disc/white"]},
        next=("Marc", "Anne"),
        winning={"Marc": BALLS},
    )
    table.duel("Marc", "disc/brown")
    summary = table.summary
    assert summary["finished"] and summary["winner"] == "Marc" and summary["scores"]["Marc"] == 8
    assert table.fold.engine.contest(table.state) is None
    assert table.fold.engine.actions(table.state) == []
    with pytest.raises(RuleViolation, match="game is over"):
        table.send(press("Marc", "Anne"))


def seven_at_once(**options: Any) -> Table:
    # Marc and Anne each reach seven (or more) when the last disc comes out of the bag.
    table = position(
        "duel",
        {**BASE, "Marc": ["disc/blue"], "Anne": ["disc/yellow", "disc/white"]},
        next=("Marc", "Anne"),
        winning={"Marc": [*BALLS, "egg/blue"], "Anne": [*ROOFS, "egg/yellow"]},
        **options,
    )
    table.duel("Marc", "disc/brown")
    return table


def test_seven_reached_at_once_level_players_share() -> None:
    table = seven_at_once()
    assert table.summary["winners"] == ["Marc", "Anne"]
    assert table.summary["winner"] == "Marc and Anne"
    assert "dschamal.end.seven-at-once" in table.rules()


def test_seven_reached_at_once_the_most_winning_stones_win() -> None:
    table = position(
        "duel",
        {**BASE, "Marc": ["disc/blue"], "Anne": ["disc/yellow", "disc/white"]},
        next=("Marc", "Anne"),
        winning={"Marc": [*BALLS, "egg/blue"], "Anne": [*ROOFS, "egg/yellow", "egg/white"]},
    )
    table.duel("Marc", "disc/brown")
    assert table.summary["winners"] == ["Anne"]
    shared = position(
        "duel",
        {**BASE, "Marc": ["disc/blue"], "Anne": ["disc/yellow", "disc/white"]},
        next=("Marc", "Anne"),
        winning={"Marc": [*BALLS, "egg/blue"], "Anne": [*ROOFS, "egg/yellow", "egg/white"]},
        simultaneous_seven="shared",
    )
    shared.duel("Marc", "disc/brown")
    assert shared.summary["winners"] == ["Marc", "Anne"]


def test_undo_takes_back_the_last_event() -> None:
    table = table_with(("Marc", "Anne"), Marc=["ball/blue"])
    before = table.state
    table.duel("Marc", "ball/white")
    table.send({"type": "undo"})
    assert table.state.front == before.front
    assert table.state.tasks[0].kind == "draw"  # back to "what did Marc draw?"


def test_events_out_of_turn_are_refused_with_what_is_awaited() -> None:
    table = table_with(("Marc", "Anne"))
    with pytest.raises(RuleViolation, match="waiting for duel: Marc against Anne"):
        table.draw("Marc", "ball/white")
    table.send(press("Marc", "Anne"))
    with pytest.raises(RuleViolation, match="not Anne"):
        table.draw("Anne", "ball/white")
    with pytest.raises(RuleViolation, match="not in the bag"):
        table.draw("Marc", "block/blue")  # Marc's own stone is in front of him
